"""An Assistant answers a hello, thanks or goodbye said before any task is chosen in kind, never with an apology.

The greeting names what the assistant does in short words; a flow's own greeting (a global action whose
examples are all greetings, as the rules read them) opens it where one is declared.
"""

from __future__ import annotations

from typing import Any

import pytest

from fsmdial.assistant import Assistant
from fsmdial.loader import load_flow
from tests.conftest import FLOWS
from tests.example_tools import registry


def bike_flows(*, repair_hello: str | None = "Hi! Welcome to Spokes, the bike workshop.") -> list[Any]:
    """The team's two flows, cut down: a repair booking (its own hello, when given) and a cancellation."""
    repair: dict[str, Any] = {
        "name": "bike_repair",
        "examples": ["I need a bike repair", "my bike needs fixing"],
        "nodes": [
            {
                "id": "ask",
                "type": "request",
                "slots": [
                    {"name": "name", "type": "person_name", "ask": "What's your name?"},
                    {"name": "bike_type", "type": "categorical", "values": ["road", "mountain", "e-bike"]},
                    {"name": "slot_time", "type": "categorical", "values": ["morning", "afternoon"]},
                ],
            },
            {"id": "done", "type": "end", "message": "See you then."},
        ],
        "edges": [{"source": "ask", "target": "done"}],
        "fallbacks": {"goodbye": "Bye, ride safe!"},
    }
    if repair_hello is not None:
        repair["global_actions"] = [{"intent": "hello", "examples": ["hi", "hello", "hey"], "response": repair_hello}]
    cancel = {
        "name": "cancel_booking",
        "examples": ["cancel my booking", "I want to cancel"],
        "nodes": [
            {"id": "ask", "type": "request", "slots": [{"name": "reference", "type": "reference"}]},
            {"id": "done", "type": "end", "message": "Cancelled."},
        ],
        "edges": [{"source": "ask", "target": "done"}],
    }
    return [load_flow(repair), load_flow(cancel)]


def bike_shop(clock, **kwargs: Any) -> Assistant:
    bot = Assistant(bike_flows(**kwargs), clock=clock)
    bot.start()
    return bot


@pytest.mark.parametrize("hello", ["hi there", "Hello!", "hey", "good morning", "hi, can you help?"])
def test_a_hello_gets_the_flow_s_own_greeting_and_what_the_assistant_does(clock, hello):
    bot = bike_shop(clock)
    result = bot.turn(hello)
    assert result.text == (
        "Hi! Welcome to Spokes, the bike workshop. I can help with bike repair and cancel booking. "
        "What would you like to do?"
    )
    assert [(act.kind, act.name) for act in result.acts] == [("greeting", "greeting")]
    assert not result.ended and bot.active is None and bot.dialogues == {}
    # "good morning" is no choice of the repair flow's "morning" slot value: nothing was started
    assert bot.turn("my bike needs fixing").flow == "bike_repair"


def test_without_a_flow_greeting_the_assistant_says_hello_itself(clock):
    result = bike_shop(clock, repair_hello=None).turn("hi there")
    assert result.text == "Hello! I can help with bike repair and cancel booking. What would you like to do?"


def test_a_flow_greeting_that_asks_already_is_not_asked_twice(clock):
    bot = Assistant([FLOWS / "ride_change.json", FLOWS / "restaurant_booking.json"], tools=registry, clock=clock)
    assert bot.turn("hello").text == "Hello, how can I help? I can help with ride change and restaurant booking."
    other = Assistant([FLOWS / "restaurant_booking.json", FLOWS / "ride_change.json"], tools=registry, clock=clock)
    assert other.turn("hi").text == (
        "Hello! I can book you a table. I can help with restaurant booking and ride change. What would you like to do?"
    )


def test_a_flow_greeting_with_placeholders_is_not_used_before_its_flow_runs(clock):
    flows = bike_flows(repair_hello="Hi {name}!")
    assert Assistant(flows, clock=clock).turn("hi").text.startswith("Hello! I can help with bike repair")


def test_thanks_before_any_task_is_welcomed_not_taken_as_goodbye(clock):
    bot = bike_shop(clock)
    result = bot.turn("thanks!")
    assert result.text == "You're welcome! I can help with bike repair and cancel booking. What would you like to do?"
    assert [(act.kind, act.name) for act in result.acts] == [("greeting", "welcome")]
    assert not result.ended and not bot.ended


def test_goodbye_before_any_task_ends_with_a_goodbye(clock):
    bot = bike_shop(clock)
    result = bot.turn("ok thanks, bye")
    assert result.ended and bot.ended and result.act_names == ["goodbye"]
    assert result.text == "Goodbye!"


def test_a_hello_with_a_task_goes_to_the_task(clock):
    bot = bike_shop(clock)
    result = bot.turn("hi, I need a bike repair")
    assert result.flow == "bike_repair" and result.act_names == ["ask_name"]


def test_a_hello_with_something_out_of_scope_is_still_told_what_the_assistant_does(clock):
    result = bike_shop(clock).turn("hi, I want to bake a cake")
    assert result.act_names == ["out_of_scope"]
    assert result.text == "Sorry, I can help with bike repair and cancel booking. What would you like to do?"


def test_thanks_after_a_finished_task_still_closes(clock):
    bot = bike_shop(clock)
    bot.turn("cancel my booking")
    assert bot.turn("AB1234").act_names == ["done"] and bot.active is None
    result = bot.turn("thanks")
    assert result.ended and result.act_names == ["goodbye"]


def test_a_greeting_is_an_assistant_turn_like_any_other(clock):
    bot = bike_shop(clock)
    before = bot.snapshot()
    bot.turn("hi")
    assert bot.snapshot() == before  # nothing started, nothing shared
    assert Assistant.restore(bike_flows(), before, clock=clock).turn("hello").acts[0].kind == "greeting"
