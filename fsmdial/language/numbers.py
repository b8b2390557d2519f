"""Numbers in English text, written in digits ("1,200", "2.5", "4 0 5") or words ("six", "twenty-one",
"four hundred and five", "a dozen", "a couple").

Number words are turned into digits by ``text2num`` (:func:`words_to_digits`), so every reader of numbers,
dates and times in this package reads digits only; a cheap word pre-test keeps it off the text that has none.
"""

from __future__ import annotations

import re
from functools import lru_cache

from text_to_num import alpha2digit

from .text import DIGIT, FUNCTION_WORDS, may_have_word

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
    "hundred": 100,
    "thousand": 1000,
    "a couple": 2,
    "a dozen": 12,
    "dozen": 12,
}
"""Number words and the value each names alone (a word list for look-ups beside a number: "six people").
Compounds ("twenty-one", "four hundred and five") are read by :func:`words_to_digits`."""

_ORDINAL_WORDS = (
    "first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth thirteenth fourteenth "
    "fifteenth sixteenth seventeenth eighteenth nineteenth twentieth thirtieth"
).split()
_NUMBER_WORD_TOKENS = frozenset(
    [word for key in WORD_NUMBERS for word in key.split()]
    + ["couple", "million", "point", "half", "fortnight"]
    + [word + "s" for word in ("hundred", "thousand", "dozen", "couple")]
    + _ORDINAL_WORDS
) - {"a"}
"""Every word a number said in words may start with: text with none of them is left as it is."""

# Said as a quantity, not as a number word text2num knows; rewritten before it runs.
_QUANTITIES = (
    (re.compile(r"\bhalf\s+a\s+dozen\b", re.I), "6"),
    (re.compile(r"\b(?:a\s+)?couple\s+(?:of\s+)?dozen\b", re.I), "24"),
    (re.compile(r"\b(?:a|one)\s+dozen\b|\bdozen\b", re.I), "12"),
    (re.compile(r"\ba\s+couple(?:\s+of)?\b|\bcouple\s+of\b", re.I), "2"),
)
# "a second", "one sec": a moment, not the 2nd of the month.
_MOMENT = re.compile(r"\b(?:a|one|just a)\s+sec(?:ond)?\b", re.I)
_MONTHS = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?"
_SMALL_ORDINAL = re.compile(r"(?<![-\w])(?<!ty )(?:first|second)\b", re.I)
_DAY_BEFORE = re.compile(r"(?:\bthe|\b" + _MONTHS + r"(?:\s+the)?)\s+$", re.I)
_WORD_AFTER = re.compile(r"\s+(?!(?:of|please|then|and|at|for|at|in|is|would|works)\b)[a-z]", re.I)
_MONTH_AFTER = re.compile(r"\s+of\s+" + _MONTHS, re.I)
_SPACED_DIGITS = re.compile(r"(?<![\w.,])\d(?: \d){2,}(?![\w.,])")
"""Three or more single digits with one space between ("4 0 5", "five five five" read as digits): one number."""
_NUMBER = re.compile(r"(?<![\w.])[-+]?\d{1,3}(?:,\d{3})+(?:\.\d+)?(?![\w])|(?<![\w.])[-+]?\d+(?:\.\d+)?(?![\w])")


_DIGIT_WORDS = {"zero": 0, "oh": 0, "o": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6}
_DIGIT_WORDS |= {"seven": 7, "eight": 8, "nine": 9}
_ONE_DIGIT = "zero|one|two|three|four|five|six|seven|eight|nine"
_SPOKEN_RUN = re.compile(rf"\b(?:{_ONE_DIGIT})(?:[\s,-]+(?:{_ONE_DIGIT}|oh|o)\b)+", re.I)
_WORDS = re.compile(r"[a-z]+", re.I)


def _spoken_digits(found: re.Match[str]) -> str:
    """Three or more digits said one by one, "oh" for zero inside ("four oh two" -> "402", "six six two zero");
    a shorter run, or one ending in "oh", stays as said ("two or three", "two three")."""
    words = [w.lower() for w in _WORDS.findall(found.group())]
    if len(words) < 3 or words[-1] in ("oh", "o"):
        return found.group()
    return "".join(str(_DIGIT_WORDS[w]) for w in words)


@lru_cache(maxsize=2048)
def words_to_digits(text: str) -> str:
    """``text`` with the numbers said in words written in digits ("a table for six" -> "a table for 6",
    "four hundred and five" -> "405", "twenty-one" -> "21", "the twenty-first" -> "the 21st", "a dozen" ->
    "12"), by ``text2num``; the rest of the text as it was. Text without a number word is returned as is."""
    if not may_have_word(text, _NUMBER_WORD_TOKENS):
        return text
    if "sec" in text.lower():
        text = _MOMENT.sub("a moment", text)
    text = _SPOKEN_RUN.sub(_spoken_digits, text)
    for pattern, digits in _QUANTITIES:
        text = pattern.sub(digits, text)
    if "first" not in text.lower() and "second" not in text.lower():
        return alpha2digit(text, "en", threshold=0)
    # "first" and "second" are mostly not numbers ("tell me about the menu first", "a second"): read only as a
    # day of the month ("on the first", "the second of May", "December first"), and kept away from text2num.
    pieces, last = [], 0
    for match in _SMALL_ORDINAL.finditer(text):
        before = _DAY_BEFORE.search(text, max(0, match.start() - 40), match.start()) is not None
        day = (before and not _WORD_AFTER.match(text, match.end())) or _MONTH_AFTER.match(text, match.end()) is not None
        pieces += [alpha2digit(text[last : match.start()], "en", threshold=0), match.group()]
        if day:
            pieces[-1] = "1st" if match.group().lower() == "first" else "2nd"
        last = match.end()
    return "".join(pieces) + alpha2digit(text[last:], "en", threshold=0)


def join_spaced_digits(text: str) -> str:
    """``text`` with runs of three or more single digits said one by one ("5 0 3") written as one number."""
    if " " not in text or not DIGIT.search(text):
        return text
    return _SPACED_DIGITS.sub(lambda match: match.group().replace(" ", ""), text)


def find_numbers(text: str) -> list[float | int]:
    """Numbers written in digits or words, in order of appearance ("six of us" -> [6], "ride number four
    hundred and five" -> [405], "4 0 5" -> [405])."""
    text = join_spaced_digits(words_to_digits(text))
    if not DIGIT.search(text):
        return []
    found: list[float | int] = []
    for match in _NUMBER.finditer(text):
        raw = match.group().replace(",", "")
        found.append(float(raw) if "." in raw else int(raw))
    return found


_SINGULAR_LENGTHS = frozenset({"year", "month", "week", "day", "hour", "minute", "night"})


def length_before_a_noun(words: list[str], at: int) -> bool:
    """Is the number ``words[at]`` a length naming the thing after it, in a singular unit ("the 5 year extended
    warranty", "a 2 hour lesson"), not a count of its own ("5 years", "2 year old", "1 year")?"""
    after = words[at + 1 : at + 3]
    return (
        len(after) == 2
        and after[0] in _SINGULAR_LENGTHS
        and after[1].isalpha()
        and after[1] not in ("old", "ago", "long", "away")
        and after[1] not in FUNCTION_WORDS  # "for 1 night? if that works": a new sentence, no noun named
    )
