"""Test and benchmark an application's flows: scripted conversations, a frozen clock, benchmark helpers.

Everything here works without pytest; the pytest plugin (:mod:`fsmdial.pytest_plugin`) exposes it
as fixtures. A script is a list of :class:`Turn` s: the user's text and what the bot must do in
reply. Anything a turn leaves out is not checked::

    from fsmdial.testing import Conversation, Turn, call, pattern

    Conversation(dialogue).run([
        Turn.start(acts=["ask_pizza"]),
        Turn("two large pepperoni", acts=["ask_pickup_day"], slots={"quantity": 2}),
        Turn("yes", tool_calls=[call("place_order", {"pizza": "pepperoni", "quantity": 2})],
             messages=[pattern(r"order number is \\d+"), "See you!"], ended=True),
    ])

A mismatch raises :class:`ConversationMismatch` (an ``AssertionError``) whose message names the
turn, the user's text, what was expected and what happened, and the trace of that turn.

:func:`bench_turn` and :func:`bench_conversation` time one turn or a whole script with
pytest-benchmark's ``benchmark`` fixture, keeping set-up (compiling, loading a model, warming its
KV cache, restoring the session) out of the timed part.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, fields, replace
from typing import TYPE_CHECKING, Any

from .jsonvalues import jsonable

if TYPE_CHECKING:  # importing the runtime is deferred: the pytest plugin imports this module at start-up
    from .runtime import Dialogue
    from .trace import Act, ToolCall, TurnResult, TurnTrace

__all__ = [
    "ABSENT",
    "ANY",
    "DEFAULT_NOW",
    "Bench",
    "ConversationMismatch",
    "Conversation",
    "ExpectedAct",
    "ExpectedCall",
    "FrozenClock",
    "Turn",
    "act",
    "bench_conversation",
    "bench_turn",
    "call",
    "check_turn",
    "format_acts",
    "format_trace",
    "pattern",
    "run_conversation",
    "turn_costs",
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
"""Expected slot value meaning "this slot must not be set"."""

Text = str | re.Pattern[str]
"""An exact text, or a compiled pattern that must be found in it (``re.search``)."""


def pattern(regex: str, flags: int = 0) -> re.Pattern[str]:
    """A pattern for a message, act text or slot value: matches when ``re.search`` finds it."""
    return re.compile(regex, flags)


# ------------------------------------------------------------------ clock


DEFAULT_NOW = dt.datetime(2025, 6, 13, 12, 0)
"""The frozen clock's default "now": Friday 13 June 2025, noon (naive local time)."""


class FrozenClock:
    """A clock for :class:`~fsmdial.runtime.Dialogue` that returns a fixed time until told otherwise.

    Relative dates ("tomorrow", "next Friday") then resolve the same way on every run.
    """

    def __init__(self, now: dt.datetime | str = DEFAULT_NOW):
        self.now = _as_datetime(now)

    def __call__(self) -> dt.datetime:
        return self.now

    def set(self, now: dt.datetime | dt.date | str) -> dt.datetime:
        """Freeze at ``now`` (a datetime, a date meaning its midnight, or an ISO string)."""
        self.now = _as_datetime(now)
        return self.now

    def advance(self, delta: dt.timedelta | None = None, **units: float) -> dt.datetime:
        """Move forward by ``delta`` or by ``timedelta`` keyword units (``days=1``, ``minutes=30``)."""
        self.now += (delta or dt.timedelta()) + dt.timedelta(**units)
        return self.now

    def __repr__(self) -> str:
        return f"FrozenClock({self.now.isoformat()})"


def _as_datetime(value: dt.datetime | dt.date | str) -> dt.datetime:
    if isinstance(value, str):
        return dt.datetime.fromisoformat(value)
    if isinstance(value, dt.datetime):
        return value
    if isinstance(value, dt.date):
        return dt.datetime.combine(value, dt.time())
    raise TypeError(f"expected a datetime, a date or an ISO string, not {type(value).__name__}")


