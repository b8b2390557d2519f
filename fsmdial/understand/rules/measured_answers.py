"""A yes/no question that sets a bound on a measure, answered with the measure ("Can the tanker get within about 30
metres of the tank?" "the tank's about 10 metres from the drive": yes; "it's 40 metres down the garden": no).

The question (its ask, label or description) says the bound: a number with its unit after "within", "under",
"below", "less than", "up to", "at most", "over", "above", "more than" or "at least". The reply says one amount in
the same unit (metres, feet, yards, miles, kilometres, kilos, pounds, stone, inches, centimetres, minutes, hours),
in digits or words; the answer is whether that amount is inside the bound. A reply with two amounts of the unit,
or none, answers nothing here.
"""

from __future__ import annotations

import re

from ...flow import Slot
from ...language.amounts import NUMBER, number_value

__all__ = ["measured_answer"]

_UNITS = {
    "metre": r"m|metres?|meters?|mtrs?",
    "foot": r"ft|foot|feet",
    "yard": r"yards?|yds?",
    "mile": r"miles?",
    "kilometre": r"km|kms|kilometres?|kilometers?",
    "kilo": r"kg|kgs|kilos?|kilograms?",
    "pound": r"lbs?|pounds?",
    "stone": r"stone",
    "inch": r"inch|inches",
    "centimetre": r"cm|cms|centimetres?|centimeters?",
    "minute": r"mins?|minutes?",
    "hour": r"hrs?|hours?",
}
_UNIT = "|".join(f"(?P<{name}>{pattern})" for name, pattern in _UNITS.items())
_AMOUNT = rf"(?P<amount>{NUMBER})"
_BOUND = re.compile(
    r"(?<![\w'])(?P<how>within|under|below|less\s+than|fewer\s+than|up\s+to|at\s+most|no\s+more\s+than|over|above|"
    r"more\s+than|at\s+least|further\s+than|farther\s+than|longer\s+than|heavier\s+than)\s+"
    rf"(?:about\s+|around\s+|roughly\s+|approximately\s+)?{_AMOUNT}\s*-?\s*(?:{_UNIT})(?![\w'])",
    re.I,
)
"""A bound a question sets on a measure ("within about 30 metres", "over 20 kg", "at least 2 hours")."""
_SAID = re.compile(rf"(?<![\w'£$€.])(?:{_AMOUNT})\s*-?\s*(?:{_UNIT})(?![\w'])", re.I)
"""An amount said with its unit ("about 10 metres", "twenty feet", "5m")."""
_AT_MOST = ("within", "up to", "at most", "no more than")
_UNDER = ("under", "below", "less than", "fewer than")
_AT_LEAST = ("at least",)


def _unit(found: re.Match[str]) -> str:
    return next(name for name in _UNITS if found.group(name) is not None)


def _amount(found: re.Match[str]) -> float | None:
    value = number_value(found.group("amount"))
    return float(value) if value is not None else None


def measured_answer(slot: Slot, text: str) -> bool | None:
    """Whether the one amount ``text`` says, in the unit of the bound the boolean ``slot``'s question sets, is inside
    that bound; None when the question sets no bound, or the reply says no amount of its unit, or several."""
    bound = _BOUND.search(f"{slot.ask or ''} {slot.label or ''} {slot.description or ''}")
    if bound is None:
        return None
    unit, limit = _unit(bound), _amount(bound)
    said = [found for found in _SAID.finditer(text) if _unit(found) == unit]
    if limit is None or len(said) != 1 or (amount := _amount(said[0])) is None:
        return None
    how = " ".join(bound.group("how").casefold().split())
    if how in _AT_MOST:
        return amount <= limit
    if how in _UNDER:
        return amount < limit
    if how in _AT_LEAST:
        return amount >= limit
    return amount > limit  # over, above, more than, further than
