"""The deterministic ``rules`` understander: no model, same input, same parse.

It recognises yes/no answers, numbers, dates and times, categorical values
(exact, case-insensitive, as whole words), global intents by their example
utterances, and takes the text itself as the value of a string slot that was
just asked. :meth:`RulesUnderstander.settle` is the strict subset used as the
fast path before a model: it answers only when the parse is certain.
"""

from __future__ import annotations

import datetime as dt
import re
import weakref
from collections import Counter
from collections.abc import Sequence
from functools import lru_cache

from ..flow import Slot, SlotType, fold, search_regex, value_key
from ..language import (
    ASCII_WORDS,
    CERTAIN_ANSWERS,
    CLOSING_PATTERN,
    CLOSING_WORDS,
    DECLINE_PATTERN,
    DECLINE_WORDS,
    GOODBYE_PATTERN,
    GREETING_PATTERN,
    LEAD_IN_PATTERN,
    NEGATIVE_WORDS,
    POSITIVE_WORDS,
    SELF_INTRODUCTION_PATTERN,
    THANKS_ONLY_PATTERN,
    WORD_NUMBERS,
    Acts,
    find_name,
    find_numbers,
    impossible_date,
    normalize,
    parse_yes_no,
    read_acts,
    read_clock,
    read_date,
    remove_dates_and_times,
    split_negated,
)
from .base import DECLINE, GOODBYE, Parse, UnderstandingState
from .grounding import FUNCTION_WORDS

__all__ = ["RulesUnderstander", "normalize"]
"""``normalize`` is :func:`fsmdial.language.normalize`, re-exported."""


@lru_cache(maxsize=1024)
def _value_pattern(value: str) -> re.Pattern[str]:
    """Where a categorical value is written in a reply: its :func:`~fsmdial.flow.value_key` words, in
    any case, joined by spaces, hyphens or underscores; its punctuation kept (``O-`` is not ``O+``)."""
    words = [re.escape(w) for w in value_key(value).split()]
    return re.compile(r"(?<!\w)" + r"[\s\-_]*".join(words) + r"(?!\w)", re.I)


@lru_cache(maxsize=1024)
def _short_names(values: tuple[str, ...]) -> tuple[tuple[str, re.Pattern[str]], ...]:
    """Values of several words a user may name by their own words alone: "the hilton" for "Hilton
    Hotel" when the slot also has "Hyatt Hotel" (the words no other value of the slot has, next to
    each other in the value, one of them a real word of four letters or more)."""
    keyed = {value: value_key(value).split() for value in values}
    # Words are compared without their punctuation: "york" is not "+new york_"'s own word beside "_new york+".
    bare = lambda word: re.sub(r"\W", "", word)  # noqa: E731
    shared = Counter(bare(word) for words in keyed.values() for word in set(words))
    out = []
    for value, words in keyed.items():
        own = [i for i, word in enumerate(words) if shared[bare(word)] == 1 and word not in FUNCTION_WORDS]
        if not own or len(own) == len(words) or own != list(range(own[0], own[-1] + 1)):
            continue
        if all(words[i].isalpha() for i in own) and any(len(words[i]) >= 4 for i in own):
            out.append((value, _value_pattern(" ".join(words[i] for i in own))))
    return tuple(out)


def _found_value(values: Sequence[str], text: str) -> str | None:
    """The one categorical value written in ``text``, or None when there is none or doubt.

    A value written inside a longer one is not counted (``O`` in ``O-``, ``C`` in ``C++``); of
    values found at the same place, one written exactly as its :func:`~fsmdial.flow.value_key`
    wins (``ab`` over ``a b`` for "ab"); any other doubt gives None. Where no value is written
    whole, one named by its own words alone counts, if only one is (:func:`_short_names`). The patterns are
    of folded values, so they are searched in the folded text (:func:`~fsmdial.flow.fold`; spans are of it).
    """
    text = fold(text)
    hits = [(value, found) for value in values if (found := _value_pattern(value).search(text))]
    if not hits:
        named = [value for value, pattern in _short_names(tuple(values)) if pattern.search(text)]
        return named[0] if len(named) == 1 else None
    if len(hits) > 1:
        spans = [found.span() for _, found in hits]
        hits = [
            (value, found)
            for value, found in hits
            if not any(s[0] <= found.start() and found.end() <= s[1] and s != found.span() for s in spans)
        ]
    if len(hits) > 1:
        hits = [(value, found) for value, found in hits if value_key(found.group()) == value_key(value)]
    return hits[0][0] if len(hits) == 1 else None


