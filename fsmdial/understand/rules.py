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
from collections.abc import Sequence
from functools import lru_cache

from ..flow import Slot, SlotType
from ..values import (
    _ASCII_LETTERS,
    _DAY_MONTH,
    _DIGIT,
    _ISO_DATE,
    _MONTH_DAY,
    _MONTH_PREFIXES,
    _NUMERIC_DATE,
    _ORDINAL_DAY,
    _ORDINAL_SUFFIXES,
    _TIME,
    _TIME_WORD,
    _may_contain,
    find_numbers,
    parse_date,
    parse_time,
    parse_yes_no,
)
from .base import DECLINE, GOODBYE, Parse, UnderstandingState

_PUNCT = re.compile(r"[^\w\s']+")
_GOODBYE = re.compile(
    r"^(?:ok(?:ay)?[,.!\s]+)?(?:(?:no,?\s+)?(?:thanks?|thank you)(?: (?:so|very) much)?[,.!\s]*)?"
    r"(?:bye|goodbye|good bye|bye bye|see you|see ya|cya|farewell|have a (?:good|nice|great) (?:day|night|one)|"
    r"that'?s all|that is all|that will be all|nothing else|i'?m done|we'?re done)\b",
    re.I,
)
_CLOSING = re.compile(
    r"\b(?:bye|goodbye|good bye|farewell|have a (?:good|nice|great|wonderful|lovely) (?:day|night|evening|weekend|one)|"
    r"good night|that'?s all|that is all|that (?:will|would) be all|that'?ll be all|that'?s everything|that is everything|"
    r"that'?s (?:about )?it for (?:me|now|today)|nothing else|(?:i'?m|i am|we'?re|we are) (?:all )?(?:set|done))\b",
    re.I,
)
"""A closing said anywhere in the sentence ("Great, that will be all. Good bye.")."""
_THANKS_ONLY = re.compile(r"^(?:ok(?:ay)?[,.!\s]*)?(?:no[,.!\s]+)?(?:thanks?|thank you|thx|ty)(?: (?:so|very) much)?[.!\s]*$", re.I)
_DECLINE = re.compile(
    r"\b(?:i\s+)?(?:don'?t|do not|dont)\s+(?:know|have|remember|recall)\b|\bno idea\b|\bnot sure\b|\bi forgot\b|"
    r"\bcan'?t (?:remember|recall|find)\b|\bcannot (?:remember|recall|find)\b|\bi (?:lost|forgot) (?:it|my)\b|"
    r"\brather not\b|\bprefer not\b|\bwon'?t (?:say|tell|give)\b|\bnot (?:going|willing) to (?:say|tell|give|share)\b",
    re.I,
)
# A word every match of _CLOSING / _DECLINE contains (whole, between non-letters): a sentence with
# none of them cannot match, and the pattern is not searched. Keep in step with the patterns.
_CLOSING_WORDS = frozenset({"bye", "goodbye", "farewell", "have", "night", "all", "everything", "for", "else", "set",
                            "done"})  # fmt: skip
_DECLINE_WORDS = frozenset({"know", "have", "remember", "recall", "idea", "sure", "forgot", "find", "lost", "rather",
                            "prefer", "say", "tell", "give", "share"})  # fmt: skip
_LEAD_IN = re.compile(r"^(?:(?:it'?s|it is|this is|that'?s|that is)\s+)", re.I)
_GREETING = re.compile(r"^(?:hi|hello|hey|hiya|good (?:morning|afternoon|evening))\b[\s,.!]*", re.I)
_SELF = re.compile(r"^(?:i'?m|i am|this is|call me|it'?s)\s+", re.I)


def normalize(text: str) -> str:
    """Lower-case words separated by single spaces, punctuation dropped (apostrophes kept)."""
    return " ".join(_PUNCT.sub(" ", text.casefold()).split())  # split() and \s agree on what a space is


