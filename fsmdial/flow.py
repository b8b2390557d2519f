"""The flow format: a typed dialogue graph, validated by pydantic.

A flow is JSON with ``nodes``, ``edges``, ``global_actions`` and ``fallbacks``
(after CoDial's CHIEF format). Node types:

* ``request``: collects ordered, typed ``slots``; a ``rule`` says which suffice.
* ``external_action``: calls a registered tool with arguments mapped from
  slots and earlier results; declares the shape of its result.
* ``inform``: tells the user a message (once).
* ``inform_and_confirm``: a message plus a yes/no question; outgoing edges
  branch on the answer.
* ``end``: the conversation is over.

Edge conditions are data, never an expression language: comparisons on a slot
or a result field, the confirmation answer, the action status, presence of a
slot, or ``{"call": "name"}`` for a predicate the application registers.

:func:`check_flow` runs the graph checks; :class:`Flow` runs them on
validation, so a ``Flow`` object is always consistent.
"""

from __future__ import annotations

import re
from collections import deque
from enum import Enum
from typing import Annotated, Any, Literal, Union

from pydantic import (
    BaseModel,
    ConfigDict,
    Discriminator,
    Field,
    Tag,
    field_validator,
    model_validator,
)

from .errors import FlowIssue
from .responses import template_fields

IDENT = r"^[A-Za-z_][A-Za-z0-9_]*$"
_IDENT = re.compile(IDENT)


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)


# --------------------------------------------------------------------- slots


class SlotType(str, Enum):
    string = "string"
    integer = "integer"
    number = "number"
    boolean = "boolean"
    categorical = "categorical"
    date = "date"
    time = "time"


DEFAULT_MAX_LENGTH = 200
"""Longest string value a slot accepts unless it says otherwise."""


class Slot(_Model):
    """A typed value the user provides."""

    name: str = Field(pattern=IDENT, description="Slot name, used in templates as {name}.")
    type: SlotType = SlotType.string
    description: str = ""
    examples: list[str | int | float | bool] = Field(default_factory=list)
    values: list[str] | None = Field(None, description="Allowed values of a categorical slot.")
    required: bool = True
    minimum: float | None = Field(None, description="Smallest allowed value (integer, number).")
    maximum: float | None = Field(None, description="Largest allowed value (integer, number).")
    pattern: str | None = Field(None, description="Regular expression a string value must match.")
    max_length: int | None = Field(None, ge=1, description="Longest allowed string value.")
    ask: str | None = Field(None, description="Question template asking for this slot.")
    act: str | None = Field(None, description="Name of the act that asks for this slot (default ask_<name>).")
    confirm: bool | str = Field(
        False,
        description="Confirm this field once given: true for the default question, or a question template.",
    )
    label: str | None = Field(None, description="Short noun for the slot in the bot's sentences (default: its name).")
    extract: Literal["span", "free"] = Field(
        "span",
        description="How a model reads the value: 'span' (default) copies words of the user's message, which "
        "fsmdial's parsers turn into the value; 'free' lets the model write any value of the type (a paraphrase).",
    )

    @model_validator(mode="after")
    def _check_type_options(self) -> Slot:
        if self.type is SlotType.categorical:
            if not self.values:
                raise ValueError("a categorical slot needs a non-empty 'values' list")
        elif self.values is not None:
            raise ValueError(f"'values' only applies to categorical slots, not {self.type.value}")
        numeric = self.type in (SlotType.integer, SlotType.number)
        if not numeric and (self.minimum is not None or self.maximum is not None):
            raise ValueError("'minimum'/'maximum' only apply to integer and number slots")
        if self.minimum is not None and self.maximum is not None and self.minimum > self.maximum:
            raise ValueError(f"minimum {self.minimum} is greater than maximum {self.maximum}")
        if self.type is not SlotType.string and (self.pattern is not None or self.max_length is not None):
            raise ValueError("'pattern'/'max_length' only apply to string slots")
        if self.pattern is not None:
            try:
                re.compile(self.pattern)
            except re.error as exc:
                raise ValueError(f"pattern {self.pattern!r} is not a valid regular expression: {exc}") from None
        return self

    @property
    def ask_act(self) -> str:
        return self.act or f"ask_{self.name}"

    @property
    def readable(self) -> str:
        """How the bot names this slot in its own sentences."""
        text = self.description.rstrip(".") if self.description else self.name.replace("_", " ")
        return text[:1].lower() + text[1:]

    @property
    def noun(self) -> str:
        """A short noun for the slot ("party size"): its label, else its name in words."""
        return self.label or self.name.replace("_", " ")

    @property
    def string_limit(self) -> int:
        return self.max_length or DEFAULT_MAX_LENGTH


