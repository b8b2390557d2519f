"""The checks that need the whole flow: references resolve, every node is reachable and can end,
conditions and templates name what exists and compare values that can match.

:class:`FlowChecker` holds what one check of one flow shares (the nodes by id, which node asks each
slot, the successor table, the result-field searches) and the issues found; each check is a small
method of it. :func:`check_flow` runs them all; :class:`~fsmdial.flow.document.Flow` calls it on
validation (the one place the document calls the checks).

This module imports the model (:mod:`.nodes`), never the document: it reads a flow through its public
lookups and names :class:`~fsmdial.flow.document.Flow` only for the type checker.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cached_property
from typing import TYPE_CHECKING, Any

from ..errors import FlowIssue
from ..language.text import fold as fold_text
from ..responses import parse_template, spec_problem
from ..slots import KINDS, SlotType
from .graph import on_cycle, reachable
from .nodes import (
    LIST_OPS,
    NO_VALUE_OPS,
    AnswerCondition,
    ChoiceCondition,
    Comparison,
    ConfirmNode,
    Edge,
    EndNode,
    ExternalActionNode,
    FieldType,
    InformNode,
    RequestNode,
    ResultArg,
    ResultCondition,
    ResultField,
    Slot,
    SlotArg,
    SlotCondition,
    StatusCondition,
    VisitsCondition,
    bound_names,
    edge_name,
    iter_conditions,
)

if TYPE_CHECKING:
    from .document import Flow

MAX_TEMPLATE_CHARS = 5000
"""Longest template (message, question, response) a flow may write."""
MAX_FORMAT_WIDTH = 200
"""Widest field and largest precision a template's format spec may ask for (``{price:>10.2f}``)."""

_FORMAT_SPEC = re.compile(
    r"^(?:(?P<fill>.)?(?P<align>[<>=^]))?(?P<sign>[-+ ])?z?#?0?(?P<width>\d+)?[,_]?"
    r"(?:\.(?P<precision>\d+))?(?P<type>[bcdeEfFgGnosxX%])?$",
    re.DOTALL,
)

_FALLBACKS = ("goodbye", "out_of_scope", "anything_else", "cannot_continue", "committed", "ended")
"""The fallback templates of a flow, checked in this order."""


def _slot_values(kind: SlotType) -> tuple[str, Callable[[Any], bool]]:
    """What a value a flow compares a slot of type ``kind`` with must be: in words, and the check (the type's own)."""
    return KINDS[kind].value_words, KINDS[kind].is_json_value


_FIELD_VALUE_TYPES: dict[FieldType, tuple[str, Callable[[Any], bool]]] = {
    FieldType.integer: _slot_values(SlotType.integer),
    FieldType.number: _slot_values(SlotType.number),
    FieldType.boolean: _slot_values(SlotType.boolean),
    FieldType.string: _slot_values(SlotType.string),
    FieldType.list: ("a list", lambda v: isinstance(v, list)),
    FieldType.object: ("an object", lambda v: isinstance(v, dict)),
}


def format_spec_problem(spec: str) -> str | None:
    """Why a template's format spec cannot be used, or None: it must be Python's format mini-language
    with a width and precision of at most :data:`MAX_FORMAT_WIDTH` (a message has a bounded size)."""
    found = _FORMAT_SPEC.match(spec)
    if not found:
        return "is not a format spec (fill, align, sign, width, precision, type)"
    for part in ("width", "precision"):
        if found.group(part) and int(found.group(part)) > MAX_FORMAT_WIDTH:
            return f"asks for a {part} of {int(found.group(part))}, more than {MAX_FORMAT_WIDTH}"
    return None


def check_flow(flow: Flow) -> list[FlowIssue]:
    """Every graph-level problem of ``flow``; empty when the flow is consistent."""
    return FlowChecker(flow).run()


