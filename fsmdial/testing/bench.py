"""Benchmark helpers: time one turn or a whole script with pytest-benchmark's ``benchmark`` fixture.

Set-up (compiling, loading a model, warming its KV cache, restoring the session) stays out of the timed part;
what each turn cost the understander goes into ``benchmark.extra_info``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from ..jsonvalues import jsonable
from .expectations import ExpectedTurn
from .script import ScriptedConversation

if TYPE_CHECKING:
    from ..runtime import Dialogue
    from ..trace import TurnResult, TurnTrace

__all__ = ["Bench", "bench_conversation", "bench_turn", "turn_costs"]

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
    expect: ExpectedTurn | Mapping[str, Any] | None = None,
    rounds: int = 50,
    warmup_rounds: int = 1,
) -> TurnResult:
    """Time ``dialogue.turn(text)`` at the dialogue's current state.

    Each round restores the session from a snapshot taken now (untimed, in pytest-benchmark's
    ``setup``), so every round times the same turn from the same state. ``expect`` (the
    keys of :class:`ExpectedTurn`, or a :class:`ExpectedTurn`; its ``user`` is replaced by ``text``) is checked
    once on an untimed run first; ``warmup_rounds`` untimed rounds then warm the understander
    (e.g. a model's KV cache).
    The turn's costs go into ``benchmark.extra_info``. Returns the last round's result.
    """
    __tracebackhide__ = True
    snapshot = dialogue.snapshot()
    if expect is not None:
        ScriptedConversation(dialogue).play(
            replace(expect, user=text)
            if isinstance(expect, ExpectedTurn)
            else ExpectedTurn.of({**expect, "user": text})
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
    script: Iterable[ExpectedTurn | str | None | Mapping[str, Any]],
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
    turns = [ExpectedTurn.of(spec) for spec in script]
    snapshot = dialogue.snapshot()
    if check:
        ScriptedConversation(dialogue).run(turns)
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


def _step(dialogue: Dialogue, turn: ExpectedTurn) -> Callable[[], TurnResult | None]:
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
        self, dialogue: Dialogue, script: Iterable[ExpectedTurn | str | None | Mapping[str, Any]], **options: Any
    ) -> list[TurnResult]:
        """See :func:`bench_conversation`."""
        __tracebackhide__ = True
        return bench_conversation(self.benchmark, dialogue, script, **options)

    @property
    def extra_info(self) -> dict[str, Any]:
        return self.benchmark.extra_info
