"""The things a customer names while saying what kind of job it is, for the flow's questions about those things.

A collection, delivery or repair flow asks the kind of job (a categorical slot: furniture or an appliance) and later
what the items are (a text slot: ``items``) and how many (an integer slot counting items). Customers name the things
in the message that tells the kind: "I need a wardrobe and a chest of drawers collected please". A person taking the
call writes down "a wardrobe and a chest of drawers", two items, and does not ask again.

:func:`named_things` reads that list of things: noun phrases, each starting with an article, a possessive or a number,
joined by commas, "and", "with" or "plus", at least one of them naming a listed form of a categorical value (never
only the value's own name: "some old furniture" names no item). The list is the text slot's value, its count (each
thing one, or its number; none when one is "a few") the count slot's, and only in the reply to the categorical slot's
question (the opening message, as a rule): later messages that mention a thing in passing give nothing.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from functools import lru_cache
from typing import Any

from ...flow import Slot, SlotType
from ...language import WORD_NUMBERS
from .categories import aggregate_value, named_value, value_forms, value_pattern

__all__ = ["named_things", "thing_slots"]

_THINGS = re.compile(r"\b(?:items?|things?|pieces?)\b", re.I)
"""A slot about the things themselves: "items", "number of items"."""
_COUNT_WORDS = "|".join(sorted((w for w, n in WORD_NUMBERS.items() if 1 < n <= 20), key=len, reverse=True))
_UNCOUNTED = (
    r"(?:some|these|those|a\s+few|a\s+couple|several|lots\s+of|loads\s+of|a\s+load\s+of|a\s+lot\s+of|all\s+the)"
)
_DETERMINER = (
    rf"(?:{_UNCOUNTED}|a\s+couple\s+of|a\s+pair\s+of|an?|the|my|our|his|her|their|this|both|\d{{1,2}}|"
    + _COUNT_WORDS
    + r")"
)
_STOP = (
    r"(?:and|with|plus|or|to|that|which|who|please|for|from|i|we|you|it|so|but|as|because|in|on|at|out|off|away|"
    r"up|down|collected|collecting|collect|taking|taken|take|picked|removed|removing|need|needs|go|going|is|are|was|"
    r"were|has|have|had|been|be|all|then|too|also|by|before|after|if|when|today|tomorrow|asap)"
)
_WORD = rf"(?!{_STOP}\b)(?!{_DETERMINER}\b)[a-z][a-z\-]*"  # "my washing machine's finally died": "my washing machine"
_ITEM = rf"{_DETERMINER}(?:\s+{_WORD}){{1,5}}"
_MOMENT = (
    r"(?:mon|tues|wednes|thurs|fri|satur|sun)day|today|tonight|tomorrow|morning|afternoon|evening|next|this|"
    r"january|february|march|april|may|june|july|august|september|october|november|december"
)
_LATER_ITEM = (
    rf"(?:{_ITEM}|(?!(?:{_MOMENT}|can|could|would|will|shall|should|do|does|did)\b){_WORD}(?:\s+{_WORD}){{0,4}}"
    r"(?=\s*(?:,|\band\b|\bwith\b|\bplus\b|[.!?;]|$)))"
)
"""After the first thing, one without an article ("a bedroom set, bed frame, wardrobe and two bedside tables") that
ends where the list goes on or the sentence ends: never a day said after the list ("..., Tuesday at 3pm"), nor the
start of the next sentence ("my wedding dress, can you ...")."""
_JOIN = r"(?:\s*,\s*(?:and\s+|plus\s+)?|\s+(?:and|with|plus)\s+)"
_LIST = re.compile(rf"(?<![\w'])(?:{_ITEM})(?:{_JOIN}(?:{_ITEM}))*(?!\w)", re.I)
_LOOSE_LIST = re.compile(rf"(?:{_ITEM})(?:{_JOIN}(?:{_LATER_ITEM}))*(?!\w)", re.I)
"""The things listed, the later ones with or without an article: the text slot's value (the count is of the things
with an article or a number each, :data:`_LIST`: "a dining set, table and four chairs" is one dining set)."""
_ONE_ITEM = re.compile(rf"(?<![\w'])(?P<det>{_DETERMINER})(?:\s+{_WORD}){{1,5}}", re.I)


def named_things(slots: Iterable[Slot], asked: Slot | None, text: str, read: Mapping[str, Any]) -> dict[str, Any]:
    """The text slot about things and the count slot of things, from the list of things ``text`` names in reply to the
    question of a categorical slot (``asked``) whose forms name such things (see the module docstring); slots ``read``
    already keep their values."""
    slots = tuple(slots)
    text_name, count_name = thing_slots(tuple((s.name, s.type, s.label or "") for s in slots))
    if text_name is None:
        return {}
    text_slot = next(s for s in slots if s.name == text_name)
    count_slot = next((s for s in slots if s.name == count_name), None)
    categorical = [s for s in slots if s.type is SlotType.categorical]
    if asked is text_slot:  # the answer to "what are the items?" is the list: the rules take it; its count too
        listed = _LIST.search(text.replace("\u2019", "'"))
        count = None
        # the list is most of the answer, and names things some categorical slot lists ("in the utility room": none)
        if listed is not None and listed.end() - listed.start() > len(text) / 2:
            if any(_names_a_form(kind, listed.group()) for kind in categorical):
                several = any(_several_kinds(kind, listed.group()) for kind in categorical)
                count = None if several else _count(listed.group())
        said = [int(n) for n in re.findall(r"\b(\d{1,2})\s+(?:things|items|pieces|in\s+all|altogether)\b", text)]
        if count_slot is None or count_slot.name in read or count is None or any(n != count for n in said):
            return {}
        return {count_slot.name: count}
    if text_slot.name in read:
        return {}
    # only while the kind is asked (the first question, as a rule): later, "it's a second floor flat" names no item
    kinds = [s for s in categorical if s is asked]
    for kind in kinds:
        for found in _LIST.finditer(text.replace("\u2019", "'")):
            if _names_a_form(kind, found.group()):
                loose = _LOOSE_LIST.match(text.replace("\u2019", "'"), found.start())
                things: dict[str, Any] = {text_slot.name: loose.group() if loose else found.group()}
                count = None if _several_kinds(kind, found.group()) else _count(found.group())
                if count_slot is not None and count_slot.name not in read and count is not None:
                    things[count_slot.name] = count
                return things
        if count_slot is not None and count_slot.name not in read and (count := _value_counted(kind, text)):
            return {count_slot.name: count}  # "two chests of drawers": the count of the kind named by its own name
    return {}


@lru_cache(maxsize=256)
def _counted(value: str) -> re.Pattern[str]:
    """A number right before ``value`` named by its own name ("two chests of drawers")."""
    return re.compile(rf"(?<![\w'])(\d{{1,2}}|{_COUNT_WORDS})\s+(?:{value_pattern(value).pattern})", re.I)


def _value_counted(kind: Slot, text: str) -> int | None:
    """The number said right before one value of ``kind`` named by its own name ("two chests of drawers"), when one
    value is so counted; else None."""
    said = {found.group(1).casefold() for value in kind.values or () for found in _counted(value).finditer(text)}
    counts = {int(word) if word.isdigit() else WORD_NUMBERS[word] for word in said}
    return counts.pop() if len(counts) == 1 else None


def _names_a_form(kind: Slot, listed: str) -> bool:
    """Does ``listed`` name a listed form of a value of ``kind`` ("a wardrobe"), not only a value's own name or its
    words ("some old furniture", "a collection of bedding" where a value is "duvets and bedding")?"""
    said = listed.casefold()
    names = {value.casefold() for value in kind.values or ()}
    # a form of nothing but words of a value's own name ("bedding" of "duvets and bedding") names the kind, no item
    own = {word.rstrip("s") for name in names for word in re.findall(r"[a-z]+", name)}
    return any(
        re.search(rf"\b{re.escape(form)}s?\b", said)
        for _, form in value_forms(tuple(kind.values or ()), kind.description)
        if form.casefold() not in names
        and not {word.rstrip("s") for word in re.findall(r"[a-z]+", form.casefold())} <= own
    )


def _several_kinds(kind: Slot, listed: str) -> bool:
    """Does ``listed`` name things of several of ``kind``'s values, which it has one value for ("a bed frame, a
    wardrobe and two bedside tables" for "several items")? Then no count of one kind's pieces is the list's total."""
    whole = aggregate_value(tuple(kind.values or ()))
    return whole is not None and named_value(kind, listed) == whole


@lru_cache(maxsize=256)
def thing_slots(named: tuple[tuple[str, SlotType, str], ...]) -> tuple[str | None, str | None]:
    """The text slot about things and the integer slot counting them, of slots (name, type, label): found once per
    flow state, not per message."""

    def first(kind: SlotType) -> str | None:
        return next(
            (n for n, t, label in named if t is kind and _THINGS.search(f"{n.replace('_', ' ')} {label}")), None
        )

    return first(SlotType.text), first(SlotType.integer)


def _count(listed: str) -> int | None:
    """How many things the list says: each one, or its number ("an old dining table and six chairs": 7); None for
    "some" or "a few" of them."""
    total = 0
    for item in _ONE_ITEM.finditer(listed):
        det = " ".join(item.group("det").casefold().split())
        if det.isdigit():
            total += int(det)
        elif det in WORD_NUMBERS:
            total += WORD_NUMBERS[det]
        elif det in ("both", "a couple of", "a pair of"):
            total += 2
        elif re.fullmatch(_UNCOUNTED, det):
            return None  # "a few dining chairs": how many is asked
        else:
            total += 1
    return total or None
