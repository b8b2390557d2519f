"""The conversation API shared by Dialogue and Assistant: the ``Conversation`` protocol, ``Dialogue.transaction()``,
and the extension points (``Dialogue.default_understander``, ``Assistant.dialogue_class``)."""

from __future__ import annotations

from typing import Any

import pytest

from fsmdial.assistant import Assistant
from fsmdial.conversation import Conversation
from fsmdial.errors import FsmdialError, ToolError, TurnError
from fsmdial.loader import load_flow
from fsmdial.runtime import Dialogue
from fsmdial.understand.rules import RulesUnderstander
from tests import example_tools
from tests.conftest import FLOWS

RIDE = FLOWS / "ride_change.json"
BOOKING = FLOWS / "restaurant_booking.json"


def ride(**kwargs: Any) -> Dialogue:
    return Dialogue(load_flow(RIDE), tools=example_tools.registry, **kwargs)


def both(clock: Any) -> Assistant:
    return Assistant([load_flow(BOOKING), load_flow(RIDE)], tools=example_tools.registry, clock=clock)


# ------------------------------------------------------------ Conversation


def play(conversation: Conversation, texts: list[str]) -> list[list[str]]:
    """What a caller typed against the protocol only does: start, turns, a snapshot taken back."""
    said = [conversation.start().act_names]
    for text in texts:
        said.append(conversation.turn(text).act_names)
    conversation.load_snapshot(conversation.snapshot())
    return said


def test_a_dialogue_and_an_assistant_are_conversations(clock):
    dialogue, bot = ride(clock=clock), both(clock)
    assert isinstance(dialogue, Conversation) and isinstance(bot, Conversation)
    assert not isinstance(object(), Conversation)
    assert play(dialogue, ["Ann", "17"]) == [["ask_name"], ["ride_ask_booking_number"], ["ride_ask_change"]]
    assert (dialogue.node, dialogue.ended) == ("ask_details", False)
    assert dialogue.slots == {"customer_name": "Ann", "ride_id": 17}
    assert play(bot, ["book a table for 4", "Alex"]) == [["greeting"], ["ask_name"], ["ask_date"]]
    assert bot.node == bot.dialogues["restaurant_booking"].node == "ask_booking"
    assert bot.slots == {"party_size": 4, "name": "Alex"} and bot.ended is False


def test_an_assistant_with_no_active_flow_is_at_the_route(clock):
    bot = both(clock)
    assert (bot.node, bot.slots) == ("route", {})
    bot.turn("what's the weather like")
    assert (bot.node, bot.slots, bot.active) == ("route", {}, None)


# ------------------------------------------------------------ transaction()


def test_a_failed_transaction_puts_the_session_back_and_raises_typed(clock):
    dialogue = ride(clock=clock)
    dialogue.start()
    dialogue.turn("Ann")
    before, trace = dialogue.snapshot(), dialogue.last_trace
    with pytest.raises(TurnError, match="turn failed: ValueError: broken") as caught:
        with dialogue.transaction():
            dialogue.session.slots["ride_id"] = 5
            dialogue.last_trace = None
            raise ValueError("broken")
    assert isinstance(caught.value.__cause__, ValueError)
    assert dialogue.snapshot() == before and dialogue.last_trace is trace
    with pytest.raises(ToolError):  # an fsmdial error is raised as it is
        with dialogue.transaction():
            dialogue.session.slots["ride_id"] = 5
            raise ToolError("change_ride", "down")
    assert dialogue.snapshot() == before
    with dialogue.transaction():  # a block that succeeds keeps what it did
        dialogue.session.slots["ride_id"] = 5
    assert dialogue.slots["ride_id"] == 5


def test_an_interrupt_rolls_back_and_is_not_wrapped(clock):
    dialogue = ride(clock=clock)
    dialogue.start()
    before = dialogue.snapshot()
    with pytest.raises(KeyboardInterrupt):
        with dialogue.transaction():
            dialogue.session.slots["customer_name"] = "Ann"
            raise KeyboardInterrupt
    assert dialogue.snapshot() == before


def test_an_assistant_turn_failing_with_no_flow_started_yet_is_a_turn_error(clock):
    class Broken(RulesUnderstander):
        def understand(self, state, text, **kwargs):  # type: ignore[override]
            raise RuntimeError("model crashed")

    flows = [load_flow(BOOKING), load_flow(RIDE)]
    bot = Assistant(flows, tools=example_tools.registry, clock=clock, understander=Broken())
    with pytest.raises(FsmdialError, match="understander failed: RuntimeError: model crashed"):
        bot.turn("book a table")
    assert (bot.stack, bot.shared, bot.dialogues, bot.ended) == ([], {}, {}, False)


# ------------------------------------------------------------ extension points


class Counting(RulesUnderstander):
    made = 0

    def __init__(self) -> None:
        super().__init__()
        Counting.made += 1


class CountingDialogue(Dialogue):
    default_understander = Counting


def test_a_dialogue_subclass_names_its_default_understander(clock):
    made = Counting.made
    dialogue = CountingDialogue(load_flow(RIDE), tools=example_tools.registry, clock=clock)
    assert type(dialogue.understander) is Counting and Counting.made == made + 1
    dialogue.start()
    assert dialogue.turn("Ann").act_names == ["ride_ask_booking_number"]
    given = RulesUnderstander()
    assert CountingDialogue(load_flow(RIDE), tools=example_tools.registry, understander=given).understander is given
    assert type(ride().understander) is RulesUnderstander


def test_an_assistant_subclass_names_the_dialogue_class_of_its_flows(clock):
    class CountingAssistant(Assistant):
        dialogue_class = CountingDialogue

    bot = CountingAssistant([load_flow(BOOKING), load_flow(RIDE)], tools=example_tools.registry, clock=clock)
    assert type(bot.understander) is Counting  # the router's default comes from the dialogue class
    assert bot.turn("book a table for 4").act_names == ["ask_name"]
    bot.turn("actually I need to change my ride")
    assert bot.stack == ["restaurant_booking", "ride_change"]
    assert all(type(d) is CountingDialogue and type(d.understander) is Counting for d in bot.dialogues.values())
    restored = CountingAssistant([load_flow(BOOKING), load_flow(RIDE)], tools=example_tools.registry, clock=clock)
    restored.load_snapshot(bot.snapshot())
    assert {name: type(d) for name, d in restored.dialogues.items()} == dict.fromkeys(bot.dialogues, CountingDialogue)
    assert Assistant.dialogue_class is Dialogue and Dialogue.default_understander is RulesUnderstander