class SlotRule(_Model):
    """Which slots of a request node suffice to move on.

    ``all`` (default): every required slot. ``any``: one of ``slots``.
    ``at_least``: ``n`` of ``slots`` (default: all of the node's slots).
    """

    kind: Literal["all", "any", "at_least"] = "all"
    slots: list[str] | None = None
    n: int | None = Field(None, ge=1)

    @model_validator(mode="after")
    def _check(self) -> SlotRule:
        if self.kind == "at_least" and self.n is None:
            raise ValueError("rule 'at_least' needs 'n'")
        if self.kind != "at_least" and self.n is not None:
            raise ValueError(f"'n' only applies to rule 'at_least', not {self.kind!r}")
        if self.kind == "any" and not self.slots:
            raise ValueError("rule 'any' needs a non-empty 'slots' group")
        return self


# ---------------------------------------------------------------- conditions

CompareOp = Literal["eq", "ne", "in", "not_in", "lt", "le", "gt", "ge", "present", "absent", "declined"]
_NO_VALUE_OPS = {"present", "absent", "declined"}
_LIST_OPS = {"in", "not_in"}


class _Comparison(_Model):
    op: CompareOp = "eq"
    value: Any = None

    @model_validator(mode="after")
    def _check_value(self) -> _Comparison:
        if self.op in _LIST_OPS and not isinstance(self.value, list):
            raise ValueError(f"op {self.op!r} needs a list 'value'")
        if self.op in _NO_VALUE_OPS and self.value is not None:
            raise ValueError(f"op {self.op!r} takes no 'value'")
        return self


class SlotCondition(_Comparison):
    """Compare a slot's value: ``{"slot": "party_size", "op": "gt", "value": 6}``.

    ``{"slot": "account_number", "op": "declined"}`` holds when the user said they
    cannot or will not give that slot: such edges are the request node's
    alternative branch, taken instead of asking again.
    """

    slot: str = Field(pattern=IDENT)


class ResultCondition(_Comparison):
    """Compare a field of an action's result (by default the edge's source action)."""

    result: str = Field(pattern=IDENT, description="Result field name.")
    node: str | None = Field(None, description="Action node whose result is read (default: the edge's source).")


class AnswerCondition(_Model):
    """The user's answer to the source ``inform_and_confirm`` node."""

    answer: Literal["yes", "no", "other"]


class ChoiceCondition(_Model):
    """Which of its ``choices`` the user's reply to the source question was classified as."""

    choice: str = Field(min_length=1)


class StatusCondition(_Model):
    """The outcome of the source ``external_action`` node."""

    status: Literal["success", "failure"]


class VisitsCondition(_Model):
    """How many times a node has been entered in this conversation (bounds retry loops):
    ``{"visits": "ask_password", "op": "ge", "value": 3}``."""

    visits: str = Field(min_length=1, description="Node id whose entries are counted.")
    op: Literal["eq", "ne", "lt", "le", "gt", "ge"] = "ge"
    value: int = Field(ge=0)


class CallCondition(_Model):
    """A named Python predicate registered by the application."""

    call: str = Field(pattern=IDENT)


class AllCondition(_Model):
    all: list[Condition] = Field(min_length=1)


class AnyCondition(_Model):
    any: list[Condition] = Field(min_length=1)


class NotCondition(_Model):
    not_: Condition = Field(alias="not")


_CONDITION_KEYS = ("slot", "result", "answer", "choice", "status", "visits", "call", "all", "any", "not")


def _condition_tag(value: Any) -> str | None:
    if isinstance(value, BaseModel):
        return {
            SlotCondition: "cond:slot",
            ResultCondition: "cond:result",
            AnswerCondition: "cond:answer",
            ChoiceCondition: "cond:choice",
            StatusCondition: "cond:status",
            VisitsCondition: "cond:visits",
            CallCondition: "cond:call",
            AllCondition: "cond:all",
            AnyCondition: "cond:any",
            NotCondition: "cond:not",
        }.get(type(value))
    if isinstance(value, dict):
        for key in _CONDITION_KEYS:
            if key in value:
                return f"cond:{key}"
    return None


