"""Assistant: several flows behind one conversation; a failed turn leaves the whole Assistant as it was."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from fsmdial.flow import Flow
from fsmdial.loader import load_flow
from tests.conftest import FLOWS
from tests.reliability_support import count  # noqa: E402


def banking(clock, transfer_tool) -> Any:
    from fsmdial.assistant import Assistant

    def flow(name: str, example: str, slots: list[dict[str, Any]], tool: str) -> Flow:
        return load_flow(
            {
                "name": name,
                "examples": [example],
                "description": name,
                "nodes": [
                    {"id": "ask", "type": "request", "slots": slots},
                    {"id": "act", "type": "external_action", "tool": tool},
                    {"id": "done", "type": "end", "message": f"{name} done"},
                ],
                "edges": [{"source": "ask", "target": "act"}, {"source": "act", "target": "done"}],
                "fallbacks": {"goodbye": "bye"},
            }
        )

    account = {"name": "account_number", "pattern": "^[0-9]{4,}$", "ask": "Your account number?"}
    flows = [
        flow(
            "balance", "check my balance", [account, {"name": "pin", "pattern": "^[0-9]{3}$", "ask": "PIN?"}], "balance"
        ),
        flow(
            "transfer",
            "make a transfer",
            [account, {"name": "amount", "type": "number", "ask": "How much?"}],
            "transfer",
        ),
    ]
    return Assistant(flows, tools={"balance": lambda **kw: {}, "transfer": transfer_tool}, clock=clock)


def assistant_state(bot: Any) -> Any:
    return (
        list(bot.stack),
        dict(bot.shared),
        bot.ended,
        sorted(bot.dialogues),
        {name: d.snapshot() for name, d in bot.dialogues.items()},
    )


_PIECES = st.one_of(
    st.text(max_size=40),
    st.sampled_from(
        [
            "book a table",
            "change my ride",
            "bye",
            "yes",
            "no",
            "Alex",
            "102",
            "7pm",
            "tomorrow",
            "9" * 5000,
            "\u202e\u2028",
            "{0.__class__}",
            "<|im_start|>system",
            "x" * 3000,
        ]
    ),
)


def test_a_tool_failing_in_a_routed_flow_leaves_the_assistant_as_it_was(clock):
    from fsmdial.errors import TurnError

    def broken(**arguments: Any) -> Any:
        raise RuntimeError("bank is down")

    bot = banking(clock, broken)
    bot.turn("check my balance")
    assert bot.turn("12345").act_names == ["ask_pin"]
    before = assistant_state(bot)
    with pytest.raises(TurnError):
        bot.turn("make a transfer of 250")  # routed: the transfer flow takes the account number, calls the tool
    assert assistant_state(bot) == before
    result = bot.turn("123")  # the balance flow goes on as if the failed turn never happened
    assert result.flow == "balance" and result.act_names == ["done"]
    assert bot.stack == []


def test_a_huge_first_message_is_cut_before_routing(clock):
    bot = banking(clock, lambda **kw: {})
    result = bot.turn("9" * 5000)
    assert result.act_names == ["out_of_scope"] and bot.active is None
    assert result.trace.notes == ["input cut from 5000 to 2000 characters"]
    assert len(result.trace.text) == 2000
    result = bot.turn("make a transfer\u202e of 250")
    assert result.flow == "transfer" and bot.dialogues["transfer"].slots == {"amount": 250}


def test_an_assistant_stays_ended_after_goodbye(clock):
    bot = banking(clock, lambda **kw: {})
    bot.turn("check my balance")
    assert bot.turn("bye").ended
    result = bot.turn("make a transfer")
    assert result.ended and result.act_names == ["ended"] and bot.dialogues.keys() == {"balance"}
    assert bot.stack == []


def test_the_assistant_refuses_text_that_is_not_a_string(clock):
    from fsmdial.errors import TurnError

    bot = banking(clock, lambda **kw: {})
    with pytest.raises(TurnError, match="must be a string"):
        bot.turn(None)  # type: ignore[arg-type]


@settings(max_examples=count(40, 400), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(texts=st.lists(_PIECES, min_size=1, max_size=8), fail_at=st.integers(0, 3))
def test_assistant_turns_either_answer_or_change_nothing(texts, fail_at, clock):
    """Any text through a two-flow Assistant whose tools break now and then: a turn returns, or raises a typed
    error and leaves the Assistant (stack, shared slots, flows, sessions) exactly as it was."""
    from fsmdial.assistant import Assistant
    from fsmdial.errors import FsmdialError

    calls = {"n": 0}

    def flaky(**arguments: Any) -> dict[str, Any]:
        calls["n"] += 1
        if calls["n"] % 4 == fail_at:
            return {"unexpected": 1}  # a result of the wrong shape always fails the turn (no failure edge catches it)
        return {"changed": True, "booked": True, "reference": "R-1"}

    bot = Assistant(
        [load_flow(FLOWS / "restaurant_booking.json"), load_flow(FLOWS / "ride_change.json")],
        tools={"book_table": flaky, "change_ride": flaky},
        clock=clock,
    )
    bot.start()
    for text in texts:
        before = assistant_state(bot)
        try:
            result = bot.turn(text)
        except FsmdialError:
            assert assistant_state(bot) == before
            continue
        assert len(result.trace.text) <= 2000
        assert all(ch not in result.trace.text for ch in "\u202e\u2028")


def _ride_assistant(clock, calls: list[dict[str, Any]]) -> Any:
    from fsmdial.assistant import Assistant

    def change_ride(**arguments: Any) -> dict[str, Any]:
        calls.append(arguments)
        return {"changed": True}

    flows = [load_flow(FLOWS / "restaurant_booking.json"), load_flow(FLOWS / "ride_change.json")]
    return Assistant(
        flows,
        tools={"book_table": lambda **kw: {"booked": True, "reference": "R-1"}, "change_ride": change_ride},
        clock=clock,
    )


def test_a_new_run_of_a_flow_does_not_reuse_the_values_of_its_committed_run(clock):
    """ride_change committed a change; asked again, the new run does not call change_ride with the old values:
    the values that fed the committed call are not adopted, so it asks and the new change is the one made."""
    calls: list[dict[str, Any]] = []
    bot = _ride_assistant(clock, calls)
    for text in ["I need to change my ride", "Alex", "102"]:
        bot.turn(text)
    result = bot.turn("change pickup time to 7pm")
    assert [c.tool for c in result.tool_calls] == ["change_ride"] and bot.active is None
    result = bot.turn("can you change my booking to 8pm")
    assert result.flow == "ride_change" and result.tool_calls == [] and len(calls) == 1
    assert "change_description" not in bot.dialogues["ride_change"].slots
    for text in ["Alex", "102"]:
        assert bot.turn(text).tool_calls == []
    result = bot.turn("change pickup time to 8pm")
    assert [c.arguments for c in result.tool_calls] == [
        {"ride_id": 102, "customer_name": "Alex", "change_description": "change pickup time to 8pm"}
    ]
    assert len(calls) == 2


def test_values_of_a_committed_run_stay_unadopted_after_a_snapshot(clock):
    """Which values fed a committed call is part of the assistant's snapshot."""
    calls: list[dict[str, Any]] = []
    bot = _ride_assistant(clock, calls)
    for text in ["I need to change my ride", "Alex", "102", "change pickup time to 7pm"]:
        bot.turn(text)
    again = _ride_assistant(clock, calls)
    again.load_snapshot(bot.snapshot())
    assert again.turn("change my booking").tool_calls == []
    assert again.dialogues["ride_change"].slots == {} and len(calls) == 1


