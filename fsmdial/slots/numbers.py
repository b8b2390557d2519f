"""Number slot types: ``number`` and ``integer`` (a whole number), read in digits or words, stored as JSON numbers
inside the slot's ``minimum``/``maximum``. The amount types (:mod:`.amounts`) are numbers too."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated, Any

from pydantic import Field

from ..language import PEOPLE_WORDS, find_numbers, sentences
from .registry import Exact, InvalidValue, SlotKind, SlotType

if TYPE_CHECKING:
    from ..flow import Slot

__all__ = ["LARGEST", "Integer", "Number", "between", "count_noun"]

LARGEST = 2**63 - 1
"""Numbers beyond this (and inf/nan) are refused, and a ``count`` edge stops here: a session snapshot must
store them exactly."""


def _read_number(span: str, now: dt.datetime) -> Any:
    numbers = find_numbers(span)
    return numbers[0] if len(numbers) == 1 else None


def _read_whole_number(span: str, now: dt.datetime) -> Any:
    number = _read_number(span, now)
    return number if number is not None and float(number).is_integer() else None


class Number(SlotKind):
    """A number ("12", "two and a half", "1,200")."""

    type_name = SlotType.number
    options = frozenset({"minimum/maximum"})
    is_number = True
    json_kind = "number"
    value_words = "a number"
    outside_dates = True
    read: Callable[[str, dt.datetime], Any] | None = staticmethod(_read_number)
    noun = "number"

    def coerce(self, slot: Slot, value: Any, now: dt.datetime, day: dt.date | None, bounds: bool) -> Any:
        asked = _BETWEEN.fullmatch(value) if type(value) is str else None
        if asked is not None:  # "5" that two slots could take: asked which, never guessed
            raise InvalidValue(slot.name, value, sentences.which_count(*asked.group(1, 2, 3)), question=True)
        number = self.checked(slot, value, _to_number(slot, value))
        if slot.minimum is not None and number < slot.minimum:
            raise InvalidValue(slot.name, value, f"{number} is below the minimum of {_fmt(slot.minimum)}")
        if slot.maximum is not None and number > slot.maximum:
            raise InvalidValue(slot.name, value, f"{number} is above the maximum of {_fmt(slot.maximum)}")
        return number

    def checked(self, slot: Slot, value: Any, number: int | float) -> int | float:
        return number

    def model_type(self, slot: Slot, exact: Exact) -> Any:
        return Annotated[float, Field(ge=_clamped(slot.minimum), le=_clamped(slot.maximum))]

    def answer_to(self, asked: str, text: str) -> str | None:
        """ "nights", "the second" after "Is that 5 people or 5 nights?" is "5 nights"; a reply with a number of
        its own is read as it is."""
        question = _WHICH_COUNT.search(asked)
        if question is None or any(ch.isdigit() for ch in text):
            return None
        number, first, second = question.group(1, 2, 3)
        words = set(re.findall(r"[a-z]+", text.casefold()))
        picks = [
            noun
            for noun, order in ((first, "first former"), (second, "second latter"))
            if words & (_forms(noun) | set(order.split()))
        ]
        return f"{number} {picks[0]}" if len(picks) == 1 else None

    def noun_of(self, slot: Slot) -> str:
        return self.noun

    def prompt(self, slot: Slot) -> str:
        low, high, noun = slot.minimum, slot.maximum, self.noun_of(slot)
        if low is not None and high is not None:
            what = f"{noun} from {_fmt(low)} to {_fmt(high)}"
        elif low is not None:
            what = f"{noun}, at least {_fmt(low)}"
        elif high is not None:
            what = f"{noun}, at most {_fmt(high)}"
        else:
            what = noun
        return what + ", the words that say it"


class Integer(Number):
    """A whole number; a number with a fraction is refused."""

    type_name = SlotType.integer
    read = staticmethod(_read_whole_number)
    noun = "whole number"

    def checked(self, slot: Slot, value: Any, number: int | float) -> int | float:
        if isinstance(number, float) and not number.is_integer():
            raise InvalidValue(slot.name, value, f"{value!r} is not a whole number")
        return int(number)

    def model_type(self, slot: Slot, exact: Exact) -> Any:
        # Bounds are the flow's own; beyond 64 bits they are clamped (the engine stores no larger value).
        return Annotated[int, Field(ge=_int(slot.minimum), le=_int(slot.maximum))]


def _to_number(slot: Slot, value: Any) -> int | float:
    if isinstance(value, bool):
        raise InvalidValue(slot.name, value, f"{value!r} is not a number")
    if isinstance(value, (int, float)):
        number = value
    else:
        numbers = find_numbers(str(value))
        if len(numbers) != 1:
            raise InvalidValue(slot.name, value, f"{value!r} is not a number")
        number = numbers[0]
    if not -LARGEST <= number <= LARGEST:  # also false for nan
        raise InvalidValue(slot.name, value, "is too large a number" if number == number else "is not a number")
    return number


def _fmt(number: float) -> str:
    return str(int(number)) if float(number).is_integer() else str(number)


def _clamped(bound: float | None) -> float | None:
    return None if bound is None else max(-float(LARGEST), min(float(LARGEST), bound))


def _int(bound: float | None) -> int | None:
    return None if bound is None else max(-LARGEST, min(LARGEST, int(bound)))


# ------------------------------------------------------------ a number two slots could take: asked which

_ASK_WHICH = " (to ask which)"
_BETWEEN = re.compile(r"(\d+(?:\.\d+)?) \((.+) or (.+)\)" + re.escape(_ASK_WHICH))
_WHICH_COUNT = re.compile(r"Is that (\d+(?:\.\d+)?) (.+?) or \1 (.+?)\?")
"""The question of :func:`fsmdial.language.sentences.which_count`, with its number and its two nouns."""
_NOT_NOUNS = frozenset({"number", "num", "count", "size", "total", "amount", "quantity", "the", "of", "how", "many"})


def between(number: int | float, first: str, second: str) -> str:
    """A number that two slots could take, as the rules pass it on for the value check to ask which: "5 (people or
    nights) (to ask which)" (``first``, ``second``: :func:`count_noun`)."""
    return f"{_fmt(number)} ({first} or {second}){_ASK_WHICH}"


def asks_which(value: Any) -> bool:
    """Is ``value`` a number passed on to be asked which slot it is for (:func:`between`)?"""
    return type(value) is str and _BETWEEN.fullmatch(value) is not None


def count_noun(slot: Slot, number: int | float) -> str:
    """What a numeric slot counts, in the words that name it ("people" for a party size, "nights", "rooms" for
    room_count), for the question "Is that 5 people or 5 nights?"; its answer ("nights") names the slot again."""
    words = re.findall(r"[a-z]+", f"{slot.name.replace('_', ' ')} {slot.description}".casefold())
    if PEOPLE_WORDS & set(words):
        return "people" if number != 1 else "person"
    noun = next((word for word in words if len(word) > 2 and word not in _NOT_NOUNS), slot.noun)
    if number != 1 and not noun.endswith("s"):
        return noun + "s"
    return noun[:-1] if number == 1 and noun.endswith("s") else noun


def _forms(noun: str) -> set[str]:
    """The words that answer with ``noun``: itself, singular and plural, and a person's words for people."""
    forms = {noun, noun.rstrip("s"), noun + "s"}
    return forms | PEOPLE_WORDS if forms & PEOPLE_WORDS else forms
