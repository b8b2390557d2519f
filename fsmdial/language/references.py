"""References (booking numbers, registration plates, flight numbers, account ids) written or spoken in English:
one id of letters and digits ("AB1234", "4512", "AB-1234"), groups of them ("KM19 ZTR", "BA 2490", "ab 12 cd 34",
"1234 5678"), or letters and digits said one by one ("H R 1 3 V C X", "b r zero zero four two", "five oh three").

Stored as one word, letters in upper case, separators dropped (``KM19ZTR``). Every group said is kept: a group of
letters beside the digits is part of the reference when it cannot be an English word ("ZTR", "wmo", "BA"), and no
part when it is a common word ("is", "thanks", "reg"). Where that is in doubt ("OK 4512": OK is a word, and a code),
or a number goes on in words nobody reads as digits ("4512 eighteen"), the reference is unsure and not read at all.
"""

from __future__ import annotations

import re
from functools import lru_cache

from .digits import DIGIT_WORDS, REPEATS
from .short_words import COMMON_WORDS

_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)*")
_GAP = re.compile(r"[\s\-.,]{0,3}")
"""Between digits, digit words or single letters of one reference ("4 5 1 2", "b, r, zero")."""
_LETTERS_GAP = re.compile(r"[\s\-]{0,3}")
"""Between a group of letters and the rest of its reference ("KM19 ZTR", "AB-1234"): a comma or a full stop
ends a reference there ("a 2012 astra, reg ...")."""
_ORDINAL = re.compile(r"\d+(?:st|nd|rd|th)|\d{1,2}(?:am|pm)", re.I)
"""Words of digits and letters that are no code: "3rd", "7pm"."""
_NUMBER_WORDS = frozenset(
    "ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty thirty forty fifty "
    "sixty seventy eighty ninety hundred hundreds thousand thousands million grand dozen point".split()
)

_LABELS = frozenset("pin ref refs reg id no nr num dob acc acct tel mob ext code card flight order booking".split())
"""Words that name a value (written in capitals as often as not): never part of it."""
ABBREVIATIONS = {"registration": ("reg", "rego"), "reference": ("ref",), "account": ("acct",)}
"""Short forms of the words that name a reference ("reg MA12 RTE" names the registration)."""


def _kind(token: str, start: int, shouting: bool, opening: int) -> str:
    """D: digits, M: letters and digits, W: a digit word, R: "double"/"triple", N: another number word, L: a
    single letter, S: "a" or "I" (a letter only among spelled letters), C: a group of letters of a code, A: a word
    that may be a code ("OK", "PM"), X: a word."""
    if not token.isascii() or not token.isalnum():
        return "X"
    if token.isdigit():
        return "D"
    if not token.isalpha():
        return "X" if _ORDINAL.fullmatch(token) else "M"
    low = token.casefold()
    if low in DIGIT_WORDS:
        return "W"
    if low in REPEATS:
        return "R"
    if low in _NUMBER_WORDS:
        return "N"
    if len(token) == 1:
        return "S" if low in ("a", "i") else "L"
    if len(token) > 4:
        return "X"
    if low in _LABELS:
        return "X"  # "PIN 0071", "REF 4512": the label of the value, in capitals or not
    if low in COMMON_WORDS:  # "ok", "pls" are words; "OK", "pm", "st" (two letters, no vowel) may be a code
        return "A" if (token.isupper() and not shouting) or (len(low) == 2 and not set(low) & set("aeiouy")) else "X"
    if token[0].isupper() and token[1:].islower() and start > opening:
        return "X"  # "Kev 4512": a name, unless the message starts with it ("Ab 12 cd 34")
    if len(token) == 4 and not token.isupper():
        return "X"  # "bath", "toes": a word of four letters in lower case is a word
    return "C"


_CODE = frozenset("DMWRLC")
_TEXT_SPEAK = frozenset("ur")
"""Letters written for a word before a value ("the last 4 digits r 5092", "u can use 4512")."""


def _tokens(text: str) -> list[tuple[int, int, str, str]]:
    opening = len(text) - len(text.lstrip(" \"'"))  # where the words start
    # All in capitals, as "MY REG IS KM19 ZTR" (a word of three letters or more in it): "OK" there is a word.
    shouting = text.isupper() and any(len(w) > 2 and w.casefold() in COMMON_WORDS for w in re.findall(r"[A-Z]+", text))
    tokens = [
        (m.start(), m.end(), m.group(), _kind(m.group(), m.start(), shouting, opening)) for m in _WORD.finditer(text)
    ]
    # A letter alone is a letter of a reference among other spelled letters ("H R 1 3 V C X"), or written in
    # upper case ("B 1234"); "a" and "I" only among letters; a lower-case one alone is in doubt, but for "r" and
    # "u" before a number ("last 4 digits r 5092": a word).
    for i, (start, end, word, kind) in enumerate(tokens):
        if kind in "LS":
            spelled = any(
                0 <= k < len(tokens) and tokens[k][3] in "LS" and _joined(text, tokens, min(i, k))
                for k in (i - 1, i + 1)
            )
            if not spelled:
                speak = word in _TEXT_SPEAK and i + 1 < len(tokens) and tokens[i + 1][3] in "DMW"  # "r 5092"
                alone = "X" if kind == "S" or speak else "L" if word.isupper() else "A"
                tokens[i] = (start, end, word, alone)
            elif kind == "S":
                tokens[i] = (start, end, word, "L")
    return tokens


