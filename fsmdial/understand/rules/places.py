"""Places in a reply, for the rules understander: a free-text slot that holds a place (a city, a town, an area, where
a journey starts or ends) takes the place named after a word that puts something there ("a hotel in London, UK",
"a bus from Fresno to Sacramento", "pick it up in Long Beach, CA"), and only those words.

Which slots hold a place, and which side of a journey each is (:func:`place_slots`), comes from the slot's name and
description, never from a flow's or a service's name. A place said unasked is read only when it is written as a
name (capitalised: "in Toronto, Canada", "from LAX"); the place just asked may also be written in lower case ("look
in anaheim"). A month, a weekday, "I", a time's "pm" end a place ("from Monday" names no place).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from functools import lru_cache

from ...flow import Slot, SlotType
from ...language import MONTHS, WEEKDAYS
from ...language.text import FUNCTION_WORDS

__all__ = ["ORIGIN", "DESTINATION", "WHERE", "is_place", "place_role", "place_slots", "read_places"]

ORIGIN, DESTINATION, WHERE = "origin", "destination", "where"
"""The roles of a place slot: where a journey starts, where it ends, where something is (or happens)."""

_PLACE_WORDS = frozenset("city cities town location area destination origin where region country neighborhood".split())
_TOWNS = frozenset({"city", "town"})
_OWN_WORDS = re.compile(r"\bin (?:the|their|his|her) (?:own )?(?:\w+'s? )?(?:own )?words\b", re.I)
"""A slot that keeps what was said as said ("in the client's words"): a description, whatever place word it has."""
_NOT_PLACE = frozenset("address street station airport terminus number phone venue email".split())
"""A street address, a station or an airport is a value of another form (an address slot reads addresses)."""
_ORIGIN_WORDS = frozenset(
    "from origin originates origination starting leaving leave departure departing pickup".split()
)
_DESTINATION_WORDS = frozenset("to destination ending ends going arrival arriving dropoff towards".split())

_CUES = {
    ORIGIN: re.compile(
        r"(?<![\w'])(?:(?:from|out of|(?:leav|depart)(?:ing|s)?(?:\s+from)?)"
        r"|pick(?:ing|ed)?\s+(?:it\s+|them\s+|the\s+car\s+)?up\s+(?:in|at|from))\s+",
        re.I,
    ),
    DESTINATION: re.compile(r"(?<![\w'])(?:to|into|towards|heading for)\s+", re.I),
    WHERE: re.compile(r"(?<![\w'])(?:in|at|around|near|within)\s+(?:the\s+city\s+of\s+)?", re.I),
}
_NAME_WORD = r"[A-Z][\w'’.&\-]*"
_NAMED = re.compile(
    rf"(?:\d+[A-Za-z]?\s+)?{_NAME_WORD}(?:\s+(?:(?:of|de|del|la|le|upon)\s+)?{_NAME_WORD}){{0,4}}"
    rf"(?:,\s*{_NAME_WORD}(?:\s+{_NAME_WORD})?)?"
)
"""A place written as a name: capitalised words ("New York City", "Washington D.C."), a state or a country after a
comma ("Portland, OR", "Toronto, Canada"); after "to", a house number before them ("to 1830 Fourth Street")."""
_LOWER = re.compile(r"[a-z][\w'’\-]*(?:\s+[a-z][\w'’\-]*){0,2}(?:,\s*[A-Za-z][\w'’.\-]*(?:\s+[A-Z][\w'’.\-]*)?)?")
_ENDS = frozenset(
    {"i", "i'm", "i'd", "i'll", "i've", "am", "pm", "a.m.", "p.m.", "please", "thanks", "the", "a", "an"}
    | {m.casefold() for m in MONTHS}
    | {m[:3].casefold() for m in MONTHS}
    | {w.casefold() for w in WEEKDAYS}
    | {"today", "tomorrow", "tonight", "next", "this", "day", "week", "weekend", "morning", "evening", "afternoon"}
)
"""Words that end a place (or start no place): "from Monday", "in March", "at 8 PM", "in Paris, I'd like"."""
_CLAUSE_END = re.compile(r"\s*(?:$|[.,;!?]|\s(?:please|thanks|thank|on|at|for|by|and|with|from|to|around)\b)", re.I)


def place_role(slot: Slot) -> str | None:
    """Where the slot's place stands (:data:`ORIGIN`, :data:`DESTINATION`, :data:`WHERE`), or None when the slot
    holds no place (or both ends of a journey)."""
    if slot.type not in (SlotType.string, SlotType.text) or slot.pattern is not None:
        return None
    return _role(slot.name, slot.description, slot.label or "")


@lru_cache(maxsize=1024)
def _role(name: str, description: str, label: str) -> str | None:
    # "from" and "to" count only in the name: "City to pick up the rental car" is no destination
    own = {w for w in re.split(r"[_\W]+", name.casefold()) if w}
    words = own | ({w for w in re.split(r"[_\W]+", f"{description} {label}".casefold()) if w} - {"from", "to"})
    if not words & _PLACE_WORDS or words & _NOT_PLACE or "name" in own:
        return None
    if words & _PLACE_WORDS == {"where"} and not re.match(r"\W*where\b", description, re.I) and "where" not in own:
        return None  # "The design and where on the body it goes": where is one part of what it holds, no place
    if _OWN_WORDS.search(description):
        return None  # "Which areas the therapist should work on, ..., in the client's words": a description, no place
    if re.match(r"\W*name\b", description, re.I) and not own & {"city", "town"}:
        return None  # "Name of event location" is a venue's name; "Name of the city" is a city
    origin, destination = bool(words & _ORIGIN_WORDS), bool(words & _DESTINATION_WORDS)
    if origin and destination:
        return None
    return ORIGIN if origin else DESTINATION if destination else WHERE


def is_place(slot: Slot | None) -> bool:
    return slot is not None and place_role(slot) is not None


def place_slots(slots: Sequence[Slot]) -> tuple[tuple[Slot, str], ...]:
    """The flow's place slots with their roles."""
    return tuple((slot, role) for slot in slots if (role := place_role(slot)) is not None)


