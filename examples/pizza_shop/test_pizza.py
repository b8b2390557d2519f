"""The pizza shop's behaviour: whole conversations, asserted through the fsmdial plugin's fixtures.

``shop`` (conftest.py) is a dialogue on flow.json with this suite's kitchen as its tools, the
rules understander and the plugin's frozen clock (Friday 13 June 2025, noon).
"""

from __future__ import annotations

import re

ADA_ORDER = {
    "pizza": "pepperoni",
    "size": "large",
    "quantity": 2,
    "pickup_day": "2025-06-14",
    "pickup_time": "19:00",
    "customer_name": "Ada Lovelace",
}


def test_order_from_greeting_to_goodbye(shop, kitchen, fsmdial_conversation):
    talk = fsmdial_conversation(shop)
    talk.start(acts=["ask_pizza"])
    talk.say("hi", acts=["hello", "ask_pizza"])
    talk.say("what pizzas do you have", acts=["menu", "ask_pizza"])
    talk.say(
        "Two large pepperoni, please",
        acts=["ask_pickup_day"],
        slots={"pizza": "pepperoni", "size": "large", "quantity": 2},
    )
    talk.say("tomorrow at 7pm", acts=["ask_name"], slots={"pickup_day": "2025-06-14", "pickup_time": "19:00"})
    talk.say(
        "my name is Ada Lovelace",
        acts=[{"kind": "confirm", "name": "confirm_order"}],
        messages=[
            "So that's 2 large pepperoni for Ada Lovelace, to pick up on Saturday 14 June at 7 pm. "
            "Shall I place the order?"
        ],
        tool_calls=[],
    )
    talk.say(
        "yes please",
        acts=["order_placed", "see_you"],
        messages=[
            re.compile(r"order number is 101, 23\.00 EUR"),
            "Thank you, Ada Lovelace. See you on Saturday 14 June!",
        ],
        tool_calls=[
            {
                "tool": "place_order",
                "arguments": ADA_ORDER,
                "status": "success",
                "result": {"order_id": 101, "total": 23.0},
            }
        ],
        ended=True,
    )
    assert [(o.pizza, o.quantity, o.customer_name) for o in kitchen.orders] == [("pepperoni", 2, "Ada Lovelace")]


# A conversation as data: one dict per turn, with the keys of fsmdial.testing.ExpectedTurn
# ("user": None is the opening).
TOO_MANY_THEN_DECLINED = [
    {"user": None, "acts": ["ask_pizza"]},
    {"user": "funghi", "acts": ["ask_size"], "slots": {"pizza": "funghi"}},
    {"user": "medium", "acts": ["ask_quantity"], "messages": ["How many medium funghi pizzas?"]},
    {
        "user": "12",
        "acts": [{"kind": "invalid", "name": "invalid_quantity", "slot": "quantity"}, "ask_quantity"],
        "messages": [
            "Sorry, that is not a valid number of pizzas: 12 is above the maximum of 10.",
            "How many medium funghi pizzas?",
        ],
    },
    {"user": "3", "acts": ["ask_pickup_day"], "slots": {"quantity": 3}},
    {"user": "today at 18:30", "acts": ["ask_name"], "slots": {"pickup_day": "2025-06-13", "pickup_time": "18:30"}},
    {"user": "Grace", "acts": ["confirm_order"], "slots": {"customer_name": "Grace"}},
    {"user": "no", "acts": ["nothing_ordered"], "tool_calls": [], "ended": True, "node": "nothing_ordered"},
]


def test_a_refused_quantity_is_asked_again_and_a_declined_order_is_not_placed(shop, kitchen, fsmdial_conversation):
    fsmdial_conversation(shop).run(TOO_MANY_THEN_DECLINED)
    assert kitchen.orders == []


def test_sold_out_takes_the_failure_edge(shop, kitchen, fsmdial_conversation):
    kitchen.capacity = 1
    fsmdial_conversation(shop).run(
        [
            {"user": None},
            {"user": "Two large pepperoni, please"},
            {"user": "tomorrow at 7pm"},
            {"user": "my name is Ada Lovelace", "acts": ["confirm_order"]},
            {
                "user": "yes",
                "acts": ["sold_out", "nothing_ordered"],
                "messages": [
                    "I'm sorry, the kitchen cannot take any more pepperoni for that day.",
                    "Nothing has been ordered. Goodbye!",
                ],
                "tool_calls": [{"tool": "place_order", "arguments": ADA_ORDER, "status": "failure"}],
                "ended": True,
            },
        ]
    )
    assert kitchen.orders == []


def test_relative_days_follow_the_frozen_clock(shop, fsmdial_clock, fsmdial_conversation):
    fsmdial_clock.set("2025-12-31T20:00")
    talk = fsmdial_conversation(shop)
    talk.start()
    talk.say("one small margherita", slots={"pizza": "margherita", "size": "small", "quantity": 1})
    talk.say("tomorrow", acts=["ask_pickup_time"], slots={"pickup_day": "2026-01-01"})
