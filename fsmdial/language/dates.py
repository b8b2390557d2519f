"""Dates in English text, as ISO ``YYYY-MM-DD`` (times of day are :mod:`.times`', re-exported here).

Relative dates ("tomorrow", "the day after tomorrow", "in two days", "a week from today", "next Friday",
"the 9th") resolve against the ``now`` given. Number words are read by :func:`.numbers.words_to_digits` first
("the twenty-first", "in two days").

A day named without a month ("the 21st") or a weekday alone ("Friday") has several readings, the next one first
(:func:`date_readings`): :func:`read_date` passes such a date on as written, with :data:`NEXT_ONE` after it, and
the value check takes the first reading inside the slot's ``earliest``/``latest`` (:func:`fsmdial.values.coerce`),
so the rules and a model resolve it the same way.

Numbers with slashes are read month first, as in the US ("3/12" is March 12, "12/25/2026" December 25), unless
the first cannot be a month ("25/12" is December 25), or the slot's bounds take only the day-first reading ("12/01"
said in December to a slot taking the next three weeks is 12 January: :data:`BY_BOUNDS`); "3.12" is no date (it is a
time, or money).
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable

from rapidfuzz import process
from rapidfuzz.distance import OSA

from .day_words import (
    TEXTED_DAYS,
    WEEKDAYS,
    named_day_readings,
    spelled_weekdays,
    weekend_readings,
    without_unnamed_days,
)
from .numbers import WORD_NUMBERS, words_to_digits
from .text import DIGIT, may_contain
from .times import TWELVE_HOUR, clock_readings, parse_time, read_clock, remove_times

__all__ = [
    "MONTHS",
    "NEXT_ONE",
    "TWELVE_HOUR",
    "WEEKDAYS",
    "ASK_WHICH",
    "BY_BOUNDS",
    "DateOrders",
    "clock_readings",
    "date_readings",
    "day_choices",
    "impossible_date",
    "parse_date",
    "parse_time",
    "read_clock",
    "read_date",
    "remove_dates_and_times",
]

NEXT_ONE = " (the next one)"
"""Marks a date read with several readings ("Friday (the next one)", "the 21st (the next one)"): never the
stored ISO form, so the value check resolves it against the slot's bounds (:func:`date_readings`)."""

ASK_WHICH = " (to ask which)"
"""Marks a date that two days fit ("next Saturday" said on a Friday: tomorrow, or the Saturday a week later), passed
on as its two readings, "2026-11-28 or 2026-12-05 (to ask which)": the value check asks which was meant
(:func:`day_choices`), never guesses."""

MONTHS = (
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
)

