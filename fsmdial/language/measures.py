"""Amounts of a measure said with their unit ("about 8 kilos", "twenty metres"), and bounds set on a measure ("under
10 kg", "within about 30 metres", "10 to 25 kg"): one vocabulary of units for every reader that holds an amount
against a bound (a categorical value listed as a range, a yes/no question that bounds a measure).

Number words are read in digits first ("forty metres": 40 m). A bound's words say whether its limit is inside it:
"within", "up to", "at most", "no more than" and "at least" hold it; "under", "below", "less than", "over", "above",
"more than" do not.
"""

from __future__ import annotations

import math
import re
from typing import NamedTuple

from .numbers import words_to_digits

__all__ = ["UNIT_OF", "UNIT_WORD", "Bound", "amounts_said", "bound_said"]

_UNITS = {
    "kg": "kg kgs kilo kilos kilogram kilograms",
    "lb": "lb lbs pound pounds",
    "st": "stone",
    "cm": "cm cms centimetre centimetres centimeter centimeters",
    "in": "inch inches",
    "m": "m metre metres meter meters mtr mtrs",
    "km": "km kms kilometre kilometres kilometer kilometers",
    "ft": "ft foot feet",
    "yd": "yd yds yard yards",
    "mile": "mile miles",
    "year": "year years yr yrs",
    "month": "month months",
    "week": "week weeks",
    "hour": "hour hours hr hrs",
    "minute": "minute minutes min mins",
}
UNIT_OF = {word: unit for unit, words in _UNITS.items() for word in words.split()}
"""Each word of a unit -> the unit ("kilos" -> "kg")."""
UNIT_WORD = "|".join(sorted(map(re.escape, UNIT_OF), key=len, reverse=True))
"""A word of a unit, as a regex alternation (longest first)."""

_NUMBER = r"\d+(?:\.\d+)?"
_AMOUNT = re.compile(rf"(?<![\w'£$€.])(?P<number>{_NUMBER})\s*-?\s*(?P<unit>{UNIT_WORD})(?![\w'])", re.I)
_HOLDING = ("within", "up to", "at most", "no more than")
_BELOW = ("under", "below", "less than", "fewer than")
_ABOVE = ("over", "above", "more than", "further than", "farther than", "longer than", "heavier than")
_LIMIT_WORDS = "|".join(re.escape(word).replace(r"\ ", r"\s+") for word in (*_HOLDING, *_BELOW, *_ABOVE, "at least"))
_BOUND = re.compile(
    rf"(?<![\w'])(?:(?P<how>{_LIMIT_WORDS})\s+(?:about\s+|around\s+|roughly\s+|approximately\s+)?(?P<limit>{_NUMBER})"
    rf"|(?P<low>{_NUMBER})\s*(?:to|-|–)\s*(?P<high>{_NUMBER}))\s*-?\s*(?P<unit>{UNIT_WORD})(?![\w'])",
    re.I,
)


class Bound(NamedTuple):
    """The amounts of one unit a bound holds: from ``low`` to ``high``, each end inside it or not."""

    unit: str
    low: float
    high: float
    low_in: bool = True
    high_in: bool = True

    def holds(self, amount: float, unit: str) -> bool:
        """Is ``amount`` ``unit`` inside the bound (never an amount of another unit)?"""
        if unit != self.unit:
            return False
        above_low = amount > self.low or (self.low_in and amount == self.low)
        below_high = amount < self.high or (self.high_in and amount == self.high)
        return above_low and below_high


def amounts_said(text: str) -> list[tuple[float, str]]:
    """The amounts ``text`` says with their unit, in order: (amount, unit) ("about twenty metres": (20.0, "m"))."""
    return [
        (float(found.group("number")), UNIT_OF[found.group("unit").casefold()])
        for found in _AMOUNT.finditer(words_to_digits(text))
    ]


def bound_said(text: str, *, whole: bool = False) -> Bound | None:
    """The first bound ``text`` sets on a measure ("Can the tanker get within about 30 metres?", "10 to 25 kg"), or
    None; with ``whole``, only a bound that is all of ``text`` (a listed synonym, "under 10 kg")."""
    digits = words_to_digits(text.strip())
    found = _BOUND.fullmatch(digits) if whole else _BOUND.search(digits)
    if found is None:
        return None
    unit = UNIT_OF[found.group("unit").casefold()]
    if found.group("low") is not None:
        return Bound(unit, float(found.group("low")), float(found.group("high")))
    how, limit = " ".join(found.group("how").casefold().split()), float(found.group("limit"))
    if how in _HOLDING:
        return Bound(unit, -math.inf, limit)
    if how in _BELOW:
        return Bound(unit, -math.inf, limit, high_in=False)
    if how == "at least":
        return Bound(unit, limit, math.inf)
    return Bound(unit, limit, math.inf, low_in=False)