# ----------------------------------------------------------- expectations


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
            wrong.append(f"text {actual.text!r} does not match {_show_text(self.text)}")
        return wrong

    def describe(self) -> str:
        head = ":".join(part for part in (self.kind, self.name) if part) or "(any act)"
        extra = [f"{key}={getattr(self, key)}" for key in ("slot", "node") if getattr(self, key) is not None]
        if self.text is not None:
            extra.append(_show_text(self.text))
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
        text = self.tool + ("(" + _show_args(self.arguments) + ")" if self.arguments is not None else "(...)")
        if self.status is not None:
            text += f" -> {self.status}"
        if self.result is not None:
            text += f" {_show_args(self.result, braces=True)}"
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
class Turn:
    """One step of a script: the user's text (None: the bot's opening) and the expected reply.

    * ``acts``: the bot's acts, in order; a string is an act name, :func:`act` says more;
    * ``messages``: the bot's messages, in order, exact strings or :func:`pattern` s;
    * ``slots``: slot values after the turn (only those named; :data:`ABSENT`: not set);
    * ``tool_calls``: the tool calls of the turn, in order; a string is a tool name, :func:`call` says more;
    * ``node``: the node the dialogue is at after the turn; ``ended``: whether it is over;
    * ``raises``: the turn must fail with this error (the session is then unchanged).
    """

    user: str | None
    acts: Sequence[ActSpec] | None = None
    messages: Sequence[Text] | None = None
    slots: Mapping[str, Any] | None = None
    tool_calls: Sequence[CallSpec] | None = None
    node: str | None = None
    ended: bool | None = None
    raises: type[BaseException] | tuple[type[BaseException], ...] | None = None

    @classmethod
    def start(cls, **expect: Any) -> Turn:
        """The bot's opening (:meth:`Dialogue.start`), with expectations as keywords."""
        return cls(None, **expect)

    @classmethod
    def of(cls, spec: Turn | str | None | Mapping[str, Any]) -> Turn:
        """A turn from a :class:`Turn`, a bare user text (None: the opening), or a mapping with the same keys."""
        if isinstance(spec, Turn):
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
            return cls(**spec)
        raise TypeError(f"a scripted turn is a Turn, a string, None or a mapping, not {type(spec).__name__}")

    @property
    def label(self) -> str:
        return "the bot's opening" if self.user is None else f"user said {self.user!r}"


class ConversationMismatch(AssertionError):
    """A scripted turn did not go as expected. ``problems`` lists what differed."""

    def __init__(self, message: str, *, index: int, turn: Turn, result: TurnResult | None, problems: list[str]):
        super().__init__(message)
        self.index = index
        self.turn = turn
        self.result = result
        self.problems = problems


def check_turn(dialogue: Dialogue, turn: Turn, result: TurnResult) -> list[str]:
    """What differs between ``turn`` 's expectations and ``result`` (empty when it went as expected)."""
    problems: list[str] = []
    if turn.acts is not None:
        problems.extend(_act_problems([_expected_act(spec) for spec in turn.acts], result.acts))
    if turn.messages is not None:
        problems.extend(_message_problems(list(turn.messages), result.messages))
    if turn.slots is not None:
        problems.extend(_slot_problems(dict(turn.slots), dialogue.slots))
    if turn.tool_calls is not None:
        problems.extend(_call_problems([_expected_call(spec) for spec in turn.tool_calls], result.tool_calls))
    if turn.node is not None and result.node != turn.node:
        problems.append(f"node: expected {turn.node!r}, the dialogue is at {result.node!r}")
    if turn.ended is not None and result.ended != turn.ended:
        problems.append(f"ended: expected {turn.ended}, got {result.ended}")
    return problems


def _expected_act(spec: ActSpec) -> ExpectedAct:
    if isinstance(spec, ExpectedAct):
        return spec
    if isinstance(spec, str):
        return ExpectedAct(name=spec)
    if isinstance(spec, Mapping):
        return ExpectedAct(**spec)
    raise TypeError(f"an expected act is a name, act(...) or a mapping, not {type(spec).__name__}")


