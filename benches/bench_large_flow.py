"""Stage 2b: a 10,000-node flow. Loading, compiling and starting a dialogue are linear in the
size of the flow (issue 13: a chain of 1k/2k/4k nodes took 0.5/2.0/9.3 s to load).

Three chains of 10,000 nodes: informs whose messages read a slot, request nodes (one slot
each), and request/action/inform triples. Compare the 2,500-node runs: each step should take
about four times less.
"""

from __future__ import annotations

from typing import Any

import pytest

from fsmdial.compiler import compile_flow
from fsmdial.errors import FlowError
from fsmdial.loader import load_flow
from fsmdial.runtime import Dialogue


def chain(size: int, kind: str) -> dict[str, Any]:
    nodes: list[dict[str, Any]] = [{"id": "ask", "type": "request", "slots": [{"name": "name"}]}]
    for i in range(size - 2):
        if kind == "inform" or (kind == "mixed" and i % 3 == 2):
            nodes.append({"id": f"n{i}", "type": "inform", "message": f"Step {i}, {{name}}."})
        elif kind == "request" or i % 3 == 0:
            nodes.append({"id": f"n{i}", "type": "request", "slots": [{"name": f"s{i}", "type": "integer"}]})
        else:
            nodes.append({"id": f"n{i}", "type": "external_action", "tool": "t", "arguments": {"name": "name"}})
    nodes.append({"id": "end", "type": "end", "message": "Bye {name}."})
    ids = [node["id"] for node in nodes]
    return {
        "name": f"chain_{kind}",
        "nodes": nodes,
        "edges": [{"source": a, "target": b} for a, b in zip(ids, ids[1:], strict=False)],
    }


@pytest.mark.parametrize("size", [2_500, 10_000])
@pytest.mark.parametrize("kind", ["inform", "request", "mixed"])
def test_load_compile_and_start_a_chain(benchmark, kind: str, size: int) -> None:
    doc = chain(size, kind)

    def load_compile_start() -> Any:
        flow = load_flow(doc)
        cls = compile_flow(flow)
        dialogue = Dialogue(flow, stand_in_tools=True)
        dialogue.start()
        return cls

    benchmark.group = f"large flow ({kind})"
    cls = benchmark.pedantic(load_compile_start, rounds=1, iterations=1)
    assert len(cls.STATES) == size


def loop_without_exit(size: int) -> dict[str, Any]:
    """A request node, then ``size`` informs in one loop that never reaches the end node (issue 22,
    item 10: refusing it took 0.6/2.5/11 s at 2k/4k/8k nodes, a search from every stuck node)."""
    nodes: list[dict[str, Any]] = [{"id": "ask", "type": "request", "slots": [{"name": "k", "type": "integer"}]}]
    nodes += [{"id": f"n{i}", "type": "inform", "message": f"Step {i}."} for i in range(size)]
    nodes.append({"id": "end", "type": "end", "message": "Bye."})
    edges = [
        {"source": "ask", "target": "n0"},
        {"source": "ask", "target": "end", "when": {"slot": "k", "op": "eq", "value": 0}},
    ]
    edges += [{"source": f"n{i}", "target": f"n{(i + 1) % size}"} for i in range(size)]
    return {"name": "loop", "nodes": nodes, "edges": edges}


@pytest.mark.parametrize("size", [2_000, 8_000])
def test_refuse_a_loop_without_exit(benchmark, size: int) -> None:
    doc = loop_without_exit(size)

    def refused() -> FlowError:
        with pytest.raises(FlowError) as caught:
            load_flow(doc)
        return caught.value

    benchmark.group = "loop without exit"
    error = benchmark.pedantic(refused, rounds=1, iterations=1)
    assert [issue.message for issue in error.issues] == [
        "loop with no way out: no path from here to an end node or a node without outgoing edges"
    ]
    assert error.issues[0].path.count(",") == size - 1
