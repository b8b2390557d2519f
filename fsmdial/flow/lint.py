"""Lint: things in a valid flow that are probably not what its author meant (``fsmdial validate`` shows
them as warnings), and :func:`implies`, the sound but incomplete test of one condition implying another."""

from __future__ import annotations

from typing import Any

from ..errors import FlowIssue
from ..slots import closed_date_warnings
from .commits import CommitWays, commit_ways
from .document import Flow
from .nodes import (
    AllCondition,
    AnswerCondition,
    AnyCondition,
    Comparison,
    ConfirmNode,
    Edge,
    EndNode,
    InformNode,
    RequestNode,
    ResultCondition,
    SlotCondition,
    edge_name,
)


def flow_warnings(flow: Flow) -> list[FlowIssue]:
    """Things in a valid flow that are probably not what its author meant (``fsmdial validate`` shows them).

    Today: conditional edges that can never be taken, inform nodes that wait, confirmations with no
    way on for "yes", end nodes that ask a question, committing actions reached with no confirmation or
    after one that does not show a value they commit (:mod:`.commits`, the reading the commit guard uses),
    a date slot's closed dates that never matter (outside its fixed bounds, or on a day it is closed anyway).
    A node's conditional edges are tried in document order and the first that holds is followed (its
    unconditional edge, if any, last); an edge whose condition implies the condition of an earlier edge
    never wins.
    """
    outgoing: dict[str, list[Edge]] = {node.id: [] for node in flow.nodes}
    for edge in flow.edges:
        outgoing.setdefault(edge.source, []).append(edge)
    commits = commit_ways(flow)
    warnings = [
        FlowIssue(f"node {node.id}", message)
        for node in flow.nodes
        for message in _node_warnings(node, outgoing[node.id], commits.get(node.id))
    ]
    for edges in outgoing.values():
        warnings += _never_taken([edge for edge in edges if edge.when is not None])
    warnings += [
        FlowIssue(f"node {node.id}.slots.{slot.name}.closed_dates", message)
        for node in flow.nodes
        if isinstance(node, RequestNode)
        for slot in node.slots
        for message in closed_date_warnings(slot)
    ]
    return warnings


def _node_warnings(node: Any, outgoing: list[Edge], commits: CommitWays | None) -> list[str]:
    """What is probably wrong with ``node``, given its outgoing edges and, for a committing action, the ways
    to it."""
    found = [] if commits is None else _commit_warnings(commits)
    message = _node_warning(node, outgoing)
    return found if message is None else [message, *found]


def _commit_warnings(ways: CommitWays) -> list[str]:
    """A committing action's tool runs without a yes, or after a yes to a summary that hides what it commits."""
    found = []
    if ways.unconfirmed:
        found.append(
            f"commits, but is reached from {', '.join(ways.unconfirmed)} with no confirmation in between: its tool "
            "runs without a yes; put a yes/no inform_and_confirm node before it on that way"
        )
    for guard, hidden in ways.hidden.items():
        if hidden:
            one = len(hidden) == 1
            they, them, their = ("it", "it", "its") if one else ("they", "them", "their")
            found.append(
                f"a yes at {guard!r} commits {', '.join(map(repr, hidden))} unseen: on a way from where {they} "
                f"{'is' if one else 'are'} asked to {guard!r}, no confirmation shows {them} and no edge condition "
                f"fixes {their} value; add {' '.join('{' + name + '}' for name in hidden)} to that summary"
            )
    return found


def _node_warning(node: Any, outgoing: list[Edge]) -> str | None:
    """What is probably wrong with ``node``, given its outgoing edges (None: nothing)."""
    if isinstance(node, InformNode) and not outgoing:
        return (
            "an inform node with no outgoing edge: the dialogue waits here, not ended, until the user "
            "corrects a value or says goodbye; make it an end node if the conversation is over"
        )
    if isinstance(node, EndNode) and (node.message or "").rstrip().endswith("?"):
        return (
            "an end node that asks a question: on its own the flow is over, so any answer only hears "
            "that it has ended (in an Assistant the answer goes on to another flow, which may be meant); "
            "close it with a statement, or make it an inform_and_confirm node"
        )
    if isinstance(node, ConfirmNode) and node.choices is None and outgoing:
        if not any(_may_follow_yes(edge.when) for edge in outgoing):
            return (
                "no outgoing edge can be taken when the user answers 'yes': the question is asked again; "
                'add an edge with {"answer": "yes"} (or an unconditional one) unless that is meant'
            )
    return None


