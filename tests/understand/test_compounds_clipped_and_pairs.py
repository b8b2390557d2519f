"""Round 25's classes, each a general mechanism, tested on wordings of their own on a small beauty-salon flow and a
tyre-and-exhaust flow:

- a value written whole right after a word of another value, where one of that value's listed forms ends in it
  ("a shellac facial", where the description lists "gel facial" and "shellac" for the deluxe one), is that value;
- a clipped word the customer uses for a value ("a pedi", "a facial and a mani") is the one value of at least eight
  letters it starts, when it ends in a vowel as clipped words do; "down" is no "downpipe";
- beside the speaker in a listed party, a number of one's own is that many people ("me and my two bridesmaids");
- "both" to "how many?", and "both back ones", "both my X" where X names the count, are two;
- a unit on a business park, with no street word but its postcode, is an address ("Unit 4, Aztec West, ...");
- to a yes/no just asked, a reply that starts by saying there is none ("nothing on at the moment", "neither of us")
  is a no; not at a summary ("nothing, I've changed my mind");
- "let me just check Friday's ok for her" at a summary is a pause (the summary and its question again), its "check"
  is no value, and "yes she says that's fine, book it" is a plain yes.
"""

from __future__ import annotations

from typing import Any

import pytest

from fsmdial.language.addresses import find_addresses
from tests.flows import played

SALON: dict[str, Any] = {
    "name": "salon",
    "description": "Book a beauty treatment.",
    "nodes": [
        {
            "id": "ask",
            "type": "request",
            "slots": [
                {
                    "name": "treatment",
                    "type": "categorical",
                    "values": ["facial", "deluxe", "pedicure", "manicure"],
                    "description": "What is booked (facial: classic facial, cleanse; deluxe: shellac, gel facial, "
                    "luxury facial; pedicure: feet, toes; manicure: hands, nails painted)",
                    "ask": "A facial, the deluxe, a pedicure or a manicure?",
                },
                {"name": "people", "type": "integer", "minimum": 1, "maximum": 5, "ask": "How many of you?"},
            ],
        },
        {"id": "done", "type": "end", "message": "Booked {treatment} for {people}."},
    ],
    "edges": [{"source": "ask", "target": "done"}],
}
NOW = "2027-03-01T10:00"


@pytest.mark.parametrize(
    ("said", "treatment"),
    [
        ("a shellac facial please", "deluxe"),  # "gel facial" is listed for the deluxe, and shellac names it
        ("a classic facial please", "facial"),  # "classic facial" is the facial's own form
        ("just a facial", "facial"),
        ("can I get a pedi", "pedicure"),
        ("a mani for me please", "manicure"),
    ],
)
def test_compounds_and_clipped_words_name_their_value(said, treatment):
    dialogue = played(SALON, NOW)
    dialogue.turn(said)
    assert dialogue.slots["treatment"] == treatment


@pytest.mark.parametrize(
    ("said", "people"),
    [("it'll be me and my two bridesmaids", 3), ("me and my 3 sisters", 4), ("me and my two friends", 3)],
)
def test_a_number_of_ones_own_beside_the_speaker_is_that_many_people(said, people):
    dialogue = played(SALON, NOW, "a facial")
    dialogue.turn(said)
    assert dialogue.slots["people"] == people


TYRES: dict[str, Any] = {
    "name": "tyres",
    "description": "Book tyres fitted.",
    "nodes": [
        {
            "id": "ask",
            "type": "request",
            "slots": [
                {
                    "name": "tyres",
                    "type": "integer",
                    "minimum": 1,
                    "maximum": 4,
                    "label": "number of tyres",
                    "ask": "How many tyres?",
                },
                {"name": "address", "type": "address", "ask": "Where is the car?"},
            ],
        },
        {"id": "done", "type": "end", "message": "Booked {tyres} at {address}."},
    ],
    "edges": [{"source": "ask", "target": "done"}],
}


