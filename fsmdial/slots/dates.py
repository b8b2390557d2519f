"""The date slot type: a day, stored as ISO ``YYYY-MM-DD``, inside the slot's ``earliest``/``latest``.

What the user says ("Friday", "the 21st", "12/05") is read by :mod:`fsmdial.language.dates`; a reading that names
no single day is resolved here, to the first one inside the bounds on the dialogue's clock. A bound is an ISO date
or ``today`` shifted by a number of days (:data:`DATE_BOUND`), read on the clock of the moment a value is given.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import TYPE_CHECKING, Annotated, Any

from pydantic import StringConstraints

from ..language import date_readings, impossible_date, read_date
from .registry import Exact, InvalidValue, SlotKind, SlotType

if TYPE_CHECKING:
    from ..flow import Slot

__all__ = [
    "CANONICAL_DATE",
    "DATE_BOUND",
    "DATE_PATTERN",
    "Date",
    "date_bound",
    "inside_dates",
]

DATE_PATTERN = r"^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])$"
"""The stored form of a date (what a model writes for a date slot)."""
CANONICAL_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
"""A date in its stored form (checked for being a real date apart)."""
DATE_BOUND = re.compile(r"\d{4}-\d{2}-\d{2}|today(?:[+-]\d{1,5})?")
"""An ``earliest``/``latest`` date bound: an ISO date, or today shifted by a number of days (whole
string: ``fullmatch``, so no trailing newline)."""
_WRITTEN_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
"""A date as a flow's condition may compare a date slot with it (the shape only; fullmatch)."""


class Date(SlotKind):
    """A day ("Friday", "the 21st", "12 May", "2025-06-13"), stored as ``YYYY-MM-DD``."""

    type_name = SlotType.date
    options = frozenset({"earliest/latest"})
    value_words = "a date YYYY-MM-DD"
    read = staticmethod(read_date)  # "Friday", "the 21st" as written: the slot's bounds resolve them, never the model

    def coerce(self, slot: Slot, value: Any, now: dt.datetime, day: dt.date | None, bounds: bool) -> Any:
        if isinstance(value, dt.datetime):
            value = value.date()
        if isinstance(value, dt.date):
            return _within_bounds(slot, value, now, bounds)
        if type(value) is str and CANONICAL_DATE.fullmatch(value) and _valid_date(value):
            return _within_bounds(slot, dt.date.fromisoformat(value), now, bounds)  # the stored form
        dates = date_readings(str(value), now)  # "Friday", "the 21st": the next one inside the bounds
        if not dates:
            written = impossible_date(str(value))
            if written is not None:  # "February 29" in 2025, "April 31", "13/45": a date that does not exist
                raise InvalidValue(slot.name, value, f"{written!r} is not a real date")
            raise InvalidValue(slot.name, value, f"{value!r} is not a date I understand")
        days = [dt.date.fromisoformat(reading) for reading in dates]
        fitting = [day for day in days if inside_dates(slot, day, now)] if bounds else days
        return _within_bounds(slot, (fitting or days)[0], now, bounds)

    def is_json_value(self, value: Any) -> bool:
        return isinstance(value, str) and _WRITTEN_DATE.fullmatch(value) is not None

    def check_declaration(self, slot: Slot) -> None:
        for bound in (slot.earliest, slot.latest):
            if bound is not None:
                _date_bound_key(bound)
        if slot.earliest is not None and slot.latest is not None:
            first, last = _date_bound_key(slot.earliest), _date_bound_key(slot.latest)
            # Both fixed or both from today: the order never changes, and no date is ever inside.
            # (A fixed bound against 'today' depends on the day the dialogue runs: left to it.)
            if type(first) is type(last) and first > last:  # type: ignore[operator]
                raise ValueError(
                    f"date bounds: earliest {slot.earliest!r} is after latest {slot.latest!r}, so no date is allowed"
                )

    def bound_words(self, slot: Slot, now: dt.datetime) -> dict[str, str]:
        """The bounds as "Friday 13 June 2025" (relative ones on ``now``)."""
        words: dict[str, str] = {}
        for name, bound in (("earliest", slot.earliest), ("latest", slot.latest)):
            if bound is not None:
                day = date_bound(bound, now)
                words[name] = f"{day:%A} {day.day} {day:%B %Y}"
        return words

    def model_type(self, slot: Slot, exact: Exact) -> Any:
        return Annotated[str, StringConstraints(pattern=DATE_PATTERN)]

    def prompt(self, slot: Slot) -> str:
        return "a day, the words that say it"


def date_bound(bound: str, now: dt.datetime) -> dt.date:
    """A slot's ``earliest``/``latest`` bound as a date: ISO as written, ``today±N`` from ``now``."""
    if bound.startswith("today"):
        return now.date() + dt.timedelta(days=int(bound[5:] or 0))
    return dt.date.fromisoformat(bound)


def _date_bound_key(bound: str) -> dt.date | int:
    """A valid date bound as the fixed date it names, or its shift in days from today."""
    if not DATE_BOUND.fullmatch(bound):
        raise ValueError(f"date bound {bound!r} is not YYYY-MM-DD, 'today', or 'today+N'/'today-N' (days)")
    if bound.startswith("today"):
        return int(bound[5:] or 0)
    try:
        return dt.date.fromisoformat(bound)
    except ValueError:
        raise ValueError(f"date bound {bound!r} is not a real date") from None


def inside_dates(slot: Slot, date: dt.date, now: dt.datetime) -> bool:
    """Is ``date`` inside a date slot's ``earliest``/``latest`` on the dialogue's clock?"""
    return (slot.earliest is None or date >= date_bound(slot.earliest, now)) and (
        slot.latest is None or date <= date_bound(slot.latest, now)
    )


def _within_bounds(slot: Slot, date: dt.date, now: dt.datetime, bounds: bool = True) -> str:
    """``date`` in ISO form, checked against the slot's bounds on the dialogue's clock (if ``bounds``)."""
    if not bounds:
        return date.isoformat()
    if slot.earliest is not None and date < (first := date_bound(slot.earliest, now)):
        raise InvalidValue(
            slot.name, date.isoformat(), f"{date.isoformat()} is before the earliest allowed date, {first}"
        )
    if slot.latest is not None and date > (last := date_bound(slot.latest, now)):
        raise InvalidValue(slot.name, date.isoformat(), f"{date.isoformat()} is after the latest allowed date, {last}")
    return date.isoformat()


def _valid_date(text: str) -> bool:
    try:
        dt.date.fromisoformat(text)
    except ValueError:
        return False
    return True
