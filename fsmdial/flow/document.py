"""The flow document: :class:`Flow`, its lookups, and the checks of the raw document.

A flow is JSON with ``nodes``, ``edges``, ``global_actions`` and ``fallbacks``
(after CoDial's CHIEF format); its parts are the models of :mod:`.nodes`.

Validating a :class:`Flow` runs :func:`check_document` on the raw data first, then, on the built
object, the graph and template checks of :mod:`.checks` (:func:`~fsmdial.flow.checks.check_flow`),
so a ``Flow`` object is always consistent. This is the one place the model calls the checks:
``document`` imports ``checks``, and ``checks`` reads the flow through its public lookups and names
:class:`Flow` only for the type checker, so the import graph stays ``document -> checks -> nodes``.
"""

from __future__ import annotations

import math
import re
from collections import deque
from functools import cached_property
from typing import Any

import orjson
from pydantic import BaseModel, Field, JsonValue, field_validator, model_validator

from ..errors import FlowIssue
from ..language.locales import LOCALES, Clock
from .checks import check_flow
from .graph import reachable
from .nodes import (
    AnyNode,
    ArgSource,
    Edge,
    ExternalActionNode,
    Fallbacks,
    FlowModel,
    FlowOptions,
    GlobalAction,
    Node,
    RequestNode,
    Slot,
)


class Flow(FlowModel):
    """A dialogue flow. Constructing one runs every graph check."""

    schema_: str | None = Field(None, alias="$schema", description="Optional JSON Schema URL for editors.")
    name: str = Field(min_length=1)
    description: str = ""
    context: str = Field("", description="Facts for the assistant, e.g. 'Right now it is Tuesday, 12 PM'.")
    examples: list[str] = Field(
        default_factory=list,
        description="Utterances that start this flow (an assistant with several flows routes by them).",
    )
    start: str | None = Field(None, description="Start node id (default: the first node).")
    max_attempts: int = Field(3, ge=1, description="Invalid values in a row for one slot before escalating.")
    escalate_to: str | None = Field(
        None,
        description="Node (e.g. a hand-off end) to go to after max_attempts invalid values (default: a polite end).",
    )
    nodes: list[Node] = Field(min_length=1)
    edges: list[Edge] = Field(default_factory=list)
    global_actions: list[GlobalAction] = Field(default_factory=list)
    fallbacks: Fallbacks = Field(default_factory=Fallbacks)  # type: ignore[arg-type]
    options: FlowOptions = Field(default_factory=FlowOptions, description="Engine leniencies this flow opts into.")  # type: ignore[arg-type]
    locale: str = Field(
        "en",
        description="The words values are shown with in messages: yes/no, weekday and month names, am/pm "
        "(a boolean reads 'yes', a date 'Saturday 28 November'). Locales: " + ", ".join(sorted(LOCALES)) + ".",
        json_schema_extra={"enum": list[JsonValue](sorted(LOCALES))},
    )
    clock: Clock | None = Field(
        None,
        description="How times read in messages: '12h' ('5:30 pm', 'noon') or '24h' ('17:30'); default: the "
        "locale's usual clock (en: 12h). Slots and tool arguments keep HH:MM.",
    )

    @field_validator("name")
    @classmethod
    def _storable_name(cls, name: str) -> str:
        # The name keys sessions in every store, and PostgreSQL's text cannot hold U+0000 (the stores refuse what
        # one of them cannot keep): refused where it is written, not by the first session's commit. Other control
        # characters are kept, and escaped wherever the name is shown (the diagram, the compiled source).
        if "\x00" in name:
            raise ValueError("the flow name holds U+0000 (NUL), which no session store can keep")
        return name

    @field_validator("locale")
    @classmethod
    def _known_locale(cls, code: str) -> str:
        if code not in LOCALES:
            raise ValueError(f"no locale {code!r} (there are: {', '.join(sorted(LOCALES))})")
        return code

    @model_validator(mode="before")
    @classmethod
    def _check_document(cls, data: Any) -> Any:
        issues = check_document(data)
        if issues:
            raise GraphIssues(issues)
        return data

    @model_validator(mode="after")
    def _check_graph(self) -> Flow:
        issues = check_flow(self)
        if issues:
            raise GraphIssues(issues)
        return self

    # ------------------------------------------------------------ lookups
    @property
    def start_id(self) -> str:
        return self.start or self.nodes[0].id

    @cached_property
    def _index_cache(self) -> dict[tuple[int, int, int, int], _FlowIndex]:
        return {}

    def _index(self) -> _FlowIndex:
        """Lookup tables built once per flow (so loading and compiling stay linear in its size).

        Keyed by the identity and length of ``nodes``/``edges``: a flow whose lists are replaced or
        appended to after validation gets fresh tables, never stale ones.
        """
        key = (id(self.nodes), len(self.nodes), id(self.edges), len(self.edges))
        cache = self._index_cache
        if key not in cache:
            cache.clear()
            cache[key] = _FlowIndex(self)
        return cache[key]

    def node(self, node_id: str) -> AnyNode:
        try:
            return self._index().nodes[node_id]
        except KeyError:
            raise KeyError(node_id) from None

    def slots(self) -> dict[str, Slot]:
        """Every slot of the flow by name, in node order."""
        return dict(self._index().slots)

    def slot_owner(self) -> dict[str, str]:
        return {name: owner for name, owner in self._index().slot_owner.items()}

    def outgoing(self, node_id: str) -> list[Edge]:
        return list(self._index().outgoing.get(node_id, ()))

    def successors(self) -> dict[str, list[str]]:
        return {node: list(targets) for node, targets in self._index().successors.items()}

    def reachable_from(self, node_id: str) -> list[str]:
        """Node ids reachable from ``node_id`` (itself included), breadth-first."""
        return reachable(self._index().successors, [node_id])

    def action_arguments(self, node: ExternalActionNode) -> dict[str, ArgSource]:
        """The node's argument mapping; by default every slot requested upstream."""
        if node.arguments is not None:
            return node.arguments
        return dict(self._index().upstream_slots(node.id))