_MONTH_RE = (
    r"(jan|feb|mar|apr|may|jun|jul|aug|sept|sep|oct|nov|dec)(?:(?<=jan)uary|(?<=feb)ruary|(?<=mar)ch|(?<=apr)il|"
    r"(?<=jun)e|(?<=jul)y|(?<=aug)ust|(?<=sept)ember|(?<=sep)tember|(?<=oct)ober|(?<=nov)ember|(?<=dec)ember)?\.?"
    r"(?![a-z])"
)
"""A month's name or its abbreviation, never a word that begins as one does ("maybe 8" is no May 8, "8 juniors" no
June 8); a name misspelt is written out first (:func:`without_date_typos`)."""
_ISO_DATE = re.compile(r"\b(\d{4})-(\d{1,2})-(\d{1,2})\b")
_YEAR = r"(?:,?\s+(\d{4}))?"
_MONTH_DAY = re.compile(r"\b" + _MONTH_RE + r"\s+(?:the\s+)?(\d{1,2})(?:st|nd|rd|th)?\b" + _YEAR, re.I)
_DAY_MONTH = re.compile(r"\b(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?" + _MONTH_RE + _YEAR, re.I)
_NUMERIC_DATE = re.compile(r"\b(\d{1,2})[/.](\d{1,2})[/.](\d{4}|\d{2})\b")
_ORDINAL_DAY = re.compile(r"\bthe\s+(\d{1,2})(?:st|nd|rd|th)\b|\b(\d{1,2})(?:st|nd|rd|th)\b", re.I)
_AGE_ORDINAL = re.compile(
    r"\b(?:(?:my|his|her|our|their|[a-z]+'s)\s+)?\d{1,2}(?:st|nd|rd|th)(?=\s+(?:birthday|bday|b-day|anniversary)\b)|"
    r"\b(?:my|his|her|our|their|[a-z]+'s)\s+\d{1,2}(?:st|nd|rd|th)\b"
    r"(?!\s+(?:of\b|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec))"
)
"""An ordinal that is an age: before "birthday" or "anniversary", or after whose it is ("her 40th")."""
_SHORT_DATE = re.compile(r"(?<![\d/.])(\d{1,2})/(\d{1,2})(?![\d/])")
_COUNT = r"(an?|\d{1,3})\s+(days?|weeks?|fortnights?|months?|years?)"
_WEEKDAY_NAMES = "(" + "|".join(WEEKDAYS) + ")"
_IN_DAYS = re.compile(
    # "come in a week on Tuesday" is the week after the coming Tuesday (_WEEK_ON), not a week from today
    r"\bin\s+"
    + _COUNT
    + r"\b(?!\s+(?:on\s+)?(?:this\s+)?(?:"
    + "|".join(WEEKDAYS)
    + r"))|\b"
    + _COUNT
    + r"\s+(?:(?:from|after|on\s+from)\s+)?(today|now|tomorrow)\b",
    re.I,
)
""""in 2 days", "in a week", "a week from today", "2 weeks from tomorrow", "a week today", "a month from today",
"in a year"."""
_UNIT_DAYS = {"d": 1, "w": 7, "f": 14}
_UNIT_MONTHS = {"m": 1, "y": 12}
_AFTER_NEXT = re.compile(r"\b(?:the\s+)?" + _WEEKDAY_NAMES + r"\s+after\s+next\b")
""""the Friday after next": a week after next Friday."""
_WEEK_ON = re.compile(
    r"\b(an?|\d)\s+weeks?\s+(?:(?:on|from|after)\s+)?(?:this\s+)?"
    + _WEEKDAY_NAMES
    + r"\b|\b"
    + _WEEKDAY_NAMES
    + r"\s+week\b"
)
""""a week on Friday", "a week Friday", "two weeks on Friday", "Friday week": weeks after the coming Friday (British);
said on a Friday, a week from today or a week after next Friday (asked: :func:`day_choices`)."""
_WEEK_THEN_DAY = re.compile(r"\b(next|this)\s+week(?:'s)?\s*,?\s+(?:on\s+)?(?:the\s+)?" + _WEEKDAY_NAMES + r"\b")
""""next week Tuesday", "next week on Tuesday": that day of that calendar week (Monday on), as "Tuesday next week"."""
_DAY_WEEK = re.compile(r"\b(today|tomorrow)\s+week\b")
""""tomorrow week": a week after tomorrow (British)."""
_DAILY = r"lunch|school|work|college|nursery|class|dinner|tea|breakfast|church|the\s+school\s+run"
"""What a day holds ("thursday after school"): a time of that day."""
_UNREAD_OFFSET = re.compile(
    r"\bafter\s+next\b|\b(?:days?|weeks?|fortnights?|months?|years?)\s+(?:from|after|before|today|tomorrow)\b|"
    r"\b(?:weeks?|fortnights?)\s+on\s+(?:this\s+)?" + _WEEKDAY_NAMES + r"|"
    r"\bday\s+before\b|\b"
    + _WEEKDAY_NAMES
    # "Friday after 2", "thursday after school": a time of that day, no day counted from it
    + r"\s+(?:week|fortnight|(?:before|after)(?!\s+(?:\d|noon|midday|"
    + _DAILY
    + r")))\b|"
    r"\b(?:today|tomorrow)\s+(?:week|fortnight)\b|\bnext\s+month\b|"
    r"\bfollowing\s+" + _WEEKDAY_NAMES + r"|\b" + _WEEKDAY_NAMES + r"\s+following\b"
)
"""A day counted from another that the patterns above did not read ("the day before yesterday", "a week on Friday"
said on a Friday; "the following Monday", "the Saturday after then": from a day said before, which a reader is not
given): no date, never the day it counts from."""
_HOW_LONG = re.compile(
    r"(?<![\w'])for\s+(?:a\s+couple\s+of|a\s+few|an?|one|\d+)\s+(?:days?|nights?|weeks?|fortnights?|months?)(?![\w'])"
)
"""A length of time said with "for" ("for 2 days", "for a week"): how long, never a day counted from another."""
_WEEKDAY = re.compile(
    r"\b(next\s+|this\s+|coming\s+)?(" + "|".join(WEEKDAYS) + r")\b(\s+(?:of\s+)?(?:next|this)\s+week\b)?", re.I
)
_DATE_HINT = re.compile(
    r"\d|today|tonight|tomorrow|tmr|yesterday|this (?:evening|afternoon|morning)|day|week|fortnight|month|year|"
    r"mon|tue|wed|thu|fri|sat|sun|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|"
    r"thrus|teus|christmas|xmas|hallowe|easter|thanksgiving",
    re.I,
)
_DATE_HINT_WORDS = (
    "day",
    "week",
    "fortnight",
    "month",
    "year",
    "today",
    "tonight",
    "tomorrow",
    "tmr",
    "yesterday",
    "this evening",
    "this afternoon",
    "this morning",
    "mon",
    "tue",
    "wed",
    "thu",
    "fri",
    "sat",
    "sun",
    "jan",
    "feb",
    "mar",
    "apr",
    "may",
    "jun",
    "jul",
    "aug",
    "sep",
    "oct",
    "nov",
    "dec",
    "thrus",
    "teus",
    "christmas",
    "xmas",
    "hallowe",
    "easter",
    "thanksgiving",
)
_MONTH_PREFIXES = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
_ORDINAL_SUFFIXES = ("st", "nd", "rd", "th")
_TOMORROW = re.compile(r"\btomorrow\b|\btmrw?\b")
_TODAY = re.compile(r"\btoday\b|\btonight\b|\bthis (evening|afternoon|morning)\b")
_YESTERDAY = re.compile(r"\byesterday\b")


