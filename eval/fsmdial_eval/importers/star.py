"""Import STAR task schemas (Mosig et al., 2020) as fsmdial flows.

A STAR task (:mod:`.star_format`) is a graph of wizard labels with their
replies and an API definition. :func:`import_task` turns one into a flow
document:

* ``hello`` (the graph's first key) becomes a global action; its target is the
  start node.
* Graph keys that are never a target are *condition tokens*, not wizard acts
  (:mod:`.star_graph`): ``query_success``/``available`` and
  ``query_failure``/``unavailable`` become ``status`` conditions on the query
  they follow, ``yes``/``no`` ``answer`` conditions on the yes/no question they
  follow, a token whose text names slots the user cannot give ("Can't remember
  account number or PIN") a ``declined`` condition on those slots, and any
  other token a named predicate (``{"call": token}``) the application supplies
  (see ``fsmdial_eval.star``).
* ``query``/``query_check``/``query_book`` become external actions calling the
  task's API (``RequestType`` Check/Book as a fixed argument). Their success is
  the result's ``ok`` flag (the item was found and its message is not a
  refusal); a query without failure branch gets one to ``*_inform_nothing_found``
  (the schema's reply for an empty result) when the schema has it.
* Consecutive ask labels become one request node; each slot keeps its ask text
  (``Slot.ask``) and label (``Slot.act``), so the runtime's act names are STAR
  labels. Slots are matched to API inputs (types, categories, bounds) by name
  (:mod:`.star_names`); API inputs no graph ask covers become optional slots of
  the request node before the query (named after an out-of-graph ask label when
  there is one).
* Yes/no questions become ``inform_and_confirm`` nodes, other replies
  ``inform`` nodes, ``anything_else``/``*_bye`` in the graph ``end`` nodes;
  ``goodbye``/``out_of_scope``/``anything_else`` also become the fallbacks.
* Reply placeholders (``{hotel_name:s}``) are rewritten to a slot of the same
  name or a field of the query result (``{result.hotel_name}``), so the graph
  checks pass. STAR's ``:s``/``:d`` are type hints of its wizard interface and
  are dropped.
* The flow states in ``options`` the engine leniencies it still needs, and only
  those (:func:`.star_document.needed_options`): for the 24 STAR tasks that is
  ``result_fallback`` in the six flows with two queries.

Hand corrections live in small per-task overlay files
(``star_overlays/<task>.json``, see :class:`.star_format.Overlay`); the
importer works without them, on any task in this format.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path

from .star_document import (
    OPTIONAL_FIELD,
    Document,
    add_closing,
    add_nothing_found,
    ask_again_on_loops,
    bind_placeholders,
    needed_options,
    place_optional_slots,
    prune_unreachable,
)
from .star_format import (
    ApiField,
    Overlay,
    StarFormatError,
    StarTask,
    apply_overlay,
    load_overlay,
    parse_overlay,
    read_task,
    task_names,
)
from .star_graph import StarGraph, read_graph
from .star_names import (
    ANSWER_TOKENS,
    ANYTHING_ELSE,
    Ask,
    bag,
    bye_label,
    ident,
    is_ask_label,
    is_bye,
    match_inputs,
    slot_part,
    snake,
    status_of,
    words,
)

__all__ = [
    "StarFormatError",
    "StarImport",
    "StarTask",
    "apply_overlay",
    "import_star",
    "import_star_task",
    "import_task",
    "match_inputs",
    "read_task",
    "slot_spec",
    "task_names",
    "words",
]

QUERY_FIELDS: Document = {
    "found": {"type": "boolean", "required": False},
    "ok": {"type": "boolean", "required": False},
    "count": {"type": "integer", "required": False},
}
"""Result fields every query declares beside the API's outputs (see ``fsmdial_eval.star.shape_result``)."""


