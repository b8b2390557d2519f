"""Digits said one by one or in groups, written ("07700 900 123", "(555) 123-4567") or spoken ("oh seven seven
double oh nine"): the runs phone numbers and references are read from.

A run keeps every digit said, or is marked unsure: a reader takes only sure runs, because a run that is part of
something it cannot read ("KM19": letters glued to it; "four eighteen": a number word beside it; "4512 one": digits
and digit words mixed) would store a value that was not said.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from .numbers import WORD_NUMBERS

DIGIT_WORDS = {word: str(value) for word, value in WORD_NUMBERS.items() if " " not in word and value < 10} | {
    "oh": "0",
    "o": "0",
    "nought": "0",
}
"""Words of one digit ("oh" and "nought" are 0)."""
REPEATS = {"double": 2, "triple": 3}
"""Words that repeat the digit after them ("double oh" is 00)."""
_OTHER_NUMBER_WORDS = frozenset(
    [word for word in WORD_NUMBERS if " " not in word and word not in DIGIT_WORDS]
    + ["hundreds", "thousands", "million", "millions", "billion", "dozen", "grand", "point"]
)
"""Number words that are no single digit ("eighteen", "hundred"): beside a run, the number goes on unread."""
_TOKEN = re.compile(r"[A-Za-z]+|\d+")
GAP = re.compile(r"[\s\-.(),\u2013]{0,3}")
"""What may stand between the digits or digit words of one number ("07700 900", "12-34", "(555) 123", "five, oh")."""
_ORDINAL = re.compile(r"(?:st|nd|rd|th)\b", re.I)
_IN_FRONT = re.compile(
    r"[\s,]*(?:(?:with|and|plus)\s+)?(?:an?\s+)?(?:oh|o|zero|nought|0)\s+"
    r"(?:in\s+front|at\s+the\s+(?:front|start|beginning))(?:\s+of\s+it)?\b",
    re.I,
)
"""A leading zero said last ("seven seven double oh ..., with oh in front")."""
_INTERJECTION = re.compile(r"\s*[,.!]")
"""After an "oh" that starts a number written in digits, it is no zero ("oh, 4512")."""


@dataclass(frozen=True)
class Run:
    """Digits said as one number: where (``start``, ``end``), which (``digits``), and whether every digit of it is
    certain (``sure``)."""

    start: int
    end: int
    digits: str
    sure: bool
    spoken: bool
    """Some digit was said in words."""


def _kind(word: str) -> str:
    """D: digits, W: a digit word, R: a repeat word, N: another number word, X: any other word."""
    if word.isdigit():
        return "D"
    low = word.casefold()
    if low in DIGIT_WORDS:
        return "W"
    if low in REPEATS:
        return "R"
    return "N" if low in _OTHER_NUMBER_WORDS else "X"


@lru_cache(maxsize=512)
def digit_runs(text: str) -> tuple[Run, ...]:
    """The runs of digits and digit words in ``text``, in order (see the module docstring).

    Tokens of a run are joined by at most three characters of :data:`GAP`. A run needs a written digit or two
    digit words (a digit word alone, "one moment", is no number); an ordinal ("21st") is none.
    """
    tokens = [(found.start(), found.end(), found.group(), _kind(found.group())) for found in _TOKEN.finditer(text)]
    runs: list[Run] = []
    i = 0
    while i < len(tokens):
        if tokens[i][3] not in "DWR":
            i += 1
            continue
        j = i + 1
        while j < len(tokens) and tokens[j][3] in "DWR" and GAP.fullmatch(text[tokens[j - 1][1] : tokens[j][0]]):
            j += 1
        run, after = _run(text, tokens, i, j)
        if run is not None:
            runs.append(run)
        while j < len(tokens) and tokens[j][0] < after:
            j += 1
        i = j
    return tuple(runs)


def _run(text: str, tokens: list[tuple[int, int, str, str]], i: int, j: int) -> tuple[Run | None, int]:
    """The run of ``tokens[i:j]`` (digits, digit words, repeats), and where the text it takes ends."""
    first, last = tokens[i], tokens[j - 1]
    if (
        first[2].casefold() in ("oh", "o")
        and j > i + 1
        and tokens[i + 1][3] == "D"
        and _INTERJECTION.match(text, first[1])
    ):
        return _run(text, tokens, i + 1, j)  # "oh, 4512" (but "oh, seven seven ..." is a zero)
    sure = True
    before = tokens[i - 1] if i > 0 else None
    after = tokens[j] if j < len(tokens) else None
    if after is not None and after[0] == last[1] and _ORDINAL.match(text, last[1]):
        return None, last[1]  # "21st", "3rd"
    for beside, gap in (
        (before, text[before[1] : first[0]] if before else ""),
        (after, text[last[1] : after[0]] if after else ""),
    ):
        if beside is not None and (gap == "" or (beside[3] == "N" and GAP.fullmatch(gap))):
            sure = False  # "KM19", "1h30", "four eighteen"
    kinds = {token[3] for token in tokens[i:j]}
    if "D" in kinds and "W" in kinds:
        sure = False  # "4512 one", "oh 7700": digits written and said in words are not one number
    digits, repeat, spoken = "", 1, 0
    for _, _, word, kind in tokens[i:j]:
        if kind == "R":
            if repeat > 1:
                sure = False  # "double triple"
            repeat = REPEATS[word.casefold()]
            continue
        piece = word if kind == "D" else DIGIT_WORDS[word.casefold()]
        if repeat > 1 and len(piece) > 1:
            sure = False  # "double 77"
        digits += piece * repeat if len(piece) == 1 else piece
        spoken += kind == "W"
        repeat = 1
    end = last[1]
    if repeat > 1:  # "... four double": the digit it repeats was not said
        sure = False
        end = tokens[j - 2][1] if j - 2 >= i else first[0]
    if not digits or ("D" not in kinds and spoken < 2):
        return None, end
    in_front = _IN_FRONT.match(text, end)
    if in_front is not None:
        digits, end = "0" + digits, in_front.end()
    return Run(first[0], end, digits, sure, spoken > 0), end
