"""Every built-in slot type, registered, and what other modules ask of them all.

Defining a type's class registers it (:class:`~fsmdial.slots.registry.SlotKind`): this module imports every
built-in one (:data:`BUILT_IN`) and checks that every name of :class:`SlotType` has its type. The flow format's
tables below (which types take an option, which are text, which are numbers) are read from the types, never
written out by hand.
"""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING

from .amounts import Duration, Money
from .boolean import Boolean
from .categorical import Categorical
from .contacts import Address, Email, Phone, Reference
from .dates import Date
from .numbers import Integer, Number
from .registry import KINDS, OPTIONS, SlotKind, SlotType, kind_of
from .text import PersonName, String, Text
from .times import Time

if TYPE_CHECKING:
    from ..flow import Slot

__all__ = ["BUILT_IN", "NUMBER_TYPES", "SLOT_OPTIONS", "TEXT_TYPES", "bound_words", "option_types"]

BUILT_IN: tuple[type[SlotKind], ...] = (
    String,
    Text,
    PersonName,
    Phone,
    Email,
    Reference,
    Address,
    Integer,
    Number,
    Money,
    Duration,
    Boolean,
    Categorical,
    Date,
    Time,
)
"""The built-in types, in :class:`SlotType`'s order (imported here, so each is defined, and so registered, before
the tables below are read)."""

_missing = [kind.value for kind in SlotType if kind not in KINDS]
if _missing:  # pragma: no cover - tests/test_slot_types_registry.py holds every name to a type
    raise ImportError(f"slot types without a SlotKind class: {', '.join(_missing)}")
_registered = {kind: KINDS[kind] for kind in SlotType}  # in SlotType's order, whatever the modules' order
KINDS.clear()
KINDS.update(_registered)

TEXT_TYPES = frozenset(kind for kind in SlotType if KINDS[kind].is_text)
"""The types whose values are text (stored as strings, with a length and perhaps a pattern)."""
NUMBER_TYPES = frozenset(kind for kind in SlotType if KINDS[kind].is_number)
"""The types whose values are numbers (with a ``minimum`` and a ``maximum``)."""
SLOT_OPTIONS: dict[str, frozenset[SlotType]] = {
    option: frozenset(kind for kind in SlotType if option in KINDS[kind].options) for option in OPTIONS
}
"""Which slot types each option applies to (the format's checks and its messages come from it)."""


def option_types(option: str) -> str:
    """The types an option applies to, in words ("integer and number slots")."""
    names = [kind.value for kind in SlotType if kind in SLOT_OPTIONS[option]]
    return (", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else names[0]) + " slots"


def bound_words(slot: Slot, now: dt.datetime) -> dict[str, str]:
    """A slot's bounds in words, for its ``invalid`` message: ``{earliest}``, ``{latest}`` ("8 am", "6 pm";
    dates as "Friday 13 June 2025", relative ones on ``now``), a date's ``{open_days}`` ("Tuesday to Saturday")."""
    return kind_of(slot).bound_words(slot, now)