def _expected_call(spec: CallSpec) -> ExpectedCall:
    if isinstance(spec, ExpectedCall):
        return spec
    if isinstance(spec, str):
        return ExpectedCall(spec)
    if isinstance(spec, Mapping):
        return ExpectedCall(**spec)
    raise TypeError(f"an expected tool call is a tool name, call(...) or a mapping, not {type(spec).__name__}")


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
        want = _show_text(expected[i]) if i < len(expected) else "(none)"
        got = repr(actual[i]) if i < len(actual) else "(none)"
        ok = i < len(expected) and i < len(actual) and _text_matches(expected[i], actual[i])
        lines.append(f"  {'  ' if ok else '! '}{i + 1}. expected {want}")
        lines.append(f"       got      {got}")
    return lines


def _slot_problems(expected: dict[str, Any], actual: dict[str, Any]) -> list[str]:
    wrong = []
    for name, want in expected.items():
        if want is ABSENT:
            if name in actual:
                wrong.append(f"slot {name}: expected not set, got {actual[name]!r}")
        elif name not in actual:
            wrong.append(f"slot {name}: expected {_show_value(want)}, but it is not set")
        elif not _value_matches(want, actual[name]):
            wrong.append(f"slot {name}: expected {_show_value(want)}, got {actual[name]!r}")
    return wrong


def _call_problems(expected: list[ExpectedCall], actual: list[ToolCall]) -> list[str]:
    return _list_problems(("call", "tool calls", "no calls"), expected, actual, _show_call, "; ")


def _mapping_problems(label: str, expected: dict[str, Any], actual: Mapping[str, Any], *, exact: bool) -> list[str]:
    wrong = []
    for key, want in expected.items():
        if key not in actual:
            wrong.append(f"{label} {key} missing (expected {_show_value(want)})")
        elif not _value_matches(want, actual[key]):
            wrong.append(f"{label} {key}={actual[key]!r}, expected {_show_value(want)}")
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


def _show_text(value: Text) -> str:
    return f"pattern {value.pattern!r}" if isinstance(value, re.Pattern) else repr(value)


def _show_value(value: Any) -> str:
    if value is ANY:
        return "any value"
    return _show_text(value) if isinstance(value, re.Pattern) else _short(value)


def _short(value: Any, limit: int = 80) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _show_args(arguments: Mapping[str, Any] | None, *, braces: bool = False) -> str:
    inner = ", ".join(f"{k}={_show_value(v)}" for k, v in (arguments or {}).items())
    return "{" + inner + "}" if braces else inner


def _show_call(call: ToolCall) -> str:
    text = f"{call.tool}({_show_args(call.arguments)}) -> {call.status}"
    if call.result is not None:
        text += f" {_show_args(call.result, braces=True)}"
    if call.error:
        text += f" [{call.error}]"
    return text


# ---------------------------------------------------------------- display


def format_acts(acts: Iterable[Act], indent: str = "  ") -> str:
    """The bot's acts, one a line: kind, name, and the text said."""
    lines = [
        f"{indent}{a.kind:<8} {a.name:<24} {a.text!r}" if a.text else f"{indent}{a.kind:<8} {a.name}" for a in acts
    ]
    return "\n".join(lines) or f"{indent}(no acts)"


