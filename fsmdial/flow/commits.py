"""Which confirmation stands behind a committing action: the one reading of the graph that the engine's commit
guard (``fsmdial.steps.check_commit``) and ``fsmdial validate`` (:mod:`.lint`) share.

A committing action (``"commits": true``) is reached from a question node (a request or an ``inform_and_confirm``
node) with no other question in between, or by a jump (a global action's target, the flow's ``escalate_to``).
A yes/no confirmation it is reached from *guards* it. Several may (a summary with a courtesy bike and one
without): each stands for the sessions that came through it, so a session's commit waits for a plain yes to
the confirmation it actually came through (``SessionState.came_through``), never for one it left behind.

What a guard does not vouch for:

* a value its way could not have asked (no node from which the guard can be reached asks the slot) and that
  it does not show, such as a courtesy bike answered for a road bike before the bike became a cargo bike:
  held back from the tool after a yes there (``withheld``);
* a value that can be given or changed on the way to it and that no confirmation shows after that, the guard
  included, nor an edge condition fixes (the way to a summary for a repair passing ``service == "repair"``): a
  yes there commits it unseen (``hidden``; ``fsmdial validate`` warns);
* the ways with no confirmation at all (``unconfirmed``; ``fsmdial validate`` warns).

This module imports the model (:mod:`.nodes`), never the document: it reads a flow through its public lookups.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..responses import template_fields
from .graph import neighbours, reachable
from .nodes import AllCondition, ConfirmNode, Edge, ExternalActionNode, RequestNode, SlotArg, SlotCondition

if TYPE_CHECKING:
    from .document import Flow


@dataclass(frozen=True)
class CommitWays:
    """How a session can come to one committing action, and what each confirmation on the way vouches for."""

    guards: tuple[str, ...]
    """The yes/no confirmations it is reached from with no other question in between (sorted)."""
    unconfirmed: tuple[str, ...]
    """Where else it is reached from with no question in between, in flow order: a question node that confirms
    nothing (``'ask_bike'``), a jump (``global action 'x'``, ``escalate_to``), the start node: its tool runs
    there without a yes."""
    withheld: Mapping[str, frozenset[str]]
    """Per guard: the slots the action reads that no way to the guard asks and the guard does not show."""
    hidden: Mapping[str, tuple[str, ...]]
    """Per guard: the slots the action reads that a yes there commits unseen (on a way from the node asking the
    slot to the guard, no confirmation shows it, the guard included, and no edge condition fixes its value), in
    argument order."""


def is_question(node: Any) -> bool:
    """A node where the machine waits for the user's answer: a request or an ``inform_and_confirm`` node."""
    return isinstance(node, (RequestNode, ConfirmNode))


def is_confirmation(node: Any) -> bool:
    """A yes/no confirmation: an ``inform_and_confirm`` node without choices, or a request node confirming a field."""
    if isinstance(node, ConfirmNode):
        return not node.choices
    return isinstance(node, RequestNode) and any(slot.confirm for slot in node.slots)


def shown_slots(node: Any) -> frozenset[str]:
    """The slots a confirmation shows the user before the yes: the placeholders of an ``inform_and_confirm``
    node's message and question; a request node's confirmed fields (the value itself, or its ``confirm``
    template's placeholders)."""
    templates: list[str] = []
    shown: set[str] = set()
    if isinstance(node, ConfirmNode):
        templates = [node.message, node.question]
    elif isinstance(node, RequestNode):
        for slot in node.slots:
            if isinstance(slot.confirm, str):
                templates.append(slot.confirm)
            elif slot.confirm:
                shown.add(slot.name)
    shown.update(field for template in templates for field in template_fields(template) if "." not in field)
    return frozenset(shown)


