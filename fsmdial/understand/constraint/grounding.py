"""Grounded values: what of the user's current message may become a slot value, and what value it is.

A model asked for a slot value may only copy a *span* of the user's current
message: whole words, from one word to another, exactly as written. The
grammar of the turn (:mod:`.schema`) admits nothing else, so a value the user
did not say cannot be written at all. fsmdial's own deterministic parsers
(:mod:`fsmdial.values`) then turn the span into the typed value: "tomorrow"
with the dialogue's clock, "7pm" into ``19:00``, "four" into 4.

For typed slots (date, time, integer, number, and strings with a ``pattern``)
the spans are worked out here, before decoding: the *minimal* spans the
slot's parser reads a value from (dropping their first or last word would
lose or change that value). They become a short enum in the grammar; a
message that names no date offers no date at all. Text slots may take any
span that neither starts nor ends with a function word ("I", "the", "to" ...);
the grammar writes them as a chain of words (:func:`.grammar.span_node`), not
as an enum of every span, so its size grows linearly with the message.

Everything here is a pure function of the text (and the clock for dates), and
is cached per text: a turn works it out once, whatever the state.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from ...flow import Slot, SlotType
from ...language.names import MAX_NAME_WORDS, is_name
from ...language.numbers import length_before_a_noun
from ...language.text import FUNCTION_WORDS
from ...slots import KINDS, contact_spans
from ..rules.forms import naming_words
from ..rules.pronoun_one import only_determined_ones

WORD = re.compile(r"\w+(?:['\u2019]\w+)*")
"""A word: letters and digits, with inner apostrophes ("I'm", "o'clock"). Everything else is a gap."""
TEXT_SPAN_WORDS = 64
"""Text spans are taken from the first this many words of a message (the grammar's chain stays shallow)."""
TYPED_SPAN_WORDS = 6
"""Longest span (in words) a date, time, number or pattern value is looked for in."""


@dataclass(frozen=True)
class Message:
    """The user's message cut into words; spans run from the start of one word to the end of another."""

    text: str
    words: tuple[tuple[int, int], ...]
    folded_words: tuple[str, ...]
    """Each word casefolded, curly apostrophes straight (what word lists are compared with)."""

    def span(self, first: int, last: int) -> str:
        return self.text[self.words[first][0] : self.words[last][1]]

    def word(self, index: int) -> str:
        return self.span(index, index)

    def gap(self, index: int) -> str:
        """The text between word ``index`` and the next one."""
        return self.text[self.words[index][1] : self.words[index + 1][0]]

    def spans(self, longest: int) -> Iterator[tuple[int, int, str]]:
        count = len(self.words)
        for first in range(count):
            for last in range(first, min(count, first + longest)):
                yield first, last, self.span(first, last)

    def folded(self, index: int) -> str:
        return self.folded_words[index]

    def can_edge(self, index: int, blocked: frozenset[str] = frozenset()) -> bool:
        """May a text span start or end at word ``index`` (not a function word, nor one of ``blocked``)?"""
        word = self.folded(index)
        return word not in FUNCTION_WORDS and word not in blocked

    def sentence_ends(self, index: int) -> bool:
        """Does a sentence end after word ``index`` ("... my money. And on a holiday")?"""
        gap = self.gap(index)
        if not SENTENCE_END.search(gap):
            return False
        return not (gap.startswith(". ") and self.folded(index) in ABBREVIATIONS)  # "Dr. Alexis"

    def clause_ends(self, index: int) -> bool:
        """Does a clause end after word ``index`` (a sentence end, or a comma before a function word:
        "I'm Angela, and please note ...", "Jane Doe, my account is ...")?"""
        if index + 1 >= len(self.words) or self.sentence_ends(index):
            return True
        return any(mark in self.gap(index) for mark in CLAUSE_MARKS) and self.folded(index + 1) in FUNCTION_WORDS


SENTENCE_END = re.compile(r"[.!?;]+(?:\s|$)|\n")
"""Punctuation that ends a sentence when a space follows ("7.30" and "e.g" are one sentence)."""
CLAUSE_MARKS = (",", " - ", "\u2013", "\u2014", "(", ")", ":")
ABBREVIATIONS = frozenset("dr mr mrs ms mx st jr sr prof mt ft ave rd blvd apt no vs".split())
"""Words a period after does not end a sentence."""


@dataclass(frozen=True)
class SpanRules:
    """Where one text slot's span may start, end and run (:func:`.grammar.span_node` and
    :func:`text_span_ok` both follow them, so the grammar and the check agree).

    A span never runs across a sentence end; a span of a short value
    (``one_clause``: a name, a place) never runs across a clause either. No
    word of ``barred`` (what the rules read for other slots: "76" in "I'm
    Angela, and I expect 76 people") is in it at all, and no word of
    ``blocked`` (the flow's own words) starts or ends it.
    """

    blocked: frozenset[str] = frozenset()
    starts: frozenset[int] | None = None
    barred: frozenset[str] = frozenset()
    one_clause: bool = False
    person_name: bool = False
    """The slot holds a person's name: only spans the rules' name-shape check accepts
    (:func:`fsmdial.language.names.is_name`; see :func:`name_spans`)."""
    whole: bool = False
    """A span runs to the end of its clause (its sentence, for a long value), or to a word it may not hold: never
    a fragment ("the reason is a dental check" offers "a dental check"'s clause, not "dental")."""

    def can_start(self, msg: Message, index: int) -> bool:
        return self._edge(msg, index) and (self.starts is None or index in self.starts)

    def can_end(self, msg: Message, index: int) -> bool:
        return self._edge(msg, index) and not (self.whole and self.runs_on(msg, index))

    def _edge(self, msg: Message, index: int) -> bool:
        return msg.can_edge(index, self.blocked) and msg.folded(index) not in self.barred

    def runs_on(self, msg: Message, index: int) -> bool:
        """May a span that has word ``index`` go on to the next word?"""
        if index + 1 >= len(msg.words) or msg.folded(index + 1) in self.barred:
            return False
        return not (msg.clause_ends(index) if self.one_clause else msg.sentence_ends(index))


ONE_CLAUSE_LENGTH = 200
"""A text slot whose values are at most this long (the default) takes a one-clause span."""


def span_rules_for(
    slot: Slot,
    blocked: frozenset[str],
    starts: frozenset[int] | None,
    barred: frozenset[str],
    *,
    person_name: bool = False,
    whole: bool = False,
) -> SpanRules:
    one_clause = slot.string_limit <= ONE_CLAUSE_LENGTH
    return SpanRules(blocked, starts, barred - FUNCTION_WORDS, one_clause, person_name, whole and not person_name)


@lru_cache(maxsize=256)
def name_spans(text: str, rules: SpanRules) -> tuple[str, ...]:
    """The spans of ``text`` allowed by ``rules`` that can be a person's name: a few words, each of a name's
    shape, as the rules understander reads a name ("he's bleeding badly" and "hi there" have none)."""
    msg = message(text)
    count = min(len(msg.words), TEXT_SPAN_WORDS)
    found: dict[str, None] = {}
    for first in range(count):
        if not rules.can_start(msg, first):
            continue
        for last in range(first, count):
            words = msg.span(first, last).split()
            if len(words) > MAX_NAME_WORDS:
                break
            if rules.can_end(msg, last) and is_name(words):
                found[msg.span(first, last)] = None
            if not rules.runs_on(msg, last):
                break
    return tuple(found)


@lru_cache(maxsize=256)
def message(text: str) -> Message:
    found = list(WORD.finditer(text))
    return Message(
        text, tuple(m.span() for m in found), tuple(m.group().casefold().replace("\u2019", "'") for m in found)
    )


# ------------------------------------------------------------------ typed spans

Reader = Any  # (span text, now) -> value or None

_READERS: dict[SlotType, Reader] = {kind: entry.read for kind, entry in KINDS.items() if entry.read is not None}
"""The types whose values grow and shrink with their words (dates, times, numbers): their minimal spans are offered."""


def _minimal(msg: Message, read: Reader, now: dt.datetime) -> dict[str, tuple[Any, int, int]]:
    """Span text -> (value, first word, last word) for the minimal spans ``read`` gets a value from."""
    found: dict[str, tuple[Any, int, int]] = {}
    values: dict[tuple[int, int], Any] = {}
    for first, last, span in msg.spans(TYPED_SPAN_WORDS):
        values[(first, last)] = read(span, now)
    for (first, last), value in values.items():
        if value is None:
            continue
        if first < last and (values.get((first + 1, last)) == value or values.get((first, last - 1)) == value):
            continue  # a shorter span says the same: keep that one
        found.setdefault(msg.span(first, last), (value, first, last))
    return found


@lru_cache(maxsize=512)
def read_spans(text: str, kind: SlotType, day: dt.date) -> dict[str, tuple[Any, int, int]]:
    """The minimal spans of ``text`` its kind's reader reads a value from; no date from a message the reader reads
    as none as a whole: the words around refuse it ("the saturday after then" is no next Saturday; SmolLM2 took it)."""
    now = dt.datetime.combine(day, dt.time(12, 0))
    spans = _minimal(message(text), _READERS[kind], now)
    if spans and kind is SlotType.date and _READERS[kind](text, now) is None:
        return {}
    return spans


def _covered(spans: dict[str, tuple[Any, int, int]]) -> set[int]:
    return {i for _, first, last in spans.values() if last > first for i in range(first, last + 1)}


@lru_cache(maxsize=256)
def _in_dates_and_times(text: str, day: dt.date) -> frozenset[int]:
    """The words of ``text`` inside a date or a time of several words ("March 3", "7 30 pm")."""
    return frozenset(_covered(read_spans(text, SlotType.date, day)) | _covered(read_spans(text, SlotType.time, day)))


@lru_cache(maxsize=256)
def _in_contacts(text: str) -> frozenset[int]:
    """The words of ``text`` inside a phone number or an email address (:func:`fsmdial.slots.contact_spans`)."""
    msg = message(text)
    return frozenset(i for span in contact_spans(text) for i in _word_indices(msg, span))


def claimed_words(slots: Sequence[Slot], text: str, now: dt.datetime) -> frozenset[str]:
    """The words of ``text`` inside a value that one of ``slots`` of a kind that claims its words (an address,
    :attr:`~fsmdial.slots.SlotKind.claims`) finds: no other slot may take one of them, as the rules read it ("8" of
    "8 Meadow Lane" is no time, "21" of "12 Elm Street, not 21" no number of passengers)."""
    spans = [span for slot in slots if KINDS[slot.type].claims for span in KINDS[slot.type].find(slot, text, now) or {}]
    return words_of(*spans) - FUNCTION_WORDS if spans else frozenset()


def typed_candidates(slot: Slot, text: str, now: dt.datetime) -> dict[str, Any]:
    """Span text -> value, for the spans of ``text`` that give ``slot`` a value (empty when none does).

    Values of a kind read :attr:`~fsmdial.slots.SlotKind.outside_dates` are not offered from inside a date or
    a time ("7" of "7:30", "1990" of "12/05/1990"). No date is offered from a message its reader reads as none as a
    whole ("the saturday after then": a day counted from another, not the next Saturday).
    """
    kind = KINDS[slot.type]
    if not kind.typed(slot):
        raise ValueError(f"slot {slot.name!r} of type {slot.type.value} has no typed spans")
    if slot.type in _READERS:
        spans = read_spans(text, slot.type, now.date())
        if "one" in spans and only_determined_ones(text):
            del spans["one"]  # "that's the one we use most": a thing, no count (a model took it for 1 flue)
        if kind.outside_dates:  # a one-word value inside a date or a time of several words, or in a phone or email
            inside = _in_dates_and_times(text, now.date())
            contact = _in_contacts(text)
            spans = {
                s: v
                for s, v in spans.items()
                if not (v[1] == v[2] and v[1] in inside) and not any(i in contact for i in range(v[1], v[2] + 1))
            }
        return {span: value for span, (value, _, _) in spans.items()}
    found = kind.find(slot, text, now)
    if found is None:  # free text with a pattern: the spans that match it
        found = pattern_candidates(slot.pattern or "", text)
    if not found or not (kind.outside_dates or slot.pattern is not None):
        return found
    inside = _in_dates_and_times(text, now.date())
    msg = message(text)
    return {span: value for span, value in found.items() if not any(i in inside for i in _word_indices(msg, span))}


@lru_cache(maxsize=512)
def pattern_candidates(pattern: str, text: str) -> dict[str, Any]:
    compiled = re.compile(pattern)
    msg = message(text)
    return {span: span for _, _, span in msg.spans(TYPED_SPAN_WORDS) if compiled.fullmatch(span)}


def _word_indices(msg: Message, span: str) -> list[int]:
    start = msg.text.find(span)
    end = start + len(span)
    return [i for i, (a, b) in enumerate(msg.words) if start <= a and b <= end] if start >= 0 else []


def is_typed(slot: Slot) -> bool:
    """Does the slot take a value from an enum of typed spans (rather than any span, or free text)?"""
    return KINDS[slot.type].typed(slot)


def text_span_ok(text: str, span: str, rules: SpanRules = SpanRules()) -> bool:
    """Is ``span`` a span a text slot may take from ``text`` under ``rules`` (see :func:`.grammar.span_node`)?"""
    if rules.person_name:
        return span in name_spans(text, rules)
    msg = message(text)
    count = min(len(msg.words), TEXT_SPAN_WORDS)
    for first in range(count):
        if not rules.can_start(msg, first):
            continue
        for last in range(first, count):
            if rules.can_end(msg, last) and msg.span(first, last) == span:
                return True
            if not rules.runs_on(msg, last):
                break
    return False


def words_of(*texts: str) -> frozenset[str]:
    """The casefolded words of ``texts``."""
    return frozenset(w.casefold().replace("\u2019", "'") for text in texts for w in WORD.findall(text))


def mentioned(words: str, text: str) -> bool:
    """Are all the words of ``words`` in ``text``, each as itself, by its stem ("dogs" mentions "dog", "cleaning"
    "clean"), or by its first four letters with at most two letters more or fewer (a typo: "servcie" mentions
    "service")? Never a word's start alone: "locks" does not mention "lockout" (SmolLM2 took it for the job), nor a
    word's stem shorter than the value's word ("check" mentions no "checking")."""
    said = [_plain(w) for w in WORD.findall(text)]
    wanted = [_plain(w) for w in WORD.findall(words)]
    return bool(wanted) and all(any(_same_word(w, s) for s in said) for w in wanted)


_SUFFIXES = ("ing", "ed", "es", "s", "al")


def _plain(word: str) -> str:
    word = word.casefold()
    return word[:-1] if len(word) > 3 and word.endswith("s") else word


def _stem(word: str) -> str:
    return next((word[: -len(end)] for end in _SUFFIXES if word.endswith(end) and len(word) - len(end) >= 3), word)


def _same_word(wanted: str, said: str) -> bool:
    # By its stem, a word said names a value's word with an ending added ("changed": change, "cleaning": clean),
    # never with one taken off: "check my balance" names no "checking" account.
    if wanted == said:
        return True
    if _stem(wanted) == _stem(said):  # two forms of one word: never a typo of each other ("checked", "checking")
        return len(said) >= len(wanted)
    return len(wanted) >= 4 and wanted[:4] == said[:4] and abs(len(wanted) - len(said)) <= 2


def named_beside(slot: Slot, text: str, span: str) -> bool:
    """Is the number ``span`` said beside a word naming ``slot``: up to three words before it or two after ("5
    locks", "locks: 5", "two of the locks"), the window in which the rules read a number for a slot not asked? In
    "a 5 lever mortice lock" the 5 counts levers, not locks (SmolLM2 and Qwen took it for the number of locks)."""
    before, after = _beside(text, span)
    if length_before_a_noun([span, *after], 0):
        return False  # "the 5 year extended warranty": the length names the warranty (both models took it for the age)
    return bool(naming_words(slot) & {*before[-3:], *after[:2]})


def counts_another(slot: Slot, text: str, span: str) -> bool:
    """Does the number ``span`` count a thing ``slot`` does not: a word right after it that names something else,
    neither the slot's own words nor a function word ("I need two rooms" asked for travellers; "two people", "2 of
    us", "three please" count them)?"""
    after = _beside(text, span)[1][:1]
    return bool(after) and after[0] not in FUNCTION_WORDS and after[0] not in naming_words(slot)


def _beside(text: str, span: str) -> tuple[list[str], list[str]]:
    """The words of ``text`` before and after the first place ``span`` stands (none when it stands nowhere)."""
    at = text.casefold().find(span.casefold())
    if at < 0:
        return [], []
    return re.findall(r"[a-z']+", text[:at].casefold()), re.findall(r"[a-z']+", text[at + len(span) :].casefold())
