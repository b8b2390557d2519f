"""fsmdial.flow.lint: warnings about valid flows that are probably not what their author meant."""

from __future__ import annotations

from typing import Any

import pytest

from fsmdial.flow import flow_warnings
from fsmdial.loader import load_flow
from tests.flows import small_flow


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
