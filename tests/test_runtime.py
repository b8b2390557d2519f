"""Dialogue: turn order, transactions, tools, validation, snapshots, traces."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from fsmdial.errors import SnapshotError, ToolError, ToolFailure, ToolResultError, TurnError, UnderstandingError
from fsmdial.flow import Flow
from fsmdial.loader import load_flow
from fsmdial.runtime import SNAPSHOT_VERSION, Dialogue
from fsmdial.tools import ToolRegistry
from fsmdial.understand.base import Parse
from tests import example_tools
from tests.conftest import FLOWS, REPO
from tests.reliability_support import AskedTextVerbatim

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
        "nodes": [
            {"id": "ask", "type": "request", "slots": [{"name": "x"}]},
            {"id": "a", "type": "end"},
            {"id": "b", "type": "end"},
        ],
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


def test_tool_failure_takes_the_failure_edge_when_there_is_one():
    def broken(**_):
        raise ToolFailure("backend down")  # a declared business failure (an undeclared exception fails the turn)

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


@pytest.mark.parametrize(
    "understander, error", [(Exploding(), "understander failed"), (Liar(), "unknown slot 'refund_amount'")]
)
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
        Dialogue.restore(
            load_flow(FLOWS / "restaurant_booking.json"), dialogue.snapshot(), tools=example_tools.registry
        )


def test_trace_records_nodes_conditions_and_tool_calls(clock):
    dialogue = ride(clock=clock)
    dialogue.start()
    for text in ("Ann", "17"):
        dialogue.turn(text)
    trace = dialogue.turn("new time").trace.to_dict()
    assert trace["nodes"] == ["change_ride", "ride_inform_changes_successful", "anything_else"]
    assert trace["conditions"] == [{"edge": "when_1_change_ride_to_ride_inform_changes_successful", "outcome": True}]
    assert trace["tool_calls"][0]["arguments"] == {
        "ride_id": 17,
        "customer_name": "Ann",
        "change_description": "new time",
    }
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
            {
                "id": "look",
                "type": "external_action",
                "tool": "weather",
                "result": {"sky": "string", "wind": {"type": "string", "required": False}},
            },
            {"id": "done", "type": "end", "message": "{result.sky}{result.wind}."},
        ],
        "edges": [{"source": "ask", "target": "look"}, {"source": "look", "target": "done"}],
    }
    dialogue = Dialogue(load_flow(doc), tools={"weather": lambda city: {"sky": "Sunny"}})
    dialogue.start()
    assert dialogue.turn("Paris").text == "Sunny."


pizza_orders: list[dict[str, Any]] = []


pizza_tools = ToolRegistry()


@pizza_tools.tool()
def place_order(**arguments: Any) -> dict[str, Any]:
    pizza_orders.append(arguments)
    return {"order_id": 100 + len(pizza_orders), "total": 18.0}


PIZZA = REPO / "examples" / "pizza_shop" / "flow.json"


# flow, tools, what the user says up to the commit, the committing tool, a correction of a slot the commit
# depends on (read by it, or asked before it), the slot that correction changes
EXAMPLES: dict[str, tuple[Path, ToolRegistry, list[str], str, str, str]] = {
    "ride_change": (
        FLOWS / "ride_change.json",
        example_tools.registry,
        ["Jane Doe", "102", "please move the pickup to 7pm"],
        "change_ride",
        "ride 500",
        "ride_id",
    ),
    "ride_change_chief": (
        FLOWS / "ride_change.chief.json",
        example_tools.registry,
        ["John", "500", "change pickup time"],
        "RideChange",
        "ride 102",
        "ride_id",
    ),
    "bank_fraud_report": (
        FLOWS / "bank_fraud_report.json",
        example_tools.registry,
        ["Jane Smith", "12345678", "4321", "two card payments in Paris I did not make"],
        "bank_fraud_report",
        "12 March 1980",
        "date_of_birth",
    ),
    "restaurant_booking": (
        FLOWS / "restaurant_booking.json",
        example_tools.registry,
        ["a table for 4 tomorrow at 7pm", "Alex", "yes"],
        "book_table",
        "on friday",
        "date",
    ),
    # date_of_birth is read by verify_identity (a lookup), asked before activate_card (committed)
    "card_activation": (
        FLOWS / "card_activation.json",
        example_tools.registry,
        ["1234", "1990-03-12", "yes", "4321", "yes"],
        "activate_card",
        "12 March 1980",
        "date_of_birth",
    ),
    "pizza_shop": (
        PIZZA,
        pizza_tools,
        ["margherita", "large", "2", "tomorrow at 7pm", "Ada", "yes"],
        "place_order",
        "3 pizzas",
        "quantity",
    ),
    "vet_appointment": (
        FLOWS / "vet_appointment.json",
        example_tools.registry,
        [
            "Maria Lopez",
            "Biscuit",
            "dog",
            "annual vaccination",
            "tomorrow at 9:30",
            "07700900123",
            "maria@example.com",
            "yes",
        ],
        "book_appointment",
        "on friday",
        "date",
    ),
    "grocery_delivery": (
        FLOWS / "grocery_delivery.json",
        example_tools.registry,
        ["2 vegetable box", "12 Mill Lane, Oxford", "tomorrow at 10am", "Sam Green", "07700900456", "yes"],
        "place_delivery",
        "on friday",
        "delivery_day",
    ),
}


def effects(tool: str) -> int:
    """Times ``tool`` really ran (the tools record their calls)."""
    if tool == "place_order":
        return len(pizza_orders)
    return sum(1 for name, _ in example_tools.calls if name == tool)


def variant(path: Path, *, commits: bool, ends_as_informs: bool) -> Flow:
    """The example flow, optionally without ``commits``, optionally going on after it would end (every end
    node an inform with no way on: the dialogue waits there, so a correction reaches the commit check)."""
    data = copy.deepcopy(load_flow(path).model_dump(mode="json", by_alias=True, exclude_defaults=True))
    for node in data["nodes"]:
        if node["type"] == "external_action" and not commits:
            node.pop("commits", None)
        if node["type"] == "end" and ends_as_informs:
            node["type"] = "inform"
            node["message"] = node.get("message") or "Done."
    return load_flow(data)


def committed_dialogue(name: str, flow: Flow, clock) -> Dialogue:
    path, tools, script, tool, _, _ = EXAMPLES[name]
    example_tools.calls.clear()
    pizza_orders.clear()
    dialogue = Dialogue(flow, tools=tools, clock=clock)
    dialogue.start()
    for text in script:
        dialogue.turn(text)
    assert effects(tool) == 1, f"{name}: the script should run {tool} once"
    return dialogue


def state_of(dialogue: Dialogue) -> dict[str, Any]:
    """What a turn after the commit must not change (history and the turn count may grow)."""
    session = dialogue.session
    return {
        "node": session.node,
        "slots": dict(session.slots),
        "status": dict(session.status),
        "results": copy.deepcopy(session.results),
        "calls": copy.deepcopy(session.calls),
    }


PHARMACY: dict[str, Any] = {
    "name": "pharmacy_refill",
    "nodes": [
        {
            "id": "ask_refill",
            "type": "request",
            "slots": [
                {"name": "prescription", "type": "string", "pattern": "^RX-[0-9]{4}$", "ask": "Which prescription?"},
                {
                    "name": "store",
                    "type": "categorical",
                    "values": ["Main Street", "Airport"],
                    "label": "pick-up store",
                    "description": "Which of our stores the refill is picked up at",
                    "ask": "Which store?",
                },
            ],
        },
        {
            "id": "confirm_refill",
            "type": "inform_and_confirm",
            "message": "{prescription} at {store}.",
            "question": "Shall I place the order?",
        },
        {
            "id": "place_refill",
            "type": "external_action",
            "tool": "place_refill",
            "commits": True,
            "arguments": {"prescription": "prescription", "store": "store"},
            "result": {"order": "string"},
        },
        {"id": "done", "type": "end", "message": "Done! Your refill order is {place_refill.order}. Goodbye!"},
    ],
    "edges": [
        {"source": "ask_refill", "target": "confirm_refill"},
        {"source": "confirm_refill", "target": "place_refill", "when": {"answer": "yes"}},
        {"source": "place_refill", "target": "done"},
    ],
    "fallbacks": {"goodbye": "Bye!"},
}


def pharmacy(clock, data: dict[str, Any] | None = None) -> tuple[Dialogue, list[dict[str, Any]]]:
    orders: list[dict[str, Any]] = []
    tools = ToolRegistry()

    @tools.tool("place_refill")
    def place_refill(prescription: str, store: str) -> dict[str, Any]:
        orders.append({"prescription": prescription, "store": store})
        return {"order": f"RF-{1000 + len(orders)}"}

    dialogue = Dialogue(load_flow(data or PHARMACY), tools=tools, clock=clock)
    dialogue.start()
    for text in ("RX-1234", "Main Street", "yes"):
        dialogue.turn(text)
    assert orders == [{"prescription": "RX-1234", "store": "Main Street"}]
    return dialogue, orders


def test_every_example_flow_with_an_external_action_is_covered():
    with_actions = {
        load_flow(path).name
        for path in [*FLOWS.glob("*.json"), PIZZA]
        if any(node.type == "external_action" for node in load_flow(path).nodes)
    }
    assert with_actions == {load_flow(case[0]).name for case in EXAMPLES.values()}


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_after_the_commit_a_correction_never_runs_the_tool_again(name, clock):
    """Every example flow, as shipped: a correction of a slot the commit depends on, then "yes", then the
    correction again: the committing tool has still run once, and the session is where the commit left it."""
    path, _, _, tool, correction, _ = EXAMPLES[name]
    dialogue = committed_dialogue(name, load_flow(path), clock)
    before, ended = state_of(dialogue), dialogue.ended
    for text in (correction, "yes", correction, "yes please, do it again"):
        result = dialogue.turn(text)
        assert result.tool_calls == [] and result.trace.repeated_calls == []
        assert result.node == before["node"] and result.ended == ended
        assert result.act_names in (
            ["ended"],
            ["committed"],
            ["committed", "anything_else"],
            ["anything_else"],
            ["out_of_scope"],
        ), result.act_names
    assert effects(tool) == 1
    assert state_of(dialogue) == before


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_a_correction_after_a_commit_is_refused_when_the_dialogue_goes_on(name, clock):
    """The same flows going on after the commit (ends turned into waiting informs): the correction is refused,
    said and traced, the slot keeps its committed value, and the tool does not run again."""
    path, _, _, tool, correction, slot = EXAMPLES[name]
    dialogue = committed_dialogue(name, variant(path, commits=True, ends_as_informs=True), clock)
    before = state_of(dialogue)
    result = dialogue.turn(correction)
    assert "committed" in result.act_names
    said = next(act for act in result.acts if act.name == "committed")
    assert said.slot == slot and "can no longer change" in said.text
    assert [entry["slot"] for entry in result.trace.invalid] == [slot]
    assert result.trace.invalid[0]["reason"].startswith("committed by")
    assert result.trace.slot_changes == [] and result.trace.reset == []
    dialogue.turn("yes")
    assert effects(tool) == 1
    assert state_of(dialogue) == before


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_without_commits_the_same_correction_reopens_the_flow(name, clock):
    """The control: the corrections above are real ones. Without ``commits`` the slot changes and the machine
    goes back before the action (and, for most flows, the tool runs again): the bug issue 13 found."""
    path, _, _, tool, correction, slot = EXAMPLES[name]
    dialogue = committed_dialogue(name, variant(path, commits=False, ends_as_informs=True), clock)
    result = dialogue.turn(correction)
    assert [change["slot"] for change in result.trace.slot_changes] == [slot]
    assert result.trace.nodes, "the machine went back to the node asking the slot"
    dialogue.turn("yes")
    if name == "bank_fraud_report":  # a date of birth sends it down the other way to authenticate
        assert result.act_names == ["bank_ask_mothers_maiden_name"]
    elif name == "card_activation":  # another date of birth: the identity check now fails
        assert result.act_names == ["changed", "identity_mismatch", "ask_card_last4"]
    else:
        assert effects(tool) == 2


def test_the_sop_flow_stays_ended(clock):
    dialogue = Dialogue(load_flow(FLOWS / "card_activation.sop.json"), clock=clock)
    dialogue.start()
    for text in ("yes, I am the cardholder", "go ahead", "the password is blue sky"):
        dialogue.turn(text)
    assert dialogue.ended
    node = dialogue.node
    for text in ("yes, I am the cardholder", "go ahead", "the password is blue sky"):
        result = dialogue.turn(text)
        assert result.node == node and result.ended and result.act_names == ["ended"]
        assert result.text == "This conversation has ended."


def test_the_issue_13_refill_is_placed_once(clock):
    """Issue 13, item 0: after the end, "actually make it the Airport store" and "yes" placed a second order."""
    dialogue, orders = pharmacy(clock)
    assert dialogue.ended and dialogue.node == "done"
    first = dialogue.turn("actually make it the Airport store")
    second = dialogue.turn("yes")
    assert len(orders) == 1
    for result in (first, second):
        assert (result.node, result.ended, result.act_names) == ("done", True, ["ended"])
    assert dialogue.slots["store"] == "Main Street"
    assert dialogue.turn("bye").act_names == ["goodbye"]  # a goodbye is still answered, nothing else
    assert dialogue.start().act_names == ["ended"]
    assert dialogue.history[-1] == ("bot", "This conversation has ended.")


def test_a_flow_words_its_own_committed_and_ended_messages(clock):
    data = copy.deepcopy(PHARMACY)
    data["nodes"][3] = {"id": "done", "type": "inform", "message": "Done! Your order is {place_refill.order}."}
    data["nodes"].append(
        {
            "id": "rate",
            "type": "request",
            "slots": [
                {
                    "name": "rating",
                    "type": "integer",
                    "minimum": 1,
                    "maximum": 5,
                    "ask": "How would you rate us, 1 to 5?",
                }
            ],
        }
    )
    data["nodes"].append({"id": "thanks", "type": "end", "message": "Thank you!"})
    data["edges"] += [{"source": "done", "target": "rate"}, {"source": "rate", "target": "thanks"}]
    data["fallbacks"] = {
        "committed": "Order {place_refill.order} is placed and cannot be changed; please call us.",
        "ended": "We are done here; start a new chat for another refill.",
    }
    dialogue, orders = pharmacy(clock, data)
    assert dialogue.node == "rate"
    result = dialogue.turn("actually make it the Airport store")
    assert result.messages == [
        "Order RF-1001 is placed and cannot be changed; please call us.",
        "How would you rate us, 1 to 5?",
    ]
    assert result.node == "rate" and dialogue.slots["store"] == "Main Street"
    assert "correction of 'store' refused: action 'place_refill' has committed" in result.trace.notes
    assert dialogue.turn("5").messages == ["Thank you!"]
    assert dialogue.turn("Airport please").messages == ["We are done here; start a new chat for another refill."]
    assert len(orders) == 1


def test_the_default_committed_message_names_the_slot_by_its_noun(clock):
    data = copy.deepcopy(PHARMACY)
    data["nodes"][3] = {"id": "done", "type": "inform", "message": "Done!"}
    dialogue, orders = pharmacy(clock, data)
    result = dialogue.turn("actually make it the Airport store")
    assert result.acts[0].text == (
        "Sorry, I can no longer change the pick-up store: it has already been used, and that cannot be undone."
    )
    assert len(orders) == 1


def test_an_action_that_does_not_commit_runs_again_after_a_correction(clock):
    """The default (``commits`` false): a search or lookup is simply run again with the corrected value."""
    data = copy.deepcopy(PHARMACY)
    data["nodes"][2]["commits"] = False
    data["nodes"][3] = {"id": "done", "type": "inform", "message": "Found {place_refill.order}."}
    dialogue, orders = pharmacy(clock, data)
    result = dialogue.turn("actually make it the Airport store")
    assert result.act_names[0] == "changed"
    dialogue.turn("yes")
    assert orders[-1] == {"prescription": "RX-1234", "store": "Airport"} and len(orders) == 2


def test_a_failed_committing_action_is_not_committed(clock):
    """Only a success commits: restaurant_booking's "no table" outcome can still be corrected and booked."""
    example_tools.calls.clear()
    dialogue = Dialogue(load_flow(FLOWS / "restaurant_booking.json"), tools=example_tools.registry, clock=clock)
    dialogue.start()
    for text in ("Sam", "12", "next friday", "8pm", "yes please"):
        dialogue.turn(text)
    assert dialogue.node == "no_table"
    assert dialogue.turn("ok then 8 people").act_names == ["changed", "confirm_booking"]
    assert dialogue.turn("yes").act_names == ["booked", "goodbye"]
    assert [call[1]["party_size"] for call in example_tools.calls] == [12, 8]


