"""Round 14's classes, each a general mechanism, tested on wordings of its own on a small kayak-hire flow:

- a range of clock times ("from 2 till 5", "9am to 1pm") is the start time and, where the flow has one duration slot
  in hours or minutes, its length; "between 2 and 3" is a window to start in; minutes before an hour are said in
  fives ("ten to 5"), so "7 till 10" is a range, never 9:53;
- a group said by its size ("we're a trio", "a five piece", "3 of us") counts people, never the length asked;
- a count or a length settled at the end of the message's reasoning ("..., so three"; "..., say 4 hours") is the
  answer, and changes no held value;
- "as early as you can" is the time slot's opening time, as "first thing" is;
- a boolean's side said after "off" ("off the road") is the opposite of the same word said without it ("on the
  road"), and a compound names the side word it starts with ("driveway": a drive);
- a message of nothing but yes words at a confirmation holds no value ("yes that's everything thanks", where
  "everything" is a synonym of a value); "that's grand" and "proceed" say yes;
- a name after "under my name, ..." is the booking's name.
"""

from __future__ import annotations

from typing import Any

import pytest

from fsmdial.language.times import range_minutes, read_clock
from fsmdial.runtime import Dialogue
from tests.flows import played

KAYAK: dict[str, Any] = {
    "name": "kayak_hire",
    "description": "Hire a kayak or a canoe on the river.",
    "examples": ["I'd like to hire a kayak"],
    "nodes": [
        {
            "id": "ask",
            "type": "request",
            "slots": [
                {
                    "name": "boat",
                    "type": "categorical",
                    "values": ["single kayak", "canoe", "paddle package"],
                    "description": "What is hired (paddle package: everything, kayak and canoe together)",
                    "ask": "A single kayak, a canoe or the paddle package?",
                },
                {"name": "day", "type": "date", "earliest": "today", "ask": "Which day?"},
                {
                    "name": "start_time",
                    "type": "time",
                    "earliest": "09:00",
                    "latest": "18:00",
                    "ask": "What time would you like to start?",
                },
                {
                    "name": "hours",
                    "type": "duration",
                    "unit": "hours",
                    "minimum": 1,
                    "maximum": 6,
                    "ask": "How many hours would you like it for?",
                },
                {
                    "name": "people",
                    "type": "integer",
                    "minimum": 1,
                    "maximum": 8,
                    "description": "How many people are paddling",
                    "ask": "How many of you are coming?",
                },
                {
                    "name": "parked",
                    "type": "boolean",
                    "description": "Whether the car will be on a drive or off the road (yes), rather than on the "
                    "street (no)",
                    "ask": "Will your car be on a drive or off the road while you paddle?",
                },
                {"name": "customer_name", "type": "person_name", "ask": "What name shall I book it under?"},
            ],
        },
        {
            "id": "confirm",
            "type": "inform_and_confirm",
            "message": "A {boat} on {day} at {start_time} for {hours} hours, {people} people, under {customer_name}.",
            "question": "Shall I book it?",
        },
        {
            "id": "book",
            "type": "external_action",
            "tool": "book_kayak",
            "commits": True,
            "arguments": {
                name: name for name in ("boat", "day", "start_time", "hours", "people", "parked", "customer_name")
            },
            "result": {"booked": "boolean"},
        },
        {"id": "done", "type": "end", "message": "Booked."},
    ],
    "edges": [
        {"source": "ask", "target": "confirm"},
        {"source": "confirm", "target": "book", "when": {"answer": "yes"}},
        {"source": "book", "target": "done"},
    ],
}
NOW = "2027-03-01T08:00"  # a Monday


def _dialogue(*said: str) -> Dialogue:
    return played(KAYAK, NOW, *said)


@pytest.mark.parametrize(
    ("said", "minutes"),
    [
        ("from 2 till 5", 180),
        ("9am to 1pm", 240),
        ("8pm until 11", 180),
        ("from 10:30 to 12", 90),
        ("between 2 and 3", None),  # when to start, not how long
        ("for 3 to 4 people", None),
        ("at 2", None),
    ],
)
def test_a_range_of_clock_times_says_how_long(said, minutes):
    assert range_minutes(said) == minutes


