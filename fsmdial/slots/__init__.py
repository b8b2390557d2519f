"""The slot types: one module per built-in type or family, each holding all its type does, and the registry.

* :mod:`.registry`: :class:`SlotType` (the names a flow writes), :class:`SlotKind` (what a type does: its reader,
  normal form, checks, bounds, flow-format facts) and :data:`KINDS` (every type, registered as it is defined);
* :mod:`.text` (``text``, ``string``, ``person_name``), :mod:`.contacts` (``phone``, ``email``, ``reference``,
  ``address``),
  :mod:`.numbers` (``number``, ``integer``), :mod:`.amounts` (``money``, ``duration``), :mod:`.boolean`,
  :mod:`.categorical`, :mod:`.dates` (``date``, its bounds, open days and closed dates), :mod:`.times` (``time``,
  its hours and the moment it makes with a date);
* :mod:`.catalogue`: every built-in type registered, and the tables the flow format reads from them
  (:data:`SLOT_OPTIONS`, :data:`TEXT_TYPES`, :data:`NUMBER_TYPES`).

The text-level readers the types call (numbers, dates, times, phones ...) are :mod:`fsmdial.language`'s.
Everything public is re-exported here: import from ``fsmdial.slots``. docs/slot-types.md says how to add a type.
"""

from .amounts import AmountKind, Duration, Money
from .boolean import Boolean
from .catalogue import BUILT_IN, NUMBER_TYPES, SLOT_OPTIONS, TEXT_TYPES, bound_words, option_types
from .categorical import Categorical, value_collisions, value_key
from .contacts import Address, Email, FoundKind, Phone, Reference, contact_spans
from .dates import (
    CANONICAL_DATE,
    DATE_BOUND,
    DATE_PATTERN,
    Date,
    closed_date_warnings,
    date_bound,
    inside_dates,
    open_day_words,
    open_on,
)
from .numbers import LARGEST, Integer, Number
from .registry import KINDS, OPTIONS, Exact, InvalidValue, JsonKind, SlotKind, SlotType, describe_pattern, kind_of
from .text import PersonName, String, Text, TextKind, checked_text
from .times import (
    TIME_BOUND,
    TIME_PATTERN,
    Time,
    has_hours,
    hours_words,
    in_hours,
    last_time,
    passed,
    time_words,
    which_reading,
    with_reading_asked,
)

__all__ = [
    "BUILT_IN",
    "CANONICAL_DATE",
    "DATE_BOUND",
    "DATE_PATTERN",
    "KINDS",
    "LARGEST",
    "NUMBER_TYPES",
    "OPTIONS",
    "SLOT_OPTIONS",
    "TEXT_TYPES",
    "TIME_BOUND",
    "TIME_PATTERN",
    "Address",
    "AmountKind",
    "Boolean",
    "Categorical",
    "Date",
    "Duration",
    "Email",
    "Exact",
    "FoundKind",
    "Integer",
    "InvalidValue",
    "JsonKind",
    "Money",
    "Number",
    "PersonName",
    "Phone",
    "Reference",
    "SlotKind",
    "SlotType",
    "String",
    "Text",
    "TextKind",
    "Time",
    "bound_words",
    "checked_text",
    "closed_date_warnings",
    "contact_spans",
    "date_bound",
    "describe_pattern",
    "has_hours",
    "hours_words",
    "in_hours",
    "inside_dates",
    "kind_of",
    "last_time",
    "open_day_words",
    "open_on",
    "option_types",
    "passed",
    "time_words",
    "value_collisions",
    "value_key",
    "which_reading",
    "with_reading_asked",
]
