"""A yes/no offered as two named alternatives, and values that must not be read from the words of another value.

- a boolean whose question offers the no side as an alternative ("Shall we deliver the cake? ..., or you can pick it
  up from the shop"), or whose description names it after "otherwise": an answer naming one side's words is that
  side ("I'll pick it up", "bring it round please, I'm working"), unless it negates or asks;
- "..., so yes you can get round": a concluded answer said again in full;
- a categorical value named by a number word alone ("three" for "three storey house") only when its slot is asked
  (a phone number said in words is full of them);
- a categorical value by a synonym in passing (another question asked, no change cue) does not replace a held value
  the customer named by its own words;
- a change's words name a value by a word of its own ("not the chocolate one") and a question with a change cue
  ("can you deliver it instead?") is a request.

Conversations on a small cake-order flow written here (no shipped flow has these slots).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from fsmdial.flow import Slot, SlotType
from fsmdial.language.answers import concluded_yes_no
from fsmdial.runtime import Dialogue
from fsmdial.testing import FrozenClock
from fsmdial.understand.rules.categories import own_word_value
from fsmdial.understand.rules.worded_answers import described_sides, side_named

NOW = dt.datetime(2026, 12, 2, 10, 0)  # a Wednesday

CAKE_FLOW: dict[str, Any] = {
    "name": "cake_order",
    "description": "Order a celebration cake: the cake, the home, delivery and a phone number.",
    "examples": ["I'd like to order a cake"],
    "nodes": [
        {
            "id": "ask_order",
            "type": "request",
            "slots": [
                {
                    "name": "cake",
                    "type": "categorical",
                    "values": ["chocolate sponge", "lemon drizzle", "carrot cake"],
                    "description": "Which cake",
                    "ask": "Which cake: chocolate sponge, lemon drizzle or carrot cake?",
                },
                {
                    "name": "home",
                    "type": "categorical",
                    "values": ["flat", "two storey house", "three storey house"],
                    "description": "The kind of home (two storey house: terrace, semi; three storey house: townhouse)",
                    "ask": "Is it a flat, a two storey house or a three storey house?",
                },
                {
                    "name": "delivery",
                    "type": "boolean",
                    "description": "Whether the bakery delivers the cake",
                    "ask": "Shall we deliver the cake? Delivery is 5 GBP, or you can pick it up from the shop.",
                },
                {
                    "name": "parking",
                    "type": "boolean",
                    "description": "Whether the driver can park outside",
                    "ask": "Can the driver park outside?",
                },
                {"name": "phone", "type": "phone", "description": "Phone number", "ask": "And a phone number?"},
            ],
        },
        {
            "id": "confirm",
            "type": "inform_and_confirm",
            "message": "A {cake} to a {home} (delivery: {delivery}, parking: {parking}), phone {phone}.",
            "question": "Shall I order it?",
        },
        {
            "id": "order",
            "type": "external_action",
            "tool": "order_cake",
            "commits": True,
            "arguments": {name: name for name in ("cake", "home", "delivery", "parking", "phone")},
        },
        {"id": "done", "type": "end", "message": "Ordered. Goodbye!"},
    ],
    "edges": [
        {"source": "ask_order", "target": "confirm"},
        {"source": "confirm", "target": "order", "when": {"answer": "yes"}},
        {"source": "order", "target": "done"},
    ],
}


def talk(*said: str) -> tuple[Dialogue, list[tuple[str, dict[str, Any]]]]:
    calls: list[tuple[str, dict[str, Any]]] = []
    dialogue = Dialogue(
        CAKE_FLOW,
        tools={"order_cake": lambda **arguments: calls.append(("order_cake", arguments)) or {"ok": True}},
        clock=FrozenClock(NOW),
    )
    dialogue.start()
    for text in said:
        dialogue.turn(text)
    return dialogue, calls


def delivery_slot(**changes: str) -> Slot:
    slot = CAKE_FLOW["nodes"][0]["slots"][2]
    return Slot(name="delivery", type=SlotType.boolean, **{**{k: slot[k] for k in ("description", "ask")}, **changes})


def test_the_question_offering_the_no_side_names_both_sides():
    sides = described_sides("Whether the bakery delivers the cake", delivery_slot().ask or "")
    assert sides == ("Shall we deliver the cake", "you can pick it up from the shop")
    # the description alone: the no side after "otherwise"
    assert described_sides("Whether we deliver the cake; otherwise the customer collects it from the shop") == (
        "we deliver the cake",
        "the customer collects it from the shop",
    )
    assert described_sides("Whether the driver can park outside", "Can the driver park outside?") is None


@pytest.mark.parametrize(
    ("answer", "side"),
    [
        ("I'll pick it up", False),
        ("pick it up from the shop please, it's on my way", False),
        ("deliver it please, I'm at work all day", True),
        ("delivered please", True),
        ("I don't want to pick it up", None),  # denies a side: not simply chosen
        ("can you not deliver it?", None),  # asks
        ("whatever's easiest", None),  # names neither
    ],
)
def test_an_answer_naming_one_side_is_that_side(answer, side):
    assert side_named(delivery_slot(), answer) is side


def test_the_sides_read_in_a_conversation():
    dialogue, _ = talk("chocolate sponge", "a flat", "I'll pick it up from the shop, thanks")
    assert dialogue.session.slots["delivery"] is False
    dialogue, _ = talk("chocolate sponge", "a flat", "deliver it please, I'm out all day")
    assert dialogue.session.slots["delivery"] is True


def test_a_concluded_answer_said_again_in_full():
    assert concluded_yes_no("the road is quiet so yes you can park outside") == "yes"
    assert concluded_yes_no("it's a red route so no you'd get a ticket") == "no"
    assert concluded_yes_no("so yes you can't miss it") is None  # a yes whose words deny something
    assert concluded_yes_no("so yes, can you park there?") is None


def test_a_number_word_alone_names_a_value_only_when_its_slot_is_asked():
    dialogue, _ = talk("lemon drizzle", "three")
    assert dialogue.session.slots["home"] == "three storey house"  # asked: "three" answers it
    dialogue, _ = talk(
        "lemon drizzle", "flat", "yes deliver it", "yes", "oh seven seven double oh, nine double oh, three five six"
    )
    assert dialogue.session.slots["home"] == "flat"  # the phone's "three" is no three storey house
    assert dialogue.session.slots["phone"] == "07700900356"


def test_a_synonym_in_passing_does_not_replace_a_value_named_by_its_own_words():
    dialogue, _ = talk(
        "carrot cake", "three storey house", "deliver it please", "no, it's a terrace with double yellows"
    )
    assert dialogue.session.slots["home"] == "three storey house"
    assert dialogue.session.slots["parking"] is False
    # with a change cue it is a change
    dialogue, _ = talk("carrot cake", "three storey house", "deliver it please", "sorry, it's actually a terrace")
    assert dialogue.session.slots["home"] == "two storey house"


def test_a_change_names_a_value_by_a_word_of_its_own():
    assert own_word_value(("chocolate sponge", "lemon drizzle", "carrot cake"), "not the chocolate one") == (
        "chocolate sponge"
    )
    assert own_word_value(("chocolate sponge", "lemon drizzle", "carrot cake"), "the cake", frozenset({"cake"})) is None
    dialogue, _ = talk("chocolate sponge", "actually, sorry, I meant the lemon one, not the chocolate one. a flat")
    assert dialogue.session.slots["cake"] == "lemon drizzle"
    assert dialogue.session.slots["home"] == "flat"


def test_a_question_with_a_change_cue_at_the_summary_is_a_request():
    dialogue, calls = talk(
        "carrot cake",
        "a flat",
        "I'll pick it up",
        "no",
        "07700 900 356",
        "hang on, it won't fit in my car, can you deliver it instead?",
    )
    assert dialogue.session.slots["delivery"] is True
    assert calls == []  # the summary is shown again before any order
    dialogue.turn("yes")
    assert calls and calls[0][1]["delivery"] is True


def test_a_side_said_of_oneself_before_it_is_asked():
    """ "a lemon drizzle please, I'll pick it up on Saturday": the no side, said before the question; a question or a
    denial says no side."""
    dialogue, _ = talk("a lemon drizzle please, I'll pick it up from the shop on Saturday")
    assert dialogue.session.slots.get("delivery") is False
    dialogue, _ = talk("a lemon drizzle please, we'd like it delivered")
    assert dialogue.session.slots.get("delivery") is True
    for said in ("a lemon drizzle please, can I pick it up from the shop?", "a lemon drizzle, I can't pick it up"):
        dialogue, _ = talk(said)
        assert "delivery" not in dialogue.session.slots, said


def test_the_thing_asked_about_said_by_a_pronoun():
    """ "I do have one" / "I don't have one" to a yes/no about having a thing; and as a change after a no, beside the
    answer to the next question ("oh actually I do have one. It's 12 Elm Road")."""
    from fsmdial.understand.rules.worded_answers import boolean_reply

    bracket = Slot(name="own_bracket", type=SlotType.boolean, ask="Have you got a bracket?")
    assert boolean_reply(bracket, "I do have one") is True
    assert boolean_reply(bracket, "we've already got it.") is True
    assert boolean_reply(bracket, "no, I don't have one") is False
    assert boolean_reply(bracket, "I have a dog") is None


def test_a_synonym_in_passing_replaces_a_held_value_when_the_message_answers_nothing_else():
    """ "sorry, it's a terrace" beside no answer to the question asked is a change (the held value goes); "no, it's a
    terrace with double yellows" answering the parking question is not."""
    dialogue, _ = talk("carrot cake", "three storey house", "deliver it please", "let's say a terrace")
    assert dialogue.session.slots["home"] == "two storey house"
