"""SessionStore: atomic turns, reading back, optimistic concurrency, threads and processes, snapshot versions."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import threading
from pathlib import Path

import orjson
import pytest

from fsmdial.errors import ConflictError, DamagedTrace, SnapshotError, StoreError
from fsmdial.runtime import SNAPSHOT_VERSION, Dialogue
from fsmdial.store import SCHEMA_VERSION, SessionStore, UnknownSession
from tests.reliability_support import FLOW_PATHS, ROOT, SpyTools, clock, drive, flow, next_utterance

CHILD = Path(__file__).resolve().parent / "store_child.py"
RIDE = flow(ROOT / "flows" / "ride_change.json")


@pytest.fixture
def store(tmp_path: Path):
    with SessionStore(tmp_path / "sessions.db") as opened:
        yield opened


def ride(store: SessionStore, session_id: str | None = None) -> Dialogue:
    return store.dialogue(RIDE, session_id, tools=SpyTools(RIDE).registry, clock=clock)


# ------------------------------------------------------------------ basics


def test_every_turn_is_saved_before_turn_returns(store: SessionStore) -> None:
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
    assert store.sessions(flow="other") == []


def test_resume_continues_exactly_where_the_session_was(store: SessionStore) -> None:
    first = ride(store, "s1")
    first.start()
    first.turn("Jane")
    again = store.resume(RIDE, "s1", tools=SpyTools(RIDE).registry, clock=clock)
    assert again.snapshot() == first.snapshot()
    assert again.node == first.node and again.slots == {"customer_name": "Jane"}
    assert again.turn("102").acts[-1].slot == "change_description"
    assert store.load("s1")[0] == 3
    # dialogue() resumes a stored id and starts a new one otherwise
    assert ride(store, "s1").turns == 3
    fresh = ride(store)
    assert fresh.turns == 0 and fresh.session_id not in store


def test_unknown_sessions_raise_a_typed_error(store: SessionStore) -> None:
    for call in (lambda: store.load("nope"), lambda: store.traces("nope"), lambda: store.resume(RIDE, "nope")):
        with pytest.raises(UnknownSession, match="no session 'nope'"):
            call()
    assert issubclass(UnknownSession, StoreError)
    assert store.delete("nope") is False


def test_delete_removes_the_session_and_its_traces(store: SessionStore) -> None:
    dialogue = ride(store, "s1")
    dialogue.start()
    dialogue.turn("Jane")
    assert store.delete("s1") is True
    assert "s1" not in store and store.sessions() == []
    with pytest.raises(UnknownSession):
        store.traces("s1")


def test_the_store_survives_reopening(tmp_path: Path) -> None:
    path = tmp_path / "sessions.db"
    with SessionStore(path) as store:
        dialogue = ride(store, "s1")
        dialogue.start()
        dialogue.turn("Jane")
        expected = dialogue.snapshot()
    with SessionStore(path) as store:
        assert store.load("s1") == (2, expected)
        assert store.check() == []
        mode = sqlite3.connect(path).execute("PRAGMA journal_mode").fetchone()[0]
        assert mode == "wal"


def test_a_closed_store_refuses_work(tmp_path: Path) -> None:
    store = SessionStore(tmp_path / "sessions.db")
    store.close()
    with pytest.raises(StoreError, match="closed"):
        store.load("s1")


def test_a_file_that_is_not_a_store_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "garbage.db"
    path.write_bytes(b"this is not an SQLite database, just bytes " * 100)
    with pytest.raises(StoreError, match="cannot open"):
        SessionStore(path)


def test_a_store_written_by_a_newer_layout_is_refused_not_misread(tmp_path: Path) -> None:
    path = tmp_path / "sessions.db"
    SessionStore(path).close()
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA user_version={SCHEMA_VERSION + 1}")
    conn.commit()
    conn.close()
    with pytest.raises(StoreError, match=f"layout version {SCHEMA_VERSION + 1}"):
        SessionStore(path)


# ------------------------------------------------------- optimistic concurrency


def test_save_turn_refuses_a_turn_that_does_not_follow_the_stored_one(store: SessionStore) -> None:
    store.save_turn("s1", 1, b'{"flow": "f"}', {"turn": 1})
    for wrong in (1, 3, 0):
        with pytest.raises(ConflictError, match="at turn 1 in the store"):
            store.save_turn("s1", wrong, b'{"flow": "f", "other": true}', {"turn": wrong})
    with pytest.raises(ConflictError, match="at turn 0"):
        store.save_turn("s2", 2, b'{"flow": "f"}', {"turn": 2})
    assert store.load("s1") == (1, b'{"flow": "f"}')
    assert store.traces("s1") == [{"turn": 1}]
    assert "s2" not in store


def test_two_copies_of_a_session_racing_one_wins_the_other_gets_a_conflict(store: SessionStore) -> None:
    """Two writers restored from the same stored turn answer at once, repeatedly: exactly one commit
    per round, the loser's turn is rolled back in memory, and after resuming it builds on the winner."""
    dialogue = ride(store, "race")
    dialogue.start()
    for round_ in range(15):
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
        assert writers[loser].snapshot() == before[loser]  # rolled back in memory
        turn, snapshot = store.load("race")
        assert turn == 2 * round_ + 2 and snapshot == writers[winner].snapshot()
        assert store.traces("race")[-1]["text"] == texts[winner]
        # No lost update: the loser resumes from the winner's turn, and its retry builds on it.
        retry = store.resume(RIDE, "race", tools=SpyTools(RIDE).registry, clock=clock)
        assert retry.turns == turn
        retry.turn(texts[loser])
        said = [text for role, text in retry.history if role == "user"]
        assert said[-2:] == [texts[winner], texts[loser]]
        assert store.load("race")[0] == turn + 1
    assert [t["turn"] for t in store.traces("race")] == list(range(1, 32))


