"""A categorical value two slots share, said once, is one slot's (rules): the asked one, the one the reply names by a
word of its own, else the one named by no word of its own (:func:`~fsmdial.understand.rules.categories.value_owners`);
the numbers of one message, each for the slot whose name follows it
(:func:`~fsmdial.understand.rules.forms.numbers_by_name`).
"""

from __future__ import annotations

from typing import Any

import pytest

from fsmdial.flow import Slot, SlotType
from fsmdial.runtime import Dialogue
from fsmdial.understand.rules.categories import value_owners
from fsmdial.understand.rules.forms import numbers_by_name

ACCOUNT = Slot(name="account_type", type=SlotType.categorical, values=["checking", "savings"])
RECIPIENT = Slot(name="recipient_account_type", type=SlotType.categorical, values=["checking", "savings"])

TRANSFER_FLOW: dict[str, Any] = {
    "name": "transfer",
    "description": "Move money between accounts.",
    "nodes": [
        {
            "id": "ask",
            "type": "request",
            "slots": [
                {"name": "account_type", "type": "categorical", "values": ["checking", "savings"]},
                {"name": "recipient_account_type", "type": "categorical", "values": ["checking", "savings"]},
            ],
        },
        {"id": "bye", "type": "end", "message": "Done."},
    ],
    "edges": [{"source": "ask", "target": "bye"}],
    "start": "ask",
}


@pytest.mark.parametrize(
    ("asked", "said", "owners"),
    [
        (None, "what's in my savings account?", ["account_type"]),  # the plain one
        (None, "send it to the recipient's savings", ["recipient_account_type"]),  # named by its own word
        ("recipient_account_type", "savings", ["recipient_account_type"]),  # the asked one
    ],
)
def test_a_shared_value_said_once_goes_to_one_slot(asked: str | None, said: str, owners: list[str]):
    slots = [ACCOUNT, RECIPIENT]
    asked_slot = next((slot for slot in slots if slot.name == asked), None)
    assert [slot.name for slot in value_owners(slots, asked_slot, said)] == owners


def test_an_unshared_value_keeps_its_one_slot():
    assert value_owners([ACCOUNT], None, "savings") == [ACCOUNT]


def test_the_balance_of_my_savings_account_fills_the_account_not_the_recipients():
    dialogue = Dialogue(TRANSFER_FLOW, stand_in_tools=True)
    dialogue.turn("Can you check the balance of my savings account?")
    assert dialogue.slots == {"account_type": "savings"}


HOTEL_FLOW: dict[str, Any] = {
    "name": "hotel_rooms",
    "description": "Book hotel rooms.",
    "nodes": [
        {
            "id": "ask",
            "type": "request",
            "slots": [
                {"name": "city", "type": "string", "description": "City of the hotel"},
                {"name": "number_of_rooms", "type": "integer", "minimum": 1, "maximum": 3, "description": "Rooms"},
                {"name": "star_rating", "type": "integer", "minimum": 1, "maximum": 5, "description": "Of the hotel"},
            ],
        },
        {"id": "bye", "type": "end", "message": "Done."},
    ],
    "edges": [{"source": "ask", "target": "bye"}],
    "start": "ask",
}


@pytest.mark.parametrize(
    ("said", "numbers"),
    [
        ("I'm looking for 2 hotel rooms at a 3 star hotel.", {"number_of_rooms": 2, "star_rating": 3}),
        ("a three star hotel please. I need 2 rooms.", {"star_rating": 3, "number_of_rooms": 2}),
    ],
)
def test_each_number_goes_to_the_slot_whose_name_follows_it(said: str, numbers: dict[str, int]):
    slots = [Slot(name="number_of_rooms", type=SlotType.integer), Slot(name="star_rating", type=SlotType.integer)]
    assert numbers_by_name(slots, said) == numbers
    dialogue = Dialogue(HOTEL_FLOW, stand_in_tools=True)
    dialogue.turn(said)
    assert {name: dialogue.slots[name] for name in numbers} == numbers