def format_trace(trace: TurnTrace, indent: str = "  ") -> str:
    """A turn's trace as short readable lines (no timings: they differ from run to run)."""
    lines: list[str] = []
    if trace.parse is not None:
        lines.append(f"understood ({trace.path or '?'}): {_show_parse(trace.parse)}")
    if trace.model_calls or trace.understanding:
        costs = ", ".join(f"{k}={_short(v, 40)}" for k, v in trace.understanding.items())
        lines.append(f"model calls: {trace.model_calls}" + (f" ({costs})" if costs else ""))
    if trace.invalid:
        rejected = "; ".join(f"{i.get('slot')}={_short(i.get('value'), 40)} ({i.get('reason')})" for i in trace.invalid)
        lines.append(f"rejected: {rejected}")
    if trace.slot_changes:
        changes = "; ".join(
            f"{c.get('slot')}: {'unset' if c.get('old') is None else _short(c.get('old'), 40)} "
            f"-> {_short(c.get('new'), 40)}"
            for c in trace.slot_changes
        )
        lines.append(f"slots changed: {changes}")
    if trace.reset:
        lines.append(f"reset: {', '.join(trace.reset)}")
    lines.append(f"nodes entered: {' -> '.join(trace.nodes) if trace.nodes else '(none)'}")
    if trace.conditions:
        lines.append(
            "conditions: " + ", ".join(f"{c.get('edge')}={str(c.get('outcome')).lower()}" for c in trace.conditions)
        )
    lines.append(
        "tool calls: " + ("; ".join(_show_call(c) for c in trace.tool_calls) if trace.tool_calls else "(none)")
    )
    lines.extend(f"note: {note}" for note in trace.notes)
    return "\n".join(indent + line for line in lines)


def _show_parse(parse: Mapping[str, Any]) -> str:
    parts = []
    if parse.get("intent") is not None:
        parts.append(f"intent {parse['intent']}")
    if parse.get("slots"):
        parts.append("slots " + _show_args(parse["slots"]))
    if parse.get("answer") is not None:
        parts.append(f"answer {parse['answer']}")
    for key, value in parse.items():
        if key not in ("intent", "slots", "answer") and value is not None:
            parts.append(f"{key} {_short(value, 40)}")
    return "; ".join(parts) or "nothing"


# ----------------------------------------------------------- conversation


class Conversation:
    """Drives a :class:`Dialogue` through scripted turns, checking each reply as it comes.

    :meth:`start` and :meth:`say` take a turn's expectations as keywords (see :class:`Turn`);
    :meth:`run` takes a whole script. ``results`` holds every reply so far.
    """

    def __init__(self, dialogue: Dialogue):
        self.dialogue = dialogue
        self.results: list[TurnResult] = []
        self._done: list[tuple[Turn, TurnResult | None]] = []
        self._total: int | None = None

    def start(self, **expect: Any) -> TurnResult | None:
        """The bot's opening, checked against ``expect``."""
        __tracebackhide__ = True
        return self.play(Turn(None, **expect))

    def say(self, text: str, **expect: Any) -> TurnResult | None:
        """One user turn, checked against ``expect``."""
        __tracebackhide__ = True
        return self.play(Turn(text, **expect))

    def run(self, script: Iterable[Turn | str | None | Mapping[str, Any]]) -> list[TurnResult]:
        """Every turn of ``script`` in order; stops at the first mismatch."""
        __tracebackhide__ = True
        turns = [Turn.of(spec) for spec in script]
        self._total = len(self._done) + len(turns)
        results = []
        try:
            for turn in turns:  # a loop, not a comprehension: its frame would show in pytest's traceback
                result = self.play(turn)
                if result is not None:
                    results.append(result)
            return results
        finally:
            self._total = None

    def play(self, turn: Turn) -> TurnResult | None:
        """Play one :class:`Turn`; returns its result (None when it raised as expected)."""
        __tracebackhide__ = True
        index = len(self._done) + 1
        try:
            result = self.dialogue.start() if turn.user is None else self.dialogue.turn(turn.user)
        except Exception as exc:
            if turn.raises is not None and isinstance(exc, turn.raises):
                self._done.append((turn, None))
                return None
            problems = [f"the turn raised {type(exc).__name__}: {exc}"]
            raise self._mismatch(index, turn, None, problems) from exc
        if turn.raises is not None:
            problems = [f"expected the turn to raise {_names(turn.raises)}, but it returned"]
            raise self._mismatch(index, turn, result, problems + check_turn(self.dialogue, turn, result))
        problems = check_turn(self.dialogue, turn, result)
        if problems:
            raise self._mismatch(index, turn, result, problems)
        self._done.append((turn, result))
        self.results.append(result)
        return result

    def _mismatch(self, index: int, turn: Turn, result: TurnResult | None, problems: list[str]) -> ConversationMismatch:
        of = f" of {self._total}" if self._total else ""
        lines = [f"turn {index}{of}: {turn.label}"]
        lines.extend("  " + problem for problem in problems)
        if result is not None:
            if turn.acts is not None and not any(problem.startswith("acts differ") for problem in problems):
                lines.append("acts as expected: " + ", ".join(_expected_act(spec).describe() for spec in turn.acts))
            lines.append(f"bot replied (now at node {result.node}{', ended' if result.ended else ''}):")
            lines.append(format_acts(result.acts))
            if turn.slots is not None:
                lines.append("slots now: " + (_show_args(self.dialogue.slots) or "(none)"))
            lines.append(f"trace of turn {index}:")
            lines.append(format_trace(result.trace))
        if self._done:
            lines.append("earlier turns:")
            first = max(0, len(self._done) - 4)
            if first:
                lines.append(f"  ... {first} more")
            for number, (done, done_result) in enumerate(self._done[first:], start=first + 1):
                reply = ", ".join(done_result.act_names) if done_result is not None else "(raised as expected)"
                lines.append(
                    f"  {number}. {'(opening)' if done.user is None else repr(done.user)} -> {reply or '(no acts)'}"
                )
        return ConversationMismatch("\n".join(lines), index=index, turn=turn, result=result, problems=problems)