Condition = Annotated[
    Union[
        Annotated[SlotCondition, Tag("cond:slot")],
        Annotated[ResultCondition, Tag("cond:result")],
        Annotated[AnswerCondition, Tag("cond:answer")],
        Annotated[ChoiceCondition, Tag("cond:choice")],
        Annotated[StatusCondition, Tag("cond:status")],
        Annotated[VisitsCondition, Tag("cond:visits")],
        Annotated[CallCondition, Tag("cond:call")],
        Annotated[AllCondition, Tag("cond:all")],
        Annotated[AnyCondition, Tag("cond:any")],
        Annotated[NotCondition, Tag("cond:not")],
    ],
    Discriminator(
        _condition_tag,
        custom_error_type="invalid_condition",
        custom_error_message="a condition is a JSON object with one of the keys "
        + ", ".join(_CONDITION_KEYS)
        + " (expression strings are not supported)",
    ),
]
AllCondition.model_rebuild()
AnyCondition.model_rebuild()
NotCondition.model_rebuild()


def iter_conditions(cond: Any):
    """Yield ``cond`` and every condition nested in it."""
    yield cond
    if isinstance(cond, (AllCondition, AnyCondition)):
        for sub in cond.all if isinstance(cond, AllCondition) else cond.any:
            yield from iter_conditions(sub)
    elif isinstance(cond, NotCondition):
        yield from iter_conditions(cond.not_)


# -------------------------------------------------------------- action I/O


class SlotArg(_Model):
    slot: str = Field(pattern=IDENT)


class ResultArg(_Model):
    result: str = Field(pattern=IDENT)
    node: str


class ValueArg(_Model):
    value: Any


def _arg_tag(value: Any) -> str | None:
    if isinstance(value, str):
        return "arg:name"
    if isinstance(value, BaseModel):
        return {SlotArg: "arg:slot", ResultArg: "arg:result", ValueArg: "arg:value"}.get(type(value))
    if isinstance(value, dict):
        for key in ("slot", "result", "value"):
            if key in value:
                return f"arg:{key}"
    return None


ArgSource = Annotated[
    Union[
        Annotated[str, Tag("arg:name")],
        Annotated[SlotArg, Tag("arg:slot")],
        Annotated[ResultArg, Tag("arg:result")],
        Annotated[ValueArg, Tag("arg:value")],
    ],
    Discriminator(
        _arg_tag,
        custom_error_type="invalid_argument",
        custom_error_message="an argument is a slot name, or an object with 'slot', 'result'+'node' or 'value'",
    ),
]


class FieldType(str, Enum):
    string = "string"
    integer = "integer"
    number = "number"
    boolean = "boolean"
    list = "list"
    object = "object"
    any = "any"


class ResultField(_Model):
    type: FieldType = FieldType.any
    required: bool = True
    description: str = ""


def _result_field(value: Any) -> Any:
    return {"type": value} if isinstance(value, str) else value


# --------------------------------------------------------------------- nodes


class _Node(_Model):
    id: str = Field(min_length=1, description="Unique node id (also its state name).")
    label: str | None = Field(None, description="Name of the act this node performs (default: its id).")
    description: str = ""

    @property
    def act(self) -> str:
        return self.label or self.id


class RequestNode(_Node):
    type: Literal["request"]
    slots: list[Slot] = Field(min_length=1)
    rule: SlotRule = Field(default_factory=SlotRule)

    @model_validator(mode="after")
    def _check_slots(self) -> RequestNode:
        names = [slot.name for slot in self.slots]
        duplicates = sorted({name for name in names if names.count(name) > 1})
        if duplicates:
            raise ValueError(f"duplicate slot names: {', '.join(duplicates)}")
        for name in self.rule.slots or ():
            if name not in names:
                raise ValueError(f"rule names slot {name!r}, which this node does not request")
        return self

    def satisfied(self, filled: dict[str, Any]) -> bool:
        rule = self.rule
        if rule.kind == "all":
            return all(slot.name in filled for slot in self.slots if slot.required)
        group = rule.slots or [slot.name for slot in self.slots]
        have = sum(1 for name in group if name in filled)
        return have >= (1 if rule.kind == "any" else (rule.n or 1))

    def missing(self, filled: dict[str, Any]) -> list[Slot]:
        """Slots still to ask, in order (only those that can still matter)."""
        if self.satisfied(filled):
            return []
        group = set(self.rule.slots or [s.name for s in self.slots]) if self.rule.kind != "all" else None
        return [
            slot
            for slot in self.slots
            if slot.name not in filled and (slot.required if group is None else slot.name in group)
        ]


