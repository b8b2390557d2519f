"""Round 17's classes, each a general mechanism, tested on wordings of its own on a small garden-furniture flow:

- a categorical slot may have one value for several of its others ("mixed pieces", "bench and gazebo"): several of
  its values named together are that value, unless the words set them against each other ("or", "instead");
- a list of pieces answering "which pieces?" keeps a proposed "several" value (it names several, it changes none);
- a list of things goes on past an item said without an article ("a gazebo, bench and two planters"), and its count
  is of the things each with an article or a number;
- a number before a value named by its own name counts it ("two sets of shelves": the head noun in the plural);
- "one for each of ..." shares a count out and is no count of its own;
- "lower flat", "garden flat" open an address like "Flat 2";
- "as early as you can do" is the earliest time, as "as early as possible" is.
"""

from __future__ import annotations

from typing import Any

import pytest

from fsmdial.language.addresses import address_value
from fsmdial.language.sentences import taken_as
from fsmdial.language.times import read_clock
from fsmdial.loader import load_flow
from fsmdial.runtime import Dialogue
from fsmdial.testing import FrozenClock
from fsmdial.understand.rules.categories import aggregate_value, found_value
from fsmdial.understand.rules.proposals import disputed_proposal

GARDEN: dict[str, Any] = {
    "name": "garden_furniture",
    "description": "Book a fitter to put up garden furniture.",
    "examples": ["I need a gazebo putting up"],
    "nodes": [
        {
            "id": "ask_piece",
            "type": "request",
            "slots": [
                {
                    "name": "piece",
                    "type": "categorical",
                    "values": ["gazebo", "bench", "set of shelves", "mixed pieces"],
                    "description": "What is put up (gazebo: pergola, canopy; bench: garden bench, love seat; set "
                    "of shelves: potting shelves, plant stand; mixed pieces: a bit of everything, a patio set)",
                    "label": "furniture",
                    "ask": "A gazebo, a bench, a set of shelves, or mixed pieces?",
                }
            ],
        },
        {
            "id": "ask_count",
            "type": "request",
            "slots": [
                {
                    "name": "pieces",
                    "type": "integer",
                    "minimum": 1,
                    "maximum": 9,
                    "description": "How many of that piece",
                    "label": "number of pieces",
                    "ask": "How many of them?",
                }
            ],
        },
        {
            "id": "ask_list",
            "type": "request",
            "slots": [
                {
                    "name": "pieces_list",
                    "type": "text",
                    "description": "Which pieces, in the customer's words",
                    "label": "list of pieces",
                    "ask": "Which pieces are they?",
                }
            ],
        },
        {
            "id": "ask_rest",
            "type": "request",
            "slots": [
                {"name": "address", "type": "address", "ask": "What's the address?"},
                {
                    "name": "arrival",
                    "type": "time",
                    "earliest": "08:00",
                    "latest": "16:00",
                    "ask": "What time should the fitter arrive?",
                },
            ],
        },
        {"id": "confirm", "type": "inform_and_confirm", "message": "{piece} at {address}.", "question": "Book it?"},
        {"id": "done", "type": "end", "message": "Booked."},
    ],
    "edges": [
        {"source": "ask_piece", "target": "ask_list", "when": {"slot": "piece", "op": "eq", "value": "mixed pieces"}},
        {"source": "ask_piece", "target": "ask_count"},
        {"source": "ask_count", "target": "ask_rest"},
        {"source": "ask_list", "target": "ask_rest"},
        {"source": "ask_rest", "target": "confirm"},
        {"source": "confirm", "target": "done", "when": {"answer": "yes"}},
    ],
}
NOW = "2027-05-03T08:00"  # a Monday
PIECES = ("gazebo", "bench", "set of shelves", "mixed pieces")


def _dialogue(*said: str) -> Dialogue:
    dialogue = Dialogue(load_flow(GARDEN), stand_in_tools=True, clock=FrozenClock(NOW))
    dialogue.start()
    for words in said:
        dialogue.turn(words)
    return dialogue


@pytest.mark.parametrize(
    ("values", "whole"),
    [
        (PIECES, "mixed pieces"),  # its own words say several
        (("massage", "facial", "massage and facial"), "massage and facial"),  # it joins two others
        (("small", "large", "several sizes", "mixed"), None),  # two such values: none is the one
        (("gazebo", "bench"), None),
    ],
)
def test_the_value_for_several_of_the_others(values, whole):
    assert aggregate_value(values) == whole


@pytest.mark.parametrize(
    ("said", "value"),
    [
        ("a gazebo, a garden bench and some potting shelves", "mixed pieces"),
        ("both please, the massage and the facial", "massage and facial"),
        ("the massage or the facial, whichever is free", None),  # a choice offered, not both
        ("the facial instead of the massage", None),  # a change, not both
        ("just the facial", "facial"),
    ],
)
def test_several_values_named_together_are_the_value_for_several(said, value):
    values = PIECES if "gazebo" in said else ("massage", "facial", "massage and facial")
    assert found_value(values, said) == value


def test_an_opening_naming_several_pieces_takes_the_several_branch():
    dialogue = _dialogue("hi, I need a pergola, a love seat and some potting shelves putting up")
    assert dialogue.slots["piece"] == "mixed pieces"
    assert "pieces" not in dialogue.slots  # no count of one kind of piece


def test_a_list_answering_which_pieces_keeps_the_proposed_several():
    piece = load_flow(GARDEN).nodes[0].slots[0]
    history = [("user", "we've a whole patio's worth"), ("bot", taken_as("furniture", "mixed pieces"))]
    assert disputed_proposal([piece], history, "a garden bench, a canopy and a plant stand") == {}
    assert disputed_proposal([piece], history, "no, it's just the one garden bench") == {"piece": "bench"}


def test_a_listed_thing_without_an_article_is_still_listed():
    dialogue = _dialogue("we need a patio set, bench, gazebo and two planters, Tuesday please")
    assert dialogue.slots["pieces_list"] == "a patio set, bench, gazebo and two planters"


def test_a_count_before_a_value_named_in_the_plural():
    assert _dialogue("could someone put up two sets of shelves for me").slots["pieces"] == 2


@pytest.mark.parametrize(
    ("said", "count"),
    [("3 of them, one for each of the grandchildren", 3), ("two, one in each corner", 2), ("4, one per bed", 4)],
)
def test_one_for_each_is_no_count(said, count):
    assert _dialogue("garden benches please", said).slots["pieces"] == count


@pytest.mark.parametrize("flat", ["Lower flat", "Garden flat", "Top flat", "Upper maisonette"])
def test_a_flat_named_by_where_it_is_opens_the_address(flat):
    said = f"{flat}, 12 Mill Lane, Leeds LS6 2AB"
    assert address_value(said) == said


@pytest.mark.parametrize("said", ["as early as you can do", "as early as they can manage", "as early as you could"])
def test_as_early_as_you_can_do_is_the_earliest_time(said):
    assert read_clock(said) == "first thing (the earliest)"
