"""Round 32's classes (its first run's wrong commits, then stalls), each a general mechanism, tested on wordings of
their own on a small kayak-hire flow, a boiler-service flow and an alarm-fitting flow:

- "one to one" is no range of clock times (no 1 o'clock);
- "N of us" beside "the others" or "the rest" is a part of the party, no new count;
- to "shall we provide X, or are you bringing your own?", having X oneself ("we've got wetsuits") is one's own;
- a verb with "out" is another verb: "a flat I rent out" is no renting it;
- a one-word form left of a form with numbers ("one to one lesson": "lesson") tells no value when the word is in
  another value's own name ("taster lesson");
- "one on each floor" shares a count out; ones put somewhere ("one by the boiler and one in the hall") are counted;
- the noun of who does a side's verb ("the owner", "a renter") and "it's ours" name that side.
"""

from __future__ import annotations

import pytest

from tests.flows import booking_flow, played

KAYAKS = booking_flow(
    {
        "name": "session",
        "type": "categorical",
        "values": ["group lesson", "private lesson", "kayak hire"],
        "description": "What is booked (group lesson: beginners session; private lesson: one to one lesson, 1-2-1; "
        "kayak hire: hire, rental)",
        "ask": "A group lesson, a private lesson or kayak hire?",
    },
    {
        "name": "people",
        "type": "integer",
        "minimum": 1,
        "maximum": 8,
        "description": "Number of people",
        "ask": "How many people?",
    },
    {"name": "day", "type": "date", "earliest": "today", "ask": "Which day?"},
    {"name": "start", "type": "time", "earliest": "09:00", "latest": "17:00", "ask": "What time?"},
    {
        "name": "buoyancy_aids",
        "type": "boolean",
        "label": "buoyancy aids",
        "description": "Whether we provide buoyancy aids; otherwise the customers bring their own",
        "ask": "Shall we provide buoyancy aids, or are you bringing your own?",
    },
    name="kayaks",
    summary="A {session} for {people} on {day} at {start}.",
    argument="session",
)
NOW = "2027-06-01T08:00"


def test_one_to_one_is_no_time():
    dialogue = played(KAYAKS, NOW)
    dialogue.turn("I'd like a one to one lesson for tomorrow at 11 please")
    assert dialogue.slots["session"] == "private lesson" and dialogue.slots["start"] == "11:00"
    dialogue = played(KAYAKS, NOW)
    dialogue.turn("a one to one lesson tomorrow")
    assert "start" not in dialogue.slots


def test_some_of_us_beside_the_others_is_no_new_count():
    dialogue = played(KAYAKS, NOW, "kayak hire", "there's five of us", "tomorrow", "10am")
    dialogue.turn("we'll need them for two of us, the others have their own")
    assert dialogue.slots["people"] == 5


@pytest.mark.parametrize(
    ("said", "provided"),
    [
        ("nah we've got buoyancy aids", False),
        ("we've all got buoyancy aids", False),
        ("yes please, none of us have one", True),
        ("I have a buoyancy aid but my son needs one", True),
    ],
)
def test_having_the_thing_oneself_is_bringing_ones_own(said, provided):
    dialogue = played(KAYAKS, NOW, "kayak hire", "3", "tomorrow", "10am")
    dialogue.turn(said)
    assert dialogue.slots.get("buoyancy_aids") == provided


def test_a_lesson_said_alone_is_no_private_lesson():
    dialogue = played(KAYAKS, NOW)
    dialogue.turn("can we book a lesson for the kids")
    assert "session" not in dialogue.slots


OWNER = {
    "name": "owner",
    "type": "boolean",
    "description": "Whether the customer owns the home (yes) or rents it (no)",
    "ask": "Do you own the property, or are you renting it?",
}
BOILER = booking_flow(
    OWNER,
    {"name": "day", "type": "date", "earliest": "today", "ask": "Which day?"},
    name="boiler_service",
    summary="A service on {day}.",
    argument="day",
)


@pytest.mark.parametrize(
    ("said", "owner"),
    [("we rent it", False), ("I'm renting", False), ("I rent it out to students", None), ("we own it", True)],
)
def test_a_verb_with_out_is_another_verb(said, owner):
    dialogue = played(BOILER, NOW)
    dialogue.turn(said)
    assert dialogue.slots.get("owner") == owner


def test_a_flat_rented_out_said_in_passing_is_no_renting():
    dialogue = played(BOILER, NOW)
    dialogue.turn("it's for a flat I rent out, could you come tomorrow")
    assert "owner" not in dialogue.slots


ALARMS = booking_flow(
    {
        "name": "alarms",
        "type": "integer",
        "minimum": 1,
        "maximum": 12,
        "label": "number of alarms",
        "ask": "How many alarms would you like fitted?",
    },
    OWNER,
    name="alarm_fitting",
    summary="{alarms} alarms.",
    argument="alarms",
)


@pytest.mark.parametrize(
    ("said", "alarms"),
    [
        ("three, one on each floor", 3),
        ("one by the boiler and one in the front room", 2),
        ("two, one at the front and one for the back", 2),
        ("one in the hall", 1),
    ],
)
def test_ones_put_somewhere_or_each_are_counted_once(said, alarms):
    dialogue = played(ALARMS, NOW)
    dialogue.turn(said)
    assert dialogue.slots.get("alarms") == alarms


@pytest.mark.parametrize(
    ("said", "owner"),
    [("I am the owner.", True), ("we're the owners", True), ("I'm a renter", False), ("it's ours", True)],
)
def test_who_does_a_sides_verb_and_whose_it_is_name_the_side(said, owner):
    dialogue = played(ALARMS, NOW, "2")
    dialogue.turn(said)
    assert dialogue.slots.get("owner") == owner
