"""The rules understander on the classes of failure a held-out set of customers' words showed (issue 20): each
test uses its own wordings, none of the held-out set's."""

from __future__ import annotations

import pytest

from fsmdial.language import without_questions
from tests.understand.test_rules_customers import play, slots


# ------------------------------------------------------------------ a question is no value and no decline
@pytest.mark.parametrize(
    "said",
    [
        "no idea, how big is one box?",
        "hmm not sure, which one feeds a family of four?",
        "what does one box hold?",
    ],
)
def test_a_question_about_the_task_fills_nothing_and_declines_nothing(said):
    dialogue = play("grocery_delivery.json", ["fruit box", said])
    assert "quantity" not in dialogue.slots and not dialogue.session.ended
    dialogue.turn("three then")
    assert dialogue.slots["quantity"] == 3 and "address" not in dialogue.slots


def test_a_value_stated_outside_the_question_is_kept():
    assert slots("grocery_delivery.json", "fruit box", "2 please, how soon can you deliver?")["quantity"] == 2


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ("dunno, how many would you suggest?", "dunno"),
        ("what about 8?", "what about 8"),
        ("5 of them, when do you open?", "5 of them"),
    ],
)
def test_without_questions_drops_the_clauses_that_ask(said, kept):
    assert without_questions(said) == kept
