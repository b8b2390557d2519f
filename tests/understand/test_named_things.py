"""Things named in the reply to "what kind of job?" answer the flow's later questions about those things (round 11:
"I need a wardrobe and a chest of drawers collected please" was asked "What are the items?" and "how many?" again,
and the customer, having said them, answered the next question instead)."""

from __future__ import annotations

from typing import Any

import pytest

from fsmdial.loader import load_flow
from fsmdial.runtime import Dialogue
from fsmdial.testing import FrozenClock

KIND = {
    "name": "goods",
    "type": "categorical",
    "values": ["furniture", "electricals"],
    "description": "What is being moved (furniture: sofa, table, chairs, bookcase, bed; electricals: fridge, TV, oven)",
    "ask": "What are we moving?",
}
THINGS = {"name": "things", "type": "text", "description": "What the things are", "ask": "Which things exactly?"}
COUNT = {"name": "number_of_things", "type": "integer", "minimum": 1, "maximum": 30, "ask": "How many things?"}
WHEN = {"name": "day", "type": "date", "ask": "Which day?"}


def _moves() -> Any:
    return load_flow(
        {
            "name": "removals",
            "nodes": [
                {"id": "kind", "type": "request", "slots": [KIND]},
                {"id": "what", "type": "request", "slots": [THINGS, COUNT]},
                {"id": "when", "type": "request", "slots": [WHEN]},
                {"id": "done", "type": "end", "message": "Thanks."},
            ],
            "edges": [
                {"source": "kind", "target": "what"},
                {"source": "what", "target": "when"},
                {"source": "when", "target": "done"},
            ],
        }
    )


def _said(first: str, *more: str) -> Dialogue:
    dialogue = Dialogue(_moves(), stand_in_tools=True, clock=FrozenClock("2027-02-01T09:00"))
    dialogue.start()
    for said in (first, *more):
        dialogue.turn(said)
    return dialogue


@pytest.mark.parametrize(
    ("first", "things", "count"),
    [
        ("hi, could you shift a sofa, a bookcase and two chairs for me", "a sofa, a bookcase and two chairs", 4),
        ("we've got an old oven with the fridge to move", "an old oven with the fridge", 2),
        ("my TV's too heavy for me, can you move it", "my TV", 1),
        ("a few chairs and a table please", "a few chairs and a table", None),  # "a few": how many is asked
    ],
)
def test_things_named_in_reply_to_the_kind_answer_what_and_how_many(first: str, things: str, count: int | None):
    dialogue = _said(first)
    assert dialogue.slots.get("things") == things
    assert dialogue.slots.get("number_of_things") == count


def test_only_the_reply_to_the_kind_names_things():
    dialogue = _said("some furniture please")  # the kind's own name is no thing
    assert "things" not in dialogue.slots
    dialogue = _said("furniture", "a sofa and a table", "2", "it's the flat above the sofa shop")
    assert dialogue.slots["things"] == "a sofa and a table"  # a later mention changes nothing


@pytest.mark.parametrize(
    ("answer", "count"),
    [
        ("a bed, two bookcases and the sofa", 4),
        ("a table with six chairs, so 7 things", 7),
        ("a table with six chairs, so 8 things", None),  # the two counts disagree: asked
        ("in the back bedroom, upstairs", None),  # no thing the kinds list (round 11: counted as one)
    ],
)
def test_the_list_answering_which_things_counts_them(answer: str, count: int | None):
    dialogue = _said("furniture", answer)
    assert dialogue.slots["things"] == answer
    assert dialogue.slots.get("number_of_things") == count