def _settled_value(values: Sequence[str], text: str) -> str | None:
    """The categorical value ``text`` is, beyond doubt: the one with its :func:`~fsmdial.flow.value_key`,
    else the one it names once punctuation is dropped, if that value has none that counts."""
    key = value_key(text.strip())
    for value in values:
        if value_key(value) == key:
            return value  # keys are unique within a slot (flow validation)
    norm = normalize(text)
    same = [value for value in values if normalize(value) == norm]
    if len(same) == 1 and value_key(same[0]) == norm:
        return same[0]
    return None


class _StateTables:
    """What the rules read from one :class:`UnderstandingState`, worked out once per state.

    The runtime keeps one state object per machine state, so a turn only looks these up.
    """

    def __init__(self, state: UnderstandingState):
        asked = self.asked = state.slot(state.asked) if state.asked else None
        names = {intent.name for intent in state.intents}
        self.decline = DECLINE in names and state.asked is not None
        self.goodbye = GOODBYE in names
        self.thanks_closes = state.asked is None and state.confirm is None
        # Examples of more than one word, padded to be found as whole words within a longer sentence.
        self.phrases = tuple(
            (f" {example} ", len(example), intent) for example, intent in state.example_index.items() if " " in example
        )
        self.has_date = SlotType.date in state.slot_types
        self.has_time = SlotType.time in state.slot_types
        self.date_target = _target(state, asked, SlotType.date)
        self.time_target = _target(state, asked, SlotType.time)
        self.number_target = _target(state, asked, SlotType.integer, SlotType.number)
        self.categorical = tuple(
            (slot, tuple(slot.values or ()), slot is asked or slot.name in state.expected)
            for slot in state.slots
            if slot.type is SlotType.categorical
        )
        patterns = [_value_pattern(value).pattern for _, slot_values, _ in self.categorical for value in slot_values]
        patterns += [found.pattern for _, values, _ in self.categorical for _, found in _short_names(values)]
        # One search says whether any value is there at all (most turns name none).
        self.any_value = re.compile("|".join(patterns), re.I) if patterns else None
        self.number_words = tuple(
            (slot, _number_vocabulary(slot)) for slot in state.slots if slot.type in (SlotType.integer, SlotType.number)
        )
        self.name_slot = state.person_name
        self.single_number = self.number_words[0][0] if len(self.number_words) == 1 else None
        self.choice_examples = tuple(
            (choice.name, tuple(normalize(e) for e in choice.examples)) for choice in state.choice_examples
        )


class _TablesCache:
    """The tables of each live state, kept here (the state is frozen, and not this module's).

    Keyed by the state's identity, as the runtime keeps one state object per
    machine state; an entry goes when its state is garbage-collected.
    """

    def __init__(self) -> None:
        self._by_id: dict[int, tuple[weakref.ref[UnderstandingState], _StateTables]] = {}

    def get(self, state: UnderstandingState) -> _StateTables:
        key = id(state)
        entry = self._by_id.get(key)
        if entry is not None and entry[0]() is state:
            return entry[1]
        tables = _StateTables(state)
        self._by_id[key] = (weakref.ref(state, lambda ref: self._forget(key, ref)), tables)
        return tables

    def _forget(self, key: int, ref: weakref.ref[UnderstandingState]) -> None:
        entry = self._by_id.get(key)
        if entry is not None and entry[0] is ref:  # not a newer state that reuses the id
            del self._by_id[key]

    def __len__(self) -> int:
        return len(self._by_id)


_TABLES = _TablesCache()


