"""An ``address`` slot in a conversation (issue 34, item 2): the rules read the address first and no other reader sees
its words (its house number is no time, count or reference), and a model is offered only its spans.

The flow is a small airport transfer whose first question is the pickup address, as in the issue's findings: "8
Meadow Lane, Amersham" gave a pickup time of 08:00, "actually the address is 12 Elm Street, not 21" stored the
whole sentence and 12 passengers, and the opening request was stored as the address.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from fsmdial.loader import load_flow
from fsmdial.runtime import Dialogue
from fsmdial.understand.constraint.schema import standing, turn_schema
from fsmdial.understand.rules import RulesUnderstander

NOW = dt.datetime(2026, 11, 23, 10, 0)


def airport_transfer(address_type: str = "address", **extra: Any) -> dict[str, Any]:
    return {
        "name": "airport_transfer",
        "description": "Book a car to the airport: the pickup address, the pickup time, how many passengers and the "
        "name; confirm, then book.",
        "examples": ["I'd like to book an airport transfer", "I need a taxi to the airport"],
        "nodes": [
            {
                "id": "take_booking",
                "type": "request",
                "slots": [
                    {
                        "name": "pickup_address",
                        "type": address_type,
                        "description": "Where to pick the passengers up",
                        "label": "pickup address",
                        "ask": "What is the pickup address?",
                        "act": "ask_address",
                    },
                    {
                        "name": "pickup_time",
                        "type": "time",
                        "description": "Time of the pickup",
                        "label": "pickup time",
                        "ask": "What time should we pick you up?",
                        "act": "ask_time",
                    },
                    {
                        "name": "passengers",
                        "type": "integer",
                        "minimum": 1,
                        "maximum": 8,
                        "description": "Number of passengers",
                        "label": "number of passengers",
                        "ask": "How many passengers?",
                        "act": "ask_passengers",
                    },
                    {
                        "name": "customer_name",
                        "type": "person_name",
                        "description": "Name of the person booking",
                        "label": "name",
                        "ask": "What name is the booking under?",
                        "act": "ask_name",
                    },
                    *extra.get("slots", []),
                ],
            },
            {
                "id": "confirm",
                "type": "inform_and_confirm",
                "message": "A car from {pickup_address} at {pickup_time} for {passengers}, booked for {customer_name}.",
                "question": "Shall I book it?",
            },
            {
                "id": "book",
                "type": "external_action",
                "tool": "book_transfer",
                "commits": True,
                "arguments": {
                    "pickup_address": "pickup_address",
                    "pickup_time": "pickup_time",
                    "passengers": "passengers",
                    "customer_name": "customer_name",
                },
            },
            {"id": "done", "type": "end", "message": "Booked."},
        ],
        "edges": [
            {"source": "take_booking", "target": "confirm"},
            {"source": "confirm", "target": "book", "when": {"answer": "yes"}},
            {"source": "book", "target": "done"},
        ],
    }


def play(*turns: str, address_type: str = "address") -> Dialogue:
    dialogue = Dialogue(load_flow(airport_transfer(address_type)), stand_in_tools=True, clock=lambda: NOW)
    dialogue.start()
    for text in turns:
        dialogue.turn(text)
    return dialogue


# ------------------------------------------------------------------ the findings, in a conversation


def test_the_address_asked_first_is_the_address_and_no_time():
    dialogue = play("8 Meadow Lane, Amersham")
    assert dict(dialogue.slots) == {"pickup_address": "8 Meadow Lane, Amersham"}


def test_the_opening_request_at_the_address_question_stores_nothing_and_asks_again():
    dialogue = Dialogue(load_flow(airport_transfer()), stand_in_tools=True, clock=lambda: NOW)
    dialogue.start()
    result = dialogue.turn("I'd like to book an airport transfer please")
    assert dict(dialogue.slots) == {}
    assert result.messages[-1] == "What is the pickup address?"


@pytest.mark.parametrize(
    "said",
    [
        "I'd like to book an airport transfer please",
        "hi, I need a taxi to Heathrow tomorrow",
        "can you book me a car to the airport?",
        "I want to go to Gatwick on Friday at 6am",
        "I don't know the address",
        "not sure, it's my friend's place",
        "how much is it to Heathrow Terminal 5?",
        "book a transfer for 3 people",
        "my flight is BA 2490 at 9:40 from Terminal 2",
        "pick up from the Hilton please",
        "the way you book is confusing",
        "I'll be at Park Lane station",
    ],
)
def test_an_opening_request_or_a_give_up_is_never_the_address(said):
    assert "pickup_address" not in play(said).slots


@pytest.mark.parametrize("asked_after", [(), ("7pm",), ("7pm", "2"), ("7pm", "2", "Dana Lee")])
def test_an_address_put_in_place_of_another_stores_it_and_touches_no_number(asked_after):
    before = play("21 Elm Street", *asked_after)
    held = dict(before.slots)
    before.turn("actually the address is 12 Elm Street, not 21")
    assert dict(before.slots) == {**held, "pickup_address": "12 Elm Street"}


def test_the_whole_booking_commits_the_address_as_said_and_tidied():
    dialogue = play("pick me up from flat 3, 17 albion street, leeds ls15aa please", "7pm", "2", "Dana Lee", "yes")
    assert dialogue.slots["pickup_address"] == "flat 3, 17 albion street, leeds LS1 5AA"
    assert dialogue.slots["pickup_time"] == "19:00" and dialogue.slots["passengers"] == 2
    assert dialogue.node == "done"


def test_an_address_with_the_other_values_in_one_message_keeps_each_its_own():
    kept = dict(play("pick me up from 8 Meadow Lane, Amersham at 7pm, 3 of us").slots)
    assert kept == {"pickup_address": "8 Meadow Lane, Amersham", "pickup_time": "19:00", "passengers": 3}


def test_an_address_said_at_another_question_is_no_value_of_that_question():
    # "8" of "8 Meadow Lane" is no time at the time question, and no number of passengers at that question.
    assert dict(play("12 Elm Street", "8 Meadow Lane").slots) == {"pickup_address": "12 Elm Street"}
    assert "passengers" not in play("12 Elm Street", "7pm", "8 Meadow Lane").slots


def test_an_address_with_its_cue_words_goes_to_the_address_slot_when_not_asked():
    kept = dict(play("12 Elm Street", "7pm, and actually pick me up from 8 Meadow Lane, Amersham").slots)
    assert kept == {"pickup_address": "8 Meadow Lane, Amersham", "pickup_time": "19:00"}


@pytest.mark.parametrize(
    "said",
    [
        ("no, it's 9 Meadow Lane",),
        ("no, the address is 9 Meadow Lane",),
        ("no", "9 Meadow Lane, Amersham"),  # at "What would you like to change?": a whole address
        ("change the address to 9 Meadow Lane",),
    ],
)
def test_an_address_changed_at_the_confirmation_is_taken(said):
    dialogue = play("8 Meadow Lane", "7pm", "2", "Dana Lee", *said)
    assert dialogue.slots["pickup_address"].startswith("9 Meadow Lane") and dialogue.node == "confirm"
    assert dialogue.slots["passengers"] == 2 and dialogue.slots["pickup_time"] == "19:00"


def test_a_free_text_address_slot_is_unchanged():
    # A flow that keeps "text" for its address keeps the reply's own words (the held-out flows do).
    assert play("8 Meadow Lane, Amersham", address_type="text").slots["pickup_address"] == "8 Meadow Lane, Amersham"


def test_a_reference_slot_takes_no_house_number():
    flow = airport_transfer(slots=[{"name": "booking_ref", "type": "reference", "required": False}])
    dialogue = Dialogue(load_flow(flow), stand_in_tools=True, clock=lambda: NOW)
    dialogue.start()
    dialogue.turn("my booking reference is AB1234, pick me up from 221B Baker Street")
    assert dialogue.slots["pickup_address"] == "221B Baker Street" and dialogue.slots["booking_ref"] == "AB1234"


# ------------------------------------------------------------------ the model path: grounded spans, barred words


def state_at(*turns: str):
    return play(*turns).understanding_state()


def test_a_model_is_offered_the_address_spans_with_their_normal_form():
    schema = turn_schema(state_at(), "actually the address is 12 Elm Street, not 21", NOW)
    # The clause with a "not" is left out of what a model reads values from, as the rules leave it.
    assert schema.values["pickup_address"] == {"the address is 12 Elm Street": "12 Elm Street"}
    assert "passengers" not in schema.values and "pickup_time" not in schema.values
    assert turn_schema(state_at(), "I'd like to book an airport transfer please", NOW).values == {}


def test_a_model_may_not_take_a_word_of_an_address_for_another_slot():
    at_time = state_at("12 Elm Street")
    alone = turn_schema(at_time, "8 Meadow Lane", NOW)
    assert alone.values == {"pickup_address": {"8 Meadow Lane": "8 Meadow Lane"}}  # no 8:00, no 8 passengers
    both = turn_schema(at_time, "pick me up from 8 Meadow Lane at 7pm", NOW)
    assert both.values["pickup_time"] == {"7pm": "19:00"}
    assert "customer_name" not in both.text_slots


def test_beside_the_rules_the_model_adds_nothing_to_the_address_they_read():
    state = state_at()
    text = "8 Meadow Lane, Amersham"
    settled = standing(RulesUnderstander(), state, text, (), NOW)
    assert settled.slots == {"pickup_address": "8 Meadow Lane, Amersham"}
    assert turn_schema(state, text, NOW, settled=settled).values == {}
