"""Round 30's classes, each a general mechanism, tested on wordings of their own on a small garden-visit flow and a
games-room flow:

- a synonym of a categorical value that the yes/no question asked says too ("yeah there's a gate down the side" to
  "... by a side gate or a back lane?") answers that question, and is no value of the other slot (a fencing job);
- a yes/no described as doing without something, its yes side's examples in brackets, is told in passing by an
  example's head ("a gate"), never by another of its words ("the back garden");
- a reply using the question's own words ("it's still on the mower") tries to answer it: asked again, no "Sorry, I
  can only ...";
- "X rather than just Y" at the summary replaces Y;
- "for her and 5 friends" is the whole party (6), unless "we" come besides; "one of us is 9" at the summary is a part
  of the party, no new count.
"""

from __future__ import annotations

import pytest

from tests.flows import booking_flow, played, request_flow

GARDEN = booking_flow(
    {
        "name": "job",
        "type": "categorical",
        "values": ["patio", "fencing", "garden redesign"],
        "description": "What is quoted (patio: paving, slabs; fencing: fence, fence panels, gate, trellis; "
        "garden redesign: whole garden, garden makeover)",
        "ask": "A patio, fencing or a garden redesign?",
    },
    {"name": "day", "type": "date", "earliest": "today", "ask": "Which day?"},
    {
        "name": "side_access",
        "type": "boolean",
        "label": "side access",
        "description": "Whether the garden can be reached without going through the house (a side gate, a back lane, "
        "a passage)",
        "ask": "Can we get into the garden without going through the house, by a side gate or a back lane?",
    },
    {"name": "customer_name", "type": "person_name", "ask": "What name is it under?"},
    name="garden_visit",
    summary="A {job} visit on {day}, under {customer_name}.",
    argument="job",
)
NOW = "2027-06-01T10:00"


def test_a_synonym_the_yes_no_question_says_answers_it_and_names_no_other_value():
    dialogue = played(GARDEN, NOW, "some new paving please", "friday")
    dialogue.turn("yeah there's a gate down the side")
    assert dialogue.slots["job"] == "patio" and dialogue.slots["side_access"] is True


def test_a_side_in_passing_is_told_by_an_examples_head_only():
    dialogue = played(GARDEN, NOW)
    dialogue.turn("we'd like a patio in the back garden")
    assert dialogue.slots["job"] == "patio" and "side_access" not in dialogue.slots
    dialogue = played(GARDEN, NOW)
    dialogue.turn("a patio please, there's a back lane with a gate")
    assert dialogue.slots["side_access"] is True


def test_a_reply_in_the_questions_own_words_is_asked_again_without_sorry():
    dialogue = played(GARDEN, NOW, "a new patio please", "friday")
    reply = dialogue.turn("the garden is quite small").text
    assert "Sorry" not in reply and "side gate" in reply


def test_rather_than_just_the_held_value_at_the_summary_replaces_it():
    dialogue = played(GARDEN, NOW, "a new patio please", "friday", "no", "Graham Pollard")
    dialogue.turn("actually could you look at the whole garden rather than just the patio?")
    assert dialogue.slots["job"] == "garden redesign"


GAMES = booking_flow(
    {"name": "players", "type": "integer", "minimum": 1, "maximum": 10, "ask": "How many players?"},
    {"name": "day", "type": "date", "earliest": "today", "ask": "Which day?"},
    name="games_room",
    summary="{players} players on {day}.",
    argument="day",
)


@pytest.mark.parametrize(
    ("said", "players"),
    [
        ("I'm booking for my daughter, she wants the room for her and 5 friends", 6),
        ("it's for him and his 3 mates", 4),
        ("we thought we'd take him and a couple of his friends", None),
    ],
)
def test_a_party_listed_from_someone_else_is_the_whole_party_unless_we_come_too(said, players):
    dialogue = played(GAMES, NOW)
    dialogue.turn(said)
    assert dialogue.slots.get("players") == players


def test_a_part_of_the_party_said_at_the_summary_is_no_new_count():
    dialogue = played(GAMES, NOW, "2 players tomorrow")
    dialogue.turn("before I say yes, is that ok for kids? one of us is 9")
    assert dialogue.slots["players"] == 2


def test_two_values_named_in_one_list_choose_none_and_the_question_is_asked_again():
    dialogue = played(GARDEN, NOW)
    reply = dialogue.turn("we'd like the lot doing, new paving, fence panels, the works").text
    assert "job" not in dialogue.slots and "Sorry" not in reply and reply.startswith("A patio, fencing")


@pytest.mark.parametrize("said", ["yes thats grand", "yes, brill", "thats great thanks"])
def test_a_yes_typed_without_its_apostrophe_or_said_short_books(said):
    dialogue = played(GARDEN, NOW, "a new patio please", "friday", "no", "Graham Pollard")
    result = dialogue.turn(said)
    assert [call.tool for call in result.tool_calls] == ["book"]


def test_a_reply_in_the_questions_words_offers_the_embedder_no_sides():
    from fsmdial.understand.meaning.options import options_for
    from fsmdial.understand.rules import RulesUnderstander

    blade = request_flow(
        {
            "name": "item",
            "type": "categorical",
            "values": ["kitchen knives", "lawnmower blade"],
            "description": "What is sharpened (lawnmower blade: mower, mower blade)",
            "ask": "Knives or a lawnmower blade?",
        },
        {
            "name": "blade_off",
            "type": "boolean",
            "description": "Whether the mower blade is already taken off the mower (yes), or the sharpener must "
            "take it off the mower (no)",
            "ask": "Is the blade already off the mower, or will our sharpener need to take it off?",
        },
    )
    dialogue = played(blade, NOW, "a lawnmower blade please")
    state = dialogue.understanding_state()
    reading = RulesUnderstander().understand(state, "it's still on the mower", history=dialogue.session.history)
    assert reading.info.get("echo") and "blade_off" not in reading.slots
    assert options_for(state, "it's still on the mower", reading) == ()


@pytest.mark.parametrize(
    ("said", "players"), [("the kids want a go this afternoon, there's 2 of them", 2), ("there are 3 of us", 3)]
)
def test_theres_a_number_of_them_is_the_head_count(said, players):
    dialogue = played(GAMES, NOW)
    dialogue.turn(said)
    assert dialogue.slots["players"] == players


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ("about 6 fence panels, Thursday morning at 10", "about , Thursday morning at 10"),
        ("2 wardrobes at 3", "at 3"),
        ("from 10 onwards", "from 10 onwards"),
        ("at 6 thanks", "at 6 thanks"),
    ],
)
def test_a_number_counting_things_is_no_clock_time(said, kept):
    from fsmdial.understand.rules.forms import without_counted

    assert " ".join(without_counted(None, said).split()).strip(" ,") == kept


def test_a_street_address_said_in_a_change_changes_no_number():
    ride = request_flow(
        {"name": "ride_id", "type": "integer", "minimum": 1, "maximum": 99999, "ask": "What's the ride number?"},
        {"name": "customer_name", "type": "person_name", "ask": "What name is it under?"},
        name="ride_change",
    )
    dialogue = played(ride, NOW, "it's ride number four hundred and five")
    dialogue.turn("change the pickup to 12 Elm Street, Leeds")
    assert dialogue.slots["ride_id"] == 405
    dialogue.turn("sorry, make that ride 406")
    assert dialogue.slots["ride_id"] == 406