class ExternalActionNode(_Node):
    type: Literal["external_action"]
    tool: str = Field(min_length=1, description="Name of the registered tool to call.")
    arguments: dict[str, ArgSource] | None = Field(
        None, description="Tool argument -> source. Omitted: every slot collected upstream, by name."
    )
    result: dict[str, Annotated[ResultField, Field()]] = Field(default_factory=dict)
    success_when: Condition | None = Field(
        None, description="Condition on the result that makes the status 'success' (default: the tool returned)."
    )
    timeout: float | None = Field(None, gt=0, description="Seconds before the call counts as failed.")

    @field_validator("result", mode="before")
    @classmethod
    def _shorthand_result(cls, value: Any) -> Any:
        if isinstance(value, dict):
            return {name: _result_field(spec) for name, spec in value.items()}
        return value


class InformNode(_Node):
    type: Literal["inform"]
    message: str


class Choice(_Model):
    """One way the user may answer a question (a ChatSOP user state)."""

    name: str = Field(min_length=1)
    description: str = ""
    examples: list[str] = Field(default_factory=list)


class ConfirmNode(_Node):
    """A message and a question. The answer is yes/no/other, or one of ``choices`` when given."""

    type: Literal["inform_and_confirm"]
    message: str = ""
    question: str = Field(min_length=1)
    choices: list[Choice] | None = Field(
        None, description="Classify the reply into these (edges use {'choice': name}) instead of yes/no."
    )
    change_question: str = Field(
        "What would you like to change?",
        description="Asked after a 'no' that no edge expects: the user then corrects a slot and is asked again.",
    )

    @model_validator(mode="after")
    def _check_choices(self) -> ConfirmNode:
        names = [choice.name for choice in self.choices or ()]
        if len(set(names)) != len(names):
            raise ValueError("duplicate choice names")
        if self.choices is not None and not names:
            raise ValueError("'choices' must not be empty")
        return self


class EndNode(_Node):
    type: Literal["end"]
    message: str | None = None


def _node_tag(value: Any) -> str | None:
    if isinstance(value, BaseModel):
        return f"node:{getattr(value, 'type', '')}"
    if isinstance(value, dict):
        kind = value.get("type")
        return f"node:{kind}" if isinstance(kind, str) else None
    return None


NODE_TYPES = ("request", "external_action", "inform", "inform_and_confirm", "end")

Node = Annotated[
    Union[
        Annotated[RequestNode, Tag("node:request")],
        Annotated[ExternalActionNode, Tag("node:external_action")],
        Annotated[InformNode, Tag("node:inform")],
        Annotated[ConfirmNode, Tag("node:inform_and_confirm")],
        Annotated[EndNode, Tag("node:end")],
    ],
    Discriminator(
        _node_tag,
        custom_error_type="invalid_node_type",
        custom_error_message="node 'type' must be one of " + ", ".join(NODE_TYPES),
    ),
]


class Edge(_Model):
    source: str
    target: str
    when: Condition | None = Field(None, description="Condition; omitted: followed as soon as the source is done.")
    reset_slots: bool = Field(
        False, description="Clear the target request node's slots when this edge is followed (ask again loops)."
    )

    @property
    def on_decline(self) -> bool:
        """True for the alternative branch of a request node (a condition on a declined slot)."""
        return self.when is not None and any(
            isinstance(c, SlotCondition) and c.op == "declined" for c in iter_conditions(self.when)
        )


class GlobalAction(_Model):
    """An intent the user may express at any point (e.g. "hello")."""

    intent: str = Field(pattern=IDENT)
    examples: list[str] = Field(default_factory=list)
    response: str | None = None
    target: str | None = Field(None, description="Node to go to after responding (default: stay).")


