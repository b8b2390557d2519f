"""Round 17's classes, each a general mechanism, tested on wordings of its own on a small garden-furniture flow:

- a categorical slot may have one value for several of its others ("mixed pieces", "bench and gazebo"): several of
  its values named together are that value, unless the words set them against each other ("or", "instead");
- a list of pieces answering "which pieces?" keeps a proposed "several" value (it names several, it changes none);
- a list of things goes on past an item said without an article ("a gazebo, bench and two planters"), and its count
  is of the things each with an article or a number;
- a number before a value named by its own name counts it ("two sets of shelves": the head noun in the plural);
- "one for each of ..." shares a count out and is no count of its own;
- "lower flat", "garden flat" open an address like "Flat 2";
- "as early as you can do" is the earliest time, as "as early as possible" is;

and on a small paddleboard-hire flow:

- a yes or no said first is not contradicted by a later clause that denies something else ("yes please, I don't have
  a car to take it away"), and a short first clause may end in it ("two kids yes, 7 and 11");
- "just the hour" is one hour; a bare number inside other words ("quarter past ten") or a run of digits (a phone) is
  no length refused by the bounds, while a bare number said alone is ("10" to "one to three hours?");
- two numbers said as a range to a count's question are counts, no clock time, and "can I say 6" settles the count;
- "my other half", "the missus" are companions a party counts;
- a "one" after "the" stands for a thing even beside a count ("2 boards, I forgot the one for my son": 2).
"""

from __future__ import annotations

from typing import Any

import pytest

from fsmdial.language.addresses import address_value
from fsmdial.language.sentences import taken_as
from fsmdial.language.times import read_clock
from fsmdial.loader import load_flow
from fsmdial.runtime import Dialogue
from fsmdial.understand.rules.categories import aggregate_value, found_value
from fsmdial.understand.rules.proposals import disputed_proposal
from tests.flows import played

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
    return played(GARDEN, NOW, *said)


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


PADDLE: dict[str, Any] = {
    "name": "paddleboard_hire",
    "description": "Hire paddleboards by the hour.",
    "examples": ["I'd like to hire a paddleboard"],
    "nodes": [
        {
            "id": "ask",
            "type": "request",
            "slots": [
                {
                    "name": "boards",
                    "type": "integer",
                    "minimum": 1,
                    "maximum": 8,
                    "description": "How many boards, one per person",
                    "label": "number of boards",
                    "ask": "How many boards?",
                },
                {
                    "name": "people",
                    "type": "integer",
                    "minimum": 1,
                    "maximum": 8,
                    "description": "How many people are coming",
                    "label": "number of people",
                    "ask": "How many people are coming?",
                },
                {
                    "name": "hours",
                    "type": "duration",
                    "unit": "hours",
                    "minimum": 1,
                    "maximum": 3,
                    "label": "length of hire",
                    "ask": "How long would you like them for? We do one to three hours.",
                    "invalid": "We hire for one to three hours. How long would you like?",
                },
                {"name": "start", "type": "time", "earliest": "09:00", "latest": "18:00", "ask": "What time?"},
                {
                    "name": "children",
                    "type": "boolean",
                    "description": "Whether any children under 16 are coming",
                    "ask": "Will any children under 16 be coming?",
                },
                {
                    "name": "wetsuit_return",
                    "type": "boolean",
                    "description": "Whether we collect the wetsuits from the beach afterwards (otherwise the "
                    "customer brings them back to the shop)",
                    "ask": "Shall we collect the wetsuits from the beach afterwards, or will you bring them back?",
                },
                {"name": "phone", "type": "phone", "ask": "And a mobile number?"},
            ],
        },
        {"id": "confirm", "type": "inform_and_confirm", "message": "{boards} boards.", "question": "Book it?"},
        {"id": "done", "type": "end", "message": "Booked."},
    ],
    "edges": [
        {"source": "ask", "target": "confirm"},
        {"source": "confirm", "target": "done", "when": {"answer": "yes"}},
    ],
}


def _paddle(*said: str) -> Dialogue:
    return played(PADDLE, NOW, *said)


def _answering(slot: str, words: str) -> Any:
    """The value ``words`` give ``slot`` when its question is asked (the slots before it answered)."""
    before = {
        "boards": [],
        "people": ["2"],
        "hours": ["2", "2"],
        "children": ["2", "2", "2 hours", "10am"],
        "wetsuit_return": ["2", "2", "2 hours", "10am", "no"],
    }[slot]
    dialogue = _paddle(*before)
    assert dialogue.session.asked == slot
    dialogue.turn(words)
    return dialogue.slots.get(slot)


@pytest.mark.parametrize(
    ("said", "value"),
    [
        ("yes please, I don't have a car to bring them back", True),
        ("no, we'll bring them back ourselves", False),
    ],
)
def test_a_denial_after_a_yes_is_the_reason_not_the_answer(said, value):
    assert _answering("wetsuit_return", said) is value


@pytest.mark.parametrize(
    ("said", "value"), [("two kids yes, 8 and 12", True), ("just grown ups no, all adults", False)]
)
def test_a_short_first_clause_may_end_in_the_yes_or_no(said, value):
    assert _answering("children", said) is value


def test_just_the_hour_is_one_hour():
    assert _answering("hours", "just the hour") == 1


def test_a_clock_time_or_a_phone_is_no_length_refused():
    dialogue = _paddle("2", "2", "quarter past ten")
    assert dialogue.slots["start"] == "10:15"
    assert dialogue.session.asked == "hours"  # asked again, with no "one to three hours" refusal
    assert "one to three" not in dialogue.turn("07700 900123").text.split("\n")[0]


def test_a_bare_number_said_alone_is_refused_by_the_bounds():
    assert "We hire for one to three hours" in _paddle("2", "2").turn("10").text


def test_a_range_to_a_count_question_is_no_clock_time():
    dialogue = _paddle("not sure yet, somewhere between 3 and 5. can I say 5 and change it later?")
    assert dialogue.slots["boards"] == 5
    assert "start" not in dialogue.slots


@pytest.mark.parametrize(
    ("said", "count"),
    [("me and my other half", 2), ("me, the missus and our three lads", 5), ("me and my better half", 2)],
)
def test_partners_named_in_other_words_count(said, count):
    assert _answering("people", said) == count


def test_the_one_beside_a_count_stands_for_a_thing():
    dialogue = _paddle("3", "3", "2 hours", "10am", "no", "yes", "07700 900123")
    dialogue.turn("oh sorry, it's actually 4 boards, I forgot the one for my son")
    assert dialogue.slots["boards"] == 4
