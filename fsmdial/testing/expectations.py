"""What a scripted turn expects of the bot's reply, and what differs from it.

An :class:`ExpectedTurn` is the user's text and what the bot must do in reply (acts, messages, slots, tool
calls, node, ended, an error); anything it leaves out is not checked. :func:`check_turn` lists what differs
between it and a turn's result, in words a test failure can show as they are.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..conversation import Conversation
    from ..trace import Act, ToolCall, TurnResult

__all__ = [
    "ABSENT",
    "ANY",
    "UNSET",
    "ExpectedAct",
    "ExpectedCall",
    "ExpectedTurn",
    "act",
    "call",
    "check_turn",
    "expected_from_data",
    "pattern",
]


class _Absent:
    __slots__ = ()

    def __repr__(self) -> str:
        return "ABSENT"


class _AnyValue:
    """Equal to everything (like ``unittest.mock.ANY``, without importing ``unittest.mock``)."""

    __slots__ = ()

    def __eq__(self, other: object) -> bool:
        return True

    def __ne__(self, other: object) -> bool:
        return False

    __hash__ = object.__hash__

    def __repr__(self) -> str:
        return "ANY"


ANY: Any = _AnyValue()
"""Expected value that matches any value (a slot must still be set, an argument still present)."""

ABSENT: Any = _Absent()
"""Expected slot value meaning "this slot must not be set" (``slots={"day": ABSENT}``; in a data file
``{"$absent": true}``). ``None`` is not that: no slot holds None, so expecting None always fails."""

UNSET: Any = ABSENT
"""The same marker as :data:`ABSENT`, by the other name people reach for."""

Text = str | re.Pattern[str]
"""An exact text, or a compiled pattern that must be found in it (``re.search``)."""


def pattern(regex: str, flags: int = 0) -> re.Pattern[str]:
    """A pattern for a message, act text or slot value: matches when ``re.search`` finds it."""
    return re.compile(regex, flags)


@dataclass(frozen=True)
class ExpectedAct:
    """An act the bot must perform; fields left as None are not checked."""

    name: str | None = None
    kind: str | None = None
    text: Text | None = None
    slot: str | None = None
    node: str | None = None

    def problems(self, actual: Act) -> list[str]:
        wrong = []
        for key in ("name", "kind", "slot", "node"):
            expected = getattr(self, key)
            if expected is not None and expected != getattr(actual, key):
                wrong.append(f"{key} {getattr(actual, key)!r} is not {expected!r}")
        if self.text is not None and not _text_matches(self.text, actual.text):
            wrong.append(f"text {actual.text!r} does not match {show_text(self.text)}")
        return wrong

    def describe(self) -> str:
        head = ":".join(part for part in (self.kind, self.name) if part) or "(any act)"
        extra = [f"{key}={getattr(self, key)}" for key in ("slot", "node") if getattr(self, key) is not None]
        if self.text is not None:
            extra.append(show_text(self.text))
        return " ".join([head, *extra])


def act(
    name: str | None = None,
    *,
    kind: str | None = None,
    text: Text | None = None,
    slot: str | None = None,
    node: str | None = None,
) -> ExpectedAct:
    """An expected act with more than its name: ``act("ask_quantity", kind="ask", text=pattern("How many"))``."""
    return ExpectedAct(name, kind, text, slot, node)


@dataclass(frozen=True)
class ExpectedCall:
    """A tool call the bot must make.

    ``arguments`` must equal the call's arguments exactly (use :data:`ANY` for a value that may be
    anything); ``result`` lists result fields that must have these values; ``status`` is
    ``"success"`` or ``"failure"``. None means not checked.
    """

    tool: str
    arguments: Mapping[str, Any] | None = None
    status: str | None = None
    result: Mapping[str, Any] | None = None

    def problems(self, actual: ToolCall) -> list[str]:
        wrong = []
        if actual.tool != self.tool:
            wrong.append(f"tool {actual.tool!r} is not {self.tool!r}")
        if self.arguments is not None:
            wrong.extend(_mapping_problems("argument", dict(self.arguments), actual.arguments, exact=True))
        if self.status is not None and actual.status != self.status:
            wrong.append(f"status {actual.status!r} is not {self.status!r}")
        if self.result is not None:
            wrong.extend(_mapping_problems("result field", dict(self.result), actual.result or {}, exact=False))
        return wrong

    def describe(self) -> str:
        text = self.tool + ("(" + show_args(self.arguments) + ")" if self.arguments is not None else "(...)")
        if self.status is not None:
            text += f" -> {self.status}"
        if self.result is not None:
            text += f" {show_args(self.result, braces=True)}"
        return text


def call(
    tool: str,
    arguments: Mapping[str, Any] | None = None,
    *,
    status: str | None = None,
    result: Mapping[str, Any] | None = None,
) -> ExpectedCall:
    """An expected tool call: ``call("place_order", {"pizza": "funghi", "quantity": 1}, status="success")``."""
    return ExpectedCall(tool, arguments, status, result)


ActSpec = str | ExpectedAct | Mapping[str, Any]
CallSpec = str | ExpectedCall | Mapping[str, Any]


@dataclass
class ExpectedTurn:
    """One step of a script: the user's text (None: the bot's opening) and the expected reply.

    * ``acts``: the bot's acts, in order; a string is an act name, :func:`act` says more;
    * ``messages``: the bot's messages, in order, exact strings or :func:`pattern` s;
    * ``slots``: slot values after the turn (only those named; :data:`ABSENT`: not set); for an
      :class:`~fsmdial.assistant.Assistant` a plain name is the active flow's slot, ``"flow.slot"`` that flow's;
    * ``tool_calls``: the tool calls of the turn, in order; a string is a tool name, :func:`call` says more;
    * ``node``: the node the dialogue is at after the turn; ``ended``: whether it is over;
    * ``raises``: the turn must fail with this error (the session is then unchanged);
    * ``flow``: the flow that answered (an Assistant's; a Dialogue's is its own flow).

    From data (:meth:`of` with a mapping, as JSON files give it) a value may be ``{"$pattern": regex}``,
    ``{"$any": true}`` or ``{"$absent": true}`` (:func:`expected_from_data`).
    """

    user: str | None
    acts: Sequence[ActSpec] | None = None
    messages: Sequence[Text] | None = None
    slots: Mapping[str, Any] | None = None
    tool_calls: Sequence[CallSpec] | None = None
    node: str | None = None
    ended: bool | None = None
    raises: type[BaseException] | tuple[type[BaseException], ...] | None = None
    flow: str | None = None

    @classmethod
    def start(cls, **expect: Any) -> ExpectedTurn:
        """The bot's opening (:meth:`Dialogue.start`), with expectations as keywords."""
        return cls(None, **expect)

    @classmethod
    def of(cls, spec: ExpectedTurn | str | None | Mapping[str, Any]) -> ExpectedTurn:
        """A turn from an :class:`ExpectedTurn`, a bare user text (None: the opening), or a mapping with the same
        keys."""
        if isinstance(spec, ExpectedTurn):
            return spec
        if spec is None or isinstance(spec, str):
            return cls(spec)
        if isinstance(spec, Mapping):
            known = {f.name for f in fields(cls)}
            unknown = sorted(set(spec) - known)
            if unknown:
                raise TypeError(
                    f"unknown key(s) {', '.join(map(repr, unknown))} in a scripted turn "
                    f"(known: {', '.join(sorted(known))})"
                )
            if "user" not in spec:
                raise TypeError("a scripted turn needs 'user' (the user's text, or None for the bot's opening)")
            return cls(**_turn_from_data(spec))
        raise TypeError(f"a scripted turn is an ExpectedTurn, a string, None or a mapping, not {type(spec).__name__}")

    @property
    def label(self) -> str:
        return "the bot's opening" if self.user is None else f"user said {self.user!r}"