class _FlowIndex:
    """The tables behind :class:`Flow`'s lookups (see ``Flow._index``)."""

    def __init__(self, flow: Flow):
        self.flow = flow
        self.nodes: dict[str, AnyNode] = {}
        for node in flow.nodes:
            self.nodes.setdefault(node.id, node)  # duplicates are a validation error; the first wins
        self.slots = {slot.name: slot for node in flow.nodes if isinstance(node, RequestNode) for slot in node.slots}
        self.slot_owner = {
            slot.name: node.id for node in flow.nodes if isinstance(node, RequestNode) for slot in node.slots
        }
        self.outgoing: dict[str, list[Edge]] = {}
        successors: dict[str, dict[str, None]] = {node.id: {} for node in flow.nodes}
        for edge in flow.edges:
            self.outgoing.setdefault(edge.source, []).append(edge)
            if edge.source in successors:
                successors[edge.source][edge.target] = None
        self.successors = {node: list(targets) for node, targets in successors.items()}
        self._upstream: dict[str, dict[str, ArgSource]] | None = None

    def upstream_slots(self, node_id: str) -> dict[str, ArgSource]:
        """Every slot requested by a node from which ``node_id`` can be reached, in node order.

        Computed for all nodes at once: each node's set of upstream request nodes (a bit mask)
        is pushed along the edges until nothing changes; a chain settles in one pass.
        """
        if self._upstream is None:
            requests = [n for n in self.flow.nodes if isinstance(n, RequestNode) and self.nodes.get(n.id) is n]
            bit = {n.id: 1 << i for i, n in enumerate(requests)}
            masks: dict[str, int] = dict.fromkeys(self.successors, 0)
            queue = deque(self.successors)
            queued = set(queue)
            while queue:
                current = queue.popleft()
                queued.discard(current)
                carried = masks[current] | bit.get(current, 0)
                for target in self.successors[current]:
                    if target in masks and masks[target] | carried != masks[target]:
                        masks[target] |= carried
                        if target not in queued:
                            queued.add(target)
                            queue.append(target)
            self._upstream = {}
            for node_id_, mask in masks.items():
                self._upstream[node_id_] = {
                    slot.name: slot.name
                    for i, request in enumerate(requests)
                    if mask >> i & 1
                    for slot in request.slots
                }
        return self._upstream.get(node_id, {})


