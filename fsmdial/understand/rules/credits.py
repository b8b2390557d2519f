"""People credited with a work, said after the words that credit them: "a movie directed by Harry Elfont", "starring
Bob Odenkirk", "country songs by Dustin Lynch", for a free-text slot that holds the director, an actor or the artist
(its name or description says so).

English credit words (:data:`_CREDITS`), the same for every flow; the name is the words after them, capitalised ("Harry
Elfont"), or, written in lower case, the two words after them ("directed by jenny gage in the rom-com genre" ->
"jenny gage"), never a function word.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ...flow import Slot, SlotType
from ...language.text import FUNCTION_WORDS

__all__ = ["credit_slots", "read_credits"]

_CREDITS = (
    (frozenset({"director", "directors", "directed"}), r"directed\s+by"),
    (frozenset({"actor", "actors", "actress", "starring", "cast", "star"}), r"starring|stars|featuring"),
    (frozenset({"artist", "artists", "singer", "band", "musician"}), r"(?:songs?|music|tracks?|album|something)\s+by"),
)
"""The words of a slot that hold who made a work, and the words that credit them in a message."""
_NAME = re.compile(r"[A-Z][\w'’.\-]*(?:\s+(?:(?:de|da|van|von|del|la|le)\s+)?[A-Z][\w'’.\-]*){0,3}")
_LOWER_NAME = re.compile(r"[a-z][\w'’\-]*\s+[a-z][\w'’\-]*")


def credit_slots(slots: Sequence[Slot]) -> tuple[tuple[Slot, re.Pattern[str]], ...]:
    """The free-text slots holding who made a work, each with the words that credit them."""
    out = []
    for slot in slots:
        if slot.type not in (SlotType.string, SlotType.text) or slot.pattern is not None:
            continue
        words = set(re.findall(r"[a-z]+", f"{slot.name} {slot.description}".casefold()))
        cues = [cue for own, cue in _CREDITS if own & words]
        if len(cues) == 1:
            out.append((slot, re.compile(r"(?<![\w'])(?:" + cues[0] + r")\s+", re.I)))
    return tuple(out)


def read_credits(credits: Sequence[tuple[Slot, re.Pattern[str]]], text: str) -> dict[str, str]:
    """Slot name -> the name said after its credit words."""
    out: dict[str, str] = {}
    for slot, cue in credits:
        for found in cue.finditer(text):
            name = _NAME.match(text, found.end()) or _LOWER_NAME.match(text, found.end())
            if name is None or any(word.casefold() in FUNCTION_WORDS for word in name.group().split()):
                continue
            out[slot.name] = name.group().rstrip(".")
            break
    return out
