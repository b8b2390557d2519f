"""Phone numbers, email addresses and reference numbers written or spoken in English.

Each finder returns ``(span, value)`` pairs: the exact text of the message that says the value (a model may copy
only that) and the value in its normal form. Nothing here guesses: a span is found only when the whole of it reads
as a value, every part of it said, with no doubt about where it starts or ends.

* Phone numbers: digits in groups ("07700 900 123", "+44 7700 900123", "(555) 123-4567", "0770-090-0789") or said
  one by one ("oh seven seven double oh ...", a leading zero said last "... with oh in front"), read by
  :mod:`.digits` and checked by :mod:`phonenumbers` (a possible number of the slot's region, or of the country
  code said); stored as dialled: every digit, with a leading ``+`` when the caller gave the country code.
* Email addresses: written ("maria.lopez@gmail.com") or spoken ("carol dot dunn at gmail dot com", "bob underscore
  smith at ...", "jane 99 at ..."); stored with the domain in lower case. A spoken address whose start is in doubt
  ("john smith at gmail dot com": john.smith, johnsmith or smith?) is none.
* References (:mod:`.references`): ids of letters and digits ("AB1234", "KM19 ZTR", "b r zero zero four two"),
  digits read one by one ("4 5 1 2", "five oh three") or in groups ("1234 5678"); one word, letters in upper case.
"""

from __future__ import annotations

import bisect
import re
from functools import lru_cache

import phonenumbers

from .digits import Run, digit_runs
from .references import ABBREVIATIONS, find_references, reference_value

__all__ = ["ABBREVIATIONS", "EMAIL", "PHONE_DIGITS", "contact_words", "email_value", "find_emails", "find_phones"]
__all__ += ["find_references", "phone_value", "reference_value"]

# ---------------------------------------------------------------------- phones

PHONE_DIGITS = (7, 15)
"""Fewest and most digits of a phone number (E.164 allows 15)."""


def _phone_start(text: str, run: Run) -> int:
    """Where a phone number said as ``run`` starts: with the "+" of a country code or the "(" of an area code."""
    start = run.start
    if start > 0 and text[start - 1] == "(":
        start -= 1
    if start > 0 and text[start - 1] == "+":
        start -= 1
    return start


def phone_value(text: str, region: str | None) -> str | None:
    """The phone number ``text`` is, as dialled (every digit said, and a ``+`` before a country code), or None.

    With a ``region``, a number without a country code must be a possible number of that country (by
    :mod:`phonenumbers`' length rules); without one, any number of 7 to 15 digits is taken. A number read with any
    doubt (:class:`.digits.Run`'s ``sure``) is none.
    """
    text = text.strip()
    runs = digit_runs(text)
    if len(runs) == 1 and _phone_start(text, runs[0]) == 0 and runs[0].end == len(text):
        if not runs[0].sure:
            return None
        digits = runs[0].digits
    elif re.fullmatch(r"\+?[\d\s().\-]+", text):
        digits = re.sub(r"\D", "", text)
    else:
        return None
    plus = text.startswith("+")
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
    """The phone numbers said in ``text``: (span, number as dialled), in order.

    Each is one run of digits (:func:`.digits.digit_runs`: written in groups, in brackets, after a "+", or said
    digit by digit) read whole: no number is taken out of a longer one ("123-4567" of "(555) 123-4567").
    """
    found = []
    for run in digit_runs(text):
        if not run.sure or not PHONE_DIGITS[0] <= len(run.digits) <= PHONE_DIGITS[1]:
            continue
        span = text[_phone_start(text, run) : run.end]
        value = phone_value(span, region)
        if value is not None:
            found.append((span, value))
    return tuple(found)


# ---------------------------------------------------------------------- emails

