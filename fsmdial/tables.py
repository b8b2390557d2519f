"""What the engine looks up per flow, worked out once per compiled class (not per session).

:func:`flow_class` compiles a flow once per distinct content; :func:`tables_of`
builds a compiled class's :class:`FlowTables` once. Both caches are owned by this
module (nothing is stored on the compiled class from outside it).
"""

from __future__ import annotations

import weakref
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from .compiler import compile_flow, fingerprint
from .flow import (
    AnyNode,
    ArgSource,
    CommitWays,
    ExternalActionNode,
    Flow,
    RequestNode,
    Slot,
    SlotCondition,
    SlotType,
    StatusCondition,
    commit_ways,
    iter_conditions,
)
from .loader import load_flow
from .machine import FlowMachine
from .slots import KINDS
from .understand.base import DECLINE, GOODBYE, Intent, UnderstandingState

_CLASSES: dict[str, type[FlowMachine]] = {}
_TABLES: weakref.WeakKeyDictionary[type[FlowMachine], FlowTables] = weakref.WeakKeyDictionary()

FlowSource = Flow | type[FlowMachine] | str | Mapping[str, Any]
"""A compiled class, a :class:`Flow`, or anything :func:`~fsmdial.loader.load_flow` reads (path, JSON text, dict)."""


def flow_class(flow: FlowSource) -> type[FlowMachine]:
    """The compiled class for a flow (compiled once per distinct flow content)."""
    if isinstance(flow, type) and issubclass(flow, FlowMachine):
        return flow
    loaded = load_flow(flow)  # type: ignore[arg-type]
    key = fingerprint(loaded)
    cls = _CLASSES.get(key)
    if cls is None:
        cls = _CLASSES[key] = compile_flow(loaded)
    return cls


@dataclass(frozen=True, eq=False)
class FlowTables:
    """A flow's lookup tables (read-only), plus its cache of understanding states."""

    flow: Flow
    fingerprint: str
    nodes: Mapping[str, AnyNode]
    slots: Mapping[str, Slot]
    confirm_fields: Mapping[str, tuple[Slot, ...]]
    """Per request node: its slots whose value is confirmed."""
    required: Mapping[str, tuple[Slot, ...]]
    """Per request node whose rule needs every required slot: those slots (all ``missing`` then needs)."""
    optional: frozenset[str]
    """Optional slots (``name``) and optional result fields (``node.field``): absent, they read as empty."""
    decline_nodes: frozenset[str]
    """Request nodes with an alternative branch for a declined slot."""
    has_way_on: frozenset[str]
    """Nodes with an ``advance`` edge (elsewhere the machine waits)."""
    failure_edge: frozenset[str]
    """Actions with an edge for ``status == failure`` (a tool error is an outcome there, not a failed turn)."""
    commits: frozenset[str]
    """Actions with ``"commits": true``: once succeeded, corrections do not run them again
    (see turn.committed_action)."""
    commit_ways: Mapping[str, CommitWays]
    """Per committing action: the confirmations guarding it (confirm nodes, and request nodes confirming a
    field, from which it is reached without another question in between) and what each vouches for."""
    guards_commit: frozenset[str]
    """Every node that guards a committing action (its "yes" must be a plain one: see turn.guard_answer)."""
    arguments: Mapping[str, Mapping[str, ArgSource]]
    """Per external action: tool argument -> where its value comes from."""
    dependents: Mapping[str, tuple[str, ...]]
    slot_owner: Mapping[str, str]
    global_intents: tuple[Intent, ...]
    details: tuple[tuple[str, Any, str], ...]
    """(slot, value, the free-text slot that value leads to asking): a yes to "any allergies?", then "what should the
    chef know?"; a repair, then "what's it doing?" (:func:`_details`)."""
    understanding: dict[tuple[Any, ...], UnderstandingState] = field(default_factory=dict)
    """Understanding states by the session's signature, shared by every dialogue on the flow."""

    def missing(self, node: RequestNode, filled: Mapping[str, Any]) -> list[Slot]:
        """``node.missing(filled)``, without re-reading the node's rule when every required slot is needed."""
        required = self.required.get(node.id)
        if required is None:
            return node.missing(dict(filled))
        return [slot for slot in required if slot.name not in filled]

    def downstream_of(self, node: str) -> tuple[str, ...]:
        """Nodes reachable from request node ``node`` (through any of its slots)."""
        for slot, owner in self.slot_owner.items():
            if owner == node:
                return self.dependents.get(slot, ())
        return ()