@dataclass
class StarImport:
    """A converted task: the flow document and what evaluation needs to read it."""

    flow: Document
    api: str | None
    inputs: dict[str, str]
    """Slot name -> API input name (the query argument it feeds)."""
    queries: dict[str, str | None]
    """Action node id -> its ``RequestType`` (``Check``/``Book``) or None."""
    labels: dict[str, str]
    """Act name -> STAR label where they differ (the goodbye fallback -> ``goodbye_1``...)."""
    tokens: dict[str, list[str]]
    """Named predicates the flow calls (``{"call": name}``, the name the application registers)
    -> their source nodes."""
    notes: list[str] = field(default_factory=list)
    overlay: str | None = None


# ------------------------------------------------------------------ entry points


def import_task(task: StarTask, overlay: Overlay | Document | None = None) -> StarImport:
    """Convert one STAR task (with an optional overlay) into a flow document (not yet validated)."""
    overlay = parse_overlay(overlay, task.name)
    task = apply_overlay(task, overlay)
    graph = read_graph(task, overlay)
    notes = list(graph.notes)
    draft = build_graph(task, graph, overlay, notes)
    bye = bye_label(task.replies, task.responses)
    flow = finish_document(task, overlay, draft, bye, notes)
    labels = act_labels(flow, bye, overlay)
    kept = {n["id"] for n in flow["nodes"]}
    request_types = task.api.request_types if task.api else None
    return StarImport(
        flow,
        task.name if task.api else None,
        {a.slot: a.input for a in draft.slot_asks if a.input},
        {q: request_kind(q, request_types) for q in graph.queries if q in kept},
        labels,
        draft.calls,
        notes,
        overlay.why if overlay else None,
    )


@dataclass(frozen=True)
class Draft:
    """The flow's graph as built from the STAR graph, before the passes over the whole document."""

    nodes: list[Document]
    edges: list[Document]
    start: str
    slot_asks: list[Ask]
    """The asks whose slots feed the API."""
    calls: dict[str, list[str]]
    """Named predicates -> their source nodes."""


def build_graph(task: StarTask, graph: StarGraph, overlay: Overlay | None, notes: list[str]) -> Draft:
    """Nodes and edges of the flow, from the asks, labels and tokens of the STAR graph."""
    inputs = task.api.inputs if task.api else []
    graph_asks, spare = plan_asks(task, graph, overlay)
    node_of, nodes = build_nodes(task, graph, overlay, graph_asks)
    edges, branching, calls = build_edges(graph, node_of, graph_asks, notes)
    optional = optional_asks(inputs, graph_asks, spare) if graph.queries else []
    if optional:
        slots = [
            slot_spec(
                a.slot, _input(inputs, a.input), ask=a.text or None, act=a.label if a.asked else None, required=False
            )
            for a in optional
        ]
        place_optional_slots(nodes, edges, slots, node_of[graph.queries[0]], task.replies, notes)
    add_nothing_found(nodes, edges, task.replies, branching)
    add_closing(nodes, edges, task)
    # slots that feed the API: the schema's asks in its order (graph, then out-of-graph), then unasked inputs
    rank = {a.label: i for i, a in enumerate(spare)}
    slot_asks = graph_asks + sorted(optional, key=lambda a: rank.get(a.label, len(rank)))
    for node in nodes:  # every slot that feeds an API input is an argument of every query
        if node["type"] == "external_action":
            node["arguments"].update({a.input: {"slot": a.slot} for a in slot_asks if a.input})
    return Draft(nodes, edges, node_of[graph.start], slot_asks, calls)


def finish_document(
    task: StarTask, overlay: Overlay | None, draft: Draft, bye: str | None, notes: list[str]
) -> Document:
    """The flow document: unreachable nodes dropped, loops asking again, placeholders bound, options stated."""
    description = f"STAR task {task.schema_name or task.name} (imported from the STAR schema)."
    flow: Document = {
        "name": task.name,
        "description": description + (f" Hand corrections: {overlay.why}" if overlay else ""),
        "start": draft.start,
        "nodes": draft.nodes,
        "edges": draft.edges,
        "global_actions": [hello_action(task)],
        "fallbacks": fallbacks(task, bye),
    }
    prune_unreachable(flow, notes)
    ask_again_on_loops(flow)
    bind_placeholders(flow)
    options = needed_options(flow)
    if options:
        flow["options"] = options
    return flow


