"""Transactional turns: a fault anywhere in a turn leaves the session and the store exactly as before.

Each fault is injected into the turn that completes the slots (so the whole
turn runs: understand, update, advance, tool call, respond, save). After it,
the in-memory snapshot bytes, the stored turn, snapshot and traces are
compared with before, the error must be a typed ``FsmdialError`` the caller
can catch, and the same session must go on normally once the fault is gone.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

import fsmdial.turn as turn_module
from fsmdial.errors import (
    ConflictError,
    FsmdialError,
    StoreError,
    TemplateError,
    ToolError,
    ToolFailure,
    ToolResultError,
    ToolTimeout,
    TurnError,
    UnderstandingError,
)
from fsmdial.loader import load_flow
from fsmdial.responses import TemplateValues
from fsmdial.runtime import Dialogue
from fsmdial.stores import SQLiteStore
from fsmdial.tools import ToolRegistry
from fsmdial.understand.base import Parse
from fsmdial.understand.rules import RulesUnderstander
from tests.reliability_support import SpyTools, clock


def faulty_flow(*, failure_edge: bool = False, gate: bool = False) -> Any:
    edges: list[dict[str, Any]] = [
        {"source": "ask", "target": "act", **({"when": {"call": "gate"}} if gate else {})},
        {"source": "act", "target": "done", "when": {"status": "success"}},
        {"source": "done", "target": "end"},
    ]
    if failure_edge:
        edges.append({"source": "act", "target": "end", "when": {"status": "failure"}})
    return load_flow(
        {
            "name": "faulty" + ("_fail" if failure_edge else "") + ("_gate" if gate else ""),
            "nodes": [
                {
                    "id": "ask",
                    "type": "request",
                    "slots": [
                        {"name": "name", "type": "string", "ask": "Your name?"},
                        {"name": "n", "type": "integer", "minimum": 1, "maximum": 10, "ask": "How many?"},
                    ],
                },
                {
                    "id": "act",
                    "type": "external_action",
                    "tool": "act",
                    "timeout": 0.2,
                    "result": {"ok": "boolean", "note": {"type": "string", "required": False}},
                },
                {"id": "done", "type": "inform", "message": "Done for {name}: {result.note}"},
                {"id": "end", "type": "end", "message": "Bye."},
            ],
            "edges": edges,
        }
    )


@dataclass
class Faults:
    """Switches the test flips to make one part of the next turn fail."""

    understander: Callable[[], Any] | None = None
    tool: Callable[[], Any] | None = None
    gate: Callable[[], bool] | None = None
    calls: list[dict[str, Any]] = field(default_factory=list)


class SwitchableUnderstander(RulesUnderstander):
    def __init__(self, faults: Faults):
        self.faults = faults

    def understand(self, state, text, **kwargs):  # type: ignore[override]
        if self.faults.understander is not None:
            return self.faults.understander()
        return super().understand(state, text, **kwargs)


def make(store: SQLiteStore | None, faults: Faults, **flow_options: Any) -> Dialogue:
    def act(name: str, n: int) -> Any:
        faults.calls.append({"name": name, "n": n})
        if faults.tool is not None:
            return faults.tool()
        return {"ok": True, "note": "all set"}

    return Dialogue(
        faulty_flow(**flow_options),
        tools={"act": act},
        understander=SwitchableUnderstander(faults),
        predicates={"gate": lambda machine: faults.gate() if faults.gate else True}
        if flow_options.get("gate")
        else None,
        clock=clock,
        store=store,
        session_id="s",
    )


def raise_(exc: BaseException) -> Callable[..., Any]:
    def fail(*_: Any, **__: Any) -> Any:
        raise exc

    return fail


def slow() -> dict[str, Any]:
    time.sleep(1.0)
    return {"ok": True, "note": "too late"}


# (name, flow options, how to inject, expected error, message fragment)
FAULTS: list[tuple[str, dict[str, Any], Callable[[Faults, pytest.MonkeyPatch], None], type[BaseException], str]] = [
    (
        "understander raises",
        {},
        lambda f, m: setattr(f, "understander", raise_(RuntimeError("model file gone"))),
        UnderstandingError,
        "model file gone",
    ),
    (
        "understander returns no Parse",
        {},
        lambda f, m: setattr(f, "understander", lambda: {"intent": None}),
        UnderstandingError,
        "not a Parse",
    ),
    (
        "understander invents an intent",
        {},
        lambda f, m: setattr(f, "understander", lambda: Parse(intent="refund")),
        UnderstandingError,
        "intent 'refund'",
    ),
    (
        "understander invents a slot",
        {},
        lambda f, m: setattr(f, "understander", lambda: Parse(slots={"amount": 5})),
        UnderstandingError,
        "unknown slot 'amount'",
    ),
    (
        "understander invents an answer",
        {},
        lambda f, m: setattr(f, "understander", lambda: Parse(answer="maybe")),  # type: ignore[arg-type]
        UnderstandingError,
        "answer 'maybe'",
    ),
    (
        "validator crashes",
        {},
        lambda f, m: m.setattr(turn_module, "coerce_given", raise_(RuntimeError("validator bug"))),
        TurnError,
        "validator bug",
    ),
    (
        "predicate raises",
        {"gate": True},
        lambda f, m: setattr(f, "gate", raise_(ZeroDivisionError("gate bug"))),
        TurnError,
        "gate bug",
    ),
    (
        "tool raises, no failure edge",
        {},
        lambda f, m: setattr(f, "tool", raise_(ConnectionError("backend down"))),
        ToolError,
        "backend down",
    ),
    (
        "tool times out, no failure edge",
        {},
        lambda f, m: setattr(f, "tool", slow),
        ToolTimeout,
        "no result within 0.2 s",
    ),
    (
        "tool result of the wrong shape",
        {},
        lambda f, m: setattr(f, "tool", lambda: {"ok": [1, 2]}),
        ToolResultError,
        "ok",
    ),
    ("tool result missing a field", {}, lambda f, m: setattr(f, "tool", lambda: {"note": "x"}), ToolResultError, "ok"),
    (
        "tool result not a mapping",
        {},
        lambda f, m: setattr(f, "tool", lambda: ["ok"]),
        ToolResultError,
        "returned list",
    ),
    (
        "template without a value",
        {},
        lambda f, m: m.setattr(TemplateValues, "__getitem__", _lookup_failing_for("result.note")),
        TemplateError,
        "{result.note}",
    ),
    (
        "tool result that cannot be stored",
        {},
        lambda f, m: setattr(f, "tool", lambda: {"ok": True, "note": "x", "raw": object()}),
        ToolResultError,
        "result is not JSON-serialisable",
    ),
    (
        "interrupt inside a tool",
        {},
        lambda f, m: setattr(f, "tool", raise_(KeyboardInterrupt())),
        KeyboardInterrupt,
        "",
    ),
]


def _lookup_failing_for(name: str) -> Callable[..., Any]:
    """A template value lookup that has no value for ``name`` (an absent optional field reads as empty)."""
    real = TemplateValues.__getitem__

    def lookup(self: Any, key: str) -> Any:
        if key == name:
            raise KeyError(key)
        return real(self, key)

    return lookup


def state(dialogue: Dialogue, store: SQLiteStore) -> tuple[Any, ...]:
    return dialogue.snapshot(), dialogue.last_trace, store.load("s"), store.traces("s")


@pytest.mark.parametrize("name, options, inject, error, message", FAULTS, ids=[f[0] for f in FAULTS])
def test_a_fault_leaves_session_and_store_as_they_were(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, options: dict, inject, error: type, message: str
) -> None:
    faults = Faults()
    with SQLiteStore(tmp_path / "s.db") as store:
        dialogue = make(store, faults, **options)
        dialogue.start()
        dialogue.turn("Jane")
        before = state(dialogue, store)
        with monkeypatch.context() as patch:
            inject(faults, patch)
            with pytest.raises(error) as caught:
                dialogue.turn("5")
        if error is not KeyboardInterrupt:
            assert isinstance(caught.value, FsmdialError)
            assert message in str(caught.value)
        assert state(dialogue, store) == before
        assert dialogue.turns == 2 and dialogue.node == "ask"

        # the fault gone, the very same session goes on
        faults.understander = faults.tool = faults.gate = None
        result = dialogue.turn("5")
        assert result.act_names == ["done", "end"]
        assert result.text == "Done for Jane: all set\nBye."
        assert store.load("s") == (3, dialogue.snapshot())
        assert [t["turn"] for t in store.traces("s")] == [1, 2, 3]


def test_a_store_failure_rolls_the_turn_back_in_memory(tmp_path: Path) -> None:
    """A real store error: another connection holds the write lock longer than the store waits."""
    path = tmp_path / "s.db"
    faults = Faults()
    with SQLiteStore(path, timeout=0.05) as store:
        dialogue = make(store, faults)
        dialogue.start()
        dialogue.turn("Jane")
        before = state(dialogue, store)
        blocker = sqlite3.connect(path, isolation_level=None)
        blocker.execute("BEGIN EXCLUSIVE")
        try:
            with pytest.raises(StoreError, match="locked") as caught:
                dialogue.turn("5")
        finally:
            blocker.execute("ROLLBACK")
            blocker.close()
        assert not isinstance(caught.value, ConflictError)
        assert faults.calls  # the tool did run: its effect is the app's, the session still rolls back
        assert state(dialogue, store) == before
        assert dialogue.turn("5").act_names == ["done", "end"]
        assert store.load("s")[0] == 3


def test_a_failing_sink_rolls_the_turn_back() -> None:
    class BrokenSink:
        saved: list[int] = []
        fail = False

        def save_turn(self, session_id: str, turn: int, snapshot: bytes, trace: dict) -> None:
            if self.fail:
                raise StoreError("disk full")
            self.saved.append(turn)

    sink = BrokenSink()
    dialogue = make(None, Faults())
    dialogue.store = sink
    dialogue.start()
    before = dialogue.snapshot()
    sink.fail = True
    with pytest.raises(StoreError, match="disk full"):
        dialogue.turn("Jane")
    assert dialogue.snapshot() == before and sink.saved == [1]
    sink.fail = False
    dialogue.turn("Jane")
    assert sink.saved == [1, 2]


def test_a_conflict_rolls_the_turn_back_and_resume_continues(tmp_path: Path) -> None:
    with SQLiteStore(tmp_path / "s.db") as store:
        first = make(store, Faults())
        first.start()
        second = store.resume(faulty_flow(), "s", tools={"act": lambda name, n: {"ok": True, "note": "x"}}, clock=clock)
        first.turn("Jane")
        before = second.snapshot()
        with pytest.raises(ConflictError):
            second.turn("Joan")
        assert second.snapshot() == before
        assert store.load("s") == (2, first.snapshot())


def test_a_failure_edge_makes_tool_errors_and_timeouts_an_outcome_not_an_error(tmp_path: Path) -> None:
    for tool in (raise_(ToolFailure("backend down")), slow):  # a declared business failure, a timeout
        faults = Faults(tool=tool)
        with SQLiteStore(tmp_path / f"{id(tool)}.db") as store:
            dialogue = make(store, faults, failure_edge=True)
            dialogue.start()
            dialogue.turn("Jane")
            result = dialogue.turn("5")
            assert result.act_names == ["end"]
            [call] = result.tool_calls
            assert call.status == "failure" and call.error
            assert store.traces("s")[-1]["tool_calls"][0]["status"] == "failure"


def test_non_text_input_is_refused_without_a_change(tmp_path: Path) -> None:
    with SQLiteStore(tmp_path / "s.db") as store:
        dialogue = make(store, Faults())
        dialogue.start()
        before = state(dialogue, store)
        for value in (None, 5, b"bytes", ["list"]):
            with pytest.raises(TurnError, match="must be a string"):
                dialogue.turn(value)  # type: ignore[arg-type]
        assert state(dialogue, store) == before


def test_a_timed_out_tool_does_not_touch_the_session_when_it_finishes_late(tmp_path: Path) -> None:
    finished = threading.Event()

    def late() -> dict[str, Any]:
        time.sleep(0.4)
        finished.set()
        return {"ok": True, "note": "late"}

    faults = Faults(tool=late)
    with SQLiteStore(tmp_path / "s.db") as store:
        dialogue = make(store, faults)
        dialogue.start()
        dialogue.turn("Jane")
        before = state(dialogue, store)
        with pytest.raises(ToolTimeout):
            dialogue.turn("5")
        assert finished.wait(2)
        assert state(dialogue, store) == before


def test_every_example_flow_rolls_back_a_tool_fault(tmp_path: Path) -> None:
    """The same guarantee on the shipped flows: each tool raising (where it has no failure edge) or
    returning a malformed result leaves every session as it was."""
    from tests.reliability_support import FLOW_PATHS, drive, flow

    checked = 0
    for path in FLOW_PATHS:
        f = flow(path)
        spy = SpyTools(f)
        broken = ToolRegistry()
        for tool, model in spy.models.items():
            broken.register(tool, lambda **_: ["not", "a", "mapping"], arguments=model)
        with SQLiteStore(tmp_path / f"{f.name}.db") as store:
            dialogue = store.dialogue(f, "s", tools=broken, clock=clock)
            try:
                for _ in drive(dialogue):
                    pass
            except ToolResultError:
                checked += 1
                turn, snapshot = store.load("s")
                assert snapshot == dialogue.snapshot() and dialogue.turns == turn
                assert len(store.traces("s")) == turn
    assert checked == sum(1 for p in FLOW_PATHS if SpyTools(flow(p)).models)
