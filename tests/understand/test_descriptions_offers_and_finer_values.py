"""Round 23's classes, each a general mechanism, tested on wordings of its own on a small sewing-machine repair flow
and a karaoke-room flow:

- a description that starts with a clause of when or where something happens ("when I sew thick fabric the needle
  snaps") tells, it asks nothing: it answers the description asked;
- a description's "not" tells what goes wrong ("it won't feed the fabric"): it rules out no value held;
- to a question offering a thing or doing it oneself, "we'll do it ourselves" is the oneself side, and "we don't need
  one" / "I'd like one" say no and yes to the offer by its pronoun;
- "aye" is a yes;
- a question the flow's intents answer, at a committing confirmation, is answered and the summary asked again: it is
  no missed change;
- a value said by a synonym of more words ("film our session") over the one word of another's synonym ("session");
- a value right after "off" or "non" is its opposite ("a space off the road" names no road bike), but not in "a
  one-off".
"""

from __future__ import annotations

from typing import Any

import pytest

from fsmdial.language import parse_yes_no, read_acts
from tests.flows import played

SEWING: dict[str, Any] = {
    "name": "sewing_repair",
    "description": "Book a sewing machine repair.",
    "examples": ["my sewing machine needs fixing"],
    "nodes": [
        {
            "id": "ask_job",
            "type": "request",
            "slots": [
                {
                    "name": "job",
                    "type": "categorical",
                    "values": ["needle", "tension", "service"],
                    "description": "needle: needle snapping, bent needle; tension: loose stitches, thread bunching; "
                    "service: service",
                    "ask": "Is it the needle, the tension, or a service?",
                },
                {
                    "name": "fault",
                    "type": "text",
                    "label": "fault",
                    "description": "What the machine does wrong",
                    "ask": "What happens when you use it?",
                },
                {
                    "name": "collect",
                    "type": "boolean",
                    "label": "collection",
                    "description": "Whether we collect the machine (yes); otherwise the customer drops it off "
                    "themselves (no)",
                    "ask": "Would you like one of our drivers to collect it, or will you drop it off yourself?",
                },
                {
                    "name": "cover",
                    "type": "boolean",
                    "label": "dust cover",
                    "ask": "Would you like a new dust cover with it?",
                },
                {"name": "customer_name", "type": "person_name", "ask": "What name is it under?"},
            ],
        },
        {
            "id": "confirm",
            "type": "inform_and_confirm",
            "message": "{job}: {fault}. Collection: {collect}. Dust cover: {cover}. For {customer_name}.",
            "question": "Shall I book it?",
        },
        {"id": "book", "type": "external_action", "tool": "book_repair", "commits": True, "arguments": {"job": "job"}},
        {"id": "done", "type": "end", "message": "Booked."},
    ],
    "edges": [
        {"source": "ask_job", "target": "confirm"},
        {"source": "confirm", "target": "book", "when": {"answer": "yes"}},
        {"source": "book", "target": "done"},
    ],
    "global_actions": [
        {
            "intent": "payment",
            "examples": ["how do I pay", "can I pay by card"],
            "response": "We take card or cash on collection.",
        }
    ],
}
NOW = "2027-03-01T10:00"


def test_a_description_that_starts_with_when_tells_and_answers_the_fault():
    assert not read_acts("when I sew thick fabric the needle snaps").question
    assert read_acts("when can you come?").question and read_acts("when do you open").question
    dialogue = played(SEWING, NOW, "it's the needle", "when I sew thick fabric it snaps")
    assert dialogue.slots["fault"] == "when I sew thick fabric it snaps"


def test_a_descriptions_not_rules_out_no_value_held():
    dialogue = played(SEWING, NOW, "it's the needle", "I can't get the needle through denim at all")
    assert dialogue.slots["job"] == "needle"
    assert "denim" in dialogue.slots["fault"]


@pytest.mark.parametrize(
    ("said", "value"),
    [
        ("we'll drop it off ourselves", False),
        ("I'll do it myself thanks", False),
        ("no, I'll bring it in myself", False),
        ("yes please, collect it", True),
    ],
)
def test_doing_it_oneself_is_the_side_of_the_customer(said, value):
    dialogue = played(SEWING, NOW, "the needle", "it keeps bending")
    dialogue.turn(said)
    assert dialogue.slots["collect"] is value