@pytest.mark.parametrize("mark", ["\u2028", "\u2029", "\u202e", "\u202d", "\u2066", "\u200b", "\ufeff", "\u200e"])
def test_separators_and_format_characters_never_reach_the_understander(mark, clock):
    seen: list[str] = []

    class Recording:
        def understand(self, state, text, *, history=(), now=None):
            from fsmdial.understand.rules import RulesUnderstander

            seen.append(text)
            return RulesUnderstander().understand(state, text, history=history, now=now)

    dialogue = Dialogue(
        load_flow(FLOWS / "restaurant_booking.json"),
        understander=Recording(),
        tools=example_tools.registry,
        clock=clock,
    )
    dialogue.start()
    result = dialogue.turn(f"Al{mark}ex")
    assert all(ch not in seen[0] for ch in "\u2028\u2029\u202e\u202d\u2066\u200b\ufeff\u200e")
    assert dialogue.slots["name"] in ("Alex", "Al ex")  # format characters go, separators become spaces
    assert result.trace.text == seen[0] and dialogue.history[-2] == ("user", seen[0])


def test_clean_input_spaces_separators_and_drops_format_characters():
    from fsmdial.runtime import clean_input

    assert clean_input("a\u2028b\u2029c\u202ed\u200be\x00f\ud800g") == ("a b cde f g", None)
    assert clean_input("ab" * 3, 4) == ("abab", "input cut from 6 to 4 characters")
    assert clean_input("Ünïcødé — ok ✓ 日本") == ("Ünïcødé — ok ✓ 日本", None)


