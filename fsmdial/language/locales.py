"""The words values are shown with in messages, one small table per locale (a flow's ``"locale"``).

A message shows a boolean as the locale's yes or no, a date with its weekday and month names ("Saturday
28 November", the year added when it is not the current one), a time on the flow's clock ("5:30 pm" or
"17:30"). Date and time patterns in templates (``{day:%A %-d %B}``, ``{time:%H:%M}``) take their names and
am/pm words from the same table, never from the C library's locale. Only ``en`` is shipped; a locale is one
:class:`Locale` entry in :data:`LOCALES`, nothing else assumes English.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from typing import Literal

Clock = Literal["12h", "24h"]


@dataclass(frozen=True, slots=True)
class Locale:
    """The words and layouts of one locale (``date`` and ``time_*`` are ``str.format`` layouts)."""

    code: str
    yes: str
    no: str
    weekdays: tuple[str, ...]
    """Monday first, as :meth:`datetime.date.weekday` counts."""
    weekdays_short: tuple[str, ...]
    months: tuple[str, ...]
    """January first."""
    months_short: tuple[str, ...]
    am: str
    pm: str
    noon: str | None
    """What 12:00 is called on the 12-hour clock (None: the time in digits)."""
    midnight: str | None
    clock: Clock
    """The clock people of this locale read times on, when the flow names none."""
    date: str = "{weekday} {day} {month}"
    """A date of the current year: ``weekday``, ``day`` (a number), ``month``, ``year``."""
    date_with_year: str = "{weekday} {day} {month} {year}"
    time_12: str = "{hour}:{minute:02d} {ampm}"
    """A time on the 12-hour clock (``hour`` 1 to 12, ``minute``, ``ampm``)."""
    hour_12: str = "{hour} {ampm}"
    """A time on the hour on the 12-hour clock."""
    time_24: str = "{hour:02d}:{minute:02d}"
    missed_change: str = "Sorry, I didn't catch what to change. I have: {summary} What would you like to change?"
    """Said at a committing confirmation to a reply that is no plain yes or no and changed nothing (no model read it):
    ``summary`` is the confirmation's message (else its question), shown whole again."""

    def date_words(self, day: dt.date, today: dt.date) -> str:
        """``day`` as a message shows it: the year only when it is not ``today``'s."""
        layout = self.date if day.year == today.year else self.date_with_year
        return layout.format(
            weekday=self.weekdays[day.weekday()], day=day.day, month=self.months[day.month - 1], year=day.year
        )

    def time_words(self, time: dt.time, clock: Clock) -> str:
        """``time`` on ``clock``: "5:30 pm", "7 pm", "noon" (12-hour) or "17:30" (24-hour)."""
        hour, minute = time.hour, time.minute
        if clock == "24h":
            return self.time_24.format(hour=hour, minute=minute)
        if minute == 0 and hour == 12 and self.noon:
            return self.noon
        if minute == 0 and hour == 0 and self.midnight:
            return self.midnight
        layout = self.hour_12 if minute == 0 else self.time_12
        return layout.format(hour=hour % 12 or 12, minute=minute, ampm=self.am if hour < 12 else self.pm)

    def yes_no(self, value: bool) -> str:
        return self.yes if value else self.no

    def strftime(self, value: dt.date | dt.time, pattern: str) -> str:
        """``value`` laid out by ``pattern`` (:data:`DATE_DIRECTIVES` or :data:`TIME_DIRECTIVES`, ``%-d`` without
        the leading zero, ``%%`` a percent sign) with this locale's names. Raises ``ValueError`` for a directive
        that does not apply to the value (see :func:`pattern_problem`)."""
        problem = pattern_problem(pattern, "time" if isinstance(value, dt.time) else "date")
        if problem:
            raise ValueError(problem)
        return _DIRECTIVE.sub(lambda found: self._directive(value, found.group(1), found.group(2)), pattern)

    def _directive(self, value: dt.date | dt.time, bare: str, letter: str) -> str:
        if letter == "%":
            return "%"
        if isinstance(value, dt.time):
            hour_12 = value.hour % 12 or 12
            numbers = {"H": value.hour, "I": hour_12, "M": value.minute}
            if letter == "p":
                return self.am if value.hour < 12 else self.pm
        else:
            names = {
                "A": self.weekdays[value.weekday()],
                "a": self.weekdays_short[value.weekday()],
                "B": self.months[value.month - 1],
                "b": self.months_short[value.month - 1],
            }
            if letter in names:
                return names[letter]
            if letter == "Y":
                return str(value.year)
            numbers = {"d": value.day, "m": value.month, "y": value.year % 100}
        number = numbers[letter]
        return str(number) if bare else f"{number:02d}"


DATE_DIRECTIVES = frozenset("aAbBdmyY")
"""Pattern letters a date takes: weekday (``%a`` short, ``%A``), month name (``%b``, ``%B``), day ``%d``, month
``%m``, year ``%y``/``%Y``."""
TIME_DIRECTIVES = frozenset("HIMp")
"""Pattern letters a time takes: hour ``%H`` (24-hour), ``%I`` (12-hour), minute ``%M``, am/pm ``%p``."""
_NUMBERS = frozenset("dmyHIM")
"""Letters that take the ``-`` flag (no leading zero)."""
_DIRECTIVE = re.compile(r"%(-?)(.?)", re.DOTALL)


def pattern_problem(pattern: str, kind: Literal["date", "time"]) -> str | None:
    """Why ``pattern`` cannot lay out a value of ``kind``, or None: it must hold at least one directive, and
    only those of its kind."""
    allowed = DATE_DIRECTIVES if kind == "date" else TIME_DIRECTIVES
    found = 0
    for match in _DIRECTIVE.finditer(pattern):
        bare, letter = match.groups()
        if letter == "%" and not bare:
            continue
        if letter not in allowed or (bare and letter not in _NUMBERS):
            shown = f"%{bare}{letter}"
            return f"{shown} is not a {kind} directive (use {', '.join('%' + a for a in sorted(allowed))})"
        found += 1
    if not found:
        return f"a {kind} takes a pattern such as {'%A %-d %B' if kind == 'date' else '%H:%M'}"
    return None


ENGLISH = Locale(
    code="en",
    yes="yes",
    no="no",
    weekdays=("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"),
    weekdays_short=("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"),
    months=(
        "January",
        "February",
        "March",
        "April",
        "May",
        "June",
        "July",
        "August",
        "September",
        "October",
        "November",
        "December",
    ),
    months_short=("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"),
    am="am",
    pm="pm",
    noon="noon",
    midnight="midnight",
    clock="12h",
)

LOCALES: dict[str, Locale] = {"en": ENGLISH}
"""Every locale a flow may name, by code."""


def locale(code: str) -> Locale:
    """The locale ``code`` names (``KeyError`` naming the ones there are, when none)."""
    try:
        return LOCALES[code]
    except KeyError:
        raise KeyError(f"no locale {code!r} (there are: {', '.join(sorted(LOCALES))})") from None
