"""Passes over a STAR flow document being built: completing its graph and binding its placeholders.

Each pass reads and rewrites the plain document (nodes and edges as dicts) that
:mod:`.star` assembles; the graph walks are :mod:`fsmdial.flow`'s own.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from fsmdial.flow import ResultCondition, SlotCondition, iter_conditions, neighbours, reachable
from fsmdial.responses import parse_template

from .star_format import StarTask, parse_condition
from .star_names import ANYTHING_ELSE, bye_label, same_words

Document = dict[str, Any]
OPTIONAL_FIELD: Document = {"type": "any", "required": False}
"""A result field a query may leave out (it then reads as empty)."""
PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)(:[^{}]*)?\}")
TYPE_HINTS = (":s", ":d")
"""STAR's format specs (string, number): type hints of its wizard interface, dropped at import."""


# ------------------------------------------------------------------ completing the graph


def place_optional_slots(
    nodes: list[Document],
    edges: list[Document],
    slots: list[Document],
    query: str,
    replies: dict[str, str],
    notes: list[str],
) -> None:
    """Put optional slots on the request node just before ``query``, or make them one there."""
    into = [e for e in edges if e["target"] == query]
    plain_in = [e for e in into if "when" not in e]
    index = {n["id"]: i for i, n in enumerate(nodes)}
    source = nodes[index[plain_in[0]["source"]]] if len(into) == 1 and plain_in else None
    if source is not None and source["type"] == "request":
        source["slots"].extend(slots)
    elif source is not None and source["type"] == "inform":
        # "I can also filter by X, Y or Z" just before the query: that is the optional criteria
        # themselves. It becomes their request node; nothing needs saying unless the user gives some.
        node_id = source["id"]
        nodes[index[node_id]] = {
            "id": node_id,
            "type": "request",
            "description": replies.get(node_id, ""),
            "slots": slots,
        }
        notes.append(f"{node_id}: optional search criteria, imported as their request node")
    else:
        form = f"form_{query}"
        for edge in into:
            edge["target"] = form
        nodes.insert(index[query], {"id": form, "type": "request", "slots": slots})
        edges.append({"source": form, "target": query})


def add_nothing_found(
    nodes: list[Document], edges: list[Document], replies: dict[str, str], branching: set[str]
) -> None:
    """A query that branches on its status succeeds when its result is ``ok``; one that does not gets a failure
    branch to the schema's ``*_inform_nothing_found`` reply (success: something was ``found``)."""
    reply = next((k for k in replies if k.endswith("_inform_nothing_found") or k == "inform_nothing_found"), None)
    for node in [n for n in nodes if n["type"] == "external_action"]:
        if node["id"] in branching:
            node["success_when"] = {"result": "ok", "op": "eq", "value": True}
        elif reply is not None:
            if reply not in {n["id"] for n in nodes}:
                nodes.append({"id": reply, "type": "inform", "message": replies[reply]})
            node["success_when"] = {"result": "found", "op": "eq", "value": True}
            edges.append({"source": node["id"], "target": reply, "when": {"status": "failure"}})


def add_closing(nodes: list[Document], edges: list[Document], task: StarTask) -> None:
    """``anything_else`` asks a question: "no" leads to the goodbye. A branch that stops short of it
    (an inform with no way on, such as "that time is unavailable") goes on to ask it."""
    if ANYTHING_ELSE not in task.replies:
        return
    if ANYTHING_ELSE not in {n["id"] for n in nodes}:
        nodes.append({"id": ANYTHING_ELSE, "type": "inform_and_confirm", "question": task.replies[ANYTHING_ELSE]})
    sources = {e["source"] for e in edges}
    edges.extend(
        {"source": n["id"], "target": ANYTHING_ELSE} for n in nodes if n["type"] == "inform" and n["id"] not in sources
    )
    answered = {
        e["when"].get("answer") for e in edges if e["source"] == ANYTHING_ELSE and isinstance(e.get("when"), dict)
    }
    bye = bye_label(task.replies, task.responses)
    if "no" in answered or bye is None:
        return
    if bye not in {n["id"] for n in nodes}:
        text = task.replies.get(bye) or (task.responses or {}).get(bye) or "Goodbye."
        nodes.append({"id": bye, "type": "end", "message": text})
    edges.append({"source": ANYTHING_ELSE, "target": bye, "when": {"answer": "no"}})


# ------------------------------------------------------------------ passes over the flow document


def successors(flow: Document) -> dict[str, list[str]]:
    return neighbours((n["id"] for n in flow["nodes"]), ((e["source"], e["target"]) for e in flow["edges"]))


def predecessors(flow: Document) -> dict[str, list[str]]:
    return neighbours((n["id"] for n in flow["nodes"]), ((e["target"], e["source"]) for e in flow["edges"]))


