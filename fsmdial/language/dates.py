"""Dates and times of day in English text.

Dates come out as ISO ``YYYY-MM-DD``, times as ``HH:MM``. Relative dates
("tomorrow", "next Friday", "the 9th") resolve against the ``now`` given.
"""

from __future__ import annotations

import datetime as dt
import re

from .text import DIGIT, may_contain

WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
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

_MONTH_RE = r"(jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?"
_ISO_DATE = re.compile(r"\b(\d{4})-(\d{1,2})-(\d{1,2})\b")
_YEAR = r"(?:,?\s+(\d{4}))?"
_MONTH_DAY = re.compile(r"\b" + _MONTH_RE + r"\s+(\d{1,2})(?:st|nd|rd|th)?\b" + _YEAR, re.I)
_DAY_MONTH = re.compile(r"\b(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?" + _MONTH_RE + _YEAR, re.I)
_NUMERIC_DATE = re.compile(r"\b(\d{1,2})[/.](\d{1,2})[/.](\d{4}|\d{2})\b")
_ORDINAL_DAY = re.compile(r"\bthe\s+(\d{1,2})(?:st|nd|rd|th)\b|\b(\d{1,2})(?:st|nd|rd|th)\b", re.I)
_WEEKDAY = re.compile(r"\b(next\s+|this\s+|coming\s+)?(" + "|".join(WEEKDAYS) + r")\b", re.I)
_TIME = re.compile(
    r"\b(\d{1,2})(?:[:.](\d{2}))?\s*(a\.?m\.?|p\.?m\.?)(?![a-z])|\b(\d{1,2}):(\d{2})\b|\b(noon|midday|midnight)\b",
    re.I,
)
_TIME_WORD = re.compile(r"noon|midday|midnight", re.I)

_DATE_HINT = re.compile(
    r"\d|today|tonight|tomorrow|tmr|yesterday|this (?:evening|afternoon|morning)|"
    r"mon|tue|wed|thu|fri|sat|sun|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec",
    re.I,
)
_DATE_HINT_WORDS = (
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
)
_MONTH_PREFIXES = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
_ORDINAL_SUFFIXES = ("st", "nd", "rd", "th")
_TOMORROW = re.compile(r"\btomorrow\b|\btmrw?\b")
_TODAY = re.compile(r"\btoday\b|\btonight\b|\bthis (evening|afternoon|morning)\b")
_YESTERDAY = re.compile(r"\byesterday\b")


def parse_time(text: str) -> str | None:
    """The first time of day in ``text`` as ``HH:MM`` ("7pm", "7:30 am", "19:00", "noon")."""
    if not DIGIT.search(text) and not _TIME_WORD.search(text):
        return None
    match = _TIME.search(text)
    if not match:
        return None
    if match.group(6):
        return "00:00" if match.group(6).lower() == "midnight" else "12:00"
    if match.group(3):
        hour, minute = int(match.group(1)), int(match.group(2) or 0)
        if not 1 <= hour <= 12 or minute > 59:
            return None
        pm = match.group(3).lower().startswith("p")
        hour = hour % 12 + (12 if pm else 0)
    else:
        hour, minute = int(match.group(4)), int(match.group(5))
        if hour > 23 or minute > 59:
            return None
    return f"{hour:02d}:{minute:02d}"


_BARE_HOUR = re.compile(
    r"\b(?:at|by)\s+(?:around\s+|about\s+)?(\d{1,2})(?::([0-5][0-9]))?\b"
    r"(?!\s*(?:a\.?m|p\.?m|[:/.,]?\d|%|people|persons|guests|of\b|adults|kids|children|of us))",
    re.I,
)
_PART_OF_DAY = re.compile(r"\b(morning|afternoon|evening|night|tonight)\b", re.I)
TWELVE_HOUR = " (12-hour clock)"
"""Marks a clock time read without am/pm ("7:45 (12-hour clock)"): never the stored ``HH:MM`` form, so the
value check resolves it (:func:`clock_readings`) rather than taking it as written."""


def clock_readings(text: str) -> tuple[str, ...]:
    """The readings of the first time of day in ``text`` as ``HH:MM``: none, one, or two for a clock time
    without am/pm that a 12-hour clock can mean, the one as written first ("7:45": 07:45 then 19:45; "at 4":
    04:00 then 16:00; "12:30": 12:30 then 00:30). A part of the day after it ("7:45 in the evening") picks
    one; "07:45" and "19:45" have one.
    """
    match = _TIME.search(text) if DIGIT.search(text) or _TIME_WORD.search(text) else None
    if match is not None and match.group(4) and not match.group(4).startswith("0") and int(match.group(4)) <= 12:
        hour, minute, end = int(match.group(4)), int(match.group(5)), match.end()
    elif match is None and (bare := _BARE_HOUR.search(text)) is not None and 1 <= int(bare.group(1)) <= 12:
        hour, minute, end = int(bare.group(1)), int(bare.group(2) or 0), bare.end()
    else:
        parsed = parse_time(text)
        return (parsed,) if parsed else ()
    if minute > 59:
        return ()
    morning, evening = f"{hour % 12:02d}:{minute:02d}", f"{hour % 12 + 12:02d}:{minute:02d}"
    part = _PART_OF_DAY.search(text, end)
    if part is not None:
        return (_of_part(part.group(1).lower(), morning, evening),)
    return (evening, morning) if hour == 12 else (morning, evening)  # the reading as written first


_PARTS = {
    "morning": range(5, 12),
    "afternoon": range(12, 17),
    "evening": range(17, 24),
    "night": (*range(20, 24), 0, 1, 2, 3, 4),
}


