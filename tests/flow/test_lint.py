"""fsmdial.flow.lint: warnings about valid flows that are probably not what their author meant."""

from __future__ import annotations

from typing import Any

import pytest

from fsmdial.flow import flow_warnings
from fsmdial.loader import load_flow
from tests.conftest import FLOWS
from tests.flows import bike_repair_flow, small_flow


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ({"slot": "size", "op": "gt", "value": 2}, {"slot": "size", "op": "gt", "value": 5}),
        ({"slot": "size", "op": "present"}, {"slot": "size", "op": "eq", "value": 3}),
        ({"slot": "size", "op": "in", "value": [1, 2, 3]}, {"slot": "size", "op": "eq", "value": 2}),
        (
            {"any": [{"slot": "size", "op": "lt", "value": 0}, {"slot": "size", "op": "ge", "value": 1}]},
            {"all": [{"slot": "size", "op": "eq", "value": 4}, {"call": "weekday"}]},
        ),
    ],
)
def test_shadowed_edges_are_warned_about(first: dict[str, Any], second: dict[str, Any]) -> None:
    doc = small_flow()
    doc["nodes"][1:1] = [{"id": "a", "type": "end"}, {"id": "b", "type": "end"}]
    doc["edges"][0:0] = [
        {"source": "ask", "target": "a", "when": first},
        {"source": "ask", "target": "b", "when": second},
    ]
    warnings = [str(w) for w in flow_warnings(load_flow(doc))]
    assert any(w.startswith("edge ask->b: never taken") and "ask->a" in w for w in warnings), warnings


def test_edges_that_can_win_are_not_warned_about() -> None:
    doc = small_flow()
    doc["nodes"][1:1] = [{"id": "a", "type": "end"}, {"id": "b", "type": "end"}]
    doc["edges"][0:0] = [
        {"source": "ask", "target": "a", "when": {"slot": "size", "op": "gt", "value": 5}},
        {"source": "ask", "target": "b", "when": {"slot": "size", "op": "gt", "value": 2}},
    ]
    assert flow_warnings(load_flow(doc)) == []


def test_a_confirmation_without_a_yes_edge_and_a_leaf_inform_are_warned_about() -> None:
    doc = small_flow()
    doc["nodes"][1:1] = [
        {"id": "check", "type": "inform_and_confirm", "question": "Sure?"},
        {"id": "told", "type": "inform", "message": "Noted."},
    ]
    doc["edges"] = [
        {"source": "ask", "target": "check"},
        {"source": "check", "target": "done", "when": {"answer": "no"}},
        {"source": "check", "target": "told", "when": {"all": [{"answer": "other"}]}},
    ]
    warnings = {w.path: w.message for w in flow_warnings(load_flow(doc))}
    assert "'yes'" in warnings["node check"]
    assert "inform node with no outgoing edge" in warnings["node told"]


def test_an_end_node_that_asks_a_question_is_a_warning() -> None:
    doc = {
        "name": "ends_asking",
        "nodes": [
            {"id": "ask", "type": "request", "slots": [{"name": "x", "description": "x"}]},
            {"id": "bye", "type": "end", "message": "Anything else I can do for you?"},
        ],
        "edges": [{"source": "ask", "target": "bye"}],
    }
    assert [w.path for w in flow_warnings(load_flow(doc))] == ["node bye"]
    doc["nodes"][1]["message"] = "Goodbye."
    assert flow_warnings(load_flow(doc)) == []


# ------------------------------------------------------------------ issue 33 #1: which confirmation a commit follows


def commit_warnings(doc: dict[str, Any]) -> list[str]:
    return [str(w) for w in flow_warnings(load_flow(doc)) if w.path == "node book_repair"]


def test_two_confirmations_leading_to_one_committing_action_are_no_warning() -> None:
    assert flow_warnings(load_flow(bike_repair_flow())) == []


def test_a_confirmation_that_does_not_show_a_committed_value_is_a_warning() -> None:
    doc = bike_repair_flow()
    (confirm,) = [node for node in doc["nodes"] if node["id"] == "confirm_with_bike"]
    confirm["message"] = "A repair of your {bike_type} bike for {name}."
    (warning,) = commit_warnings(doc)
    assert "'courtesy_bike'" in warning and "confirm_with_bike" in warning, warning


def test_a_value_the_way_to_a_confirmation_fixes_is_no_warning() -> None:
    # confirm_plain no longer shows the bike type: a warning while an unconditional edge leads there (any type
    # may reach it), none once only bike_type == "other" does (the summary is the one for that value).
    doc = bike_repair_flow()
    (confirm,) = [node for node in doc["nodes"] if node["id"] == "confirm_plain"]
    confirm["message"] = "A repair of your bike for {name}."
    (warning,) = commit_warnings(doc)
    assert "a yes at 'confirm_plain' commits 'bike_type' unseen" in warning, warning
    (edge,) = [edge for edge in doc["edges"] if edge["target"] == "confirm_plain"]
    edge["when"] = {"slot": "bike_type", "op": "eq", "value": "other"}
    assert commit_warnings(doc) == []


def test_a_way_to_a_committing_action_without_a_confirmation_is_a_warning() -> None:
    doc = bike_repair_flow()
    doc["edges"] = [edge for edge in doc["edges"] if "confirm_plain" not in (edge["source"], edge["target"])]
    doc["nodes"] = [node for node in doc["nodes"] if node["id"] != "confirm_plain"]
    doc["edges"].append({"source": "ask_bike", "target": "book_repair"})
    (warning,) = commit_warnings(doc)
    assert "ask_bike" in warning and "no confirmation" in warning, warning


def test_a_jump_to_a_committing_action_is_a_warning() -> None:
    doc = bike_repair_flow()
    doc["global_actions"] = [{"intent": "just_book", "examples": ["just book it"], "target": "book_repair"}]
    (warning,) = commit_warnings(doc)
    assert "global action 'just_book'" in warning and "no confirmation" in warning, warning


def test_a_value_shown_at_an_earlier_confirmation_on_every_way_is_no_warning() -> None:
    # card_activation: the card number is shown at offer_activation, the PIN confirmed at ask_new_pin; a change of
    # the card number goes back to the identity check and offer_activation before the PIN is confirmed again.
    assert flow_warnings(load_flow(FLOWS / "card_activation.json")) == []
