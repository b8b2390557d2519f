"""Head counts said in words, for the rules understander: who comes ("just me", "only her", "the two of us", "a lane
just for myself") for an integer slot counting people, a party listed ("me, my wife and the two kids": 4; "me and the
kids": no count, asked again), oneself with others ("I'd like to come with two mates": 3), a booking "for two", a band
by its size ("a four piece"), and things of the kind an asked count counts listed ("two bedrooms and the living room":
3 rooms), or a pair ("both flues").

Each reads only when the slot is asked (or named by its own words): the same words answer nothing else.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from ...flow import Slot, SlotType
from ...language import PARTY_PLURALS, PEOPLE_WORDS, WORD_NUMBERS, find_numbers
from ...language.clauses import clauses
from ...language.text import FUNCTION_WORDS
from .forms import naming_words, says_people

__all__ = ["ANY_THING", "counts_people", "head_count", "listed_party", "listed_things", "pair_count"]
__all__ += ["with_listed_count", "with_listed_counts"]


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
_FOR_ONESELF = re.compile(
    r"(?<![\w'])(?:(?:just|only)\s+for\s+me(?:self)?|for\s+myself|on\s+my\s+own|by\s+myself|"
    rf"book\s+(?:me|myself|(?:my|our)\s+{_ONE_OF_KIN})\s+in)(?![\w'])(?!\s+and\b)",
    re.I,
)
"""A booking said to be for one person alone ("a lane just for myself", "2 hours of coaching, just for me", "an
induction for myself", "can I book my son in for the kids one"): a party of one, though the count is not asked ("just
me" says it only when asked)."""
_PAIR = re.compile(r"(?<![\w'])(?:the\s+)?both\s+of\s+us(?![\w'])|(?<![\w'])us\s+both(?![\w'])", re.I)
"""Two people said by who ("both of us"); "the two of us" is read as a number, "me and my wife" by the rules."""


_COMPANION = (
    rf"{_ONE_OF_KIN[:-1]}|girlfriend|boyfriend|fianc[ée]e?|colleague|boss|mate|flatmate|housemate|neighbour|date|"
    r"baby|toddler|teenager|teen|grandson|granddaughter|grandchild|stepson|stepdaughter|carer|guest|adult|person|"
    r"other\s+half|better\s+half|missus|missis|spouse|significant\s+other|grown[- ]?up)"
)
_PEOPLE_PLURAL = r"(?:" + "|".join(sorted(PARTY_PLURALS, key=len, reverse=True)) + r"|in-laws|grown[- ]?ups)"
_COUNT = (
    r"(?:\d{1,2}|" + "|".join(sorted((w for w in WORD_NUMBERS if WORD_NUMBERS[w] <= 20), key=len, reverse=True)) + r")"
)
_PARTY_ITEM = re.compile(
    rf"(?:(?:(?:my|our|the|their|his|her)\s+)?(?P<count>{_COUNT})\s+(?:of\s+(?:(?:my|our|the|his|her|their)\s+)?)?"
    rf"(?:(?:little|young|grown-up|older|small)\s+)?(?:{_PEOPLE_PLURAL}|{_COMPANION})|"
    rf"(?P<some>(?:my|our|the|their|his|her|some|a\s+few|a\s+couple\s+of)\s+{_PEOPLE_PLURAL})|"
    rf"(?P<self>me|myself|i)|(?:him|her)|(?:my|our|a|the|his|her|their)\s+{_COMPANION}|"
    rf"(?:the\s+)?(?P<us>{_COUNT})\s+of\s+us)(?![\w'])",
    re.I,
)
"""One who comes, as a listed party names them: the speaker, a companion (1), a number of them (that many), "the two
of us" (that many, when "and" joins the next: "the two of us and a guest" is three; "just the two of us, me and my
brother" is two), or some of them (no count)."""
_MINE_COUNTED = re.compile(rf"(?:my|our)\s+(?P<count>{_COUNT})\s+[a-z][a-z'-]*s(?![\w'])", re.I)
"""Beside the speaker in a listed party, a number of one's own ("me and my two bridesmaids"): that many people, whoever
they are."""
_SIDE_BY_SIDE = re.compile(
    rf"(?<![\w'])(?P<first>{_COUNT}\s+{_PEOPLE_PLURAL})\s*[,/+]?\s+(?={_COUNT}\s+{_PEOPLE_PLURAL}(?![\w']))", re.I
)
"""Two counted groups of people said side by side, with no "and" ("2 adults 2 kids", "3 adults, 4 children")."""
_PARTY_AND = re.compile(r"and|plus|with|&", re.I)
_PARTY_JOIN = re.compile(r"\s*,\s*(?:and\s+|plus\s+)?|\s+(?:and|plus|with)\s+|\s*&\s*", re.I)


def listed_party(text: str) -> tuple[tuple[int, int], int | None] | None:
    """The party ``text`` lists, two or more who come joined by commas or "and" ("me, my wife and the two kids"), as
    (its span, its head count); the count is None when one of them is uncounted ("me and the kids": the flow asks).
    None when no party is listed. The first may end a longer clause and the last run on ("there'll be me and my wife
    on sunday"); the ones between are whole."""
    return _listed(text, _PARTY_ITEM)


_NOT_A_COUNT = rf"(?!(?:{_COUNT})[\s-])"
"""Not a number: "a 3 bedroom" is one house of three bedrooms, no one bedroom."""


@lru_cache(maxsize=64)
def _thing_item(nouns: frozenset[str]) -> re.Pattern[str]:
    noun = r"[\w-]*(?:" + "|".join(sorted(map(re.escape, nouns), key=len, reverse=True)) + r")"
    return re.compile(
        rf"(?:(?:(?:my|our|the|their|his|her)\s+)?(?P<count>{_COUNT})\s+(?:[\w-]+\s+)?{noun}s?|"
        rf"(?P<some>(?:the|my|our|their|some|both|a\s+few|a\s+couple\s+of)\s+(?:[\w-]+\s+)?{noun}s)|"
        rf"(?:a|an|the|my|our|one|his|her|their)\s+{_NOT_A_COUNT}(?:[\w-]+\s+)?{noun}|"
        # beside one of the kind, another thing of the list is one more ("three bedrooms, the lounge and the stairs")
        rf"(?P<other>(?:a|an|the|my|our|his|her|their)\s+(?:[a-z-]+(?:'s)?\s+)?(?P<head>[a-z][a-z-]*)))(?![\w'])",
        re.I,
    )


ANY_THING = frozenset("item items thing things piece pieces article articles".split())
"""Nouns that count things of any kind ("How many items?"): every thing of a list may be one ("a spade, a hoe and a
pair of secateurs": 3 items)."""
_BARE_LAST = re.compile(r"(?P<other>(?P<head>[a-z][a-z-]*))(?![\w'])", re.I)
"""The last thing of a list of any things, said without its article ("my axe and billhook")."""


_ONE_THING_PLURALS = frozenset("stairs steps premises grounds outskirts".split())
"""Plural nouns naming one thing ("the stairs" is one staircase): counted as one in a list of things."""


def listed_things(
    text: str, nouns: frozenset[str], *, any_thing: bool = False
) -> tuple[tuple[int, int], int | None] | None:
    """Things of one kind ``text`` lists to count them ("two bedrooms and the living room": 3 rooms), as
    :func:`listed_party` lists people: each a number of them, one of them, or some of them (no count). ``nouns``
    name the kind ("room"; a word ending in one counts: "bedroom"). With ``any_thing`` (a count of "items" in a flow
    with no slot listing them), every thing listed is one ("a spade, a hoe and a pair of secateurs": 3)."""
    if not nouns:
        return None
    listed = _listed(text, _thing_item(nouns), any_thing=any_thing)
    if listed is None and (one := _one_thing(nouns).match(text)) is not None:
        return one.span("thing"), 1  # "just the living room": one room
    return listed


@lru_cache(maxsize=64)
def _one_thing(nouns: frozenset[str]) -> re.Pattern[str]:
    """The whole answer one thing of the kind ("just the living room", "it's only the one bedroom"; not "the
    bedrooms")."""
    single = [noun for noun in nouns if not (noun.endswith("s") and noun[:-1] in nouns)]
    noun = r"[\w-]*(?:" + "|".join(sorted(map(re.escape, single), key=len, reverse=True)) + r")"
    return re.compile(
        rf"^\W*(?:(?:it'?s|that'?s|it\s+is)\s+)?(?:just|only)?\s*(?P<thing>(?:the|my|our|a|an|one|the\s+one)\s+"
        rf"{_NOT_A_COUNT}(?:[\w-]+\s+)?{noun})\W*(?:please|thanks)?\W*$",
        re.I,
    )


def with_listed_count(
    text: str,
    nouns: frozenset[str] | None = None,
    *,
    noted: dict[str, Any] | None = None,
    named: str = "",
    any_thing: bool = False,
) -> str:
    """``text`` with the party it lists (``nouns`` None) or the things of ``nouns`` it lists in place of the list: its
    count ("4 people", "3"), or nothing when one of them is uncounted ("me and the kids": no count, asked again). The
    list's words go to ``noted["counted"]`` (a parse's info: the reading accounts for "wife" of "me, my wife and the
    two kids"). With ``named`` (the slot is not asked), only a list whose every thing names the kind counts, said as
    the count and ``named`` ("in my bedroom and the spare room": "2 rooms"). A booking "for two" says 2 people."""
    if nouns is None and (booked := _FOR_COUNT.search(text)) is not None:
        # "the wheel taster for two, Boxing Day if you're open": a booking for that many people
        return f"{text[: booked.start('n')]}{booked.group('n')} people{text[booked.end('n') :]}"
    if nouns is None and (multiple := _FOR_MULTIPLE.search(text)) is not None:
        # "a kids session please for my twins": the booking is for the two of them
        said = f"{_MULTIPLES[multiple.group('kind').casefold()]} people"
        return f"{text[: multiple.start('kind')]}{said}{text[multiple.end('kind') :]}"
    theirs = _FOR_THEIRS.search(text) if nouns is None and not _WE.search(text) else None
    if theirs is not None and listed_party(text) is None:
        # "a kids session for my two boys", "book my 3 girls in": the booking is for them, the speaker not counted
        return f"{text[: theirs.start('n')]}{theirs.group('n')} people{text[theirs.end() :]}"
    if nouns is None and (group := _GROUP.search(text)) is not None:
        # "friday 7 till 10, we're a four piece": a band of that many people, beside the other numbers
        size = _group_size(group)
        return f"{text[: group.start()]}{size} people{text[group.end() :]}" if size else text
    if nouns is None and (joined := _I_WITH.search(text)) is not None and not _WE.search(text[: joined.start()]):
        # "I want to come climbing on friday with two mates": me and the two of them
        others = int(said) if (said := joined.group("n").casefold()).isdigit() else WORD_NUMBERS[said]
        if noted is not None:
            noted.setdefault("counted", []).append(joined.group())
        return f"{text[: joined.start('with')]} {others + 1} people{text[joined.end() :]}"
    if (
        nouns is None
        and not PARTY_PLURALS.isdisjoint(re.findall(r"[a-z]+", text.casefold()))
        and _SIDE_BY_SIDE.search(text)
    ):
        text = _SIDE_BY_SIDE.sub(r"\g<first> and ", text)  # "2 adults 2 kids": "2 adults and 2 kids"
    found = listed_party(text) if nouns is None else listed_things(text, nouns, any_thing=any_thing)
    if found is None or (
        named and (found[1] is None or (not any_thing and _names_another(text[found[0][0] : found[0][1]], nouns)))
    ):
        return text
    (start, end), count = found
    if nouns is None and _THEM_FIRST.match(text, start) and _WE.search(text[:start]):
        count = None  # "we thought we'd take him and a couple of his friends": they, and we besides (asked)
    if noted is not None:
        noted.setdefault("counted", []).append(text[start:end])
    said = "" if count is None else f"{count} people" if nouns is None else f"{count} {named}".strip()
    if nouns is not None and count in find_numbers(f"{text[:start]} {text[end:]}"):
        said = ""  # "the kitchen and the utility room, so two": the count is said besides
    if _INCLUDING.search(text[:start]) and find_numbers(f"{text[:start]} {text[end:]}"):
        said = ""  # "five altogether, including me and my husband": who is in the count said, not a count
    return f"{text[:start]} {said} {text[end:]}"


def with_listed_counts(
    text: str,
    number_words: Sequence[tuple[Slot, frozenset[str]]],
    asked: Slot | None,
    lists_things: bool,
    noted: dict[str, Any],
) -> str:
    """``text`` with the lists it says counted for the flow's count slots (``number_words``: each with the words
    naming it; ``asked``: the count slot asked, if any): a party ("me, my wife and the two kids": 4 people) where a
    slot counts people, else the things of the asked count's kind ("two bedrooms and the living room": 3), else, not
    asked, the things a list names by a count slot's name ("in my bedroom and the spare room": 2 rooms). A count of
    "items" (:data:`ANY_THING`) counts every thing listed, unless a slot lists them (``lists_things``:
    :mod:`.named_things` reads that list)."""
    if number_words and any("people" in vocab for _, vocab in number_words):
        return with_listed_count(text, noted=noted)
    if asked is not None and asked.type is SlotType.integer:
        nouns = naming_words(asked, described=False)
        return with_listed_count(
            text, nouns, noted=noted, any_thing=not lists_things and not nouns.isdisjoint(ANY_THING)
        )
    for slot, _ in (pair for pair in number_words if pair[0].type is SlotType.integer):
        nouns = naming_words(slot, described=False)
        any_thing = not lists_things and not nouns.isdisjoint(ANY_THING)
        text = with_listed_count(text, nouns, noted=noted, named=slot.name, any_thing=any_thing)
    return text


_I_WITH = re.compile(
    rf"(?<![\w'])(?:i|i'm|i'd|i'll|me)(?![\w'])[^.?!]*?(?P<with>(?<![\w'])with)\s+(?:my\s+)?(?P<n>{_COUNT})\s+"
    rf"{_PEOPLE_PLURAL}(?![\w'])",
    re.I,
)
"""Oneself said with a number of others ("I'd like to come with two mates"): they and oneself."""
_THEM_FIRST = re.compile(r"(?:him|her)\b", re.I)
"""A party listed from someone else ("for her and 5 friends"): the whole party, unless "we" come too."""
_WE = re.compile(r"(?<![\w'])(?:we|we're|we'd|we'll|us|our)(?![\w'])", re.I)
_INCLUDING = re.compile(r"(?<![\w'])(?:including|incl\.?|counting|that'?s|that\s+is)\s*$", re.I)
"""Words before a listed party that say it is inside a count said besides ("five, including me and my husband")."""


def _names_another(listed: str, nouns: frozenset[str] | None) -> bool:
    """Does a thing of the list ``listed`` not name the kind of ``nouns`` ("the lounge" among rooms)?"""
    item = _thing_item(nouns or frozenset())
    return any(m.group("other") for piece in _PARTY_JOIN.split(listed) if (m := item.fullmatch(piece.strip())))


def _listed(text: str, item: re.Pattern[str], *, any_thing: bool = False) -> tuple[tuple[int, int], int | None] | None:
    joins = list(_PARTY_JOIN.finditer(text))
    bounds = [0, *(j.end() for j in joins)]
    ends = [*(j.start() for j in joins), len(text)]
    for first in range(len(bounds)):
        run: list[tuple[int, re.Match[str]]] = []
        for k in range(first, len(bounds)):
            piece = text[bounds[k] : ends[k]]
            body = len(piece.rstrip(" .!?"))
            if k == first:  # the first may end a longer clause ("there'll be me")
                found = next((m for m in item.finditer(piece) if m.end() == body and _word_edges(piece, m)), None)
            else:
                found = item.match(piece)
                if found is None and item is _PARTY_ITEM and any(m.groupdict().get("self") for _, m in run):
                    found = _MINE_COUNTED.match(piece)  # "me and my two bridesmaids": those with me are people
                if found is None and any_thing and _PARTY_AND.search(joins[k - 1].group()):
                    bare = _BARE_LAST.match(piece)
                    found = bare if bare is not None and bare.group().casefold() not in FUNCTION_WORDS else None
                found = found if found is not None and _word_edges(piece, found) else None
            if found is None:
                break
            if k > first and run[-1][1].groupdict().get("us") and not _PARTY_AND.search(joins[k - 1].group()):
                break  # "just the two of us, me and my brother": the others name the two, no more come
            if found.groupdict().get("self") and (
                any(m.groupdict().get("self") for _, m in run)  # the speaker once: "me and me mum" is dialect
                # "8 people and I will need ...": a clause; "for my wife and I as a treat": the two of them
                or (found.end() != body and found.group().casefold() == "i" and any(m.group("count") for _, m in run))
            ):
                break
            run.append((k, found))
            if found.end() != body:
                break  # the last of the list runs on
        # A list joins its last with "and" ("me, my wife and the kids"); commas alone join clauses ("make that 6
        # people, my brother is coming too": 6)
        while run and run[-1][1].groupdict().get("other") and not any_thing:
            if any(not m.groupdict().get("other") for _, m in run):
                break
            run.pop()  # no thing of the kind in it: "the lounge and the stairs" lists no rooms by their name
        if len(run) >= 2 and _PARTY_AND.search(joins[run[-1][0] - 1].group()):
            (k0, m0), (k1, m1) = run[0], run[-1]
            counts = [_head(m) for _, m in run]
            total = None if None in counts else sum(c for c in counts if c is not None)
            return (bounds[k0] + m0.start(), bounds[k1] + m1.end()), total
    return None


def _word_edges(piece: str, found: re.Match[str]) -> bool:
    after = piece[found.end() : found.end() + 1]
    before = piece[found.start() - 1 : found.start()] if found.start() else ""
    return not (after.isalnum() or before.isalnum())


_MULTIPLES = {"twins": 2, "triplets": 3, "quads": 4, "quadruplets": 4}
_FOR_MULTIPLE = re.compile(
    r"(?<![\w'])for\s+(?:my|our|the)\s+(?P<kind>twins|triplets|quads|quadruplets)(?![\w'])", re.I
)
"""People words that say how many they are ("me, my wife and our twins": 4)."""
_FOR_THEIRS = re.compile(
    rf"(?<![\w'])(?:for|book|booking|enrol|enroll|sign\s+up)\s+my\s+(?P<n>{_COUNT})\s+"
    rf"(?:(?:little|young|eldest|oldest|youngest)\s+)?(?:{_PEOPLE_PLURAL})(?![\w'])",
    re.I,
)
"""A booking made for the speaker's own ("for my two boys", "book my 3 girls into the class"): that many people."""


def _head(item: re.Match[str]) -> int | None:
    if item.groupdict().get("some"):
        return _MULTIPLES.get(item.group("some").casefold().split()[-1])
    if item.groupdict().get("other"):
        head = item.group("head").casefold()
        return 1 if not head.endswith("s") or head in _ONE_THING_PLURALS else None  # "the cushions": how many?
    if item.groupdict().get("count") or item.groupdict().get("us"):
        said = (item.groupdict().get("count") or item.group("us")).casefold()
        return int(said) if said.isdigit() else WORD_NUMBERS[said]
    return 1


def counts_people(slot: Slot) -> bool:
    """Is ``slot`` an integer counting people (its own words say people, guests, persons, or its examples are said
    by people: :func:`~.forms.says_people`)?"""
    return slot.type is SlotType.integer and says_people(slot)


_FOR_COUNT = re.compile(
    rf"(?<![\w'])for\s+(?P<n>{_COUNT})(?=\s*(?:[,.!?]|$)|\s+(?:please|people|of\s+us|adults|on|this|next|tomorrow|today|tonight|at(?!\s+(?:the\s+)?(?:latest|earliest|least|most)\b))\b)",
    re.I,
)
"""A booking said for a number of people ("a wheel taster for two, Boxing Day", "for one please", "a table for 2 at
11"): never "for 2 hours"."""
_ENSEMBLES = {"duo": 2, "trio": 3, "quartet": 4, "quintet": 5, "sextet": 6, "septet": 7, "octet": 8}
_GROUP = re.compile(
    rf"(?<![\w'])(?:(?P<ensemble>{'|'.join(_ENSEMBLES)})|(?:a|we'?re\s+a|we\s+are\s+a)\s+(?P<count>{_COUNT})\s*-?\s*piece)"
    r"(?![\w'])",
    re.I,
)
"""A group said by its size: "a trio", "we're a four piece" (a band of four)."""


def _group_size(group: re.Match[str]) -> int | None:
    """How many a group said by its size is ("a trio": 3, "a four piece": 4)."""
    said = (group.group("ensemble") or group.group("count")).casefold()
    return _ENSEMBLES.get(said) or (int(said) if said.isdigit() else WORD_NUMBERS.get(said))


_BOTH = re.compile(
    r"(?<![\w'])(?:both\s+(?:of\s+)?(?:(?:my|the|our|your|these|those)\s+)?(?:(?P<first>[a-z]+)\s+(?=[a-z]+(?![\w'])(?!\s+and\b)))?"
    r"(?P<noun>[a-z]+)(?!\s+and\b)"
    r"|(?:the\s+)?pair\s+of\s+(?P<pair>them|[a-z]+)|them\s+both)(?![\w'])",
    re.I,
)
"""Two things said as a pair ("both flues", "both of my chimneys", "both back ones", "the pair of them"); "both wood
and coal" is none."""


def pair_count(slot: Slot, text: str, *, asked: bool) -> int | None:
    """2 when ``text`` says two of what integer ``slot`` counts as a pair: by one of its naming words ("both flues",
    "a pair of doors"), or by "them" where the slot is asked ("the pair of them", "both of them"); else None."""
    if slot.type is not SlotType.integer:
        return None
    nouns = naming_words(slot)
    if asked and re.fullmatch(r"\W*(?:just\s+|err?m?\s+)?both(?:\s+(?:please|thanks))?\W*", text, re.I):
        return 2  # "both" to "how many tyres?"
    for found in _BOTH.finditer(text):
        noun = (found.group("noun") or found.group("pair") or "them").casefold()
        first = (found.group("first") or "").casefold()  # "both my chimneys sweeping": the noun said first
        if noun in nouns or first in nouns or (asked and noun in ("them", "ones")):
            return 2
    return None


_PARTY_ALONE = re.compile(
    rf"\W*(?:(?:there(?:'ll|\s+will)\s+be|there(?:'s|\s+is|\s+are|'re)|we(?:'ll|\s+will)\s+(?:be|have)|it'?s|"
    rf"it\s+will\s+be|about|around|roughly|maybe|probably|just|so|oh|and|for)\s+)*(?P<count>{_COUNT})\s+"
    rf"(?:{_PEOPLE_PLURAL}|of\s+(?:us|them))"
    r"(?:\s+(?:please|in\s+total|altogether|total|coming|jumping|playing))?\W*",
    re.I,
)
"""A clause that is only a number of people ("10 kids", "there'll be 12 children", "there's 2 of them"): a head count,
whichever question it answers; "my two boys" is a part of the party, "three kids' beds" counts beds."""


def party_alone(slots: Sequence[Slot], text: str) -> tuple[Slot, int, str] | None:
    """The one slot of ``slots`` counting people, with the count, when a clause of ``text`` is nothing but a number of
    people (:data:`_PARTY_ALONE`), said to another question ("yes, for 10 kids"), and that clause."""
    found = [hit for clause in clauses(text) if (hit := _PARTY_ALONE.fullmatch(clause)) is not None]
    people = [slot for slot in slots if counts_people(slot)]
    if len(found) != 1 or len(people) != 1:
        return None
    said = found[0].group("count").casefold()
    return people[0], int(said) if said.isdigit() else WORD_NUMBERS[said], found[0].group()


def head_count(slot: Slot, text: str, *, asked: bool) -> int | None:
    """The number of people ``text`` says by who comes ("just me" 1, "both of us" 2), for a slot counting people
    that is asked, or named in the message by its people words; of things, a pair (:func:`pair_count`); else
    None."""
    if not counts_people(slot):
        return pair_count(slot, text, asked=asked)
    if (group := _GROUP.search(text)) is not None:  # "we're a trio", "a four piece": a band says how many
        return _group_size(group)
    if _FOR_ONESELF.search(text):
        return 1  # "I'd like a lane just for myself": who it is for, though the count is not asked yet
    if not asked and PEOPLE_WORDS.isdisjoint(re.findall(r"[a-z]+", text.casefold())):
        return None
    if _PAIR.search(text):
        return 2
    if _SOLO.search(text):
        return 1
    return None
