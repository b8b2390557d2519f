"""Round 31's classes, each a general mechanism, tested on wordings of their own on a small climbing-wall flow and a
drain-visit flow:

- a count slot whose author's examples are said by people ("three of us") counts people: "for 6", "5 of us" fill it
  in passing; a number before the slot's own noun ("7 climbers") is its count, though another slot's description
  names climbers too; a possessive in a label ("the youngest climber's age") names no count; the word for a count
  names no categorical value by its stem ("climbers" is no "climb");
- an age said in words, an age turned, several ages ("they're 9 and 12"): the youngest for a youngest's age;
- an address of places before a postcode, with no street word ("Ty Gwyn, Llanbister, Llandrindod Wells LD1 6TN");
- "a 3 bedroom" is one house of three bedrooms, no count of one;
- "when anyone ..." opens a clause that tells, no question;
- "no idea" to a yes/no is a don't-know, no no;
- a proposal said back is disputed by two words of another value's forms, not its name alone;
- a yes/no question that bounds a measure ("within 30 metres?") is answered by the measure said;
- "for 2 tonight" is a count (tonight has no 2 o'clock); "y" is a yes;
- a booking for the speaker's own ("a kids party for my two boys") counts them, unless "we" are said.
"""

from __future__ import annotations

import pytest

from fsmdial.language import parse_yes_no, read_acts
from fsmdial.language.addresses import address_value
from tests.flows import booking_flow, played

CLIMBING = booking_flow(
    {
        "name": "session",
        "type": "categorical",
        "values": ["taster climb", "kids party"],
        "description": "Which session (taster climb: first climb, try climbing; kids party: birthday party)",
        "ask": "A taster climb or a kids party?",
    },
    {
        "name": "youngest_age",
        "type": "integer",
        "minimum": 5,
        "maximum": 15,
        "label": "youngest climber's age",
        "description": "Age of the youngest climber in the group",
        "ask": "How old is the youngest climber?",
    },
    {
        "name": "climbers",
        "type": "integer",
        "minimum": 1,
        "maximum": 12,
        "label": "number of climbers",
        "description": "Number of climbers",
        "examples": ["4", "three of us"],
        "ask": "How many climbers?",
    },
    {"name": "day", "type": "date", "earliest": "today", "ask": "Which day?"},
    {"name": "start", "type": "time", "earliest": "10:00", "latest": "21:00", "ask": "What time?"},
    name="climbing_wall",
    summary="A {session} for {climbers} on {day} at {start}.",
    argument="climbers",
)
NOW = "2027-03-02T10:00"


@pytest.mark.parametrize(
    ("said", "climbers"),
    [("a taster climb for 6 please", 6), ("a taster climb, there's 5 of us", 5), ("taster climb, 7 climbers", 7)],
)
def test_a_count_whose_examples_are_said_by_people_is_read_in_passing(said, climbers):
    dialogue = played(CLIMBING, NOW)
    dialogue.turn(said)
    assert dialogue.slots["session"] == "taster climb" and dialogue.slots["climbers"] == climbers
    assert "youngest_age" not in dialogue.slots


def test_the_word_for_a_count_names_no_value_by_its_stem():
    dialogue = played(CLIMBING, NOW)
    dialogue.turn("3 climbers please")
    assert dialogue.slots.get("climbers") == 3 and "session" not in dialogue.slots


@pytest.mark.parametrize(
    ("said", "age"),
    [("she's 7, turning 8 in June", 7), ("she's nine", 9), ("they're 9 and 12", 9), ("he turns ten next month", 10)],
)
def test_an_age_said_in_words_turned_or_of_several_is_read(said, age):
    dialogue = played(CLIMBING, NOW, "a kids party please")
    dialogue.turn(said)
    assert dialogue.slots.get("youngest_age") == age


@pytest.mark.parametrize(
    ("said", "address"),
    [
        ("Ty Gwyn, Llanbister, Llandrindod Wells LD1 6TN", "Ty Gwyn, Llanbister, Llandrindod Wells LD1 6TN"),
        ("it's 4 the sidings, church stretton sy6 6aq", "4 the sidings, church stretton SY6 6AQ"),
        ("Upper House, Bettws, Newtown SY16 3LE thanks", "Upper House, Bettws, Newtown SY16 3LE"),
    ],
)
def test_an_address_of_places_before_a_postcode_is_an_address(said, address):
    assert address_value(said) == address


def test_a_postcode_makes_no_address_of_a_request_before_it():
    assert address_value("book me for Tuesday, Leeds LS1 5AA") is None


