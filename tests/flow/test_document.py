"""The flow format: validation errors name the path, graph checks name the node or edge."""

from __future__ import annotations

from typing import Any

import orjson
import pytest

from fsmdial.errors import FlowError
from fsmdial.flow import MAX_NESTING, Flow
from fsmdial.loader import load_flow
from tests.conftest import FIXTURES, FLOWS
from tests.flows import issues_of, small_flow

BROKEN = {
    "unknown_target.json": "edge ask->finish: unknown target node 'finish'",
    "duplicate_id.json": "nodes[1]: duplicate node id 'ask'",
    "unreachable.json": "node orphan: unreachable from the start node 'ask'",
    "no_path_to_end.json": "nodes a, b: loop with no way out",
    "two_unconditional.json": "node ask: more than one unconditional outgoing edge",
    "unbound_placeholder.json": "node tell.message: placeholder {forecast} is bound to nothing",
    "undeclared_result_field.json": "edge lookup->hot: action 'lookup' does not declare result field 'temperature'",
    "bad_slot_type.json": "nodes[0](ask).slots[0].type: Input should be",
    "categorical_without_values.json": "nodes[0](ask).slots[0]: a categorical slot needs a non-empty 'values' list",
    "expression_condition.json": "edges[0].when: a condition is a JSON object",
    "chief_free_text_condition.json": "edge 1->2: free-text condition 'the user sounds happy'",
    "not_json.json": "not valid JSON",
    "answer_on_action.json": "edge lookup->a: an 'answer' condition needs an inform_and_confirm source",
}


def test_every_fixture_has_an_expectation():
    assert {p.name for p in (FIXTURES / "broken").glob("*.json")} == set(BROKEN)


@pytest.mark.parametrize("name", sorted(BROKEN))
def test_broken_flow_gives_one_clear_issue(name):
    with pytest.raises(FlowError) as caught:
        load_flow(FIXTURES / "broken" / name)
    assert len(caught.value.issues) == 1, caught.value.issues
    assert BROKEN[name] in str(caught.value.issues[0])
    assert str(FIXTURES / "broken" / name) in str(caught.value)


@pytest.mark.parametrize("path", sorted(FLOWS.glob("*.json")), ids=lambda p: p.name)
def test_example_flows_load(path):
    flow = load_flow(path)
    assert flow.nodes and flow.name


def test_chief_ride_change_maps_ids_and_conditions():
    flow = load_flow(FLOWS / "ride_change.chief.json")
    assert [n.id for n in flow.nodes] == ["1", "2", "3", "4"]
    assert [n.type for n in flow.nodes] == ["request", "external_action", "inform", "inform"]
    slots = flow.slots()
    assert slots["customer_name"].type.value == "string"  # CHIEF "categorical" without values
    assert slots["ride_id"].type.value == "integer"
    conditions = [e.when.model_dump() if e.when else None for e in flow.edges]
    assert conditions == [None, {"status": "success"}, {"status": "failure"}]
    assert flow.fallbacks.goodbye and flow.global_actions[0].intent == "hello"


def test_chief_format_can_be_forced():
    doc = orjson.loads((FLOWS / "ride_change.chief.json").read_bytes())
    with pytest.raises(FlowError):
        load_flow(doc, format="fsmdial")  # integer ids are not fsmdial's own format
    assert load_flow(doc, format="chief").nodes[0].id == "1"


def _flow(**overrides):
    doc = {
        "name": "t",
        "nodes": [
            {
                "id": "ask",
                "type": "request",
                "slots": [{"name": "size", "type": "integer", "minimum": 1, "maximum": 9}],
            },
            {"id": "done", "type": "end", "message": "Size {size}."},
        ],
        "edges": [{"source": "ask", "target": "done"}],
    }
    doc.update(overrides)
    return doc


def test_minimal_flow_is_valid():
    flow = Flow.model_validate(_flow())
    assert flow.start_id == "ask"
    assert flow.reachable_from("ask") == ["ask", "done"]


@pytest.mark.parametrize(
    "slot, message",
    [
        (
            {"name": "x", "type": "string", "minimum": 1},
            "'minimum'/'maximum' only apply to integer, number, money and duration slots",
        ),
        ({"name": "x", "type": "integer", "minimum": 5, "maximum": 1}, "minimum 5.0 is greater than maximum 1.0"),
        ({"name": "x", "type": "string", "pattern": "("}, "not a valid regular expression"),
        ({"name": "bad name"}, "String should match pattern"),
        ({"name": "x", "type": "integer", "values": ["a"]}, "'values' only applies to categorical slots"),
    ],
)
def test_slot_validators(slot, message):
    doc = _flow(nodes=[{"id": "ask", "type": "request", "slots": [slot]}], edges=[])
    with pytest.raises(FlowError) as caught:
        load_flow(doc)
    assert message in str(caught.value)
    assert caught.value.path.startswith("nodes[0](ask).slots[0]")