def check_turn(dialogue: Conversation, turn: ExpectedTurn, result: TurnResult) -> list[str]:
    """What differs between ``turn`` 's expectations and ``result`` (empty when it went as expected).

    ``dialogue`` is the conversation the turn was played on: a Dialogue or an Assistant."""
    problems: list[str] = []
    if turn.acts is not None:
        problems.extend(_act_problems([expected_act(spec) for spec in turn.acts], result.acts))
    if turn.messages is not None:
        problems.extend(_message_problems(list(turn.messages), result.messages))
    if turn.slots is not None:
        for where, expected in _slots_by_flow(dict(turn.slots)).items():
            try:
                held = held_slots(dialogue, where)
            except KeyError as exc:
                problems.append(str(exc.args[0]))
                continue
            problems.extend(_slot_problems(expected, held, where))
    if turn.tool_calls is not None:
        problems.extend(_call_problems([expected_call(spec) for spec in turn.tool_calls], result.tool_calls))
    if turn.node is not None and result.node != turn.node:
        problems.append(f"node: expected {turn.node!r}, the dialogue is at {result.node!r}")
    if turn.ended is not None and result.ended != turn.ended:
        problems.append(f"ended: expected {turn.ended}, got {result.ended}")
    if turn.flow is not None and answered_by(dialogue, result) != turn.flow:
        problems.append(f"flow: expected {turn.flow!r}, {_answered(answered_by(dialogue, result))}")
    return problems


