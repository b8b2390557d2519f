"""Two readings of the text-value round kept to their class (found on STAR dev after the merge): a don't-know is a
don't-know except at a question that asks for a description, and a name that is a value of a slot of names (a ride
flow's driver names) is still a name."""

from __future__ import annotations

from fsmdial.flow import Slot
from fsmdial.loader import load_flow
from fsmdial.runtime import Dialogue
from fsmdial.understand.rules.text_values import descriptive


def test_a_slot_asks_for_a_description_by_its_words() -> None:
    assert descriptive(Slot(name="problem", type="text"))
    assert descriptive(Slot(name="change_description", type="text"))
    assert descriptive(Slot(name="fraud_report", type="text", description="Detailed description of the fraud"))
    assert not descriptive(Slot(name="account_number", type="string"))
    assert not descriptive(Slot(name="mothers_maiden_name", type="text", description="Mother's maiden name"))


def test_a_dont_know_with_an_explanation_to_a_number_question_is_no_value() -> None:
    flow = {
        "name": "bank",
        "nodes": [
            {
                "id": "ask",
                "type": "request",
                "slots": [
                    {"name": "account_number", "type": "string", "ask": "What is your account number?"},
                    {"name": "problem", "type": "text", "ask": "What is the problem?"},
                ],
            },
            {"id": "done", "type": "end", "message": "Thanks."},
        ],
        "edges": [{"source": "ask", "target": "done"}],
    }
    dialogue = Dialogue(load_flow(flow), stand_in_tools=True)
    dialogue.start()
    dialogue.turn("I have no idea. There are too many numbers to remember!")
    assert "account_number" not in dialogue.slots  # a don't-know, not the account number
    dialogue.turn("12345678")
    dialogue.turn("not sure really, a sort of knocking from underneath")
    assert dialogue.slots["problem"] == "not sure really, a sort of knocking from underneath"


def test_a_name_that_is_a_value_of_a_slot_of_names_is_still_the_customers_name() -> None:
    # The ride flow lists its drivers by name (categorical): "Mark" is a driver's name and the customer's too.
    flow = {
        "name": "ride",
        "nodes": [
            {
                "id": "ask",
                "type": "request",
                "slots": [
                    {"name": "name", "type": "person_name", "ask": "May I have your name, please?"},
                    {"name": "driver_name", "type": "categorical", "values": ["Mark", "Ella"], "required": False},
                    {"name": "bike", "type": "categorical", "values": ["city", "road"]},
                ],
            },
            {"id": "done", "type": "end", "message": "Thanks, {name}."},
        ],
        "edges": [{"source": "ask", "target": "done"}],
    }
    dialogue = Dialogue(load_flow(flow), stand_in_tools=True)
    dialogue.start()
    dialogue.turn("city")  # a value of a slot of things is no one's name: asked again
    assert "name" not in dialogue.slots
    dialogue.turn("Mark")
    assert dialogue.slots["name"] == "Mark"


def test_a_clause_ending_in_a_verb_and_it_is_no_question_tag() -> None:
    from fsmdial.language import read_acts

    # "I don't have it" (an account number) refuses; it asks nothing, so the flow's decline takes it.
    assert not read_acts("I don't have it").question
    assert not read_acts("we can do it").question
    assert read_acts("terrible weather today isn't it").question
    assert read_acts("nice, isn't it?").question