def act_labels(flow: Document, bye: str | None, overlay: Overlay | None) -> dict[str, str]:
    """Act name -> STAR label where they differ; a goodbye node in the graph says the goodbye the dialogues use."""
    labels: dict[str, str] = {"goodbye": bye} if bye else {}
    labels.update(overlay.labels if overlay else {})
    for node in flow["nodes"]:
        if node["id"] == bye and labels.get("goodbye", node["id"]) != node["id"]:
            node["label"] = labels["goodbye"]
    return labels


def import_star_task(star_dir: str | Path, name: str, *, overlays: bool = True) -> StarImport:
    task = read_task(star_dir, name)
    return import_task(task, load_overlay(name) if overlays else None)


def import_star(
    star_dir: str | Path, *, tasks: Iterable[str] | None = None, overlays: bool = True
) -> dict[str, StarImport]:
    """Import every task (or ``tasks``) of a STAR copy; the flows are validated."""
    from fsmdial.loader import flow_from_document

    out: dict[str, StarImport] = {}
    for name in tasks or task_names(star_dir):
        imported = import_star_task(star_dir, name, overlays=overlays)
        flow_from_document(imported.flow, origin=f"STAR task {name}")
        out[name] = imported
    return out


# ------------------------------------------------------------------ slots


def plan_asks(task: StarTask, graph: StarGraph, overlay: Overlay | None) -> tuple[list[Ask], list[Ask]]:
    """The graph's ask labels (they become slots) and the out-of-graph ones (they may name optional slots),
    matched to API inputs, with unique slot names."""
    graph_labels = [n for n in graph.order if is_ask_label(n) and n not in graph.confirms and n not in graph.queries]
    other_labels = [n for n in task.replies if is_ask_label(n) and n not in graph.order and n not in graph.confirms]
    asks = [Ask(n, slot_part(n), task.replies.get(n, "")) for n in graph_labels + other_labels]
    mapping = match_inputs(asks, task.api.inputs if task.api else [], domain_words(task))
    for label, name in (overlay.inputs if overlay else {}).items():
        mapping = {k: v for k, v in mapping.items() if v != name and k != label}
        if name is not None:
            mapping[label] = name
    asks = unique_slot_names([replace(a, input=mapping.get(a.label)) for a in asks])
    return asks[: len(graph_labels)], asks[len(graph_labels) :]


def domain_words(task: StarTask) -> set[str]:
    """The task's own words (``hotel`` for ``hotel_book``/``hotel_reserve``)."""
    return bag([task.name.split("_")[0], task.schema_name.split("_")[-1]])


def unique_slot_names(asks: list[Ask]) -> list[Ask]:
    out: list[Ask] = []
    seen: set[str] = set()
    for ask in asks:
        name = re.sub(r"\W", "_", ask.slot)
        if not re.match(r"^[A-Za-z_]", name):
            name = "slot_" + name
        while name in seen:
            name += "_2"
        seen.add(name)
        out.append(replace(ask, slot=name))
    return out


def optional_asks(inputs: list[ApiField], graph_asks: list[Ask], spare: list[Ask]) -> list[Ask]:
    """API inputs no graph ask covers, as asks of optional slots: an out-of-graph ask label when one
    feeds the input, else a slot named after the input."""
    covered = {a.input for a in graph_asks if a.input}
    spare_by_input = {a.input: a for a in spare if a.input}
    used = {a.slot for a in graph_asks}
    out = []
    for spec in inputs:
        if spec.name in covered:
            continue
        ask = spare_by_input.get(spec.name) or Ask(f"<{spec.name}>", snake(spec.name), "", spec.name, asked=False)
        name = ask.slot
        while name in used:
            name += "_value"
        used.add(name)
        out.append(replace(ask, slot=name))
    return out