@pytest.mark.parametrize(
    ("said", "value"),
    [
        ("we don't need one", False),
        ("i dont want one thanks", False),
        ("I'd like one", True),
        ("we would like one please", True),
    ],
)
def test_the_thing_offered_said_by_a_pronoun(said, value):
    dialogue = played(SEWING, NOW, "the needle", "it keeps bending", "collect it please")
    dialogue.turn(said)
    assert dialogue.slots["cover"] is value


def test_aye_is_a_yes():
    assert parse_yes_no("aye") == "yes" and parse_yes_no("aye that's grand") == "yes"
    dialogue = played(SEWING, NOW, "the needle", "it keeps bending", "collect it please", "no thanks")
    assert "Shall I book it?" in dialogue.turn("Mo Patel").text  # the summary, asked again after the name
    result = dialogue.turn("aye go on")
    assert dialogue.session.ended and [call.tool for call in result.tool_calls] == ["book_repair"]


def test_a_question_answered_at_the_confirmation_is_no_missed_change():
    dialogue = played(SEWING, NOW, "the needle", "it keeps bending", "collect it please", "no thanks", "Mo Patel")
    reply = dialogue.turn("can I pay by card on the day?").text
    assert "card or cash" in reply
    assert "didn't catch" not in reply and "Shall I book it?" in reply
    dialogue.turn("great, yes book it")
    assert dialogue.session.ended


KARAOKE: dict[str, Any] = {
    "name": "karaoke",
    "description": "Book a karaoke room.",
    "examples": ["I'd like to book a karaoke room"],
    "nodes": [
        {
            "id": "ask",
            "type": "request",
            "slots": [
                {
                    "name": "room",
                    "type": "categorical",
                    "values": ["standard room", "filmed room"],
                    "description": "standard room: session, singing session; filmed room: filmed session, "
                    "session with cameras",
                    "ask": "A standard room or a filmed room?",
                },
                {"name": "customer_name", "type": "person_name", "ask": "What name is it under?"},
            ],
        },
        {"id": "done", "type": "end", "message": "Booked {room} for {customer_name}."},
    ],
    "edges": [{"source": "ask", "target": "done"}],
}


@pytest.mark.parametrize(
    ("said", "room"),
    [
        ("we want to film our session this time", "filmed room"),
        ("a session with a camera please", "filmed room"),
        ("just a singing session", "standard room"),
        ("a session please", "standard room"),
    ],
)
def test_a_synonym_of_more_words_said_over_one_word_of_another(said, room):
    dialogue = played(KARAOKE, NOW)
    dialogue.turn(said)
    assert dialogue.slots["room"] == room


BIKES: dict[str, Any] = {
    "name": "bike_fit",
    "description": "Book a bike fitting.",
    "nodes": [
        {
            "id": "ask",
            "type": "request",
            "slots": [
                {"name": "bike", "type": "categorical", "values": ["road", "mountain", "hybrid"], "ask": "Which bike?"},
                {
                    "name": "kind",
                    "type": "categorical",
                    "values": ["one-off fit", "deep fit"],
                    "ask": "A one-off fit or a deep fit?",
                },
                {"name": "parking", "type": "boolean", "label": "parking", "ask": "Is there parking near you?"},
            ],
        },
        {"id": "done", "type": "end", "message": "Booked a {kind} for the {bike} bike."},
    ],
    "edges": [{"source": "ask", "target": "done"}],
}


def test_a_value_after_off_is_its_opposite():
    dialogue = played(BIKES, NOW, "my mountain bike", "a deep fit")
    dialogue.turn("yes, there's a space off the road")
    assert dialogue.slots["bike"] == "mountain" and dialogue.slots["parking"] is True
    fresh = played(BIKES, NOW, "hybrid")
    fresh.turn("just a one-off deep fit please")
    assert fresh.slots["kind"] == "deep fit"


def test_a_model_is_offered_no_value_after_off():
    import datetime as dt

    from fsmdial.understand.constraint.schema import standing, turn_schema
    from fsmdial.understand.rules import RulesUnderstander

    dialogue = played(BIKES, NOW, "my mountain bike", "a deep fit")
    state, now = dialogue.understanding_state(), dt.datetime(2027, 3, 1, 10)
    text = "there's a space outside, off the road"
    settled = standing(RulesUnderstander(), state, text, (), now)
    assert "road" not in turn_schema(state, text, now, settled=settled).categorical.get("bike", ())