def tables_of(cls: type[FlowMachine]) -> FlowTables:
    """The tables of a compiled flow class, built on first use."""
    tables = _TABLES.get(cls)
    if tables is None:
        tables = _TABLES[cls] = _build(cls)
    return tables


def _build(cls: type[FlowMachine]) -> FlowTables:
    flow = cls.FLOW
    requests = [node for node in flow.nodes if isinstance(node, RequestNode)]
    actions = [node for node in flow.nodes if isinstance(node, ExternalActionNode)]
    slots = flow.slots()
    optional = frozenset(name for name, slot in slots.items() if not slot.required) | {
        f"{node.id}.{name}" for node in actions for name, spec in node.result.items() if not spec.required
    }
    intents = tuple(Intent(ga.intent, tuple(ga.examples)) for ga in flow.global_actions)
    if flow.fallbacks.goodbye and GOODBYE not in {i.name for i in intents}:
        intents += (Intent(GOODBYE),)
    ways = commit_ways(flow)
    return FlowTables(
        flow=flow,
        fingerprint=fingerprint(flow),
        nodes={node.id: node for node in flow.nodes},
        slots=slots,
        confirm_fields={node.id: tuple(slot for slot in node.slots if slot.confirm) for node in requests},
        required={
            node.id: tuple(slot for slot in node.slots if slot.required) for node in requests if node.rule.kind == "all"
        },
        optional=optional,
        decline_nodes=frozenset(edge.source for edge in flow.edges if edge.on_decline),
        has_way_on=frozenset(edge.source for edge in flow.edges if not edge.on_decline),
        failure_edge=frozenset(node.id for node in actions if _has_failure_edge(flow, node)),
        commits=frozenset(node.id for node in actions if node.commits),
        commit_ways=ways,
        guards_commit=frozenset(guard for way in ways.values() for guard in way.guards),
        arguments={node.id: flow.action_arguments(node) for node in actions},
        dependents=cls.DEPENDENTS,
        slot_owner=cls.SLOT_OWNER,
        global_intents=intents,
        details=_details(flow, slots),
    )


def _details(flow: Flow, slots: Mapping[str, Slot]) -> tuple[tuple[str, Any, str], ...]:
    """(slot, value, free-text slot) for each edge taken on a yes/no slot's yes or a categorical slot's value whose
    target request node asks a free-text slot first (no pattern, no person's name): "any allergies?" then "what should
    the chef know?"; a repair, then "what's it doing?"."""
    return tuple(dict.fromkeys(_detail_edges(flow, slots)))


def _detail_edges(flow: Flow, slots: Mapping[str, Slot]) -> Iterator[tuple[str, Any, str]]:
    nodes = {node.id: node for node in flow.nodes}
    for edge in flow.edges:
        conditions = list(iter_conditions(edge.when)) if edge.when is not None else []
        if len(conditions) != 1 or not isinstance(when := conditions[0], SlotCondition) or when.op != "eq":
            continue
        slot = slots.get(when.slot)
        said = slot is not None and (
            (slot.type is SlotType.boolean and when.value is True)
            or (slot.type is SlotType.categorical and isinstance(when.value, str))
        )
        target = nodes[edge.target]
        if said and isinstance(target, RequestNode) and target.slots:
            first = target.slots[0]
            if KINDS[first.type].whole_text and first.pattern is None and first.type is not SlotType.person_name:
                yield when.slot, when.value, first.name


def with_decline(intents: tuple[Intent, ...]) -> tuple[Intent, ...]:
    """``intents`` plus "decline" (offered while a slot is expected), unless the flow names it already."""
    return intents if DECLINE in {i.name for i in intents} else intents + (Intent(DECLINE),)


def _has_failure_edge(flow: Flow, node: ExternalActionNode) -> bool:
    return any(
        isinstance(cond, StatusCondition) and cond.status == "failure"
        for edge in flow.outgoing(node.id)
        if edge.when is not None
        for cond in iter_conditions(edge.when)
    )