def _tables(state: UnderstandingState) -> _StateTables:
    return _TABLES.get(state)


class RulesUnderstander:
    """Deterministic understanding from patterns; see the module docstring."""

    path = "rules"

    def understand(
        self,
        state: UnderstandingState,
        text: str,
        *,
        history: Sequence[tuple[str, str]] = (),
        now: dt.datetime | None = None,
    ) -> Parse:
        now = now or dt.datetime.now()
        parse = Parse(path=self.path)
        norm = normalize(text)
        if not norm and not value_key(text):  # punctuation alone may still be a value ("-", "+")
            return parse
        tables = _tables(state)
        acts = read_acts(text)
        if state.confirm is not None:
            parse.answer = _answer(text, acts)  # type: ignore[assignment]
        parse.intent = self._intent(state, tables, norm, text)
        if state.choices:
            parse.choice = _choice(state, tables, norm, parse.answer)
        said, ruled_out = split_negated(text) if acts.deny else (text, "")
        self._fill_slots(state, tables, text, now, parse, acts, said)
        if ruled_out:  # "sure, just not at 7pm": the typed values of the clauses with a "not"
            negated = Parse()
            self._fill_typed(state, tables, ruled_out, now, negated, asked=None)
            parse.negated = {name: value for name, value in negated.slots.items() if name not in parse.slots}
        return parse

    def certain(
        self,
        state: UnderstandingState,
        text: str,
        *,
        history: Sequence[tuple[str, str]] = (),
        now: dt.datetime | None = None,
    ) -> Parse:
        """What the rules read with certainty (what a model may not override): their intent, and the
        values of slots with a type to read.

        A value read from a string slot "as the whole text" is a guess, left out (a pattern match
        stays). With a confirmation pending, a value the agent's question itself names is a
        restatement ("yes, 4 people"), not a change.
        """
        found = self.understand(state, text, history=history, now=now)
        slots = {}
        for name, value in found.slots.items():
            slot = state.slot(name)
            if slot is None:
                continue
            cued = name in found.info.get("cued", ())
            if (
                slot.type is SlotType.string
                and not cued
                and not (slot.pattern and re.fullmatch(slot.pattern, str(value)))
            ):
                continue
            slots[name] = value
        if state.confirm is not None and slots:
            asked = next((said for role, said in reversed(history) if role != "user"), "")
            slots = {name: value for name, value in slots.items() if not _names(asked, value)}
        return Parse(intent=found.intent, slots=slots, negated=found.negated, path="rules")

    def settle(self, state: UnderstandingState, text: str, *, now: dt.datetime | None = None) -> Parse | None:
        """A parse only when the text leaves no doubt; otherwise None (ask the model)."""
        norm = normalize(text)
        if not norm and not value_key(text):  # punctuation alone may still be a value ("-", "+")
            return None
        if state.confirm is not None and (norm in CERTAIN_ANSWERS or _plain_answer(text) is not None):
            answer = CERTAIN_ANSWERS.get(norm) or _plain_answer(text)
            if not state.choices:
                return Parse(answer=answer, path="fast")  # type: ignore[arg-type]
            # A question answered by choosing (an SOP's user states): only settled when the answer picks one.
            choice = _choice(state, _tables(state), norm, answer)
            if choice is not None:
                return Parse(answer=answer, choice=choice, path="fast")  # type: ignore[arg-type]
            return None
        intent = state.example_index.get(norm)
        if intent is not None:
            return Parse(intent=intent, path="fast")
        asked = state.slot(state.asked) if state.asked else None
        if asked is None:
            return None
        if asked.type is SlotType.categorical and (value := _settled_value(asked.values or (), text)) is not None:
            return Parse(slots={asked.name: value}, path="fast")
        if asked.type in (SlotType.integer, SlotType.number) and re.fullmatch(r"\d+(?:\.\d+)?", text.strip()):
            numeric = [s for s in state.slots if s.type in (SlotType.integer, SlotType.number)]
            if len(numeric) == 1 or asked.name in state.expected[:1]:
                return Parse(slots={asked.name: find_numbers(text)[0]}, path="fast")
        return None

    # ------------------------------------------------------------------ parts
    def _intent(self, state: UnderstandingState, tables: _StateTables, norm: str, text: str) -> str | None:
        index = state.example_index
        if norm in index:
            return index[norm]
        # A longer example said within a longer sentence ("hi, I'd like to book a table for 4").
        padded = f" {norm} "
        contained = [(length, intent) for phrase, length, intent in tables.phrases if phrase in padded]
        if contained:
            return max(contained)[1]
        if not (tables.decline or tables.goodbye):
            return None
        words = ASCII_WORDS.findall(norm) if norm.isascii() else None  # None: search the patterns
        if tables.decline and (words is None or not DECLINE_WORDS.isdisjoint(words)) and DECLINE_PATTERN.search(norm):
            return DECLINE
        if tables.goodbye and (
            GOODBYE_PATTERN.match(norm)
            or ((words is None or not CLOSING_WORDS.isdisjoint(words)) and CLOSING_PATTERN.search(norm))
            or (tables.thanks_closes and THANKS_ONLY_PATTERN.match(text.strip()))
        ):
            return GOODBYE
        return None

    def _fill_slots(
        self,
        state: UnderstandingState,
        tables: _StateTables,
        text: str,
        now: dt.datetime,
        parse: Parse,
        acts: Acts,
        said: str,
    ) -> None:
        """Typed values from ``said`` (the text without its clauses with a "not"), then a name or the text itself."""
        asked = tables.asked
        self._fill_typed(state, tables, said, now, parse, asked)
        if tables.name_slot is not None and tables.name_slot.name not in parse.slots and not acts.question:
            # A name said after words that introduce one, at any point ("yes, but the name should be Bob Smith");
            # for the name just asked, also the reply's first clause ("Priya, I'd like to make a reservation").
            # Only a name after words that introduce it is certain (the model path keeps it); one read from the
            # first clause of the reply is a reading the model may still make better.
            name_asked = asked is tables.name_slot
            cued = find_name(acts.rest, False)
            found = cued or (find_name(acts.rest, True) if name_asked and not acts.holds_no_value else None)
            if found is not None:
                parse.slots[tables.name_slot.name] = found  # whole: over max_length is refused, never cut
                if cued is not None:
                    parse.info.setdefault("cued", []).append(tables.name_slot.name)
            if name_asked:
                return  # no name in the reply: asked again, never the whole text
        if asked is None or asked.name in parse.slots:
            return
        if asked.type is SlotType.boolean and (answer := parse_yes_no(text)) is not None:
            parse.slots[asked.name] = answer == "yes"
        elif asked.type is SlotType.string and parse.intent is None and not parse.slots and not acts.holds_no_value:
            # The text is the value only when nothing else was read from it ("no, make it 1111" keeps 1111), and
            # never a greeting, thanks, a question or a don't-know.
            if parse.answer is None and not (_slot_lead(asked.name)[1] and _only_yes_or_no(text)):
                # A bare "yes"/"no" answers no name question: it is asked again, not recorded as the name.
                parse.slots[asked.name] = _string_value(asked, text)
            elif asked.pattern is not None and (found := _pattern_value(asked, text)) is not None:
                parse.slots[asked.name] = found

    def _fill_typed(
        self,
        state: UnderstandingState,
        tables: _StateTables,
        text: str,
        now: dt.datetime,
        parse: Parse,
        asked: Slot | None,
    ) -> None:
        """Dates, times, categorical values and numbers written in ``text``."""
        rest = text
        # A bare "7:45" or "Friday" is passed on as written: the slot's bounds resolve it (values.coerce).
        date = read_date(text, now) if tables.has_date else None
        time = read_clock(text, now) if tables.has_time else None
        if date or time:
            rest = remove_dates_and_times(text, now)
        if date is not None and tables.date_target is not None:
            parse.slots[tables.date_target.name] = date
        elif date is None and tables.has_date and asked is not None and asked is tables.date_target:
            # "February 29" (not a leap year), "April 31": recorded as written, so that the
            # value check answers "not a real date" and asks again.
            written = impossible_date(text, now)
            if written is not None:
                parse.slots[asked.name] = written
        if time is not None and tables.time_target is not None:
            parse.slots[tables.time_target.name] = time
        if tables.any_value is not None and tables.any_value.search(fold(text)):
            for slot, values, asked_for in tables.categorical:
                hit = _found_value(values, text)
                if hit is not None and (asked_for or _distinctive(hit)):
                    parse.slots[slot.name] = hit
        numbers = find_numbers(rest)
        if numbers:
            target = tables.number_target or _named_number_slot(tables, rest) or _corrected_number_slot(tables, rest)
            if target is not None and target.name not in parse.slots and len(numbers) == 1:
                parse.slots[target.name] = numbers[0]


