"""The date slot type: a day, stored as ISO ``YYYY-MM-DD``, inside the slot's ``earliest``/``latest`` and on one
of its open days.

What the user says ("Friday", "the 21st", "12/05") is read by :mod:`fsmdial.language.dates`; a reading that names
no single day is resolved here, to the first one inside the bounds and open on the dialogue's clock. A bound is an
ISO date or ``today`` shifted by a number of days (:data:`DATE_BOUND`), read on the clock of the moment a value is
given. ``open_days`` (weekday names) and ``closed_dates`` (ISO dates) are applied like the bounds: a day said on a
closed weekday or a closed date is refused with a sentence that names the opening days
(:func:`fsmdial.language.sentences.closed_on`), and a stored value is not checked against them again.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import TYPE_CHECKING, Annotated, Any

from pydantic import StringConstraints

from ..language import WEEKDAYS, date_readings, impossible_date, read_date, sentences, split_negated
from ..language.dates import day_choices
from .registry import Exact, InvalidValue, SlotKind, SlotType

if TYPE_CHECKING:
    from ..flow import Slot

__all__ = [
    "CANONICAL_DATE",
    "DATE_BOUND",
    "DATE_PATTERN",
    "Date",
    "closed_date_warnings",
    "date_bound",
    "inside_dates",
    "open_day_words",
    "open_on",
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
    options = frozenset({"earliest/latest", "open_days/closed_dates"})
    value_words = "a date YYYY-MM-DD"
    read = staticmethod(read_date)  # "Friday", "the 21st" as written: the slot's bounds resolve them, never the model

    def coerce(self, slot: Slot, value: Any, now: dt.datetime, day: dt.date | None, bounds: bool) -> Any:
        if isinstance(value, dt.datetime):
            value = value.date()
        if isinstance(value, dt.date):
            return _within_bounds(slot, value, now, bounds)
        if type(value) is str and CANONICAL_DATE.fullmatch(value) and _valid_date(value):
            return _within_bounds(slot, dt.date.fromisoformat(value), now, bounds)  # the stored form
        choices = day_choices(str(value), now)  # "next Saturday" said on a Friday: asked which, never guessed
        if choices:
            return _one_of(slot, value, choices, now, bounds)
        dates = date_readings(str(value), now)  # "Friday", "the 21st": the next one inside the bounds
        if not dates:
            written = impossible_date(str(value))
            if written is not None:  # "February 29" in 2025, "April 31", "13/45": a date that does not exist
                raise InvalidValue(slot.name, value, f"{written!r} is not a real date")
            raise InvalidValue(slot.name, value, f"{value!r} is not a date I understand")
        days = [dt.date.fromisoformat(reading) for reading in dates]
        if not bounds:
            return days[0].isoformat()
        # The first reading inside the bounds and open ("Saturday": the next open Saturday); else the first inside
        # the bounds, refused for the day it falls on ("Monday" when Mondays are closed), or the first of all.
        inside = [day for day in days if inside_dates(slot, day, now)]
        fitting = [day for day in inside if open_on(slot, day)]
        return _within_bounds(slot, (fitting or inside or days)[0], now, bounds)

    def is_json_value(self, value: Any) -> bool:
        return isinstance(value, str) and _WRITTEN_DATE.fullmatch(value) is not None

    def check_declaration(self, slot: Slot) -> None:
        problems = _opening_problems(slot)
        if problems:
            raise ValueError(f"slot {slot.name!r}: " + "; ".join(problems))
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
            if isinstance(first, dt.date) and isinstance(last, dt.date) and _first_open(slot, first, last) is None:
                raise ValueError(
                    f"slot {slot.name!r}: no day from earliest {slot.earliest!r} to latest {slot.latest!r} is open "
                    "(open_days, closed_dates), so no date is allowed"
                )

    def bound_words(self, slot: Slot, now: dt.datetime) -> dict[str, str]:
        """The bounds as "Friday 13 June 2025" (relative ones on ``now``), the open days as "Tuesday to Saturday"."""
        words: dict[str, str] = {}
        for name, bound in (("earliest", slot.earliest), ("latest", slot.latest)):
            if bound is not None:
                words[name] = _day_words(date_bound(bound, now))
        if slot.open_days is not None:
            words["open_days"] = open_day_words(slot)
        return words

    def model_type(self, slot: Slot, exact: Exact) -> Any:
        return Annotated[str, StringConstraints(pattern=DATE_PATTERN)]

    def prompt(self, slot: Slot) -> str:
        return "a day, the words that say it"

    def answer_to(self, asked: str, text: str) -> str | None:
        """ "the later one", "next week's" after "Do you mean Saturday 28 November or Saturday 5 December?" is
        "Saturday 5 December"; a reply that names a day ("the 5th", "tomorrow") is read as it is."""
        question = _WHICH_DAY.search(asked)
        if question is None:
            return None
        text = split_negated(text)[0]  # "not tomorrow, the one after": the clause that picks, not the one ruled out
        if _NOT.search(text):
            return None
        sooner, later = _SOONER.search(text) is not None, _LATER.search(text) is not None
        if sooner == later:
            return None
        return question.group(1) if sooner else question.group(2)


_DAY_ASKED = r"([A-Z][a-z]+day \d{1,2} [A-Z][a-z]+(?: \d{4})?)"
_WHICH_DAY = re.compile(r"Do you mean " + _DAY_ASKED + " or " + _DAY_ASKED + r"\?")
"""The question of :func:`_one_of` (:func:`fsmdial.language.sentences.which_day`), with its two days."""
_SOONER = re.compile(
    r"\b(?:sooner|soonest|earlier|earliest|former|first|nearer|closer|this week(?:'?s)?|this one|this coming)\b", re.I
)
_LATER = re.compile(
    r"\b(?:later|latest|latter|second|last|next week(?:'?s)?|the week after|a week later|the one after|following)\b",
    re.I,
)
_NOT = re.compile(r"\b(?:not|n't)\b|n't\b", re.I)


def _one_of(slot: Slot, value: Any, choices: tuple[str, ...], now: dt.datetime, bounds: bool) -> str:
    """The one of two days that fit a date said ("next Saturday" said on a Friday) inside the bounds and open, or
    the question which (:class:`InvalidValue` with ``question``); the first refused when neither is."""
    days = [dt.date.fromisoformat(choice) for choice in choices]
    if not bounds:
        return days[0].isoformat()
    fitting = [day for day in days if inside_dates(slot, day, now) and open_on(slot, day)]
    if len(fitting) > 1:
        said = [_asked_words(day, now) for day in fitting[:2]]
        raise InvalidValue(slot.name, value, sentences.which_day(*said), question=True)
    return _within_bounds(slot, (fitting or days)[0], now, bounds)


def _asked_words(day: dt.date, now: dt.datetime) -> str:
    """A day as a question names it: "Saturday 28 November", with its year when that is not this one's."""
    return f"{day:%A} {day.day} {day:%B}" + (f" {day.year}" if day.year != now.year else "")


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
    """``date`` in ISO form, checked against the slot's bounds on the dialogue's clock and its open days (if
    ``bounds``)."""
    if not bounds:
        return date.isoformat()
    if slot.earliest is not None and date < (first := date_bound(slot.earliest, now)):
        raise InvalidValue(
            slot.name, date.isoformat(), f"{date.isoformat()} is before the earliest allowed date, {first}"
        )
    if slot.latest is not None and date > (last := date_bound(slot.latest, now)):
        raise InvalidValue(slot.name, date.isoformat(), f"{date.isoformat()} is after the latest allowed date, {last}")
    if date.weekday() not in _open_weekdays(slot):
        closed = f"{WEEKDAYS[date.weekday()].capitalize()}s"
        days = open_day_words(slot)
        raise InvalidValue(
            slot.name,
            date.isoformat(),
            f"{date.isoformat()} is a {closed[:-1]}: closed on {closed}, open {days}",
            sentence=sentences.closed_on(closed, days),
        )
    if date.isoformat() in _closed_dates(slot):
        raise InvalidValue(
            slot.name,
            date.isoformat(),
            f"{date.isoformat()} is a closed date",
            sentence=sentences.closed_on(_day_words(date), None),
        )
    return date.isoformat()


