"""The compiler: deterministic source, transitions classes, computed invalidation lists."""

from __future__ import annotations

import subprocess
import sys

import pytest
from transitions import Machine

from fsmdial.compiler import compile_flow, dependents, emit_source, load_compiled
from fsmdial.loader import load_flow

from .conftest import FLOWS, REPO

EXAMPLES = sorted(FLOWS.glob("*.json"))


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_source_is_byte_identical_across_processes(path):
    here = emit_source(load_flow(path))
    code = f"import sys; from fsmdial.compiler import emit_source; from fsmdial.loader import load_flow; sys.stdout.write(emit_source(load_flow({str(path)!r})))"
    there = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=REPO).stdout
    assert here == there


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_compiled_class_is_a_transitions_machine(path):
    flow = load_flow(path)
    cls = compile_flow(flow)
    instance = cls()
    assert isinstance(instance.machine, Machine)
    assert instance.state == flow.start_id
    assert set(cls.STATES) == {node.id for node in flow.nodes}
    assert len(cls.TRANSITIONS) == len(flow.edges)


def test_generated_source_imports_only_fsmdial():
    source = emit_source(load_flow(FLOWS / "restaurant_booking.json"))
    imports = [line for line in source.splitlines() if line.startswith(("import ", "from "))]
    assert imports and all(line.startswith("from fsmdial.") for line in imports)
    compile(source, "x.py", "exec")


def test_dependents_are_the_nodes_after_the_asking_node():
    flow = load_flow(FLOWS / "restaurant_booking.json")
    deps = dependents(flow)
    assert deps["party_size"][0] == "confirm_booking"
    assert {"book_table", "booked", "no_table", "goodbye"} <= set(deps["party_size"])
    assert "ask_booking" not in deps["party_size"]


def test_conditional_edges_come_before_the_unconditional_one():
    cls = compile_flow(load_flow(FLOWS / "card_activation.json"))
    out_of_mismatch = [t for t in cls.TRANSITIONS if t["source"] == "identity_mismatch"]
    assert [t["dest"] for t in out_of_mismatch] == ["verify_identity", "locked_out"]
    assert out_of_mismatch[0]["after"] == ["clear_current_slots"]
    assert "conditions" not in out_of_mismatch[1]


def test_decline_edges_get_their_own_trigger():
    cls = compile_flow(load_flow(FLOWS / "bank_fraud_report.json"))
    triggers = {(t["source"], t["dest"]): t["trigger"] for t in cls.TRANSITIONS}
    assert triggers[("ask_account", "ask_security")] == "decline"
    assert triggers[("ask_account", "ask_fraud_details")] == "advance"


def test_load_compiled_roundtrip(tmp_path):
    flow = load_flow(FLOWS / "ride_change.json")
    target = tmp_path / "ride.py"
    target.write_text(emit_source(flow))
    cls = load_compiled(str(target))
    assert cls.__name__ == "RideChangeFlow"
    assert cls.FLOW == flow


def test_an_action_that_does_not_read_a_slot_keeps_its_result():
    flow = load_flow({
        "name": "quiz",
        "nodes": [
            {"id": "ask_topic", "type": "request", "slots": [{"name": "topic"}]},
            {"id": "question", "type": "external_action", "tool": "question", "arguments": {"topic": "topic"},
             "result": {"text": "string"}},
            {"id": "check", "type": "external_action", "tool": "check",
             "arguments": {"q": {"result": "text", "node": "question"}, "a": "answer"}, "result": {"text": "string"}},
            {"id": "ask_answer", "type": "request", "slots": [{"name": "answer"}]},
            {"id": "done", "type": "end"},
        ],
        "edges": [{"source": "ask_topic", "target": "question"}, {"source": "question", "target": "ask_answer"},
                  {"source": "ask_answer", "target": "check"}, {"source": "check", "target": "done"}],
    })
    deps = dependents(flow)
    assert "question" in deps["topic"] and "check" in deps["topic"]  # check reads question's result
    assert "check" in deps["answer"] and "question" not in deps["answer"]


def test_a_compiled_class_works_on_the_one_validated_flow_object() -> None:
    flow = load_flow(FLOWS / "ride_change.json")
    cls = compile_flow(flow)
    assert cls.FLOW is flow and cls.DEPENDENTS._flow is flow  # the slot dependents read the same object


def test_a_compiled_sources_broken_flow_data_is_a_flow_error_with_the_path() -> None:
    from fsmdial.errors import FlowError
    from fsmdial.machine import flow_from_data

    with pytest.raises(FlowError) as caught:
        flow_from_data({"name": "f", "nodes": [{"id": "x", "type": "nonsense"}]})
    assert caught.value.issues[0].path.startswith("nodes[0](x)")
    assert "compiled flow source" in str(caught.value)