def _month_index(token: str) -> int:
    token = token.lower().rstrip(".")
    for index, month in enumerate(MONTHS):
        if month.startswith(token[:3]):
            return index + 1
    raise ValueError(token)


def _has_date_hint(text: str) -> bool:
    """``_DATE_HINT.search(text)``, answered without the pattern for ASCII text."""
    if DIGIT.search(text):
        return True
    return _DATE_HINT.search(text) is not None if not text.isascii() else may_contain(text.lower(), _DATE_HINT_WORDS)


def parse_date(text: str, now: dt.datetime) -> str | None:
    """The first date in ``text`` as ISO ``YYYY-MM-DD``, relative words resolved against ``now`` (of several
    readings, the next one: "Friday" is the coming Friday, "the 9th" the next 9th)."""
    readings = date_readings(text, now)
    return readings[0] if readings else None


def read_date(text: str, now: dt.datetime) -> str | None:
    """The first date in ``text``: ISO when it has one reading; its two readings with :data:`ASK_WHICH` when two
    fit and the user is to be asked ("2026-11-28 or 2026-12-05 (to ask which)": :func:`day_choices`); else the day
    as written with :data:`NEXT_ONE` after it ("Friday (the next one)", "the 21st (the next one)"), for the value
    check to resolve against the slot's bounds; None when there is no date."""
    readings = date_readings(text, now)
    if isinstance(readings, _Choices):
        return f"{readings[0]} or {readings[1]}{ASK_WHICH}"
    if isinstance(readings, DateOrders):
        return f"{readings[0]} or {readings[1]}{BY_BOUNDS}"
    if len(readings) < 2:
        return readings[0] if readings else None
    first = dt.date.fromisoformat(readings[0])
    if readings[1] == (first + dt.timedelta(days=7)).isoformat():
        return f"{WEEKDAYS[first.weekday()].capitalize()}{NEXT_ONE}"
    return f"the {first.day}{_suffix(first.day)}{NEXT_ONE}"


def _in_orders(first: int, second: int, year_of: Callable[[int, int], int]) -> tuple[str, ...]:
    """The readings of a date written as two numbers (and the year ``year_of`` a month and a day): month first, as in
    the US, unless the first cannot be a month; both orders (:class:`DateOrders`) where each is a real date."""
    orders = [(first, second), (second, first)] if first != second else [(first, second)]
    days = [
        day
        for month, day_of_month in orders
        if (day := _date_or_none(year_of(month, day_of_month), month, day_of_month))
    ]
    if len(days) == 2:
        return DateOrders(day.isoformat() for day in days)
    return (days[0].isoformat(),) if days else ()


def _suffix(day: int) -> str:
    return "th" if 10 <= day % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(day % 10, "th")


class DateOrders(tuple[str, ...]):
    """The two readings of a date in numbers whose two numbers can each be the month ("12/01"), month first: the
    slot's bounds choose (:data:`BY_BOUNDS`), month first where both fit."""

    __slots__ = ()