def test_a_huge_tool_result_fails_the_turn_naming_the_node_and_changes_nothing(clock):
    from fsmdial.errors import TemplateError
    from fsmdial.responses import MAX_MESSAGE_CHARS

    flow = load_flow(
        {
            "name": "echo",
            "nodes": [
                {"id": "ask", "type": "request", "slots": [{"name": "q", "ask": "What?"}]},
                {"id": "look_up", "type": "external_action", "tool": "look_up", "result": {"text": "string"}},
                {"id": "answer", "type": "inform", "message": "Got {result.text}"},
                {"id": "again", "type": "end", "message": "Bye"},
            ],
            "edges": [
                {"source": "ask", "target": "look_up"},
                {"source": "look_up", "target": "answer"},
                {"source": "answer", "target": "again"},
            ],
        }
    )
    sizes = iter([MAX_MESSAGE_CHARS * 50, 10])
    dialogue = Dialogue(flow, tools={"look_up": lambda q: {"text": "x" * next(sizes)}}, clock=clock)
    dialogue.start()
    before = dialogue.snapshot()
    # (a greeting is never a value since issue 20: the question is answered with a word that can be one)
    with pytest.raises(TemplateError, match=r"node 'answer'.*longer than 20000 characters"):
        dialogue.turn("the weather")
    assert dialogue.snapshot() == before
    assert dialogue.turn("the weather").messages == ["Got xxxxxxxxxx", "Bye"]
