"""Import standard operating procedures (ChatSOP adjacency lists) into flows.

An SOP is a graph of ``Agent.<Action>`` and ``User.<State>`` vertices given as
an adjacency list, starting at ``Agent.Start`` and ending at
``Agent.PoliteEnd``. The mapping:

* an agent action answered by user states becomes a question node whose reply
  is classified into those states (``inform_and_confirm`` with ``choices``;
  the understanding schema holds them as an enum), and each user state's
  agent successor is reached by an edge ``{"choice": state}``;
* an agent action followed by another agent action becomes an ``inform``;
* an agent action with no successor (``PoliteEnd``) becomes an ``end``;
* ``Agent.Start`` is only where the flow begins (an ``inform`` when it has a
  message of its own);
* a user state leading back to an earlier agent action (ask again) is
  followed while that action was entered fewer than ``max_loops`` times; after
  that the state's other successor (e.g. ``PoliteEnd``) is taken, so every
  cycle is bounded.

Mandatory steps cannot be skipped: the compiled machine only moves along the
SOP's own edges, whatever the user says.

Besides a bare adjacency list, the document may be an object with ``graph``
(the adjacency list) and optionally ``name``, ``description``, ``messages``
(agent action -> what the bot says) and ``examples`` (user state -> example
replies).
"""

from __future__ import annotations

import re
from collections import deque
from typing import Any

from ..errors import FlowError, FlowIssue
from ..flow import check_document

START = "Agent.Start"
MAX_LOOPS = 3


def looks_like_sop(doc: Any) -> bool:
    graph = doc.get("graph", doc) if isinstance(doc, dict) else None
    return (
        isinstance(graph, dict)
        and START in graph
        and all(isinstance(k, str) and k.startswith(("Agent.", "User.")) for k in graph)
    )


def _short(vertex: str) -> str:
    return vertex.split(".", 1)[1]


def _humanize(name: str) -> str:
    words = re.findall(r"[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])", name)
    text = " ".join(words).lower()
    return text[:1].upper() + text[1:]


def sop_to_flow_dict(doc: Any, name: str = "sop", *, max_loops: int = MAX_LOOPS) -> dict[str, Any]:
    """Translate an SOP document into fsmdial's flow format (a dict, validated by the caller)."""
    graph = doc.get("graph", doc) if isinstance(doc, dict) else None
    if not isinstance(graph, dict) or not looks_like_sop(doc):
        raise FlowError(FlowIssue("", "an SOP is an object of Agent.*/User.* vertices with an Agent.Start"))
    nesting = check_document(doc)  # before walking it: nesting, non-finite numbers, unpaired surrogates
    if nesting:
        raise FlowError(nesting)
    messages: dict[str, str] = doc.get("messages", {}) if "graph" in doc else {}
    examples: dict[str, list[str]] = doc.get("examples", {}) if "graph" in doc else {}
    issues: list[FlowIssue] = []
    if not isinstance(messages, dict):
        issues.append(FlowIssue("messages", "must be an object of agent action -> message"))
        messages = {}
    if not isinstance(examples, dict) or not all(isinstance(v, list) for v in examples.values()):
        issues.append(FlowIssue("examples", "must be an object of user state -> list of example replies"))
        examples = {}
    for vertex, successors in graph.items():
        if not isinstance(successors, list):
            issues.append(FlowIssue(vertex, "successors must be a list"))
            continue
        for successor in successors:
            if not isinstance(successor, str) or successor not in graph:
                issues.append(FlowIssue(vertex, f"successor {successor!r} is not a vertex of the SOP"))
        kinds = {s.split(".")[0] for s in successors if isinstance(s, str)}
        if vertex.startswith("Agent.") and kinds == {"Agent", "User"}:
            issues.append(FlowIssue(vertex, "an agent action is followed either by user states or by one agent action"))
        if vertex.startswith("User.") and "User" in kinds:
            issues.append(FlowIssue(vertex, "a user state must be followed by agent actions"))
    if issues:
        raise FlowError(issues)

    depth = _depths(graph)
    nodes: list[dict[str, Any]] = []
    edges: list[dict[str, Any]] = []
    start_targets = graph[START]
    skip_start = START not in messages and len(start_targets) == 1
    for vertex in sorted((v for v in graph if v.startswith("Agent.")), key=lambda v: (depth.get(v, 1 << 30), v)):
        if vertex == START and skip_start:
            continue
        node_id = _short(vertex)
        message = messages.get(vertex, _humanize(node_id) + ".")
        successors = graph[vertex]
        if not successors:
            nodes.append({"id": node_id, "type": "end", "message": message})
        elif all(s.startswith("User.") for s in successors):
            choices = [
                {
                    "name": _short(state),
                    "description": _humanize(_short(state)),
                    "examples": list(examples.get(state, [])),
                }
                for state in successors
            ]
            nodes.append({"id": node_id, "type": "inform_and_confirm", "question": message, "choices": choices})
            for state in successors:
                edges.extend(_state_edges(graph, depth, node_id, vertex, state, max_loops))
        else:
            nodes.append({"id": node_id, "type": "inform", "message": message})
            edges.append({"source": node_id, "target": _short(successors[0])})
    start = _short(start_targets[0]) if skip_start else _short(START)
    return {
        "name": doc.get("name", name) if "graph" in doc else name,
        "description": doc.get("description", "") if "graph" in doc else "",
        "start": start,
        "nodes": nodes,
        "edges": edges,
        "fallbacks": {"goodbye": "Goodbye!", "out_of_scope": "Sorry, I did not understand that."},
    }


def _state_edges(
    graph: dict, depth: dict, source: str, vertex: str, state: str, max_loops: int
) -> list[dict[str, Any]]:
    """Edges for one user state: back edges (ask again) bounded by visits, then the way on."""
    targets = graph[state]
    back = [t for t in targets if vertex in _reachable(graph, t)]
    forward = [t for t in targets if t not in back]
    out = []
    for target in back:
        when: dict[str, Any] = {"choice": _short(state)}
        if forward or target != targets[-1]:
            when = {"all": [when, {"visits": _short(target), "op": "lt", "value": max_loops}]}
        out.append({"source": source, "target": _short(target), "when": when})
    for target in forward[:1]:
        out.append({"source": source, "target": _short(target), "when": {"choice": _short(state)}})
    return out


def _reachable(graph: dict[str, list[str]], start: str) -> set[str]:
    seen = {start}
    queue = deque([start])
    while queue:
        for successor in graph.get(queue.popleft(), []):
            if successor not in seen:
                seen.add(successor)
                queue.append(successor)
    return seen


def _depths(graph: dict[str, list[str]]) -> dict[str, int]:
    """Breadth-first distance of every vertex from Agent.Start (how early a step comes)."""
    depth = {START: 0}
    queue = deque([START])
    while queue:
        vertex = queue.popleft()
        for successor in graph.get(vertex, []):
            if successor not in depth:
                depth[successor] = depth[vertex] + 1
                queue.append(successor)
    return depth