@pytest.mark.parametrize("said", ["both", "both back ones", "both front tyres", "both of them"])
def test_both_is_two(said):
    dialogue = played(TYRES, NOW)
    dialogue.turn(said)
    assert dialogue.slots["tyres"] == 2


def test_both_said_before_its_noun_in_passing():
    dialogue = played(TYRES, NOW)
    dialogue.turn("I need both my tyres changing, the car's at 8 Elm Road, Leeds LS6 2AB")
    assert dialogue.slots["tyres"] == 2


def test_no_pair_where_both_counts_nothing_of_it():
    dialogue = played(TYRES, NOW)
    dialogue.turn("both wood and coal")
    assert "tyres" not in dialogue.slots


def test_a_unit_on_a_business_park_with_its_postcode_is_an_address():
    said = "the car's at work, Unit 4, Aztec West, Almondsbury, Bristol BS32 4TD"
    assert [value for _, value in find_addresses(said)] == ["Unit 4, Aztec West, Almondsbury, Bristol BS32 4TD"]
    assert find_addresses("flat 2 please") == ()  # a flat alone, no postcode: none


def test_an_ordinary_word_is_no_clipped_value():
    from fsmdial.flow import Slot
    from fsmdial.understand.rules.categories import typo_value

    slot = Slot(name="job", type="categorical", values=["downpipe unblocking", "gutter clearing"])
    assert typo_value(slot, "the gutter over the door has come down") is None
    assert typo_value(Slot(name="treatment", type="categorical", values=["pedicure"]), "a pedi") == "pedicure"


CHECKS: dict[str, Any] = {
    "name": "car_checks",
    "description": "Book a car check.",
    "nodes": [
        {
            "id": "ask",
            "type": "request",
            "slots": [
                {
                    "name": "job",
                    "type": "categorical",
                    "values": ["tyre check", "oil change"],
                    "ask": "A tyre check or an oil change?",
                },
                {"name": "day", "type": "date", "earliest": "today", "ask": "Which day?"},
                {"name": "parts", "type": "boolean", "label": "own parts", "ask": "Are you bringing any parts?"},
            ],
        },
        {
            "id": "confirm",
            "type": "inform_and_confirm",
            "message": "{job} on {day}, own parts: {parts}.",
            "question": "Shall I book it?",
        },
        {"id": "book", "type": "external_action", "tool": "book", "commits": True, "arguments": {"job": "job"}},
        {"id": "done", "type": "end", "message": "Booked."},
    ],
    "edges": [
        {"source": "ask", "target": "confirm"},
        {"source": "confirm", "target": "book", "when": {"answer": "yes"}},
        {"source": "book", "target": "done"},
    ],
}
CHECKS_NOW = "2027-03-01T10:00"  # a Monday


@pytest.mark.parametrize("said", ["nothing at the moment", "neither, we've got everything", "nobody is"])
def test_a_reply_that_starts_with_none_is_a_no_to_the_question_asked(said):
    dialogue = played(CHECKS, CHECKS_NOW, "a tyre check", "friday")
    dialogue.turn(said)
    assert dialogue.slots["parts"] is False


def test_a_pause_to_check_at_the_summary_and_a_yes_passed_on():
    dialogue = played(CHECKS, CHECKS_NOW, "a tyre check", "friday", "yes")
    reply = dialogue.turn("hmm, let me just check friday's ok for her").text
    assert "didn't catch" not in reply and "Shall I book it?" in reply
    assert dialogue.slots["job"] == "tyre check" and dialogue.slots["parts"] is True
    dialogue.turn("yes she says that's fine, book it")
    assert dialogue.session.ended


@pytest.mark.parametrize(
    ("said", "people"),
    [
        ("3, the two of us and a guest", 3),
        ("the two of us and a guest", 3),
        ("the three of us plus the baby", 4),
        ("just the two of us, me and my brother", 2),  # the others name the two: no more come
        ("the two of us", 2),
    ],
)
def test_the_two_of_us_and_others_is_a_listed_party(said, people):
    dialogue = played(SALON, NOW, "a facial")
    dialogue.turn(said)
    assert dialogue.slots["people"] == people
