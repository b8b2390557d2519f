"""A person's name said inside a sentence, read by the rules (issue 34; held-out rounds 4 and 5).

A pest control visit in Sheffield (its context and its address examples name the town) asks the pest and the address,
then the customer's name. The name is what the customer said, or nothing: after an acknowledgement ("Okay good. Sophie
Lindqvist"), after words saying whose name it is ("put it under her name, Margaret Cole"), the fuller name said again
("it's Mr Patel, Vikram Patel"), a full name introduced in the first message ("hi, this is Lisa Gray, ..."); never
"cheers mate", a street, a weekday or the town the business is in.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from fsmdial.loader import load_flow
from fsmdial.runtime import Dialogue

NOW = dt.datetime(2027, 3, 3, 10, 0)

PEST = {
    "name": "pest_visit",
    "context": "You are the booking line of Hollis Pest Control in Sheffield.",
    "nodes": [
        {
            "id": "ask",
            "type": "request",
            "slots": [
                {
                    "name": "pest",
                    "type": "categorical",
                    "values": ["mice", "rats", "wasps"],
                    "ask": "What's the pest?",
                    "description": "The pest to treat",
                },
                {
                    "name": "address",
                    "type": "address",
                    "ask": "What's the address?",
                    "description": "Address of the property to treat",
                    "examples": ["27 Crookesmoor Road, Sheffield S6 3FQ"],
                },
            ],
        },
        {
            "id": "ask_name",
            "type": "request",
            "slots": [{"name": "customer_name", "type": "person_name", "ask": "What name shall I put it under?"}],
        },
        {
            "id": "confirm",
            "type": "inform_and_confirm",
            "message": "A {pest} treatment at {address} for {customer_name}.",
            "question": "Shall I book it?",
        },
        {"id": "done", "type": "end", "message": "Booked."},
    ],
    "edges": [
        {"source": "ask", "target": "ask_name"},
        {"source": "ask_name", "target": "confirm"},
        {"source": "confirm", "target": "done", "condition": "Yes"},
    ],
}
FLOW = load_flow(PEST)


def play(*turns: str) -> Dialogue:
    dialogue = Dialogue(FLOW, stand_in_tools=True, clock=lambda: NOW)
    dialogue.start()
    for text in turns:
        dialogue.turn(text)
    return dialogue


def at_name_question(reply: str) -> Any:
    dialogue = play("mice", "8 Fulwood Road, Sheffield S10 3BA")
    assert dialogue.asked == "customer_name"
    dialogue.turn(reply)
    return dialogue


@pytest.mark.parametrize(
    ("reply", "name"),
    [
        ("Okay good. Sophie Lindqvist", "Sophie Lindqvist"),
        ("put it under her name, Margaret Cole", "Margaret Cole"),
        ("it's for my dad, Tom Reilly", "Tom Reilly"),
        ("book it in my husband's name - Dev Mistry", "Dev Mistry"),
        ("it's Mr Patel, Vikram Patel", "Vikram Patel"),
        ("Mrs Jones", "Mrs Jones"),
        ("cheers, Ian McAllister", "Ian McAllister"),
    ],
)
def test_a_name_inside_a_sentence_at_the_name_question_is_the_name(reply: str, name: str) -> None:
    assert at_name_question(reply).slots["customer_name"] == name


@pytest.mark.parametrize(
    "reply",
    [
        "Okay good",
        "sounds good",
        "cheers mate",
        "thanks love",
        "Sheffield",
        "it's Sheffield",
        "Hollis",
        "12 Elm Street",
        "Elm Street",
        "friday",
        "Mice",
        "it's for my dad",
    ],
)
def test_words_that_are_no_name_at_the_name_question_give_no_name(reply: str) -> None:
    dialogue = at_name_question(reply)
    assert "customer_name" not in dialogue.slots
    assert dialogue.asked == "customer_name"  # asked again


def test_a_full_name_introduced_in_the_first_message_is_kept_for_the_name_question() -> None:
    dialogue = play("hi, this is Lisa Gray, we've got mice in the kitchen")
    assert dialogue.slots == {"customer_name": "Lisa Gray", "pest": "mice"}
    messages = dialogue.turn("8 Fulwood Road, Sheffield S10 3BA").messages
    assert messages[0] == "A mice treatment at 8 Fulwood Road, Sheffield S10 3BA for Lisa Gray. Shall I book it?"


@pytest.mark.parametrize(
    "first",
    [
        "hi, I'm in Sheffield, we've got mice",
        "Hi, this is Hollis Pest Control? we've got mice",
        "Hello, this is Sheffield Council, we have mice",
        "it's Fulwood Road, we've got mice",
        "hi, I'm Tom, we've got mice",  # one word before the name is asked: "I'm English" is as good a name
        "hi, it's Fulwood Road here, we've got mice",
    ],
)
def test_no_name_is_read_from_a_place_or_an_organisation_in_the_first_message(first: str) -> None:
    assert "customer_name" not in play(first).slots


@pytest.mark.parametrize(
    ("said", "name"),
    [
        ("it's Jo Marsh... sorry, Jo Marshall", "Jo Marshall"),  # the last name said is the one meant
        ("Sam Reddy, no wait, Sam Reddie", "Sam Reddie"),
        ("Ann Booth, sorry I should have said so before", "Ann Booth"),  # nothing named after the "sorry"
        ("can we say 9 instead of 3, sorry. and it's Jo Marsh", "Jo Marsh"),  # the name after a change, joined
    ],
)
def test_a_name_said_again_after_a_self_correction_is_the_one_meant(said: str, name: str) -> None:
    dialogue = Dialogue(load_flow("flows/ride_change.json"), stand_in_tools=True)
    dialogue.start()
    dialogue.turn(said)
    assert dialogue.slots["customer_name"] == name


@pytest.mark.parametrize(
    ("reply", "name"),
    [
        ("hang on, can we do rats instead? it's Hannah Webb", "Hannah Webb"),
        ("Do you use poison? Priya Shah", "Priya Shah"),
    ],
)
def test_the_name_asked_in_a_later_sentence_than_a_change_or_a_question_is_the_name(reply: str, name: str) -> None:
    dialogue = at_name_question(reply)
    assert dialogue.slots["customer_name"] == name


@pytest.mark.parametrize("reply", ["can we do rats instead? thanks so much", "is it safe? Sorry about that"])
def test_a_later_sentence_of_thanks_or_a_sorry_is_no_name(reply: str) -> None:
    assert "customer_name" not in at_name_question(reply).slots


@pytest.mark.parametrize(
    ("first", "name"),
    [
        ("Hi, it's Lisa Gray here, we've got mice", "Lisa Gray"),
        ("morning, it is Dev Mistry here. Mice", "Dev Mistry"),
        ("hello, Priya Shah here, we've got mice in the loft", "Priya Shah"),  # round 10: without "it's"
    ],
)
def test_a_caller_introduced_as_its_name_here_is_kept_for_the_name_question(first: str, name: str) -> None:
    """Round 9: "Hi, it's Kwame Mensah here, I need an electrical inspection" (a full name, capitalised)."""
    assert play(first).slots["customer_name"] == name


def test_a_place_said_to_be_here_is_no_caller() -> None:
    assert "customer_name" not in play("hello, Oxford Street here, we've got mice").slots


@pytest.mark.parametrize(
    ("reply", "name"), [("his name's Oliver Grant", "Oliver Grant"), ("her name is Ann Lee", "Ann Lee")]
)
def test_his_or_her_name_answers_the_name_asked(reply: str, name: str) -> None:
    """Round 9: "his name's Oliver Grant" to "what's the patient's full name?" (not asked, "his name" is someone
    else's: a pet's, a relative's)."""
    assert at_name_question(reply).slots["customer_name"] == name


@pytest.mark.parametrize(
    ("slot_name", "kept"), [("student_name", False), ("patient_name", False), ("customer_name", True), ("name", True)]
)
def test_a_caller_introduced_beside_a_relative_is_not_the_relatives_name(slot_name: str, kept: bool) -> None:
    """Round 7: "Hi, I'm Sarah Knight, I'm calling about English tutoring for my son" booked the lessons for Sarah
    Knight: the student's name is asked; the customer's own name slot still keeps her."""
    flow = {
        "name": "lessons",
        "nodes": [
            {"id": "ask", "type": "request", "slots": [{"name": "subject", "type": "text", "ask": "Which subject?"}]},
            {"id": "who", "type": "request", "slots": [{"name": slot_name, "type": "person_name", "ask": "Name?"}]},
            {"id": "done", "type": "end", "message": "Thanks."},
        ],
        "edges": [{"source": "ask", "target": "who"}, {"source": "who", "target": "done"}],
    }
    dialogue = Dialogue(load_flow(flow), stand_in_tools=True, clock=lambda: NOW)
    dialogue.start()
    dialogue.turn("Hi, I'm Sarah Knight, I'm calling about English tutoring for my son")
    assert (dialogue.slots.get(slot_name) == "Sarah Knight") is kept


def test_a_reply_that_is_only_a_full_name_while_another_question_is_asked_is_the_name():
    """ "Lucy Fairbrother" to "where will the things be?" (a customer answering the next question early) is the name,
    as a phone number said then is the phone; never a word of the flow, a lower-case phrase or one word."""
    from fsmdial.understand.rules.text_values import bare_full_name

    assert bare_full_name("Lucy Fairbrother") == "Lucy Fairbrother"
    assert bare_full_name("Chris O'Neill") == "Chris O'Neill"
    assert bare_full_name("Sean McDonald.") == "Sean McDonald"
    for said in ("lucy fairbrother", "Lucy", "Thank You", "Bristol Road", "I Need Help Now Please"):
        assert bare_full_name(said) is None, said


def test_the_bare_full_name_is_kept_for_the_name_asked_later():
    from fsmdial.loader import load_flow
    from fsmdial.runtime import Dialogue
    from tests.flows import request_flow

    size = {"name": "size", "type": "categorical", "values": ["small", "large"], "ask": "Small or large?"}
    name = {"name": "customer_name", "type": "person_name", "ask": "Your name?"}
    dialogue = Dialogue(load_flow(request_flow(size, name, name="order")))
    dialogue.start()
    reply = dialogue.turn("Lucy Fairbrother")
    assert dialogue.slots == {"customer_name": "Lucy Fairbrother"}
    assert "Small or large?" in reply.text
