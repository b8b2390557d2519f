"""A thing's name said in passing, in the shape of its text slot's examples: "my Samsung Galaxy S20 won't charge"
gives the phone model the flow asks next, as a person taking the booking would not ask it again.

Only a slot whose examples show the shape takes such a value: a make and a model number ("iPhone 13", "Samsung Galaxy
S22": two to four words, no comma, the last with a digit). In a message, the value is the words between a word that
owns or introduces a thing ("my", "a", "her", "my son's", "it's") and a model number, none of them a function word, a
word of another slot's values or a word naming the flow or the slot ("my phone 2 days ago" names no phone), and at
most one word after the number that ends the phrase ("an iphone 11 pro please"). A number that counts or measures
("2 days", "3 people") or a clock time ("2pm") is no model number. Where two such names are said, none is taken.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from ...flow import Slot, SlotType
from ...language.choices import described_synonyms
from ...language.text import FUNCTION_WORDS
from ...slots import KINDS

__all__ = ["shaped_name", "shaped_slots"]

_WORD = re.compile(r"[^\W_][\w'+-]*")
_MODEL_NUMBER = re.compile(r"[a-z]{0,3}\d{1,4}[a-z]{0,2}", re.I)
_NOT_A_MODEL = re.compile(r"\d+(?:st|nd|rd|th|am|pm|ish|s)|\d{5,}", re.I)
"""Numbers that are days, times, decades or phone numbers: "14th", "2pm", "20s"."""
_OWNERS = frozenset("my a an the his her our their your its it's this".split())
"""Words a thing's name follows: its owner or an article ("my Pixel 7", "a Samsung A34", "it's an iPhone 11")."""
_MEASURED = frozenset(
    """day days week weeks month months year years yr yrs hour hours hr hrs minute minutes min mins people person
    persons times x of percent quid pounds pound p""".split()
)
"""Words after a number that make it a count or a measure ("2 days ago"), no model number."""
_ENDS = frozenset({"please", "thanks", "thank"}) | FUNCTION_WORDS


def shaped_slots(slots: Iterable[Slot], flow: str) -> tuple[tuple[Slot, frozenset[str]], ...]:
    """The text slots whose examples have a thing's name's shape, each with the words its value cannot hold (other
    slots' values and their synonyms, the words naming the flow and the slot)."""
    slots = tuple(slots)
    taken = {
        word
        for slot in slots
        if slot.type is SlotType.categorical
        for value, synonyms in [
            *((value, ()) for value in slot.values or ()),
            *described_synonyms(tuple(slot.values or ()), slot.description),
        ]
        for form in (value, *synonyms)
        for word in _WORD.findall(form.casefold())
    }
    taken |= set(_WORD.findall(flow.replace("_", " ").casefold()))
    found = []
    for slot in slots:
        if not (KINDS[slot.type].whole_text and slot.pattern is None and _shaped(slot.examples)):
            continue
        own = set(_WORD.findall(f"{slot.name.replace('_', ' ')} {slot.label or ''}".casefold()))
        found.append((slot, frozenset(taken | own)))
    return tuple(found)


def _shaped(given: Iterable[object]) -> bool:
    examples = [example for example in given if isinstance(example, str)]
    return bool(examples) and all(
        "," not in example
        and 2 <= len(words := example.split()) <= 4
        and _MODEL_NUMBER.fullmatch(words[-1]) is not None
        and any(ch.isdigit() for ch in words[-1])
        for example in examples
    )


def shaped_name(text: str, blocked: frozenset[str]) -> str | None:
    """The one thing's name of the shape in ``text`` (see the module), or None."""
    if not any(ch.isdigit() for ch in text):
        return None
    words = list(_WORD.finditer(text))
    folded = [word.group().casefold() for word in words]
    names: set[str] = set()
    for i, word in enumerate(words):
        said = word.group()
        if not (_MODEL_NUMBER.fullmatch(said) and any(ch.isdigit() for ch in said)) or _NOT_A_MODEL.fullmatch(said):
            continue
        if i + 1 < len(words) and folded[i + 1] in _MEASURED and _next_to(text, words[i], words[i + 1]):
            continue
        first = i
        while (
            first > 0
            and i - first < 3
            and _name_word(folded[first - 1], blocked)
            and _next_to(text, words[first - 1], words[first])
        ):
            first -= 1
        if (
            first == i
            or first == 0
            or folded[first - 1].removesuffix("'s") not in _OWNERS
            and not folded[first - 1].endswith("'s")
        ):
            continue
        last = i
        if (
            i + 1 < len(words)
            and _name_word(folded[i + 1], blocked)
            and _next_to(text, words[i], words[i + 1])
            and (i + 2 == len(words) or folded[i + 2] in _ENDS or not _next_to(text, words[i + 1], words[i + 2]))
        ):
            last = i + 1  # "an iphone 11 pro please", "a Galaxy S21 Ultra"
        names.add(text[words[first].start() : words[last].end()])
    return names.pop() if len(names) == 1 else None


def _name_word(word: str, blocked: frozenset[str]) -> bool:
    return word.isalpha() and word not in FUNCTION_WORDS and word not in blocked and word not in _OWNERS


def _next_to(text: str, before: re.Match[str], after: re.Match[str]) -> bool:
    """Are two words of ``text`` in one phrase (only spaces between them)?"""
    return not text[before.end() : after.start()].strip()