BY_BOUNDS = " (whichever the bounds take)"
"""After a date's two readings as :func:`read_date` passes them on ("2027-12-01 or 2027-01-12 (whichever the bounds
take)"): the value check takes the first inside the slot's bounds."""
_PASSED_ORDERS = re.compile(r"(\d{4}-\d{2}-\d{2}) or (\d{4}-\d{2}-\d{2})" + re.escape(BY_BOUNDS))


class _Choices(tuple[str, ...]):
    """The two readings of a date that both fit ("next Saturday" said on a Friday), the sooner first: asked
    about, never guessed (:func:`day_choices`)."""

    __slots__ = ()


def day_choices(text: str, now: dt.datetime) -> tuple[str, ...]:
    """The two days the first date in ``text`` may name when it names either, the sooner first ("next Saturday"
    said on a Friday: tomorrow or the Saturday a week later; "a week on Friday" said on a Friday: a week or two
    weeks from today); () when it names one day, or one of several by the slot's bounds ("Friday", "the 21st"),
    or none. Also the two of a date as :func:`read_date` passes them on ("2026-11-28 or 2026-12-05 (to ask
    which)")."""
    passed_on = _PASSED_ON.fullmatch(text)
    if passed_on is not None:
        return passed_on.group(1, 2)
    readings = date_readings(text, now)
    return tuple(readings) if isinstance(readings, _Choices) else ()


_PASSED_ON = re.compile(r"(\d{4}-\d{2}-\d{2}) or (\d{4}-\d{2}-\d{2})" + re.escape(ASK_WHICH))

_HORIZON = 366
"""How far ahead the readings of a weekday or of a day without a month go (days)."""


def date_readings(text: str, now: dt.datetime) -> tuple[str, ...]:
    """The readings of the first date in ``text`` as ISO dates: one for most ("tomorrow", "December 3rd",
    "next Friday", "in two days"), the coming ones in order for a weekday alone ("Friday") or a day without a
    month ("the 21st"), up to a year ahead; none when there is no date. A date word with one typo ("tomorow",
    "wednesdy"), a long day word with two ("tomoro", "wensday") or a day as texted ("2morrow", "tonite") is read as
    that word when the text has no date otherwise (:func:`without_date_typos`)."""
    if (passed_on := _PASSED_ORDERS.fullmatch(text)) is not None:
        return passed_on.group(1, 2)  # as read_date passed them on: the bounds choose
    readings = _readings(text, now)
    # Also where only a day without its month was read: "febuary 3rd" is February 3, not the coming 3rd
    if len(readings) != 1 and (fixed := without_date_typos(text)) != text:
        readings = _readings(fixed, now) or readings
    return readings


_TYPO_VOCABULARY = tuple(
    word
    for word in ("tomorrow", "tonight", "yesterday", "fortnight", *WEEKDAYS, *MONTHS)
    if len(word) >= 6  # a short word is one letter from too many others ("march"/"match", "today"/"toady")
)
_LONG_DAY_WORDS = tuple(word for word in ("tomorrow", "yesterday", *WEEKDAYS) if len(word) >= 8)
"""Day words long enough that a word two typos away from one, with its first letter, is no other English word
("tomoro", "tommorow", "wensday"); months and "fortnight" are not ("forthright", "deceiver")."""
_LONG_WORD = re.compile(r"[a-z]{5,}", re.I)
_TEXTED_DAY = re.compile(
    r"(?<![\w'’])(?<!\ban\s)(?<!\ba\s)(?<!\bthe\s)(?<!\bper\s)(?<!\beach\s)(?<!\bevery\s)(?:"
    + "|".join(sorted(TEXTED_DAYS, key=len, reverse=True))
    + r")(?![\w'’])",
    re.I,
)
"""A texted day; "a 2day course", "per 2day block" is a length, no day."""


