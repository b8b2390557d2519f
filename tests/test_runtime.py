"""Dialogue: turn order, transactions, tools, validation, snapshots, traces."""

from __future__ import annotations

import pytest

from fsmdial.errors import SnapshotError, ToolError, ToolResultError, TurnError, UnderstandingError
from fsmdial.loader import load_flow
from fsmdial.runtime import SNAPSHOT_VERSION, Dialogue
from fsmdial.understand.base import Parse

from . import example_tools
from .conftest import FLOWS
from .reliability_support import AskedTextVerbatim

RIDE = FLOWS / "ride_change.json"


def ride(tools=None, **kwargs):
    return Dialogue(load_flow(RIDE), tools=tools or example_tools.registry, **kwargs)


def test_missing_tool_is_an_error_when_building():
    with pytest.raises(ToolError, match="node 'change_ride' calls it but it is not registered"):
        Dialogue(load_flow(RIDE), tools={})


def test_stand_in_tools_return_the_first_expected_outcome():
    dialogue = Dialogue(load_flow(RIDE), stand_in_tools=True)
    assert dialogue.stand_ins == ["change_ride"]
    dialogue.start()
    for text in ("Ann", "17", "new time"):
        result = dialogue.turn(text)
    assert result.act_names == ["ride_inform_changes_successful", "anything_else"]
    assert result.tool_calls[0].result == {"changed": True, "message": "example"}


def test_missing_predicate_is_an_error():
    doc = {
        "name": "p",
        "nodes": [{"id": "ask", "type": "request", "slots": [{"name": "x"}]}, {"id": "a", "type": "end"}, {"id": "b", "type": "end"}],
        "edges": [{"source": "ask", "target": "a", "when": {"call": "is_vip"}}, {"source": "ask", "target": "b"}],
    }
    with pytest.raises(TurnError, match="predicate 'is_vip'"):
        Dialogue(load_flow(doc))
    vip = Dialogue(load_flow(doc), predicates={"is_vip": lambda m: m.slots.get("x") == "gold"})
    vip.start()
    assert vip.turn("gold").node == "a"
    other = Dialogue(load_flow(doc), predicates={"is_vip": lambda m: m.slots.get("x") == "gold"})
    other.start()
    assert other.turn("silver").node == "b"


def test_invalid_value_is_reported_and_not_stored():
    dialogue = ride()
    dialogue.start()
    dialogue.turn("Ann")
    before = dialogue.slots
    result = dialogue.turn("87236")
    assert result.acts[0].kind == "invalid" and result.acts[0].slot == "ride_id"
    assert "above the maximum of 1000" in result.acts[0].text
    assert result.act_names[-1] == "ride_ask_booking_number"
    assert dialogue.slots == before
    assert dialogue.retries == {"ride_id": 1}


def test_tool_exception_without_failure_edge_rolls_back():
    def broken(**_):
        raise ConnectionError("backend down")

    doc = {
        "name": "t",
        "nodes": [
            {"id": "ask", "type": "request", "slots": [{"name": "city"}]},
            {"id": "look", "type": "external_action", "tool": "weather"},
            {"id": "done", "type": "end", "message": "ok"},
        ],
        "edges": [{"source": "ask", "target": "look"}, {"source": "look", "target": "done"}],
    }
    dialogue = Dialogue(load_flow(doc), tools={"weather": broken})
    dialogue.start()
    snapshot = dialogue.snapshot()
    with pytest.raises(ToolError, match="raised ConnectionError: backend down"):
        dialogue.turn("Paris")
    assert dialogue.snapshot() == snapshot
    assert dialogue.node == "ask" and dialogue.slots == {}


def test_tool_exception_takes_the_failure_edge_when_there_is_one():
    def broken(**_):
        raise ConnectionError("backend down")

    dialogue = ride(tools={"change_ride": broken})
    dialogue.start()
    for text in ("Ann", "17"):
        dialogue.turn(text)
    result = dialogue.turn("new time")
    assert result.act_names == ["ride_inform_changes_failed", "anything_else"]
    assert result.tool_calls[0].status == "failure"
    assert "backend down" in result.tool_calls[0].error


def test_result_of_wrong_shape_rolls_back():
    dialogue = ride(tools={"change_ride": lambda **_: {"changed": "maybe"}})
    dialogue.start()
    for text in ("Ann", "17"):
        dialogue.turn(text)
    snapshot = dialogue.snapshot()
    with pytest.raises(ToolResultError, match="does not match the shape"):
        dialogue.turn("new time")
    assert dialogue.snapshot() == snapshot


class Exploding:
    def understand(self, state, text, *, history=(), now=None):
        raise RuntimeError("model crashed")


class Liar:
    def understand(self, state, text, *, history=(), now=None):
        return Parse(slots={"refund_amount": 1000})


@pytest.mark.parametrize("understander, error", [(Exploding(), "understander failed"), (Liar(), "unknown slot 'refund_amount'")])
def test_understander_failures_roll_back(understander, error):
    dialogue = ride(understander=understander)
    dialogue.start()
    snapshot = dialogue.snapshot()
    with pytest.raises(UnderstandingError, match=error):
        dialogue.turn("hello")
    assert dialogue.snapshot() == snapshot


