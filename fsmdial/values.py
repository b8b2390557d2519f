"""Slot values: coercion to a slot's type and the checks of its validators.

Values are stored JSON-ready: integers and numbers as numbers, booleans as
booleans, categorical values as the flow's spelling, dates as ISO
``YYYY-MM-DD`` and times as ``HH:MM`` strings. Reading English ("two",
"tomorrow", "7pm", "yes") is :mod:`fsmdial.language`'s job; relative dates
resolve against the dialogue's clock.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Mapping, Sequence
from typing import Any

from .bounds import date_bound, has_hours, hours_words, in_hours, last_time, passed, which_reading
from .flow import Slot, SlotType, value_key
from .language import (
    clock_readings,
    date_readings,
    find_numbers,
    impossible_date,
    parse_date,
    parse_time,
    parse_yes_no,
)

__all__ = [
    "InvalidValue",
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
``date_bound`` is :mod:`fsmdial.bounds`'."""


class InvalidValue(ValueError):
    """A value the slot's type or validators reject; ``message`` is fit to show the user.

    ``question``: not refused but ambiguous (two readings of a clock time fit): ``message`` asks which.
    """

    def __init__(self, slot: str, value: Any, message: str, question: bool = False):
        self.slot = slot
        self.value = value
        self.message = message
        self.question = question
        super().__init__(f"{slot}: {message}")


def _categorical(slot: Slot, value: Any) -> str:
    # Compared by value_key, as flow validation is: no two values of a slot share a key, so
    # at most one matches ("O-" is never taken for "O+", "-" never for anything else).
    key = value_key(str(value))
    for allowed in slot.values or ():
        if value_key(allowed) == key:
            return allowed
    options = ", ".join(slot.values or ())
    raise InvalidValue(slot.name, value, f"{value!r} is not one of: {options}")


def coerce_given(
    slots: Mapping[str, Slot],
    name: str,
    value: Any,
    given: Mapping[str, Any],
    held: Mapping[str, Any],
    now: dt.datetime,
) -> Any:
    """A value the user gave for slot ``name``, coerced and checked with the rest of what the turn gave
    (``given``) and the session holds (``held``): a time slot's ``not_past_with`` date comes from there, and a
    date on which none of the hours of a time slot on it is still ahead is refused."""
    slot = slots[name]
    if slot.type is SlotType.time and slot.not_past_with is not None:
        return coerce(slot, value, now, day=_day(slots, slot.not_past_with, given, held, now))
    if slot.type is SlotType.date:
        return _resolved_date(slots, name, value, now)
    return coerce(slot, value, now)


def _resolved_date(slots: Mapping[str, Slot], name: str, value: Any, now: dt.datetime) -> str:
    """The date ``value`` names for slot ``name``: of its readings inside the bounds ("Friday", "the 21st"), the
    first on which some of the hours of the time slots on that date are still ahead."""
    stored: str = coerce(slots[name], value, now)
    readings = [stored]
    if type(value) is str and not _CANONICAL_DATE.fullmatch(value):
        readings += [reading for reading in date_readings(value, now) if reading > stored]
    for reading in readings:
        if (
            _inside_dates(slots[name], dt.date.fromisoformat(reading), now)
            and _too_late(slots, name, reading, now) is None
        ):
            return reading
    other = _too_late(slots, name, stored, now)
    raise InvalidValue(name, value, f"no {other.noun if other else 'time'} on {stored} is still possible")


