"""What every session store promises (fsmdial.stores.base), checked on SQLite and on PostgreSQL alike.

Snapshots and traces of committed turns, optimistic concurrency, claims that serialise a session's turns across
threads and processes (and end when their holder dies), typed errors for unknown sessions and damaged rows.
The PostgreSQL runs use a real server (conftest.py); they are skipped, saying why, only without one.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import orjson
import pytest

from fsmdial.errors import ConflictError, DamagedTrace, SnapshotError, StoreError, UnknownSession
from fsmdial.runtime import SNAPSHOT_VERSION, Dialogue
from fsmdial.stores import Store
from tests.reliability_support import FLOW_PATHS, ROOT, SpyTools, clock, drive, flow, next_utterance

from .conftest import Backend

HERE = Path(__file__).resolve().parent
STORE_CHILD = HERE.parent / "store_child.py"
CLAIM_CHILD = HERE / "claim_child.py"
RIDE = flow(ROOT / "flows" / "ride_change.json")
SESSION = orjson.dumps({"flow": "f"})


def ride(store: Store[Any], session_id: str | None = None) -> Dialogue:
    return store.dialogue(RIDE, session_id, tools=SpyTools(RIDE).registry, clock=clock)


def child(*args: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )


# ------------------------------------------------------------------ snapshots and traces


def test_every_turn_is_saved_before_turn_returns(store: Store[Any]) -> None:
    dialogue = ride(store, "s1")
    assert "s1" not in store
    dialogue.start()
    assert store.load("s1") == (1, dialogue.snapshot())
    for text in ["Jane", "102", "change the pickup time"]:
        result = dialogue.turn(text)
        turn, snapshot = store.load("s1")
        assert turn == dialogue.turns
        assert snapshot == dialogue.snapshot()
        assert store.traces("s1")[-1]["text"] == text
        assert store.traces("s1")[-1]["turn"] == turn
    assert result.tool_calls and store.traces("s1")[-1]["tool_calls"][0]["tool"] == "change_ride"
    assert [t["turn"] for t in store.traces("s1")] == [1, 2, 3, 4]
    [info] = store.sessions()
    assert (info.id, info.flow, info.turn) == ("s1", "ride_change", 4)
    assert info.created <= info.updated
    assert store.sessions(flow="other") == []
    assert [i.id for i in store.sessions(flow="ride_change")] == ["s1"]


def test_sessions_are_listed_most_recently_updated_first(store: Store[Any]) -> None:
    for sid in ("a", "b", "c"):
        store.save_turn(sid, 1, SESSION, {})
        time.sleep(0.01)
    store.save_turn("a", 2, SESSION, {})
    assert [info.id for info in store.sessions()] == ["a", "c", "b"]


def test_resume_continues_exactly_where_the_session_was(store: Store[Any]) -> None:
    first = ride(store, "s1")
    first.start()
    first.turn("Jane")
    again = store.resume(RIDE, "s1", tools=SpyTools(RIDE).registry, clock=clock)
    assert again.snapshot() == first.snapshot()
    assert again.node == first.node and again.slots == {"customer_name": "Jane"}
    assert again.turn("102").acts[-1].slot == "change_description"
    assert store.load("s1")[0] == 3
    assert ride(store, "s1").turns == 3  # dialogue() resumes a stored id and starts a new one otherwise
    fresh = ride(store)
    assert fresh.turns == 0 and fresh.session_id not in store


def test_unknown_sessions_raise_a_typed_error(store: Store[Any]) -> None:
    for call in (lambda: store.load("nope"), lambda: store.traces("nope"), lambda: store.resume(RIDE, "nope")):
        with pytest.raises(UnknownSession, match="no session 'nope'"):
            call()
    assert store.delete("nope") is False
    assert 42 not in store


def test_delete_removes_the_session_and_its_traces(store: Store[Any]) -> None:
    dialogue = ride(store, "s1")
    dialogue.start()
    dialogue.turn("Jane")
    store.save_turn("s2", 1, SESSION, {})
    assert store.delete("s1") is True
    assert "s1" not in store and [info.id for info in store.sessions()] == ["s2"]
    with pytest.raises(UnknownSession):
        store.traces("s1")
    store.save_turn("s1", 1, SESSION, {"again": True})  # the id is free again, from turn 1
    assert store.traces("s1") == [{"again": True}]


def test_the_store_survives_reopening(backend: Backend) -> None:
    with backend.open() as store:
        dialogue = ride(store, "s1")
        dialogue.start()
        dialogue.turn("Jane")
        expected = dialogue.snapshot()
    with backend.open() as store:
        assert store.load("s1") == (2, expected)
        assert len(store.traces("s1")) == 2
        assert store.check() == []


def test_a_closed_store_refuses_work(backend: Backend) -> None:
    store = backend.open()
    store.close()
    with pytest.raises(StoreError, match="closed"):
        store.load("s1")


def test_a_store_written_by_a_newer_layout_is_refused_not_misread(backend: Backend) -> None:
    backend.open().close()
    backend.set_layout(99)
    with pytest.raises(StoreError, match="layout version 99"):
        backend.open()


def test_a_snapshot_that_is_not_a_session_is_refused_before_anything_is_written(store: Store[Any]) -> None:
    with pytest.raises(StoreError, match="must be bytes"):
        store.save_turn("s1", 1, "text", {})  # type: ignore[arg-type]
    with pytest.raises(StoreError, match="is not a session"):
        store.save_turn("s1", 1, b"[1, 2]", {})
    assert "s1" not in store


def test_a_trace_that_json_cannot_hold_is_kept_readable(store: Store[Any]) -> None:
    class Thing:
        def __repr__(self) -> str:
            return "<thing>"

    store.save_turn("s1", 1, SESSION, {"big": 2**70, "object": Thing(), "nul": "a\x00b", 3: "three"})
    [trace] = store.traces("s1")
    assert trace["object"] == "<thing>" and trace["nul"] == "a\x00b" and trace["3"] == "three"
    assert str(2**70) in str(trace["big"])


def test_a_damaged_trace_row_is_a_typed_error_or_a_marker(backend: Backend, store: Store[Any]) -> None:
    for turn in (1, 2, 3):
        store.save_turn("abc", turn, SESSION, {"turn": turn})
    backend.sql("UPDATE fsmdial_turns SET trace = %s WHERE session_id = %s AND turn = %s", (b"\xff{not json", "abc", 2))
    with pytest.raises(DamagedTrace, match="turn 2 of session 'abc'") as caught:
        store.traces("abc")
    assert caught.value.turn == 2 and caught.value.session_id == "abc"
    traces = store.traces("abc", damaged="mark")
    assert traces[0] == {"turn": 1} and traces[2] == {"turn": 3}
    assert traces[1]["damaged"] and traces[1]["turn"] == 2
    backend.sql("UPDATE fsmdial_turns SET trace = %s WHERE session_id = %s AND turn = %s", (b"[1]", "abc", 3))
    assert "not a JSON object" in store.traces("abc", damaged="mark")[2]["damaged"]


# ------------------------------------------------------------------ snapshot versions


def _snapshot_with(dialogue: Dialogue, **changes: object) -> bytes:
    data = orjson.loads(dialogue.snapshot())
    data.update(changes)
    return orjson.dumps({k: v for k, v in data.items() if v is not ...})


@pytest.mark.parametrize("version", [0, SNAPSHOT_VERSION + 1, str(SNAPSHOT_VERSION), None, ...])
def test_a_stored_snapshot_of_another_format_version_is_refused_on_resume(store: Store[Any], version: object) -> None:
    dialogue = ride(store, "s1")
    dialogue.start()
    dialogue.turn("Jane")
    store.save_turn("old", 1, _snapshot_with(dialogue, version=version), {"turn": 1})
    with pytest.raises(SnapshotError, match="version"):
        store.resume(RIDE, "old", tools=SpyTools(RIDE).registry)


def test_snapshots_round_trip_at_every_turn_of_every_example_flow(store: Store[Any]) -> None:
    for path in FLOW_PATHS:
        f = flow(path)
        spy = SpyTools(f)
        dialogue = store.dialogue(f, f.name, tools=spy.registry, clock=clock)
        result = None
        for _, step in drive(dialogue):
            result = step
            turn, snapshot = store.load(f.name)
            restored = store.resume(f, f.name, tools=spy.registry, clock=clock)
            assert restored.snapshot() == snapshot == dialogue.snapshot()
            assert restored.turns == turn
        copy = Dialogue.restore(f, dialogue.snapshot(), tools=spy.registry, clock=clock)
        text = next_utterance(dialogue, result)
        dialogue.store = None
        assert copy.turn(text).act_names == dialogue.turn(text).act_names
        assert copy.snapshot() == dialogue.snapshot()


# ------------------------------------------------------------------ optimistic concurrency


def test_save_turn_refuses_a_turn_that_does_not_follow_the_stored_one(store: Store[Any]) -> None:
    store.save_turn("s1", 1, SESSION, {"turn": 1})
    for wrong in (1, 3, 0):
        with pytest.raises(ConflictError, match="at turn 1 in the store"):
            store.save_turn("s1", wrong, b'{"flow": "f", "other": true}', {"turn": wrong})
    with pytest.raises(ConflictError, match="at turn 0"):
        store.save_turn("s2", 2, SESSION, {"turn": 2})
    assert store.load("s1") == (1, SESSION)
    assert store.traces("s1") == [{"turn": 1}]
    assert "s2" not in store


def test_two_copies_of_a_session_racing_one_wins_the_other_gets_a_conflict(store: Store[Any]) -> None:
    """Two writers restored from the same stored turn answer at once, repeatedly: exactly one commit
    per round, the loser's turn is rolled back in memory, and after resuming it builds on the winner."""
    dialogue = ride(store, "race")
    dialogue.start()
    for round_ in range(8):
        writers = [store.resume(RIDE, "race", tools=SpyTools(RIDE).registry, clock=clock) for _ in range(2)]
        before = [w.snapshot() for w in writers]
        texts = [f"Name{round_}a", f"Name{round_}b"]
        barrier = threading.Barrier(2)
        outcomes: list[object] = [None, None]

        def answer(index: int, barrier=barrier, outcomes=outcomes, writers=writers, texts=texts) -> None:
            barrier.wait()
            try:
                outcomes[index] = writers[index].turn(texts[index])
            except ConflictError as exc:
                outcomes[index] = exc

        threads = [threading.Thread(target=answer, args=(i,)) for i in range(2)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        conflicts = [i for i, o in enumerate(outcomes) if isinstance(o, ConflictError)]
        assert len(conflicts) == 1, outcomes
        loser, winner = conflicts[0], 1 - conflicts[0]
        assert writers[loser].snapshot() == before[loser]
        turn, snapshot = store.load("race")
        assert turn == 2 * round_ + 2 and snapshot == writers[winner].snapshot()
        assert store.traces("race")[-1]["text"] == texts[winner]
        retry = store.resume(RIDE, "race", tools=SpyTools(RIDE).registry, clock=clock)
        assert retry.turns == turn
        retry.turn(texts[loser])
        said = [text for role, text in retry.history if role == "user"]
        assert said[-2:] == [texts[winner], texts[loser]]
    assert [t["turn"] for t in store.traces("race")] == list(range(1, 18))


def test_connections_of_finished_threads_are_closed(store: Store[Any]) -> None:
    def work(index: int) -> None:
        store.save_turn(f"t{index}", 1, SESSION, {"turn": 1})

    for index in range(12):
        thread = threading.Thread(target=work, args=(index,))
        thread.start()
        thread.join()
    work(99)  # a new connection (this thread's) closes those of the threads that ended
    assert len(store._connections) <= 2
    assert len(store.sessions()) == 13


# ------------------------------------------------------------------ claims


def test_a_claim_is_taken_before_the_turn_and_released_after(backend: Backend) -> None:
    one, two = backend.open(timeout=0.3), backend.open(timeout=0.3)
    with one.claim("abc"):
        with pytest.raises(ConflictError, match="another turn of session 'abc' is running"):
            with two.claim("abc"):
                pass
        with pytest.raises(ConflictError, match="another turn"):  # a writer that did not claim cannot commit
            two.save_turn("abc", 1, SESSION, {})
        with pytest.raises(ConflictError, match="cannot wait for itself"):  # the holder's thread, again
            with one.claim("abc"):
                pass
        one.save_turn("abc", 1, SESSION, {})  # the holder can
        with two.claim("other", wait=0):  # other sessions are free
            two.save_turn("other", 1, SESSION, {})
    with two.claim("abc", wait=0):
        two.save_turn("abc", 2, SESSION, {})
    one.save_turn("abc", 3, SESSION, {})  # released: an unclaimed writer commits again
    assert store_turns(one, "abc") == [1, 2, 3]
    one.close()
    two.close()


def store_turns(store: Store[Any], session_id: str) -> list[int]:
    return list(range(1, len(store.traces(session_id)) + 1))


def test_a_claim_waits_for_the_holder_then_reads_what_it_committed(backend: Backend) -> None:
    one, two = backend.open(), backend.open()
    one.save_turn("abc", 1, SESSION, {})
    seen: list[int] = []
    held = threading.Event()

    def holder() -> None:
        with one.claim("abc"):
            held.set()
            time.sleep(0.5)
            one.save_turn("abc", 2, SESSION, {"by": "holder"})

    thread = threading.Thread(target=holder)
    thread.start()
    held.wait(10)
    started = time.monotonic()
    with two.claim("abc", wait=20):
        waited = time.monotonic() - started
        seen.append(two.load("abc")[0])
        two.save_turn("abc", 3, SESSION, {"by": "waiter"})
    thread.join()
    assert seen == [2] and waited > 0.2
    assert [t.get("by") for t in two.traces("abc")] == [None, "holder", "waiter"]
    one.close()
    two.close()


def test_claims_serialise_a_session_across_processes(backend: Backend) -> None:
    """Four processes each run 15 claimed read-then-write turns of one session at the same time: no conflict,
    no turn lost or repeated, the turns numbered 1..60 in one line."""
    backend.open().close()
    processes, times = 4, 15
    children = [child(str(CLAIM_CHILD), "count", backend.url, f"p{i}", str(times)) for i in range(processes)]
    for process in children:
        assert process.stdout.readline() == b"ready\n", process.stderr.read().decode()[-3000:]
    for process in children:
        process.stdin.write(b"go\n")
        process.stdin.flush()
    outputs = [process.communicate(timeout=300) for process in children]
    for process, (out, err) in zip(children, outputs, strict=True):
        assert process.returncode == 0, err.decode()[-3000:]
        assert out.split()[-2:] == [b"done", b"0"]
    with backend.open() as store:
        traces = store.traces("counter")
        assert store.load("counter")[0] == processes * times
        assert store.check() == []
    assert len(traces) == processes * times
    assert sorted((t["by"], t["i"]) for t in traces) == sorted(
        (f"p{p}", i) for p in range(processes) for i in range(times)
    )
    for p in range(processes):  # each process's turns in its own order
        assert [t["i"] for t in traces if t["by"] == f"p{p}"] == list(range(times))


def test_a_claim_whose_holder_was_killed_does_not_block_the_session(backend: Backend) -> None:
    """The holder is killed (SIGKILL) inside its claim: SQLite lets the claim lapse after its lease (1 s here),
    PostgreSQL drops the lock with the dead connection. Either way the next turn gets the session."""
    backend.open().close()
    holder = child(str(CLAIM_CHILD), "hold", backend.url, "abc", "1.0")
    try:
        assert holder.stdout.readline() == b"held\n", holder.stderr.read().decode()[-3000:]
        with backend.open() as store:
            with pytest.raises(ConflictError):
                with store.claim("abc", wait=0.1):
                    pass
            os.kill(holder.pid, signal.SIGKILL)
            holder.wait(10)
            started = time.monotonic()
            with store.claim("abc", wait=20):
                store.save_turn("abc", 1, SESSION, {})
            assert time.monotonic() - started < 15
            assert store.load("abc")[0] == 1
    finally:
        if holder.poll() is None:
            holder.kill()
        holder.communicate(timeout=10)


def test_threads_and_processes_writing_different_sessions_at_once(backend: Backend) -> None:
    """6 threads (sharing one store object, a connection each) and 3 processes write at the same time."""
    backend.open().close()
    children = [child(str(STORE_CHILD), "write", backend.url, f"proc{i}", "5") for i in range(3)]
    for process in children:
        assert process.stdout.readline() == b"ready\n", process.stderr.read().decode()[-3000:]
    flows = [flow(p) for p in FLOW_PATHS]
    expected: dict[str, int] = {}
    errors: list[BaseException] = []
    lock = threading.Lock()
    store = backend.open()

    def converse(thread: int) -> None:
        try:
            for index in range(3):
                f = flows[(thread + index) % len(flows)]
                dialogue = store.dialogue(f, f"thread{thread}-{index}", tools=SpyTools(f).registry, clock=clock)
                turns = sum(1 for _ in drive(dialogue))
                with lock:
                    expected[dialogue.session_id] = turns
        except BaseException as exc:  # reported below, with the thread's error
            errors.append(exc)

    threads = [threading.Thread(target=converse, args=(i,)) for i in range(6)]
    for process in children:
        process.stdin.write(b"go\n")
        process.stdin.flush()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    outputs = [p.communicate(timeout=300) for p in children]
    assert not errors, errors
    for process, (_, err) in zip(children, outputs, strict=True):
        assert process.returncode == 0, err.decode()[-3000:]
    process_turns = sum(int(out.split()[-1]) for out, _ in outputs)
    assert store.check() == []
    stored = {info.id: info.turn for info in store.sessions()}
    for session, turns in expected.items():
        assert stored[session] == turns
        assert len(store.traces(session)) == turns
    from_processes = {s: t for s, t in stored.items() if s.startswith("proc")}
    assert len(from_processes) == 15 and len(expected) == 18
    assert sum(from_processes.values()) == process_turns
    for session, turns in from_processes.items():
        assert [t["turn"] for t in store.traces(session)] == list(range(1, turns + 1))
    store.close()