def _target(state: UnderstandingState, asked: Slot | None, *kinds: SlotType) -> Slot | None:
    """The slot a typed value goes to: the asked slot, else the only such slot expected, else the only one."""
    if asked is not None and asked.type in kinds:
        return asked
    of_kind = [slot for slot in state.slots if slot.type in kinds]
    expected = [slot for slot in of_kind if slot.name in state.expected]
    if len(expected) == 1:
        return expected[0]
    if len(of_kind) == 1 and kinds[0] in (SlotType.date, SlotType.time):
        return of_kind[0]
    return None


_STOP = {"number", "the", "of", "for", "and", "with", "what", "which", "how", "many", "much", "name", "value"}


def _number_vocabulary(slot: Slot) -> frozenset[str]:
    """The words that name a numeric slot ("people" for party_size described as "Number of people")."""
    vocab = {w for w in re.findall(r"[a-z]+", f"{slot.name.replace('_', ' ')} {slot.description}".casefold())}
    vocab = {w for w in vocab if len(w) > 2 and w not in _STOP}
    return frozenset(vocab | {w + "s" for w in vocab} | {w[:-1] for w in vocab if w.endswith("s")})


def _named_number_slot(tables: _StateTables, text: str) -> Slot | None:
    """The numeric slot whose own words stand right next to the number ("7 people", "ride 102")."""
    if not tables.number_words:
        return None
    words = re.findall(r"[a-z]+|\d+(?:[.,]\d+)?", text.casefold())
    hits: list[Slot] = []
    for slot, vocab in tables.number_words:
        for i, word in enumerate(words):
            if (word[0].isdigit() or word in WORD_NUMBERS) and any(
                w in vocab for w in words[max(0, i - 2) : i] + words[i + 1 : i + 3]
            ):
                hits.append(slot)
                break
    return hits[0] if len(hits) == 1 else None


