"""Slot values: coercion to a slot's type, validators, and the parsers behind them.

Values are stored JSON-ready: integers and numbers as numbers, booleans as
booleans, categorical values as the flow's spelling, dates as ISO
``YYYY-MM-DD`` and times as ``HH:MM`` strings. Relative dates ("tomorrow",
"next Friday", "the 9th") resolve against the dialogue's clock.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from .flow import Slot, SlotType


class InvalidValue(ValueError):
    """A value the slot's type or validators reject; ``message`` is fit to show the user."""

    def __init__(self, slot: str, value: Any, message: str):
        self.slot = slot
        self.value = value
        self.message = message
        super().__init__(f"{slot}: {message}")


_WORD_NUMBERS = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14,
    "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20,
    "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90,
    "a couple": 2, "a dozen": 12, "dozen": 12,
}  # fmt: skip
_NUMBER = re.compile(r"(?<![\w.])[-+]?\d{1,3}(?:,\d{3})+(?:\.\d+)?(?![\w])|(?<![\w.])[-+]?\d+(?:\.\d+)?(?![\w])")
_WORD_NUMBER = re.compile(r"\b(" + "|".join(sorted(_WORD_NUMBERS, key=len, reverse=True)) + r")\b", re.I)
_YES = re.compile(
    r"^\s*(yes|yeah|yep|yup|ya|yea|sure|correct|right|exactly|affirmative|ok|okay|absolutely|definitely|"
    r"of course|that'?s (right|correct|it)|sounds good|please do|go ahead|do it|perfect|great|fine)\b",
    re.I,
)
_NO = re.compile(r"^\s*(no|nope|nah|not really|negative|wrong|incorrect|that'?s (wrong|not right)|don'?t|never)\b", re.I)

_WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
_MONTHS = [
    "january", "february", "march", "april", "may", "june",
    "july", "august", "september", "october", "november", "december",
]  # fmt: skip
_MONTH_RE = r"(jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?"
_ISO_DATE = re.compile(r"\b(\d{4})-(\d{1,2})-(\d{1,2})\b")
_YEAR = r"(?:,?\s+(\d{4}))?"
_MONTH_DAY = re.compile(r"\b" + _MONTH_RE + r"\s+(\d{1,2})(?:st|nd|rd|th)?\b" + _YEAR, re.I)
_DAY_MONTH = re.compile(r"\b(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?" + _MONTH_RE + _YEAR, re.I)
_NUMERIC_DATE = re.compile(r"\b(\d{1,2})[/.](\d{1,2})[/.](\d{4}|\d{2})\b")
_ORDINAL_DAY = re.compile(r"\bthe\s+(\d{1,2})(?:st|nd|rd|th)\b|\b(\d{1,2})(?:st|nd|rd|th)\b", re.I)
_WEEKDAY = re.compile(r"\b(next\s+|this\s+|coming\s+)?(" + "|".join(_WEEKDAYS) + r")\b", re.I)
_TIME = re.compile(
    r"\b(\d{1,2})(?::(\d{2}))?\s*(a\.?m\.?|p\.?m\.?)(?![a-z])|\b(\d{1,2}):(\d{2})\b|\b(noon|midday|midnight)\b",
    re.I,
)


def parse_yes_no(text: str) -> str | None:
    """``"yes"``, ``"no"`` or None for an utterance that starts with neither."""
    if _NO.match(text):
        return "no"
    if _YES.match(text):
        return "yes"
    return None


# Cheap tests that rule a pattern out before it is searched (they never rule out text the pattern
# would match). Substring tests only hold for ASCII text: with re.I, a few other letters match ASCII
# ones ("ſ" matches "s"), so other text always goes through the full pattern.
_DIGIT = re.compile(r"\d")
_ASCII_LETTERS = re.compile(r"[a-z]+")
_NUMBER_WORD_TOKENS = frozenset(word for key in _WORD_NUMBERS for word in key.split()) - {"a"}


def _may_contain(low: str, needles: tuple[str, ...]) -> bool:
    """False only when the lower-cased ASCII text ``low`` contains none of ``needles``."""
    return not low.isascii() or any(map(low.__contains__, needles))


def _may_have_number_word(text: str) -> bool:
    if not text.isascii():
        return True
    return not _NUMBER_WORD_TOKENS.isdisjoint(_ASCII_LETTERS.findall(text.lower()))


def find_numbers(text: str) -> list[float | int]:
    """Numbers written in digits or words, in order of appearance."""
    found: list[tuple[int, float | int]] = []
    if _DIGIT.search(text):
        for match in _NUMBER.finditer(text):
            raw = match.group().replace(",", "")
            found.append((match.start(), float(raw) if "." in raw else int(raw)))
    if _may_have_number_word(text):
        for match in _WORD_NUMBER.finditer(text):
            found.append((match.start(), _WORD_NUMBERS[match.group(1).lower()]))
    if len(found) < 2:
        return [value for _, value in found]
    return [value for _, value in sorted(found, key=lambda item: item[0])]


_TIME_WORD = re.compile(r"noon|midday|midnight", re.I)


def parse_time(text: str) -> str | None:
    """The first time of day in ``text`` as ``HH:MM`` ("7pm", "7:30 am", "19:00", "noon")."""
    if not _DIGIT.search(text) and not _TIME_WORD.search(text):
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


