"""The flow model: slots, nodes, edges, conditions, action arguments and results, options.

Node types:

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

Each piece validates itself; what needs the whole graph is in :mod:`.checks`,
and the document (:class:`~fsmdial.flow.document.Flow`) in :mod:`.document`.
This module imports neither.

What a slot's type takes (its options, whether it needs values, the form of its bounds) is asked of the type
itself, in :mod:`fsmdial.slots`; :class:`Slot` runs the checks every type shares, then the type's own.
"""

from __future__ import annotations

from collections.abc import Iterator
from enum import Enum
from typing import Annotated, Any, Literal, Union, get_args

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Discriminator,
    Field,
    Tag,
    field_validator,
    model_validator,
)

from ..patterns import pattern_problem
from ..slots import KINDS, SLOT_OPTIONS, SlotType, option_types, value_collisions

IDENT = r"^[A-Za-z_][A-Za-z0-9_]*$"


class FlowModel(BaseModel):
    """Base of every part of a flow: unknown keys are refused, aliased fields accept their Python name too."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)


# --------------------------------------------------------------------- slots


DEFAULT_MAX_LENGTH = 200
"""Longest string value a slot accepts unless it says otherwise."""


class Slot(FlowModel):
    """A typed value the user provides."""

    name: str = Field(pattern=IDENT, description="Slot name, used in templates as {name}.")
    type: SlotType = SlotType.string
    description: str = ""
    examples: list[str | int | float | bool] = Field(default_factory=list)
    values: list[str] | None = Field(None, description="Allowed values of a categorical slot.")
    required: bool = True
    minimum: float | None = Field(None, description="Smallest allowed value (integer, number, money, duration).")
    maximum: float | None = Field(None, description="Largest allowed value (integer, number, money, duration).")
    pattern: str | None = Field(None, description="Regular expression a string value must match.")
    max_length: int | None = Field(None, ge=1, description="Longest allowed string value.")
    region: str | None = Field(
        None,
        pattern=r"^[A-Z]{2}$",
        description="Phone slots: the country a number without a +country code is read in (ISO 3166 code, "
        "e.g. 'GB', 'US'); without it such a number is checked for length only.",
    )
    currency: str | None = Field(
        None,
        pattern=r"^[A-Z]{3}$",
        description="Money slots: the currency amounts are in (ISO 4217, e.g. 'GBP'); an amount said in another is "
        "refused. Without it an amount is taken in whatever currency it is said.",
    )
    unit: Literal["minutes", "hours", "days", "nights", "weeks"] | None = Field(
        None, description="Duration slots: the unit the value is stored in (default minutes)."
    )
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

    invalid: str | None = Field(
        None, description="Message (template) said when a value for this slot is invalid, instead of the default."
    )
    earliest: str | None = Field(
        None,
        description="Date slots: earliest allowed date, YYYY-MM-DD or relative: 'today', 'today-30', 'today+365'. "
        "Time slots: earliest allowed time, HH:MM (an 'earliest' after 'latest' is a range across midnight).",
    )
    latest: str | None = Field(
        None,
        description="Date slots: latest allowed date, e.g. 'today' for a date of birth (same forms as 'earliest'). "
        "Time slots: latest allowed time, HH:MM.",
    )
    not_past_with: str | None = Field(
        None,
        pattern=IDENT,
        description="Time slots: the date slot this time is on; the moment they make must not be in the past "
        "(by the dialogue's clock, plus 'lead_minutes').",
    )
    lead_minutes: int = Field(
        0, ge=0, le=10_080, description="With 'not_past_with': how many minutes from now the moment must at least be."
    )
    open_days: list[str] | None = Field(
        None,
        description="Date slots: the weekdays a date may fall on, by their English names in any case, e.g. "
        "['tuesday', 'wednesday', 'thursday', 'friday', 'saturday']; a date on another day is refused with a "
        "sentence naming these (the invalid message may name them too: {open_days}).",
    )
    closed_dates: list[str] | None = Field(
        None,
        description="Date slots: days that are refused though they fall on an open day, YYYY-MM-DD, e.g. "
        "['2026-12-25', '2026-12-26'].",
    )

    @model_validator(mode="after")
    def _check_type_options(self) -> Slot:
        # The checks every type shares, from what the type says it takes (fsmdial.slots), then the type's own.
        kind = KINDS[self.type]
        if kind.needs_values and not self.values:
            raise ValueError(f"a {self.type.value} slot needs a non-empty 'values' list")
        if self.values is not None and self.type not in SLOT_OPTIONS["values"]:
            raise ValueError(f"'values' only applies to {option_types('values')}, not {self.type.value}")
        for option in ("minimum/maximum", "pattern/max_length", "region", "currency", "unit"):
            given = any(getattr(self, name) is not None for name in option.split("/"))
            if given and self.type not in SLOT_OPTIONS[option]:
                names = "/".join(f"'{name}'" for name in option.split("/"))
                verb = "apply" if "/" in option else "applies"
                raise ValueError(f"{names} only {verb} to {option_types(option)}")
        if self.minimum is not None and self.maximum is not None and self.minimum > self.maximum:
            raise ValueError(f"minimum {self.minimum} is greater than maximum {self.maximum}")
        if self.pattern is not None:
            problem = pattern_problem(self.pattern)
            if problem:
                raise ValueError(f"slot {self.name!r}: pattern {self.pattern!r} {problem}")
        if self.values:
            collisions = value_collisions(self.values)
            if collisions:
                raise ValueError(
                    f"slot {self.name!r}: values "
                    + "; ".join(" and ".join(repr(v) for v in group) for group in collisions)
                    + " cannot be told apart (they are the same after case and spacing are ignored)"
                )
        moment = "not_past_with/lead_minutes"
        if (self.not_past_with is not None or self.lead_minutes) and self.type not in SLOT_OPTIONS[moment]:
            raise ValueError(f"'not_past_with'/'lead_minutes' only apply to {option_types(moment)}")
        bounded = self.earliest is not None or self.latest is not None
        if bounded and self.type not in SLOT_OPTIONS["earliest/latest"]:
            raise ValueError("'earliest'/'latest' only apply to date slots and time slots")
        opening = "open_days/closed_dates"
        if (self.open_days is not None or self.closed_dates is not None) and self.type not in SLOT_OPTIONS[opening]:
            raise ValueError(
                f"slot {self.name!r}: 'open_days'/'closed_dates' only apply to {option_types(opening)}, "
                f"not {self.type.value}"
            )
        kind.check_declaration(self)
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


# ------------------------------------------------------- value and pattern checks


def bound_names(slot: Slot) -> frozenset[str]:
    """The bounds a slot declares (``earliest``, ``latest``, ``open_days``): placeholders its ``invalid`` message
    may use."""
    return frozenset(name for name in ("earliest", "latest", "open_days") if getattr(slot, name) is not None)


class SlotRule(FlowModel):
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
NO_VALUE_OPS = {"present", "absent", "declined"}
LIST_OPS = {"in", "not_in"}


class Comparison(FlowModel):
    op: CompareOp = "eq"
    value: Any = None

    @model_validator(mode="after")
    def _check_value(self) -> Comparison:
        if self.op in LIST_OPS and not isinstance(self.value, list):
            raise ValueError(f"op {self.op!r} needs a list 'value'")
        if self.op in NO_VALUE_OPS and self.value is not None:
            raise ValueError(f"op {self.op!r} takes no 'value'")
        return self


class SlotCondition(Comparison):
    """Compare a slot's value: ``{"slot": "party_size", "op": "gt", "value": 6}``.

    ``{"slot": "account_number", "op": "declined"}`` holds when the user said they
    cannot or will not give that slot: such edges are the request node's
    alternative branch, taken instead of asking again.
    """

    slot: str = Field(pattern=IDENT)


class ResultCondition(Comparison):
    """Compare a field of an action's result (by default the edge's source action)."""

    result: str = Field(pattern=IDENT, description="Result field name.")
    node: str | None = Field(None, description="Action node whose result is read (default: the edge's source).")


class AnswerCondition(FlowModel):
    """The user's answer to the source ``inform_and_confirm`` node."""

    answer: Literal["yes", "no", "other"]