def prune_unreachable(flow: Document, notes: list[str]) -> None:
    seen = set(reachable(successors(flow), [flow["start"]]))
    dropped = [n["id"] for n in flow["nodes"] if n["id"] not in seen]
    if dropped:
        notes.append(f"unreachable from the start, dropped: {', '.join(dropped)}")
    flow["nodes"] = [n for n in flow["nodes"] if n["id"] in seen]
    flow["edges"] = [e for e in flow["edges"] if e["source"] in seen and e["target"] in seen]


def ask_again_on_loops(flow: Document) -> None:
    """A loop back to a request node ("search more? yes", "play on? yes") asks its slots again:
    the edge clears them (``reset_slots``) instead of running straight through on stale answers."""
    succ = successors(flow)
    requests = {n["id"] for n in flow["nodes"] if n["type"] == "request"}
    for edge in flow["edges"]:
        if edge["target"] in requests and edge["source"] in reachable(succ, [edge["target"]]):
            edge["reset_slots"] = True


def bind_placeholders(flow: Document) -> None:
    """Rewrite ``{name:spec}`` to a slot or ``{result.field}`` of an upstream query (declared there).

    STAR's specs ``:s``/``:d`` are type hints of its wizard interface, not formats (it writes ``{x:d}``
    for values that arrive as text): they are dropped, so no value can fail to fit its spec."""
    owner = {s["name"]: n["id"] for n in flow["nodes"] if n["type"] == "request" for s in n["slots"]}
    nodes = {n["id"]: n for n in flow["nodes"]}
    pred = predecessors(flow)

    def rewrite(template: str, node_id: str | None) -> str:
        upstream = reachable(pred, pred[node_id]) if node_id else []
        actions = [nodes[n] for n in upstream if nodes[n]["type"] == "external_action"]

        def one(match: re.Match[str]) -> str:
            name, spec = match.group(1), match.group(2) or ""
            spec = "" if spec in TYPE_HINTS else spec
            if not actions:  # before any query only the user's own values can fill it
                return "{" + name + spec + "}" if owner.get(name, node_id) != node_id else name.replace("_", " ")
            # After a query, its result says what happened (declared on it if need be, optional, so a tool
            # that leaves it out shows nothing). A slot could have been corrected since, or never filled
            # when the machine was moved here.
            field_name = next((f for f in actions[0]["result"] if same_words(f, name)), name)
            for action in actions:
                action["result"].setdefault(field_name, dict(OPTIONAL_FIELD))
            return "{result." + field_name + spec + "}"

        return PLACEHOLDER.sub(one, template)

    for holder, key, node_id in templates(flow):
        holder[key] = rewrite(holder[key], node_id)


def templates(flow: Document) -> Iterator[tuple[Document, str, str | None]]:
    """Every template the importer writes: (the object holding it, its key, the node saying it; None: any node)."""
    for node in flow["nodes"]:
        for slot in node["slots"] if node["type"] == "request" else ():
            if slot.get("ask"):
                yield slot, "ask", node["id"]
        for key in ("message", "question"):
            if node.get(key):
                yield node, key, node["id"]
    for action in flow["global_actions"]:
        if action.get("response"):
            yield action, "response", None
    for name, text in flow["fallbacks"].items():
        if text:
            yield flow["fallbacks"], name, None


# ------------------------------------------------------------------ engine leniencies


def needed_options(flow: Document) -> dict[str, bool]:
    """The engine leniencies (``Flow.options``) the finished document still needs; none is on by default.

    * ``case_insensitive_values``: a condition compares a value with text (STAR's graphs have none;
      an overlay's condition may).
    * ``lenient_format_specs``: a template keeps a format spec (the importer drops STAR's type hints).
    * ``result_fallback``: a template reads ``{result.x}`` and the flow has more than one query, so the
      result of an earlier query is there to read when the last one's was reset (teacher forcing, a
      corrected slot). With a single query there is nothing to fall back to.
    """
    fields = [
        (name, spec) for holder, key, _ in templates(flow) for _, name, spec in parse_template(holder[key]) if name
    ]
    whens = [e["when"] for e in flow["edges"] if e.get("when")] + [
        n["success_when"] for n in flow["nodes"] if n.get("success_when")
    ]
    queries = [n for n in flow["nodes"] if n["type"] == "external_action"]
    options = {
        "case_insensitive_values": any(
            compares_text(c) for when in whens for c in iter_conditions(parse_condition(when))
        ),
        "lenient_format_specs": any(spec for _, spec in fields),
        "result_fallback": len(queries) > 1 and any(name.startswith("result.") for name, _ in fields),
    }
    return {name: True for name, needed in options.items() if needed}


def compares_text(condition: Any) -> bool:
    """An equality or membership test of a slot or result field against text."""
    if not isinstance(condition, (SlotCondition, ResultCondition)) or condition.op not in ("eq", "ne", "in", "not_in"):
        return False
    values = condition.value if isinstance(condition.value, list) else [condition.value]
    return any(isinstance(value, str) for value in values)