class GraphIssues(ValueError):
    """Raised inside validation; carries the structured issues to the loader."""

    def __init__(self, issues: list[FlowIssue]):
        self.issues = issues
        super().__init__("; ".join(str(issue) for issue in issues))


# ------------------------------------------------------------ document checks

MAX_NESTING = 48
"""Deepest nesting of objects and lists a flow document may have.

Conditions (``all``/``any``/``not``) and values nest; compiled source nests with them, and
Python refuses source nested much deeper (about 200 brackets). 48 levels leave room for
about 20 levels of nested conditions, far beyond what a readable flow needs.
"""


_PLAIN_KEY = re.compile(r"^[A-Za-z_$][A-Za-z0-9_$]*$")


def _is_lone_surrogate_free(text: str) -> bool:
    if text.isascii():
        return True
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _document_ok(data: Any) -> bool:
    """The fast pass of :func:`check_document` (no paths): True when there is nothing to report."""
    if not isinstance(data, (dict, list, tuple)):
        return _scalar_ok(data)
    stack: list[tuple[Any, int]] = [(data, 0)]
    while stack:
        value, depth = stack.pop()
        if depth >= MAX_NESTING:
            return False
        if isinstance(value, dict):
            if not all(type(key) is str and (key.isascii() or _is_lone_surrogate_free(key)) for key in value):
                return False
            value = value.values()
        for item in value:
            kind = type(item)
            if kind is str:
                if not item.isascii() and not _is_lone_surrogate_free(item):
                    return False
            elif kind is dict or kind is list or kind is tuple:
                stack.append((item, depth + 1))
            elif kind is float:
                if not math.isfinite(item):
                    return False
            elif not (kind is int or kind is bool or item is None) and not _scalar_ok(item):
                return False
    return True


def _scalar_ok(value: Any) -> bool:
    if isinstance(value, (dict, list, tuple)):
        return False  # a container subclass: the slow pass looks at it
    if isinstance(value, float):
        return math.isfinite(value)
    if isinstance(value, str):
        return _is_lone_surrogate_free(value)
    return True


def check_document(data: Any) -> list[FlowIssue]:
    """Problems of the raw document no flow may have: nesting deeper than :data:`MAX_NESTING`,
    numbers that are not finite (``1e999``, NaN) and strings with unpaired surrogates.

    Runs before anything else (iteratively, so a document nested 100,000 deep is refused
    with an issue rather than a ``RecursionError``).
    """
    if _document_ok(data):
        return []
    issues: list[FlowIssue] = []
    stack: list[tuple[Any, str, int]] = [(data, "", 0)]
    while stack and len(issues) < 20:
        value, path, depth = stack.pop()
        if isinstance(value, BaseModel):
            continue  # already validated
        if isinstance(value, float) and not math.isfinite(value):
            issues.append(FlowIssue(path or "(flow)", f"{value!r} is not a finite number"))
        elif isinstance(value, str) and not _is_lone_surrogate_free(value):
            issues.append(FlowIssue(path or "(flow)", "text with an unpaired surrogate (not valid Unicode)"))
        elif isinstance(value, (dict, list, tuple)):
            if depth >= MAX_NESTING:
                issues.append(FlowIssue(path, f"nested more than {MAX_NESTING} levels deep"))
                continue
            if isinstance(value, dict):
                for key, item in reversed(value.items()):
                    key_text = str(key)
                    if not _is_lone_surrogate_free(key_text):
                        issues.append(
                            FlowIssue(path or "(flow)", "a key with an unpaired surrogate (not valid Unicode)")
                        )
                        continue
                    if _PLAIN_KEY.match(key_text):  # paths as the loader writes them (quoted when odd)
                        step = f".{key_text}" if path else key_text
                    else:
                        step = f"[{orjson.dumps(key_text).decode()}]"
                    stack.append((item, path + step, depth + 1))
            else:
                for index, item in reversed(list(enumerate(value))):
                    node_id = item.get("id") if isinstance(item, dict) else None
                    plain_id = isinstance(node_id, int) or (
                        isinstance(node_id, str) and _is_lone_surrogate_free(node_id)
                    )
                    label = f"({node_id})" if plain_id else ""
                    stack.append((item, f"{path}[{index}]{label}", depth + 1))
    return issues