_CORRECTION = re.compile(r"\b(?:wrong|mistake|typo|i meant|meant to say|correction|sorry|actually|oops)\b", re.I)


def _corrected_number_slot(tables: _StateTables, text: str) -> Slot | None:
    """The flow's only numeric slot, for a number given as a correction ("sorry, wrong number, it's 251")."""
    return tables.single_number if tables.single_number is not None and _CORRECTION.search(text) else None


def _answer(text: str, acts: Acts) -> str | None:
    """The answer to a pending yes/no question: a "yes" taken back or qualified ("yes, but ...", "sure, just not
    at 7pm", "ok?") is no yes; a message made only of yes words ("sounds good, thanks") is one."""
    said = parse_yes_no(text)
    if said == "yes" and (acts.hedge or acts.question or acts.deny):
        return None
    return said if said is not None else _plain_answer(text)


def _plain_answer(text: str) -> str | None:
    acts = read_acts(text)
    return "yes" if acts.plain_yes else "no" if acts.plain_no else None


def _distinctive(value: str) -> bool:
    # A categorical value found in passing counts only if it cannot be an ordinary word.
    return len(value) > 3 and value.casefold() not in {"none", "other", "any", "yes", "no", "true", "false"}


def _pattern_value(slot: Slot, text: str) -> str | None:
    """The part of the text that has the slot's form ("it's 1234, I think" -> "1234")."""
    found = _search_pattern(slot.pattern or "").search(text)
    return found.group() if found else None


