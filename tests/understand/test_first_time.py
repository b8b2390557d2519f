"""A first visit or an earlier one said in words answers the boolean that asks either way round (round 10: "I've been
before" and "never been before" to "Is this your first visit?" were read as nothing and as a no)."""

from __future__ import annotations

import datetime as dt

import pytest

from fsmdial.flow import Slot
from fsmdial.understand.base import UnderstandingState
from fsmdial.understand.rules import RulesUnderstander
from fsmdial.understand.rules.first_time import first_time_answer

NOW = dt.datetime(2027, 3, 2, 10)
FIRST = Slot(name="new_client", type="boolean", ask="Is this your first appointment with us?")
BEFORE = Slot(name="returning", type="boolean", ask="Have you had a treatment with us before?")
OTHER = Slot(name="parking", type="boolean", ask="Will you need a parking space?")
LICENCE = Slot(name="licence", type="boolean", ask="Have you got your licence? We check it on the first lesson.")
JABS = Slot(name="jabs", type="boolean", description="Whether the dog is vaccinated (needed for a first visit)")


@pytest.mark.parametrize(
    ("said", "first"),
    [
        ("it's my first time here", True),
        ("yes first time for her", True),
        ("never been", True),  # a "never" is a yes to "first?"
        ("no we haven't been to you before", True),
        ("she's a new patient", True),
        ("I've been a couple of times", False),
        ("we came in last spring", False),
        ("not my first, no", False),
        ("I'm an existing client", False),
        ("the first time I phoned the line was busy", None),  # when, not whether
        ("can I park outside?", None),
        ("how much is a first appointment?", None),  # a question says nothing of this visit
        ("is the first session longer? it's my first time", True),
    ],
)
def test_a_first_or_an_earlier_visit_said_in_words(said: str, first: bool | None) -> None:
    assert first_time_answer(FIRST, said) is first
    assert first_time_answer(BEFORE, said) is (None if first is None else not first)
    assert first_time_answer(OTHER, said) is None
    assert first_time_answer(LICENCE, said) is None  # its question mentions a first lesson, asks no first time
    assert first_time_answer(JABS, said) is None


def _state(asked: Slot) -> UnderstandingState:
    slots = (FIRST, OTHER)
    return UnderstandingState(
        flow="t", node="ask", intents=(), slots=slots, expected=tuple(s.name for s in slots), asked=asked.name
    )


REGISTERED = Slot(name="registered", type="boolean", ask="Are you already registered as a patient with us?")


@pytest.mark.parametrize(
    ("said", "registered"),
    [
        ("I'm already a patient", True),
        ("I'm a patient of yours, could I come in today?", True),  # a statement beside a question
        ("ye been going there for years", True),
        ("no I've not been before", False),
        ("I'm not a patient yet", False),
        ("do you take NHS patients?", None),
    ],
)
def test_already_registered_is_an_earlier_visit(said: str, registered: bool | None) -> None:
    """Round 11: a dental practice asks "Are you already registered as a patient with us?"."""
    assert first_time_answer(REGISTERED, said) is registered


def test_a_question_about_the_business_states_nothing() -> None:
    """Round 11: "do you take NHS patients?" to the registered question was stored as a yes, and booked."""
    state = UnderstandingState(
        flow="t", node="ask", intents=(), slots=(REGISTERED,), expected=("registered",), asked="registered"
    )
    assert RulesUnderstander().understand(state, "do you take NHS patients?", now=NOW).slots == {}


def test_asked_or_not_the_statement_is_the_slots_value() -> None:
    rules = RulesUnderstander()
    assert rules.understand(_state(FIRST), "never had one before", now=NOW).slots == {"new_client": True}
    told = rules.understand(_state(OTHER), "no thanks, and I've been to you before", now=NOW).slots
    assert told == {"parking": False, "new_client": False}


def test_a_statement_of_doing_it_said_of_oneself_is_a_yes_and_wondering_is_none() -> None:
    from fsmdial.understand.rules.worded_answers import stated_answer

    insured = Slot(name="insured", type="boolean", label="insurance claim", ask="Are you claiming on insurance?")
    assert stated_answer(insured, "actually I am claiming on my insurance") is True
    assert stated_answer(insured, "I'm not claiming on insurance") is False
    assert stated_answer(insured, "I'm wondering whether insurance covers it", asked=False) is None


def test_a_subject_named_by_an_irregular_form_is_named() -> None:
    """Round 11: "my jaw has swollen up" did not name the swelling asked later."""
    from fsmdial.understand.rules.worded_answers import stated_unasked

    swelling = Slot(name="swelling", type="boolean", ask="Is there any swelling?")
    frozen = Slot(name="pipes_freezing", type="boolean", label="pipes freezing", ask="Are the pipes freezing?")
    assert stated_unasked([swelling], None, "my face has swollen up", {}) == {"swelling": True}
    assert stated_unasked([frozen], None, "the pipes have frozen solid", {}) == {"pipes_freezing": True}