def slot_spec(name: str, api_input: ApiField | None, *, ask: str | None, act: str | None, required: bool) -> Document:
    """An fsmdial slot for an API input (types, categories, bounds) or a free string."""
    slot: Document = {"name": name, "type": "string"}
    if api_input is None:
        slot["description"] = " ".join(words(name)).capitalize()
    else:
        slot["description"] = api_input.readable_name or " ".join(words(api_input.name)).capitalize()
        categories = api_input.string_categories
        if api_input.type == "Integer":
            slot["type"] = "integer"
            for key, bound in (("minimum", api_input.minimum), ("maximum", api_input.maximum)):
                if bound is not None:
                    slot[key] = bound
        elif api_input.type == "Boolean":
            slot["type"] = "boolean"
        elif api_input.type == "Categorical" and categories:
            slot["type"] = "categorical"
            slot["values"] = categories
        elif api_input.type == "LongString":
            slot["max_length"] = 1000
        if categories:
            slot["examples"] = categories[:3]
    if ask:
        slot["ask"] = ask
    if act:
        slot["act"] = act
    if not required:
        slot["required"] = False
    return slot


def _input(inputs: list[ApiField], name: str | None) -> ApiField | None:
    return next((spec for spec in inputs if spec.name == name), None)


# ------------------------------------------------------------------ nodes


def build_nodes(
    task: StarTask, graph: StarGraph, overlay: Overlay | None, asks: list[Ask]
) -> tuple[dict[str, str], list[Document]]:
    """Request nodes for runs of asks, one node per other label; and label -> node id."""
    inputs = task.api.inputs if task.api else []
    by_label = {a.label: a for a in asks}
    # A value nothing reads (no API input, no branch) is not worth insisting on: its slot is optional.
    read = {e.source for e in graph.edges} | {label for labels in graph.declined.values() for label in labels}
    node_of: dict[str, str] = {}
    nodes: list[Document] = []
    for group in group_asks([a.label for a in asks], graph):
        node_id = f"form_{by_label[group[0]].slot}"
        node_of.update(dict.fromkeys(group, node_id))
        members = [by_label[label] for label in group]
        slots = [
            slot_spec(
                a.slot,
                _input(inputs, a.input),
                ask=a.text or None,
                act=a.label,
                required=a.input is not None or a.label in read,
            )
            for a in members
        ]
        nodes.append({"id": node_id, "type": "request", "slots": slots})
    for label in graph.order:
        if label not in node_of:
            node_of[label] = label
            nodes.append(label_node(task, graph, overlay, label))
    return node_of, nodes


def group_asks(labels: list[str], graph: StarGraph) -> list[list[str]]:
    """Chains of ask labels with one plain edge between them and no other way in."""
    indegree: dict[str, int] = {}
    for target in [*graph.plain.values(), *(e.target for e in graph.edges), graph.start]:
        indegree[target] = indegree.get(target, 0) + 1
    branching = {e.source for e in graph.edges}
    groups: list[list[str]] = []
    placed: set[str] = set()
    for label in labels:
        if label in placed:
            continue
        group = [label]
        placed.add(label)
        while group[-1] not in branching:
            nxt = graph.plain.get(group[-1])
            if nxt is None or nxt not in labels or nxt in placed or indegree.get(nxt, 0) != 1:
                break
            group.append(nxt)
            placed.add(nxt)
        groups.append(group)
    return groups


def label_node(task: StarTask, graph: StarGraph, overlay: Overlay | None, label: str) -> Document:
    """The node of one wizard label that is not an ask."""
    text = task.replies.get(label, label)
    choices = overlay.choices if overlay else {}
    if label in graph.queries:
        return query_node(task, label)
    if label in graph.confirms or label in choices:
        node: Document = {"id": label, "type": "inform_and_confirm", "question": text}
        if label in choices:
            node["choices"] = [choice.model_dump(exclude_unset=True) for choice in choices[label]]
        return node
    if label == ANYTHING_ELSE:  # "Is there anything else ...?": a question; "no" ends (see add_closing)
        return {"id": label, "type": "inform_and_confirm", "question": text}
    if is_bye(label):
        return {"id": label, "type": "end", "message": text}
    return {"id": label, "type": "inform", "message": text}