def test_condition_on_unknown_slot_and_visits_node():
    doc = _flow(
        nodes=[*_flow()["nodes"], {"id": "other", "type": "end"}],
        edges=[
            {"source": "ask", "target": "other", "when": {"slot": "colour", "op": "eq", "value": "red"}},
            {"source": "ask", "target": "done", "when": {"visits": "nowhere", "op": "ge", "value": 2}},
        ],
    )
    with pytest.raises(FlowError) as caught:
        load_flow(doc)
    text = str(caught.value)
    assert "condition on unknown slot 'colour'" in text
    assert "'visits' condition on unknown node 'nowhere'" in text


def test_rule_any_and_at_least():
    node = {
        "id": "ask",
        "type": "request",
        "slots": [{"name": "depart"}, {"name": "arrive"}, {"name": "extra", "required": False}],
        "rule": {"kind": "any", "slots": ["depart", "arrive"]},
    }
    flow = Flow.model_validate(_flow(nodes=[node, {"id": "done", "type": "end"}]))
    request = flow.nodes[0]
    assert not request.satisfied({})
    assert [s.name for s in request.missing({})] == ["depart", "arrive"]
    assert request.satisfied({"arrive": "9:00"})
    node["rule"] = {"kind": "at_least", "n": 2}
    request = Flow.model_validate(_flow(nodes=[node, {"id": "done", "type": "end"}])).nodes[0]
    assert not request.satisfied({"depart": "1"})
    assert request.satisfied({"depart": "1", "extra": "x"})


def test_rule_naming_a_foreign_slot_is_rejected():
    node = {"id": "ask", "type": "request", "slots": [{"name": "a"}], "rule": {"kind": "any", "slots": ["b"]}}
    with pytest.raises(FlowError, match="rule names slot 'b'"):
        load_flow(_flow(nodes=[node, {"id": "done", "type": "end"}]))


def test_schema_file_is_current():
    from fsmdial.flow import Flow

    committed = orjson.loads((FLOWS.parent / "fsmdial" / "flow.schema.json").read_bytes())
    assert committed == Flow.model_json_schema(by_alias=True), "run: fsmdial schema > fsmdial/flow.schema.json"


def nested(kind: str, depth: int) -> dict[str, Any]:
    cond: dict[str, Any] = {"slot": "size", "op": "gt", "value": 1}
    for _ in range(depth):
        cond = {"not": cond} if kind == "not" else {kind: [cond]}
    return cond


@pytest.mark.parametrize("kind", ["all", "any", "not"])
@pytest.mark.parametrize("depth", [100, 130, 5000])
def test_deeply_nested_conditions_are_refused_with_the_path(kind: str, depth: int) -> None:
    doc = small_flow()
    doc["nodes"].insert(1, {"id": "big", "type": "end"})
    doc["edges"].insert(0, {"source": "ask", "target": "big", "when": nested(kind, depth)})
    message = issues_of(doc)
    assert f"nested more than {MAX_NESTING} levels deep" in message
    assert "edges[0].when" in message


def test_deeply_nested_list_values_are_refused() -> None:
    value: Any = 1
    for _ in range(199):
        value = [value]
    doc = small_flow()
    doc["nodes"].insert(1, {"id": "big", "type": "end"})
    doc["edges"].insert(0, {"source": "ask", "target": "big", "when": {"slot": "size", "op": "eq", "value": value}})
    assert "levels deep" in issues_of(doc)


@pytest.mark.parametrize("bad", [float("inf"), float("-inf"), float("nan")])
def test_non_finite_numbers_are_refused_with_the_path(bad: float) -> None:
    doc = small_flow()
    doc["nodes"][0]["slots"][0]["maximum"] = bad
    message = issues_of(doc)
    assert "not a finite number" in message and "nodes[0](ask).slots[0].maximum" in message


@pytest.mark.parametrize("where", ["name", "message", "key"])
def test_unpaired_surrogates_are_refused(where: str) -> None:
    doc = small_flow()
    if where == "name":
        doc["name"] = "flow\ud800"
    elif where == "message":
        doc["nodes"][1]["message"] = "bye \udfff"
    else:
        doc["nodes"][0]["\udc80"] = 1
    assert "unpaired surrogate" in issues_of(doc)


def test_a_flow_name_no_store_can_keep_is_refused_where_it_is_written() -> None:
    # The name keys sessions in every store (none keeps U+0000): validate refuses it instead of the store refusing
    # the first session's commit.
    data = orjson.loads((FLOWS / "vet_appointment.json").read_bytes())
    data["name"] = "vet\x00clinic"
    with pytest.raises(FlowError) as caught:
        load_flow(data)
    assert "name: the flow name holds U+0000" in str(caught.value)
    data["name"] = "vet clinic, Zürich"  # any readable text stays a name
    assert load_flow(data).name == "vet clinic, Zürich"