def _month_index(token: str) -> int:
    token = token.lower().rstrip(".")
    for index, month in enumerate(_MONTHS):
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


_DATE_HINT = re.compile(
    r"\d|today|tonight|tomorrow|tmr|yesterday|this (?:evening|afternoon|morning)|"
    r"mon|tue|wed|thu|fri|sat|sun|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec",
    re.I,
)
_DATE_HINT_WORDS = ("today", "tonight", "tomorrow", "tmr", "yesterday", "this evening", "this afternoon",
                    "this morning", "mon", "tue", "wed", "thu", "fri", "sat", "sun", "jan", "feb", "mar", "apr", "may",
                    "jun", "jul", "aug", "sep", "oct", "nov", "dec")  # fmt: skip
_MONTH_PREFIXES = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
_ORDINAL_SUFFIXES = ("st", "nd", "rd", "th")
_TOMORROW = re.compile(r"\btomorrow\b|\btmrw?\b")
_TODAY = re.compile(r"\btoday\b|\btonight\b|\bthis (evening|afternoon|morning)\b")
_YESTERDAY = re.compile(r"\byesterday\b")


def _has_date_hint(text: str) -> bool:
    """``_DATE_HINT.search(text)``, answered without the pattern for ASCII text."""
    if _DIGIT.search(text):
        return True
    return _DATE_HINT.search(text) is not None if not text.isascii() else _may_contain(text.lower(), _DATE_HINT_WORDS)


def parse_date(text: str, now: dt.datetime) -> str | None:
    """The first date in ``text`` as ISO ``YYYY-MM-DD``, relative words resolved against ``now``."""
    if not _has_date_hint(text):
        return None  # most utterances name no date: skip the patterns below
    low = text.lower()
    today = now.date()
    digits = _DIGIT.search(low) is not None
    # Each pattern below is searched only if the text has what it needs (see _may_contain).
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
    if digits and _may_contain(low, _MONTH_PREFIXES):
        for pattern, day_group, month_group in ((_MONTH_DAY, 2, 1), (_DAY_MONTH, 1, 2)):
            if match := pattern.search(low):
                try:
                    month = _month_index(match.group(month_group))
                    day = int(match.group(day_group))
                    year = int(match.group(3)) if match.group(3) else today.year
                    candidate = dt.date(year, month, day)
                except ValueError:
                    continue
                if not match.group(3) and candidate < today:  # "March 3" means the next one
                    candidate = candidate.replace(year=today.year + 1)
                return candidate.isoformat()
    if ("day" in low or not low.isascii()) and (match := _WEEKDAY.search(low)):
        target = _WEEKDAYS.index(match.group(2).lower())
        ahead = (target - today.weekday()) % 7
        if match.group(1) and match.group(1).strip() == "next" and ahead == 0:
            ahead = 7
        return (today + dt.timedelta(days=ahead)).isoformat()
    if digits and _may_contain(low, _ORDINAL_SUFFIXES) and (match := _ORDINAL_DAY.search(low)):
        day = int(match.group(1) or match.group(2))
        found = _next_with_day(today, day)
        return found.isoformat() if found else None
    return None


def _categorical(slot: Slot, value: Any) -> str:
    text = _squash(str(value))
    for allowed in slot.values or ():
        if _squash(allowed) == text:
            return allowed
    options = ", ".join(slot.values or ())
    raise InvalidValue(slot.name, value, f"{value!r} is not one of: {options}")


def _squash(text: str) -> str:
    return re.sub(r"[\s_\-]+", " ", text).strip().casefold()


def coerce(slot: Slot, value: Any, now: dt.datetime) -> Any:
    """``value`` converted to ``slot``'s type and checked by its validators.

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
        if isinstance(value, dt.date):
            return value.isoformat()
        if type(value) is str and _CANONICAL_DATE.fullmatch(value) and _valid_date(value):
            return value  # already the stored form (as understanders give it)
        parsed = parse_date(str(value), now)
        if parsed is None:
            raise InvalidValue(slot.name, value, f"{value!r} is not a date I understand")
        return parsed
    if kind is SlotType.time:
        if isinstance(value, dt.time):
            return value.strftime("%H:%M")
        if type(value) is str and _CANONICAL_TIME.fullmatch(value):
            return value  # already the stored form
        parsed = parse_time(str(value))
        if parsed is None:
            raise InvalidValue(slot.name, value, f"{value!r} is not a time I understand")
        return parsed
    raise InvalidValue(slot.name, value, f"unsupported slot type {kind}")  # pragma: no cover


_CANONICAL_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
_CANONICAL_TIME = re.compile(r"(?:[01][0-9]|2[0-3]):[0-5][0-9]")


def _valid_date(text: str) -> bool:
    try:
        dt.date.fromisoformat(text)
    except ValueError:
        return False
    return True


_LARGEST = 2**63 - 1
"""Numbers beyond this (and inf/nan) are refused: a session snapshot must store them exactly."""


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
    if not -_LARGEST <= number <= _LARGEST:  # also false for nan
        raise InvalidValue(slot.name, value, "is too large a number" if number == number else "is not a number")
    return number


def _fmt(number: float) -> str:
    return str(int(number)) if float(number).is_integer() else str(number)