class FlowChecker:
    """One check of one flow: the context every check shares, and the issues found (in the order found)."""

    def __init__(self, flow: Flow):
        self.flow = flow
        self.issues: list[FlowIssue] = []
        self.nodes = {node.id: node for node in flow.nodes}  # a duplicated id: the last one (reported)
        self.slot_owner: dict[str, str] = {}  # slot -> the first request node asking it
        self._after_field: dict[str, frozenset[str]] = {}  # result field -> the nodes after an action declaring it
        self._unconditional: dict[str, int] = {}  # node -> unconditional outgoing edges seen so far

    def add(self, where: str, message: str) -> None:
        self.issues.append(FlowIssue(where, message))

    def run(self) -> list[FlowIssue]:
        self.check_node_ids()
        self.check_slot_owners()
        self.check_entry_points()
        for edge in self.flow.edges:
            self.check_edge(edge)
        self.check_global_actions()
        if self.issues:  # the reachability checks below assume references resolve
            return self.issues
        self.check_reachable()
        self.check_way_out()
        self.check_end_nodes()
        for node in self.flow.nodes:
            self.check_node_refs(node)
        self.check_global_templates()
        return self.issues

    # ----------------------------------------------------------- shared tables
    @cached_property
    def slots(self) -> dict[str, Slot]:
        return self.flow.slots()

    @cached_property
    def successors(self) -> dict[str, list[str]]:
        return self.flow.successors()

    # -------------------------------------------------------------- references
    def check_node_ids(self) -> None:
        ids: dict[str, int] = {}
        for index, node in enumerate(self.flow.nodes):
            if node.id in ids:
                self.add(f"nodes[{index}]", f"duplicate node id {node.id!r} (also nodes[{ids[node.id]}])")
            else:
                ids[node.id] = index

    def check_slot_owners(self) -> None:
        owner = self.slot_owner
        for node in self.flow.nodes:
            for slot in node.slots if isinstance(node, RequestNode) else ():
                if slot.name in owner and owner[slot.name] != node.id:
                    self.add(f"node {node.id}", f"slot {slot.name!r} is already requested by node {owner[slot.name]!r}")
                owner.setdefault(slot.name, node.id)

    def check_entry_points(self) -> None:
        flow = self.flow
        if flow.start is not None and flow.start not in self.nodes:
            self.add("start", f"unknown start node {flow.start!r}")
        if flow.escalate_to is not None and flow.escalate_to not in self.nodes:
            self.add("escalate_to", f"unknown node {flow.escalate_to!r}")

    def check_edge(self, edge: Edge) -> None:
        where = edge_name(edge)
        for end in ("source", "target"):
            ref = getattr(edge, end)
            if ref not in self.nodes:
                self.add(where, f"unknown {end} node {ref!r}")
        if edge.source in self.nodes:
            self.check_edge_condition(edge, where)
        if edge.reset_slots and edge.target in self.nodes and not isinstance(self.nodes[edge.target], RequestNode):
            self.add(where, "reset_slots needs a request node as target")
        if edge.count is not None:
            self.check_count(edge.count, where)

    def check_edge_condition(self, edge: Edge, where: str) -> None:
        if edge.when is None:
            seen = self._unconditional[edge.source] = self._unconditional.get(edge.source, 0) + 1
            if seen == 2:
                self.add(f"node {edge.source}", "more than one unconditional outgoing edge")
            return
        self.check_condition(edge.source, edge.when, where)
        if edge.on_decline and not isinstance(self.nodes[edge.source], RequestNode):
            self.add(where, "a condition on a declined slot needs a request node as source")

    def check_count(self, slot_name: str, where: str) -> None:
        counted = self.slots.get(slot_name)
        if counted is None:
            self.add(where, f"count: no request node asks for slot {slot_name!r}")
        elif counted.type is not SlotType.integer:
            self.add(where, f"count: slot {slot_name!r} is {counted.type.value}, not integer")

    def check_global_actions(self) -> None:
        actions = self.flow.global_actions
        for ga in actions:
            if ga.target is not None and ga.target not in self.nodes:
                self.add(f"global_action {ga.intent}", f"unknown target node {ga.target!r}")
        intents = [ga.intent for ga in actions]
        for intent in sorted({i for i in intents if intents.count(i) > 1}):
            self.add(f"global_action {intent}", "duplicate intent")

    def check_result_ref(self, node_id: str, field: str, where: str) -> None:
        action = self.nodes.get(node_id)
        if not isinstance(action, ExternalActionNode):
            self.add(where, f"{node_id!r} is not an external_action node")
        elif field not in action.result:
            declared = ", ".join(action.result) or "nothing"
            self.add(where, f"action {node_id!r} does not declare result field {field!r} (declares {declared})")

    # -------------------------------------------------------------- conditions
    def check_condition(self, source: str, cond: Any, where: str) -> None:
        """``cond`` (on an edge or a ``success_when`` of node ``source``) and every condition nested in it."""
        for sub in iter_conditions(cond):
            check = _CONDITION_CHECKS.get(type(sub))
            if check is not None:
                check(self, source, sub, where)

    def check_slot_condition(self, source: str, cond: SlotCondition, where: str) -> None:
        if cond.slot not in self.slot_owner:
            self.add(where, f"condition on unknown slot {cond.slot!r}")
            return
        owner = self.nodes.get(self.slot_owner[cond.slot])
        slot = next((s for s in getattr(owner, "slots", ()) if s.name == cond.slot), None)
        fold = self.flow.options.case_insensitive_values
        self.check_compared_values(slot, None, cond, f"slot {cond.slot!r}", where, fold=fold)

    def check_result_condition(self, source: str, cond: ResultCondition, where: str) -> None:
        self.check_result_ref(cond.node or source, cond.result, where)
        action = self.nodes.get(cond.node or source)
        if isinstance(action, ExternalActionNode) and cond.result in action.result:
            self.check_compared_values(None, action.result[cond.result], cond, f"result field {cond.result!r}", where)

    def check_answer_condition(self, source: str, cond: AnswerCondition, where: str) -> None:
        src = self.nodes[source]
        if not isinstance(src, ConfirmNode):
            self.add(where, f"an 'answer' condition needs an inform_and_confirm source, {source!r} is {src.type}")

    def check_choice_condition(self, source: str, cond: ChoiceCondition, where: str) -> None:
        src = self.nodes[source]
        choices = [c.name for c in src.choices or ()] if isinstance(src, ConfirmNode) else []
        if cond.choice not in choices:
            self.add(
                where,
                f"choice {cond.choice!r} is not one of the choices of {source!r} ({', '.join(choices) or 'none'})",
            )

    def check_visits_condition(self, source: str, cond: VisitsCondition, where: str) -> None:
        if cond.visits not in self.nodes:
            self.add(where, f"'visits' condition on unknown node {cond.visits!r}")

    def check_status_condition(self, source: str, cond: StatusCondition, where: str) -> None:
        src = self.nodes[source]
        if not isinstance(src, ExternalActionNode):
            self.add(where, f"a 'status' condition needs an external_action source, {source!r} is {src.type}")

    def check_compared_values(
        self,
        slot: Slot | None,
        field: ResultField | None,
        cond: Comparison,
        what: str,
        where: str,
        *,
        fold: bool = False,
    ) -> None:
        """A comparison whose value can never equal (or be ordered against) what it compares is an authoring error.

        ``fold``: the flow compares text ignoring case (``options.case_insensitive_values``)."""
        kind = _slot_values(slot.type) if slot is not None else _FIELD_VALUE_TYPES.get(field.type) if field else None
        if kind is None:
            return
        expected, fits = kind
        for value in _compared_values(cond):
            if not fits(value):
                self.add(where, f"{what} is compared with {value!r}, but its values are {expected}")
            elif slot is not None and slot.type is SlotType.categorical and not _one_of(value, slot.values or [], fold):
                self.add(
                    where,
                    f"{what} is compared with {value!r}, which is not one of its values "
                    f"({', '.join(slot.values or ())})",
                )

    # ------------------------------------------------------------ graph shape
    def check_reachable(self) -> None:
        flow = self.flow
        roots = [flow.start_id] + [ga.target for ga in flow.global_actions if ga.target]
        roots += [flow.escalate_to] if flow.escalate_to else []
        reached = set(reachable(self.successors, roots))
        for node in flow.nodes:
            if node.id not in reached:
                self.add(f"node {node.id}", f"unreachable from the start node {flow.start_id!r}")

    def check_way_out(self) -> None:
        succ, flow = self.successors, self.flow
        terminals = [n.id for n in flow.nodes if isinstance(n, EndNode) or not succ[n.id]]
        pred: dict[str, list[str]] = {n.id: [] for n in flow.nodes}
        for edge in flow.edges:
            pred[edge.target].append(edge.source)
        can_end = set(reachable(pred, terminals))
        stuck = [n.id for n in flow.nodes if n.id not in can_end]
        # Name the loop itself: the stuck nodes that lie on a cycle (the others only lead into it).
        # Every successor of a stuck node is stuck, so the cycles are found among them, in one pass.
        cycle = on_cycle(succ, stuck)
        looping = [n for n in stuck if n in cycle] or stuck
        if looping:
            where = f"node {looping[0]}" if len(looping) == 1 else "nodes " + ", ".join(looping)
            self.add(where, "loop with no way out: no path from here to an end node or a node without outgoing edges")

    def check_end_nodes(self) -> None:
        for node in self.flow.nodes:
            if isinstance(node, EndNode) and self.successors[node.id]:
                self.add(f"node {node.id}", "an end node cannot have outgoing edges")

    # ------------------------------------------------- what each node refers to
    def check_node_refs(self, node: Any) -> None:
        """The templates, arguments and conditions of one node."""
        where = f"node {node.id}"
        if isinstance(node, RequestNode):
            for slot in node.slots:
                for name in ("ask", "invalid", "confirm"):
                    template = getattr(slot, name)
                    if template and isinstance(template, str):
                        # A slot's invalid message may name its bounds in words: {earliest}, {latest}, {open_days}.
                        own = bound_names(slot) if name == "invalid" else frozenset()
                        self.check_template(node.id, template, f"{where}.slots.{slot.name}.{name}", own)
                self.check_moment_rule(slot, f"{where}.slots.{slot.name}.not_past_with")
        elif isinstance(node, ExternalActionNode):
            self.check_action_refs(node, where)
        elif isinstance(node, ConfirmNode):
            for name in ("change_question", "message", "question"):
                self.check_template(node.id, getattr(node, name), f"{where}.{name}")
        elif isinstance(node, InformNode):
            self.check_template(node.id, node.message, f"{where}.message")
        elif isinstance(node, EndNode) and node.message:
            self.check_template(node.id, node.message, f"{where}.message")

    def check_action_refs(self, node: ExternalActionNode, where: str) -> None:
        for arg, source in (node.arguments or {}).items():
            if isinstance(source, (str, SlotArg)):
                name = source if isinstance(source, str) else source.slot
                if name not in self.slot_owner:
                    self.add(f"{where}.arguments.{arg}", f"unknown slot {name!r}")
            elif isinstance(source, ResultArg):
                self.check_result_ref(source.node, source.result, f"{where}.arguments.{arg}")
        if node.success_when is not None:
            self.check_condition(node.id, node.success_when, f"{where}.success_when")

    def check_global_templates(self) -> None:
        for ga in self.flow.global_actions:
            if ga.response:
                self.check_template(None, ga.response, f"global_action {ga.intent}.response")
        for name in _FALLBACKS:
            template = getattr(self.flow.fallbacks, name)
            if template:
                self.check_template(None, template, f"fallbacks.{name}")

    # --------------------------------------------------------------- templates
    def check_moment_rule(self, slot: Slot, where: str) -> None:
        """A time slot's ``not_past_with`` names a date slot of the flow."""
        name = slot.not_past_with
        if name is not None and (name not in self.slots or self.slots[name].type is not SlotType.date):
            self.add(where, f"{name!r} is not a date slot of the flow")

    def check_template(self, node_id: str | None, template: str, where: str, own: frozenset[str] = frozenset()) -> None:
        """A template said at node ``node_id`` (None: anywhere, a global response or a fallback); ``own``: the
        extra placeholder names it may use (a slot's bounds in its invalid message)."""
        if len(template) > MAX_TEMPLATE_CHARS:
            self.add(where, f"template of {len(template)} characters, more than {MAX_TEMPLATE_CHARS}")
            return
        try:
            parts = parse_template(template)
        except ValueError as exc:
            self.add(where, str(exc))
            return
        for _, field, spec in parts:
            if field is not None and spec:
                self.check_format_spec(field, spec, where)
        for _, field, _ in parts:
            if field is not None and field not in own:
                self.check_placeholder(node_id, field, where)

    def check_format_spec(self, field: str, spec: str, where: str) -> None:
        slots = self.slots
        if field in slots and slots[field].type in (SlotType.date, SlotType.time):  # a pattern: {day:%A %-d %B}
            pattern = spec_problem(spec, slots[field].type.value)
            if pattern:
                self.add(where, f"placeholder {{{field}:{spec}}}: {pattern}")
            return
        problem = format_spec_problem(spec)
        if problem:
            self.add(where, f"placeholder {{{field}:{spec}}}: the format spec {problem}")

    def check_placeholder(self, node_id: str | None, field: str, where: str) -> None:
        """``{field}`` must be bound: a slot, ``result.x`` declared by an action before the node, or ``node.x``."""
        head, _, tail = field.partition(".")
        if not tail:
            if head not in self.slot_owner:
                self.add(where, f"placeholder {{{field}}} is bound to nothing (no slot {head!r})")
        elif head == "result":
            if not self.result_bound(node_id, tail):
                self.add(where, f"placeholder {{{field}}} is bound to nothing (no action before it declares {tail!r})")
        elif head in self.nodes:
            self.check_result_ref(head, tail, where)
        else:
            self.add(where, f"placeholder {{{field}}} is bound to nothing (no node {head!r})")

    def result_bound(self, node_id: str | None, field: str) -> bool:
        """Whether ``{result.<field>}`` said at ``node_id`` has an action before it that declares ``field``
        (said anywhere, ``node_id`` None: whether any action declares it)."""
        if node_id is None:
            return any(isinstance(n, ExternalActionNode) and field in n.result for n in self.nodes.values())
        return node_id in self.after_result_field(field)

    def after_result_field(self, field: str) -> frozenset[str]:
        """Nodes reachable from (after) an action that declares result ``field``; one search per field
        name, so checking every template stays linear in the flow."""
        if field not in self._after_field:
            succ = self.successors
            starts = [
                t
                for n in self.nodes.values()
                if isinstance(n, ExternalActionNode) and field in n.result
                for t in succ[n.id]
            ]
            self._after_field[field] = frozenset(reachable(succ, starts))
        return self._after_field[field]


_CONDITION_CHECKS: dict[type, Callable[[FlowChecker, str, Any, str], None]] = {
    SlotCondition: FlowChecker.check_slot_condition,
    ResultCondition: FlowChecker.check_result_condition,
    AnswerCondition: FlowChecker.check_answer_condition,
    ChoiceCondition: FlowChecker.check_choice_condition,
    VisitsCondition: FlowChecker.check_visits_condition,
    StatusCondition: FlowChecker.check_status_condition,
}
"""The check of each kind of condition that refers to something (calls, all/any/not: nothing to check)."""


def _compared_values(cond: Comparison) -> list[Any]:
    if cond.op in NO_VALUE_OPS or cond.value is None:
        return []
    return [v for v in cond.value if v is not None] if cond.op in LIST_OPS else [cond.value]


def _one_of(value: str, values: list[str], fold: bool) -> bool:
    return fold_text(value) in {fold_text(v) for v in values} if fold else value in values
