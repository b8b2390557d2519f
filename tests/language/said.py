"""Shared by the said-forms tests: a value said in the words a person uses, read back by the rules understander (and
offered to a model by grounding) for one asked slot."""

from __future__ import annotations

import datetime as dt
from typing import Any

from fsmdial.flow import Slot
from fsmdial.understand.base import UnderstandingState
from fsmdial.understand.constraint.grounding import typed_candidates
from fsmdial.understand.rules import RulesUnderstander
from fsmdial.values import InvalidValue, coerce

NOW = dt.datetime(2026, 11, 30, 9, 0)  # a Monday morning
NOTHING = object()
"""Nothing stored: the slot is asked again (or, for a value refused, told why and asked again)."""

_UNITS = "zero one two three four five six seven eight nine".split()
_TEENS = "ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen".split()
_TENS = "_ _ twenty thirty forty fifty sixty seventy eighty ninety".split()
DIGIT_WORDS = dict(enumerate(_UNITS))


def in_words(number: int) -> str:
    """``number`` (0 to 999,999) in English words, as said in Britain ("one hundred and five")."""
    if number < 10:
        return _UNITS[number]
    if number < 20:
        return _TEENS[number - 10]
    if number < 100:
        tens, units = divmod(number, 10)
        return _TENS[tens] + (f"-{_UNITS[units]}" if units else "")
    if number < 1000:
        hundreds, rest = divmod(number, 100)
        return f"{_UNITS[hundreds]} hundred" + (f" and {in_words(rest)}" if rest else "")
    thousands, rest = divmod(number, 1000)
    joiner = " and " if 0 < rest < 100 else " "
    return f"{in_words(thousands)} thousand" + (joiner + in_words(rest) if rest else "")


def state_asking(slot: Slot, *others: Slot) -> UnderstandingState:
    """The state of a flow whose node has just asked ``slot`` (``others``: more slots of the flow)."""
    slots = (slot, *others)
    return UnderstandingState(
        flow="said", node="ask", intents=(), slots=slots, expected=tuple(s.name for s in slots), asked=slot.name
    )


def read(slot: Slot, text: str, *others: Slot, now: dt.datetime = NOW) -> Any:
    """What the rules store for ``slot`` (asked) from the reply ``text``: the value coerced as the turn does, or
    :data:`NOTHING` (nothing read, or a value the slot refuses)."""
    found = RulesUnderstander().understand(state_asking(slot, *others), text, now=now).slots
    try:
        return coerce(slot, found[slot.name], now) if slot.name in found else NOTHING
    except InvalidValue:
        return NOTHING


def offered(slot: Slot, text: str, now: dt.datetime = NOW) -> set[Any]:
    """The values grounding offers a model for ``slot`` in ``text`` (a model may copy only their spans)."""
    return set(typed_candidates(slot, text, now).values())
