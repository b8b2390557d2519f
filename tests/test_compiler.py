"""The compiler: deterministic source, transitions classes, computed invalidation lists."""

from __future__ import annotations

import re
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from transitions import Machine

from fsmdial.compiler import (
    ENCODING_LINE,
    check_source,
    compile_flow,
    dependents,
    emit_source,
    fingerprint,
    load_compiled,
    mermaid,
)
from fsmdial.errors import FlowError
from fsmdial.loader import load_flow
from tests.conftest import FLOWS, REPO
from tests.flows import small_flow
from tests.reliability_support import FUZZ_SETTINGS, count, record

EXAMPLES = sorted(FLOWS.glob("*.json"))


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_source_is_byte_identical_across_processes(path):
    here = emit_source(load_flow(path))
    code = (
        "import sys; from fsmdial.compiler import emit_source; from fsmdial.loader import load_flow; "
        f"sys.stdout.write(emit_source(load_flow({str(path)!r})))"
    )
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
    flow = load_flow(
        {
            "name": "quiz",
            "nodes": [
                {"id": "ask_topic", "type": "request", "slots": [{"name": "topic"}]},
                {
                    "id": "question",
                    "type": "external_action",
                    "tool": "question",
                    "arguments": {"topic": "topic"},
                    "result": {"text": "string"},
                },
                {
                    "id": "check",
                    "type": "external_action",
                    "tool": "check",
                    "arguments": {"q": {"result": "text", "node": "question"}, "a": "answer"},
                    "result": {"text": "string"},
                },
                {"id": "ask_answer", "type": "request", "slots": [{"name": "answer"}]},
                {"id": "done", "type": "end"},
            ],
            "edges": [
                {"source": "ask_topic", "target": "question"},
                {"source": "question", "target": "ask_answer"},
                {"source": "ask_answer", "target": "check"},
                {"source": "check", "target": "done"},
            ],
        }
    )
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


CODING_NAMES = [
    "coding:utf-7 +ACc-)+ADs-import os+ADs-os.system(+ACc-echo pwned+ACc-)+ADs-x=(+ACc-",
    "coding:latin-1 caf\u00e9 \u00fcber",
    "-*- coding: latin-1 -*-\u00e9",
    "vim: set fileencoding=utf-16 :",
]


def nested(kind: str, depth: int) -> dict[str, Any]:
    cond: dict[str, Any] = {"slot": "size", "op": "gt", "value": 1}
    for _ in range(depth):
        cond = {"not": cond} if kind == "not" else {kind: [cond]}
    return cond