def run_conversation(dialogue: Dialogue, script: Iterable[Turn | str | None | Mapping[str, Any]]) -> list[TurnResult]:
    """Play ``script`` on ``dialogue``, checking every turn (see :class:`Conversation`)."""
    __tracebackhide__ = True
    return Conversation(dialogue).run(script)


def _names(kinds: type[BaseException] | tuple[type[BaseException], ...]) -> str:
    return " or ".join(k.__name__ for k in (kinds if isinstance(kinds, tuple) else (kinds,)))


# -------------------------------------------------------------- benchmarks

_EVALUATED_KEYS = ("evaluated_tokens", "prompt_tokens_evaluated", "prompt_eval_tokens")
"""Where understanders report the prompt tokens they evaluated (the rest came from the KV cache)."""


def turn_costs(trace: TurnTrace) -> dict[str, Any]:
    """What a turn cost the understander, from the trace (the understander's ``Parse.info``).

    ``model_calls``; ``evaluated_tokens``: prompt tokens evaluated (an understander that reports
    only ``prompt_tokens`` evaluated them all); ``prompt_tokens``: the whole prompt;
    ``output_tokens``. A turn without a model call counts 0; a count the understander does not
    report is None.
    """
    info = trace.understanding or {}

    def count(*keys: str) -> int | None:
        for key in keys:
            value = info.get(key)
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                return int(value)
        return 0 if not trace.model_calls else None

    return {
        "path": trace.path or "start",
        "model_calls": trace.model_calls,
        "evaluated_tokens": count(*_EVALUATED_KEYS, "prompt_tokens"),
        "prompt_tokens": count("prompt_tokens"),
        "output_tokens": count("output_tokens"),
    }


def _record(benchmark: Any, dialogue: Dialogue, traces: list[TurnTrace], what: str) -> None:
    """Per-turn costs into ``benchmark.extra_info`` (saved in ``--benchmark-json``): lists and totals."""
    costs = [turn_costs(trace) for trace in traces]
    info = benchmark.extra_info
    info["fsmdial"] = what
    info["flow"] = dialogue.flow.name
    info["understander"] = type(dialogue.understander).__name__
    backend = getattr(dialogue.understander, "backend", None)
    if isinstance(backend, str):
        info["backend"] = backend
    info["turns"] = len(traces)
    info["paths"] = [c["path"] for c in costs]
    for key in ("model_calls", "evaluated_tokens", "prompt_tokens", "output_tokens"):
        per_turn = [c[key] for c in costs]
        info[key] = None if None in per_turn else sum(per_turn)
        info[f"{key}_per_turn"] = per_turn
    info["understanding_per_turn"] = [jsonable(trace.understanding) for trace in traces]


