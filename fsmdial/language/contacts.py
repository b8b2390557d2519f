"""Phone numbers, email addresses and reference numbers written or spoken in English.

Each finder returns ``(span, value)`` pairs: the exact text of the message that says the value (a model may copy
only that) and the value in its normal form. Nothing here guesses: a span is found only when the whole of it reads
as a value.

* Phone numbers: what :mod:`phonenumbers` finds ("07700 900 123", "+44 7700 900123", "(555) 123-4567",
  "0770-090-0789"), and digits said one by one ("oh seven seven ...", "double oh"); stored as dialled, digits
  with a leading ``+`` when the caller gave the country code.
* Email addresses: written ("maria.lopez@gmail.com") or spoken ("carol dot dunn at gmail dot com"); stored
  with the domain in lower case.
* References: booking numbers and other ids of letters and digits ("AB1234", "4512"), digits read one by one
  ("4 5 1 2", "five oh three") or in groups ("1234 5678"); stored as one word, letters in upper case.
"""

from __future__ import annotations

import re
from functools import lru_cache

import phonenumbers

from .numbers import WORD_NUMBERS

_DIGIT_WORDS = {word: str(value) for word, value in WORD_NUMBERS.items() if " " not in word and value < 10} | {
    "oh": "0",
    "o": "0",
    "nought": "0",
}
_REPEATS = {"double": 2, "triple": 3}
_TOKEN = re.compile(r"[A-Za-z]+|\d+")
_GAP = re.compile(r"[\s\-.(),]{0,3}")
"""What may stand between the digits or digit words of one number ("07700 900", "12-34", "(555) 123", "five, oh")."""


def _digit_runs(text: str) -> list[tuple[int, int, str]]:
    """Runs of digits and digit words said as one number: (start, end, digits).

    A run is digit groups and digit words ("oh", "double five") with at most a space, a hyphen or a dot between
    them; it ends at any other word.
    """
    runs: list[tuple[int, int, str]] = []
    start = end = -1
    digits = ""
    repeat = 1
    spoken = 0  # digit words in the run: a digit word alone ("one moment", "oh, ok") is no number
    written = False
    for token in _TOKEN.finditer(text):
        word = token.group().casefold()
        piece = token.group() if word.isdigit() else _DIGIT_WORDS.get(word)
        joined = start >= 0 and _GAP.fullmatch(text[end : token.start()]) is not None
        if word in _REPEATS and (start < 0 or joined):
            if start < 0:
                start = token.start()
            repeat, end = _REPEATS[word], token.end()
            continue
        if piece is None or (start >= 0 and not joined):
            if start >= 0 and digits and (written or spoken > 1):
                runs.append((start, end, digits))
            start, digits, repeat, spoken, written = -1, "", 1, 0, False
            if piece is None:
                continue
        if start < 0:
            start = token.start()
        digits += piece * repeat if len(piece) == 1 else piece
        written, spoken = written or word.isdigit(), spoken + (not word.isdigit())
        repeat, end = 1, token.end()
    if start >= 0 and digits and (written or spoken > 1):
        runs.append((start, end, digits))
    return [(first, last, digits) for first, last, digits in runs if not _ordinal(text, last)]


def _ordinal(text: str, end: int) -> bool:
    return re.match(r"(?:st|nd|rd|th)\b", text[end:], re.I) is not None


def _trimmed(text: str, start: int, end: int) -> tuple[int, int]:
    """The span without a repeat word it ended on ("double" said last is no digit)."""
    words = text[start:end].split()
    while words and words[-1].casefold() in _REPEATS:
        words.pop()
        end = text.rindex(words[-1], start, end) + len(words[-1]) if words else start
    return start, end


# ---------------------------------------------------------------------- phones

PHONE_DIGITS = (7, 15)
"""Fewest and most digits of a phone number (E.164 allows 15)."""


def phone_value(text: str, region: str | None) -> str | None:
    """The phone number ``text`` is, as dialled (digits, and a ``+`` before a country code), or None.

    With a ``region``, a number without a country code must be a possible number of that country (by
    :mod:`phonenumbers`' length rules); without one, any number of 7 to 15 digits is taken.
    """
    text = text.strip()
    plus = text.startswith("+")
    runs = _digit_runs(text[1:] if plus else text)
    if len(runs) != 1 or runs[0][:2] != (0, len(text) - plus):
        if not re.fullmatch(r"\+?[\d\s().\-]+", text):
            return None
        digits = re.sub(r"\D", "", text)
    else:
        digits = runs[0][2]
    if not PHONE_DIGITS[0] <= len(digits) <= PHONE_DIGITS[1]:
        return None
    dialled = ("+" if plus else "") + digits
    if plus or region is not None:
        try:
            number = phonenumbers.parse(dialled, None if plus else region)
        except phonenumbers.NumberParseException:
            return None
        if not phonenumbers.is_possible_number(number):
            return None
    return dialled


@lru_cache(maxsize=512)
def find_phones(text: str, region: str | None) -> tuple[tuple[str, str], ...]:
    """The phone numbers said in ``text``: (span, number as dialled), in order."""
    found: dict[tuple[int, int], str] = {}
    for match in phonenumbers.PhoneNumberMatcher(text, region or "ZZ", leniency=phonenumbers.Leniency.POSSIBLE):
        value = phone_value(match.raw_string, region)
        if value is not None:
            found[(match.start, match.end)] = value
    for start, end, _ in _digit_runs(text):
        start, end = _trimmed(text, start, end)
        if start > 0 and text[start - 1] in "+(":
            start -= 1
        if any(a <= start < b or a < end <= b for a, b in found):
            continue
        value = phone_value(text[start:end], region)
        if value is not None:
            found[(start, end)] = value
    return tuple((text[start:end], value) for (start, end), value in sorted(found.items()))