def commit_ways(flow: Flow) -> dict[str, CommitWays]:
    """The :class:`CommitWays` of every committing action of ``flow``."""
    nodes = {node.id: node for node in flow.nodes}
    committing = [node for node in flow.nodes if isinstance(node, ExternalActionNode) and node.commits]
    if not committing:
        return {}
    successors = flow.successors()
    shows = {node.id: shown_slots(node) for node in flow.nodes if is_confirmation(node)}
    # (the node it is reached from, or None for a jump; how a warning names it; where the walk starts)
    entries: list[tuple[str | None, str, Iterable[str]]] = [
        (node.id, repr(node.id), successors[node.id]) for node in flow.nodes if is_question(node)
    ]
    jumps = [(f"global action {action.intent!r}", action.target) for action in flow.global_actions if action.target]
    jumps += [("escalate_to", flow.escalate_to)] if flow.escalate_to else []
    jumps += [(f"the start node {flow.start_id!r}", flow.start_id)]
    entries += [(None, label, [target]) for label, target in jumps if not is_question(nodes[target])]
    reached_from: dict[str, list[tuple[str | None, str]]] = {node.id: [] for node in committing}
    for node_id, label, starts in entries:
        for reached in _without_a_question(successors, nodes, starts):
            if reached in reached_from:
                reached_from[reached].append((node_id, label))
    predecessors = neighbours(nodes, ((edge.target, edge.source) for edge in flow.edges))
    outgoing = {node_id: flow.outgoing(node_id) for node_id in nodes}
    owner = flow.slot_owner()
    out = {}
    for action in committing:
        guards = sorted({node_id for node_id, _ in reached_from[action.id] if node_id in shows})
        read = [name for name in _slots_read(flow, action) if name in owner]
        withheld: dict[str, frozenset[str]] = {}
        hidden: dict[str, tuple[str, ...]] = {}
        for guard in guards:
            before = set(reachable(predecessors, [guard]))  # the nodes from which the guard can be reached
            unshown = [name for name in read if name not in shows[guard]]
            withheld[guard] = frozenset(name for name in unshown if owner[name] not in before)
            hidden[guard] = tuple(
                name
                for name in unshown
                if name not in withheld[guard] and _unseen_on_a_way(outgoing, shows, owner[name], guard, name)
            )
        unconfirmed = [label for node_id, label in reached_from[action.id] if node_id not in shows]
        out[action.id] = CommitWays(
            guards=tuple(guards), unconfirmed=tuple(dict.fromkeys(unconfirmed)), withheld=withheld, hidden=hidden
        )
    return out


def _without_a_question(
    successors: Mapping[str, list[str]], nodes: Mapping[str, Any], starts: Iterable[str]
) -> list[str]:
    """The nodes reached from ``starts`` (included) with no question node passed in between (a question met
    is listed, not passed)."""
    seen = dict.fromkeys(starts)
    queue = deque(seen)
    while queue:
        node_id = queue.popleft()
        if is_question(nodes[node_id]):
            continue
        for target in successors.get(node_id, ()):
            if target not in seen:
                seen[target] = None
                queue.append(target)
    return list(seen)


def _slots_read(flow: Flow, action: ExternalActionNode) -> list[str]:
    """The slots the action's tool arguments read, in argument order."""
    names = []
    for source in flow.action_arguments(action).values():
        name = source if isinstance(source, str) else source.slot if isinstance(source, SlotArg) else None
        if name is not None and name not in names:
            names.append(name)
    return names


def _unseen_on_a_way(
    outgoing: Mapping[str, list[Edge]], shows: Mapping[str, frozenset[str]], start: str, guard: str, slot: str
) -> bool:
    """Whether some way from ``start`` (the node asking ``slot``) to ``guard`` passes no confirmation showing the
    slot (``start`` and ``guard`` included) and no edge fixing its value: a value given or changed there reaches
    the guard's yes unseen."""
    if start == guard:
        return True
    if slot in shows.get(start, ()):
        return False
    seen, queue = {start}, deque([start])
    while queue:
        for edge in outgoing.get(queue.popleft(), ()):
            if edge.when is not None and _fixes(edge.when, slot):
                continue
            if edge.target == guard:
                return True
            if edge.target not in seen and slot not in shows.get(edge.target, ()):
                seen.add(edge.target)
                queue.append(edge.target)
    return False


def _fixes(cond: Any, slot: str) -> bool:
    """Whether an edge condition holds for one value of ``slot`` only (``eq``, or ``in`` a list of one, alone or
    in an ``all``): which summary the way leads to tells the value."""
    if isinstance(cond, SlotCondition):
        return cond.slot == slot and (cond.op == "eq" or (cond.op == "in" and len(cond.value) == 1))
    if isinstance(cond, AllCondition):
        return any(_fixes(member, slot) for member in cond.all)
    return False