class ChoiceCondition(FlowModel):
    """Which of its ``choices`` the user's reply to the source question was classified as."""

    choice: str = Field(min_length=1)


class StatusCondition(FlowModel):
    """The outcome of the source ``external_action`` node."""

    status: Literal["success", "failure"]


class VisitsCondition(FlowModel):
    """How many times a node has been entered in this conversation (bounds retry loops):
    ``{"visits": "ask_password", "op": "ge", "value": 3}``."""

    visits: str = Field(min_length=1, description="Node id whose entries are counted.")
    op: Literal["eq", "ne", "lt", "le", "gt", "ge"] = "ge"
    value: int = Field(ge=0)


class CallCondition(FlowModel):
    """A named Python predicate registered by the application."""

    call: str = Field(pattern=IDENT)


class AllCondition(FlowModel):
    all: list[Condition] = Field(min_length=1)


class AnyCondition(FlowModel):
    any: list[Condition] = Field(min_length=1)


class NotCondition(FlowModel):
    not_: Condition = Field(alias="not")


def _tags(union: Any) -> dict[Any, str]:
    """Member -> tag of a union of tagged members (``Union[Annotated[cls, Tag("...")], ...]``)."""
    return {get_args(member)[0]: get_args(member)[1].tag for member in get_args(union)}