class Fallbacks(_Model):
    goodbye: str | None = None
    out_of_scope: str | None = None
    anything_else: str | None = None
    cannot_continue: str | None = Field(
        None, description="Said when the user declines a required slot and the flow has no alternative branch."
    )


class Flow(_Model):
    """A dialogue flow. Constructing one runs every graph check."""

    schema_: str | None = Field(None, alias="$schema", description="Optional JSON Schema URL for editors.")
    name: str = Field(min_length=1)
    description: str = ""
    context: str = Field("", description="Facts for the assistant, e.g. 'Right now it is Tuesday, 12 PM'.")
    examples: list[str] = Field(
        default_factory=list, description="Utterances that start this flow (an assistant with several flows routes by them)."
    )
    start: str | None = Field(None, description="Start node id (default: the first node).")
    max_attempts: int = Field(3, ge=1, description="Invalid values in a row for one slot before escalating.")
    escalate_to: str | None = Field(
        None, description="Node (e.g. a hand-off end) to go to after max_attempts invalid values (default: a polite end)."
    )
    nodes: list[Node] = Field(min_length=1)
    edges: list[Edge] = Field(default_factory=list)
    global_actions: list[GlobalAction] = Field(default_factory=list)
    fallbacks: Fallbacks = Field(default_factory=Fallbacks)

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

    def node(self, node_id: str) -> Any:
        for node in self.nodes:
            if node.id == node_id:
                return node
        raise KeyError(node_id)

    def slots(self) -> dict[str, Slot]:
        """Every slot of the flow by name, in node order."""
        return {slot.name: slot for node in self.nodes if isinstance(node, RequestNode) for slot in node.slots}

    def slot_owner(self) -> dict[str, str]:
        return {slot.name: node.id for node in self.nodes if isinstance(node, RequestNode) for slot in node.slots}

    def outgoing(self, node_id: str) -> list[Edge]:
        return [edge for edge in self.edges if edge.source == node_id]

    def successors(self) -> dict[str, list[str]]:
        succ: dict[str, list[str]] = {node.id: [] for node in self.nodes}
        for edge in self.edges:
            if edge.source in succ and edge.target not in succ[edge.source]:
                succ[edge.source].append(edge.target)
        return succ

    def reachable_from(self, node_id: str) -> list[str]:
        """Node ids reachable from ``node_id`` (itself included), breadth-first."""
        return _bfs(self.successors(), [node_id])

    def action_arguments(self, node: ExternalActionNode) -> dict[str, ArgSource]:
        """The node's argument mapping; by default every slot requested upstream."""
        if node.arguments is not None:
            return node.arguments
        upstream = set(ancestors(self, node.id))
        return {
            slot.name: slot.name
            for other in self.nodes
            if isinstance(other, RequestNode) and other.id in upstream
            for slot in other.slots
        }


class GraphIssues(ValueError):
    """Raised inside validation; carries the structured issues to the loader."""

    def __init__(self, issues: list[FlowIssue]):
        self.issues = issues
        super().__init__("; ".join(str(issue) for issue in issues))


# -------------------------------------------------------------- graph checks


def _bfs(succ: dict[str, list[str]], roots: list[str]) -> list[str]:
    seen = dict.fromkeys(r for r in roots if r in succ)
    queue = deque(seen)
    while queue:
        for nxt in succ.get(queue.popleft(), ()):
            if nxt not in seen:
                seen[nxt] = None
                queue.append(nxt)
    return list(seen)


def ancestors(flow: Flow, node_id: str) -> list[str]:
    """Nodes from which ``node_id`` can be reached (itself excluded unless on a cycle)."""
    pred: dict[str, list[str]] = {node.id: [] for node in flow.nodes}
    for edge in flow.edges:
        if edge.target in pred:
            pred[edge.target].append(edge.source)
    found = _bfs(pred, pred.get(node_id, []))
    return found


def _edge_name(edge: Edge) -> str:
    return f"edge {edge.source}->{edge.target}"


