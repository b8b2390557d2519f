"""Slot values: coercion to a slot's type and the checks of its validators.

Values are stored JSON-ready: integers and numbers as numbers, booleans as
booleans, categorical values as the flow's spelling, dates as ISO
``YYYY-MM-DD``, times as ``HH:MM`` strings, phone numbers as dialled (digits,
``+`` before a country code), references as one upper-case word. What each
type does is its class in :mod:`fsmdial.slots` (:data:`fsmdial.slots.KINDS`); this
module adds the checks across slots (a time on a date). Reading English ("two",
"tomorrow", "7pm", "yes") is :mod:`fsmdial.language`'s job; relative dates
resolve against the dialogue's clock.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Mapping, Sequence
from typing import Any

from .flow import Slot, SlotType
from .language import NEXT_ONE, WEEKDAYS, date_readings, find_numbers, parse_date, parse_time, parse_yes_no
from .slots import (
    CANONICAL_DATE,
    LARGEST,
    InvalidValue,
    date_bound,
    inside_dates,
    kind_of,
    last_time,
    open_on,
    passed,
)

__all__ = [
    "InvalidValue",
    "LARGEST",
    "coerce",
    "coerce_given",
    "date_bound",
    "passed_times",
    "find_numbers",
    "parse_date",
    "parse_time",
    "parse_yes_no",
]
"""``find_numbers``, ``parse_date``, ``parse_time`` and ``parse_yes_no`` are :mod:`fsmdial.language`'s, re-exported;
``date_bound``, ``InvalidValue`` and ``LARGEST`` :mod:`fsmdial.slots`'."""


def coerce_given(
    slots: Mapping[str, Slot],
    name: str,
    value: Any,
    given: Mapping[str, Any],
    held: Mapping[str, Any],
    now: dt.datetime,
    refused: dt.date | None = None,
) -> Any:
    """A value the user gave for slot ``name``, coerced and checked with the rest of what the turn gave
    (``given``) and the session holds (``held``): a time slot's ``not_past_with`` date comes from there, and a
    date on which none of the hours of a time slot on it is still ahead is refused. A weekday said alone right after
    the date ``refused`` was refused is the one nearest it ("Monday the 28th?", refused, then "the Tuesday then": the
    29th, not the coming Tuesday)."""
    slot = slots[name]
    if slot.type is SlotType.time and slot.not_past_with is not None:
        return coerce(slot, value, now, day=_day(slots, slot.not_past_with, given, held, now))
    if slot.type is SlotType.date:
        if refused is not None and type(value) is str and (day := _weekday_near(value, refused, now)) is not None:
            value = day.isoformat()
        return _resolved_date(slots, name, value, now)
    return coerce(slot, value, now)


_WEEKDAY_ALONE = re.compile(
    r"^\W*(?:(?:ok|okay|oh|right|ah|fine)\W+)*(?:(?:on|the|that|then)\s+)*(?P<day>"
    + "|".join(WEEKDAYS)
    + r")s?(?:\s+(?:then|instead|please|maybe|if\s+that'?s\s+ok))*(?:\s*"
    + re.escape(NEXT_ONE.strip())  # as the rules pass a weekday said alone on: "Tuesday (the next one)"
    + r")?\W*$",
    re.I,
)


def _weekday_near(value: str, refused: dt.date, now: dt.datetime) -> dt.date | None:
    """The date of the weekday ``value`` says alone nearest the ``refused`` date, not before today; None when
    ``value`` says more than a weekday."""
    found = _WEEKDAY_ALONE.match(value)
    if found is None:
        return None
    shift = (WEEKDAYS.index(found.group("day").casefold()) - refused.weekday()) % 7
    day = refused + dt.timedelta(days=shift if shift <= 3 else shift - 7)
    return day if day >= now.date() else day + dt.timedelta(days=7)


def _resolved_date(slots: Mapping[str, Slot], name: str, value: Any, now: dt.datetime) -> str:
    """The date ``value`` names for slot ``name``: of its readings inside the bounds and open ("Friday", "the
    21st"), the first on which some of the hours of the time slots on that date are still ahead."""
    stored: str = coerce(slots[name], value, now)
    readings = [stored]
    if type(value) is str and not CANONICAL_DATE.fullmatch(value):
        readings += [reading for reading in date_readings(value, now) if reading > stored]
    for reading in readings:
        day = dt.date.fromisoformat(reading)
        if (
            inside_dates(slots[name], day, now)
            and open_on(slots[name], day)
            and _too_late(slots, name, reading, now) is None
        ):
            return reading
    other = _too_late(slots, name, stored, now)
    raise InvalidValue(name, value, f"no {other.noun if other else 'time'} on {stored} is still possible")


def _too_late(slots: Mapping[str, Slot], name: str, date: str, now: dt.datetime) -> Slot | None:
    """A time slot on date slot ``name`` none of whose hours on ``date`` is still ahead."""
    day = dt.date.fromisoformat(date)
    for other in slots.values():
        if other.not_past_with == name and passed(other, day, last_time(other), now):
            return other
    return None


def passed_times(
    slots: Mapping[str, Slot], changed: Sequence[str], held: Mapping[str, Any], now: dt.datetime
) -> list[tuple[str, str]]:
    """The held times (slot name, reason) that a date just ``changed`` puts in the past, to be asked again."""
    found = []
    for slot in slots.values():
        date = slot.not_past_with
        if (
            date is not None
            and date in changed
            and slot.name not in changed
            and isinstance(time := held.get(slot.name), str)
        ):
            day = dt.date.fromisoformat(held[date])
            if passed(slot, day, time, now):
                found.append((slot.name, f"{held[date]} at {time} is in the past"))
    return found


def _day(
    slots: Mapping[str, Slot], name: str, given: Mapping[str, Any], held: Mapping[str, Any], now: dt.datetime
) -> dt.date | None:
    if name in given:
        try:
            return dt.date.fromisoformat(_resolved_date(slots, name, given[name], now))
        except InvalidValue:
            return None
    day = held.get(name)
    return dt.date.fromisoformat(day) if isinstance(day, str) else None


def coerce(slot: Slot, value: Any, now: dt.datetime, *, day: dt.date | None = None, bounds: bool = True) -> Any:
    """``value`` converted to ``slot``'s type and checked by its validators.

    ``day``: the date a time slot's ``not_past_with`` gives (the time must not be before ``now`` that day).
    ``bounds=False`` leaves out ``earliest``/``latest`` and that rule: those hold on the clock of the moment a
    value is given, so a stored value (a snapshot read the next day) is not checked against them again.
    Raises :class:`InvalidValue` with a message fit to show the user.
    """
    if value is None or (isinstance(value, str) and not value.strip()):
        raise InvalidValue(slot.name, value, "no value given")
    return kind_of(slot).coerce(slot, value, now, day, bounds)