def without_date_typos(text: str) -> str:
    """``text`` with each day texted ("2morrow", "tonite", "2day") written out, and each word one typo (an edit or a
    swap of two letters) away from exactly one long date word ("tomorow", "wendesday", "decmber"), or two away from
    exactly one long day word with its first letter ("tomoro", "tommorow", "wensday"), written as that word; other
    words as they are. Two day words as close ("munday": monday or sunday) leave the word as it is."""

    def fixed(found: re.Match[str]) -> str:
        word = found.group().lower()
        if word in _TYPO_VOCABULARY or word[:-1] in _TYPO_VOCABULARY:  # "on sundays" is every Sunday, no date
            return found.group()
        close = process.extract(word, _TYPO_VOCABULARY, scorer=OSA.distance, score_cutoff=1, limit=2)
        if not close:
            close = [
                found
                for found in process.extract(word, _LONG_DAY_WORDS, scorer=OSA.distance, score_cutoff=2, limit=2)
                if found[0][0] == word[0] and found[0] + "s" != word and found[0][:-1] != word
            ]
        return close[0][0] if len(close) == 1 else found.group()

    if _TEXTED_DAY.search(text) is not None:
        text = _TEXTED_DAY.sub(lambda found: TEXTED_DAYS[found.group().lower()], text)
    return _LONG_WORD.sub(fixed, text)


