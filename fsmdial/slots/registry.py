"""The slot types' registry: the names a flow may write (:class:`SlotType`), what one type does (:class:`SlotKind`)
and every defined type by name (:data:`KINDS`).

A type is a :class:`SlotKind` subclass with a ``type_name``: defining the class registers one instance of it
(``__init_subclass__``). Each built-in type lives in one module of :mod:`fsmdial.slots` with all it does:

* reading: ``coerce`` (a value said or stored to the normal form the session stores, checked by the slot's
  validators; or :class:`InvalidValue`: a value is normalised, never changed silently), and how a message says
  one: ``find`` (``{span: value}``; the rules understander reads values with it, and a model may copy only one of
  these spans, :mod:`fsmdial.understand.constraint.grounding`), ``read`` of one span for the types whose values grow and
  shrink with their words (dates, times, numbers: grounding offers the *minimal* spans it reads a value from),
  or ``whole_text`` (the reply's own words);
* what a model is offered: ``model_type`` (the pydantic type of a value it writes: its JSON schema and grammar)
  and ``prompt`` (the words that describe a value);
* the flow format: ``options`` (what a flow may declare on a slot of the type), ``needs_values``,
  ``check_declaration`` (the type's own rules for those options), ``is_text``, ``is_number``, the JSON a value is
  stored as (``json_kind``, :meth:`SlotKind.stores`) and written as in a flow's condition
  (``value_words``, :meth:`SlotKind.is_json_value`);
* bounds: ``bound_words`` (``earliest``/``latest`` and a date's ``open_days`` in words, for the slot's ``invalid``
  message).

The flow model (:mod:`fsmdial.flow.nodes`) reads the registry, so no module of this package imports the flow
package at run time (``Slot`` is imported for the type checker only).
"""

from __future__ import annotations

import datetime as dt
import re
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from enum import Enum
from typing import TYPE_CHECKING, Any, ClassVar, Literal

if TYPE_CHECKING:
    from ..flow import Slot

__all__ = [
    "KINDS",
    "OPTIONS",
    "Exact",
    "InvalidValue",
    "JsonKind",
    "SlotKind",
    "SlotType",
    "describe_pattern",
    "kind_of",
    "with_reading_asked",
]


# The docstring below is the "description" of SlotType in the flow's JSON Schema (fsmdial/flow.schema.json): kept
# word for word so the published schema does not change. (The table it names is now this package, fsmdial.slots;
# SLOT_OPTIONS is derived from it.)
class SlotType(str, Enum):
    """The built-in slot types. What each one reads, stores and offers a model is the classes of :mod:`fsmdial.slots`;
    what a flow may declare with it is :data:`SLOT_OPTIONS`."""

    string = "string"
    """Free text (the type before ``text`` had a name: the same type, kept for existing flows)."""
    text = "text"
    person_name = "person_name"
    phone = "phone"
    email = "email"
    reference = "reference"
    address = "address"
    integer = "integer"
    number = "number"
    money = "money"
    duration = "duration"
    boolean = "boolean"
    categorical = "categorical"
    date = "date"
    time = "time"


OPTIONS = (
    "values",
    "minimum/maximum",
    "pattern/max_length",
    "earliest/latest",
    "region",
    "currency",
    "unit",
    "not_past_with/lead_minutes",
    "open_days/closed_dates",
)
"""Every option a flow may declare on some types of slot only (the fields of :class:`~fsmdial.flow.Slot`, grouped as
they go together); a type says which it takes in :attr:`SlotKind.options`."""

JsonKind = Literal["string", "number", "boolean"]
"""The JSON kind of a stored value (what a session snapshot holds)."""

Exact = Callable[[str, int], bool]
"""Can the model's grammar enforce this regular expression on values of at most this many characters?"""

KINDS: dict[SlotType, SlotKind] = {}
"""Every defined slot type, by name: filled as the classes are defined (:mod:`fsmdial.slots` imports every built-in
one and checks that no name of :class:`SlotType` is missing)."""