def answered_by(conversation: Conversation, result: TurnResult) -> str | None:
    """The flow that answered: an Assistant's result names it; a Dialogue's is its own flow."""
    if result.flow is not None:
        return result.flow
    flow = getattr(conversation, "flow", None)
    return getattr(flow, "name", None)


def _answered(flow: str | None) -> str:
    return "no flow answered (the assistant was choosing one)" if flow is None else f"{flow!r} answered"


def _slots_by_flow(expected: dict[str, Any]) -> dict[str | None, dict[str, Any]]:
    """Expected slots grouped by flow: ``"flow.slot"`` keys under the flow, plain names under None (the active
    flow's; a slot name has no dot, a flow name may)."""
    grouped: dict[str | None, dict[str, Any]] = {}
    for key, want in expected.items():
        flow, _, slot = key.rpartition(".")
        grouped.setdefault(flow or None, {})[slot if flow else key] = want
    return grouped


def held_slots(conversation: Conversation, flow: str | None) -> dict[str, Any]:
    """The slots a conversation holds: its (active flow's) own for ``flow`` None, else that flow's (an
    Assistant's flow not started holds none). A flow the conversation does not have is a ``KeyError`` naming it."""
    if flow is None:
        return conversation.slots
    dialogues = getattr(conversation, "dialogues", None)
    if dialogues is None:  # a Dialogue: its own flow's name may be given
        own = getattr(getattr(conversation, "flow", None), "name", None)
        if flow != own:
            raise KeyError(f"slots of flow {flow!r}: this dialogue runs flow {own!r}")
        return conversation.slots
    if flow not in getattr(conversation, "flows", {}):
        known = ", ".join(sorted(getattr(conversation, "flows", {})))
        raise KeyError(f"slots of flow {flow!r}: the assistant has no such flow (it has {known})")
    dialogue = dialogues.get(flow)
    return dict(dialogue.slots) if dialogue is not None else {}


def expected_act(spec: ActSpec) -> ExpectedAct:
    if isinstance(spec, ExpectedAct):
        return spec
    if isinstance(spec, str):
        return ExpectedAct(name=spec)
    if isinstance(spec, Mapping):
        return ExpectedAct(**spec)
    raise TypeError(f"an expected act is a name, act(...) or a mapping, not {type(spec).__name__}")


def expected_call(spec: CallSpec) -> ExpectedCall:
    if isinstance(spec, ExpectedCall):
        return spec
    if isinstance(spec, str):
        return ExpectedCall(spec)
    if isinstance(spec, Mapping):
        return ExpectedCall(**spec)
    raise TypeError(f"an expected tool call is a tool name, call(...) or a mapping, not {type(spec).__name__}")


def expected_from_data(value: Any) -> Any:
    """An expected value as a data file (JSON) spells it: ``{"$pattern": regex}`` -> :func:`pattern`,
    ``{"$any": true}`` -> :data:`ANY`, ``{"$absent": true}`` -> :data:`ABSENT`; anything else as it is."""
    if isinstance(value, Mapping) and len(value) == 1:
        ((key, inner),) = value.items()
        if key == "$pattern":
            if not isinstance(inner, str):
                raise TypeError(f'{{"$pattern": ...}} takes a regular expression, not {type(inner).__name__}')
            return re.compile(inner)
        if key in ("$any", "$absent"):
            if inner is not True:
                raise TypeError(f'write {{"{key}": true}}, not {{"{key}": {inner!r}}}')
            return ANY if key == "$any" else ABSENT
    return value


def _values_from_data(values: Any) -> Any:
    return {k: expected_from_data(v) for k, v in values.items()} if isinstance(values, Mapping) else values


def _turn_from_data(spec: Mapping[str, Any]) -> dict[str, Any]:
    """A scripted turn's mapping with the data spellings of expected values read (slots, messages, act texts,
    tool call arguments and results)."""
    turn = dict(spec)
    if isinstance(turn.get("slots"), Mapping):
        turn["slots"] = _values_from_data(turn["slots"])
    if isinstance(turn.get("messages"), list):
        turn["messages"] = [expected_from_data(m) for m in turn["messages"]]
    if isinstance(turn.get("acts"), list):
        turn["acts"] = [
            {**a, "text": expected_from_data(a["text"])} if isinstance(a, Mapping) and "text" in a else a
            for a in turn["acts"]
        ]
    if isinstance(turn.get("tool_calls"), list):
        turn["tool_calls"] = [
            {**c, **{k: _values_from_data(c[k]) for k in ("arguments", "result") if k in c}}
            if isinstance(c, Mapping)
            else c
            for c in turn["tool_calls"]
        ]
    return turn


