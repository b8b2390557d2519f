"""Text slot types: free text (``text``, and ``string``, its name before it had one) and a person's name.

A text value is stored as written, its ends stripped, checked by the slot's ``max_length`` and ``pattern``
(:func:`checked_text`, which the contact types share); it is never cut to fit.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import TYPE_CHECKING, Annotated, Any

from pydantic import StringConstraints

from .registry import Exact, InvalidValue, SlotKind, SlotType, describe_pattern

if TYPE_CHECKING:
    from ..flow import Slot

__all__ = ["PersonName", "String", "Text", "TextKind", "checked_text"]


def checked_text(slot: Slot, value: Any, normal: str | None = None) -> str:
    """A text value (``normal``: its normal form, when the type has one) checked by the slot's length and pattern."""
    text = str(value).strip() if normal is None else normal
    if len(text) > slot.string_limit:
        raise InvalidValue(slot.name, value, f"is longer than {slot.string_limit} characters")
    if slot.pattern is not None and not re.fullmatch(slot.pattern, text):
        raise InvalidValue(slot.name, value, f"{text!r} does not have the expected form")
    return text


class TextKind(SlotKind):
    """The text family: a string of at most ``max_length`` characters, perhaps of a ``pattern``; an asked slot
    takes the reply's own words."""

    options = frozenset({"pattern/max_length"})
    is_text = True
    whole_text = True

    def coerce(self, slot: Slot, value: Any, now: dt.datetime, day: dt.date | None, bounds: bool) -> Any:
        return checked_text(slot, value)

    def model_type(self, slot: Slot, exact: Exact) -> Any:
        limit = slot.string_limit
        if slot.pattern is not None and exact(slot.pattern, limit):
            return Annotated[str, StringConstraints(pattern=slot.pattern, max_length=limit)]
        return Annotated[str, StringConstraints(min_length=1, max_length=limit)]

    def prompt(self, slot: Slot) -> str:
        if slot.pattern is not None:
            return f"text {describe_pattern(slot.pattern)}"
        return "text, the user's own words"


class Text(TextKind):
    """Free text."""

    type_name = SlotType.text


class String(Text):
    """Free text: the type before ``text`` had a name, kept for existing flows."""

    type_name = SlotType.string


class PersonName(TextKind):
    """A person's name ("Dana Lee", "O'Brien", "Dr. Alexis"), its spaces collapsed.

    What can be a name is the recognizers' job: the rules read only words of a name's shape after cue words, and
    a model may copy only such spans (:func:`fsmdial.language.names.is_name`), so "he's bleeding badly" or
    "hi there" never reaches a name slot. A value given otherwise (an application, a snapshot) is kept as given,
    as data: coercion refuses only what has no letter at all.
    """

    type_name = SlotType.person_name

    def coerce(self, slot: Slot, value: Any, now: dt.datetime, day: dt.date | None, bounds: bool) -> Any:
        name = " ".join(str(value).split())
        if not any(char.isalpha() for char in name):
            raise InvalidValue(slot.name, value, f"{name!r} is not a name")
        return checked_text(slot, value, name)

    def prompt(self, slot: Slot) -> str:
        return "a person's name, as the user writes it"