class _CountingModel:
    """Stands for a model understander: the rules' reading, said to cost one model call each time it is asked."""

    def __init__(self) -> None:
        from fsmdial.understand.rules import RulesUnderstander

        self.rules = RulesUnderstander()
        self.asked: list[str] = []

    def understand(self, state: Any, text: str, **kwargs: Any) -> Any:
        self.asked.append(state.flow)
        parse = self.rules.understand(state, text, **kwargs)
        parse.path, parse.model_calls = "model", 1
        return parse


def test_a_routing_turn_makes_one_model_call_at_most_and_its_trace_counts_it(clock):
    from fsmdial.assistant import Assistant

    model = _CountingModel()
    flows = [load_flow(FLOWS / name) for name in ("restaurant_booking.json", "grocery_delivery.json")]
    bot = Assistant(flows, understander=model, clock=clock, stand_in_tools=True)
    result = bot.turn("I'd like to book a table for 4")
    assert result.flow == "restaurant_booking"
    # The model chose the flow; the flow read the same text with the rules, and still took the party size.
    assert model.asked == ["assistant"]
    assert result.trace.model_calls == 1
    assert any("routed here" in note for note in result.trace.notes)
    assert 4 in bot.slots.values()
    # Within the flow, the model is asked once per turn as before.
    bot.turn("tomorrow")
    assert model.asked == ["assistant", "restaurant_booking"]
    assert bot.dialogues["restaurant_booking"].last_trace.model_calls == 1
    # Routed by the task's own words after the model was asked (no route intent read): still the one call, counted.
    model.asked.clear()
    other = Assistant(flows, understander=model, clock=clock, stand_in_tools=True)
    result = other.turn("a British restaurant, in the expensive price range")
    assert result.flow == "restaurant_booking" and model.asked == ["assistant"] and result.trace.model_calls == 1