def _day_words(day: dt.date) -> str:
    """A day as a refusal or an ``invalid`` message names it: "Friday 13 June 2025"."""
    return f"{day:%A} {day.day} {day:%B %Y}"


# ------------------------------------------------------------ open days and closed dates

_WEEK = range(7)
"""The weekdays as :meth:`datetime.date.weekday` counts them, Monday first (:data:`WEEKDAYS`' order)."""


def _open_weekdays(slot: Slot) -> frozenset[int]:
    """The weekdays a date of ``slot`` may fall on (every one when it declares no ``open_days``)."""
    if slot.open_days is None:
        return frozenset(_WEEK)
    return frozenset(WEEKDAYS.index(name.lower()) for name in slot.open_days if name.lower() in WEEKDAYS)


def _closed_dates(slot: Slot) -> frozenset[str]:
    return frozenset(slot.closed_dates or ())


def open_on(slot: Slot, date: dt.date) -> bool:
    """Is a date slot open on ``date``: one of its ``open_days`` and none of its ``closed_dates``?"""
    return date.weekday() in _open_weekdays(slot) and date.isoformat() not in _closed_dates(slot)


def open_day_words(slot: Slot) -> str:
    """A date slot's open days as people say them: "Tuesday to Saturday", "Monday, Wednesday and Friday",
    "Friday to Monday" (a run across the weekend), "every day"."""
    days = _open_weekdays(slot)
    if len(days) == 7:
        return "every day"
    # Runs of consecutive open days, around the week: start each at an open day after a closed one.
    starts = [day for day in sorted(days) if (day - 1) % 7 not in days]
    parts: list[str] = []
    for start in starts:
        end = start
        while (end + 1) % 7 in days:
            end = (end + 1) % 7
        length = (end - start) % 7 + 1
        first, last = WEEKDAYS[start].capitalize(), WEEKDAYS[end].capitalize()
        if length >= 3:
            parts.append(f"{first} to {last}")
        else:
            parts += [first] if length == 1 else [first, last]
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def _first_open(slot: Slot, first: dt.date, last: dt.date) -> dt.date | None:
    """The first open day from ``first`` to ``last``, or None. Each closed date shuts one day and every week has
    an open weekday, so the search ends within a week per closed date."""
    reach = min((last - first).days, 7 * (len(_closed_dates(slot)) + 1))
    return next(
        (day for k in range(reach + 1) if open_on(slot, day := first + dt.timedelta(days=k))),
        None,
    )