def _never_taken(edges: list[Edge]) -> list[FlowIssue]:
    """The conditional ``edges`` of one node (in order) that an earlier one always wins over."""
    warnings = []
    for index, edge in enumerate(edges):
        for earlier in edges[:index]:
            if earlier.on_decline == edge.on_decline and implies(edge.when, earlier.when):
                warnings.append(
                    FlowIssue(
                        edge_name(edge),
                        f"never taken: the earlier {edge_name(earlier)} holds whenever this one does "
                        "(conditional edges are tried in order, first match)",
                    )
                )
                break
    return warnings


_RANGE_OPS = {"lt", "le", "gt", "ge"}


def implies(a: Any, b: Any) -> bool:
    """True when condition ``a`` holding guarantees that ``b`` holds (a sound, incomplete test)."""
    if a == b:
        return True
    if isinstance(a, AnyCondition):
        return all(implies(member, b) for member in a.any)
    if isinstance(b, AllCondition):
        return all(implies(a, member) for member in b.all)
    if isinstance(b, AnyCondition) and any(implies(a, member) for member in b.any):
        return True
    if isinstance(a, AllCondition):
        return any(implies(member, b) for member in a.all)
    same = (isinstance(a, SlotCondition) and isinstance(b, SlotCondition) and a.slot == b.slot) or (
        isinstance(a, ResultCondition) and isinstance(b, ResultCondition) and (a.result, a.node) == (b.result, b.node)
    )
    if not same:
        return False
    return _comparison_implies(a, b)


def _comparison_implies(a: Comparison, b: Comparison) -> bool:
    values_a = [a.value] if a.op == "eq" else a.value if a.op == "in" else None
    if b.op == "present":
        return values_a is not None and None not in values_a or a.op in _RANGE_OPS
    if values_a is not None:  # a pins the value to a known set: b must hold for each of them
        return bool(values_a) and all(_holds(b, v) for v in values_a)
    if a.op in _RANGE_OPS and b.op in _RANGE_OPS and _number(a.value) and _number(b.value):
        up_a, up_b = a.op in ("lt", "le"), b.op in ("lt", "le")
        if up_a != up_b:
            return False
        if a.value == b.value:
            return a.op == b.op or (b.op in ("le", "ge") and a.op in ("lt", "gt"))
        return bool(a.value < b.value if up_a else a.value > b.value)
    return False


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _holds(cond: Comparison, value: Any) -> bool:
    """Whether comparison ``cond`` holds for a slot/field equal to ``value`` (False when unsure)."""
    op, ref = cond.op, cond.value
    if op == "eq":
        return bool(value == ref)
    if op == "ne":
        return bool(value != ref) and value is not None
    if op == "in":
        return bool(value in ref)
    if op == "not_in":
        return value is not None and value not in ref
    if op in _RANGE_OPS and _number(value) and _number(ref):
        return bool({"lt": value < ref, "le": value <= ref, "gt": value > ref, "ge": value >= ref}[op])
    return False


def _may_follow_yes(cond: Any) -> bool:
    """False only for a condition that certainly fails on a 'yes' answer (``answer`` is no/other)."""
    if cond is None:
        return True
    if isinstance(cond, AnswerCondition):
        return cond.answer == "yes"
    if isinstance(cond, AllCondition):
        return all(_may_follow_yes(c) for c in cond.all)
    if isinstance(cond, AnyCondition):
        return any(_may_follow_yes(c) for c in cond.any)
    return True  # anything else (a slot, a `not`...) may hold after a yes
