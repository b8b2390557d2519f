"""The time slot type: a time of day, stored as ``HH:MM``, inside the slot's hours and not in the past.

A time slot's ``earliest``/``latest`` (``HH:MM``) are its hours; an ``earliest`` after its ``latest`` is a
range across midnight ("18:00" to "02:00"). A time slot's ``not_past_with`` names the date slot it is on:
the moment they make must be at least ``lead_minutes`` after the dialogue's clock. Hours across midnight are the
night of their date: a time after midnight and up to the ``latest`` (01:00 with hours 18:00-02:00) on Friday is
the moment Saturday 01:00 (:func:`moment`), so on Friday at 23:30 Friday still has 00:00-02:00 ahead. A clock
time said without am/pm ("7:45", "at 7", "half 8") is read as written by :mod:`fsmdial.language.times` and resolved
here: the one reading inside the hours and ahead on its date, asked about when two fit, also in a slot with no hours
(:func:`which_reading`, answered through :meth:`Time.answer_to`); a 24-hour time ("19:00", "10:00") never is.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import TYPE_CHECKING, Annotated, Any

from pydantic import StringConstraints

from ..language import clock_readings, read_clock, said_as_written
from ..language.times import FIRST_THING
from .registry import Exact, InvalidValue, SlotKind, SlotType, with_reading_asked

if TYPE_CHECKING:
    from ..flow import Slot

__all__ = [
    "TIME_BOUND",
    "TIME_PATTERN",
    "Time",
    "clock_minutes",
    "has_hours",
    "hours_words",
    "in_hours",
    "last_time",
    "moment",
    "passed",
    "time_words",
    "which_reading",
    "with_reading_asked",
]
"""``with_reading_asked`` is :mod:`.registry`'s (every type's clarifying question), re-exported where it began."""

TIME_PATTERN = r"^([01][0-9]|2[0-3]):[0-5][0-9]$"
"""The stored form of a time of day."""
TIME_BOUND = re.compile(r"(?:[01][0-9]|2[0-3]):[0-5][0-9]")
"""An ``earliest``/``latest`` time bound: ``HH:MM`` on the 24-hour clock (whole string: ``fullmatch``)."""
_CANONICAL_TIME = re.compile(r"(?:[01][0-9]|2[0-3]):[0-5][0-9]")
_WRITTEN_TIME = re.compile(r"\d{2}:\d{2}")
"""A time as a flow's condition may compare a time slot with it (the shape only; fullmatch)."""


def _read_time(span: str, now: dt.datetime) -> Any:
    return read_clock(span)  # a bare "7:45" as written: the slot's hours resolve it, never the model


class Time(SlotKind):
    """A time of day ("7pm", "half past six", "19:30"), stored as ``HH:MM``."""

    type_name = SlotType.time
    options = frozenset({"earliest/latest", "not_past_with/lead_minutes"})
    value_words = "a time HH:MM"
    read = staticmethod(_read_time)

    def coerce(self, slot: Slot, value: Any, now: dt.datetime, day: dt.date | None, bounds: bool) -> Any:
        if isinstance(value, dt.time):
            readings: tuple[str, ...] = (value.strftime("%H:%M"),)
        elif type(value) is str and _CANONICAL_TIME.fullmatch(value):
            readings = (value,)  # already the stored form
        elif value == FIRST_THING:  # "tomorrow first thing": the opening time, or asked
            if slot.earliest is None:
                raise InvalidValue(slot.name, value, "What time would first thing be for you?", question=True)
            readings = (slot.earliest,)
        else:
            readings = clock_readings(str(value))
            if not readings:
                raise InvalidValue(slot.name, value, f"{value!r} is not a time I understand")
        return _resolve_time(slot, value, readings, now, day) if bounds else readings[0]

    def is_json_value(self, value: Any) -> bool:
        return isinstance(value, str) and _WRITTEN_TIME.fullmatch(value) is not None

    def check_declaration(self, slot: Slot) -> None:
        for bound in (slot.earliest, slot.latest):
            if bound is not None and not TIME_BOUND.fullmatch(bound):
                raise ValueError(f"time bound {bound!r} is not HH:MM (00:00 to 23:59)")
        if slot.lead_minutes and slot.not_past_with is None:
            raise ValueError("'lead_minutes' needs 'not_past_with' (the date slot the time is on)")

    def bound_words(self, slot: Slot, now: dt.datetime) -> dict[str, str]:
        """The hours as people say them: "8 am", "6 pm"."""
        words: dict[str, str] = {}
        for name, bound in (("earliest", slot.earliest), ("latest", slot.latest)):
            if bound is not None:
                words[name] = time_words(bound)
        return words

    def model_type(self, slot: Slot, exact: Exact) -> Any:
        return Annotated[str, StringConstraints(pattern=TIME_PATTERN)]

    def prompt(self, slot: Slot) -> str:
        return "a time of day, the words that say it"

    def answer_to(self, asked: str, text: str) -> str | None:
        """ "in the evening" after "7:45 in the morning or in the evening?" is "7:45 in the evening"."""
        match = _PART_ANSWER.search(text)
        if match is None or any(ch.isdigit() for ch in text):
            return None
        question = _WHICH.search(asked)
        if question is None:
            return None
        part = match.group(1).lower()
        clock = question.group(1)
        return f"{clock} {part}" if part[0] in "ap" and len(part) <= 4 else f"{clock} in the {part}"