def _list_problems(
    noun: tuple[str, str, str], expected: list[Any], actual: list[Any], show: Callable[[Any], str], sep: str
) -> list[str]:
    """Expected acts or calls against the actual ones, in order: ``noun`` is (one, heading, none)."""
    one, heading, none = noun
    wrong = [
        f"{one} {i + 1}: " + "; ".join(p)
        for i, (e, a) in enumerate(zip(expected, actual, strict=False))
        if (p := e.problems(a))
    ]
    if not wrong and len(expected) == len(actual):
        return []
    return [
        f"{heading} differ"
        + (f" ({'; '.join(wrong)})" if wrong else f" (expected {len(expected)}, got {len(actual)})"),
        "  expected: " + (sep.join(e.describe() for e in expected) or f"({none})"),
        "  actual:   " + (sep.join(show(a) for a in actual) or f"({none})"),
    ]


def _act_problems(expected: list[ExpectedAct], actual: list[Act]) -> list[str]:
    return _list_problems(("act", "acts", "no acts"), expected, actual, lambda a: f"{a.kind}:{a.name}", ", ")


def _message_problems(expected: list[Text], actual: list[str]) -> list[str]:
    if len(expected) == len(actual) and all(_text_matches(e, a) for e, a in zip(expected, actual, strict=False)):
        return []
    lines = ["messages differ"]
    for i in range(max(len(expected), len(actual))):
        want = show_text(expected[i]) if i < len(expected) else "(none)"
        got = repr(actual[i]) if i < len(actual) else "(none)"
        ok = i < len(expected) and i < len(actual) and _text_matches(expected[i], actual[i])
        lines.append(f"  {'  ' if ok else '! '}{i + 1}. expected {want}")
        lines.append(f"       got      {got}")
    return lines


def _slot_problems(expected: dict[str, Any], actual: dict[str, Any], flow: str | None = None) -> list[str]:
    wrong = []
    for name, want in expected.items():
        label = f"slot {flow}.{name}" if flow else f"slot {name}"
        if want is ABSENT:
            if name in actual:
                wrong.append(f"{label}: expected not set, got {actual[name]!r}")
        elif name not in actual:
            hint = ABSENT_HINT if want is None else ""
            wrong.append(f"{label}: expected {show_value(want)}, but it is not set{hint}")
        elif not _value_matches(want, actual[name]):
            wrong.append(f"{label}: expected {show_value(want)}, got {actual[name]!r}")
    return wrong


ABSENT_HINT = (
    ' (no slot holds None: to expect a slot that is not set, use fsmdial.testing.ABSENT, {"$absent": true} in a file)'
)


def _call_problems(expected: list[ExpectedCall], actual: list[ToolCall]) -> list[str]:
    return _list_problems(("call", "tool calls", "no calls"), expected, actual, show_call, "; ")


def _mapping_problems(label: str, expected: dict[str, Any], actual: Mapping[str, Any], *, exact: bool) -> list[str]:
    wrong = []
    for key, want in expected.items():
        if key not in actual:
            wrong.append(f"{label} {key} missing (expected {show_value(want)})")
        elif not _value_matches(want, actual[key]):
            wrong.append(f"{label} {key}={actual[key]!r}, expected {show_value(want)}")
    if exact:
        wrong.extend(f"unexpected {label} {key}={actual[key]!r}" for key in actual if key not in expected)
    return wrong


def _text_matches(expected: Text, actual: str) -> bool:
    if isinstance(expected, re.Pattern):
        return expected.search(actual) is not None
    return expected == actual


def _value_matches(expected: Any, actual: Any) -> bool:
    if isinstance(expected, re.Pattern):
        return isinstance(actual, str) and expected.search(actual) is not None
    return expected == actual


# How expected and actual values are shown in a failure message (display and script show them the same way).


def show_text(value: Text) -> str:
    return f"pattern {value.pattern!r}" if isinstance(value, re.Pattern) else repr(value)


def show_value(value: Any) -> str:
    if value is ANY:
        return "any value"
    if value is ABSENT:
        return "not set"
    return show_text(value) if isinstance(value, re.Pattern) else shortened(value)


def shortened(value: Any, limit: int = 80) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def show_args(arguments: Mapping[str, Any] | None, *, braces: bool = False) -> str:
    inner = ", ".join(f"{k}={show_value(v)}" for k, v in (arguments or {}).items())
    return "{" + inner + "}" if braces else inner


def show_call(call: ToolCall) -> str:
    text = f"{call.tool}({show_args(call.arguments)}) -> {call.status}"
    if call.result is not None:
        text += f" {show_args(call.result, braces=True)}"
    if call.error:
        text += f" [{call.error}]"
    return text
