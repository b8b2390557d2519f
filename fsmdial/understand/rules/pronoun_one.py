"""A "one" said for a thing ("the red one", "I need one", "we both had one last month") is no number.

A number not asked for gives a numeric slot its value only when it counts something. For the word "one" that is
told by its neighbours: a count has a noun after it ("one person"), or a word before it that asks for a count ("just
one", "for one", "make it one"); a "one" at the end of its clause or before a word naming no thing (a time, a
preposition) stands for a thing said before.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ...flow import Slot, SlotType
from ...language import WORD_NUMBERS, find_numbers
from .categories import named_value

__all__ = [
    "counted_numbers",
    "one_asked_about",
    "counts_nothing",
    "only_determined_ones",
    "only_pronoun_ones",
    "without_phrase_ones",
    "without_pronoun_ones",
    "without_uncounted_ones",
]

_ONE_IN_A_NAME = re.compile(r"(?<![\w'])one[\s-]+way(?![\w'])", re.I)
"""A "one" that is part of the name of a kind of thing ("a one-way flight", "one way tickets"): no count."""
_ONE_PLACE = re.compile(r"(?<![\w'])(?:on|at|from|down|along|in)\s+one\s+(?:side|end|corner|edge|point)(?![\w'])", re.I)
"""A "one" of a place on a thing ("the jets have stopped working on one side", "at one point"): no count."""
_ONE_THING = re.compile(r"(?<![\w'])one\s+(?:more\s+|last\s+|other\s+)?(?:thing|question)s?(?![\w'])", re.I)
"""A "one" that opens something more to say ("actually one more thing, is there parking?"): no count."""
_ONE_EACH = re.compile(
    r"(?<![\w'])one\s+(?:(?:for|in|to|on|at)\s+each(?:\s+of)?|each|apiece|per)(?![\w'])|"
    r"(?<![\w'])(?:one|1)\s+(?:for|in|on|at)\s+(?:every|each)(?![\w'])",
    re.I,
)
"""A "one" said for each of something ("2 of them, one for each of the kids", "one in each bedroom"): how the count
is shared, no count of its own."""


def without_phrase_ones(text: str) -> str:
    """``text`` with the phrases whose "one" counts nothing blanked ("a one-way flight", "one more thing")."""
    if "one" not in text.casefold():
        return text
    for phrase in (_ONE_IN_A_NAME, _ONE_PLACE, _ONE_THING, _ONE_EACH):
        text = phrase.sub(lambda found: " " * len(found.group()), text)
    return text


_WORDS = re.compile(r"[a-z']+|\d+(?:[.,]\d+)?|[,.;!?]")
_COUNTING_BEFORE = frozenset(
    {"just", "only", "for", "of", "be", "are", "re", "were", "it", "that", "party", "table", "booking", "exactly"}
)
"""Words before a "one" that make it a count ("just one", "a table for one", "make it one", "we'll be one")."""
_NO_THING_AFTER = frozenset(
    "last this next yesterday today tomorrow already before too as with from at in on of for which that please "
    "thanks thank and or but so is was i we you it he she they here there done recently ago again then now "
    "when while if because since until by to a an the my our your their his her yes no yeah yep ok okay".split()
)
"""Words after a "one" that name no thing it counts ("had one last month", "one with a fringe")."""


_DETERMINERS = frozenset("the that this which each every any other".split())


def only_determined_ones(text: str) -> bool:
    """Is every "one" of ``text`` after a determiner and before no thing it counts ("the one we use most", "that
    one, with the lid", "the one's broken"), which stands for a thing even where a number is asked? Never after
    "just"/"only" ("just that one": a count), nor before a noun ("that one room"). False without a "one"."""
    words = _WORDS.findall(text.casefold())
    ones = [i for i, word in enumerate(words) if word in ("one", "one's")]
    if any(word[0].isdigit() or (word in WORD_NUMBERS and word != "one") for word in words):
        return False  # "it's actually 2 wardrobes, I forgot the one in the spare room": the 2 counts
    return bool(ones) and all(_determined(words, i) for i in ones)


def _determined(words: list[str], i: int) -> bool:
    before, earlier = (words[i - 1] if i > 0 else ""), (words[i - 2] if i > 1 else "")
    after = "is" if words[i] == "one's" else (words[i + 1] if i + 1 < len(words) else "")
    return before in _DETERMINERS and earlier not in ("just", "only") and not _counts("", after)


def counts_nothing(text: str, asked: bool) -> bool:
    """Do the numbers of ``text`` count nothing: only "one"s standing for a thing where no number is ``asked`` ("yes
    we both had one last month"), or only "one"s after a determiner, asked or not ("that's the one we use most")?"""
    return (not asked and only_pronoun_ones(text)) or only_determined_ones(text)


def only_pronoun_ones(text: str) -> bool:
    """Does ``text`` hold a number only as the word "one" standing for a thing (never a digit, never a count)?"""
    words = _WORDS.findall(text.casefold())
    ones = [i for i, word in enumerate(words) if word == "one"]
    if not ones or any(word[0].isdigit() or (word in WORD_NUMBERS and word != "one") for word in words):
        return False
    return not any(_counts(words[i - 1] if i > 0 else "", words[i + 1] if i + 1 < len(words) else "") for i in ones)


def _counts(before: str, after: str) -> bool:
    """Does a "one" between these words count: a word before it asking for a count ("just one", "for one"), or a
    noun after it ("one person", "one haircut")?"""
    return before in _COUNTING_BEFORE or (after[:1].isalpha() and after not in _NO_THING_AFTER)


_PRONOUN_ONE = re.compile(r"(?<![\w'])(?P<before>[a-z]+)\s+one(?P<after>\s+[a-z']+|\s*[,.;!?]|\s*$)", re.I)


def without_pronoun_ones(text: str) -> str:
    """``text`` with each "one" that stands for a thing after a word describing it blanked ("two, the top one and the
    bottom one": 2 locks; "the wrong one"); a "one" that counts stays ("just one", "one person", a bare "one")."""

    def blanked(found: re.Match[str]) -> str:
        before, after = found.group("before").casefold(), found.group("after").strip().casefold()
        if before in WORD_NUMBERS or _counts(before, after):  # "two one" is no thing either
            return found.group()
        return found.group("before") + "    " + found.group("after")

    if "one" not in text.casefold():
        return text
    return _PRONOUN_ONE.sub(blanked, _PLACED_ONE.sub(lambda found: " " * len(found.group()), text))


_PLACED_ONE = re.compile(
    r"(?<![\w'])one\s+(?:at|for|in|on|by|near|round|over|outside|above|under|up|down)\s+(?:the|my|our|his|her)\s+"
    r"(?!(?:morning|afternoon|evening|night)\b)",
    re.I,
)
"""A "one" put somewhere ("two, one at the front and one for the back garden"): a thing placed, no count; never "one in
the afternoon" (1 pm)."""


_NOT_THE_NEW_COUNT = re.compile(
    r"(?<![\w'])(?:one\s+of\s+(?:the|those|these|your|our)|(?:\d{1,2}|one|two|three|four|five|six)\s+(?:more|extra)(?!\s+than)"
    r"(?:\s+(?:people|persons?|guests?|adults?|kids|children|of\s+us))?)(?![\w'])",
    re.I,
)
"""In a change, numbers that are no new value: "one of the sessions where someone teaches you" picks a kind, "make it
6 people, two more are coming" says how many are added."""


def without_uncounted_ones(text: str) -> str:
    """``text`` without the "one"s that count nothing: in a phrase (:func:`without_phrase_ones`) or standing for a
    thing (:func:`without_pronoun_ones`): read in a change, "actually can we have the quieter one" changes no time to
    1 o'clock; nor the numbers that are no new value (:data:`_NOT_THE_NEW_COUNT`)."""
    text = _NOT_THE_NEW_COUNT.sub(lambda found: " " * len(found.group()), text)
    return without_pronoun_ones(without_phrase_ones(text))


def counted_numbers(text: str) -> list[int | float]:
    """The numbers of ``text``; of several, those left when the "one"s standing for things are not counted ("two, the
    top one and the bottom one" says 2). A "one" alone keeps its count ("I need one")."""
    numbers = find_numbers(text)
    if len(numbers) > 1 and (fewer := find_numbers(without_pronoun_ones(text))):
        return fewer
    if (
        numbers
        and all(number == 1 for number in numbers)
        and len(placed := _PLACED_ONE.findall(text)) == len(numbers) > 1
    ):
        return [len(placed)]  # "one by the boiler and one in the front room": two, each put somewhere
    return numbers


_TAKES_ONE = re.compile(
    r"(?<![\w'])(?:book|have|take|do|get|want|go\s+for|try)\s+(?:one|that\s+one|one\s+of\s+(?:those|them))"
    r"(?![\w'])",
    re.I,
)
"""A "one" the user asks to book ("OK, I'll book one please", "I'll have one of those"); "book it" is the booking."""


def one_asked_about(slot: Slot | None, history: Sequence[tuple[str, str]], text: str) -> dict[str, str]:
    """The value of the asked categorical ``slot`` that "I'll book one" stands for: the one value the user's message
    before this one named ("How much is a lesson?" then "OK, I'll book one please"); else nothing."""
    if slot is None or slot.type is not SlotType.categorical or not _TAKES_ONE.search(text):
        return {}
    earlier = [said for role, said in history if role == "user"]
    if not earlier:
        return {}
    named = named_value(slot, earlier[-1])
    return {slot.name: named} if named is not None else {}