@pytest.mark.parametrize(
    ("said", "clock"),
    [
        ("ten to 5", "4:50 (12-hour clock)"),  # minutes before an hour, said in fives
        ("7 till 10", "7:00 (12-hour clock)"),  # a range's start, never 9:53
        ("from 6 to 9pm", "18:00"),  # the start in the half of the day its end names
        ("11 to 2pm", "11:00"),  # a range across noon
        ("as early as you can", "first thing (the earliest)"),
        ("the earliest you have please", "first thing (the earliest)"),
    ],
)
def test_the_start_of_a_range_and_the_earliest_time(said, clock):
    assert read_clock(said) == clock


def test_a_range_gives_the_start_time_and_the_length():
    slots = _dialogue("a canoe on saturday from 2 till 5").slots
    assert (slots["start_time"], slots["hours"]) == ("14:00", 3)


def test_a_length_said_with_the_range_is_the_length():
    assert _dialogue("a canoe on saturday from 2 till 5, well 2 hours really").slots["hours"] == 2


def test_as_early_as_you_can_is_the_opening_time():
    assert _dialogue("a canoe on saturday, as early as you can").slots["start_time"] == "09:00"


@pytest.mark.parametrize(("said", "people"), [("we're a trio", 3), ("a five piece", 5), ("3 of us", 3)])
def test_a_group_said_by_its_size_counts_people_not_the_length_asked(said, people):
    dialogue = _dialogue("a canoe on saturday at 10")  # the hours are asked next
    assert dialogue.session.asked == "hours"
    dialogue.turn(said)
    assert dialogue.slots.get("people") == people and "hours" not in dialogue.slots


def test_a_count_settled_at_the_end_of_its_reasoning_is_the_answer_and_changes_nothing_held():
    dialogue = _dialogue("a canoe on saturday at 10", "2 hours")
    dialogue.turn("the two kids and my wife, and me of course, so four")
    assert (dialogue.slots["people"], dialogue.slots["hours"]) == (4, 2)


def test_a_length_settled_after_a_vague_one_is_the_length():
    dialogue = _dialogue("a canoe on saturday at 10")
    dialogue.turn("most of the afternoon, say 4 hours")
    assert dialogue.slots["hours"] == 4


@pytest.mark.parametrize(
    ("said", "parked"),
    [
        ("it'll be on the road outside", False),  # "on the road": the other side of "off the road"
        ("off the road, in the car park", True),
        ("on the driveway", True),  # "driveway" names the drive
        ("on the street", False),
    ],
)
def test_a_side_said_after_off_is_the_opposite_of_the_word_alone(said, parked):
    dialogue = _dialogue("a canoe on saturday at 10 for 2 hours, 2 of us")
    assert dialogue.session.asked == "parked"
    dialogue.turn(said)
    assert dialogue.slots.get("parked") is parked


_ALL = ("a single kayak on saturday at 10 for 2 hours, 2 of us", "yes, on the drive", "Rosa Klein")


@pytest.mark.parametrize(
    "said",
    ["yes that's everything thanks", "yes, that's grand", "Proceed", "yes please do", "yes do"],  # (round 19)
)
def test_a_message_of_yes_words_at_the_confirmation_is_a_yes_and_no_value(said):
    dialogue = _dialogue(*_ALL)
    assert dialogue.node == "confirm"
    result = dialogue.turn(said)
    assert [call.arguments["boat"] for call in result.tool_calls] == ["single kayak"]


def test_a_name_after_whose_name_it_is_goes_under_that_name():
    dialogue = _dialogue("a canoe on saturday at 10 for 2 hours")
    assert dialogue.session.asked == "people"
    dialogue.turn("put it under my name please, Rosa Klein")
    assert dialogue.slots.get("customer_name") == "Rosa Klein"


# ------------------------------------------------------------------ the second part of round 14's classes
def _kayak_with(index: int, slot: dict[str, Any]) -> dict[str, Any]:
    """KAYAK with the ask node's slot at ``index`` replaced by ``slot`` (the rest shared, unchanged)."""
    ask = dict(KAYAK["nodes"][0])
    ask["slots"] = [*ask["slots"][:index], slot, *ask["slots"][index + 1 :]]
    return {**KAYAK, "nodes": [ask, *KAYAK["nodes"][1:]]}