def _opening_problems(slot: Slot) -> list[str]:
    """What is wrong with a date slot's ``open_days`` and ``closed_dates`` as written (empty: nothing)."""
    problems: list[str] = []
    if slot.open_days is not None:
        seen: set[str] = set()
        for name in slot.open_days:
            day = name.lower()
            if day not in WEEKDAYS:
                problems.append(f"open_days: {name!r} is not a weekday ({', '.join(WEEKDAYS)})")
            elif day in seen:
                problems.append(f"open_days: {name!r} is listed twice")
            seen.add(day)
        if not seen & set(WEEKDAYS):
            problems.append("open_days: no open day, so no date is allowed")
    written: set[str] = set()
    for date in slot.closed_dates or ():
        if not (CANONICAL_DATE.fullmatch(date) and _valid_date(date)):
            problems.append(f"closed_dates: {date!r} is not a date YYYY-MM-DD")
        elif date in written:
            problems.append(f"closed_dates: {date!r} is listed twice")
        written.add(date)
    return problems


def closed_date_warnings(slot: Slot) -> list[str]:
    """A date slot's closed dates that can never matter (for ``fsmdial validate``'s warnings): outside its fixed
    ``earliest``/``latest``, or on a weekday it is closed on anyway."""
    found: list[str] = []
    first = slot.earliest if slot.earliest is not None and not slot.earliest.startswith("today") else None
    last = slot.latest if slot.latest is not None and not slot.latest.startswith("today") else None
    for date in slot.closed_dates or ():
        day = dt.date.fromisoformat(date)
        if first is not None and date < first:
            found.append(f"closed date {date} is before earliest {first}: that day is refused anyway")
        elif last is not None and date > last:
            found.append(f"closed date {date} is after latest {last}: that day is refused anyway")
        elif day.weekday() not in _open_weekdays(slot):
            found.append(
                f"closed date {date} is a {day:%A}, not one of the open days ({open_day_words(slot)}): that day is "
                "refused anyway"
            )
    return found


def _valid_date(text: str) -> bool:
    try:
        dt.date.fromisoformat(text)
    except ValueError:
        return False
    return True