@lru_cache(maxsize=1024)
def _value_pattern(value: str) -> re.Pattern[str]:
    words = [re.escape(w) for w in normalize(value).split()]
    return re.compile(r"(?<!\w)" + r"[\s\-_]*".join(words) + r"(?!\w)", re.I)


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
        values = [value for _, slot_values, _ in self.categorical for value in slot_values]
        # One search says whether any value is there at all (most turns name none).
        self.any_value = re.compile("|".join(_value_pattern(v).pattern for v in values), re.I) if values else None
        self.number_words = tuple(
            (slot, _number_vocabulary(slot)) for slot in state.slots if slot.type in (SlotType.integer, SlotType.number)
        )
        self.choice_examples = tuple(
            (choice.name, tuple(normalize(e) for e in choice.examples)) for choice in state.choice_examples
        )


def _tables(state: UnderstandingState) -> _StateTables:
    # Kept in the state's own __dict__, as functools.cached_property does (the dataclass is frozen).
    tables = state.__dict__.get("_rules_tables")
    if tables is None:
        tables = state.__dict__["_rules_tables"] = _StateTables(state)
    return tables


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
        if not norm:
            return parse
        tables = _tables(state)
        if state.confirm is not None:
            parse.answer = parse_yes_no(text)  # type: ignore[assignment]
        parse.intent = self._intent(state, tables, norm, text)
        if state.choices:
            parse.choice = _choice(state, tables, norm, parse.answer)
        self._fill_slots(state, tables, text, now, parse)
        return parse

    def settle(self, state: UnderstandingState, text: str, *, now: dt.datetime | None = None) -> Parse | None:
        """A parse only when the text leaves no doubt; otherwise None (ask the model)."""
        norm = normalize(text)
        if not norm:
            return None
        if state.confirm is not None and norm in _CERTAIN_ANSWERS:
            answer = _CERTAIN_ANSWERS[norm]
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
        if asked.type is SlotType.categorical:
            for value in asked.values or ():
                if normalize(value) == norm:
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
        words = _ASCII_LETTERS.findall(norm) if norm.isascii() else None  # None: search the patterns
        if tables.decline and (words is None or not _DECLINE_WORDS.isdisjoint(words)) and _DECLINE.search(norm):
            return DECLINE
        if tables.goodbye and (
            _GOODBYE.match(norm)
            or ((words is None or not _CLOSING_WORDS.isdisjoint(words)) and _CLOSING.search(norm))
            or (tables.thanks_closes and _THANKS_ONLY.match(text.strip()))
        ):
            return GOODBYE
        return None

    def _fill_slots(
        self, state: UnderstandingState, tables: _StateTables, text: str, now: dt.datetime, parse: Parse
    ) -> None:
        asked = tables.asked
        rest = text
        date = parse_date(text, now) if tables.has_date else None
        time = parse_time(text) if tables.has_time else None
        if date or time:
            rest = _strip_temporal(text)
        if date is not None and tables.date_target is not None:
            parse.slots[tables.date_target.name] = date
        if time is not None and tables.time_target is not None:
            parse.slots[tables.time_target.name] = time
        if tables.any_value is not None and tables.any_value.search(text):
            for slot, values, asked_for in tables.categorical:
                hits = [v for v in values if _value_pattern(v).search(text)]
                if len(hits) == 1 and (asked_for or _distinctive(hits[0])):
                    parse.slots[slot.name] = hits[0]
        numbers = find_numbers(rest)
        if numbers:
            target = tables.number_target or _named_number_slot(tables, rest)
            if target is not None and target.name not in parse.slots and len(numbers) == 1:
                parse.slots[target.name] = numbers[0]
        if asked is None or asked.name in parse.slots:
            return
        if asked.type is SlotType.boolean and (answer := parse_yes_no(text)) is not None:
            parse.slots[asked.name] = answer == "yes"
        elif asked.type is SlotType.string and parse.intent is None and not parse.slots:
            # The text is the value only when nothing else was read from it ("no, make it 1111" keeps 1111).
            if parse.answer is None:
                parse.slots[asked.name] = _string_value(asked, text)
            elif asked.pattern is not None and (found := _pattern_value(asked, text)) is not None:
                parse.slots[asked.name] = found


