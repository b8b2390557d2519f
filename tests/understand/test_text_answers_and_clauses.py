"""A text value answers the question, and acts are read clause by clause (issue 34, items 3 and 5).

Each mechanism is held in a conversation on small flows (a transfer whose first question is a free-text pickup
address, a bike repair with a categorical bike type and a free-text problem) and, for the clause readings, on the
functions of :mod:`fsmdial.language` that the rules read them with.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from fsmdial.flow import Slot
from fsmdial.language import (
    content_with_what_they_have,
    gives_up,
    only_appraises,
    only_refuses,
    read_acts,
    split_negated,
    without_questions,
    without_ruled_out,
    without_task_statements,
)
from fsmdial.language.clauses import clauses, negation_scope
from fsmdial.loader import load_flow
from fsmdial.runtime import Dialogue
from fsmdial.understand.base import GOODBYE, Intent, UnderstandingState
from fsmdial.understand.rules import RulesUnderstander
from tests.conftest import FLOWS

NOW = dt.datetime(2026, 11, 23, 10, 0)


def _confirm_and_commit(tool: str, arguments: list[str]) -> list[dict[str, Any]]:
    return [
        {"id": "confirm", "type": "inform_and_confirm", "message": "Got it.", "question": "Shall I book it?"},
        {
            "id": "book",
            "type": "external_action",
            "tool": tool,
            "commits": True,
            "arguments": {name: name for name in arguments},
        },
        {"id": "done", "type": "end", "message": "Booked."},
    ]


def _flow(name: str, slots: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "name": name,
        "description": f"A {name} booking.",
        "examples": [f"I'd like to book a {name}"],
        "nodes": [
            {"id": "take", "type": "request", "slots": slots},
            *_confirm_and_commit(f"book_{name}", [slot["name"] for slot in slots]),
        ],
        "edges": [
            {"source": "take", "target": "confirm"},
            {"source": "confirm", "target": "book", "when": {"answer": "yes"}},
            {"source": "book", "target": "done"},
        ],
        "fallbacks": {"goodbye": "Goodbye!", "out_of_scope": "Sorry, I only take bookings."},
    }


def _slot(name: str, kind: str, ask: str, **more: Any) -> dict[str, Any]:
    return {"name": name, "type": kind, "description": name.replace("_", " "), "ask": ask, "act": f"ask_{name}", **more}


TRANSFER = _flow(
    "transfer",
    [
        _slot("pickup_address", "text", "What is the pickup address?", label="pickup address"),
        _slot("trip", "categorical", "Airport, city or station?", values=["airport", "city", "station"]),
        _slot("customer_name", "person_name", "What name is the booking under?"),
    ],
)
REPAIR = _flow(
    "repair",
    [
        _slot("bike_type", "categorical", "What kind of bike is it?", values=["e-bike", "road bike", "mountain bike"]),
        _slot("problem", "text", "What's the problem?"),
        _slot("customer_name", "person_name", "What name shall I put it under?"),
    ],
)


def play(flow: Any, *turns: str) -> Dialogue:
    dialogue = Dialogue(
        load_flow(flow) if isinstance(flow, dict) else str(flow), stand_in_tools=True, clock=lambda: NOW
    )
    dialogue.start()
    for text in turns:
        dialogue.turn(text)
    return dialogue


def committed(dialogue: Dialogue) -> dict[str, Any] | None:
    call = dialogue.session.calls.get("book")
    return None if call is None else dict(call["arguments"])


# ------------------------------------------------------------------ a text value answers the question
@pytest.mark.parametrize(
    "said",
    [
        "I'd like to book an airport transfer please",
        "hi, I need to book a transfer",
        "hello, could you book me a car to the airport",
        "I'm calling to arrange a pickup",
    ],
)
def test_the_opening_request_is_no_value_of_the_text_question_asked_first(said):
    dialogue = Dialogue(load_flow(TRANSFER), stand_in_tools=True, clock=lambda: NOW)
    dialogue.start()
    result = dialogue.turn(said)
    assert "pickup_address" not in dialogue.slots
    assert result.messages[-1] == "What is the pickup address?"


def test_a_task_statement_in_front_of_a_description_leaves_the_description():
    dialogue = play(REPAIR, "road bike", "hi, I need to book a repair, the gears keep slipping")
    assert dialogue.slots["problem"] == "the gears keep slipping"


@pytest.mark.parametrize("said", ["never mind, forget it", "forget it", "don't bother", "oh never mind then"])
def test_a_give_up_ends_the_conversation_and_is_no_description(said):
    dialogue = play(REPAIR, "road bike", said)
    assert "problem" not in dialogue.slots and dialogue.ended


@pytest.mark.parametrize("said", ["ok, forget it then", "ok I give up then", "alright, never mind"])
def test_an_ok_in_front_of_a_give_up_at_the_confirmation_is_no_yes(said):
    dialogue = play(TRANSFER, "5 Oak Road, Leeds", "airport", "Jo Walsh", said)
    assert committed(dialogue) is None and dialogue.ended  # the "ok" takes the question in; the give-up ends it


def test_a_give_up_with_a_value_after_it_is_the_value():
    dialogue = play(REPAIR, "road bike", "never mind the bell, the back brake squeals")
    assert "squeals" in dialogue.slots["problem"] and not dialogue.ended


@pytest.mark.parametrize(
    ("said", "value"),
    [
        ("the address is 5 Oak Road, Leeds", "5 Oak Road, Leeds"),
        ("it's 5 Oak Road, Leeds", "5 Oak Road, Leeds"),
        ("that'd be 5 Oak Road, Leeds", "5 Oak Road, Leeds"),
        ("it is the Old Barn, Church Lane", "the Old Barn, Church Lane"),
        ("um, it's 5 Oak Road, Leeds", "5 Oak Road, Leeds"),
    ],
)
def test_lead_ins_are_no_part_of_a_text_value(said, value):
    assert play(TRANSFER, said).slots["pickup_address"] == value


def test_my_names_is_no_part_of_the_name():
    assert play(TRANSFER, "5 Oak Road", "airport", "my name's Jo Walsh").slots["customer_name"] == "Jo Walsh"


@pytest.mark.parametrize(
    ("said", "value"),
    [
        ("the Old Barn, Church Lane, not Church Street", "the Old Barn, Church Lane"),
        ("Mill House, not Mill Farm", "Mill House"),
    ],
)
def test_x_not_y_stores_x_in_a_text_value(said, value):
    assert play(TRANSFER, said).slots["pickup_address"] == value


def test_x_not_y_is_read_as_the_address_reader_reads_it():
    assert without_ruled_out("12 Elm Street, not 21") == "12 Elm Street"
    assert without_ruled_out("the brakes squeal, but not downhill") == "the brakes squeal, but not downhill"


# ------------------------------------------------------------------ acts by clause
def test_a_negation_negates_its_own_clause_and_keeps_the_bike_type():
    dialogue = play(REPAIR, "e-bike", "my e-bike's battery won't charge")
    assert dialogue.slots["bike_type"] == "e-bike"
    assert dialogue.slots["problem"] == "my e-bike's battery won't charge"


def test_a_repair_request_with_a_negation_gives_its_bike_type():
    assert play(REPAIR, "my e-bike's battery won't charge").slots["bike_type"] == "e-bike"


@pytest.mark.parametrize(
    ("text", "said", "ruled_out"),
    [
        ("my e-bike's battery won't charge", "my e-bike's battery", "won't charge"),
        ("I can't do Friday", "", "I can't do Friday"),
        ("Friday doesn't work for me", "", "Friday doesn't work for me"),
        ("Crumble not Biscuit", "Crumble", "not Biscuit"),
        ("sure, just not at 7pm", "sure", "just not at 7pm"),
        ("terrible weather today, isn't it", "terrible weather today, isn't it", ""),
        # a title's period ends no clause: the "not" reaches the name after it (STAR's doctor flows)
        ("I'd like to see Dr. Johnson and not Dr. Alexis", "I'd like to see Dr. Johnson and", "not Dr. Alexis"),
        ("with Mrs. Hill, not Mr. Hill", "with Mrs. Hill", "not Mr. Hill"),
        # a negated identity rules its subject out, as a negated fit does
        ("I think Dr. Morgan wasn't my doctor", "", "I think Dr. Morgan wasn't my doctor"),
        ("Friday is not the day", "", "Friday is not the day"),
        ("my car isn't the problem, the van is", "the van is", "my car isn't the problem"),
        # "and" before a subject of its own starts a clause: the "won't" negates no noise
        (
            "washing machine won't spin and it's making a banging noise",
            "washing machine, and it's making a banging noise",
            "won't spin",
        ),
    ],
)
def test_a_negation_rules_out_what_follows_it_in_its_clause(text, said, ruled_out):
    assert split_negated(text) == (said, ruled_out)


def test_clauses_are_split_once_for_every_reading():
    assert clauses("yes please, that'd be lovely") == ("yes please", "that'd be lovely")
    assert clauses("Ben. Dr. Morgan, please") == ("Ben", "Dr. Morgan", "please")
    assert clauses("fine but not for 4 people") == ("fine", "but not for 4 people")
    assert clauses("it won't spin and it's banging") == ("it won't spin", "and it's banging")
    assert clauses("a bath and brush and the nails") == ("a bath and brush and the nails",)  # no subject of its own
    assert negation_scope("my e-bike's battery won't charge") == len("my e-bike's battery ")
    assert negation_scope("I cannot knot it") is None
    assert without_questions("good morning, terrible weather today isn't it") == "good morning"


@pytest.mark.parametrize(
    "said",
    [
        "yes please, that'd be lovely",
        "yes that's great thanks",
        "yeah go on then",
        "sounds good",
        "Yes, that's lovely, thank you.",
        "yes, that works for me",
        "yes, that would work.",
    ],
)
def test_a_polite_yes_is_a_plain_yes_and_commits(said):
    assert read_acts(said).plain_yes
    dialogue = play(TRANSFER, "5 Oak Road, Leeds", "airport", "Jo Walsh", said)
    assert committed(dialogue) == {
        "pickup_address": "5 Oak Road, Leeds",
        "trip": "airport",
        "customer_name": "Jo Walsh",
    }


@pytest.mark.parametrize("said", ["yes but make it the station", "yes, and make it 5", "that's it?", "that's"])
def test_a_yes_with_more_said_is_no_plain_yes_and_does_not_commit(said):
    assert not read_acts(said).plain_yes
    dialogue = play(TRANSFER, "5 Oak Road, Leeds", "airport", "Jo Walsh", said)
    assert committed(dialogue) is None


@pytest.mark.parametrize(
    "said",
    [
        "I lost my wallet on Saturday and someone used my card",
        "not sure really, someone took money out of my account twice this week",
    ],
)
def test_a_description_is_never_a_refusal(said):
    dialogue = play(FLOWS / "bank_fraud_report.json", "Ana Silva", "12345678", "8642", said)
    assert [call["arguments"]["fraud_report"] for call in dialogue.session.calls.values()] == [said]


@pytest.mark.parametrize(
    "said",
    [
        "I lost my chain on the way home and now the pedals spin freely",
        "not sure really, a sort of knocking from underneath when I go over bumps",
    ],
)
def test_a_description_is_no_refusal_where_the_flow_has_no_example_like_it(said):
    dialogue = play(REPAIR, "road bike", said)
    assert dialogue.slots["problem"] == said and not dialogue.ended
    assert dialogue.session.history[-1] == ("bot", "What name shall I put it under?")


def test_a_dont_know_in_front_of_a_description_is_the_description():
    said = "not sure really, a sort of knocking from underneath when I go over bumps"
    assert play(REPAIR, "road bike", said).slots["problem"] == said


@pytest.mark.parametrize(
    ("text", "refuses"),
    [
        ("I don't know", True),
        ("I'd rather not say", True),
        ("hmm I don't know, I'll have to check with my wife", True),
        ("I lost my wallet on Saturday and someone used my card", False),
        ("there's a transfer of 900 euros to an account I don't know", False),
    ],
)
def test_a_refusal_says_nothing_more(text, refuses):
    assert only_refuses(text) is refuses


@pytest.mark.parametrize(
    ("text", "give_up"),
    [
        ("never mind, forget it", True),
        ("nevermind, it's flight 606", False),
        ("I wouldn't forget it, I wrote it", False),
    ],
)
def test_a_give_up_says_nothing_more(text, give_up):
    assert gives_up(text) is give_up


def test_a_change_asked_for_is_no_task_statement():
    said = "can you change the destination to the airport, terminal 2"
    assert without_task_statements(said) == said
    assert without_task_statements("I'd like to book an airport transfer please") == ""


def test_another_slots_value_is_no_name_and_the_name_is_asked_again():
    dialogue = play(TRANSFER, "5 Oak Road, Leeds", "airport")
    asked = dialogue.turn("city").messages[-1]  # the trip's value, said again: no one's name
    assert "customer_name" not in dialogue.slots and asked == "What name is the booking under?"
    dialogue.turn("airport")
    dialogue.turn("Jo Walsh")
    dialogue.turn("yes please, that'd be lovely")
    assert committed(dialogue) == {
        "pickup_address": "5 Oak Road, Leeds",
        "trip": "airport",
        "customer_name": "Jo Walsh",
    }


DOCTOR = _flow(
    "appointment",
    [
        _slot("patient", "person_name", "What's your name?"),
        _slot("doctor", "categorical", "Which doctor?", values=["Dr. Johnson", "Dr. Alexis", "Dr. Morgan"]),
    ],
)


@pytest.mark.parametrize(
    ("said", "doctor"),
    [
        ("Angela, and I'd like to see Dr. Johnson and not Dr. Alexis since Dr. Alexis is always busy.", "Dr. Johnson"),
        ("Susan. And with Dr. Alexis please, I don't want Dr. Johnson.", "Dr. Alexis"),
        ("Dr. Morgan if possible. I don't want Dr. Johnson since he was rude last time.", "Dr. Morgan"),
    ],
)
def test_the_doctor_wanted_is_read_beside_the_one_not_wanted(said, doctor):
    # Real STAR users' turns: "Dr." ended a clause, so the "not" reached no name and both doctors were read
    dialogue = play(DOCTOR, said)
    assert dialogue.slots["doctor"] == doctor


# ------------------------------------------------------------------ a give-up with nothing asked
_BYE = (Intent(GOODBYE, ("bye",)),)
_DOCTOR_SLOT = Slot(name="doctor", type="categorical", values=["Dr. Johnson", "Dr. Alexis"])


@pytest.mark.parametrize("said", ["Nevermind.", "Uh-oh. Okay. Nevermind then.", "ok I give up then"])
def test_a_give_up_takes_a_told_outcome_in_and_ends_nothing(said):
    # STAR: "Sorry, that flight is no longer available." - "Nevermind." The wizard asks "anything else?"; only a
    # give-up said while the bot asks for something drops it (the flow's goodbye)
    told = UnderstandingState(flow="f", node="unavailable", intents=_BYE, slots=(_DOCTOR_SLOT,))
    asking = UnderstandingState(
        flow="f", node="ask", intents=_BYE, slots=(_DOCTOR_SLOT,), expected=("doctor",), asked="doctor"
    )
    confirming = UnderstandingState(flow="f", node="confirm", intents=_BYE, slots=(_DOCTOR_SLOT,), confirm="confirm")
    rules = RulesUnderstander()
    assert rules.understand(told, said, now=NOW).intent is None
    assert rules.understand(asking, said, now=NOW).intent == GOODBYE
    assert rules.understand(confirming, said, now=NOW).intent == GOODBYE


# ------------------------------------------------------------------ an appraisal to an offer of more
@pytest.mark.parametrize(
    ("said", "appraises"),
    [
        ("that sounds great", True),
        ("Alright, that sounds good.", True),
        ("That would be perfect.", True),
        ("Great. Thank you!", True),
        ("yes please", False),
        ("ok", False),
        ("sure, that works", False),
        ("yes, that's great", False),
        ("great, but not on Friday", False),
    ],
)
def test_an_appraisal_is_a_yes_made_only_of_words_that_judge(said, appraises):
    assert only_appraises(said) is appraises


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        ("I found Legume in the west. Would you like to search for any more restaurants?", None),
        ("Is there anything else that I can do for you?", None),
        ("Shall I book it?", "yes"),
        # only the question the message ends with counts, not the result told before it
        ("Take another left at the lights. Can I proceed?", "yes"),
    ],
)
def test_an_appraisal_says_yes_to_an_offer_of_one_thing_and_not_to_an_offer_of_more(question, answer):
    # STAR's restaurant search: "That sounds great, thanks" judges the restaurant found; as a yes to "any more
    # restaurants?" a new search was started
    state = UnderstandingState(flow="f", node="confirm", intents=(), slots=(), confirm="confirm")
    parse = RulesUnderstander().understand(state, "That sounds great, thanks", history=[("bot", question)], now=NOW)
    assert parse.answer == answer
    assert content_with_what_they_have(question, "That sounds great, thanks") is (answer is None)
    assert RulesUnderstander().understand(state, "yes please", history=[("bot", question)], now=NOW).answer == "yes"


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("oh the email's wrong, it should be zara.ahmed1@gmail.com", "zara.ahmed1@gmail.com"),
        ("it's on www.example.com. Thanks", "www.example.com"),
        ("at 8.30pm. not 9", "8.30pm"),
    ],
)
def test_a_period_inside_a_word_ends_no_clause(text, kept):
    assert any(kept in clause for clause in clauses(text))


def test_a_corrected_email_is_read_beside_the_words_saying_the_old_one_was_wrong():
    from pathlib import Path

    from fsmdial.testing import FrozenClock

    flow = Path(__file__).resolve().parents[1] / "data" / "heldout_r4" / "flows" / "driving_lesson.json"
    dialogue = Dialogue(flow, stand_in_tools=True, clock=FrozenClock("2026-12-14T10:00"))
    dialogue.start()
    for said in ["first lesson", "manual", "an hour", "yes", "2 Church Road, Bristol BS5 9JA", "thursday", "5pm"]:
        dialogue.turn(said)
    for said in ["Sam Reed", "sam.reed@gmail.com"]:
        dialogue.turn(said)
    assert dialogue.understanding_state().confirm is not None
    dialogue.turn("oh the email's wrong, it should be sam.reed2@gmail.com")
    assert dialogue.slots["email"] == "sam.reed2@gmail.com"


@pytest.mark.parametrize(
    ("said", "name"),
    [
        ("Bruno", "Bruno"),
        ("it's Pickles", "Pickles"),
        ("Lola, she's a cockapoo", "Lola"),  # the name, then about her
        ("he comes every couple of months", None),  # a sentence about him answers another question: asked again
        ("she weighs about 24 kilos", None),
        ("12", None),
        ("uh, it is Pickles", None),  # a filler is no name either: asked again rather than stored
        ("I'm Jane", "Jane"),
        ("It was Miller.", "Miller"),  # a name said in the past (STAR's mother's maiden name)
        ("Sanders - I hope there is ANYTHING BUT A ZERO BALANCE!", "Sanders"),  # the name, then an aside (STAR)
        ("I'm so busy, I hope this won't take long. My dog's name is Miller", "Miller"),  # after its cue, anywhere
    ],
)
def test_a_name_asked_is_a_name_or_nothing(said, name):
    from fsmdial.understand.rules.text_values import string_value

    assert string_value(Slot(name="dog_name", type="text", description="The dog's name"), said) == name
