"""Round 26's classes, each a general mechanism, tested on wordings of their own on a small climbing-party flow:

- "turns 10" / "turning ten" is an age, no count;
- two counted groups of people said side by side are one party ("2 adults 2 kids": 4);
- a first clause that is one side's words alone chooses it, whatever the reason after it names ("just the climb
  thanks, we're doing food at home" to "the food package, or just the climb?"); not a negated one ("no pets, but ...");
- a description labelling its sides ("(yes: we pack everything; no: the customer packs themselves)") gives them, and
  "our own" says the oneself side ("we'll do our own packing");
- a later clause may say a yes/no the first naming its subject does not ("we'll pack the stock, no packing needed");
- "after 4, say half past" is half past the hour said.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.flows import played

PARTY: dict[str, Any] = {
    "name": "climbing_party",
    "description": "Book a climbing party.",
    "nodes": [
        {
            "id": "ask",
            "type": "request",
            "slots": [
                {
                    "name": "food",
                    "type": "boolean",
                    "label": "party food",
                    "description": "Whether they add the party food package (yes) or just the climb (no)",
                    "ask": "Would you like the party food package, or just the climb?",
                },
                {"name": "climbers", "type": "integer", "minimum": 1, "maximum": 30, "ask": "How many climbers?"},
                {
                    "name": "kit",
                    "type": "boolean",
                    "label": "kit packing",
                    "description": "Whether we pack the kit for them (yes: we pack the kit; no: the group packs "
                    "themselves)",
                    "ask": "Shall we pack the kit bags, or will you pack them yourselves?",
                },
                {"name": "start", "type": "time", "earliest": "10:00", "latest": "19:00", "ask": "What time?"},
            ],
        },
        {"id": "done", "type": "end", "message": "Booked."},
    ],
    "edges": [{"source": "ask", "target": "done"}],
}
NOW = "2027-03-01T09:00"


def test_an_age_turned_is_no_count():
    dialogue = played(PARTY, NOW)
    dialogue.turn("my lad turns 10 next month, we'd like a party")
    assert "climbers" not in dialogue.slots
    dialogue = played(PARTY, NOW)
    dialogue.turn("my daughter's turning nine, a party for 12 kids please")
    assert dialogue.slots["climbers"] == 12


@pytest.mark.parametrize(("said", "climbers"), [("2 adults 2 kids", 4), ("3 adults, 4 children", 7)])
def test_groups_side_by_side_are_one_party(said, climbers):
    dialogue = played(PARTY, NOW, "just the climb")
    dialogue.turn(said)
    assert dialogue.slots["climbers"] == climbers


@pytest.mark.parametrize(
    ("said", "food"),
    [
        ("just the climb thanks, we're doing food at home", False),
        ("the party food package please, they'll be starving", True),
        ("no food, but we'll bring a cake", False),
    ],
)
def test_a_first_clause_that_is_a_side_chooses_it(said, food):
    dialogue = played(PARTY, NOW)
    dialogue.turn(said)
    assert dialogue.slots["food"] is food


@pytest.mark.parametrize(
    ("said", "kit"),
    [
        ("we'll do our own packing", False),
        ("we'll pack them ourselves", False),
        ("we'll pack the snacks, no kit packing needed", False),
        ("yes please, you pack the kit", True),
    ],
)
def test_labelled_sides_and_ones_own(said, kit):
    dialogue = played(PARTY, NOW, "just the climb", "8")
    dialogue.turn(said)
    assert dialogue.slots["kit"] is kit


def test_half_past_the_hour_said_before():
    dialogue = played(PARTY, NOW, "just the climb", "8", "we'll pack ourselves")
    dialogue.turn("after 4, say half past")
    assert dialogue.slots["start"] == "16:30"


def test_a_model_is_offered_no_two_sided_yes_or_no_by_its_name_alone():
    import datetime as dt

    from fsmdial.understand.constraint.schema import standing, turn_schema
    from fsmdial.understand.rules import RulesUnderstander

    dialogue = played(PARTY, NOW, "just the climb", "8")
    state, now = dialogue.understanding_state(), dt.datetime(2027, 3, 1, 9)
    assert state.asked == "kit"
    text = "the packing might be a bit tricky for us"
    settled = standing(RulesUnderstander(), state, text, (), now)
    assert "kit" not in settled.slots and "kit" not in turn_schema(state, text, now, settled=settled).categorical


def test_a_clipped_plural_names_its_count():
    move = {
        "name": "move_survey",
        "description": "Book a removals survey.",
        "nodes": [
            {
                "id": "ask",
                "type": "request",
                "slots": [
                    {"name": "bedrooms", "type": "integer", "minimum": 1, "maximum": 8, "ask": "How many bedrooms?"},
                    {"name": "day", "type": "date", "earliest": "today", "ask": "Which day?"},
                ],
            },
            {"id": "done", "type": "end", "message": "Booked."},
        ],
        "edges": [{"source": "ask", "target": "done"}],
    }
    dialogue = played(move, NOW)
    dialogue.turn("we're in a semi, 3 beds, could someone come on friday at 10?")
    assert dialogue.slots["bedrooms"] == 3
    from fsmdial.flow import Slot
    from fsmdial.understand.rules.forms import named_number, naming_words

    bedrooms = Slot(name="bedrooms", type="integer")
    said = "semi-detached, 3 beds. could you send someone to 31 downend road"
    assert named_number([(bedrooms, naming_words(bedrooms))], said) == (bedrooms, 3)
    assert named_number([(bedrooms, naming_words(bedrooms))], "3 bees and 31 wasps") is None  # "bee" begins no bedroom