def test_user_text_is_never_formatted():
    dialogue = ride(understander=AskedTextVerbatim())
    dialogue.start()
    dialogue.turn("{ride_id} {x.__class__}")
    dialogue.turn("5")
    result = dialogue.turn("x")
    assert dialogue.slots["customer_name"] == "{ride_id} {x.__class__}"
    assert "for you, {ride_id} {x.__class__}: ride 5" in result.text


def test_snapshot_restore_continues_identically():
    first = ride()
    first.start()
    first.turn("Ann")
    restored = Dialogue.restore(load_flow(RIDE), first.snapshot(), tools=example_tools.registry)
    a, b = first.turn("17"), restored.turn("17")
    assert a.trace.to_dict() == b.trace.to_dict()
    assert first.snapshot() == restored.snapshot()


@pytest.mark.parametrize(
    "mutate, message",
    [
        (lambda s: s.replace(b'"version":%d' % SNAPSHOT_VERSION, b'"version":0'), "format version 0 is not supported"),
        (lambda s: s.replace(b'"fsmdial.session"', b'"other"'), "not an fsmdial session snapshot"),
        (lambda s: s[:-5], "not valid JSON"),
        (lambda s: s.replace(b'"node":"ask_details"', b'"node":"nowhere"'), "node 'nowhere'"),
    ],
)
def test_bad_snapshots_are_refused(mutate, message):
    dialogue = ride()
    dialogue.start()
    with pytest.raises(SnapshotError, match=message):
        Dialogue.restore(load_flow(RIDE), mutate(dialogue.snapshot()), tools=example_tools.registry)


def test_snapshot_of_another_flow_is_refused():
    dialogue = ride()
    with pytest.raises(SnapshotError, match="different content"):
        Dialogue.restore(load_flow(FLOWS / "restaurant_booking.json"), dialogue.snapshot(), tools=example_tools.registry)


def test_trace_records_nodes_conditions_and_tool_calls(clock):
    dialogue = ride(clock=clock)
    dialogue.start()
    for text in ("Ann", "17"):
        dialogue.turn(text)
    trace = dialogue.turn("new time").trace.to_dict()
    assert trace["nodes"] == ["change_ride", "ride_inform_changes_successful", "anything_else"]
    assert trace["conditions"] == [{"edge": "when_1_change_ride_to_ride_inform_changes_successful", "outcome": True}]
    assert trace["tool_calls"][0]["arguments"] == {"ride_id": 17, "customer_name": "Ann", "change_description": "new time"}
    assert "timings_ms" not in trace
    assert set(dialogue.last_trace.to_dict(timings=True)["timings_ms"]) >= {"total", "understand", "advance"}


def test_over_long_input_is_cut_with_a_note():
    dialogue = ride(max_input_chars=50)
    dialogue.start()
    result = dialogue.turn("x" * 500)
    assert result.trace.notes == ["input cut from 500 to 50 characters"]
    assert dialogue.slots["customer_name"] == "x" * 50


def test_decline_without_alternative_ends_politely():
    dialogue = ride()
    dialogue.start()
    result = dialogue.turn("I'd rather not say")
    assert result.act_names == ["goodbye"]
    assert dialogue.ended


def test_understanding_state_lists_what_can_be_said():
    dialogue = Dialogue(load_flow(FLOWS / "restaurant_booking.json"), tools=example_tools.registry)
    dialogue.start()
    state = dialogue.understanding_state()
    assert state.asked == "name" and state.confirm is None
    assert {i.name for i in state.intents} == {"hello", "opening_hours", "goodbye", "decline", "continue"}
    assert [s.name for s in state.slots] == ["name", "party_size", "date", "time", "seating"]
    assert dialogue.understanding_state() is state  # cached per state signature
    for text in ("Alex", "2", "tomorrow", "8pm"):
        dialogue.turn(text)
    state = dialogue.understanding_state()
    assert state.confirm == "confirm_booking" and state.asked is None
    assert "decline" not in {i.name for i in state.intents}


def test_non_string_text_is_a_turn_error():
    dialogue = ride()
    with pytest.raises(TurnError):
        dialogue.turn(None)  # type: ignore[arg-type]


def test_optional_result_field_absent_reads_as_empty():
    doc = {
        "name": "t",
        "nodes": [
            {"id": "ask", "type": "request", "slots": [{"name": "city"}]},
            {"id": "look", "type": "external_action", "tool": "weather",
             "result": {"sky": "string", "wind": {"type": "string", "required": False}}},
            {"id": "done", "type": "end", "message": "{result.sky}{result.wind}."},
        ],
        "edges": [{"source": "ask", "target": "look"}, {"source": "look", "target": "done"}],
    }
    dialogue = Dialogue(load_flow(doc), tools={"weather": lambda city: {"sky": "Sunny"}})
    dialogue.start()
    assert dialogue.turn("Paris").text == "Sunny."