def bench_turn(
    benchmark: Any,
    dialogue: Dialogue,
    text: str,
    *,
    expect: Turn | Mapping[str, Any] | None = None,
    rounds: int = 50,
    warmup_rounds: int = 1,
) -> TurnResult:
    """Time ``dialogue.turn(text)`` at the dialogue's current state.

    Each round restores the session from a snapshot taken now (untimed, in pytest-benchmark's
    ``setup``), so every round times the same turn from the same state. ``expect`` (the
    keys of :class:`Turn`, or a :class:`Turn`; its ``user`` is replaced by ``text``) is checked
    once on an untimed run first; ``warmup_rounds`` untimed rounds then warm the understander
    (e.g. a model's KV cache).
    The turn's costs go into ``benchmark.extra_info``. Returns the last round's result.
    """
    __tracebackhide__ = True
    snapshot = dialogue.snapshot()
    if expect is not None:
        Conversation(dialogue).play(
            replace(expect, user=text) if isinstance(expect, Turn) else Turn.of({**expect, "user": text})
        )
        dialogue.load_snapshot(snapshot)

    def setup() -> tuple[tuple[str], dict[str, Any]]:
        dialogue.load_snapshot(snapshot)
        return (text,), {}

    result: TurnResult = benchmark.pedantic(
        dialogue.turn, setup=setup, rounds=rounds, warmup_rounds=warmup_rounds, iterations=1
    )
    _record(benchmark, dialogue, [result.trace], "turn")
    benchmark.extra_info["text"] = text
    return result


def bench_conversation(
    benchmark: Any,
    dialogue: Dialogue,
    script: Iterable[Turn | str | None | Mapping[str, Any]],
    *,
    check: bool = True,
    rounds: int = 10,
    warmup_rounds: int = 1,
) -> list[TurnResult]:
    """Time a whole scripted conversation from the dialogue's current state (usually fresh).

    With ``check`` the script is first played once, untimed, with every expectation checked
    (pass ``check=False`` when the understander is not expected to follow the script, e.g. the
    tiny random test model). Each timed round restores the session from a snapshot (untimed)
    and plays the turns without checking. Per-turn costs go into ``benchmark.extra_info``.
    Returns the results of the last round.
    """
    __tracebackhide__ = True
    turns = [Turn.of(spec) for spec in script]
    snapshot = dialogue.snapshot()
    if check:
        Conversation(dialogue).run(turns)
        dialogue.load_snapshot(snapshot)
    steps = [_step(dialogue, turn) for turn in turns]

    def play() -> list[TurnResult]:
        return [result for step in steps if (result := step()) is not None]

    def setup() -> None:
        dialogue.load_snapshot(snapshot)

    results: list[TurnResult] = benchmark.pedantic(
        play, setup=setup, rounds=rounds, warmup_rounds=warmup_rounds, iterations=1
    )
    _record(benchmark, dialogue, [result.trace for result in results], "conversation")
    return results


def _step(dialogue: Dialogue, turn: Turn) -> Callable[[], TurnResult | None]:
    if turn.user is None:
        return dialogue.start
    text, raises = turn.user, turn.raises
    if raises is None:
        return lambda: dialogue.turn(text)

    def expecting_error() -> TurnResult | None:
        try:
            return dialogue.turn(text)
        except raises:
            return None

    return expecting_error


@dataclass
class Bench:
    """The benchmark helpers bound to one test's ``benchmark`` fixture (the ``fsmdial_bench`` fixture)."""

    benchmark: Any

    def turn(self, dialogue: Dialogue, text: str, **options: Any) -> TurnResult:
        """See :func:`bench_turn`."""
        __tracebackhide__ = True
        return bench_turn(self.benchmark, dialogue, text, **options)

    def conversation(
        self, dialogue: Dialogue, script: Iterable[Turn | str | None | Mapping[str, Any]], **options: Any
    ) -> list[TurnResult]:
        """See :func:`bench_conversation`."""
        __tracebackhide__ = True
        return bench_conversation(self.benchmark, dialogue, script, **options)

    @property
    def extra_info(self) -> dict[str, Any]:
        return self.benchmark.extra_info
