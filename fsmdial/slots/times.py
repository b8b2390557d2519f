"""Bounds of date and time slots, and the moment a date slot and a time slot make together.

A time slot's ``earliest``/``latest`` (``HH:MM``) are its hours; an ``earliest`` after its ``latest`` is a
range across midnight ("18:00" to "02:00"). A time slot's ``not_past_with`` names the date slot it is on:
the moment they make must be at least ``lead_minutes`` after the dialogue's clock. These functions only
answer questions; :func:`fsmdial.values.coerce` refuses or resolves values with them.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Sequence

from .flow import Slot, SlotType

__all__ = [
    "bound_words",
    "date_bound",
    "has_hours",
    "hours_words",
    "in_hours",
    "last_time",
    "passed",
    "time_words",
    "which_reading",
    "with_reading_asked",
]


def date_bound(bound: str, now: dt.datetime) -> dt.date:
    """A slot's ``earliest``/``latest`` bound as a date: ISO as written, ``today±N`` from ``now``."""
    if bound.startswith("today"):
        return now.date() + dt.timedelta(days=int(bound[5:] or 0))
    return dt.date.fromisoformat(bound)


def _minutes(time: str) -> int:
    hour, minute = time.split(":")
    return int(hour) * 60 + int(minute)


def has_hours(slot: Slot) -> bool:
    """Whether a time slot declares hours (an ``earliest`` or a ``latest``)."""
    return slot.type is SlotType.time and (slot.earliest is not None or slot.latest is not None)


def in_hours(slot: Slot, time: str) -> bool:
    """Whether ``HH:MM`` is inside a time slot's hours (both ends included; a range may cross midnight)."""
    first = _minutes(slot.earliest) if slot.earliest is not None else 0
    last = _minutes(slot.latest) if slot.latest is not None else 24 * 60 - 1
    at = _minutes(time)
    return first <= at <= last if first <= last else (at >= first or at <= last)


def last_time(slot: Slot) -> str:
    """The latest time of a calendar day inside a time slot's hours (23:59 when they cross midnight)."""
    if slot.latest is None or (slot.earliest is not None and _minutes(slot.earliest) > _minutes(slot.latest)):
        return "23:59"
    return slot.latest


def passed(day: dt.date, time: str, now: dt.datetime, lead_minutes: int = 0) -> bool:
    """Whether the moment ``day`` at ``time`` is before ``now`` plus ``lead_minutes``."""
    hour, minute = divmod(_minutes(time), 60)
    moment = dt.datetime.combine(day, dt.time(hour, minute), tzinfo=now.tzinfo)
    return moment < now + dt.timedelta(minutes=lead_minutes)


def time_words(time: str) -> str:
    """``HH:MM`` as people say it: "8 am", "6:30 pm", "noon", "midnight"."""
    hour, minute = divmod(_minutes(time), 60)
    if minute == 0 and hour in (0, 12):
        return "midnight" if hour == 0 else "noon"
    clock = str(hour % 12 or 12) + (f":{minute:02d}" if minute else "")
    return f"{clock} {'am' if hour < 12 else 'pm'}"


def _date_words(day: dt.date) -> str:
    return f"{day:%A} {day.day} {day:%B %Y}"


def bound_words(slot: Slot, now: dt.datetime) -> dict[str, str]:
    """A slot's bounds in words, for its ``invalid`` message: ``{earliest}``, ``{latest}`` ("8 am", "6 pm";
    dates as "Friday 13 June 2025", relative ones on ``now``)."""
    words: dict[str, str] = {}
    for name in ("earliest", "latest"):
        bound = getattr(slot, name)
        if bound is None:
            continue
        words[name] = time_words(bound) if slot.type is SlotType.time else _date_words(date_bound(bound, now))
    return words


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
    clock = written.split(" ")[0]
    return f"{clock} {parts[0]} or {parts[1]}?"


def _part_of_day(time: str) -> str:
    hour = _minutes(time) // 60
    if hour < 5:
        return "at night"
    if hour < 12:
        return "in the morning"
    return "in the afternoon" if hour < 17 else "in the evening"


_WHICH = re.compile(r"(\d{1,2}:\d{2}) (?:in the \w+|at night) or (?:in the \w+|at night)\?")
_PART_ANSWER = re.compile(r"\b(morning|afternoon|evening|night|tonight|a\.?m\.?|p\.?m\.?)(?![a-z])", re.I)


def with_reading_asked(history: Sequence[tuple[str, str]], text: str) -> str:
    """The user's answer to :func:`which_reading`'s question completed with the clock time it asked about
    ("in the evening" after "7:45 in the morning or in the evening?" is "7:45 in the evening"), so that every
    understander reads the time; any other text as it is."""
    match = _PART_ANSWER.search(text)
    if match is None or any(ch.isdigit() for ch in text):
        return text
    for role, said in reversed(history):
        if role != "bot":
            break
        asked = _WHICH.search(said)
        if asked is not None:
            part = match.group(1).lower()
            return (
                f"{asked.group(1)} {part}" if part[0] in "ap" and len(part) <= 4 else f"{asked.group(1)} in the {part}"
            )
    return text
