"""Values of slots with a pattern (phones, emails, account numbers, PINs) in a reply, for the rules understander:
the words of a slot's form (digit groups joined, an email read out), given to the slot their cue words name, else
the asked one, else the one slot of that form.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from ...flow import Slot
from ...language.numbers import join_spaced_digits, words_to_digits
from ...slots import KINDS
from ..base import Parse

_DIGIT_GROUPS = re.compile(r"(?<![\w:.,])\+?\d{1,6}(?:[ \-]\d{1,6})+(?![\w:]|[.,]\d)")
"""Digits written in groups ("07700 900 456", "+44 7700 900456", "1234 5678"): one value when they are six or more."""
DIGIT_SPACES = re.compile(r"(?<=\d)[ \-](?=\d)")
_SPOKEN_EMAIL = re.compile(r"[\w.\-]+(?:\s+dot\s+[\w\-]+)*\s+at\s+[\w\-]+(?:\s+dot\s+[\w\-]+)+", re.I)
"""An email address read out ("carol dot dunn at gmail dot com")."""
_CANDIDATE = re.compile(r"[^\s,;!?()\"]+")


def _candidates(text: str) -> list[tuple[str, tuple[int, int]]]:
    """The words of ``text`` a patterned slot may take, with their spans: digit groups joined, then single words
    (end punctuation dropped)."""
    out = []
    for found in _DIGIT_GROUPS.finditer(text):
        joined = re.sub(r"[ \-]", "", found.group())
        if sum(c.isdigit() for c in joined) >= 6:
            out.append((joined, found.span()))
    spoken = _SPOKEN_EMAIL.search(text)
    if spoken is not None:  # "carol dot dunn at gmail dot com"
        address = re.sub(r"\s+dot\s+", ".", re.sub(r"\s+at\s+", "@", spoken.group(), count=1, flags=re.I), flags=re.I)
        out.append((address.replace(" ", ""), spoken.span()))
    for found in _CANDIDATE.finditer(text):
        word = found.group().rstrip(".:")
        if word and not any(a <= found.start() < b for _, (a, b) in out):
            out.append((word, (found.start(), found.start() + len(word))))
    return out


def fill_patterned(
    patterned: Sequence[tuple[Slot, re.Pattern[str] | None]],
    text: str,
    parse: Parse,
    asked: Slot | None,
    free_text: bool,
) -> str:
    """Values of the slots with a pattern (phone, email, account number ...): a word of the message of a slot's form,
    for the slot its cue words name ("my number is 07455 667788", "the email should be x@y.z"), else the asked slot,
    else the one slot of the flow of that form (over-informing: "you can reach me on 07123456789"; "sorry, wrong
    number, it's 12345679" while the 4-digit PIN is asked); ``free_text``: a free-text answer is asked, which keeps
    its numbers. Returns ``text`` without the values taken. Digits said one by one, in words or not ("nine one one
    two", "7 7 0 1"), are read as one word when that gives a value of a slot's form the text has not otherwise."""
    text = _spoken_digits(patterned, text)
    taken: list[tuple[int, int]] = []
    for word, span in _candidates(text):
        fits = [(slot, cue) for slot, cue in patterned if fits_form(slot, word) and slot.name not in parse.slots]
        if not fits:
            continue
        before = text[: span[0]]
        cued = [(_last_cue(cue, before), slot) for slot, cue in fits]
        cued = [item for item in cued if item[0] >= 0]
        if cued:
            slot = max(cued, key=lambda item: item[0])[1]  # the nearest cue names the slot
            parse.info.setdefault("cued", []).append(slot.name)
        elif asked is not None and any(slot is asked for slot, _ in fits):
            slot = asked
        elif len(fits) == 1 and not free_text:
            slot = fits[0][0]  # never over a free-text answer just asked ("a transfer to 12345678")
        else:
            continue
        parse.slots[slot.name] = word
        taken.append(span)
    for start, end in reversed(taken):
        text = text[:start] + " " + text[end:]
    return text


def _spoken_digits(patterned: Sequence[tuple[Slot, re.Pattern[str] | None]], text: str) -> str:
    """``text`` with its digits said one by one joined ("six six two zero" -> "6620"), when that makes a word of a
    patterned slot's form that ``text`` as written has not; else ``text`` as it is ("four cheese" stays)."""
    joined = join_spaced_digits(words_to_digits(text))
    if joined == text:
        return text
    written = {word for word, _ in _candidates(text)}
    new = [word for word, _ in _candidates(joined) if word not in written]
    return joined if any(fits_form(slot, word) for word in new for slot, _ in patterned) else text


def _last_cue(cue: re.Pattern[str] | None, before: str) -> int:
    """Where the last cue of a slot in ``before`` ends (-1: none)."""
    return max((found.end() for found in cue.finditer(before)), default=-1) if cue is not None else -1


def fits_form(slot: Slot, word: str) -> bool:
    """Is ``word`` of the slot's form: its pattern, or a value of its type (a phone number, an email, a reference)?"""
    return KINDS[slot.type].fits(slot, word)


_GENERIC_CUE_WORDS = frozenset({"number", "code", "the", "of", "your", "my", "for", "and", "address", "new", "id"})


@lru_cache(maxsize=256)
def slot_cue(name: str, label: str) -> re.Pattern[str] | None:
    """The words that name a slot in a sentence: its name's and label's own words ("pin", "email", "phone",
    "account"), or the generic "number" for a slot whose name ends in it."""
    words = {w for w in re.split(r"[_\W]+", f"{name} {label}".casefold()) if len(w) > 1}
    own = sorted(words - _GENERIC_CUE_WORDS) or sorted(words)
    if "number" in words or "phone" in words:
        own.append("number")
    if not own:
        return None
    return re.compile(r"(?<![\w'])(?:" + "|".join(map(re.escape, own)) + r")(?![\w'])", re.I)
