"""Round 27's classes, each a general mechanism, tested on wordings of their own on a small sauna repair flow and a
bowling-alley flow:

- a fault told in choosing the job ("the heater trips the fuse every time it warms up, can someone come?"), then the
  fault question answered with other values alone ("it holds six"): the fault is what was told; a customer who
  answers the fault question describes there;
- a count said by its slot's words ("a four seater"), or a number alone, is no description;
- a number the question itself says ("anyone under 16?") is no value of the reply;
- in a change, "two more" and "one of the ..." are no new count;
- a clause that is only a number of people ("for 9 children") is the head count, in passing (a held one stays);
- "for 2 at 11" is a party of two;
- "same time next week" is a day and a clock time;
- asked how long, "until 9" is where it ends: the length from the held start;
- "that's all right" is no goodbye; "sound" is a yes;
- a boolean described as doing without something, its yes side's examples in brackets, is told in passing by them;
- one word left of a synonym that another value's synonyms say too ("games") names neither;
- a value's own word said as the subject of a verb ("the water's gone cloudy") names it no more than its forms do: a
  proposal said back, at most;
- a request beside a word of the flow's own name ("something's gone wrong with our sauna, can you send someone
  out?") is its task: the question is asked again, with no "only ... here";
- "on one side" counts nothing; "can we do his party?" keeps the value the question asked, though "party" also names
  another slot.
"""

from __future__ import annotations

from typing import Any

import pytest

from fsmdial.language import parse_yes_no, read_acts
from fsmdial.language.phrases import CLOSING_PATTERN, GOODBYE_PATTERN
from tests.flows import played

SAUNA: dict[str, Any] = {
    "name": "sauna_care",
    "description": "Book a sauna technician's visit.",
    "nodes": [
        {
            "id": "ask_job",
            "type": "request",
            "slots": [
                {
                    "name": "job",
                    "type": "categorical",
                    "values": ["service", "repair"],
                    "description": "What the visit is for (service: yearly check, clean; repair: fault, broken, not "
                    "working, tripping the fuse, heater not warming)",
                    "ask": "Is it a service or a repair?",
                }
            ],
        },
        {
            "id": "ask_fault",
            "type": "request",
            "slots": [
                {
                    "name": "fault",
                    "type": "text",
                    "label": "fault",
                    "description": "What is wrong with the sauna, in the customer's words",
                    "ask": "Sorry to hear that. What is it doing?",
                }
            ],
        },
        {
            "id": "ask_rest",
            "type": "request",
            "slots": [
                {
                    "name": "seats",
                    "type": "integer",
                    "minimum": 1,
                    "maximum": 12,
                    "label": "size",
                    "description": "How many people the sauna holds (a 4-seater holds 4)",
                    "ask": "How many people does it hold?",
                },
                {
                    "name": "outside_access",
                    "type": "boolean",
                    "label": "outside access",
                    "description": "Whether the technician can reach the sauna without going through the house (a "
                    "garden gate or a back lane)",
                    "ask": "Can the technician get to it from outside?",
                },
                {"name": "customer_name", "type": "person_name", "ask": "What name is it under?"},
            ],
        },
        {"id": "done", "type": "end", "message": "Booked: {job} ({fault}) for {customer_name}."},
    ],
    "edges": [
        {"source": "ask_job", "target": "ask_fault", "when": {"slot": "job", "op": "eq", "value": "repair"}},
        {"source": "ask_job", "target": "ask_rest"},
        {"source": "ask_fault", "target": "ask_rest"},
        {"source": "ask_rest", "target": "done"},
    ],
    "fallbacks": {"out_of_scope": "Sorry, I can only book sauna visits."},
}
NOW = "2027-05-03T10:00"


def test_the_description_a_value_leads_to_is_found_from_the_edges():
    assert played(SAUNA, NOW).understanding_state().details == (("job", "repair", "fault"),)


