"""Amounts of money and lengths of time written or spoken in English ("£25", "twenty euros", "4 nights",
"an hour and a half").

Each finder returns ``(start, end, amount, unit)`` for every amount in a text: the span that says it, the number
and its unit (a currency code, or a unit of time; None for a bare number). Nothing here converts between
currencies; units of time convert to the unit a slot asks for (:func:`in_unit`).
"""

from __future__ import annotations

import re
from functools import lru_cache

from .numbers import WORD_NUMBERS

_UNITS = {word: value for word, value in WORD_NUMBERS.items() if " " not in word and value < 10}
_TENS = {word: value for word, value in WORD_NUMBERS.items() if value >= 20 and value % 10 == 0}
_WORDS = sorted((w for w in WORD_NUMBERS if " " not in w), key=len, reverse=True)
_NUMBER_WORDS = r"(?:" + "|".join(_WORDS) + r")(?:[\s-](?:" + "|".join(sorted(_UNITS, key=len, reverse=True)) + r"))?"
NUMBER = rf"(?:\d{{1,3}}(?:,\d{{3}})+|\d+)(?:\.\d+)?|{_NUMBER_WORDS}|an?"
"""A number in digits ("1,200.50") or words ("twenty-five", "a")."""


def number_value(text: str) -> float | None:
    """The number ``text`` is (as :data:`NUMBER` matches it), or None."""
    text = text.strip().casefold()
    if re.fullmatch(r"[\d,]+(?:\.\d+)?", text):
        return float(text.replace(",", ""))
    if text in ("a", "an"):
        return 1.0
    words = re.split(r"[\s-]+", text)
    if len(words) == 1 and words[0] in WORD_NUMBERS:
        return float(WORD_NUMBERS[words[0]])
    if len(words) == 2 and words[0] in _TENS and words[1] in _UNITS:
        return float(_TENS[words[0]] + _UNITS[words[1]])
    return None


# ------------------------------------------------------------------ money

CURRENCY_WORDS = {
    "£": "GBP",
    "pound": "GBP",
    "pounds": "GBP",
    "quid": "GBP",
    "gbp": "GBP",
    "$": "USD",
    "dollar": "USD",
    "dollars": "USD",
    "bucks": "USD",
    "usd": "USD",
    "€": "EUR",
    "euro": "EUR",
    "euros": "EUR",
    "eur": "EUR",
}
"""Words and symbols of a currency, and its ISO 4217 code."""
_HUNDREDTHS = {"p": "GBP", "pence": "GBP", "penny": "GBP", "cent": None, "cents": None}
_SYMBOL = re.compile(rf"(?<!\w)([£$€])\s?({NUMBER})(?![\w.,]\d)", re.I)
_AFTER = re.compile(
    rf"(?<![\w.,])({NUMBER})\s?("
    + "|".join(sorted((w for w in [*CURRENCY_WORDS, *_HUNDREDTHS] if w.isalpha()), key=len, reverse=True))
    + r")\b",
    re.I,
)
_BARE = re.compile(rf"(?<![\w.,:/-])({NUMBER})(?![\w:/]|[.,]\d)", re.I)


@lru_cache(maxsize=512)
def find_money(text: str) -> tuple[tuple[int, int, float, str | None], ...]:
    """The amounts of money in ``text``: (start, end, amount, currency code or None for a bare number).

    Bare numbers count only when no amount in the text names its currency ("it's 25" answers "how much?"; in
    "25 euros for 2 people" the 2 is no amount).
    """
    found: dict[tuple[int, int], tuple[float, str | None]] = {}
    for match in _SYMBOL.finditer(text):
        amount = number_value(match.group(2))
        if amount is not None:
            found[match.span()] = (amount, CURRENCY_WORDS[match.group(1)])
    for match in _AFTER.finditer(text):
        amount, word = number_value(match.group(1)), match.group(2).casefold()
        if amount is None or any(a < match.end() and match.start() < b for a, b in found):
            continue
        if word in _HUNDREDTHS:
            found[match.span()] = (round(amount / 100, 2), _HUNDREDTHS[word])
        else:
            found[match.span()] = (amount, CURRENCY_WORDS[word])
    if not found:
        found = _bare_numbers(text)
    return tuple((a, b, amount, unit) for (a, b), (amount, unit) in sorted(found.items()))


def _bare_numbers(text: str) -> dict[tuple[int, int], tuple[float, str | None]]:
    found: dict[tuple[int, int], tuple[float, str | None]] = {}
    for match in _BARE.finditer(text):
        amount = number_value(match.group(1)) if match.group(1).casefold() not in ("a", "an") else None
        if amount is not None:
            found[match.span()] = (amount, None)
    return found


# ----------------------------------------------------------------- durations

TIME_UNITS = {"minute": 1, "hour": 60, "day": 1440, "night": 1440, "week": 10080}
"""Units of time and their length in minutes (a night of a stay is a day)."""
_UNIT_WORDS = {"min": "minute", "mins": "minute", "hr": "hour", "hrs": "hour", "h": "hour"}
_DURATION = re.compile(
    rf"(?<![\w.,])(?:({NUMBER})|(half))\s?(?:an?\s)?(minutes?|mins?|hours?|hrs?|h|days?|nights?|weeks?)\b"
    r"(\s(?:and\s)?a\shalf)?",
    re.I,
)
_HALF = re.compile(r"(?<!\w)half\s+an?\s+(hour|day)\b", re.I)


def _unit(word: str) -> str:
    word = word.casefold()
    return _UNIT_WORDS.get(word, word.rstrip("s") if word not in ("hrs", "mins") else _UNIT_WORDS[word])


@lru_cache(maxsize=512)
def find_durations(text: str) -> tuple[tuple[int, int, float, str | None], ...]:
    """Lengths of time in ``text``: (start, end, how many, unit: minute, hour, day, night or week; None for a
    bare number, counted only when no length in the text names its unit)."""
    found: dict[tuple[int, int], tuple[float, str | None]] = {}
    for match in _HALF.finditer(text):
        found[match.span()] = (0.5, _unit(match.group(1)))
    for match in _DURATION.finditer(text):
        if any(a < match.end() and match.start() < b for a, b in found):
            continue
        amount = 0.5 if match.group(2) else number_value(match.group(1))
        if amount is None:
            continue
        found[match.span()] = (amount + (0.5 if match.group(4) else 0), _unit(match.group(3)))
    if not found:
        found = _bare_numbers(text)
    return tuple((a, b, amount, unit) for (a, b), (amount, unit) in sorted(found.items()))


def in_unit(amount: float, unit: str, wanted: str) -> float:
    """``amount`` ``unit``s in ``wanted`` units (both keys of :data:`TIME_UNITS`)."""
    return amount * TIME_UNITS[unit] / TIME_UNITS[wanted]
