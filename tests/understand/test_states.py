"""At each state, the understanding schema admits exactly what makes sense there (so a model is constrained to it)."""

from __future__ import annotations

import pytest

from fsmdial.assistant import Assistant
from fsmdial.loader import load_flow
from fsmdial.runtime import Dialogue
from tests import example_tools
from tests.conftest import FLOWS

schema_module = pytest.importorskip("fsmdial.understand.constraint.schema")


def dialogue_at(flow_file, turns, clock):
    dialogue = Dialogue(load_flow(FLOWS / flow_file), tools=example_tools.registry, clock=clock)
    dialogue.start()
    for text in turns:
        dialogue.turn(text)
    return dialogue


def schema_of(dialogue):
    return schema_module.state_schema(dialogue.understanding_state()).json_schema


def enum_of(schema, field):
    prop = schema["properties"][field]
    if "$ref" in prop:
        prop = schema["$defs"][prop["$ref"].split("/")[-1]]
    return set(prop["enum"]) if "enum" in prop else {prop["const"]}


def slot_props(schema):
    ref = schema["properties"]["slots"]["$ref"].split("/")[-1]
    return schema["$defs"][ref]["properties"]


def test_while_a_slot_is_asked(clock):
    schema = schema_of(dialogue_at("restaurant_booking.json", [], clock))
    assert enum_of(schema, "intent") == {"hello", "opening_hours", "goodbye", "decline", "continue", "none"}
    assert "answer" not in schema["properties"] and "choice" not in schema["properties"]
    props = slot_props(schema)
    assert set(props) == {"name", "party_size", "date", "time", "seating"}
    assert props["seating"]["enum"] == ["indoor", "terrace"]
    assert (props["party_size"]["minimum"], props["party_size"]["maximum"]) == (1, 20)
    assert props["name"]["maxLength"] == 60


def test_while_a_confirmation_is_pending(clock):
    schema = schema_of(dialogue_at("restaurant_booking.json", ["Alex", "2", "tomorrow", "7pm"], clock))
    assert enum_of(schema, "answer") == {"yes", "no", "other"}
    assert "decline" not in enum_of(schema, "intent")  # nothing is asked that could be declined
    assert set(slot_props(schema)) == {"name", "party_size", "date", "time", "seating"}  # corrections stay possible


def test_field_confirmation_has_an_answer(clock):
    dialogue = dialogue_at("card_activation.json", ["1234", "1990-03-12", "yes", "4321"], clock)
    state = dialogue.understanding_state()
    assert state.confirm_slot == "new_pin"
    assert enum_of(schema_of(dialogue), "answer") == {"yes", "no", "other"}


def test_sop_question_classifies_into_its_user_states():
    dialogue = Dialogue(load_flow(FLOWS / "card_activation.sop.json"))
    dialogue.start()
    schema = schema_of(dialogue)
    assert enum_of(schema, "choice") == {"IsCardholder", "NotCardholder", "none"}
    dialogue.turn("yes it's mine")
    assert enum_of(schema_of(dialogue), "choice") == {"Agrees", "Declines", "HasDoubts", "none"}


def test_when_the_flow_is_over_nothing_is_asked(clock):
    dialogue = dialogue_at("ride_change.json", ["Jane", "102", "new pickup time"], clock)
    schema = schema_of(dialogue)
    assert "answer" not in schema["properties"]
    # after the end only a goodbye is understood: no global action, no slot (nothing may move any more)
    assert enum_of(schema, "intent") == {"goodbye", "none"}
    assert dialogue.understanding_state().slots == ()


def test_an_assistant_offers_the_other_flows_as_intents(clock):
    bot = Assistant(
        [load_flow(FLOWS / "restaurant_booking.json"), load_flow(FLOWS / "ride_change.json")],
        tools=example_tools.registry,
        clock=clock,
    )
    bot.turn("book a table")
    schema = schema_of(bot.dialogues["restaurant_booking"])
    assert "switch_to_ride_change" in enum_of(schema, "intent")
    assert "switch_to_restaurant_booking" not in enum_of(schema, "intent")