@pytest.mark.parametrize(
    ("opening", "then", "fault", "seats"),
    [
        (
            "hi, our sauna heater trips the fuse every time it warms up, can someone come and look?",
            "it holds six",
            "our sauna heater trips the fuse every time it warms up",
            6,
        ),
        (
            "Morning. The sauna's not working since the storm and the control panel is blank",
            "a four seater",
            "The sauna's not working since the storm and the control panel is blank",
            4,
        ),
        ("it's not really a service, the heater's not warming past forty, so a repair", "3", None, 3),
    ],
)
def test_a_fault_told_in_choosing_the_job_answers_the_fault_question(opening, then, fault, seats):
    dialogue = played(SAUNA, NOW, opening)
    assert dialogue.slots["job"] == "repair" and "fault" not in dialogue.slots
    dialogue.turn(then)
    assert dialogue.slots["seats"] == seats
    expected = fault or "the heater's not warming past forty"
    assert dialogue.slots["fault"] == expected


def test_a_fault_question_answered_with_a_description_takes_that():
    dialogue = played(SAUNA, NOW, "my sauna is broken, can you fix it?", "the stones never get hot and it smells")
    assert dialogue.slots["fault"] == "the stones never get hot and it smells"


def test_no_fault_is_taken_from_a_request_alone():
    dialogue = played(SAUNA, NOW, "I need a repair please")
    reply = dialogue.turn("five seater").text
    assert dialogue.slots["seats"] == 5 and "fault" not in dialogue.slots
    assert "What is it doing?" in reply


BOWLING: dict[str, Any] = {
    "name": "bowling_lanes",
    "description": "Book a bowling lane.",
    "nodes": [
        {
            "id": "ask",
            "type": "request",
            "slots": [
                {
                    "name": "lane",
                    "type": "categorical",
                    "values": ["standard lane", "coached game"],
                    "description": "What is booked (standard lane: a normal lane, a games lane; coached game: a games "
                    "coach, someone to teach us, learning new games)",
                    "ask": "A standard lane or a coached game?",
                },
                {"name": "day", "type": "date", "earliest": "today", "ask": "Which day?"},
                {"name": "start", "type": "time", "earliest": "10:00", "latest": "22:00", "ask": "What time?"},
                {
                    "name": "hours",
                    "type": "duration",
                    "unit": "hours",
                    "minimum": 1,
                    "maximum": 4,
                    "description": "How long the lane is booked, in hours",
                    "ask": "How long would you like it for?",
                },
                {
                    "name": "kids",
                    "type": "boolean",
                    "label": "under-16s",
                    "description": "Whether anyone in the group is under 16",
                    "ask": "Will anyone be under 16?",
                },
            ],
        },
        {
            "id": "ask_people",
            "type": "request",
            "slots": [
                {
                    "name": "people",
                    "type": "integer",
                    "minimum": 1,
                    "maximum": 20,
                    "description": "How many people are bowling",
                    "ask": "How many of you?",
                },
                {"name": "customer_name", "type": "person_name", "ask": "What name is it under?"},
            ],
        },
        {
            "id": "confirm",
            "type": "inform_and_confirm",
            "message": "A {lane} for {people} on {day} at {start} for {hours} hours, under-16s: {kids}, for "
            "{customer_name}.",
            "question": "Shall I book it?",
        },
        {
            "id": "book",
            "type": "external_action",
            "tool": "book_lane",
            "commits": True,
            "arguments": {"lane": "lane", "people": "people", "hours": "hours"},
        },
        {"id": "done", "type": "end", "message": "Booked."},
    ],
    "edges": [
        {"source": "ask", "target": "ask_people"},
        {"source": "ask_people", "target": "confirm"},
        {"source": "confirm", "target": "book"},
        {"source": "book", "target": "done"},
    ],
}
EVENING = "2027-05-05T18:00"


def test_a_bound_the_question_says_is_no_value_of_the_reply():
    dialogue = played(BOWLING, EVENING, "a standard lane for 4 tomorrow at 7pm for 2 hours")
    dialogue.turn("no, nobody under 16, we're all grown ups")
    assert dialogue.slots["people"] == 4 and dialogue.slots["kids"] is False


def test_two_more_and_one_of_the_are_no_new_count_in_a_change():
    dialogue = played(BOWLING, EVENING, "a standard lane for 5 tomorrow at 7pm for 2 hours", "no", "Jo Bell")
    dialogue.turn("oh, can you make it 7 people, two more are coming after all")
    assert dialogue.slots["people"] == 7
    dialogue.turn("actually can we do one of the coached games instead? 3 hours")
    assert dialogue.slots["hours"] == 3


