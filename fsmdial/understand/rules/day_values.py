"""Categorical slots whose values are days, for the rules understander: a slot of the seven weekdays ("Monday" ...
"Sunday") takes the weekday of a day said by other words ("what's the weather tomorrow?"), and a slot of the days of
the month ("1st" ... "31st", STAR's hotel dates) the day of a date said ("from 5/9 to 5/16": the 9th and the 16th).

A day named by its own value ("Saturday", "the 14th") is read as any categorical value is; these read the dates the
language's date reader reads (:func:`~fsmdial.language.dates.date_readings`), never guess between two.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from ...flow import Slot
from ...language import WEEKDAYS, date_readings
from ...language.dates import DateOrders

DaySlots = tuple[tuple[Slot, Mapping[Any, str]], ...]
"""Slots with their value per day: a weekday's name (``"monday"``) or a day of the month (``9``)."""


@lru_cache(maxsize=256)
def weekday_values(values: tuple[str, ...]) -> dict[str, str] | None:
    """The slot's value for each weekday (``"monday"``: ``"Monday"``), when its values name all seven; else None."""
    days = {value.casefold(): value for value in values if value.casefold() in WEEKDAYS}
    return days if len(days) == 7 else None


@lru_cache(maxsize=256)
def month_day_values(values: tuple[str, ...]) -> dict[int, str] | None:
    """The slot's value for each day of the month (``9``: ``"9th"``), when its values are the days' ordinals (28 or
    more of them: "Start Day (1 - 31)"); else None."""
    days = {
        int(found.group(1)): value for value in values if (found := re.fullmatch(r"(\d{1,2})(?:st|nd|rd|th)", value))
    }
    return days if len(days) >= 28 else None


def day_slots(slots: Sequence[Slot]) -> tuple[DaySlots, DaySlots]:
    """Of categorical ``slots``, those of weekdays and those of days of the month, each with its value per day."""
    weekdays = tuple((slot, named) for slot in slots if (named := weekday_values(tuple(slot.values or ()))))
    month_days = tuple((slot, numbered) for slot in slots if (numbered := month_day_values(tuple(slot.values or ()))))
    return weekdays, month_days


def weekday_said(days: Mapping[str, str], text: str, now: dt.datetime) -> str | None:
    """The weekday of the one day ``text`` says by other words than its name ("tomorrow", "tonight", "the 14th"),
    as the slot writes it (``days``: :func:`weekday_values`); None when it names no day or two fit."""
    readings = date_readings(text, now)
    if len(readings) != 1:  # none, or two to ask between ("next Saturday" said on a Friday): no day
        return None
    return days[WEEKDAYS[dt.date.fromisoformat(readings[0]).weekday()]]


_DAY_OF_MONTH = re.compile(
    r"(?<![\w/])(?:\d{1,2}/\d{1,2}(?:/\d{2,4})?(?![\d/])|(?:the\s+)?\d{1,2}(?:st|nd|rd|th)(?![a-z])|"
    r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?\s+\d{1,2}(?:st|nd|rd|th)?(?![\w/])|"
    r"today|tonight|tomorrow)",
    re.I,
)
"""A date said in a few words ("5/9", "the 13th", "May 13", "tonight"): each gives its day of the month."""


def days_of_month_said(text: str, now: dt.datetime) -> list[int]:
    """The day of the month of each date ``text`` says, in order ("from 5/9 to 5/16": 9, 16; "May 13th-16th": 13,
    16; "tonight": today's); a date with no one reading gives none."""
    days: list[int] = []
    spans = list(_DAY_OF_MONTH.finditer(text))
    for i, found in enumerate(spans):
        relative = found.group().casefold().startswith("to")  # today, tonight, tomorrow
        if relative and i + 1 < len(spans) and spans[i + 1].start() - found.end() <= 5:
            continue  # "tonight the 20th": one day, said twice
        readings = date_readings(found.group(), now)
        readings = readings[:1] if isinstance(readings, DateOrders) else readings  # "5/9": month first, May 9
        if readings and len({reading[-2:] for reading in readings}) == 1:  # "the 13th": one day of the month
            days.append(int(readings[0][-2:]))
    return days


def read_days(
    weekdays: DaySlots, month_days: DaySlots, asked: Slot | None, text: str, now: dt.datetime, read: dict[str, Any]
) -> None:
    """Into ``read`` (the slots read so far): the day-of-month slots the dates said give, in place of values named
    ("the 20th" named in two slots at once), and the weekday of a day said by other words, for the asked weekday
    slot or the flow's only one."""
    if month_days:
        for slot, _ in month_days:
            read.pop(slot.name, None)
        read.update(_month_days(month_days, asked, text, now))
    for slot, days in weekdays:
        if slot.name not in read and (slot is asked or len(weekdays) == 1):
            if (day := weekday_said(days, text, now)) is not None:
                read[slot.name] = day


def _month_days(month_days: DaySlots, asked: Slot | None, text: str, now: dt.datetime) -> dict[str, str]:
    """The day-of-month slots the dates said give: two dates, the slots in the flow's order ("from 5/9 to 5/16": the
    first the 9th, the second the 16th); one date, the asked slot's, else the flow's only such slot's."""
    said = days_of_month_said(text, now)
    if len(said) == 1:
        taking = [pair for pair in month_days if pair[0] is asked] or (list(month_days) if len(month_days) == 1 else [])
        return {slot.name: days[said[0]] for slot, days in taking[:1] if said[0] in days}
    if said and len(said) == len(month_days):
        return {slot.name: days[day] for (slot, days), day in zip(month_days, said, strict=True) if day in days}
    return {}
