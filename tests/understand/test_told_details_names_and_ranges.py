"""Round 24's classes, each a general mechanism, tested on wordings of their own on a small laptop-repair flow:

- a thing's make and model said in passing, in the shape of its text slot's examples ("my Dell XPS 13 won't boot"),
  is that slot's value: the question is skipped; a number that counts or measures, a clock time, or a name without an
  owner word before it is none;
- a word of the flow's own name is no cue for a text slot a model may fill: in a laptop repair flow "my laptop
  won't boot" offers the model no span for the laptop model;
- a yes/no question whose yes leads to a free-text question ("any pets?", then "tell us about them"), answered by
  telling what ("we've got two cats"), is a yes and that text; a reply saying there is none, asking, or giving
  another value is not;
- the answer to a thing's name question that is nothing but a moment or another slot's value ("first thing, 9
  o'clock", "original please") is that value, not the name;
- "and" before a subject with its own verb starts a clause ("the screen has lines on it and half the touchscreen
  doesn't work": the "doesn't" rules out no screen);
- a clause saying when the customer cannot ("I'm working till the 29th, so Wednesday the 30th?") gives no date;
- a date in two numbers that can each be the month ("12/01") is read month first unless only the day-first reading
  is inside the slot's bounds;
- what a count's question counts ("How many places?") names the count: "I'm after two places" is no 2 o'clock;
- the end of a range of times ("between 2 and 3") is no count;
- a day counted from another ("the monday after") with the day of the month said ("..., the 28th") is that day;
- a surname spelt letter by letter and then written out ("P R Y C E, Nicola Pryce") puts the surname right;
- at the summary, a yes/no that leads to asking what, put right by telling what ("oh wait, my son has a nut
  allergy"), takes both;
- a word of another slot's name names no number: "a podcast session for 2" is two people, not a session of 2 hours,
  where the length is labelled "length of the session".
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from fsmdial import Dialogue, load_flow
from fsmdial.understand.constraint.schema import standing, turn_schema
from fsmdial.understand.rules import RulesUnderstander
from fsmdial.understand.rules.shaped_names import shaped_name, shaped_slots
from tests.flows import played

LAPTOP: dict[str, Any] = {
    "name": "laptop_repair",
    "description": "Book a laptop repair at our workshop.",
    "examples": ["my laptop needs fixing"],
    "nodes": [
        {
            "id": "ask",
            "type": "request",
            "slots": [
                {
                    "name": "fault",
                    "type": "categorical",
                    "values": ["keyboard", "screen", "battery"],
                    "description": "What is wrong (keyboard: keys, sticky keys; screen: display, hinge; battery: "
                    "won't charge, dies quickly)",
                    "ask": "Is it the keyboard, the screen or the battery?",
                },
                {
                    "name": "laptop_model",
                    "type": "text",
                    "label": "laptop model",
                    "description": "Make and model of the laptop",
                    "examples": ["Dell XPS 13", "MacBook Air M2"],
                    "ask": "Which laptop is it?",
                },
                {"name": "customer_name", "type": "person_name", "ask": "What name is it under?"},
            ],
        },
        {"id": "done", "type": "end", "message": "Booked: {fault} on the {laptop_model} for {customer_name}."},
    ],
    "edges": [{"source": "ask", "target": "done"}],
}
NOW = "2027-03-01T10:00"


@pytest.mark.parametrize(
    ("said", "model"),
    [
        ("the keyboard on my Dell XPS 13 has sticky keys", "Dell XPS 13"),
        ("it's an hp envy 15, the battery dies in an hour", "hp envy 15"),
        ("my daughter's Lenovo T480 won't charge", "Lenovo T480"),
        ("a MacBook Air M2 with a cracked screen please", "MacBook Air M2"),
        ("the screen on a thinkpad x1 carbon has gone", "thinkpad x1 carbon"),
    ],
)
def test_a_make_and_model_said_in_passing_skips_its_question(said, model):
    dialogue = played(LAPTOP, NOW)
    reply = dialogue.turn(said).text
    assert dialogue.slots["laptop_model"] == model
    assert "Which laptop" not in reply


@pytest.mark.parametrize(
    "said",
    [
        "I dropped my laptop 2 days ago, the screen's cracked",  # a count of days
        "the screen, can you look at it at 2pm",  # a clock time
        "Dell XPS 13 screen",  # no owner word before it: not in passing
        "my Dell XPS 13 or my old HP Envy 15, the battery",  # two: none taken
    ],
)
def test_no_make_and_model_where_none_is_said_with_its_shape(said):
    dialogue = played(LAPTOP, NOW)
    dialogue.turn(said)
    assert "laptop_model" not in dialogue.slots


def test_only_a_slot_whose_examples_have_the_shape_reads_it():
    flow = load_flow(LAPTOP)
    slots = [slot for node in flow.nodes for slot in getattr(node, "slots", ())]
    assert [slot.name for slot, _ in shaped_slots(slots, flow.name)] == ["laptop_model"]
    unshaped = [slot.model_copy(update={"examples": ["a Dell", "my work laptop"]}) for slot in slots]
    assert shaped_slots(unshaped, flow.name) == ()
    (_, blocked), *_ = shaped_slots(slots, flow.name)
    assert shaped_name("my laptop 2 has a broken screen", blocked) is None  # "laptop" names the flow


def test_a_held_model_is_not_replaced_by_one_said_in_passing():
    dialogue = played(LAPTOP, NOW, "the keyboard", "Dell XPS 13")
    dialogue.turn("Sam Jones, my son's Acer Swift 3 is fine though")  # answers the name question
    assert dialogue.slots["laptop_model"] == "Dell XPS 13" and dialogue.slots["customer_name"] == "Sam Jones"


def test_a_word_of_the_flows_name_is_no_cue_for_a_models_span():
    dialogue = Dialogue(load_flow(LAPTOP), stand_in_tools=True, clock=lambda: dt.datetime(2027, 3, 1, 10))
    dialogue.start()
    state = dialogue.understanding_state()
    now = dt.datetime(2027, 3, 1, 10)
    text = "my laptop wont turn on unless i hold the lid at a funny angle"
    settled = standing(RulesUnderstander(), state, text, (), now)
    assert "laptop_model" not in turn_schema(state, text, now, settled=settled).text_slots
    cued = "the model is a Dell XPS 13 I think"
    settled = standing(RulesUnderstander(), state, cued, (), now)
    assert "laptop_model" in {*turn_schema(state, cued, now, settled=settled).text_slots, *settled.slots}


CLEANING: dict[str, Any] = {
    "name": "house_clean",
    "description": "Book a house clean.",
    "nodes": [
        {
            "id": "ask_pets",
            "type": "request",
            "slots": [{"name": "pets", "type": "boolean", "label": "pets", "ask": "Do you have any pets at home?"}],
        },
        {
            "id": "ask_pet_details",
            "type": "request",
            "slots": [{"name": "pet_details", "type": "text", "ask": "What pets, so the cleaner can prepare?"}],
        },
        {
            "id": "ask_name",
            "type": "request",
            "slots": [{"name": "customer_name", "type": "person_name", "ask": "What name is it under?"}],
        },
        {"id": "done", "type": "end", "message": "Booked for {customer_name}."},
    ],
    "edges": [
        {"source": "ask_pets", "target": "ask_pet_details", "when": {"slot": "pets", "op": "eq", "value": True}},
        {"source": "ask_pets", "target": "ask_name"},
        {"source": "ask_pet_details", "target": "ask_name"},
        {"source": "ask_name", "target": "done"},
    ],
}


def test_the_free_text_question_a_yes_leads_to_is_found_from_the_edges():
    dialogue = played(CLEANING, NOW)
    assert dialogue.understanding_state().details == (("pets", True, "pet_details"),)
    assert played(LAPTOP, NOW).understanding_state().details == ()


@pytest.mark.parametrize(
    ("said", "details"),
    [
        ("we've got two cats", "we've got two cats"),
        ("a very friendly labrador", "a very friendly labrador"),
        ("yes, a rabbit in the garden", "a rabbit in the garden"),
        ("my son's hamster lives in his room", "my son's hamster lives in his room"),
    ],
)
def test_telling_what_answers_yes_and_the_question_it_leads_to(said, details):
    dialogue = played(CLEANING, NOW)
    reply = dialogue.turn(said).text
    assert dialogue.slots["pets"] is True and dialogue.slots["pet_details"] == details
    assert "What name" in reply


@pytest.mark.parametrize(
    ("said", "pets"),
    [
        ("nobody but us", False),
        ("we don't have any at the moment", None),
        ("nothing to worry about", False),
        ("yes please", True),
        ("yes, I'll tell you", True),
        ("why do you ask?", None),
        ("Sam Jones", None),
    ],
)
def test_no_detail_where_none_is_told(said, pets):
    dialogue = played(CLEANING, NOW)
    dialogue.turn(said)
    assert dialogue.slots.get("pets") is pets and "pet_details" not in dialogue.slots


def test_a_moment_or_another_value_said_to_the_model_question_is_that_value():
    dialogue = played(LAPTOP, NOW, "the keyboard")
    dialogue.turn("battery please")  # to "which laptop is it?": the fault put right, no laptop model
    assert dialogue.slots["fault"] == "battery" and "laptop_model" not in dialogue.slots
    dialogue.turn("first thing tomorrow")  # no day or time slot here: nothing, and no model "first thing tomorrow"
    assert "laptop_model" not in dialogue.slots
    dialogue.turn("HP Envy 15")
    assert dialogue.slots["laptop_model"] == "HP Envy 15"


def test_and_before_a_subject_with_its_own_verb_starts_a_clause():
    from fsmdial.language.clauses import clauses

    assert clauses("the screen has lines on it and half the keys don't work") == (
        "the screen has lines on it",
        "and half the keys don't work",
    )
    assert clauses("a battery and the charging port") == ("a battery and the charging port",)
    dialogue = played(LAPTOP, NOW)
    dialogue.turn("my Dell XPS 13 display has lines all over it and half the keys don't work")
    assert dialogue.slots["fault"] == "screen"


STUDIO: dict[str, Any] = {
    "name": "studio",
    "description": "Book a photo studio.",
    "nodes": [
        {
            "id": "ask",
            "type": "request",
            "slots": [
                {"name": "day", "type": "date", "earliest": "today", "latest": "today+21", "ask": "Which day?"},
                {"name": "start", "type": "time", "earliest": "09:00", "latest": "18:00", "ask": "What time?"},
            ],
        },
        {"id": "done", "type": "end", "message": "Booked {day} at {start}."},
    ],
    "edges": [{"source": "ask", "target": "done"}],
}


@pytest.mark.parametrize(
    ("said", "day"),
    [
        ("I'm working till the 10th, so Friday the 11th?", "2026-12-11"),
        ("we're away till the 5th, the 7th would be good", "2026-12-07"),
        ("the 10th", "2026-12-10"),
    ],
)
def test_a_clause_saying_when_one_cannot_gives_no_date(said, day):
    dialogue = played(STUDIO, "2026-12-01T09:00")
    dialogue.turn(said)
    assert dialogue.slots["day"] == day


@pytest.mark.parametrize(
    ("now", "said", "day"),
    [
        ("2026-12-25T09:00", "12/01", "2027-01-12"),  # the next December 1 is beyond the bounds: day first
        ("2026-12-25T09:00", "01/12", "2027-01-12"),  # month first, inside the bounds
        ("2026-03-01T09:00", "3/12", "2026-03-12"),  # both inside: month first, as in the US
        ("2026-12-20T09:00", "25/12", "2026-12-25"),  # no month 25: one reading
    ],
)
def test_a_date_in_numbers_read_by_the_bounds_when_either_can_be_the_month(now, said, day):
    dialogue = played(STUDIO, now)
    dialogue.turn(said)
    assert dialogue.slots.get("day") == day


CLASS: dict[str, Any] = {
    "name": "cookery",
    "description": "Book places on a cookery class.",
    "nodes": [
        {
            "id": "ask",
            "type": "request",
            "slots": [
                {
                    "name": "people",
                    "type": "integer",
                    "minimum": 1,
                    "maximum": 8,
                    "ask": "How many places would you like?",
                },
                {"name": "day", "type": "date", "earliest": "today", "latest": "today+60", "ask": "Which day?"},
                {"name": "start", "type": "time", "earliest": "10:00", "latest": "18:00", "ask": "What time?"},
                {"name": "allergies", "type": "boolean", "label": "allergies", "ask": "Any allergies in the group?"},
                {"name": "customer_name", "type": "person_name", "ask": "What name is it under?"},
            ],
        },
        {
            "id": "ask_notes",
            "type": "request",
            "slots": [{"name": "notes", "type": "text", "ask": "What should the chef know?"}],
        },
        {
            "id": "confirm",
            "type": "inform_and_confirm",
            "message": "{people} on {day} at {start}, allergies: {allergies}, for {customer_name}.",
            "question": "Shall I book it?",
        },
        {"id": "book", "type": "external_action", "tool": "book", "commits": True, "arguments": {"people": "people"}},
        {"id": "done", "type": "end", "message": "Booked."},
    ],
    "edges": [
        {"source": "ask", "target": "ask_notes", "when": {"slot": "allergies", "op": "eq", "value": True}},
        {"source": "ask", "target": "confirm"},
        {"source": "ask_notes", "target": "confirm"},
        {"source": "confirm", "target": "book", "when": {"answer": "yes"}},
        {"source": "book", "target": "done"},
    ],
}
CLASS_NOW = "2026-12-14T09:00"  # a Monday


def test_what_a_counts_question_counts_names_the_count():
    dialogue = played(CLASS, CLASS_NOW)
    dialogue.turn("Hi, I'm after two places on Friday please")
    assert dialogue.slots["people"] == 2 and "start" not in dialogue.slots


def test_the_end_of_a_range_of_times_is_no_count():
    from fsmdial.language.times import remove_times

    assert remove_times("book 2 on knife skills, sometime between 2 and 3").split() == [
        "book",
        "2",
        "on",
        "knife",
        "skills,",
        "sometime",
        "between",
    ]
    dialogue = played(CLASS, CLASS_NOW, "3")
    dialogue.turn("Friday please, sometime between 2 and 4")
    assert dialogue.slots["people"] == 3 and dialogue.slots["start"] == "14:00"


def test_a_day_counted_from_another_with_the_day_of_the_month_said():
    dialogue = played(CLASS, CLASS_NOW, "2")
    dialogue.turn("the monday after then, the 28th")
    assert dialogue.slots["day"] == "2026-12-28"
    alone = played(CLASS, CLASS_NOW, "2")
    alone.turn("the monday after")  # counted from a day not said here: not read
    assert "day" not in alone.slots


def _at_summary(allergies: str = "no"):
    return played(CLASS, CLASS_NOW, "2", "friday", "11am", allergies, "Nicola Price")


def test_a_surname_spelt_then_written_out_puts_it_right():
    dialogue = _at_summary()
    dialogue.turn("sorry, the surname's spelt P R Y C E, Nicola Pryce")
    assert dialogue.slots["customer_name"] == "Nicola Pryce"
    spelt_only = _at_summary()
    spelt_only.turn("sorry, the surname's spelt P R Y C E")  # the letters' case unsaid: not stored as "PRYCE"
    assert spelt_only.slots["customer_name"] == "Nicola Price"


def test_an_allergy_told_at_the_summary_is_the_yes_and_what_it_is():
    dialogue = _at_summary()
    reply = dialogue.turn("oh wait, my son has a nut allergy actually, I forgot about that").text
    assert dialogue.slots["allergies"] is True and "nut allergy" in dialogue.slots["notes"]
    assert "allergies: yes" in reply and "Shall I book it?" in reply


BOOTH: dict[str, Any] = {
    "name": "booth",
    "description": "Book a recording booth.",
    "nodes": [
        {
            "id": "ask",
            "type": "request",
            "slots": [
                {"name": "session", "type": "categorical", "values": ["podcast", "voiceover"], "ask": "Which session?"},
                {"name": "people", "type": "integer", "minimum": 1, "maximum": 6, "ask": "How many of you?"},
                {
                    "name": "hours",
                    "type": "duration",
                    "unit": "hours",
                    "minimum": 1,
                    "maximum": 4,
                    "label": "length of the session",
                    "ask": "How long?",
                },
            ],
        },
        {"id": "done", "type": "end", "message": "Booked."},
    ],
    "edges": [{"source": "ask", "target": "done"}],
}


def test_a_word_of_another_slots_name_names_no_number():
    dialogue = played(BOOTH, NOW)
    dialogue.turn("can i book a podcast session for 2 on monday")
    assert dialogue.slots["people"] == 2 and "hours" not in dialogue.slots
    timed = played(BOOTH, NOW, "podcast", "2")
    timed.turn("a 3 hour session")
    assert timed.slots["hours"] == 3


def test_a_moment_is_the_answer_where_no_date_slot_takes_it():
    bank = {
        "name": "verify",
        "description": "Check who is calling.",
        "nodes": [
            {
                "id": "ask",
                "type": "request",
                "slots": [{"name": "date_of_birth", "type": "text", "ask": "What's your date of birth?"}],
            },
            {"id": "done", "type": "end", "message": "Thanks."},
        ],
        "edges": [{"source": "ask", "target": "done"}],
    }
    dialogue = played(bank, NOW)
    dialogue.turn("February 3 1927")
    assert dialogue.slots["date_of_birth"] == "February 3 1927"