@pytest.mark.parametrize(("said", "people"), [("yes, for 9 children", 9), ("yes, there'll be 12 kids", 12)])
def test_a_clause_that_is_only_a_number_of_people_is_the_head_count(said, people):
    dialogue = played(BOWLING, EVENING, "a standard lane tomorrow at 7pm for 2 hours")
    assert dialogue.understanding_state().asked == "kids"
    dialogue.turn(said)
    assert dialogue.slots["people"] == people and dialogue.slots["kids"] is True


def test_a_number_of_people_in_passing_replaces_no_held_count():
    dialogue = played(BOWLING, EVENING, "a standard lane for 5 tomorrow at 7pm for 2 hours")
    dialogue.turn("yes, two children")
    assert dialogue.slots["people"] == 5 and dialogue.slots["kids"] is True


def test_for_two_at_eleven_is_a_party_of_two():
    dialogue = played(BOWLING, "2027-05-05T09:00", "Morning, lane for 2 at 11 today please")
    assert dialogue.slots["people"] == 2 and dialogue.slots["start"] == "11:00"


@pytest.mark.parametrize(("said", "day"), [("same time next week", "2027-05-12"), ("this time tomorrow", "2027-05-06")])
def test_same_time_another_day_is_that_day_at_now(said, day):
    dialogue = played(BOWLING, EVENING, "a standard lane for 4")
    dialogue.turn(said)
    assert dialogue.slots["day"] == day and dialogue.slots["start"] == "18:00"


def test_until_to_the_length_question_counts_from_the_held_start():
    dialogue = played(BOWLING, EVENING, "a standard lane for 4 tomorrow at 6pm")
    assert dialogue.understanding_state().asked == "hours"
    dialogue.turn("until 9 if that's ok")
    assert dialogue.slots["start"] == "18:00" and dialogue.slots["hours"] == 3


def test_all_right_is_no_goodbye_and_sound_is_a_yes():
    for said in ("yep that's all right", "that's all good", "that is all correct"):
        assert not GOODBYE_PATTERN.search(said) and not CLOSING_PATTERN.search(said), said
    assert GOODBYE_PATTERN.search("that's all, thanks") and CLOSING_PATTERN.search("that's all for now")
    assert parse_yes_no("sound") == "yes" and read_acts("sound cheers").plain_yes
    assert parse_yes_no("the pump makes a sound") is None


@pytest.mark.parametrize(
    ("said", "access"),
    [("there's a garden gate round the side", True), ("it's down a back lane", True), ("just going out", None)],
)
def test_a_without_description_is_told_in_passing_by_its_examples(said, access):
    dialogue = played(SAUNA, NOW, "a yearly service please")
    dialogue.turn(f"it holds 4, {said}")
    assert dialogue.slots.get("outside_access") is access


def test_a_word_two_values_synonyms_share_names_neither():
    dialogue = played(BOWLING, EVENING)
    dialogue.turn("3 hours, enough to pick up a few games?")
    assert "lane" not in dialogue.slots
    dialogue.turn("a games lane please")
    assert dialogue.slots["lane"] == "standard lane"


def test_on_one_side_counts_nothing():
    dialogue = played(SAUNA, NOW, "a yearly service please")
    assert dialogue.understanding_state().asked == "seats"
    dialogue.turn("sorry, it's a repair really, the door seal has split on one side")
    assert dialogue.slots["job"] == "repair" and "seats" not in dialogue.slots


PARTIES: dict[str, Any] = {
    "name": "soft_play",
    "description": "Book soft play.",
    "nodes": [
        {
            "id": "ask",
            "type": "request",
            "slots": [
                {
                    "name": "session",
                    "type": "categorical",
                    "values": ["open play", "birthday party"],
                    "description": "What is booked (birthday party: a party, kids party)",
                    "ask": "Open play or a birthday party?",
                },
                {
                    "name": "party_food",
                    "type": "boolean",
                    "label": "party food",
                    "description": "Whether the party has the party food package",
                    "ask": "Would you like the party food?",
                },
            ],
        },
        {"id": "done", "type": "end", "message": "Booked."},
    ],
    "edges": [{"source": "ask", "target": "done"}],
}


@pytest.mark.parametrize("said", ["can we do his party here?", "can we do my daughter's party?"])
def test_a_change_cue_at_the_first_question_keeps_the_value_it_asked(said):
    dialogue = played(PARTIES, NOW)
    dialogue.turn(said)
    assert dialogue.slots["session"] == "birthday party"