# ---------------------------------------------------------------------- emails

_LOCAL = r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*"
_DOMAIN = r"(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,24}"
EMAIL = re.compile(_LOCAL + "@" + _DOMAIN)
"""The shape of an email address (the part every provider accepts: no quoted local parts, no IP domains)."""
_WRITTEN = re.compile(r"(?<![\w.@+-])" + EMAIL.pattern + r"(?![\w@-])")
_SPOKEN_PART = r"[A-Za-z0-9]+(?:(?:\s+(?:dot|underscore|dash|hyphen)\s+|[._-])[A-Za-z0-9]+)*"
_SPOKEN = re.compile(
    rf"(?<![\w'])(?P<local>{_SPOKEN_PART})\s+(?:at|@)\s+(?P<domain>[A-Za-z0-9-]+(?:\s+dot\s+[A-Za-z0-9-]+|\.[A-Za-z0-9-]+)+)\b",
    re.I,
)
_SPOKEN_MARKS = {"dot": ".", "underscore": "_", "dash": "-", "hyphen": "-"}
_NOT_LOCAL = frozenset("i am is are me we be was were and or it he she they you".split())
"""Words before "at" that are no one's address ("I am at home dot com")."""


def email_value(text: str) -> str | None:
    """The email address ``text`` is (written, or spoken as "john dot smith at gmail dot com"), domain in lower
    case; None when it is not one."""
    text = text.strip()
    if EMAIL.fullmatch(text):
        local, domain = text.rsplit("@", 1)
        return f"{local}@{domain.lower()}"
    spoken = _SPOKEN.fullmatch(text)
    if spoken is None:
        return None
    local = _unspoken(spoken.group("local"))
    if local.casefold() in _NOT_LOCAL:
        return None
    value = f"{local}@{_unspoken(spoken.group('domain')).lower()}"
    return value if EMAIL.fullmatch(value) else None


def _unspoken(part: str) -> str:
    words = part.split()
    return "".join(_SPOKEN_MARKS.get(word.casefold(), word) if i % 2 else word for i, word in enumerate(words))


@lru_cache(maxsize=512)
def find_emails(text: str) -> tuple[tuple[str, str], ...]:
    """The email addresses said in ``text``: (span, address), in order."""
    found: dict[tuple[int, int], str] = {}
    for match in _WRITTEN.finditer(text):
        value = email_value(match.group())
        if value is not None:
            found[match.span()] = value
    if " at " in text.casefold():
        for match in _SPOKEN.finditer(text):
            if any(a < match.end() and match.start() < b for a, b in found):
                continue
            start = _spoken_start(text, match)
            value = email_value(text[start : match.end()])
            if value is not None:
                found[(start, match.end())] = value
    return tuple((text[start:end], value) for (start, end), value in sorted(found.items()))


def _spoken_start(text: str, match: re.Match[str]) -> int:
    """Where a spoken address starts: its local part is the one word before "at", or the words joined by "dot"
    ("it's carol dot dunn at ..." starts at "carol")."""
    local = match.group("local")
    words = local.split()
    start = match.start()
    # The local part of a spoken address is words joined by "dot"/"underscore": an even count of separators.
    while len(words) > 1 and words[1].casefold() not in _SPOKEN_MARKS:
        start = text.index(words[1], start)
        words = words[1:]
    return start


# ------------------------------------------------------------------ references

_ID = re.compile(r"(?<![\w@.])(?=[A-Za-z0-9-]*\d)[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*(?![\w@]|\.\w)")
"""One written id: letters and digits (at least one digit), perhaps joined by hyphens ("AB-1234", "4512")."""


def reference_value(text: str) -> str | None:
    """The reference ``text`` is: one id of letters and digits, or digits said one by one or in groups; as one
    word, letters in upper case, separators dropped. None when it is not one."""
    text = text.strip()
    if _ID.fullmatch(text) and not _ordinal_word(text):
        return text.replace("-", "").upper()
    runs = _digit_runs(text)
    if len(runs) == 1 and runs[0][:2] == (0, len(text)):
        return runs[0][2]
    return None


def _ordinal_word(text: str) -> bool:
    return re.fullmatch(r"\d+(?:st|nd|rd|th)", text, re.I) is not None


@lru_cache(maxsize=512)
def find_references(text: str) -> tuple[tuple[str, str], ...]:
    """The references said in ``text``: (span, reference), in order; a run of spaced digits is one reference."""
    found: dict[tuple[int, int], str] = {}
    for start, end, _ in _digit_runs(text):
        start, end = _trimmed(text, start, end)
        if start < end and (value := reference_value(text[start:end])) is not None:
            found[(start, end)] = value
    for match in _ID.finditer(text):
        if (value := reference_value(match.group())) is not None:
            found[match.span()] = value
    # A part of a longer reference is not one ("1234" of "AB-1234", "5678" of "1234 5678").
    found = {
        (a, b): value
        for (a, b), value in found.items()
        if not any(c <= a and b <= d and (c, d) != (a, b) for c, d in found)
    }
    return tuple((text[start:end], value) for (start, end), value in sorted(found.items()))