DRAINS = booking_flow(
    {
        "name": "job",
        "type": "categorical",
        "values": ["tank emptying", "blocked drain"],
        "description": "The job (tank emptying: empty the tank, desludge; blocked drain: blockage, backing up)",
        "ask": "Emptying the tank or a blocked drain?",
    },
    {"name": "address", "type": "address", "ask": "What's the address?"},
    {"name": "start", "type": "time", "earliest": "08:00", "latest": "16:00", "ask": "What time?"},
    {
        "name": "close_access",
        "type": "boolean",
        "label": "tanker access",
        "ask": "Can the tanker get within about 30 metres of the tank?",
    },
    {"name": "problem", "type": "text", "description": "What is happening, for the driver", "ask": "What's happening?"},
    name="drain_visit",
    summary="A {job} at {address} at {start}; access: {close_access}.",
    argument="job",
)


def test_an_address_after_its_cue_leaves_the_hour_before_it_a_time():
    dialogue = played(DRAINS, NOW, "tank emptying")
    dialogue.turn("tomorrow at 11 address is 8 castle view clun sy7 8jb")
    assert dialogue.slots["start"] == "11:00" and dialogue.slots["address"] == "8 castle view clun SY7 8JB"


@pytest.mark.parametrize(
    ("said", "access"),
    [
        ("there's a gravel drive, the tank's about 10 metres from it", True),
        ("he can get to about twenty metres away", True),
        ("it's about 45 metres down the garden", False),
        ("it's about 10 feet from the gate", None),  # another unit: no answer
    ],
)
def test_a_bounded_yes_no_is_answered_by_the_measure_said(said, access):
    dialogue = played(DRAINS, NOW, "tank emptying", "3 Mill Lane, Clun SY7 8JA", "9am")
    dialogue.turn(said)
    assert dialogue.slots.get("close_access") == access


def test_no_idea_to_a_yes_no_is_no_no():
    assert parse_yes_no("no idea, we've only just moved in") is None and parse_yes_no("no clue") is None
    assert parse_yes_no("no way") == "no"
    dialogue = played(DRAINS, NOW, "tank emptying", "3 Mill Lane, Clun SY7 8JA", "9am")
    dialogue.turn("no idea, we've only just moved in")
    assert "close_access" not in dialogue.slots


def test_a_when_clause_that_tells_is_no_question():
    assert not read_acts("when anyone flushes the water comes up in the shower tray").question
    assert read_acts("when can you come").question and read_acts("where's the nearest depot").question
    dialogue = played(DRAINS, NOW, "blocked drain", "3 Mill Lane, Clun SY7 8JA", "9am", "yes")
    dialogue.turn("when anyone flushes the water comes up in the shower tray downstairs")
    assert dialogue.slots["problem"].startswith("when anyone flushes")


def test_a_proposal_said_back_is_not_disputed_by_the_other_values_name_alone():
    dialogue = played(DRAINS, NOW, "3 Mill Lane, Clun SY7 8JA", "9am", "yes")
    reply = dialogue.turn("can someone jet the drains? they keep blocking").text
    assert dialogue.slots["job"] == "blocked drain" and "I take it" in reply
    dialogue.turn("it's the main run from the house to the tank, roots probably")
    assert dialogue.slots["job"] == "blocked drain"


def test_a_three_bedroom_is_no_count_of_one():
    rooms = booking_flow(
        {"name": "bedrooms", "type": "integer", "minimum": 1, "maximum": 8, "ask": "How many bedrooms?"},
        summary="{bedrooms} bedrooms.",
        argument="bedrooms",
    )
    dialogue = played(rooms, NOW)
    dialogue.turn("its a 3 bedroom")
    assert dialogue.slots["bedrooms"] == 3


def test_for_two_tonight_is_a_count_and_at_eight_tonight_a_time():
    dialogue = played(CLIMBING, NOW)
    dialogue.turn("a taster climb for 2 tonight please")
    assert dialogue.slots["climbers"] == 2 and "start" not in dialogue.slots
    dialogue = played(CLIMBING, NOW)
    dialogue.turn("a taster climb at 8 tonight")
    assert dialogue.slots["start"] == "20:00"


def test_y_alone_is_a_yes_that_books():
    dialogue = played(CLIMBING, NOW, "a taster climb for 2", "9", "tomorrow", "6pm")
    result = dialogue.turn("y")
    assert [call.tool for call in result.tool_calls] == ["book"]


@pytest.mark.parametrize(
    ("said", "climbers"),
    [
        ("a taster climb for my two boys", 2),
        ("I'd like to book my 3 girls into a taster climb", 3),
        ("a taster climb for me and my two boys", 3),
        ("we'd like a taster climb for my two boys", None),  # we come too, or not: asked
    ],
)
def test_a_booking_for_the_speakers_own_counts_them(said, climbers):
    dialogue = played(CLIMBING, NOW)
    dialogue.turn(said)
    assert dialogue.slots["session"] == "taster climb" and dialogue.slots.get("climbers") == climbers
