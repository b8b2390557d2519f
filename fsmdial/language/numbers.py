"""Numbers in English text, written in digits ("1,200", "2.5") or words ("two", "a dozen")."""

from __future__ import annotations

import re

from .text import DIGIT, may_have_word

WORD_NUMBERS = {
    "zero": 0,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "thirteen": 13,
    "fourteen": 14,
    "fifteen": 15,
    "sixteen": 16,
    "seventeen": 17,
    "eighteen": 18,
    "nineteen": 19,
    "twenty": 20,
    "thirty": 30,
    "forty": 40,
    "fifty": 50,
    "sixty": 60,
    "seventy": 70,
    "eighty": 80,
    "ninety": 90,
    "a couple": 2,
    "a dozen": 12,
    "dozen": 12,
}
"""Number words and the value each names."""

_NUMBER = re.compile(r"(?<![\w.])[-+]?\d{1,3}(?:,\d{3})+(?:\.\d+)?(?![\w])|(?<![\w.])[-+]?\d+(?:\.\d+)?(?![\w])")
_WORD_NUMBER = re.compile(r"\b(" + "|".join(sorted(WORD_NUMBERS, key=len, reverse=True)) + r")\b", re.I)
# Every word a number-word match contains ("a" alone is too common to rule anything out).
_NUMBER_WORD_TOKENS = frozenset(word for key in WORD_NUMBERS for word in key.split()) - {"a"}


def find_numbers(text: str) -> list[float | int]:
    """Numbers written in digits or words, in order of appearance."""
    found: list[tuple[int, float | int]] = []
    if DIGIT.search(text):
        for match in _NUMBER.finditer(text):
            raw = match.group().replace(",", "")
            found.append((match.start(), float(raw) if "." in raw else int(raw)))
    if may_have_word(text, _NUMBER_WORD_TOKENS):
        for match in _WORD_NUMBER.finditer(text):
            found.append((match.start(), WORD_NUMBERS[match.group(1).lower()]))
    if len(found) < 2:
        return [value for _, value in found]
    return [value for _, value in sorted(found, key=lambda item: item[0])]