def query_node(task: StarTask, label: str) -> Document:
    kind = request_kind(label, task.api.request_types if task.api else None)
    arguments: Document = {"RequestType": {"value": kind}} if kind is not None else {}
    result = {spec.name: dict(OPTIONAL_FIELD) for spec in task.api.output} if task.api else {}
    result.update({name: dict(spec) for name, spec in QUERY_FIELDS.items()})
    return {"id": label, "type": "external_action", "tool": task.name, "arguments": arguments, "result": result}


def request_kind(label: str, request_types: list[str] | None) -> str | None:
    """The request type a query label names (``query_book`` -> ``Book``); else the API's first."""
    named = [kind for kind in request_types or () if kind.lower() in label.split("_")]
    return named[-1] if named else (request_types[0] if request_types else None)


def hello_action(task: StarTask) -> Document:
    examples = list(dict.fromkeys(task.examples.get("hello", []) + ["hello", "hi", "hey"]))
    return {"intent": "hello", "examples": examples, "response": task.replies.get("hello", "Hello, how can I help?")}


def fallbacks(task: StarTask, bye: str | None) -> Document:
    texts = {"goodbye": task.replies.get(bye) or (task.responses or {}).get(bye)} if bye else {}
    texts.update({name: task.replies[name] for name in ("out_of_scope", ANYTHING_ELSE) if name in task.replies})
    # a fallback has no slots to fill: keep placeholders out of it
    return {name: re.sub(r"\{[^{}]*\}", "", text) for name, text in texts.items() if text}


# ------------------------------------------------------------------ edges


def build_edges(
    graph: StarGraph, node_of: dict[str, str], asks: list[Ask], notes: list[str]
) -> tuple[list[Document], set[str], dict[str, list[str]]]:
    """The flow's edges; the queries that branch on their status; named predicates -> their source nodes."""
    edges: list[Document] = []
    branching: set[str] = set()
    calls: dict[str, list[str]] = {}
    for source, target in graph.plain.items():
        src, dst = node_of[source], node_of[target]
        if src == dst and source != target and src != source:
            continue  # a chain edge inside a request node
        edges.append({"source": src, "target": dst})
    for edge in graph.edges:
        if edge.source not in node_of:
            notes.append(f"token {edge.token or edge.condition!r}: unknown source {edge.source!r}, edge dropped")
            continue
        src, dst = node_of[edge.source], node_of[edge.target]
        counted = {"count": edge.count} if edge.count else {}
        if edge.token is None and edge.condition is None:  # an overlay's plain edge
            edges.append({"source": src, "target": dst, **counted})
            continue
        if edge.token is not None and status_of(edge.token) and src not in graph.queries:
            notes.append(f"status token {edge.token!r} after {src!r}, which is no query: edge dropped")
            continue
        if edge.condition is not None:  # an overlay's fsmdial condition
            when, named = edge.condition, edge.calls
        else:
            when = token_condition(edge.token or "", src, graph, node_of, asks)
            named = [when["call"]] if "call" in when else []
            if "status" in when:
                branching.add(src)
        for name in named:
            calls.setdefault(name, []).append(src)
        edges.append({"source": src, "target": dst, "when": when, **counted})
    return edges, branching, calls


def token_condition(token: str, source: str, graph: StarGraph, node_of: dict[str, str], asks: list[Ask]) -> Document:
    """The fsmdial condition a STAR token stands for on an edge out of node ``source``."""
    if status := status_of(token):
        return {"status": status}
    if token in ANSWER_TOKENS:
        return {"answer": ANSWER_TOKENS[token]}
    slots = {a.label: a.slot for a in asks}
    declined = [
        slots[label] for label in graph.declined.get(token, ()) if label in slots and node_of.get(label) == source
    ]
    if declined:
        conditions = [{"slot": slot, "op": "declined"} for slot in declined]
        return conditions[0] if len(conditions) == 1 else {"any": conditions}
    return {"call": ident(token)}
