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

import math
import re
from collections import deque
from collections.abc import Iterable
from datetime import date
from enum import Enum
from functools import cached_property
from typing import Annotated, Any, Literal, Union

import orjson
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

from ..errors import FlowIssue
from ..regexes import regex_parse
from ..responses import parse_template

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

    invalid: str | None = Field(
        None, description="Message (template) said when a value for this slot is invalid, instead of the default."
    )
    earliest: str | None = Field(
        None, description="Date slots: earliest allowed date, YYYY-MM-DD or relative: 'today', 'today-30', 'today+365'."
    )
    latest: str | None = Field(
        None, description="Date slots: latest allowed date, e.g. 'today' for a date of birth (same forms as 'earliest')."
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
            problem = pattern_problem(self.pattern)
            if problem:
                raise ValueError(f"slot {self.name!r}: pattern {self.pattern!r} {problem}")
        if self.type is SlotType.categorical:
            collisions = value_collisions(self.values or [])
            if collisions:
                raise ValueError(
                    f"slot {self.name!r}: values "
                    + "; ".join(" and ".join(repr(v) for v in group) for group in collisions)
                    + " cannot be told apart (they are the same after case and spacing are ignored)"
                )
        if self.type is not SlotType.date and (self.earliest is not None or self.latest is not None):
            raise ValueError("'earliest'/'latest' only apply to date slots")
        for bound in (self.earliest, self.latest):
            if bound is not None and not DATE_BOUND.match(bound):
                raise ValueError(f"date bound {bound!r} is not YYYY-MM-DD, 'today', or 'today+N'/'today-N' (days)")
            if bound is not None and not bound.startswith("today"):
                try:
                    date.fromisoformat(bound)
                except ValueError:
                    raise ValueError(f"date bound {bound!r} is not a real date") from None
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

DATE_BOUND = re.compile(r"^(?:\d{4}-\d{2}-\d{2}|today(?:[+-]\d{1,5})?)$")
"""An ``earliest``/``latest`` date bound: an ISO date, or today shifted by a number of days."""


def value_key(text: str) -> str:
    """How the engine compares a categorical value with what the user wrote.

    Case and runs of spaces/underscores are ignored, and so is a hyphen *between* two words
    (``new-york`` is ``new york``). Every other character counts: ``A+`` and ``A-``, ``O-`` and
    ``O`` stay apart, so a value the flow keeps apart is never merged with another.
    """
    folded = re.sub(r"(?<=\w)-(?=\w)", " ", text.casefold())
    return " ".join(re.sub(r"[\s_]+", " ", folded).split())


def value_collisions(values: list[str]) -> list[list[str]]:
    """Groups of categorical values that :func:`value_key` cannot tell apart (empty: none)."""
    groups: dict[str, list[str]] = {}
    for value in values:
        groups.setdefault(value_key(value), []).append(value)
    return [group for key, group in groups.items() if len(group) > 1 or not key]


def pattern_problem(pattern: str) -> str | None:
    """Why a slot ``pattern`` cannot be used on user text, or None.

    Patterns run on every reply, so their cost must not explode: nested variable
    quantifiers (``(a+)+``) and alternatives that can match the same text inside a
    repetition (``(a|ab)*``) backtrack exponentially in Python's ``re`` and are refused.
    """
    try:
        items, _flags = regex_parse(pattern)
        search_regex(pattern)
    except (re.error, ValueError, OverflowError, RecursionError) as exc:
        return f"is not a valid regular expression: {exc}"
    culprit = _backtracking(items, inside=False)
    if culprit:
        return (
            f"can take exponential time on some replies ({culprit} inside a repetition); "
            "rewrite it without nested quantifiers or overlapping alternatives"
        )
    try:
        _overlapping_runs(items, [])
    except _TooSlow:
        return (
            "can take cubic time or worse when searched in a reply (two long repetitions in a row that can "
            "match the same characters, like \\d+\\d+ or .*a.*); separate them with a character they cannot match"
        )
    return None


_LEADING_FLAGS = re.compile(r"^\(\?[aiLmsux]+\)")


def search_regex(pattern: str) -> re.Pattern[str]:
    """``pattern`` made to find a value inside a longer reply: its ``^``/``$`` anchors and
    leading global flags (``(?i)``) are moved out, and it must stand between word boundaries.

    (``[0-9]+\\$`` keeps its escaped dollar; ``(?i)^[a-z]{3}$`` keeps ignoring case.)
    """
    items, flags = regex_parse(pattern)
    body = pattern
    while _LEADING_FLAGS.match(body):
        body = body[_LEADING_FLAGS.match(body).end() :]  # type: ignore[union-attr]
    if items and str(items[0][0]) == "AT" and str(items[0][1]) == "AT_BEGINNING" and body.startswith("^"):
        body = body[1:]
    if items and str(items[-1][0]) == "AT" and str(items[-1][1]) == "AT_END" and body.endswith("$"):
        body = body[:-1]
    keep = flags & (re.IGNORECASE | re.MULTILINE | re.DOTALL | re.VERBOSE | re.ASCII)
    return re.compile(r"(?<!\w)(?:" + body + r")(?!\w)", keep)


def _backtracking(items: Any, *, inside: bool) -> str | None:
    """The first construct of a parsed regex that backtracks exponentially, or None."""
    for op, arg in items:
        name = str(op)
        if name in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"):
            low, high, sub = arg
            variable = high != low
            if variable and inside and name != "POSSESSIVE_REPEAT":
                return "a variable quantifier"
            found = _backtracking(sub, inside=inside or (variable and name != "POSSESSIVE_REPEAT"))
            if found:
                return found
        elif name == "SUBPATTERN":
            found = _backtracking(arg[-1], inside=inside)
            if found:
                return found
        elif name == "ATOMIC_GROUP":
            continue
        elif name == "BRANCH":
            branches = arg[1]
            if inside and not _distinct_starts(branches):
                return "alternatives that can start alike"
            for branch in branches:
                found = _backtracking(branch, inside=inside)
                if found:
                    return found
        elif name in ("ASSERT", "ASSERT_NOT"):
            found = _backtracking(arg[1], inside=inside)
            if found:
                return found
        elif name == "GROUPREF_EXISTS":
            return "a conditional group"
        elif name == "GROUPREF" and inside:
            return "a back-reference"
    return None


class _TooSlow(Exception):
    pass


_ALL = None  # a character set too large to list: overlaps everything
_CharSet = frozenset[int] | None


def _overlap(a: _CharSet, b: _CharSet) -> bool:
    return a is None or b is None or not a.isdisjoint(b)


# Character classes as sets: ASCII members listed, the non-ASCII rest as one stand-in each.
_UNICODE_LETTER, _UNICODE_DIGIT, _UNICODE_SPACE = -1, -2, -3
_DIGITS = frozenset(range(48, 58)) | {_UNICODE_DIGIT}
_WORD = frozenset(c for c in range(128) if chr(c).isalnum() or chr(c) == "_") | {_UNICODE_LETTER, _UNICODE_DIGIT}
_SPACES = frozenset(map(ord, " \t\n\r\f\v")) | {_UNICODE_SPACE}
_CATEGORIES = {"CATEGORY_DIGIT": _DIGITS, "CATEGORY_WORD": _WORD, "CATEGORY_SPACE": _SPACES}


def _code(code: int) -> set[int]:
    ch = chr(code)
    out = {code}
    if code > 127:
        out |= {_UNICODE_LETTER} if ch.isalnum() or ch == "_" else set()
        out |= {_UNICODE_DIGIT} if ch.isdigit() else set()
        out |= {_UNICODE_SPACE} if ch.isspace() else set()
    return out


def _char_set(items: Any) -> _CharSet:
    """Every character ``items`` can match (``None``: too many to list)."""
    chars: set[int] = set()
    for op, arg in items:
        name = str(op)
        if name == "LITERAL":
            chars |= _code(arg)
        elif name == "CATEGORY" and str(arg) in _CATEGORIES:
            chars |= _CATEGORIES[str(arg)]
        elif name == "IN":
            for member_op, member in arg:
                member_name = str(member_op)
                if member_name == "LITERAL":
                    chars |= _code(member)
                elif member_name == "RANGE" and member[1] - member[0] <= 512:
                    for code in range(member[0], member[1] + 1):
                        chars |= _code(code)
                elif member_name == "CATEGORY" and str(member) in _CATEGORIES:
                    chars |= _CATEGORIES[str(member)]
                else:
                    return _ALL  # negation, \\W, \\S, \\D, wide ranges
        elif name in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"):
            inner = _char_set(arg[2])
            if inner is None:
                return _ALL
            chars |= inner
        elif name == "SUBPATTERN":
            inner = _char_set(arg[-1])
            if inner is None:
                return _ALL
            chars |= inner
        elif name == "BRANCH":
            for branch in arg[1]:
                inner = _char_set(branch)
                if inner is None:
                    return _ALL
                chars |= inner
        elif name in ("AT", "ASSERT", "ASSERT_NOT"):
            continue
        else:
            return _ALL
    return frozenset(chars)


def _overlapping_runs(items: Any, pending: list[_CharSet], budget: list[int] | None = None) -> list[_CharSet]:
    """Follow a sequence, keeping the character sets of the long repetitions that can still run into
    each other: two in a row that can match one character cost quadratic time from each start, and
    a value is searched for from every start of the reply. Raises :class:`_TooSlow`.

    A short repetition (``{2}``, ``?``, ``{1,3}``) is followed as its body twice: the first passes
    it must make, then the ones it may skip (nothing in those separates runs); twice is enough to
    see a run meet itself.
    """
    budget = budget if budget is not None else [20_000]
    for op, arg in items:
        budget[0] -= 1
        if budget[0] < 0:
            raise _TooSlow  # too intricate to check: refused rather than trusted
        name = str(op)
        if name in ("MAX_REPEAT", "MIN_REPEAT"):
            low, high, sub = arg
            if high - low > 16:  # a long run: it can take over what the next run matches
                _overlapping_runs(sub, [], budget)
                chars = _char_set(sub)
                if any(_overlap(p, chars) for p in pending):
                    raise _TooSlow
                pending = [chars] if low > 0 else _merge(pending, [chars])
            else:
                for index in range(min(high, 2)):
                    if index < low:
                        pending = _overlapping_runs(sub, pending, budget)
                    else:
                        pending = _merge(pending, _overlapping_runs(sub, list(pending), budget))
        elif name == "SUBPATTERN":
            pending = _overlapping_runs(arg[-1], pending, budget)
        elif name == "BRANCH":
            merged: list[_CharSet] = []
            for branch in arg[1]:
                merged = _merge(merged, _overlapping_runs(branch, list(pending), budget))
            pending = merged
        elif name in ("LITERAL", "IN", "ANY", "NOT_LITERAL", "CATEGORY"):
            pending = _separated(pending, _char_set([(op, arg)]) if name in ("LITERAL", "IN", "CATEGORY") else _ALL)
    return pending


def _merge(first: list[_CharSet], second: list[_CharSet]) -> list[_CharSet]:
    out = list(first)
    for chars in second:
        if chars not in out:
            out.append(chars)
    return out


def _separated(pending: list[_CharSet], mandatory: _CharSet) -> list[_CharSet]:
    """A character every match must contain ends the runs that cannot match it."""
    return [p for p in pending if _overlap(p, mandatory)]


def _distinct_starts(branches: Any) -> bool:
    """True when every alternative starts with its own literal character (no two can match alike)."""
    starts: set[int] = set()
    for branch in branches:
        first = list(branch)[:1]
        if not first or str(first[0][0]) != "LITERAL" or first[0][1] in starts:
            return False
        starts.add(first[0][1])
    return True


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


class Choice(_Model):
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

AnyNode = Union[RequestNode, ExternalActionNode, InformNode, ConfirmNode, EndNode]
"""Any node (the union ``Node`` validates into)."""


class Edge(_Model):
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


class GlobalAction(_Model):
    """An intent the user may express at any point (e.g. "hello")."""

    intent: Annotated[str, Field(pattern=IDENT), NOT_RESERVED]
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
    committed: str | None = Field(
        None,
        description="Said when a correction is refused because an action that commits (\"commits\": true) has "
        "already run with the old value (default: the engine's sentence naming the slot).",
    )
    ended: str | None = Field(
        None, description="Said to any message after the conversation has ended (default: the engine's sentence)."
    )


class FlowOptions(_Model):
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
    fallbacks: Fallbacks = Field(default_factory=Fallbacks)  # type: ignore[arg-type]
    options: FlowOptions = Field(default_factory=FlowOptions, description="Engine leniencies this flow opts into.")  # type: ignore[arg-type]

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
        return _bfs(self._index().successors, [node_id])

    def action_arguments(self, node: ExternalActionNode) -> dict[str, ArgSource]:
        """The node's argument mapping; by default every slot requested upstream."""
        if node.arguments is not None:
            return node.arguments
        return dict(self._index().upstream_slots(node.id))


class _FlowIndex:
    """The tables behind :class:`Flow`'s lookups (see ``Flow._index``)."""

    def __init__(self, flow: Flow):
        self.flow = flow
        self.nodes: dict[str, Any] = {}
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
                    slot.name: slot.name for i, request in enumerate(requests) if mask >> i & 1 for slot in request.slots
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
                        issues.append(FlowIssue(path or "(flow)", "a key with an unpaired surrogate (not valid Unicode)"))
                        continue
                    if _PLAIN_KEY.match(key_text):  # paths as the loader writes them (quoted when odd)
                        step = f".{key_text}" if path else key_text
                    else:
                        step = f"[{orjson.dumps(key_text).decode()}]"
                    stack.append((item, path + step, depth + 1))
            else:
                for index, item in reversed(list(enumerate(value))):
                    node_id = item.get("id") if isinstance(item, dict) else None
                    plain_id = isinstance(node_id, int) or (isinstance(node_id, str) and _is_lone_surrogate_free(node_id))
                    label = f"({node_id})" if plain_id else ""
                    stack.append((item, f"{path}[{index}]{label}", depth + 1))
    return issues


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
        if edge.count is not None:
            counted = flow.slots().get(edge.count)
            if counted is None:
                add(where, f"count: no request node asks for slot {edge.count!r}")
            elif counted.type is not SlotType.integer:
                add(where, f"count: slot {edge.count!r} is {counted.type.value}, not integer")

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

    reach: dict = {}
    for node in flow.nodes:
        _check_node_refs(flow, nodes, slot_owner, node, add, reach)
    for ga in flow.global_actions:
        if ga.response:
            _check_template(flow, nodes, slot_owner, None, ga.response, f"global_action {ga.intent}.response", add, reach)
    for name in ("goodbye", "out_of_scope", "anything_else", "cannot_continue", "committed", "ended"):
        template = getattr(flow.fallbacks, name)
        if template:
            _check_template(flow, nodes, slot_owner, None, template, f"fallbacks.{name}", add, reach)
    return issues


def _check_node_refs(flow: Flow, nodes: dict, slot_owner: dict, node: Any, add, reach: dict) -> None:
    where = f"node {node.id}"
    if isinstance(node, RequestNode):
        for slot in node.slots:
            if slot.ask:
                _check_template(flow, nodes, slot_owner, node.id, slot.ask, f"{where}.slots.{slot.name}.ask", add, reach)
            if slot.invalid:
                _check_template(flow, nodes, slot_owner, node.id, slot.invalid, f"{where}.slots.{slot.name}.invalid", add, reach)
            if isinstance(slot.confirm, str):
                _check_template(flow, nodes, slot_owner, node.id, slot.confirm, f"{where}.slots.{slot.name}.confirm", add, reach)
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
        _check_template(flow, nodes, slot_owner, node.id, node.message, f"{where}.message", add, reach)
    elif isinstance(node, ConfirmNode):
        _check_template(flow, nodes, slot_owner, node.id, node.change_question, f"{where}.change_question", add, reach)
        _check_template(flow, nodes, slot_owner, node.id, node.message, f"{where}.message", add, reach)
        _check_template(flow, nodes, slot_owner, node.id, node.question, f"{where}.question", add, reach)
    elif isinstance(node, EndNode) and node.message:
        _check_template(flow, nodes, slot_owner, node.id, node.message, f"{where}.message", add, reach)


def _check_result_ref(nodes: dict, node_id: str, field: str, where: str, add) -> None:
    action = nodes.get(node_id)
    if not isinstance(action, ExternalActionNode):
        add(where, f"{node_id!r} is not an external_action node")
    elif field not in action.result:
        declared = ", ".join(action.result) or "nothing"
        add(where, f"action {node_id!r} does not declare result field {field!r} (declares {declared})")


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


_SLOT_VALUE_TYPES: dict[SlotType, tuple[str, Any]] = {
    SlotType.integer: ("a number", lambda v: isinstance(v, (int, float)) and not isinstance(v, bool)),
    SlotType.number: ("a number", lambda v: isinstance(v, (int, float)) and not isinstance(v, bool)),
    SlotType.boolean: ("true or false", lambda v: isinstance(v, bool)),
    SlotType.string: ("a string", lambda v: isinstance(v, str)),
    SlotType.categorical: ("a string", lambda v: isinstance(v, str)),
    SlotType.date: ("a date YYYY-MM-DD", lambda v: isinstance(v, str) and bool(re.fullmatch(r"\d{4}-\d{2}-\d{2}", v))),
    SlotType.time: ("a time HH:MM", lambda v: isinstance(v, str) and bool(re.fullmatch(r"\d{2}:\d{2}", v))),
}
_FIELD_VALUE_TYPES: dict[FieldType, tuple[str, Any]] = {
    FieldType.integer: _SLOT_VALUE_TYPES[SlotType.integer],
    FieldType.number: _SLOT_VALUE_TYPES[SlotType.number],
    FieldType.boolean: _SLOT_VALUE_TYPES[SlotType.boolean],
    FieldType.string: _SLOT_VALUE_TYPES[SlotType.string],
    FieldType.list: ("a list", lambda v: isinstance(v, list)),
    FieldType.object: ("an object", lambda v: isinstance(v, dict)),
}


def _compared_values(cond: _Comparison) -> list[Any]:
    if cond.op in _NO_VALUE_OPS or cond.value is None:
        return []
    return [v for v in cond.value if v is not None] if cond.op in _LIST_OPS else [cond.value]


def _check_value_types(
    slot: Slot | None, field: ResultField | None, cond: _Comparison, what: str, where: str, add, *, fold: bool = False
) -> None:
    """A comparison whose value can never equal (or be ordered against) what it compares is an authoring error.

    ``fold``: the flow compares text ignoring case (``options.case_insensitive_values``)."""
    kind = _SLOT_VALUE_TYPES.get(slot.type) if slot is not None else _FIELD_VALUE_TYPES.get(field.type) if field else None
    if kind is None:
        return
    expected, fits = kind
    for value in _compared_values(cond):
        if not fits(value):
            add(where, f"{what} is compared with {value!r}, but its values are {expected}")
        elif slot is not None and slot.type is SlotType.categorical and not _one_of(value, slot.values or [], fold):
            add(where, f"{what} is compared with {value!r}, which is not one of its values ({', '.join(slot.values or ())})")


def _one_of(value: str, values: list[str], fold: bool) -> bool:
    return value.casefold() in {v.casefold() for v in values} if fold else value in values


def _check_condition(flow: Flow, nodes: dict, slot_owner: dict, source: str, cond: Any, where: str, add) -> None:
    src = nodes[source]
    for sub in iter_conditions(cond):
        if isinstance(sub, SlotCondition) and sub.slot not in slot_owner:
            add(where, f"condition on unknown slot {sub.slot!r}")
        elif isinstance(sub, SlotCondition):
            owner = nodes.get(slot_owner[sub.slot])
            slot = next((s for s in getattr(owner, "slots", ()) if s.name == sub.slot), None)
            fold = flow.options.case_insensitive_values
            _check_value_types(slot, None, sub, f"slot {sub.slot!r}", where, add, fold=fold)
        elif isinstance(sub, ResultCondition):
            _check_result_ref(nodes, sub.node or source, sub.result, where, add)
            action = nodes.get(sub.node or source)
            if isinstance(action, ExternalActionNode) and sub.result in action.result:
                _check_value_types(None, action.result[sub.result], sub, f"result field {sub.result!r}", where, add)
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


MAX_TEMPLATE_CHARS = 5000
"""Longest template (message, question, response) a flow may write."""
MAX_FORMAT_WIDTH = 200
"""Widest field and largest precision a template's format spec may ask for (``{price:>10.2f}``)."""

_FORMAT_SPEC = re.compile(
    r"^(?:(?P<fill>.)?(?P<align>[<>=^]))?(?P<sign>[-+ ])?z?#?0?(?P<width>\d+)?[,_]?"
    r"(?:\.(?P<precision>\d+))?(?P<type>[bcdeEfFgGnosxX%])?$",
    re.DOTALL,
)


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


def _check_template(
    flow: Flow, nodes: dict, slot_owner: dict, node_id: str | None, template: str, where, add, reach: dict
) -> None:
    if len(template) > MAX_TEMPLATE_CHARS:
        add(where, f"template of {len(template)} characters, more than {MAX_TEMPLATE_CHARS}")
        return
    try:
        parts = parse_template(template)
    except ValueError as exc:
        add(where, str(exc))
        return
    if ("slots",) not in reach:
        reach[("slots",)] = flow.slots()
    slots = reach[("slots",)]
    for _, field, spec in parts:
        if field is None or not spec:
            continue
        problem = format_spec_problem(spec)
        if problem:
            add(where, f"placeholder {{{field}:{spec}}}: the format spec {problem}")
        elif field in slots and slots[field].type in (SlotType.date, SlotType.time):
            add(
                where,
                f"placeholder {{{field}:{spec}}}: {slots[field].type.value} values are shown as written "
                f"(YYYY-MM-DD / HH:MM); a format spec is not applied to them",
            )
    fields = [field for _, field, _ in parts if field is not None]
    if not fields:
        return
    for field in fields:
        head, _, tail = field.partition(".")
        if not tail:
            if head not in slot_owner:
                add(where, f"placeholder {{{field}}} is bound to nothing (no slot {head!r})")
        elif head == "result":
            if node_id is not None and node_id not in _after_result_field(flow, nodes, tail, reach):
                add(where, f"placeholder {{{field}}} is bound to nothing (no action before it declares {tail!r})")
            elif node_id is None and not any(isinstance(n, ExternalActionNode) and tail in n.result for n in nodes.values()):
                add(where, f"placeholder {{{field}}} is bound to nothing (no action before it declares {tail!r})")
        elif head in nodes:
            _check_result_ref(nodes, head, tail, where, add)
        else:
            add(where, f"placeholder {{{field}}} is bound to nothing (no node {head!r})")


def _after_result_field(flow: Flow, nodes: dict, field: str, cache: dict) -> frozenset[str]:
    """Nodes reachable from (after) an action that declares result ``field``; one search per field
    name (``cache`` keeps them for one check), so checking every template stays linear in the flow."""
    if field not in cache:
        succ = cache.setdefault(None, flow.successors())
        starts = [t for n in nodes.values() if isinstance(n, ExternalActionNode) and field in n.result for t in succ[n.id]]
        cache[field] = frozenset(_bfs(succ, starts))
    return cache[field]


# ------------------------------------------------------------------ warnings


def flow_warnings(flow: Flow) -> list[FlowIssue]:
    """Things in a valid flow that are probably not what its author meant (``fsmdial validate`` shows them).

    Today: conditional edges that can never be taken, inform nodes that wait, confirmations with no
    way on for "yes", end nodes that ask a question. A node's conditional edges are tried in
    document order and the first that holds is followed (its unconditional edge, if any, last);
    an edge whose condition implies the condition of an earlier edge never wins.
    """
    warnings: list[FlowIssue] = []
    outgoing: dict[str, list[Edge]] = {node.id: [] for node in flow.nodes}
    for edge in flow.edges:
        outgoing.setdefault(edge.source, []).append(edge)
    for node in flow.nodes:
        if isinstance(node, InformNode) and not outgoing[node.id]:
            warnings.append(
                FlowIssue(
                    f"node {node.id}",
                    "an inform node with no outgoing edge: the dialogue waits here, not ended, until the user "
                    "corrects a value or says goodbye; make it an end node if the conversation is over",
                )
            )
        elif isinstance(node, EndNode) and (node.message or "").rstrip().endswith("?"):
            warnings.append(
                FlowIssue(
                    f"node {node.id}",
                    "an end node that asks a question: on its own the flow is over, so any answer only hears "
                    "that it has ended (in an Assistant the answer goes on to another flow, which may be meant); "
                    "close it with a statement, or make it an inform_and_confirm node",
                )
            )
        elif isinstance(node, ConfirmNode) and node.choices is None and outgoing[node.id]:
            if not any(_may_follow_yes(edge.when) for edge in outgoing[node.id]):
                warnings.append(
                    FlowIssue(
                        f"node {node.id}",
                        "no outgoing edge can be taken when the user answers 'yes': the question is asked again; "
                        'add an edge with {"answer": "yes"} (or an unconditional one) unless that is meant',
                    )
                )
    for edges in outgoing.values():
        edges = [edge for edge in edges if edge.when is not None]
        for index, edge in enumerate(edges):
            for earlier in edges[:index]:
                if earlier.on_decline == edge.on_decline and implies(edge.when, earlier.when):
                    warnings.append(
                        FlowIssue(
                            _edge_name(edge),
                            f"never taken: the earlier {_edge_name(earlier)} holds whenever this one does "
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
    same = (
        (isinstance(a, SlotCondition) and isinstance(b, SlotCondition) and a.slot == b.slot)
        or (isinstance(a, ResultCondition) and isinstance(b, ResultCondition) and (a.result, a.node) == (b.result, b.node))
    )
    if not same:
        return False
    return _comparison_implies(a, b)


def _comparison_implies(a: _Comparison, b: _Comparison) -> bool:
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
        return a.value < b.value if up_a else a.value > b.value
    return False


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _holds(cond: _Comparison, value: Any) -> bool:
    """Whether comparison ``cond`` holds for a slot/field equal to ``value`` (False when unsure)."""
    op, ref = cond.op, cond.value
    if op == "eq":
        return value == ref
    if op == "ne":
        return value != ref and value is not None
    if op == "in":
        return value in ref
    if op == "not_in":
        return value is not None and value not in ref
    if op in _RANGE_OPS and _number(value) and _number(ref):
        return {"lt": value < ref, "le": value <= ref, "gt": value > ref, "ge": value >= ref}[op]
    return False


# ------------------------------------------------------- graph walks (public)


def neighbours(node_ids: Iterable[str], pairs: Iterable[tuple[str, str]]) -> dict[str, list[str]]:
    """Node -> the nodes ``pairs`` lead it to, for every node of ``node_ids`` (none: an empty list).

    (source, target) pairs give successors, (target, source) pairs predecessors. For graphs that are
    not a valid :class:`Flow` yet, such as a flow document an importer is still building.
    """
    out: dict[str, list[str]] = {node_id: [] for node_id in node_ids}
    for node_id, other in pairs:
        out.setdefault(node_id, []).append(other)
    return out


def reachable(graph: dict[str, list[str]], roots: Iterable[str]) -> list[str]:
    """Nodes of ``graph`` reachable from ``roots`` (roots included), breadth-first, in the order met."""
    return _bfs(graph, list(roots))
