"""Answers said in words instead of their value, read for the slot they answer.

* a head count said by who comes ("just me", "only her", "the two of us") for an integer slot counting people;
* an asked yes/no question answered by a statement about its subject ("there's parking on the drive", "there's no
  parking, it's a city centre flat"): the polarity of the clause naming the subject;
* no preference for a categorical slot that has an "any" value ("whoever's free", "any", "don't mind").

Each reads only when the slot is asked (or named by its own words): the same words answer nothing else.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from ...flow import Slot, SlotType
from ...language import PEOPLE_WORDS, normalize
from ...language.clauses import clauses, negation_scope

__all__ = ["counts_people", "head_count", "no_preference", "stated_answer"]

_JUST = r"(?:just|jsut|juts|only|onli)"
_ONE_OF_KIN = (
    r"(?:son|daughter|mum|mom|mother|dad|father|wife|husband|partner|friend|sister|brother|boy|girl|child|kid|nan|"
    r"gran|grandma|grandmother|grandad|grandfather|niece|nephew|aunt|uncle)"
)
_SOLO = re.compile(
    rf"(?<![\w'])(?:{_JUST}\s+(?:for\s+)?(?:me|myself|him|her|himself|herself|the\s+one(?:\s+person)?|"
    rf"(?:my|our|his|her)\s+{_ONE_OF_KIN})(?![\w'])(?!\s+and\b)|"
    r"(?:me|myself)\s+(?:only|alone|on\s+my\s+own)\b|(?:on\s+my\s+own|by\s+myself|alone)(?![\w'])|"
    r"^\W*(?:it'?s\s+|for\s+)?(?:me|myself)\W*$)",
    re.I,
)
"""One person said by who: "just me", "only for me", "just him", "just my son", "myself", "on my own"."""
_PAIR = re.compile(r"(?<![\w'])(?:the\s+)?both\s+of\s+us(?![\w'])|(?<![\w'])us\s+both(?![\w'])", re.I)
"""Two people said by who ("both of us"); "the two of us" is read as a number, "me and my wife" by the rules."""


def counts_people(slot: Slot) -> bool:
    """Is ``slot`` an integer counting people (its name, label or description says people, guests, persons)?"""
    if slot.type is not SlotType.integer:
        return False
    said = f"{slot.name.replace('_', ' ')} {slot.label or ''} {slot.description or ''}".casefold()
    return not PEOPLE_WORDS.isdisjoint(re.findall(r"[a-z]+", said))


def head_count(slot: Slot, text: str, *, asked: bool) -> int | None:
    """The number of people ``text`` says by who comes ("just me" 1, "both of us" 2), for a slot counting people
    that is asked, or named in the message by its people words; else None."""
    if not counts_people(slot):
        return None
    if not asked and PEOPLE_WORDS.isdisjoint(re.findall(r"[a-z]+", text.casefold())):
        return None
    if _PAIR.search(text):
        return 2
    if _SOLO.search(text):
        return 1
    return None


_STOP = frozenset({"the", "and", "for", "with", "whether", "number", "name", "value", "what", "which"})
_AFFIRMS = re.compile(
    r"(?<![\w'])(?:yes|yeah|yep|there'?s|there\s+is|there\s+are|we'?ve\s+got|we\s+have|i\s+have|i'?ve\s+got|"
    r"(?:has|have)\s+got|has|have|had|can|plenty|space|room|loads|fine|ok|okay|free|available|usually|always)"
    r"(?![\w'])",
    re.I,
)
"""Words that make a statement about a thing say it is there or can be done ("there's parking", "you can park")."""
_DENIES = re.compile(r"(?<![\w'])(?:no|nowhere|none|nothing)(?![\w'])", re.I)
"""Words that say a thing is not there ("no parking", "nowhere to park")."""


def _subject_stems(slot: Slot) -> tuple[str, ...]:
    """The stems of the words naming ``slot``'s subject (its name and label): "park" for "parking"."""
    words = re.findall(r"[a-z]+", f"{slot.name.replace('_', ' ')} {slot.label or ''}".casefold())
    stems = {re.sub(r"(?:ing|ed|s)$", "", word) for word in words if len(word) > 2 and word not in _STOP}
    return tuple(stem for stem in stems if len(stem) >= 3)


def stated_answer(slot: Slot, text: str) -> bool | None:
    """The yes or no a statement gives the boolean ``slot`` ("there's parking on the drive": True; "there's no
    parking, it's a flat": False): read from the first clause naming the slot's subject, None when no clause names it
    or the clause says neither (a statement that it is there, can be done, or is not)."""
    stems = _subject_stems(slot)
    if not stems:
        return None
    for clause in clauses(text):
        words = re.findall(r"[a-z']+", clause.casefold())
        at = next((i for i, word in enumerate(words) if word.startswith(stems)), None)
        if at is None:
            continue
        before = " ".join(words[:at])
        if negation_scope(clause) is not None or _DENIES.search(before):
            return False
        if _AFFIRMS.search(clause):
            return True
        return None
    return None


_ANY_VALUE = re.compile(r"^(?:any\b.*|dontcare|don't care|no preference|whatever)$", re.I)
_ANYONE = re.compile(
    r"^\W*(?:(?:oh|um|erm|er|uh|well|honestly|really|ok|okay)\W+)*(?:any|anyone|anybody|either|whichever|whoever)"
    r"(?:\s+(?:is|are|'s|of\s+them|one|really))*\W*(?:(?:is\s+)?fine|please|thanks|thank\s+you)?\W*$|"
    r"(?<![\w'])(?:whoever|whichever)(?:'s|\s+is|\s+are)?\s+(?:free|available|around|in|on)(?![\w'])|"
    r"(?<![\w'])first\s+(?:available|free)(?![\w'])|(?<![\w'])(?:anyone|anybody)\s+(?:is\s+)?(?:fine|ok|okay|good)(?!\w)",
    re.I,
)
"""No preference said by leaving the pick to whoever it falls to ("whoever's free", "any", "anyone", "first
available"); never "anyone else" (asks for another)."""


def no_preference(
    categorical: Iterable[tuple[Slot, tuple[str, ...]]], asked: Slot | None, text: str, *, said: bool, asks: bool
) -> list[tuple[Slot, str]]:
    """The categorical slots a no-preference is about, with their "any" value: the asked one, else those whose
    own words the message names ("I don't care about the price" -> "any price range"). ``said``: the message's acts
    say no preference ("it doesn't matter"); else only a pick left to anyone ("whoever's free") counts, never in a
    question (``asks``: "is anyone free on Saturday?")."""
    if not said and (asks or not _ANYONE.search(text)):
        return []
    anys = [(slot, value) for slot, values in categorical for value in values if _ANY_VALUE.match(value)]
    words = set(normalize(text).split())
    named = [(slot, value) for slot, value in anys if words & (set(normalize(value).split()) - {"any"})]
    if named or asked is None:
        return named
    return [(slot, value) for slot, value in anys if slot is asked][:1]