POOL: dict[str, Any] = {
    "name": "pool_care",
    "description": "Book a pool visit.",
    "nodes": [
        {
            "id": "ask",
            "type": "request",
            "slots": [
                {
                    "name": "job",
                    "type": "categorical",
                    "values": ["water change", "pump repair"],
                    "ask": "A water change or a pump repair?",
                },
                {"name": "customer_name", "type": "person_name", "ask": "What name is it under?"},
            ],
        },
        {"id": "done", "type": "end", "message": "Booked: {job} for {customer_name}."},
    ],
    "edges": [{"source": "ask", "target": "done"}],
}


@pytest.mark.parametrize("said", ["the water's gone cloudy since Tuesday", "the water is green"])
def test_a_values_own_word_said_as_a_subject_names_it_no_more_than_its_forms_do(said):
    reply = played(POOL, NOW).turn(said).text
    assert "I take it" in reply or "water change or a pump repair" in reply


@pytest.mark.parametrize("said", ["the water please", "water, it's overdue"])
def test_a_values_own_word_alone_still_names_it(said):
    dialogue = played(POOL, NOW)
    reply = dialogue.turn(said).text
    assert dialogue.slots["job"] == "water change" and "I take it" not in reply


@pytest.mark.parametrize(
    ("said", "in_scope"),
    [
        ("Hi, something's gone wrong with our sauna, can you send someone out?", True),
        ("my saunas need looking at, could someone come round?", True),
        ("do you sell sauna stones?", False),
        ("can you send someone to fix my boiler?", False),
    ],
)
def test_a_request_beside_the_flows_own_name_is_its_task_not_out_of_scope(said, in_scope):
    reply = played(SAUNA, NOW).turn(said).text
    assert ("Is it a service or a repair?" in reply) and (("Sorry" in reply) is not in_scope), reply


QUIZ: dict[str, Any] = {
    "name": "pub_quiz",
    "description": "A quiz round.",
    "nodes": [
        {
            "id": "ask",
            "type": "request",
            "slots": [{"name": "answer", "type": "text", "ask": "How many legs has a spider?"}],
        },
        {
            "id": "ask_round",
            "type": "request",
            "slots": [
                {"name": "round_number", "type": "integer", "minimum": 1, "maximum": 9, "ask": "Which round next?"}
            ],
        },
        {"id": "done", "type": "end", "message": "You said {answer}."},
    ],
    "edges": [{"source": "ask", "target": "ask_round"}, {"source": "ask_round", "target": "done"}],
}


def test_a_number_alone_answers_a_free_text_question_that_wants_no_description():
    dialogue = played(QUIZ, NOW, "8")
    assert dialogue.slots["answer"] == "8" and "round_number" not in dialogue.slots


def test_a_value_said_as_what_something_is_still_names_it():
    reply = played(POOL, NOW).turn("the water change is what we need").text
    assert "I take it" not in reply
    for said in ("That's all! Good day!", "that's all, good night"):
        assert GOODBYE_PATTERN.search(said.replace("!", "")), said


@pytest.mark.parametrize(
    "said", ["can you tell me if there's outside access?", "do you know whether a garden gate is enough?"]
)
def test_asking_whether_states_nothing(said):
    dialogue = played(SAUNA, NOW, "a yearly service please", "it holds 4")
    dialogue.turn(f"Bob Hart. Also, {said}")
    assert "outside_access" not in dialogue.slots


NOTES: dict[str, Any] = {
    "name": "piano_lesson",
    "description": "Book a piano lesson.",
    "nodes": [
        {
            "id": "ask",
            "type": "request",
            "slots": [
                {"name": "notes", "type": "text", "ask": "Anything the teacher should know?"},
                {"name": "day", "type": "date", "earliest": "today", "ask": "Which day?"},
                {"name": "start", "type": "time", "ask": "What time?"},
            ],
        },
        {"id": "done", "type": "end", "message": "Booked."},
    ],
    "edges": [{"source": "ask", "target": "done"}],
}


def test_a_text_answer_keeps_same_time_as_said():
    dialogue = played(NOTES, EVENING, "I'd like the same time next week as my sister")
    assert dialogue.slots["notes"] == "I'd like the same time next week as my sister"
