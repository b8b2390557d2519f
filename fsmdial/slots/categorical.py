"""The categorical slot type: one of the values the slot lists, stored in the flow's spelling.

What the user wrote is compared with the values by :func:`value_key` (case, spacing and a hyphen between words
aside), as the flow's validation keeps values apart by it (:func:`value_collisions`); finding a value in a reply
(plurals, synonyms, typos) is :mod:`fsmdial.understand.rules.categories`' job.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import TYPE_CHECKING, Any, Literal

import orjson

from ..language.text import fold
from .registry import Exact, InvalidValue, SlotKind, SlotType

if TYPE_CHECKING:
    from ..flow import Slot

__all__ = ["Categorical", "value_collisions", "value_key"]


def value_key(text: str) -> str:
    """How the engine compares a categorical value with what the user wrote.

    Case and runs of spaces/underscores are ignored, and so is a hyphen *between* two words
    (``new-york`` is ``new york``). Every other character counts: ``A+`` and ``A-``, ``O-`` and
    ``O`` stay apart, so a value the flow keeps apart is never merged with another.
    """
    folded = re.sub(r"(?<=\w)-(?=\w)", " ", fold(text))
    return " ".join(re.sub(r"[\s_]+", " ", folded).split())


def value_collisions(values: list[str]) -> list[list[str]]:
    """Groups of categorical values that :func:`value_key` cannot tell apart (empty: none)."""
    groups: dict[str, list[str]] = {}
    for value in values:
        groups.setdefault(value_key(value), []).append(value)
    return [group for key, group in groups.items() if len(group) > 1 or not key]


class Categorical(SlotKind):
    """One of the slot's ``values`` (a non-empty list, no two of the same :func:`value_key`)."""

    type_name = SlotType.categorical
    options = frozenset({"values"})
    needs_values = True

    def coerce(self, slot: Slot, value: Any, now: dt.datetime, day: dt.date | None, bounds: bool) -> Any:
        # Compared by value_key, as flow validation is: no two values of a slot share a key, so
        # at most one matches ("O-" is never taken for "O+", "-" never for anything else).
        key = value_key(str(value))
        for allowed in slot.values or ():
            if value_key(allowed) == key:
                return allowed
        options = ", ".join(slot.values or ())
        raise InvalidValue(slot.name, value, f"{value!r} is not one of: {options}")

    def typed(self, slot: Slot) -> bool:
        return False

    def model_type(self, slot: Slot, exact: Exact) -> Any:
        return Literal[tuple(slot.values or ())]

    def prompt(self, slot: Slot) -> str:
        return "one of " + ", ".join(_quote(v) for v in slot.values or ())


def _quote(value: str) -> str:
    return orjson.dumps(value).decode()
