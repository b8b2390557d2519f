"""Issue 32: one home per slot type. Every name a flow may write (``SlotType``) has one registered type in
:mod:`fsmdial.slots`, and that type answers for all of its parts: how a message says a value (its reader hook),
the normal form it stores, the checks that refuse a value, its bounds, the options a flow may declare on it, the
JSON a value is (in a snapshot and in a flow's condition), whether it is text or a number, and what a model is
offered. Each part is tested through the engine's own path (a dialogue, a snapshot, the flow format), so a type
added to the registry with a part missing fails here.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from fsmdial.errors import FlowError
from fsmdial.flow import Slot, SlotType, bound_names
from fsmdial.language import WEEKDAYS
from fsmdial.loader import load_flow
from fsmdial.runtime import Dialogue
from fsmdial.slots import (
    BUILT_IN,
    KINDS,
    NUMBER_TYPES,
    OPTIONS,
    SLOT_OPTIONS,
    TEXT_TYPES,
    InvalidValue,
    SlotKind,
    bound_words,
    kind_of,
)
from fsmdial.understand.constraint.schema import slot_type
from fsmdial.values import coerce

NOW = dt.datetime(2025, 6, 13, 10, 0)  # a Friday morning

SAMPLES: dict[SlotType, tuple[dict[str, Any], str, Any, str]] = {
    # type: (options, said, stored, refused)
    SlotType.string: ({"max_length": 20}, "a window seat", "a window seat", "a seat by the window please"),
    SlotType.text: ({"max_length": 20}, "a window seat", "a window seat", "a seat by the window please"),
    SlotType.person_name: ({}, "Dana   Lee", "Dana Lee", "1234"),
    SlotType.phone: ({"region": "GB"}, "07700 900 123", "07700900123", "12"),
    SlotType.email: ({}, "dana.lee@example.com", "dana.lee@example.com", "dana at nowhere"),
    SlotType.reference: ({}, "AB1234", "AB1234", "!!"),
    SlotType.address: (
        {},
        "flat 3, 17 albion street, leeds ls15aa",
        "flat 3, 17 albion street, leeds LS1 5AA",
        "Leeds",
    ),
    SlotType.integer: ({"maximum": 20}, "twelve", 12, "2.5"),
    SlotType.number: ({"maximum": 20}, "2.5", 2.5, "a hundred"),
    SlotType.money: ({"currency": "GBP"}, "£25", 25, "25 euros"),
    SlotType.duration: ({"unit": "nights"}, "4 nights", 4, "blue"),
    SlotType.boolean: ({}, "yes", True, "perhaps"),
    SlotType.categorical: ({"values": ["window", "aisle"]}, "window", "window", "middle"),
    SlotType.date: ({"earliest": "today", "open_days": list(WEEKDAYS[:5])}, "next Friday", "2025-06-20", "yesterday"),
    SlotType.time: ({"earliest": "08:00", "latest": "18:00"}, "2pm", "14:00", "9pm"),
}
"""A value said for each type, the value stored (its normal form), and a value the type (or its bounds) refuses."""

WRONG_JSON: dict[str, Any] = {"string": 7, "number": "7", "boolean": "yes"}
"""A JSON value of another kind than each kind a type may store."""


def one_slot_flow(kind: SlotType, **options: Any) -> dict[str, Any]:
    return {
        "name": "one",
        "nodes": [
            {"id": "ask", "type": "request", "slots": [{"name": "s", "type": kind.value, **options}]},
            {"id": "done", "type": "end", "message": "Done."},
        ],
        "edges": [{"source": "ask", "target": "done"}],
    }


def sample_slot(kind: SlotType) -> Slot:
    return Slot(name="s", type=kind, **SAMPLES[kind][0])


def test_every_slot_type_has_one_registered_type() -> None:
    assert list(KINDS) == list(SlotType) == list(SAMPLES)
    assert [type(KINDS[kind]) for kind in SlotType] == list(BUILT_IN)
    for kind, registered in KINDS.items():
        assert registered.type_name is kind and isinstance(registered, SlotKind)


@pytest.mark.parametrize("kind", list(SlotType))
def test_the_type_reads_a_value_from_what_the_user_says(kind: SlotType) -> None:
    # The reader hook, through a dialogue: the rules read the asked slot's value from the reply.
    options, said, stored, _ = SAMPLES[kind]
    registered = KINDS[kind]
    assert (
        registered.read is not None
        or registered.finds
        or registered.whole_text
        or not registered.typed(sample_slot(kind))
    ), "a type is read from one span (read), found in a message (find), the reply's own words, or a closed answer"
    if registered.read is not None:
        assert registered.read(said, NOW) is not None
    if registered.finds:
        assert stored in (registered.find(sample_slot(kind), f"well, it's {said}", NOW) or {}).values()
    dialogue = Dialogue(load_flow(one_slot_flow(kind, **options)), clock=lambda: NOW)
    dialogue.start()
    dialogue.turn(said)
    assert dialogue.slots == {"s": stored}


@pytest.mark.parametrize("kind", list(SlotType))
def test_the_stored_value_is_the_normal_form_and_survives_a_snapshot(kind: SlotType) -> None:
    _, said, stored, _ = SAMPLES[kind]
    s = sample_slot(kind)
    assert coerce(s, said, NOW) == stored
    assert coerce(s, stored, NOW) == stored and coerce(s, stored, NOW, bounds=False) == stored  # stable
    registered = kind_of(s)
    assert registered.stores(stored) and registered.is_json_value(stored)
    assert not registered.stores(WRONG_JSON[registered.json_kind])
    dialogue = Dialogue(load_flow(one_slot_flow(kind, **SAMPLES[kind][0])), clock=lambda: NOW)
    dialogue.start()
    dialogue.adopt_slots({"s": stored})
    again = Dialogue(load_flow(one_slot_flow(kind, **SAMPLES[kind][0])), clock=lambda: NOW)
    again.load_snapshot(dialogue.snapshot())
    assert again.slots == {"s": stored}


@pytest.mark.parametrize("kind", list(SlotType))
def test_the_type_refuses_a_value_it_cannot_store(kind: SlotType) -> None:
    _, _, _, refused = SAMPLES[kind]
    with pytest.raises(InvalidValue) as refusal:
        coerce(sample_slot(kind), refused, NOW)
    assert refusal.value.message
    with pytest.raises(InvalidValue):
        coerce(sample_slot(kind), "   ", NOW)


@pytest.mark.parametrize("kind", list(SlotType))
def test_the_type_says_its_bounds_or_takes_none(kind: SlotType) -> None:
    s = sample_slot(kind)
    words = bound_words(s, NOW)
    if "earliest/latest" in KINDS[kind].options:
        assert set(words) == bound_names(s) != set()  # the bounds it declares, its open days among them
    else:
        assert words == {}
        with pytest.raises(FlowError, match="'earliest'/'latest' only apply to date slots and time slots"):
            load_flow(one_slot_flow(kind, **SAMPLES[kind][0], earliest="2025-01-01"))


@pytest.mark.parametrize("kind", list(SlotType))
def test_the_flow_format_takes_exactly_the_options_the_type_lists(kind: SlotType) -> None:
    registered = KINDS[kind]
    assert registered.options <= set(OPTIONS)
    assert {option for option in OPTIONS if kind in SLOT_OPTIONS[option]} == registered.options
    declared = {
        "values": {"values": ["a", "b"]},
        "minimum/maximum": {"minimum": 1},
        "pattern/max_length": {"max_length": 30},
        "earliest/latest": {"earliest": "2025-01-01" if kind is not SlotType.time else "08:00"},
        "region": {"region": "GB"},
        "currency": {"currency": "GBP"},
        "unit": {"unit": "hours"},
        "not_past_with/lead_minutes": {"lead_minutes": 30},
        "open_days/closed_dates": {"closed_dates": ["2025-12-25"]},
    }
    assert set(declared) == set(OPTIONS)
    for option in OPTIONS:
        given = declared[option] | ({"values": ["a", "b"]} if registered.needs_values else {})
        if option not in registered.options:
            with pytest.raises(FlowError, match="only appl"):
                load_flow(one_slot_flow(kind, **given))
    if registered.needs_values:
        with pytest.raises(FlowError, match="needs a non-empty 'values' list"):
            load_flow(one_slot_flow(kind))


@pytest.mark.parametrize("kind", list(SlotType))
def test_a_flow_compares_the_slot_only_with_values_of_its_json(kind: SlotType) -> None:
    options, _, stored, _ = SAMPLES[kind]
    registered = KINDS[kind]

    def compared_with(value: Any) -> dict[str, Any]:
        doc = one_slot_flow(kind, **options)
        doc["nodes"].append({"id": "other", "type": "end", "message": "Other."})
        doc["edges"] = [
            {"source": "ask", "target": "other", "when": {"slot": "s", "op": "eq", "value": value}},
            {"source": "ask", "target": "done"},
        ]
        return doc

    load_flow(compared_with(stored))
    with pytest.raises(FlowError, match=f"but its values are {registered.value_words}"):
        load_flow(compared_with(WRONG_JSON[registered.json_kind]))


@pytest.mark.parametrize("kind", list(SlotType))
def test_text_and_number_types_are_what_they_say(kind: SlotType) -> None:
    registered = KINDS[kind]
    assert (kind in TEXT_TYPES) is registered.is_text and (kind in NUMBER_TYPES) is registered.is_number
    assert not (registered.is_text and registered.is_number)
    if registered.is_text:
        assert registered.json_kind == "string" and "pattern/max_length" in registered.options
    if registered.is_number:
        assert registered.json_kind == "number" and "minimum/maximum" in registered.options


@pytest.mark.parametrize("kind", list(SlotType))
def test_the_type_tells_a_model_what_to_write(kind: SlotType) -> None:
    s = sample_slot(kind)
    assert kind_of(s).prompt(s)
    assert kind_of(s).model_type(s, lambda pattern, limit: True) is not None
    assert slot_type(s) is not None


def test_defining_a_type_registers_it_once_with_options_the_format_has() -> None:
    before = dict(KINDS)

    class Family(SlotKind):  # no type_name: a family's base, not registered
        def coerce(self, slot: Slot, value: Any, now: dt.datetime, day: dt.date | None, bounds: bool) -> Any:
            return value

        def model_type(self, slot: Slot, exact: Any) -> Any:
            return str

        def prompt(self, slot: Slot) -> str:
            return "anything"

    assert KINDS == before
    with pytest.raises(TypeError, match="options the flow format does not have: \\['colour'\\]"):

        class Coloured(Family):
            type_name = SlotType.text
            options = frozenset({"colour"})

    with pytest.raises(TypeError, match="slot type 'text' is defined twice: Text and Twice"):

        class Twice(Family):
            type_name = SlotType.text

    assert KINDS == before