_LOCAL = r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*"
_DOMAIN = r"(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,24}"
EMAIL = re.compile(_LOCAL + "@" + _DOMAIN)
"""The shape of an email address (the part every provider accepts: no quoted local parts, no IP domains)."""
_WRITTEN = re.compile(r"(?<![\w.@+-])" + EMAIL.pattern + r"(?![\w@-])")
_SPOKEN_MARKS = {"dot": ".", "underscore": "_", "dash": "-", "hyphen": "-"}
_SPOKEN_PART = r"[A-Za-z0-9]+(?:(?:\s+(?:dot|underscore|dash|hyphen)\s+|[._-]|\s+(?=\d+\b))[A-Za-z0-9]+)*"
"""A local part read out: words joined by "dot", "underscore", "dash" or "hyphen" (or written marks), and digits
said after a word ("jane 99" is jane99: a space is in no address)."""
_SPOKEN = re.compile(
    rf"(?<![\w'])(?P<local>{_SPOKEN_PART})\s+(?:at|@)\s+"
    r"(?P<domain>[A-Za-z0-9-]+(?:\s+dot\s+[A-Za-z0-9-]+|\.[A-Za-z0-9-]+)+)\b",
    re.I,
)
_DOT_SAID = re.compile(r"\sdot\s", re.I)
_SPOKEN_JOINS = re.compile(r"\s+(dot|underscore|dash|hyphen)\s+|\s+", re.I)
_NOT_LOCAL = frozenset("i am is are me we be was were and or it he she they you dot underscore dash hyphen at".split())
"""Words before "at" that are no one's address ("I am at home dot com"), nor the words that join its parts (a
self-correction cut inside "john sorry dot sorry at gmail dot com" left "dot at gmail dot com": dot@gmail.com)."""
_LEADS = frozenset(
    "is it's its it was be is: email e-mail mail address me to at on via under use try reach contact send write "
    "that's thats yes yeah yep sure ok okay so and or um uh er erm hi hello please now actually sorry oh well then "
    "instead just new".split()
)
"""Words after which a spoken address starts: the word before its local part is no part of it."""
_WORD_BEFORE = re.compile(r"([\w'’:-]+)\s+$")


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
    return _SPOKEN_JOINS.sub(lambda found: _SPOKEN_MARKS[found.group(1).casefold()] if found.group(1) else "", part)


def _starts_address(text: str, start: int, spoken: bool) -> bool:
    """Does an address found at ``start`` start there, or may the word before it be part of it ("john smith at
    gmail dot com": johnsmith, john.smith or smith? none is certain)? A written address is one word; one whose
    local part or the word before it is all digits ("jane 99@gmail.com") may be a part."""
    before = _WORD_BEFORE.search(text, max(0, start - 40), start)
    if before is None:
        return True
    word = before.group(1).casefold().strip(":")
    if spoken:
        return word in _LEADS or not word
    local = text[start:].split("@", 1)[0]
    return not (word.isalnum() and word not in _LEADS and (word.isdigit() or local.isdigit()))


@lru_cache(maxsize=512)
def find_emails(text: str) -> tuple[tuple[str, str], ...]:
    """The email addresses said in ``text``: (span, address), in order; none whose start is in doubt."""
    found: dict[tuple[int, int], str] = {}
    for match in _WRITTEN.finditer(text):
        value = email_value(match.group())
        if value is not None and _starts_address(text, match.start(), False):
            found[match.span()] = value
    # a spoken address's domain has a dot, said or written: without one, no scan (a reply of times says "at" often)
    if (" at " in text.casefold() or " @ " in text) and ("." in text or _DOT_SAID.search(text) is not None):
        for match in _SPOKEN.finditer(text):
            if any(a < match.end() and match.start() < b for a, b in found):
                continue
            value = email_value(match.group())
            if value is not None and _starts_address(text, match.start(), True):
                found[match.span()] = value
    return tuple((text[start:end], value) for (start, end), value in sorted(found.items()))


def contact_words(text: str, phones: bool, references: bool) -> tuple[tuple[str, tuple[int, int]], ...]:
    """The email addresses in ``text``, and its phone numbers and references if asked for: (value in its normal
    form, (start, end) of the words that say it), in order; none overlapping one found before it (phone numbers
    come first: "+44 7700 900123" is no reference 447700900123). A phone number's value has no region checked."""
    spans: list[tuple[tuple[int, int], str]] = []  # in order, none overlapping: their ends rise with their starts
    for found in (
        find_phones(text, None) if phones else (),
        find_emails(text),
        find_references(text) if references else (),
    ):
        cursor = 0
        for words, value in found:
            start = text.index(words, cursor)
            cursor = start + len(words)
            last = bisect.bisect_left(spans, ((cursor, -1), "")) - 1  # the last span starting before this one ends
            if last < 0 or spans[last][0][1] <= start:
                bisect.insort(spans, ((start, cursor), value))
    return tuple((value, span) for span, value in spans)