_CONDITIONS = Union[
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
]
"""The one list of condition classes, each tagged ``cond:<key>`` by the key that marks it in JSON
(the tag table, the keys and the error message below are read from it)."""
_CONDITION_TAGS = _tags(_CONDITIONS)
_CONDITION_KEYS = tuple(tag.removeprefix("cond:") for tag in _CONDITION_TAGS.values())


def _tag_of(value: Any, tags: dict[Any, str], keys: tuple[str, ...], prefix: str) -> str | None:
    """The union tag of a built model (by its class) or of raw data (by the first key it has)."""
    if isinstance(value, BaseModel):
        return tags.get(type(value))
    if isinstance(value, dict):
        return next((f"{prefix}:{key}" for key in keys if key in value), None)
    return None


def _condition_tag(value: Any) -> str | None:
    return _tag_of(value, _CONDITION_TAGS, _CONDITION_KEYS, "cond")


Condition = Annotated[
    _CONDITIONS,
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


def iter_conditions(cond: Any) -> Iterator[Any]:
    """Yield ``cond`` and every condition nested in it."""
    yield cond
    if isinstance(cond, (AllCondition, AnyCondition)):
        for sub in cond.all if isinstance(cond, AllCondition) else cond.any:
            yield from iter_conditions(sub)
    elif isinstance(cond, NotCondition):
        yield from iter_conditions(cond.not_)


# -------------------------------------------------------------- action I/O


class SlotArg(FlowModel):
    slot: str = Field(pattern=IDENT)


class ResultArg(FlowModel):
    result: str = Field(pattern=IDENT)
    node: str


class ValueArg(FlowModel):
    value: Any


_ARGS = Union[
    Annotated[str, Tag("arg:name")],
    Annotated[SlotArg, Tag("arg:slot")],
    Annotated[ResultArg, Tag("arg:result")],
    Annotated[ValueArg, Tag("arg:value")],
]
"""The one list of argument sources (a bare string names a slot)."""
_ARG_TAGS = _tags(_ARGS)
_ARG_KEYS = tuple(tag.removeprefix("arg:") for cls, tag in _ARG_TAGS.items() if cls is not str)


def _arg_tag(value: Any) -> str | None:
    return "arg:name" if isinstance(value, str) else _tag_of(value, _ARG_TAGS, _ARG_KEYS, "arg")


ArgSource = Annotated[
    _ARGS,
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
    money = "money"
    duration = "duration"
    boolean = "boolean"
    list = "list"
    object = "object"
    any = "any"


class ResultField(FlowModel):
    type: FieldType = FieldType.any
    required: bool = True
    description: str = ""


def _result_field(value: Any) -> Any:
    return {"type": value} if isinstance(value, str) else value


# --------------------------------------------------------------------- nodes


class _Node(FlowModel):
    id: str = Field(min_length=1, description="Unique node id (also its state name).")
    label: str | None = Field(None, description="Name of the act this node performs (default: its id).")
    description: str = ""

    @property
    def act(self) -> str:
        return self.label or self.id


class RequestNode(_Node):
    type: Literal["request"]
    slots: list[Slot] = Field(min_length=1)
    rule: SlotRule = Field(default_factory=SlotRule)  # type: ignore[arg-type]

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
    commits: bool = Field(
        False,
        description="The tool has effects outside the dialogue (books, orders, pays). Once it has succeeded it is "
        "committed: a later correction of a slot it read is refused (the bot says what can no longer be "
        "changed) instead of running it again. Default false: a search or lookup runs again after a correction.",
    )

    @field_validator("result", mode="before")
    @classmethod
    def _shorthand_result(cls, value: Any) -> Any:
        if isinstance(value, dict):
            return {name: _result_field(spec) for name, spec in value.items()}
        return value


class InformNode(_Node):
    type: Literal["inform"]
    message: str


RESERVED_NAMES = frozenset({"none"})
"""Names the understanding schema uses itself ("none of these"): no intent or choice may take them."""


def _unreserved(value: str) -> str:
    if value in RESERVED_NAMES:
        raise ValueError(f"{value!r} is reserved: the understander uses it for 'none of these'")
    return value


NOT_RESERVED = AfterValidator(_unreserved)
"""Validator of an intent's or a choice's name: anything but a reserved name."""


class Choice(FlowModel):
    """One way the user may answer a question (a ChatSOP user state)."""

    name: Annotated[str, Field(min_length=1), NOT_RESERVED]
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


_NODES = Union[
    Annotated[RequestNode, Tag("node:request")],
    Annotated[ExternalActionNode, Tag("node:external_action")],
    Annotated[InformNode, Tag("node:inform")],
    Annotated[ConfirmNode, Tag("node:inform_and_confirm")],
    Annotated[EndNode, Tag("node:end")],
]
"""The one list of node classes, each tagged ``node:<its type>``."""
NODE_TYPES = tuple(tag.removeprefix("node:") for tag in _tags(_NODES).values())

Node = Annotated[
    _NODES,
    Discriminator(
        _node_tag,
        custom_error_type="invalid_node_type",
        custom_error_message="node 'type' must be one of " + ", ".join(NODE_TYPES),
    ),
]

AnyNode = Union[RequestNode, ExternalActionNode, InformNode, ConfirmNode, EndNode]
"""Any node (the union ``Node`` validates into)."""


class Edge(FlowModel):
    source: str
    target: str
    when: Condition | None = Field(None, description="Condition; omitted: followed as soon as the source is done.")
    reset_slots: bool = Field(
        False, description="Clear the target request node's slots when this edge is followed (ask again loops)."
    )
    count: str | None = Field(
        None,
        pattern=IDENT,
        description="An integer slot to add 1 to when this edge is followed (the next question, page or try); "
        "a slot at its maximum stays there.",
    )

    @property
    def on_decline(self) -> bool:
        """True for the alternative branch of a request node (a condition on a declined slot)."""
        return self.when is not None and any(
            isinstance(c, SlotCondition) and c.op == "declined" for c in iter_conditions(self.when)
        )


def edge_name(edge: Edge) -> str:
    """How issues name an edge: ``edge a->b``."""
    return f"edge {edge.source}->{edge.target}"


class GlobalAction(FlowModel):
    """An intent the user may express at any point (e.g. "hello")."""

    intent: Annotated[str, Field(pattern=IDENT), NOT_RESERVED]
    examples: list[str] = Field(default_factory=list)
    response: str | None = None
    target: str | None = Field(None, description="Node to go to after responding (default: stay).")


class Fallbacks(FlowModel):
    goodbye: str | None = None
    out_of_scope: str | None = None
    anything_else: str | None = None
    cannot_continue: str | None = Field(
        None, description="Said when the user declines a required slot and the flow has no alternative branch."
    )
    committed: str | None = Field(
        None,
        description='Said when a correction is refused because an action that commits ("commits": true) has '
        "already run with the old value (default: the engine's sentence naming the slot).",
    )
    ended: str | None = Field(
        None, description="Said to any message after the conversation has ended (default: the engine's sentence)."
    )


class FlowOptions(FlowModel):
    """Leniencies a flow may switch on (all off by default: values and templates are taken exactly)."""

    case_insensitive_values: bool = Field(
        False, description="Conditions compare string values case-insensitively ('Paris' equals 'paris')."
    )
    lenient_format_specs: bool = Field(
        False,
        description="A template format spec that does not fit the value ({n:d} for '3') formats the value converted "
        "to a number, or as plain text, instead of failing the turn.",
    )
    result_fallback: bool = Field(
        False,
        description="When the action {result.x} reads is reset (a slot it used changed), {result.x} reads the "
        "latest result still held instead of having no value.",
    )