def _joined(text: str, tokens: list[tuple[int, int, str, str]], i: int) -> bool:
    """Are ``tokens[i]`` and ``tokens[i + 1]`` said as one reference (what stands between them)?"""
    gap = text[tokens[i][1] : tokens[i + 1][0]]
    letters = any(kind in "CMA" for kind in (tokens[i][3], tokens[i + 1][3]))
    return (_LETTERS_GAP if letters else _GAP).fullmatch(gap) is not None


_COUNTED = re.compile(
    r"\s*(?:people|persons?|guests?|adults?|kids?|children|nights?|days?|weeks?|hours?|minutes?|mins?|boxes|items?|"
    r"tickets?|rooms?|seats?|pounds?|quid|dollars?|euros?|pence|percent|%)\b",
    re.I,
)
"""Words after a number that make it a count or an amount, no reference ("for 2 people")."""


@lru_cache(maxsize=512)
def reference_runs(text: str) -> tuple[tuple[int, int, str, bool], ...]:
    """The references of ``text``: (start, end, reference, sure), in order."""
    tokens = _tokens(text)
    found = []
    i = 0
    while i < len(tokens):
        if tokens[i][3] not in _CODE:
            i += 1
            continue
        j = i + 1
        while j < len(tokens) and tokens[j][3] in _CODE and _joined(text, tokens, j - 1):
            j += 1
        run = _reference(text, tokens, i, j)
        if run is not None and not (run[2].isdigit() and _COUNTED.match(text, run[1])):
            found.append(run)
        i = j
    return tuple(found)


def _reference(text: str, tokens: list[tuple[int, int, str, str]], i: int, j: int) -> tuple[int, int, str, bool] | None:
    kinds = [token[3] for token in tokens[i:j]]
    words = sum(kind == "W" for kind in kinds)
    if not ({"D", "M"} & set(kinds) or words >= 2):
        return None  # no digit, or one digit word ("one", "b one")
    sure = True
    for k in (i - 1, j):
        if 0 <= k < len(tokens) and tokens[k][3] in "AN" and _joined(text, tokens, min(k, j - 1)):
            sure = False  # "OK 4512" (a word or a code?), "4512 eighteen" (a number read on in words)
    if words and {"D", "M"} & set(kinds):
        sure = False  # "the 4512 one", "oh 7700": digits written and said in words are not one reference
    groups = [token[2] for token in tokens[i:j] if token[3] == "C"]
    if len(groups) == 1 and "M" not in kinds and not groups[0].isupper():
        sure = False  # "20 min", "ab 12": one group of small letters beside digits may be a word ("ab 12 cd 34" is not)
    letters = {"L", "C", "M"} & set(kinds)
    if letters and any(token[2].casefold() in ("oh", "o") for token in tokens[i:j]):
        sure = False  # among letters, "oh" is the letter O or a zero
    value, repeat = "", 1
    for _, _, word, kind in tokens[i:j]:
        if kind == "R":
            sure = sure and repeat == 1
            repeat = REPEATS[word.casefold()]
            continue
        piece = DIGIT_WORDS[word.casefold()] if kind == "W" else word.upper()
        if repeat > 1 and len(piece) > 1:
            sure = False  # "double 77"
        value += piece * repeat if len(piece) == 1 else piece
        repeat = 1
    end = tokens[j - 1][1]
    if repeat > 1:
        sure = False  # "... double": the repeated digit was not said
    return tokens[i][0], end, value, sure


def reference_value(text: str) -> str | None:
    """The reference ``text`` is, as one word in upper case, or None when it is none, or not certainly one."""
    text = text.strip()
    runs = reference_runs(text)
    if len(runs) == 1 and runs[0][:2] == (0, len(text)) and runs[0][3]:
        return runs[0][2]
    return None


@lru_cache(maxsize=512)
def find_references(text: str) -> tuple[tuple[str, str], ...]:
    """The references said in ``text``: (span, reference), in order; none of which a part is in doubt."""
    return tuple((text[start:end], value) for start, end, value, sure in reference_runs(text) if sure)