def _readings(text: str, now: dt.datetime) -> tuple[str, ...]:
    if not _has_date_hint(text) and ((said := words_to_digits(text)) is text or not _has_date_hint(said)):
        return ()  # most utterances name no date: skip the patterns below
    low = spelled_weekdays(words_to_digits(text).lower())  # "tues" is Tuesday; "sat" only where a day is expected
    if " for " in f" {low}":
        low = _HOW_LONG.sub(" ", low)  # "for 2 days from Saturday": a length, then the day it starts
    today = now.date()
    digits = DIGIT.search(low) is not None
    if digits and may_contain(low, _ORDINAL_SUFFIXES):
        low = _AGE_ORDINAL.sub(" ", low)  # "a 30th birthday party", "it's her 40th": an age, no day
    # Each pattern below is searched only if the text has what it needs (see may_contain).
    if digits and "-" in low and (match := _ISO_DATE.search(low)):
        day = _date_or_none(int(match.group(1)), int(match.group(2)), int(match.group(3)))
        return (day.isoformat(),) if day else ()
    if may_contain(low, _NAMED_HINTS):
        holiday = named_day_readings(low, today)  # "christmas eve", "boxing day"
        if holiday:
            return holiday
        low = without_unnamed_days(low)  # "after boxing day", "the bank holiday": no day, nor "Monday" in it
    if may_contain(low, _OFFSET_UNITS) and (match := _IN_DAYS.search(low)):
        count, unit, base = (match.group(1), match.group(2), None) if match.group(1) else match.group(3, 4, 5)
        number = 1 if count[0] == "a" else int(count)
        start = today + dt.timedelta(days=1 if base == "tomorrow" else 0)
        if unit[0] in _UNIT_MONTHS:
            return (_months_after(start, number * _UNIT_MONTHS[unit[0]]).isoformat(),)
        return ((start + dt.timedelta(days=number * _UNIT_DAYS[unit[0]])).isoformat(),)
    if "week" in low and (match := _DAY_WEEK.search(low)):
        return ((today + dt.timedelta(days=(1 if match.group(1) == "tomorrow" else 0) + 7)).isoformat(),)
    if "after next" in low and (match := _AFTER_NEXT.search(low)):
        ahead = (WEEKDAYS.index(match.group(1)) - today.weekday()) % 7 or 7  # next Friday, then a week on
        return ((today + dt.timedelta(days=ahead + 7)).isoformat(),)
    if "week" in low and (match := _WEEK_THEN_DAY.search(low)):
        monday = today - dt.timedelta(days=today.weekday())
        week = 1 if match.group(1) == "next" else 0
        return ((monday + dt.timedelta(weeks=week, days=WEEKDAYS.index(match.group(2)))).isoformat(),)
    if "week" in low and (match := _WEEK_ON.search(low)):
        count = match.group(1)
        weeks = 1 if count is None or count[0] == "a" else int(count)
        ahead = (WEEKDAYS.index(match.group(2) or match.group(3)) - today.weekday()) % 7
        if ahead:
            return ((today + dt.timedelta(days=ahead + 7 * weeks)).isoformat(),)
        # said on a Friday, "a week on Friday" counts from today or from next Friday: asked
        return _Choices((today + dt.timedelta(weeks=k)).isoformat() for k in (weeks, weeks + 1))
    if "day after tomorrow" in low or "day after tmr" in low:
        return ((today + dt.timedelta(days=2)).isoformat(),)
    if may_contain(low, _OFFSET_UNITS) and (unread := _UNREAD_OFFSET.search(low)):
        if not (digits and _ORDINAL_DAY.search(low, unread.end())):
            return ()  # "the day before yesterday": a day counted from another, not read
        # "the monday after then, the 28th": the day said after it is the day; its weekday still checks it
        weekday = _WEEKDAY.search(unread.group())
        low = low[: unread.start()] + (weekday.group(2) if weekday else "") + " " + low[unread.end() :]
    if ("tomorrow" in low or "tmr" in low) and _TOMORROW.search(low):
        return ((today + dt.timedelta(days=1)).isoformat(),)
    if ("today" in low or "tonight" in low or "this " in low) and _TODAY.search(low):
        return (today.isoformat(),)
    if "yesterday" in low and _YESTERDAY.search(low):
        return ((today - dt.timedelta(days=1)).isoformat(),)
    if digits and ("/" in low or "." in low) and (match := _NUMERIC_DATE.search(low)):
        first, second, year = int(match.group(1)), int(match.group(2)), int(match.group(3))
        year += 2000 if year < 100 and year <= today.year % 100 + 10 else (1900 if year < 100 else 0)
        # US order (month/day) unless the first number cannot be a month; day first too where it can be one
        return _in_orders(first, second, lambda month, day_of_month: year)
    if digits and "/" in low and (match := _SHORT_DATE.search(low)):
        first, second = int(match.group(1)), int(match.group(2))
        return _in_orders(
            first,
            second,
            lambda month, day_of_month: today.year + ((month, day_of_month) < (today.month, today.day)),
        )
    if digits and may_contain(low, _MONTH_PREFIXES):
        named = False
        for pattern, day_group, month_group in ((_MONTH_DAY, 2, 1), (_DAY_MONTH, 1, 2)):
            if match := pattern.search(low):
                named = True
                day = _date_or_none(*_year_month_day(match, day_group, month_group, today))
                if day is not None:
                    return (day.isoformat(),)
                # no such day (April 31; February 29 of the year meant): impossible_date says so
        if named:
            return ()  # a month and a day that do not exist: not "the 29th" of this month either
    if ("day" in low or not low.isascii()) and (match := _WEEKDAY.search(low)):
        target = WEEKDAYS.index(match.group(2).lower())
        ahead = (target - today.weekday()) % 7
        qualifier = (match.group(1) or "").strip()
        if qualifier == "next" and ahead == 0:
            ahead = 7
        first_day = today + dt.timedelta(days=ahead)
        if match.group(3):  # "Friday next week", "Saturday this week": that day of that calendar week (Monday on)
            monday = today - dt.timedelta(days=today.weekday())
            week = 1 if "next" in match.group(3).lower() else 0
            return ((monday + dt.timedelta(weeks=week, days=target)).isoformat(),)
        if digits and may_contain(low, _ORDINAL_SUFFIXES) and (numbered := _ORDINAL_DAY.search(low)):
            # "Wednesday the 2nd": the next day with that number on that weekday, or none (no such day near)
            numbered_days = _days_numbered(today, int(numbered.group(1) or numbered.group(2)))
            return next(((found.isoformat(),) for found in numbered_days if found.weekday() == target), ())
        if qualifier == "next" and ahead == 1:
            # "next Saturday" said on a Friday: tomorrow, or the Saturday of next week (asked)
            return _Choices((today + dt.timedelta(days=days)).isoformat() for days in (1, 8))
        if qualifier:
            return (first_day.isoformat(),)
        return tuple((first_day + dt.timedelta(weeks=k)).isoformat() for k in range(_HORIZON // 7 + 1))
    if "weekend" in low and (weekend := weekend_readings(low, today)) is not None:
        days, ask = weekend  # "this weekend": Saturday or Sunday, asked (one of them may be closed)
        return _Choices(days) if ask else days
    if digits and may_contain(low, _ORDINAL_SUFFIXES) and (match := _ORDINAL_DAY.search(low)):
        return tuple(day.isoformat() for day in _days_numbered(today, int(match.group(1) or match.group(2))))
    return ()


_NAMED_HINTS = (
    "christmas",
    "xmas",
    "boxing",
    "new year",
    "valentine",
    "hallowe",
    "bonfire",
    "fawkes",
    "patrick",
    "paddy",
    "holiday",
    "easter",
    "good friday",
    "mother",
    "father",
    "thanksgiving",
    "labor",
    "labour",
    "memorial",
)
_OFFSET_UNITS = ("day", "week", "fortnight", "month", "year", "after next", "before", "after")


def _months_after(start: dt.date, months: int) -> dt.date:
    """The day ``months`` calendar months after ``start``, on the last day of the month when it has no such day
    (a month from January 31 is February 28 or 29)."""
    year, month = divmod(start.month - 1 + months, 12)
    year, month = start.year + year, month + 1
    last = (dt.date(year + month // 12, month % 12 + 1, 1) - dt.timedelta(days=1)).day
    return dt.date(year, month, min(start.day, last))


def _date_or_none(year: int, month: int, day: int) -> dt.date | None:
    try:
        return dt.date(year, month, day)
    except ValueError:
        return None


def _days_numbered(today: dt.date, day: int) -> list[dt.date]:
    """The days numbered ``day`` from ``today`` on, for a year (the months that have one)."""
    found = []
    for offset in range(13):
        year, month = divmod(today.month - 1 + offset, 12)
        candidate = _date_or_none(today.year + year, month + 1, day)
        if candidate is not None and today <= candidate <= today + dt.timedelta(days=_HORIZON):
            found.append(candidate)
    return found


_DAY_SLASH_MONTH = re.compile(r"\b(\d{1,2})[/.](\d{1,2})\b(?![/.]\d)")


def impossible_date(text: str, now: dt.datetime | None = None) -> str | None:
    """The first date written in ``text`` that names no real day, as written, or None.

    "February 29" in a year that is not a leap year (the year of ``now`` unless one is
    written), "April 31", "2025-02-30", "13/45": the form of a date, so the user meant one,
    but :func:`parse_date` cannot give it. The engine answers those as an invalid value,
    asked again, rather than as nothing understood.
    """
    if not DIGIT.search(text):
        return None
    today = (now or dt.datetime.now()).date()
    for match in _ISO_DATE.finditer(text):
        if not _exists(int(match.group(1)), int(match.group(2)), int(match.group(3))):
            return match.group(0)
    for match in _NUMERIC_DATE.finditer(text):
        first, second = int(match.group(1)), int(match.group(2))
        month, day = (first, second) if first <= 12 else (second, first)
        if not _exists(2000, month, day):  # a leap year: the year itself is checked by parse_date's answer
            return match.group(0)
    for match in _DAY_SLASH_MONTH.finditer(text):
        first, second = int(match.group(1)), int(match.group(2))
        if (first > 12 and second > 12) or not (_exists(2000, first, second) or _exists(2000, second, first)):
            return match.group(0)
    for pattern, day_group, month_group in ((_MONTH_DAY, 2, 1), (_DAY_MONTH, 1, 2)):
        for match in pattern.finditer(text):
            if not _exists(*_year_month_day(match, day_group, month_group, today)):
                return match.group(0).strip()
    return None


def _year_month_day(match: re.Match[str], day_group: int, month_group: int, today: dt.date) -> tuple[int, int, int]:
    """(year, month, day) of a month-and-day match: the year written, else the next one with that day
    still ahead ("March 3" on March 4 means next year's; "February 29" on 2028-03-01 means 2029's, which
    does not exist). One rule for :func:`parse_date` and :func:`impossible_date`, so they never disagree."""
    month, day = _month_index(match.group(month_group)), int(match.group(day_group))
    if match.group(3):
        return int(match.group(3)), month, day
    return (today.year if (month, day) >= (today.month, today.day) else today.year + 1), month, day


def _exists(year: int, month: int, day: int) -> bool:
    try:
        dt.date(year, month, day)
    except ValueError:
        return False
    return True


def remove_dates_and_times(text: str, now: dt.datetime | None = None, keep: re.Pattern[str] | None = None) -> str:
    """``text`` with every written date and time of day blanked out (so their digits are not read as numbers), but
    for times inside a match of ``keep`` (counts: :func:`.times.remove_times`); number words in it are written in
    digits (:func:`.numbers.words_to_digits`).

    Relative words ("tomorrow", "Friday") stay: they hold no digits.
    """
    # Every date pattern needs a digit, and most also a character or word of their own: a pattern is only
    # applied when the text has them. Removing text never adds any, so the text before is tested.
    text = remove_times(text, now, keep)
    if not DIGIT.search(text):
        return text
    low = text.lower()
    if "-" in low:
        text = _ISO_DATE.sub(" ", text)
    if "/" in low or "." in low:
        text = _SHORT_DATE.sub(" ", _NUMERIC_DATE.sub(" ", text))
    if may_contain(low, _OFFSET_UNITS):
        text = _IN_DAYS.sub(" ", text)
    if may_contain(low, _MONTH_PREFIXES):
        text = _DAY_MONTH.sub(" ", _MONTH_DAY.sub(" ", text))
    if may_contain(low, _ORDINAL_SUFFIXES):
        text = _ORDINAL_DAY.sub(" ", text)
    return text


_MOMENT_WORDS = frozenset(
    "today tomorrow tonight week weekend morning afternoon evening night noon midday midnight oclock o'clock lunchtime "
    "teatime".split()
)
_WHEN_FILLER = frozenset(
    "next this coming day days after before around about at on in the by from pm am ish half past quarter to a an "
    "of and or st nd rd th please maybe perhaps if possible say like sometime time then ok okay fine works would be "
    "good first thing early late lunch".split()
)


def says_only_when(text: str) -> bool:
    """Does ``text`` say a day or a time and nothing else ("next Friday around 10", "on the 3rd, say half past 7
    please")? Such a reply describes nothing: it is no answer to a free-text question."""
    words = re.findall(r"[a-z']+|\d+", spelled_weekdays(text.casefold()))
    moments = [
        w for w in words if w.isdigit() or w in WEEKDAYS or w in MONTHS or w in _MOMENT_WORDS or w in WORD_NUMBERS
    ]
    return bool(moments) and all(w in _WHEN_FILLER or w in moments for w in words)


_PAST_MOMENT = re.compile(
    r"\bsince\s+(?:last\s+|the\s+)?[\w']+(?:\s+(?:on|over)\s+(?:the\s+)?[\w']+)?|(?:\b[\w']+\s+)?\b[\w']+\s+ago\b|\b(?:the\s+day\s+before\s+)?yesterday\b|"
    r"\blast\s+(?:night|week|weekend|month|year|monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b",
    re.I,
)
"""A moment gone by ("since Tuesday", "since the wind on Tuesday", "2 weeks ago", "yesterday", "last night")."""
_PAST_VERB = (
    r"(?!(?:wanted|hoped|planned|meant|needed|wondered|thought|intended|decided|booked|asked|rang|called)\b)"
    r"(?:[a-z]{2,}[^e\s]ed|fell|broke|came|went|did|had|lost|got|hurt|cut|bit|split|began|left|found|saw|took|ate|ran)"
)
_PAST_EVENT = re.compile(
    r"\b(?:i|we|he|she|they|(?:my|our|his|her|their)\s+[a-z]+)\s+(?:just\s+|only\s+)?" + _PAST_VERB + r"\b"
    r"(?![^.,;!?]*\b(?:hoping|wondering|going|wanting|looking)\b)"
    r"[^.,;!?]*?\b(?P<when>(?:on|over)\s+(?:the\s+)?(?:[a-z']+\s+){0,2}?"
    r"(?:" + "|".join(WEEKDAYS) + r"|weekend|eve|day|christmas|\d{1,2}(?:st|nd|rd|th)?)(?:\s+of\s+[a-z]+)?)\b",
    re.I,
)
"""A day a thing happened, in the clause of a past-tense verb ("I cracked a tooth on new year's eve", "my crown came
off on Saturday"); never a day still wanted ("I was hoping to come on Monday", "I wanted it on Friday")."""


_BEFORE_EVENT = re.compile(
    r"\b(?:before|ahead\s+of)\s+(?:my|our|his|her|their|the)\s+[a-z']+(?:\s+[a-z']+)?\s+"
    r"(?:on|this|next)\s+(?:the\s+)?(?:" + "|".join(WEEKDAYS) + r"|\d{1,2}(?:st|nd|rd|th)?)\b",
    re.I,
)
"""A day of another event the booking comes before ("before my race on Sunday", "ahead of our wedding on the 14th"):
no day of the booking."""


def without_past_moments(text: str) -> str:
    """``text`` without the moments gone by that it tells of ("since Tuesday", "yesterday", "I cracked a tooth on new
    year's eve"): they tell what happened and are the value only of a date the bot has just asked for ("I lost my
    keys on the bus yesterday" sets no visit date; "I cracked a tooth on Saturday, could I come in Monday?" is
    Monday); nor the day of an event the booking is before ("before my race on Sunday")."""
    text = _PAST_MOMENT.sub(" ", text)
    if "before" in text.lower() or "ahead" in text.lower():
        text = _BEFORE_EVENT.sub(" ", text)
    if not any(word in text.lower() for word in (" on ", " over ")):
        return text
    return _PAST_EVENT.sub(lambda found: found.group()[: found.start("when") - found.start()] + " ", text)