def check_flow(flow: Flow) -> list[FlowIssue]:
    """Every graph-level problem of ``flow``; empty when the flow is consistent."""
    issues: list[FlowIssue] = []
    add = lambda where, msg: issues.append(FlowIssue(where, msg))  # noqa: E731

    ids: dict[str, int] = {}
    for index, node in enumerate(flow.nodes):
        if node.id in ids:
            add(f"nodes[{index}]", f"duplicate node id {node.id!r} (also nodes[{ids[node.id]}])")
        else:
            ids[node.id] = index
    nodes = {node.id: node for node in flow.nodes}

    slot_owner: dict[str, str] = {}
    for node in flow.nodes:
        if isinstance(node, RequestNode):
            for slot in node.slots:
                if slot.name in slot_owner and slot_owner[slot.name] != node.id:
                    add(
                        f"node {node.id}",
                        f"slot {slot.name!r} is already requested by node {slot_owner[slot.name]!r}",
                    )
                slot_owner.setdefault(slot.name, node.id)

    if flow.start is not None and flow.start not in nodes:
        add("start", f"unknown start node {flow.start!r}")
    if flow.escalate_to is not None and flow.escalate_to not in nodes:
        add("escalate_to", f"unknown node {flow.escalate_to!r}")

    unconditional: dict[str, int] = {}
    for edge in flow.edges:
        where = _edge_name(edge)
        for end in ("source", "target"):
            ref = getattr(edge, end)
            if ref not in nodes:
                add(where, f"unknown {end} node {ref!r}")
        if edge.source in nodes and edge.when is None:
            unconditional[edge.source] = unconditional.get(edge.source, 0) + 1
            if unconditional[edge.source] == 2:
                add(f"node {edge.source}", "more than one unconditional outgoing edge")
        if edge.source in nodes and edge.when is not None:
            _check_condition(flow, nodes, slot_owner, edge.source, edge.when, where, add)
            if edge.on_decline and not isinstance(nodes[edge.source], RequestNode):
                add(where, "a condition on a declined slot needs a request node as source")
        if edge.reset_slots and edge.target in nodes and not isinstance(nodes[edge.target], RequestNode):
            add(where, "reset_slots needs a request node as target")

    for ga in flow.global_actions:
        if ga.target is not None and ga.target not in nodes:
            add(f"global_action {ga.intent}", f"unknown target node {ga.target!r}")
    intents = [ga.intent for ga in flow.global_actions]
    for intent in sorted({i for i in intents if intents.count(i) > 1}):
        add(f"global_action {intent}", "duplicate intent")

    if issues:  # the reachability checks below assume references resolve
        return issues

    succ = flow.successors()
    roots = [flow.start_id] + [ga.target for ga in flow.global_actions if ga.target]
    roots += [flow.escalate_to] if flow.escalate_to else []
    reached = set(_bfs(succ, roots))
    for node in flow.nodes:
        if node.id not in reached:
            add(f"node {node.id}", f"unreachable from the start node {flow.start_id!r}")

    terminals = [n.id for n in flow.nodes if isinstance(n, EndNode) or not succ[n.id]]
    pred: dict[str, list[str]] = {n.id: [] for n in flow.nodes}
    for edge in flow.edges:
        pred[edge.target].append(edge.source)
    can_end = set(_bfs(pred, terminals))
    stuck = [n.id for n in flow.nodes if n.id not in can_end]
    # Name the loop itself: the stuck nodes that lie on a cycle (the others only lead into it).
    looping = [n for n in stuck if n in _bfs(succ, succ[n])] or stuck
    if looping:
        where = f"node {looping[0]}" if len(looping) == 1 else "nodes " + ", ".join(looping)
        add(where, "loop with no way out: no path from here to an end node or a node without outgoing edges")
    for node in flow.nodes:
        if isinstance(node, EndNode) and succ[node.id]:
            add(f"node {node.id}", "an end node cannot have outgoing edges")

    for node in flow.nodes:
        _check_node_refs(flow, nodes, slot_owner, node, add)
    for ga in flow.global_actions:
        if ga.response:
            _check_template(flow, nodes, slot_owner, None, ga.response, f"global_action {ga.intent}.response", add)
    for name in ("goodbye", "out_of_scope", "anything_else", "cannot_continue"):
        template = getattr(flow.fallbacks, name)
        if template:
            _check_template(flow, nodes, slot_owner, None, template, f"fallbacks.{name}", add)
    return issues