def test_threads_and_processes_writing_different_sessions_at_once(tmp_path: Path) -> None:
    """8 threads (sharing one store object, a connection each) and 4 processes write at the same time."""
    path = tmp_path / "sessions.db"
    SessionStore(path).close()
    processes = [
        subprocess.Popen(
            [sys.executable, str(CHILD), "write", str(path), f"proc{i}", "6"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        for i in range(4)
    ]
    for process in processes:
        assert process.stdout.readline() == b"ready\n", process.stderr.read().decode()[-3000:]
    flows = [flow(p) for p in FLOW_PATHS]
    expected: dict[str, int] = {}
    errors: list[BaseException] = []
    lock = threading.Lock()
    store = SessionStore(path)

    def converse(thread: int) -> None:
        try:
            for index in range(4):
                f = flows[(thread + index) % len(flows)]
                dialogue = store.dialogue(f, f"thread{thread}-{index}", tools=SpyTools(f).registry, clock=clock)
                turns = sum(1 for _ in drive(dialogue))
                with lock:
                    expected[dialogue.session_id] = turns
        except BaseException as exc:  # reported below, with the thread's error
            errors.append(exc)

    threads = [threading.Thread(target=converse, args=(i,)) for i in range(8)]
    for process in processes:
        process.stdin.write(b"go\n")
        process.stdin.flush()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    outputs = [p.communicate(timeout=120) for p in processes]
    assert not errors, errors
    for process, (_, err) in zip(processes, outputs, strict=True):
        assert process.returncode == 0, err.decode()[-3000:]
    process_turns = sum(int(out.split()[-1]) for out, _ in outputs)

    assert store.check() == []
    stored = {info.id: info.turn for info in store.sessions()}
    for session, turns in expected.items():
        assert stored[session] == turns
        assert len(store.traces(session)) == turns
    from_processes = {s: t for s, t in stored.items() if s.startswith("proc")}
    assert len(from_processes) == 24 and len(expected) == 32
    assert sum(from_processes.values()) == process_turns
    for session, turns in from_processes.items():
        assert [t["turn"] for t in store.traces(session)] == list(range(1, turns + 1))
    store.close()


# ------------------------------------------------------------ snapshot versions


def _snapshot_with(dialogue: Dialogue, **changes: object) -> bytes:
    data = orjson.loads(dialogue.snapshot())
    data.update(changes)
    return orjson.dumps({k: v for k, v in data.items() if v is not ...})


@pytest.mark.parametrize("version", [0, SNAPSHOT_VERSION + 1, 99, str(SNAPSHOT_VERSION), None, ...])
def test_snapshot_of_another_format_version_is_refused(store: SessionStore, version: object) -> None:
    """Older (0), newer and garbled versions, or none at all (``...`` drops the key)."""
    dialogue = ride(store, "s1")
    dialogue.start()
    dialogue.turn("Jane")
    old = _snapshot_with(dialogue, version=version)
    with pytest.raises(SnapshotError, match="version"):
        Dialogue.restore(RIDE, old, tools=SpyTools(RIDE).registry)
    # the same snapshot sitting in a store (written by another fsmdial) is refused on resume
    store.save_turn("old", 1, old, {"turn": 1})
    with pytest.raises(SnapshotError, match="version"):
        store.resume(RIDE, "old", tools=SpyTools(RIDE).registry)


@pytest.mark.parametrize(
    "snapshot, message",
    [
        (b"not json", "not valid JSON"),
        (b"[1, 2]", "not an fsmdial session"),
        (b'{"format": "something.else", "version": 1}', "not an fsmdial session"),
    ],
)
def test_unreadable_snapshots_are_refused(snapshot: bytes, message: str) -> None:
    with pytest.raises(SnapshotError, match=message):
        Dialogue.restore(RIDE, snapshot, tools=SpyTools(RIDE).registry)


def test_snapshot_of_another_flow_or_missing_parts_is_refused(store: SessionStore) -> None:
    dialogue = ride(store, "s1")
    dialogue.start()
    other = flow(ROOT / "flows" / "ride_change.chief.json")
    with pytest.raises(SnapshotError, match="different content"):
        Dialogue.restore(other, dialogue.snapshot(), tools=SpyTools(other).registry)
    with pytest.raises(SnapshotError, match="incomplete or malformed"):
        Dialogue.restore(RIDE, _snapshot_with(dialogue, turns=...), tools=SpyTools(RIDE).registry)
    with pytest.raises(SnapshotError):
        Dialogue.restore(
            RIDE, _snapshot_with(dialogue, machine={"node": "no_such_node"}), tools=SpyTools(RIDE).registry
        )


def test_snapshots_round_trip_at_every_turn_of_every_example_flow(store: SessionStore) -> None:
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
        # a restored copy answers the next turn exactly like the original
        copy = Dialogue.restore(f, dialogue.snapshot(), tools=spy.registry, clock=clock)
        text = next_utterance(dialogue, result)
        dialogue.store = None
        assert copy.turn(text).act_names == dialogue.turn(text).act_names
        assert copy.snapshot() == dialogue.snapshot()


def test_connections_of_finished_threads_are_closed(store: SessionStore) -> None:
    def work(index: int) -> None:
        store.save_turn(f"t{index}", 1, b'{"flow": "f"}', {"turn": 1})

    for index in range(20):
        thread = threading.Thread(target=work, args=(index,))
        thread.start()
        thread.join()
    work(99)  # a new connection (this thread's) prunes those of the threads that ended
    assert len(store._connections) <= 2
    assert len(store.sessions()) == 21


# ------------------------------------------------------------------ issue 22 #3: claims, #7: damaged trace rows


def test_a_claim_is_taken_before_the_turn_and_released_after(tmp_path):
    one, two = SessionStore(tmp_path / "s.db", timeout=0.3), SessionStore(tmp_path / "s.db", timeout=0.3)
    with one.claim("abc"):
        with pytest.raises(ConflictError, match="another turn of session 'abc' is running"):
            with two.claim("abc"):
                pass
        with pytest.raises(ConflictError, match="another turn"):  # a writer that did not claim cannot commit
            two.save_turn("abc", 1, orjson.dumps({"flow": "f"}), {})
        one.save_turn("abc", 1, orjson.dumps({"flow": "f"}), {})
    with two.claim("abc"):
        two.save_turn("abc", 2, orjson.dumps({"flow": "f"}), {})
    with one.claim("abc", lease=0.0):  # a holder that died: its lease runs out
        with two.claim("abc"):
            pass


def damage(db, sid, event):
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE turns SET trace = ? WHERE session_id = ? AND turn = ?", (b"\xff{not json", sid, event))


def test_a_damaged_trace_row_is_a_typed_error_or_a_marker(tmp_path):
    store = SessionStore(tmp_path / "s.db")
    for turn in (1, 2, 3):
        store.save_turn("abc", turn, orjson.dumps({"flow": "f"}), {"turn": turn})
    damage(tmp_path / "s.db", "abc", 2)
    with pytest.raises(DamagedTrace, match="turn 2 of session 'abc'") as caught:
        store.traces("abc")
    assert caught.value.turn == 2
    traces = store.traces("abc", damaged="mark")
    assert traces[0] == {"turn": 1} and traces[2] == {"turn": 3}
    assert traces[1]["damaged"] and traces[1]["turn"] == 2


def test_a_layout_version_1_file_is_upgraded_with_its_sessions(tmp_path):
    db = tmp_path / "old.db"
    SessionStore(db).save_turn("abc", 1, orjson.dumps({"flow": "f"}), {"turn": 1})
    with sqlite3.connect(db) as conn:  # as fsmdial wrote it before claims existed
        conn.execute("DROP TABLE claims")
        conn.execute("PRAGMA user_version=1")
    store = SessionStore(db)
    with store.claim("abc"):
        store.save_turn("abc", 2, orjson.dumps({"flow": "f"}), {"turn": 2})
    assert store.traces("abc") == [{"turn": 1}, {"turn": 2}]
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == 2
