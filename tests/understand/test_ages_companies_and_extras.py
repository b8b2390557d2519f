"""Round 21's classes, each a general mechanism, tested on wordings of its own on a small bowling-alley flow:

- "I don't think so" is a no and "I think so" a yes; "sound" (British slang) a yes;
- a surname that is also a noun, lower case, after a first name ("gareth price");
- a question intent whose example starts with an adverb ("roughly what would it cost") is asked by its content words;
- "there's one by the back door" to "is there ...?" is a yes, "there isn't one" a no; "there's one problem" neither;
- a change at a confirmation takes no value from a clause that denies ("I meant the patio, we haven't got a deck");
- the answer to a company's name is the company ("it's for Hallam Architects"), never the person's name;
- ages said to a question about under-Ns answer it ("one of them is 14"), and are no count;
- people said by who they are ("20 staff", "6 lads") are a count; a number before another noun ("4 lanes") is not;
- an extra asked for "with the ..." is a yes, and "scrap the ..." a no;
- an ordinal before "birthday" or after whose it is ("a 30th birthday", "her 40th") is an age, no day;
- "a lane just for myself" is a party of one, though the count is not asked yet.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from fsmdial.language import date_readings, parse_yes_no
from fsmdial.language.names import find_name
from fsmdial.understand.rules import RulesUnderstander
from tests.flows import played

ALLEY: dict[str, Any] = {
    "name": "bowling_alley",
    "description": "Book bowling lanes.",
    "examples": ["I'd like to book a bowling lane"],
    "nodes": [
        {
            "id": "ask_kind",
            "type": "request",
            "slots": [
                {
                    "name": "kind",
                    "type": "categorical",
                    "values": ["lane", "party", "corporate"],
                    "description": "lane; party (a birthday party); corporate (a work do, team event)",
                    "ask": "A lane, a party or a corporate booking?",
                },
            ],
        },
        {
            "id": "ask_company",
            "type": "request",
            "slots": [{"name": "company", "type": "text", "label": "company", "ask": "Which company is it for?"}],
        },
        {
            "id": "ask_details",
            "type": "request",
            "slots": [
                {
                    "name": "bowlers",
                    "type": "integer",
                    "minimum": 1,
                    "maximum": 30,
                    "description": "How many people will bowl",
                    "ask": "How many of you will be bowling?",
                },
                {
                    "name": "food",
                    "type": "boolean",
                    "label": "party food",
                    "description": "Whether the party adds the food platter",
                    "ask": "Would you like to add our party food platter?",
                },
                {
                    "name": "under_16s",
                    "type": "boolean",
                    "label": "under-16s",
                    "ask": "Will anyone be under 16?",
                },
                {
                    "name": "outside_seating",
                    "type": "boolean",
                    "label": "outside seating",
                    "ask": "Is there outside seating you'd like to reserve?",
                },
                {"name": "day", "type": "date", "earliest": "today", "ask": "Which day?"},
                {"name": "customer_name", "type": "person_name", "ask": "What name is it under?"},
            ],
        },
        {
            "id": "confirm",
            "type": "inform_and_confirm",
            "message": "{kind} for {bowlers} on {day}, food: {food}, under-16s: {under_16s}, for {customer_name}.",
            "question": "Shall I book it?",
        },
        {"id": "done", "type": "end", "message": "Booked."},
    ],
    "edges": [
        {"source": "ask_kind", "target": "ask_company", "when": {"slot": "kind", "op": "eq", "value": "corporate"}},
        {"source": "ask_kind", "target": "ask_details"},
        {"source": "ask_company", "target": "ask_details"},
        {"source": "ask_details", "target": "confirm"},
        {"source": "confirm", "target": "done", "when": {"answer": "yes"}},
    ],
    "global_actions": [
        {
            "intent": "prices",
            "examples": ["how much is it", "roughly what would it cost"],
            "response": "A lane is 30 GBP an hour.",
        }
    ],
}
NOW = "2027-01-04T10:00"  # a Monday


def _alley(*said: str):
    return played(ALLEY, NOW, *said)


@pytest.mark.parametrize(
    ("said", "answer"),
    [("I don't think so", "no"), ("i do not believe so", "no"), ("I think so, yes", "yes"), ("sound, book it", "yes")],
)
def test_hedged_and_slang_answers(said, answer):
    assert parse_yes_no(said) == answer


def test_a_lower_case_surname_that_is_a_noun():
    assert find_name("gareth price", True) == "gareth price"
    assert find_name("book table", True) is None  # no first name before the noun


def test_a_question_intent_whose_example_starts_with_an_adverb():
    dialogue = _alley("a lane please")
    assert "30 GBP" in dialogue.turn("what would that cost?").text


@pytest.mark.parametrize(
    ("said", "value"),
    [
        ("yes, there's one out the back", True),
        ("just had a look, there's one by the entrance", True),
        ("there isn't one", False),
        ("there's none", False),
    ],
)
def test_there_is_one_answers_is_there(said, value):
    dialogue = _alley("a lane please", "6", "no", "no")
    assert dialogue.session.asked == "outside_seating"
    dialogue.turn(said)
    assert dialogue.slots["outside_seating"] is value


def test_there_is_one_problem_answers_nothing():
    dialogue = _alley("a lane please", "6", "no", "no")
    dialogue.turn("there's one problem, it's raining")
    assert "outside_seating" not in dialogue.slots


def test_the_company_asked_is_the_company_not_a_persons_name():
    dialogue = _alley("a corporate booking", "it's for Hallam Architects")
    assert dialogue.slots["company"] == "Hallam Architects"
    assert "customer_name" not in dialogue.slots
    assert _alley("corporate", "Castlegate Solicitors").slots["company"] == "Castlegate Solicitors"


@pytest.mark.parametrize(
    ("said", "value"),
    [("we've got one apprentice who's 15", True), ("yes, two of them are 14", True), ("no, all adults", False)],
)
def test_ages_answer_a_question_about_under_16s_and_count_nobody(said, value):
    dialogue = _alley("a lane please", "12", "no")
    assert dialogue.session.asked == "under_16s"
    dialogue.turn(said)
    assert dialogue.slots["under_16s"] is value
    assert dialogue.slots["bowlers"] == 12


@pytest.mark.parametrize(("said", "count"), [("a work do for 20 staff", 20), ("a party for 6 lads", 6)])
def test_people_said_by_who_they_are_count(said, count):
    assert _alley(said).slots["bowlers"] == count


def test_a_number_before_another_noun_counts_no_bowlers():
    dialogue = _alley("hi, we need 2 lanes on saturday")
    assert "bowlers" not in dialogue.slots
    assert _alley("hi, we're 5, on saturday").slots["bowlers"] == 5


def test_an_extra_with_the_is_a_yes_and_scrap_the_is_a_no():
    dialogue = _alley("a party for six, with the food platter")
    assert dialogue.slots["food"] is True
    dialogue.turn("actually scrap the food platter, we're going for a curry after")
    assert dialogue.slots["food"] is False


@pytest.mark.parametrize("said", ["a 30th birthday party", "it's her 40th", "my son's 16th birthday"])
def test_an_ordinal_age_is_no_day(said):
    assert date_readings(said, dt.datetime.fromisoformat(NOW)) == ()


def test_a_day_beside_an_ordinal_age_is_still_read():
    assert date_readings("my son's 16th birthday on the 20th", dt.datetime.fromisoformat(NOW))[0] == "2027-01-20"


def test_a_lane_just_for_myself_is_a_party_of_one():
    assert _alley("I'd like a lane just for myself to practise").slots["bowlers"] == 1


def test_a_change_takes_no_value_from_a_clause_that_denies():
    dialogue = _alley("a lane please", "4", "no", "no", "no", "saturday", "Ann Lee")
    assert dialogue.session.node == "confirm"
    dialogue.turn("sorry, I said a lane but I meant a party, we don't want a lane")
    assert dialogue.slots["kind"] == "party"


# Round 22's classes, on a small climbing-wall flow of this file's own.
WALL: dict[str, Any] = {
    "name": "climbing_wall",
    "nodes": [
        {
            "id": "ask",
            "type": "request",
            "slots": [
                {
                    "name": "climbers",
                    "type": "integer",
                    "minimum": 1,
                    "maximum": 8,
                    "description": "How many people will climb",
                    "ask": "How many of you?",
                },
                {"name": "start", "type": "time", "earliest": "10:00", "latest": "21:00", "ask": "What time?"},
                {
                    "name": "harness_hire",
                    "type": "boolean",
                    "label": "harness hire",
                    "description": "Whether the climbers hire harnesses from us; otherwise they bring their own",
                    "ask": "Will you hire harnesses, or are you bringing your own?",
                },
                {
                    "name": "own_rope",
                    "type": "boolean",
                    "label": "own rope",
                    "description": "Whether the customer already has a rope (yes) or the instructor brings one (no)",
                    "ask": "Have you got a rope, or shall the instructor bring one?",
                },
            ],
        },
        {"id": "done", "type": "end", "message": "Booked."},
    ],
    "edges": [{"source": "ask", "target": "done"}],
}
WALL_NOW = "2027-01-09T16:10"


def _wall(*said: str):
    return played(WALL, WALL_NOW, *said)


@pytest.mark.parametrize(
    ("said", "hire"),
    [
        ("he has his own harness", False),
        ("nope, got my own", False),
        ("two of us need harnesses, the others have their own", True),  # some need them
    ],
)
def test_ones_own_chooses_the_side_of_bringing_it(said, hire):
    dialogue = _wall("4", "6pm")
    assert dialogue.session.asked == "harness_hire"
    dialogue.turn(said)
    assert dialogue.slots["harness_hire"] is hire


def test_ones_own_said_in_passing():
    assert _wall("4 of us at 6pm, we've got our own harnesses").slots["harness_hire"] is False


@pytest.mark.parametrize("said", ["I'd need you to supply it", "you provide one please", "can you bring one"])
def test_supplying_is_the_side_of_whoever_brings_it(said):
    dialogue = _wall("4", "6pm", "no")
    assert dialogue.session.asked == "own_rope"
    dialogue.turn(said.replace("?", ""))
    assert dialogue.slots["own_rope"] is False


def test_a_part_of_the_party_said_to_another_question_is_no_new_count():
    dialogue = _wall("5", "6pm")
    dialogue.turn("3 of us need harnesses")
    assert dialogue.slots["climbers"] == 5
    assert dialogue.slots["harness_hire"] is True


@pytest.mark.parametrize(
    ("said", "count"),
    [
        ("I want to come on saturday with two mates", 3),
        ("on sunday at 6pm, just for me", 1),
        ("I'd like to book for myself at 6pm", 1),
    ],
)
def test_oneself_with_others_or_alone(said, count):
    assert _wall(said).slots["climbers"] == count


@pytest.mark.parametrize(("said", "time"), [("quater to 7", "18:45"), ("in an hour or so, say 5:15", "17:15")])
def test_a_typo_of_quarter_and_a_time_settled_on(said, time):
    assert _wall("2", said).slots["start"] == time


def test_sound_before_a_yes_is_a_plain_yes():
    from fsmdial.language import read_acts

    assert read_acts("sound, book it").plain_yes and not read_acts("the sound is bad").affirm


def test_a_booking_for_twins_counts_two():
    assert _wall("a session please for my twins").slots["climbers"] == 2


def test_i_would_like_two_is_no_hour():
    from fsmdial.language.times import read_clock

    now = dt.datetime.fromisoformat(WALL_NOW)
    assert read_clock("I'd like two outdoor cameras fitted, tuesday morning at 9.30", now) == "09:30"
    assert read_clock("come round like 3 in the afternoon", now) == "15:00"


def test_a_couple_of_things_counts_two():
    assert _wall("a couple of climbers at 6pm").slots["climbers"] == 2


def test_having_the_thing_already_answers_the_question_to_come():
    flow = {
        "name": "fitting",
        "nodes": [
            {
                "id": "ask",
                "type": "request",
                "slots": [
                    {
                        "name": "item",
                        "type": "categorical",
                        "values": ["blind", "curtain pole"],
                        "description": "What is fitted (blind: roller blind, roman blind; curtain pole: pole, rail)",
                        "ask": "A blind or a curtain pole?",
                    },
                    {
                        "name": "has_it",
                        "type": "boolean",
                        "description": "Whether the customer already has the item to fit (yes) or we bring one (no)",
                        "ask": "Have you got it already, or shall we bring one?",
                    },
                ],
            },
            {"id": "done", "type": "end", "message": "Booked."},
        ],
        "edges": [{"source": "ask", "target": "done"}],
    }
    assert played(flow, WALL_NOW, "I've bought a roman blind and need it putting up").slots["has_it"] is True
    assert "has_it" not in played(flow, WALL_NOW, "I'd like a roman blind fitting").slots


def test_name_as_a_form_field():
    assert find_name("Monday at 9. Name Richard Hale, 07700 900 571", False) == "Richard Hale"
    assert find_name("ok. name please?", False) is None


def test_the_model_path_keeps_every_value_the_rules_read_at_a_confirmation():
    # "an hour would do" at a summary showing "for 1": the coaching's first hour, as the rules path books it
    from fsmdial.understand.constraint.schema import standing

    flow = {
        "name": "coaching",
        "nodes": [
            {
                "id": "ask",
                "type": "request",
                "slots": [
                    {"name": "climbers", "type": "integer", "minimum": 1, "maximum": 8, "ask": "How many?"},
                    {"name": "kind", "type": "categorical", "values": ["open", "coaching"], "ask": "Which?"},
                ],
            },
            {"id": "confirm", "type": "inform_and_confirm", "message": "{kind} for {climbers}.", "question": "OK?"},
            {
                "id": "ask_hours",
                "type": "request",
                "slots": [
                    {
                        "name": "hours",
                        "type": "duration",
                        "unit": "hours",
                        "minimum": 1,
                        "maximum": 3,
                        "ask": "How long?",
                    }
                ],
            },
            {"id": "done", "type": "end", "message": "Booked."},
        ],
        "edges": [
            {"source": "ask", "target": "confirm"},
            {"source": "confirm", "target": "done", "when": {"answer": "yes"}},
            {"source": "confirm", "target": "ask_hours", "when": {"answer": "no"}},
            {"source": "ask_hours", "target": "done"},
        ],
    }
    dialogue = played(flow, WALL_NOW, "1", "open")
    state, now = dialogue.understanding_state(), dt.datetime.fromisoformat(WALL_NOW)
    said = "could I change it to coaching instead? an hour would do"
    rules = RulesUnderstander().understand(state, said, history=dialogue.session.history, now=now)
    kept = standing(RulesUnderstander(), state, said, dialogue.session.history, now)
    assert kept.slots == rules.slots and rules.slots.get("hours") == 1


@pytest.mark.parametrize(
    ("said", "count"),
    [
        ("two, one at the front and one for the back garden", 2),
        ("just one at the front... actually no, make it two, one for the back garden too", 2),
        ("just one at the front", 1),
    ],
)
def test_a_one_put_somewhere_is_a_thing_not_a_count(said, count):
    assert _wall(said).slots["climbers"] == count


def test_one_in_the_afternoon_is_still_an_hour():
    from fsmdial.understand.rules.pronoun_one import counted_numbers

    assert counted_numbers("can we do one in the afternoon instead") == [1]


@pytest.mark.parametrize(
    ("said", "has_it"),
    [("I think my son ordered one... yeah he says it's arrived", True), ("no, I haven't bought one yet", False)],
)
def test_having_it_answers_the_question_asked(said, has_it):
    dialogue = _wall("4", "6pm", "no")
    assert dialogue.session.asked == "own_rope"
    dialogue.turn(said)
    assert dialogue.slots["own_rope"] is has_it


def test_a_number_before_a_counted_noun_is_no_clock_time():
    from fsmdial.language.times import read_clock
    from fsmdial.understand.rules.forms import counted_nouns, without_counted

    counted = counted_nouns(frozenset({"bike", "bikes"}))
    said = "could we do 3 o'clock, and it's actually just the one bike now"
    assert read_clock(without_counted(counted, "it's actually just the one bike now")) is None
    assert read_clock(without_counted(counted, said)) == "3:00 (12-hour clock)"
    assert counted_nouns(frozenset({"people"})) is None  # people words are read as counts already


def test_a_reason_of_being_in_work_gives_no_time():
    dialogue = _wall("2")
    dialogue.turn("3 o'clock... no sorry, make that 4, I'm in work till half 3")
    assert dialogue.slots["start"] == "16:00"