@lru_cache(maxsize=1024)
def _search_pattern(pattern: str) -> re.Pattern[str]:
    # flow.search_regex moves anchors and global flags out properly: "[0-9]+\\$" keeps its dollar.
    return search_regex(pattern)


@lru_cache(maxsize=1024)
def _slot_lead(name: str) -> tuple[re.Pattern[str] | None, bool]:
    """The "my <slot words> is" lead-in pattern of a slot, and whether the slot is a name."""
    words = [w for w in re.split(r"[_\W]+", name.lower()) if len(w) > 2]
    if not words:
        return None, False
    pattern = r"^(?:my|the|our)\s+(?:[\w']+\s+){0,2}?(?:" + "|".join(map(re.escape, words)) + r")\s+(?:is|are|'s)\s+"
    return re.compile(pattern, re.I), "name" in words


def _only_yes_or_no(text: str) -> bool:
    """The reply is a bare yes or no ("yes", "no thanks", "yes please") and says nothing else."""
    words = re.findall(r"[a-z']+", text.lower())
    return bool(words) and parse_yes_no(text) is not None and all(w in _BARE_REPLY_WORDS for w in words)


def _string_value(slot: Slot, text: str) -> str:
    value = text.strip()
    if slot.pattern is not None and not re.fullmatch(slot.pattern, value):
        found = _pattern_value(slot, value)
        if found is not None:
            return found
    # "my name is X" for a slot called *name*: keep X.
    lead, is_name = _slot_lead(slot.name)
    if lead is not None:
        value = lead.sub("", value)
    value = GREETING_PATTERN.sub("", value)
    if is_name:  # "I'm Jane", "this is Jane" answer a name
        value = SELF_INTRODUCTION_PATTERN.sub("", value)
    value = LEAD_IN_PATTERN.sub("", value).strip().rstrip(".!")
    return value or text.strip()  # whole: a value over max_length is refused and asked again, never cut


_POLARITY_WORDS = POSITIVE_WORDS | NEGATIVE_WORDS
"""Words of a choice's label that do not tell it from the other choices."""

_BARE_REPLY_WORDS = _POLARITY_WORDS | {"please", "thanks", "thank", "you", "ok", "okay", "sure"}
"""Words a bare yes/no reply may consist of (it then names nothing)."""


def _choice_words(name: str) -> list[str]:
    return [t.lower() for t in re.findall(r"[A-Z]?[a-z]+", name.split(".")[-1])]


def _choice(state: UnderstandingState, tables: _StateTables, norm: str, answer: str | None) -> str | None:
    """Classify a reply into one of the question's choices: examples, then shared words, then yes/no polarity."""
    for name, examples in tables.choice_examples:
        if norm in examples:
            return name
    words = set(norm.split())
    scored = sorted(
        ((sum(1 for w in _choice_words(c) if w in words and w not in _POLARITY_WORDS), c) for c in state.choices),
        key=lambda item: -item[0],
    )
    if scored and scored[0][0] and (len(scored) == 1 or scored[0][0] > scored[1][0]):
        return scored[0][1]
    for name, examples in tables.choice_examples:
        if any(len(e.split()) > 1 and e in norm for e in examples):
            return name
    polarity = answer or parse_yes_no(norm)
    if polarity in ("yes", "no"):
        fitting = [
            c
            for c in state.choices
            if (set(_choice_words(c)) & NEGATIVE_WORDS) == set()
            and polarity == "yes"
            or (set(_choice_words(c)) & NEGATIVE_WORDS)
            and polarity == "no"
        ]
        if len(fitting) == 1:
            return fitting[0]
    return None


def _names(said: str, value: object) -> bool:
    """Does the agent's sentence ``said`` name ``value`` (as a whole word or number)?"""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    # Not inside a date or a time ("11" in "2026-11-26" is not "11 people").
    return re.search(r"(?<![\w.\-/:])" + re.escape(str(value)) + r"(?![\w\-/:])", said, re.I) is not None
