"""Days as customers name them without a date: weekdays shortened ("tues", "Thurs.", "fri afternoon"), days with a
name of their own ("christmas eve", "boxing day", "new year's day") and the weekend ("this weekend").

Used by :mod:`.dates` only. A shortened weekday is written out in full before the date patterns read the text;
a named day and the weekend are read here, as the readings :func:`.dates.date_readings` gives.

What is never read as a day, because people say it meaning something else:

- "sat", "sun", "wed" and "mon" are ordinary words too ("I sat down", "the sun", "c'mon"): they are a weekday only
  where a day is expected (after "on", "this", "next", "by"...; before a part of the day, a time or a day of the
  month: "sat morning", "sun at 10", "wed the 3rd"), or as the whole reply ("sat?", "mon please");
- a named day after "before", "after", "until", "by", "over" or "around" ("after christmas day") is a limit, no day;
  "christmas" and "new year" alone are a season, no day;
- a holiday whose date moves ("the bank holiday", "easter") names no day here: the slot asks which.
"""

from __future__ import annotations

import datetime as dt
import re

__all__ = [
    "TEXTED_DAYS",
    "WEEKDAYS",
    "named_day_readings",
    "spelled_weekdays",
    "weekend_readings",
    "without_unnamed_days",
]

WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")

_PLAIN = {
    "tue": "tuesday",
    "tues": "tuesday",
    "tuesd": "tuesday",
    "teus": "tuesday",  # "tues" with two letters swapped
    "weds": "wednesday",
    "wednes": "wednesday",
    "thu": "thursday",
    "thur": "thursday",
    "thurs": "thursday",
    "thrus": "thursday",  # "thurs" with two letters swapped
    "fri": "friday",
    "frid": "friday",
    "satur": "saturday",
}
"""Shortened weekdays that are no other English word: a weekday wherever they are said."""
_AMBIGUOUS = {"mon": "monday", "wed": "wednesday", "sat": "saturday", "sun": "sunday"}
"""Shortened weekdays that are ordinary words too ("I sat down", "the sun", "c'mon", "they wed in May"): a weekday
only where a day is expected."""

_SHORT = re.compile(r"(?<![\w'’])(" + "|".join(sorted(_PLAIN, key=len, reverse=True)) + r")\.?(?![\w'’])")
_MAYBE_SHORT = re.compile(r"(?<![\w'’])(mon|wed|sat|sun)\.?(?![\w'’])")
_DAY_BEFORE = re.compile(r"\b(?:on|this|next|coming|by|until|till|til)\s+$")
"""Right before the word: "on sat", "next sun", "by wed": a day is meant whatever follows."""
_DAY_AFTER = re.compile(
    r"[\s,]*(?:$|[?!]|(?:morning|afternoon|evening|night|lunch(?:time)?|am\b|pm\b|a\.m\.|p\.m\.|at\s+\d|\d|"
    r"the\s+\d|or\b|please\b|then\b|(?:next|this)\s+week\b|week\b))"
)
"""Right after the word: a part of the day, a time, a day of the month, the reply's end ("sat morning", "sun at 10",
"wed the 3rd", "mon?")."""
_OPENING = re.compile(
    r"^\W*(?:(?:ok|okay|um+|uh+|er+|hmm+|well|so|yes|yeah|sure|maybe|perhaps|say|how\s+about|what\s+about)\W+)*$"
)
"""What may stand before a day said as the reply itself ("ok sat morning", "how about sun?")."""
_AFTER_A_DAY = re.compile(r"\b(?:" + "|".join(WEEKDAYS) + r")\b[\s,]*(?:or|and|,)?\s*$")
"""Another day right before ("fri or sat")."""


_WINDOW = 40
"""How far back the words before a shortened weekday are read."""


def spelled_weekdays(low: str) -> str:
    """The lower-cased ``low`` with each shortened weekday written out ("tues" -> "tuesday", "fri." -> "friday");
    "sat", "sun", "wed" and "mon" only where a day is expected (see the module docstring)."""
    if _SHORT.search(low) is not None:
        low = _SHORT.sub(lambda found: _PLAIN[found.group(1)], low)
    if _MAYBE_SHORT.search(low) is None:
        return low

    def spelled(found: re.Match[str]) -> str:
        before = found.string[max(0, found.start() - _WINDOW) : found.start()]  # linear in a long reply
        if _DAY_BEFORE.search(before) is not None or (
            _DAY_AFTER.match(found.string, found.end()) is not None
            and (
                (found.start() < _WINDOW and _OPENING.match(before) is not None)
                or _AFTER_A_DAY.search(before) is not None
            )
        ):
            return _AMBIGUOUS[found.group(1)]
        return found.group()

    return _MAYBE_SHORT.sub(spelled, low)


# ------------------------------------------------------------------ days with a name