class InvalidValue(ValueError):
    """A value the slot's type or validators reject; ``message`` is fit to show the user.

    ``question``: not refused but ambiguous (two readings fit: a clock time without am/pm, "next Saturday" said on a
    Friday): ``message`` asks which, and the type's :meth:`SlotKind.answer_to` reads the answer with it.
    ``sentence``: the whole sentence to say instead of the engine's "not a valid ..." around ``message``, when the
    slot has no ``invalid`` message of its own (a closed day names the opening days and asks for another).
    """

    def __init__(self, slot: str, value: Any, message: str, question: bool = False, sentence: str | None = None):
        self.slot = slot
        self.value = value
        self.message = message
        self.question = question
        self.sentence = sentence
        super().__init__(f"{slot}: {message}")


class SlotKind(ABC):
    """One slot type: see the module docstring. A subclass with a ``type_name`` is registered as it is defined;
    one without (a family's shared base) is not."""

    type_name: ClassVar[SlotType | None] = None
    """The name a flow writes for the type; set on a class, it registers that class."""

    # ---------------------------------------------------------------- the flow format
    options: ClassVar[frozenset[str]] = frozenset()
    """The :data:`OPTIONS` a flow may declare on a slot of this type (any other is refused)."""
    needs_values: ClassVar[bool] = False
    """A slot of this type must list its ``values``."""
    is_text: ClassVar[bool] = False
    """Its values are text (stored as strings, with a length and perhaps a pattern)."""
    is_number: ClassVar[bool] = False
    """Its values are numbers (with a ``minimum`` and a ``maximum``)."""
    json_kind: ClassVar[JsonKind] = "string"
    """The JSON kind a stored value is."""
    value_words: ClassVar[str] = "a string"
    """What a value is, in words, for a flow's condition that compares the slot with something else."""

    # ---------------------------------------------------------------- reading a message
    read: Callable[[str, dt.datetime], Any] | None = None
    """A reader of one span (dates, times, numbers): grounding offers the minimal spans it reads a value from."""
    outside_dates: ClassVar[bool] = False
    """A value of this kind is never read out of a date or a time ("1990" of "12/05/1990", "7" of "7:30")."""
    whole_text: ClassVar[bool] = False
    """An asked slot of this kind may take the reply's own words as its value (free text)."""
    finds: ClassVar[bool] = False
    """:meth:`find` reads this kind's values out of a message (the rules take them from there)."""
    distinctive: ClassVar[bool] = False
    """A value found in a message is this kind's even when its slot was not asked (a phone number, an email):
    it goes to the flow's only slot of the type, if the span :meth:`says_itself`."""
    claims: ClassVar[bool] = False
    """A value of this kind is read first, from the whole message, and every span of one found is taken out of the
    message before any other value is read from it: its words are no time, count, date or reference, and no other
    slot's ("8 Meadow Lane" is no 08:00; "12 Elm Street, not 21" no 12 or 21 passengers)."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        name = cls.__dict__.get("type_name")
        if name is None:
            return
        unknown = sorted(cls.options - set(OPTIONS))
        if unknown:
            raise TypeError(f"slot type {name.value!r} takes options the flow format does not have: {unknown}")
        if name in KINDS:
            first = type(KINDS[name]).__name__
            raise TypeError(f"slot type {name.value!r} is defined twice: {first} and {cls.__name__}")
        KINDS[name] = cls()

    # ---------------------------------------------------------------- values
    @abstractmethod
    def coerce(self, slot: Slot, value: Any, now: dt.datetime, day: dt.date | None, bounds: bool) -> Any:
        """``value`` in the normal form the session stores, checked by the slot's validators; or
        :class:`InvalidValue`. ``day``: the date a time is on; ``bounds``: check ``earliest``/``latest`` (on
        ``now``)."""

    def stores(self, value: Any) -> bool:
        """Is ``value`` of the JSON kind a stored value of this type is (a snapshot's value, before coercion)?"""
        if self.json_kind == "number":
            return isinstance(value, (int, float)) and not isinstance(value, bool)
        if self.json_kind == "boolean":
            return isinstance(value, bool)
        return isinstance(value, str)

    def is_json_value(self, value: Any) -> bool:
        """Could ``value``, written in a flow (a condition's operand), be a stored value of this type?"""
        return self.stores(value)

    def check_declaration(self, slot: Slot) -> None:
        """Raise ``ValueError`` if the slot declares this type's own options wrongly (a bound of the wrong form);
        run by the flow model after the checks every type shares. Nothing to check by default."""
        return None

    def bound_words(self, slot: Slot, now: dt.datetime) -> dict[str, str]:
        """The slot's bounds in words, for its ``invalid`` message (``{earliest}``, ``{latest}``, a date's
        ``{open_days}``): none by default."""
        return {}

    # ---------------------------------------------------------------- recognising values in a message
    def says_itself(self, span: str) -> bool:
        """Does ``span`` say what kind of value it is ("£25", "4 nights"; not a bare "25")?"""
        return True

    def find(self, slot: Slot, text: str, now: dt.datetime) -> dict[str, Any] | None:
        """The values ``text`` says for ``slot``, ``{span: value}``; None: this kind takes any span (free text)."""
        return None

    def refused(self, slot: Slot, text: str) -> str | None:
        """The one value of this kind ``text`` says that the slot refuses ("20 dollars" for pounds), for the rules
        to pass on to be refused and asked again, rather than pass over; None: there is none."""
        return None

    def answer_to(self, asked: str, text: str) -> str | None:
        """The user's reply ``text`` to this type's clarifying question (``asked``, a bot message: the ``message``
        of an :class:`InvalidValue` with ``question``) completed so that every understander reads the reading it
        picks ("in the evening" after "7:45 in the morning or in the evening?" is "7:45 in the evening"); None:
        ``asked`` is no such question, or the reply picks no reading by itself. None by default."""
        return None

    def fits(self, slot: Slot, word: str) -> bool:
        """Is ``word`` (one word of a message, digit groups joined) of this slot's form (its ``pattern``)?"""
        return slot.pattern is not None and re.fullmatch(slot.pattern, word) is not None

    def typed(self, slot: Slot) -> bool:
        """Does a model take this slot's value from an enum of grounded spans (rather than any span)?"""
        return self.read is not None or slot.pattern is not None

    # ---------------------------------------------------------------- what a model is offered
    @abstractmethod
    def model_type(self, slot: Slot, exact: Exact) -> Any:
        """The Python type (pydantic) of a value the model writes for ``slot``."""

    @abstractmethod
    def prompt(self, slot: Slot) -> str:
        """The words that describe a value of ``slot`` in the model's prompt."""


def with_reading_asked(history: Sequence[tuple[str, str]], text: str) -> str:
    """``text`` completed as the answer to a clarifying question the bot has just asked (two readings fit, ask
    which: :class:`InvalidValue` with ``question``), by the type whose question it is (:meth:`SlotKind.answer_to`);
    any other text as it is."""
    for role, said in reversed(history):
        if role != "bot":
            break
        for kind in KINDS.values():
            completed = kind.answer_to(said, text)
            if completed is not None:
                return completed
    return text


def kind_of(slot: Slot) -> SlotKind:
    """What the type of ``slot`` does."""
    return KINDS[slot.type]


_DIGITS = re.compile(r"^\^?(?:\[0-9\]|\\d)(?:\{(\d+)(?:,(\d+))?\}|(\+))\$?$")


def describe_pattern(pattern: str) -> str:
    """A slot's ``pattern`` in words where it is a plain run of digits, else the pattern itself."""
    found = _DIGITS.match(pattern)
    if found:
        low, high, plus = found.groups()
        if plus:
            return "of digits only"
        if high is None or high == low:
            return f"of exactly {low} digits"
        return f"of {low} to {high} digits"
    return f"matching the regular expression {pattern}"