def _check_node_refs(flow: Flow, nodes: dict, slot_owner: dict, node: Any, add) -> None:
    where = f"node {node.id}"
    if isinstance(node, RequestNode):
        for slot in node.slots:
            if slot.ask:
                _check_template(flow, nodes, slot_owner, node.id, slot.ask, f"{where}.slots.{slot.name}.ask", add)
            if isinstance(slot.confirm, str):
                _check_template(flow, nodes, slot_owner, node.id, slot.confirm, f"{where}.slots.{slot.name}.confirm", add)
    elif isinstance(node, ExternalActionNode):
        for arg, source in (node.arguments or {}).items():
            if isinstance(source, str) or isinstance(source, SlotArg):
                name = source if isinstance(source, str) else source.slot
                if name not in slot_owner:
                    add(f"{where}.arguments.{arg}", f"unknown slot {name!r}")
            elif isinstance(source, ResultArg):
                _check_result_ref(nodes, source.node, source.result, f"{where}.arguments.{arg}", add)
        if node.success_when is not None:
            _check_condition(flow, nodes, slot_owner, node.id, node.success_when, f"{where}.success_when", add)
    elif isinstance(node, InformNode):
        _check_template(flow, nodes, slot_owner, node.id, node.message, f"{where}.message", add)
    elif isinstance(node, ConfirmNode):
        _check_template(flow, nodes, slot_owner, node.id, node.change_question, f"{where}.change_question", add)
        _check_template(flow, nodes, slot_owner, node.id, node.message, f"{where}.message", add)
        _check_template(flow, nodes, slot_owner, node.id, node.question, f"{where}.question", add)
    elif isinstance(node, EndNode) and node.message:
        _check_template(flow, nodes, slot_owner, node.id, node.message, f"{where}.message", add)


def _check_result_ref(nodes: dict, node_id: str, field: str, where: str, add) -> None:
    action = nodes.get(node_id)
    if not isinstance(action, ExternalActionNode):
        add(where, f"{node_id!r} is not an external_action node")
    elif field not in action.result:
        declared = ", ".join(action.result) or "nothing"
        add(where, f"action {node_id!r} does not declare result field {field!r} (declares {declared})")


def _check_condition(flow: Flow, nodes: dict, slot_owner: dict, source: str, cond: Any, where: str, add) -> None:
    src = nodes[source]
    for sub in iter_conditions(cond):
        if isinstance(sub, SlotCondition) and sub.slot not in slot_owner:
            add(where, f"condition on unknown slot {sub.slot!r}")
        elif isinstance(sub, ResultCondition):
            _check_result_ref(nodes, sub.node or source, sub.result, where, add)
        elif isinstance(sub, AnswerCondition) and not isinstance(src, ConfirmNode):
            add(where, f"an 'answer' condition needs an inform_and_confirm source, {source!r} is {src.type}")
        elif isinstance(sub, ChoiceCondition):
            choices = [c.name for c in src.choices or ()] if isinstance(src, ConfirmNode) else []
            if sub.choice not in choices:
                add(where, f"choice {sub.choice!r} is not one of the choices of {source!r} ({', '.join(choices) or 'none'})")
        elif isinstance(sub, VisitsCondition) and sub.visits not in nodes:
            add(where, f"'visits' condition on unknown node {sub.visits!r}")
        elif isinstance(sub, StatusCondition) and not isinstance(src, ExternalActionNode):
            add(where, f"a 'status' condition needs an external_action source, {source!r} is {src.type}")


def _check_template(flow: Flow, nodes: dict, slot_owner: dict, node_id: str | None, template: str, where, add) -> None:
    try:
        fields = template_fields(template)
    except ValueError as exc:
        add(where, str(exc))
        return
    if not fields:
        return
    upstream = set(ancestors(flow, node_id)) if node_id is not None else set(nodes)
    upstream_actions = [nodes[n] for n in upstream if isinstance(nodes[n], ExternalActionNode)]
    for field in fields:
        head, _, tail = field.partition(".")
        if not tail:
            if head not in slot_owner:
                add(where, f"placeholder {{{field}}} is bound to nothing (no slot {head!r})")
        elif head == "result":
            if not any(tail in action.result for action in upstream_actions):
                add(where, f"placeholder {{{field}}} is bound to nothing (no action before it declares {tail!r})")
        elif head in nodes:
            _check_result_ref(nodes, head, tail, where, add)
        else:
            add(where, f"placeholder {{{field}}} is bound to nothing (no node {head!r})")