_NAMED = {
    r"christmas\s+eve|xmas\s+eve": (12, 24),
    r"christmas\s+day|xmas\s+day": (12, 25),
    r"boxing\s+day": (12, 26),
    r"new\s+year['’]?s?\s+eve": (12, 31),
    r"new\s+year['’]?s?\s+day": (1, 1),
    r"valentine['’]?s?\s+day": (2, 14),
    r"halloween|hallowe['’]?en": (10, 31),
    r"bonfire\s+night|guy\s+fawkes\s+night": (11, 5),
    r"st\.?\s+patrick['’]?s\s+day|saint\s+patrick['’]?s\s+day|paddy['’]?s\s+day": (3, 17),
}
"""Days with a name of their own and a fixed date: (month, day)."""
_NAMED_DAY = re.compile(r"(?<![\w'’])(?:" + "|".join(f"(?P<d{i}>{p})" for i, p in enumerate(_NAMED)) + r")(?![\w'’])")
_MOVING = re.compile(
    r"(?<![\w'’])(?:(?:the\s+)?(?:(?:may|spring|summer|august|easter|whit(?:sun)?)\s+)?bank\s+holiday(?:\s+monday)?|"
    r"easter(?:\s+(?:sunday|monday|weekend|day))?|good\s+friday|mother['’]?s\s+day|father['’]?s\s+day|"
    r"thanksgiving|labou?r\s+day|memorial\s+day)(?![\w'’])"
)
"""Holidays whose date moves from year to year: no day read (the slot asks again), never a guess."""
_LIMIT_BEFORE = re.compile(
    r"\b(?:before|after|until|till|til|by|over|around|since|from|through|during|approaching|close\s+to|near)\s+"
    r"(?:the\s+)?$"
)
"""A named day after these words is a limit or a stretch of time ("after christmas day", "over new year's eve")."""


def named_day_readings(low: str, today: dt.date) -> tuple[str, ...]:
    """The day a named day in the lower-cased ``low`` is, as ISO: the next one on or after ``today`` ("christmas eve"
    said on 2026-12-01 is 2026-12-24); () when none is named, or only as a limit ("after boxing day")."""
    for found in _NAMED_DAY.finditer(low):
        if _LIMIT_BEFORE.search(low, max(0, found.start() - _WINDOW), found.start()) is None:
            month, day = next(_NAMED[pattern] for i, pattern in enumerate(_NAMED) if found.group(f"d{i}"))
            year = today.year if (month, day) >= (today.month, today.day) else today.year + 1
            return (dt.date(year, month, day).isoformat(),)
    return ()


def without_unnamed_days(low: str) -> str:
    """The lower-cased ``low`` without the days it names that give no date: a named day said as a limit ("after
    boxing day"), a holiday whose date moves ("the bank holiday monday", "good friday"): the weekday in them is no
    day either."""
    if _MOVING.search(low) is not None:
        low = _MOVING.sub(" ", low)
    return _NAMED_DAY.sub(" ", low) if _NAMED_DAY.search(low) is not None else low


# ------------------------------------------------------------------ the weekend

_WEEKEND = re.compile(r"(?<![\w'’])(?:(?P<which>this|next|the\s+coming|coming|at\s+the|on\s+the)\s+)weekend(?![\w'’])")
"""A weekend ahead; "over the weekend", "the weekend" alone are often one gone by ("it broke over the weekend")."""


def weekend_readings(low: str, today: dt.date) -> tuple[tuple[str, ...], bool] | None:
    """The days of the weekend the lower-cased ``low`` names ("this weekend", "at the weekend", "next weekend"), as
    ISO dates not before ``today``, and whether the text asks which of them (always, when two are left); None when
    no weekend is named. "next weekend" is the weekend of next week (Monday on), as "next week Tuesday" is."""
    found = _WEEKEND.search(low)
    if found is None:
        return None
    which = found.group("which").split()[-1]
    saturday = today + dt.timedelta(days=(5 - today.weekday()) % 7)
    if today.weekday() == 6:
        saturday = today - dt.timedelta(days=1)  # said on a Sunday, this weekend is today
    if which == "next":
        saturday += dt.timedelta(weeks=1)
    days = tuple(day.isoformat() for day in (saturday, saturday + dt.timedelta(days=1)) if day >= today)
    return days, len(days) == 2


TEXTED_DAYS = {
    "2morrow": "tomorrow",
    "2morro": "tomorrow",
    "2moro": "tomorrow",
    "2morow": "tomorrow",
    "2mrw": "tomorrow",
    "2mro": "tomorrow",
    "2moz": "tomorrow",
    "tomoz": "tomorrow",
    "tmoz": "tomorrow",
    "tmrrw": "tomorrow",
    "tmoro": "tomorrow",
    "tonite": "tonight",
    "2nite": "tonight",
    "2night": "tonight",
    "2day": "today",
}
"""Days as people text them: no other word ("tmr" and "tmrw" the patterns read as they are)."""