def _of_part(part: str, morning: str, evening: str) -> str:
    """The reading a part of the day names ("12:30 at night" is 00:30, "9 at night" 21:00)."""
    hours = _PARTS["night" if part == "tonight" else part]
    if int(morning[:2]) in hours and int(evening[:2]) not in hours:
        return morning
    return evening if part != "morning" else morning


def read_clock(text: str) -> str | None:
    """The first time of day in ``text``: ``HH:MM`` when it has one reading, else the clock time as written
    with :data:`TWELVE_HOUR` after it, for the value check to resolve; None when there is no time."""
    readings = clock_readings(text)
    if len(readings) == 2:
        hour, minute = readings[0].split(":")
        return f"{int(hour)}:{minute}{TWELVE_HOUR}"
    return readings[0] if readings else None


def _month_index(token: str) -> int:
    token = token.lower().rstrip(".")
    for index, month in enumerate(MONTHS):
        if month.startswith(token[:3]):
            return index + 1
    raise ValueError(token)


def _next_with_day(today: dt.date, day: int) -> dt.date | None:
    for offset in range(0, 3):
        year, month = divmod(today.month - 1 + offset, 12)
        try:
            candidate = dt.date(today.year + year, month + 1, day)
        except ValueError:
            continue
        if candidate >= today:
            return candidate
    return None


def _has_date_hint(text: str) -> bool:
    """``_DATE_HINT.search(text)``, answered without the pattern for ASCII text."""
    if DIGIT.search(text):
        return True
    return _DATE_HINT.search(text) is not None if not text.isascii() else may_contain(text.lower(), _DATE_HINT_WORDS)


def parse_date(text: str, now: dt.datetime) -> str | None:
    """The first date in ``text`` as ISO ``YYYY-MM-DD``, relative words resolved against ``now``."""
    if not _has_date_hint(text):
        return None  # most utterances name no date: skip the patterns below
    low = text.lower()
    today = now.date()
    digits = DIGIT.search(low) is not None
    # Each pattern below is searched only if the text has what it needs (see may_contain).
    if digits and "-" in low and (match := _ISO_DATE.search(low)):
        try:
            return dt.date(int(match.group(1)), int(match.group(2)), int(match.group(3))).isoformat()
        except ValueError:
            return None
    if "day after tomorrow" in low:
        return (today + dt.timedelta(days=2)).isoformat()
    if ("tomorrow" in low or "tmr" in low) and _TOMORROW.search(low):
        return (today + dt.timedelta(days=1)).isoformat()
    if ("today" in low or "tonight" in low or "this " in low) and _TODAY.search(low):
        return today.isoformat()
    if "yesterday" in low and _YESTERDAY.search(low):
        return (today - dt.timedelta(days=1)).isoformat()
    if digits and ("/" in low or "." in low) and (match := _NUMERIC_DATE.search(low)):
        first, second, year = int(match.group(1)), int(match.group(2)), int(match.group(3))
        year += 2000 if year < 100 and year <= today.year % 100 + 10 else (1900 if year < 100 else 0)
        # US order (month/day) unless the first number cannot be a month.
        month, day = (first, second) if first <= 12 else (second, first)
        try:
            return dt.date(year, month, day).isoformat()
        except ValueError:
            return None
    if digits and may_contain(low, _MONTH_PREFIXES):
        named = False
        for pattern, day_group, month_group in ((_MONTH_DAY, 2, 1), (_DAY_MONTH, 1, 2)):
            if match := pattern.search(low):
                named = True
                try:
                    return dt.date(*_year_month_day(match, day_group, month_group, today)).isoformat()
                except ValueError:  # no such day (April 31; February 29 of the year meant): impossible_date says so
                    continue
        if named:
            return None  # a month and a day that do not exist: not "the 29th" of this month either
    if ("day" in low or not low.isascii()) and (match := _WEEKDAY.search(low)):
        target = WEEKDAYS.index(match.group(2).lower())
        ahead = (target - today.weekday()) % 7
        if match.group(1) and match.group(1).strip() == "next" and ahead == 0:
            ahead = 7
        return (today + dt.timedelta(days=ahead)).isoformat()
    if digits and may_contain(low, _ORDINAL_SUFFIXES) and (match := _ORDINAL_DAY.search(low)):
        day = int(match.group(1) or match.group(2))
        found = _next_with_day(today, day)
        return found.isoformat() if found else None
    return None


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


def remove_dates_and_times(text: str) -> str:
    """``text`` with every written date and time of day blanked out (so their digits are not read as numbers).

    Relative words ("tomorrow", "Friday") stay: they hold no digits.
    """
    # Every pattern but the time words needs a digit, and most also a character or word of their own:
    # a pattern is only applied when the text has them. Removing text never adds any, so the
    # original text is tested.
    if not DIGIT.search(text):
        return _TIME.sub(" ", text) if _TIME_WORD.search(text) else text
    low = text.lower()
    text = _BARE_HOUR.sub(" ", _TIME.sub(" ", text))
    if "-" in low:
        text = _ISO_DATE.sub(" ", text)
    if "/" in low or "." in low:
        text = _NUMERIC_DATE.sub(" ", text)
    if may_contain(low, _MONTH_PREFIXES):
        text = _DAY_MONTH.sub(" ", _MONTH_DAY.sub(" ", text))
    if may_contain(low, _ORDINAL_SUFFIXES):
        text = _ORDINAL_DAY.sub(" ", text)
    return text