def test_a_short_value_of_a_held_slot_is_a_change_where_every_slot_is_held():
    """Where nothing is asked (the confirmation), a value of three letters is no ordinary word in passing: "a van"."""
    boat = {**KAYAK["nodes"][0]["slots"][0], "values": ["single kayak", "canoe", "sup"]}
    dialogue = played(_kayak_with(0, boat), NOW, *_ALL)
    assert dialogue.node == "confirm"
    dialogue.turn("no, it's my son's sup we want, not a kayak")
    assert dialogue.slots["boat"] == "sup"


@pytest.mark.parametrize("said", ["just the kayak", "only the kayak please"])
def test_a_restricting_synonym_is_said_by_just_and_its_core(said):
    """The description gives "kayak only" for the single kayak: "just the kayak" says it."""
    boat = {
        **KAYAK["nodes"][0]["slots"][0],
        "description": "What is hired (single kayak: kayak only; paddle package: everything)",
    }
    assert played(_kayak_with(0, boat), NOW, said).slots.get("boat") == "single kayak"


@pytest.mark.parametrize(("said", "parked"), [("a bit, it's a shared drive", True), ("loads", True), ("no", False)])
def test_how_much_there_is_answers_a_question_asking_for_any(said, parked):
    parking = {"name": "parked", "type": "boolean", "ask": "Is there any parking space at your house?"}
    dialogue = played(_kayak_with(5, parking), NOW, "a canoe on saturday at 10 for 2 hours, 2 of us", said)
    assert dialogue.slots.get("parked") is parked


@pytest.mark.parametrize(
    "said", ["sorry, it's Rosa Klein-Moss", "nearly, it's Rosa Klein-Moss, with a hyphen", "sorry - Rosa Klein-Moss"]
)
def test_a_full_name_said_again_to_put_it_right_at_the_confirmation(said):
    dialogue = _dialogue(*_ALL)
    dialogue.turn(said)
    assert dialogue.slots["customer_name"] == "Rosa Klein-Moss" and dialogue.node == "confirm"


def test_an_approximate_hour_in_a_sentence_of_its_own_answers_the_time_asked():
    dialogue = _dialogue("a canoe on saturday")
    assert dialogue.session.asked == "start_time"
    dialogue.turn("sorry, saturday's right. 10ish is fine")
    assert dialogue.slots.get("start_time") == "10:00"


@pytest.mark.parametrize(
    ("said", "parked"),
    [
        ("a canoe on saturday at 10, the car will be on the drive", True),
        ("a canoe on saturday at 10, I'll leave the car on the street", False),
        ("a canoe on saturday at 10, the car will be at 12 Mill Road", None),  # an address's road says no side
        ("a canoe on saturday at 10, is the street busy?", None),  # a question states nothing
    ],
)
def test_a_side_of_a_boolean_said_in_passing_by_its_own_words(said, parked):
    assert _dialogue(said).slots.get("parked") is parked


def test_none_of_a_kind_said_in_passing_is_a_no():
    pets = {"name": "parked", "type": "boolean", "label": "pets aboard", "ask": "Any pets coming along?"}
    dialogue = played(_kayak_with(5, pets), NOW, "a canoe on saturday at 10, no dogs this time")
    assert dialogue.slots.get("parked") is False


def test_an_email_said_in_words_is_no_name():
    dialogue = _dialogue("a canoe on saturday at 10 for 2 hours, 2 of us, on the drive")
    assert dialogue.session.asked == "customer_name"
    dialogue.turn("rosa dot klein at gmail dot com")
    assert "customer_name" not in dialogue.slots


@pytest.mark.parametrize(("said", "people"), [("it's just for my daughter, she's 12", 1), ("3 of us, I'm 40", 3)])
def test_an_age_said_of_someone_is_no_head_count(said, people):
    dialogue = _dialogue("a canoe on saturday at 10 for 2 hours")
    assert dialogue.session.asked == "people"
    dialogue.turn(said)
    assert dialogue.slots.get("people") == people


def test_a_group_said_beside_a_range_of_times_counts_people_and_its_number_is_no_time():
    slots = _dialogue("a canoe on saturday 2 till 5, we're a four piece").slots
    assert (slots["start_time"], slots["hours"], slots["people"]) == ("14:00", 3, 4)