def _resolve_time(slot: Slot, value: Any, readings: tuple[str, ...], now: dt.datetime, day: dt.date | None) -> str:
    """The one reading of a clock time inside the slot's hours and not past on ``day``.

    Two fitting readings are asked about (:class:`InvalidValue` with ``question``), none is refused: a bare "at 7"
    or "7:45" in a slot without hours or a day is asked ("7 in the morning or in the evening?"), a 24-hour time
    ("10:00", "19:00") never is.
    """
    fitting = [reading for reading in readings if in_hours(slot, reading)]
    if not fitting:
        raise InvalidValue(slot.name, value, f"{readings[0]} is outside the hours, {hours_words(slot)}")
    if day is not None:
        ahead = [reading for reading in fitting if not passed(slot, day, reading, now)]
        if not ahead:
            soon = f" or less than {slot.lead_minutes} minutes from now" if slot.lead_minutes else ""
            raise InvalidValue(slot.name, value, f"{day.isoformat()} at {fitting[-1]} is in the past{soon}")
        fitting = ahead
    if len(fitting) > 1 and said_as_written(str(value)):
        return fitting[0]  # "10:00": a 24-hour time, never asked "in the morning or in the evening?"
    if len(fitting) > 1:
        raise InvalidValue(slot.name, value, which_reading(str(value), tuple(fitting)), question=True)
    return fitting[0]


def clock_minutes(time: str) -> int:
    """The minutes since midnight of a stored time ("18:30": 1110)."""
    hour, minute = time.split(":")
    return int(hour) * 60 + int(minute)


def has_hours(slot: Slot) -> bool:
    """Whether a time slot declares hours (an ``earliest`` or a ``latest``)."""
    return slot.type is SlotType.time and (slot.earliest is not None or slot.latest is not None)


def in_hours(slot: Slot, time: str) -> bool:
    """Whether ``HH:MM`` is inside a time slot's hours (both ends included; a range may cross midnight)."""
    first = clock_minutes(slot.earliest) if slot.earliest is not None else 0
    last = clock_minutes(slot.latest) if slot.latest is not None else 24 * 60 - 1
    at = clock_minutes(time)
    return first <= at <= last if first <= last else (at >= first or at <= last)


def last_time(slot: Slot) -> str:
    """The last time of a date's hours: the ``latest`` (after midnight, the next morning, when the hours cross
    midnight: :func:`moment`), or 23:59 without one."""
    return slot.latest if slot.latest is not None else "23:59"


def _crosses_midnight(slot: Slot) -> bool:
    return (
        slot.earliest is not None
        and slot.latest is not None
        and clock_minutes(slot.earliest) > clock_minutes(slot.latest)
    )


def moment(slot: Slot, day: dt.date, time: str, tzinfo: dt.tzinfo | None = None) -> dt.datetime:
    """The moment a time slot's ``time`` on date ``day`` names: that day, or the next morning for a time after
    midnight up to the ``latest`` of hours that cross midnight (the night of ``day``: 18:00-02:00)."""
    hour, minute = divmod(clock_minutes(time), 60)
    if _crosses_midnight(slot) and slot.latest is not None and clock_minutes(time) <= clock_minutes(slot.latest):
        day += dt.timedelta(days=1)
    return dt.datetime.combine(day, dt.time(hour, minute), tzinfo=tzinfo)


def passed(slot: Slot, day: dt.date, time: str, now: dt.datetime) -> bool:
    """Whether the :func:`moment` of ``time`` on ``day`` is before ``now`` plus the slot's ``lead_minutes``."""
    return moment(slot, day, time, now.tzinfo) < now + dt.timedelta(minutes=slot.lead_minutes)


def time_words(time: str) -> str:
    """``HH:MM`` as people say it: "8 am", "6:30 pm", "noon", "midnight"."""
    hour, minute = divmod(clock_minutes(time), 60)
    if minute == 0 and hour in (0, 12):
        return "midnight" if hour == 0 else "noon"
    clock = str(hour % 12 or 12) + (f":{minute:02d}" if minute else "")
    return f"{clock} {'am' if hour < 12 else 'pm'}"


def hours_words(slot: Slot) -> str:
    """A time slot's hours in a reason: "between 8 am and 6 pm", "from 8 am", "until 6 pm"."""
    first = time_words(slot.earliest) if slot.earliest is not None else None
    last = time_words(slot.latest) if slot.latest is not None else None
    if first and last:
        return f"between {first} and {last}"
    return f"from {first}" if first else f"until {last}"


def which_reading(written: str, readings: tuple[str, ...]) -> str:
    """The question that tells two readings of a clock time apart: "7:45 in the morning or in the evening?"."""
    parts = [_part_of_day(reading) for reading in readings]
    clock = written.split(" ")[0].removesuffix(":00")  # "at 7": "7 in the morning or in the evening?"
    return f"{clock} {parts[0]} or {parts[1]}?"


def _part_of_day(time: str) -> str:
    hour = clock_minutes(time) // 60
    if hour < 5:
        return "at night"
    if hour < 12:
        return "in the morning"
    return "in the afternoon" if hour < 17 else "in the evening"


_WHICH = re.compile(r"(\d{1,2}(?::\d{2})?) (?:in the \w+|at night) or (?:in the \w+|at night)\?")
_PART_ANSWER = re.compile(r"\b(morning|afternoon|evening|night|tonight|a\.?m\.?|p\.?m\.?)(?![a-z])", re.I)