def _too_late(slots: Mapping[str, Slot], name: str, date: str, now: dt.datetime) -> Slot | None:
    """A time slot on date slot ``name`` none of whose hours on ``date`` is still ahead."""
    day = dt.date.fromisoformat(date)
    for other in slots.values():
        if other.not_past_with == name and passed(day, last_time(other), now, other.lead_minutes):
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
            if passed(day, time, now, slot.lead_minutes):
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
    kind = slot.type
    if value is None or (isinstance(value, str) and not value.strip()):
        raise InvalidValue(slot.name, value, "no value given")
    if kind is SlotType.string:
        text = str(value).strip()
        if len(text) > slot.string_limit:
            raise InvalidValue(slot.name, value, f"is longer than {slot.string_limit} characters")
        if slot.pattern is not None and not re.fullmatch(slot.pattern, text):
            raise InvalidValue(slot.name, value, f"{text!r} does not have the expected form")
        return text
    if kind is SlotType.categorical:
        return _categorical(slot, value)
    if kind in (SlotType.integer, SlotType.number):
        number = _to_number(slot, value)
        if kind is SlotType.integer:
            if isinstance(number, float) and not number.is_integer():
                raise InvalidValue(slot.name, value, f"{value!r} is not a whole number")
            number = int(number)
        if slot.minimum is not None and number < slot.minimum:
            raise InvalidValue(slot.name, value, f"{number} is below the minimum of {_fmt(slot.minimum)}")
        if slot.maximum is not None and number > slot.maximum:
            raise InvalidValue(slot.name, value, f"{number} is above the maximum of {_fmt(slot.maximum)}")
        return number
    if kind is SlotType.boolean:
        if isinstance(value, bool):
            return value
        answer = parse_yes_no(str(value)) or {"true": "yes", "false": "no"}.get(str(value).strip().lower())
        if answer is None:
            raise InvalidValue(slot.name, value, f"{value!r} is not yes or no")
        return answer == "yes"
    if kind is SlotType.date:
        if isinstance(value, dt.datetime):
            value = value.date()
        if isinstance(value, dt.date):
            return _within_bounds(slot, value, now, bounds)
        if type(value) is str and _CANONICAL_DATE.fullmatch(value) and _valid_date(value):
            return _within_bounds(
                slot, dt.date.fromisoformat(value), now, bounds
            )  # the stored form, as understanders give it
        dates = date_readings(str(value), now)  # "Friday", "the 21st": the next one inside the bounds
        if not dates:
            written = impossible_date(str(value))
            if written is not None:  # "February 29" in 2025, "April 31", "13/45": a date that does not exist
                raise InvalidValue(slot.name, value, f"{written!r} is not a real date")
            raise InvalidValue(slot.name, value, f"{value!r} is not a date I understand")
        days = [dt.date.fromisoformat(reading) for reading in dates]
        fitting = [day for day in days if _inside_dates(slot, day, now)] if bounds else days
        return _within_bounds(slot, (fitting or days)[0], now, bounds)
    if kind is SlotType.time:
        if isinstance(value, dt.time):
            readings: tuple[str, ...] = (value.strftime("%H:%M"),)
        elif type(value) is str and _CANONICAL_TIME.fullmatch(value):
            readings = (value,)  # already the stored form
        else:
            readings = clock_readings(str(value))
            if not readings:
                raise InvalidValue(slot.name, value, f"{value!r} is not a time I understand")
        return _resolve_time(slot, value, readings, now, day) if bounds else readings[0]
    raise InvalidValue(slot.name, value, f"unsupported slot type {kind}")  # pragma: no cover


def _resolve_time(slot: Slot, value: Any, readings: tuple[str, ...], now: dt.datetime, day: dt.date | None) -> str:
    """The one reading of a clock time inside the slot's hours and not past on ``day``.

    A slot without hours or a day takes the reading as written (a bare "7:45" is 07:45). Two fitting
    readings are asked about (:class:`InvalidValue` with ``question``), none is refused.
    """
    if not has_hours(slot) and day is None:
        return readings[0]
    fitting = [reading for reading in readings if in_hours(slot, reading)]
    if not fitting:
        raise InvalidValue(slot.name, value, f"{readings[0]} is outside the hours, {hours_words(slot)}")
    if day is not None:
        ahead = [reading for reading in fitting if not passed(day, reading, now, slot.lead_minutes)]
        if not ahead:
            soon = f" or less than {slot.lead_minutes} minutes from now" if slot.lead_minutes else ""
            raise InvalidValue(slot.name, value, f"{day.isoformat()} at {fitting[-1]} is in the past{soon}")
        fitting = ahead
    if len(fitting) > 1:
        raise InvalidValue(slot.name, value, which_reading(str(value), tuple(fitting)), question=True)
    return fitting[0]


def _inside_dates(slot: Slot, date: dt.date, now: dt.datetime) -> bool:
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


_CANONICAL_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
_CANONICAL_TIME = re.compile(r"(?:[01][0-9]|2[0-3]):[0-5][0-9]")


def _valid_date(text: str) -> bool:
    try:
        dt.date.fromisoformat(text)
    except ValueError:
        return False
    return True


LARGEST = 2**63 - 1
"""Numbers beyond this (and inf/nan) are refused, and a ``count`` edge stops here: a session snapshot must
store them exactly."""


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