def _place_at(text: str, start: int, lenient: bool) -> str | None:
    """The place written at ``start`` (right after its cue), or None."""
    found = _NAMED.match(text, start)
    if found is None and lenient:
        found = _LOWER.match(text, start)
        if found is not None and (
            any(w.casefold() in FUNCTION_WORDS or w.casefold() in _ENDS for w in found.group().split())
            or not _CLAUSE_END.match(text, found.end())
        ):
            return None  # "look in anaheim" is a place; "in the evening", "to be honest" are none
    if found is None:
        return None
    words = found.group().split()
    kept: list[str] = []
    for word in words:
        if word.strip(",").casefold() in _ENDS:
            break
        kept.append(word)
    place = " ".join(kept).rstrip(",")
    if place.endswith(".") and place.count(".") == 1:
        place = place[:-1]  # the full stop, not "D.C."'s
    return place if place and any(c.isalpha() for c in place) else None


def read_places(
    places: Sequence[tuple[Slot, str]], text: str, asked: Slot | None, taken: Collection[str] = ()
) -> dict[str, str]:
    """Slot name -> the place the reply names for it after its cue word.

    A cue gives its place to the one slot of its role (a "where" cue, to the destination when the flow has no slot
    of its own for it: "a hotel room in Nairobi"); with several slots of the role, only the asked one takes it.
    Values already ``taken`` (said whole as another slot's value) are no places.
    """
    by_role: dict[str, list[Slot]] = {}
    for slot, role in places:
        by_role.setdefault(role, []).append(slot)
    out: dict[str, str] = {}
    for role, cue in _CUES.items():
        targets = by_role.get(role) or (by_role.get(DESTINATION, []) if role == WHERE else [])
        if not targets and role == WHERE and set(by_role) == {ORIGIN}:
            targets = by_role[ORIGIN]  # "a rental car in Phoenix": where the flow's only places start
        if not targets:
            continue
        towns = [slot for slot in targets if _TOWNS & set(re.split(r"[_\W]+", slot.name.casefold()))]
        target = (
            asked
            if asked in targets
            else targets[0]
            if len(targets) == 1
            else towns[0]  # a pick-up city beside a pick-up location: a place written as a name is the town
            if len(towns) == 1
            else None
        )
        if target is None or target.name in out:
            continue
        for found in cue.finditer(text):
            place = _place_at(text, found.end(), lenient=target is asked)
            if place is None or place.casefold() in taken:
                continue
            if role != DESTINATION and place[0].isdigit():
                continue  # "at 8 Oak Road", "in 2 hours": a number after a "where" cue is no town
            out[target.name] = place
            break
    return out