_CERTAIN_ANSWERS = {
    **dict.fromkeys(["yes", "yes please", "yeah", "yep", "yup", "sure", "correct", "that's right", "right", "ok", "okay",
                     "yes it is", "yes that's right", "yes that's correct", "absolutely", "of course"], "yes"),
    **dict.fromkeys(["no", "nope", "nah", "no thanks", "no thank you", "not really", "incorrect", "that's wrong"], "no"),
}  # fmt: skip


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
            if word[0].isdigit() and any(w in vocab for w in words[max(0, i - 2) : i] + words[i + 1 : i + 3]):
                hits.append(slot)
                break
    return hits[0] if len(hits) == 1 else None


def _distinctive(value: str) -> bool:
    # A categorical value found in passing counts only if it cannot be an ordinary word.
    return len(value) > 3 and value.casefold() not in {"none", "other", "any", "yes", "no", "true", "false"}


def _strip_temporal(text: str) -> str:
    # Every pattern but the time words needs a digit, and most also a character or word of their own:
    # a pattern is only applied when the text has them. Removing text never adds any, so the
    # original text is tested.
    if not _DIGIT.search(text):
        return _TIME.sub(" ", text) if _TIME_WORD.search(text) else text
    low = text.lower()
    text = _TIME.sub(" ", text)
    if "-" in low:
        text = _ISO_DATE.sub(" ", text)
    if "/" in low or "." in low:
        text = _NUMERIC_DATE.sub(" ", text)
    if _may_contain(low, _MONTH_PREFIXES):
        text = _DAY_MONTH.sub(" ", _MONTH_DAY.sub(" ", text))
    if _may_contain(low, _ORDINAL_SUFFIXES):
        text = _ORDINAL_DAY.sub(" ", text)
    return text


def _pattern_value(slot: Slot, text: str) -> str | None:
    """The part of the text that has the slot's form ("it's 1234, I think" -> "1234")."""
    pattern = (slot.pattern or "").removeprefix("^").removesuffix("$")
    found = re.search(r"(?<!\w)(?:" + pattern + r")(?!\w)", text)
    return found.group() if found else None


@lru_cache(maxsize=1024)
def _slot_lead(name: str) -> tuple[re.Pattern[str] | None, bool]:
    """The "my <slot words> is" lead-in pattern of a slot, and whether the slot is a name."""
    words = [w for w in re.split(r"[_\W]+", name.lower()) if len(w) > 2]
    if not words:
        return None, False
    pattern = r"^(?:my|the|our)\s+(?:[\w']+\s+){0,2}?(?:" + "|".join(map(re.escape, words)) + r")\s+(?:is|are|'s)\s+"
    return re.compile(pattern, re.I), "name" in words


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
    value = _GREETING.sub("", value)
    if is_name:  # "I'm Jane", "this is Jane" answer a name
        value = _SELF.sub("", value)
    value = _LEAD_IN.sub("", value).strip().rstrip(".!")
    return value[: slot.string_limit] if value else text.strip()[: slot.string_limit]


_POSITIVE = {"agree", "agrees", "accept", "accepts", "yes", "confirm", "confirms", "give", "gives", "is", "has", "want", "wants", "ok"}
_NEGATIVE = {"not", "no", "decline", "declines", "refuse", "refuses", "doubt", "doubts", "reject", "rejects", "deny", "denies"}


def _choice_words(name: str) -> list[str]:
    return [t.lower() for t in re.findall(r"[A-Z]?[a-z]+", name.split(".")[-1])]


def _choice(state: UnderstandingState, tables: _StateTables, norm: str, answer: str | None) -> str | None:
    """Classify a reply into one of the question's choices: examples, then shared words, then yes/no polarity."""
    for name, examples in tables.choice_examples:
        if norm in examples:
            return name
    words = set(norm.split())
    scored = sorted(
        ((sum(1 for w in _choice_words(c) if w in words and w not in _POSITIVE | _NEGATIVE), c) for c in state.choices),
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
            c for c in state.choices
            if (set(_choice_words(c)) & _NEGATIVE) == set() and polarity == "yes"
            or (set(_choice_words(c)) & _NEGATIVE) and polarity == "no"
        ]
        if len(fitting) == 1:
            return fitting[0]
    return None