@pytest.mark.parametrize("name", CODING_NAMES)
def test_compiled_file_states_its_encoding_and_no_flow_text_reaches_lines_1_and_2(name: str, tmp_path: Path) -> None:
    doc = small_flow(name=name)
    doc["nodes"][0]["id"] = name
    doc["edges"][0]["source"] = name
    source = emit_source(load_flow(doc))
    first, second = source.splitlines()[:2]
    assert first == ENCODING_LINE
    assert "coding" not in second and name not in second
    target = tmp_path / "compiled.py"
    target.write_bytes(source.encode("utf-8"))
    loader = (
        "import sys, orjson; from fsmdial.compiler import load_compiled; cls = load_compiled(sys.argv[1]); "
        "sys.stdout.write(orjson.dumps([cls.FLOW.name, list(cls.STATES)]).decode())"
    )
    run = subprocess.run([sys.executable, "-c", loader, str(target)], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    assert orjson.loads(run.stdout) == [name, [name, "done"]]


@pytest.mark.parametrize("kind", ["all", "any", "not"])
def test_the_deepest_conditions_validation_accepts_compile(kind: str) -> None:
    depth = 0
    while True:  # the deepest nesting validation accepts
        doc = small_flow()
        doc["nodes"].insert(1, {"id": "big", "type": "end"})
        doc["edges"].insert(0, {"source": "ask", "target": "big", "when": nested(kind, depth + 1)})
        try:
            flow = load_flow(doc)
        except FlowError:
            break
        depth += 1
    assert depth >= 15
    cls = compile_flow(flow)
    check_source(cls.SOURCE)


def test_graph_escapes_node_ids_and_labels() -> None:
    evil = 'x"-->y\nstate "z" as end;#'
    doc = small_flow(name='flow\n---\nname: "x"')
    doc["nodes"][0]["id"] = evil
    doc["edges"][0]["source"] = evil
    text = mermaid(compile_flow(load_flow(doc)))
    lines = text.splitlines()
    assert lines[:4] == ["---", "title: flow#10;---#10;name#58; #34;x#34;", "---", "stateDiagram-v2"]
    states = [line for line in lines if line.startswith("  state ")]
    assert len(states) == 2 and all(line.count('"') == 2 for line in states)
    assert "  state_0 --> done: advance" in lines
    assert all(line.startswith(("---", "title: ", "stateDiagram", "  ")) for line in lines)
    assert sum("-->" in line for line in lines) == 2  # the edge and the initial state: none from the id


CODING_PIECES = [
    "coding:utf-7",
    "coding: latin-1",
    "-*- coding: utf-16 -*-",
    "vim: set fileencoding=cp1252 :",
    "coding=ascii",
    "+ACc-",
    "+ACI-",
    "+ADs-",
    "+AAo-",
    "\u00e9",
    "\u2028",
    "\x0c",
    "\r",
    "\\",
    '"""',
    "'",
    "#",
    "\x00",
]


name_text = st.lists(
    st.one_of(st.sampled_from(CODING_PIECES), st.text(min_size=1, max_size=12)), min_size=1, max_size=6
).map("".join)


@st.composite
def named_flow(draw: st.DrawFn) -> dict[str, Any]:
    ids = draw(st.lists(name_text, min_size=2, max_size=4, unique=True))
    nodes: list[dict[str, Any]] = [
        {"id": ids[0], "type": "request", "slots": [{"name": "x", "description": draw(name_text)}]}
    ]
    nodes += [
        {"id": node_id, "type": "inform", "message": draw(name_text).replace("{", "(").replace("}", ")")}
        for node_id in ids[1:-1]
    ]
    nodes.append({"id": ids[-1], "type": "end", "message": "{x}"})
    edges = [{"source": a, "target": b} for a, b in zip(ids, ids[1:], strict=False)]
    return {"name": draw(name_text), "description": draw(name_text), "nodes": nodes, "edges": edges}


LOADER = """
import sys, orjson
from fsmdial.compiler import fingerprint, load_compiled
out = []
for path in sys.argv[1:]:
    cls = load_compiled(path)
    out.append([cls.FLOW.name, list(cls.STATES), fingerprint(cls.FLOW)])
sys.stdout.write(orjson.dumps(out).decode())
"""


def test_compiled_files_load_back_the_same_flow_in_a_fresh_interpreter(tmp_path: Path) -> None:
    stats: Counter[str] = Counter()
    batches = count(6, 60)

    @settings(max_examples=batches, **FUZZ_SETTINGS)
    @given(docs=st.lists(named_flow(), min_size=25, max_size=25))
    def fuzz(docs: list[dict[str, Any]]) -> None:
        expected, paths = [], []
        for index, doc in enumerate(docs):
            try:
                flow = load_flow(doc)
            except FlowError:
                stats["refused"] += 1  # e.g. a slot description over the template checks; never a crash
                continue
            source = emit_source(flow)
            data = source.encode("utf-8")
            lines = data.split(b"\n")
            assert lines[0] == ENCODING_LINE.encode() and lines[1].startswith(b"# Generated by fsmdial ")
            assert not re.search(rb"coding[:=]", lines[1])
            path = tmp_path / f"flow_{stats['batches']}_{index}.py"
            path.write_bytes(data)
            paths.append(str(path))
            expected.append([flow.name, [node.id for node in flow.nodes], fingerprint(flow)])
        stats["batches"] += 1
        if not paths:
            return
        run = subprocess.run([sys.executable, "-c", LOADER, *paths], capture_output=True, timeout=300)
        assert run.returncode == 0, run.stderr.decode(errors="replace")[-2000:]
        assert orjson.loads(run.stdout) == expected
        stats["files"] += len(paths)

    fuzz()
    record("compiled_files_as_bytes", files=stats["files"], refused=stats["refused"], different=0)
    assert stats["files"] > 0
