"""The SQLite store's own behaviour (the file, its layout, leases) and opening stores by URL.

What every store promises (snapshots, traces, optimistic concurrency, claims across processes) is checked on
SQLite and PostgreSQL alike in tests/store/test_conformance.py.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import orjson
import pytest

from fsmdial.errors import ConflictError, MissingExtraError, SnapshotError, StoreError
from fsmdial.runtime import Dialogue
from fsmdial.stores import SCHEMA_VERSION, SQLiteStore, open_store, store_kind
from tests.reliability_support import ROOT, SpyTools, clock, flow

RIDE = flow(ROOT / "flows" / "ride_change.json")
SESSION = orjson.dumps({"flow": "f"})


def test_the_file_is_in_wal_mode_and_passes_sqlites_integrity_check(tmp_path: Path) -> None:
    path = tmp_path / "sessions.db"
    with SQLiteStore(path) as store:
        store.save_turn("s1", 1, SESSION, {})
        assert store.check() == []
    assert sqlite3.connect(path).execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_a_file_that_is_not_a_store_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "garbage.db"
    path.write_bytes(b"this is not an SQLite database, just bytes " * 100)
    with pytest.raises(StoreError, match="cannot open"):
        SQLiteStore(path)


def test_a_store_written_by_a_newer_layout_is_refused_not_misread(tmp_path: Path) -> None:
    path = tmp_path / "sessions.db"
    SQLiteStore(path).close()
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA user_version={SCHEMA_VERSION + 1}")
    conn.commit()
    conn.close()
    with pytest.raises(StoreError, match=f"layout version {SCHEMA_VERSION + 1}"):
        SQLiteStore(path)


def test_a_layout_version_1_file_is_upgraded_with_its_sessions(tmp_path: Path) -> None:
    db = tmp_path / "old.db"
    SQLiteStore(db).save_turn("abc", 1, SESSION, {"turn": 1})
    with sqlite3.connect(db) as conn:  # as fsmdial wrote it before claims existed
        conn.execute("DROP TABLE claims")
        conn.execute("PRAGMA user_version=1")
    store = SQLiteStore(db)
    with store.claim("abc"):
        store.save_turn("abc", 2, SESSION, {"turn": 2})
    assert store.traces("abc") == [{"turn": 1}, {"turn": 2}]
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == 2


def test_a_claim_lapses_after_its_lease(tmp_path: Path) -> None:
    """SQLite cannot see that a claim's holder died: the lease is what frees the session."""
    one, two = SQLiteStore(tmp_path / "s.db", timeout=0.3), SQLiteStore(tmp_path / "s.db", timeout=0.3)
    with one.claim("abc", lease=0.0):
        with two.claim("abc"):
            two.save_turn("abc", 1, SESSION, {})
        with pytest.raises(ConflictError, match="at turn 1"):
            one.save_turn("abc", 1, SESSION, {})


def damage(db: Path, sid: str, turn: int) -> None:
    """Overwrite the trace of one turn with bytes that are not JSON (tests/serve uses it too)."""
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE turns SET trace = ? WHERE session_id = ? AND turn = ?", (b"\xff{not json", sid, turn))


def test_a_snapshot_stored_as_text_is_read_as_utf8_and_a_damaged_row_is_a_snapshot_error(tmp_path: Path) -> None:
    path = tmp_path / "s.db"
    with SQLiteStore(path) as store:
        dialogue = store.dialogue(RIDE, "s1", tools=SpyTools(RIDE).registry, clock=clock)
        dialogue.start()
        with sqlite3.connect(path) as conn:
            conn.execute("UPDATE sessions SET snapshot = CAST(snapshot AS TEXT) WHERE id = 's1'")
        assert store.load("s1") == (1, dialogue.snapshot())
        with sqlite3.connect(path) as conn:
            conn.execute("UPDATE sessions SET turn = 'one' WHERE id = 's1'")
        with pytest.raises(SnapshotError, match="session 's1' is damaged"):
            store.load("s1")


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


def test_snapshot_of_another_flow_or_missing_parts_is_refused(tmp_path: Path) -> None:
    with SQLiteStore(tmp_path / "s.db") as store:
        dialogue = store.dialogue(RIDE, "s1", tools=SpyTools(RIDE).registry, clock=clock)
        dialogue.start()
    data = orjson.loads(dialogue.snapshot())
    other = flow(ROOT / "flows" / "ride_change.chief.json")
    with pytest.raises(SnapshotError, match="different content"):
        Dialogue.restore(other, dialogue.snapshot(), tools=SpyTools(other).registry)
    with pytest.raises(SnapshotError, match="incomplete or malformed"):
        Dialogue.restore(
            RIDE, orjson.dumps({k: v for k, v in data.items() if k != "turns"}), tools=SpyTools(RIDE).registry
        )
    with pytest.raises(SnapshotError):
        Dialogue.restore(
            RIDE, orjson.dumps({**data, "machine": {"node": "no_such_node"}}), tools=SpyTools(RIDE).registry
        )


# ------------------------------------------------------------------ open_store: stores by URL


def test_open_store_reads_sqlite_urls_and_plain_paths(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    absolute = tmp_path / "abs.db"
    with open_store(f"sqlite:///{absolute}") as store:  # sqlite:/// + /abs/path: four slashes, as SQLAlchemy
        assert isinstance(store, SQLiteStore) and store.path == absolute
    with open_store(str(tmp_path / "plain.db"), durable=False, timeout=1.0) as store:
        assert isinstance(store, SQLiteStore) and not store.durable and store.timeout == 1.0
    monkeypatch.chdir(tmp_path)
    with open_store("sqlite:///relative.db") as store:
        store.save_turn("s1", 1, SESSION, {})
    assert (tmp_path / "relative.db").is_file()
    assert store_kind("postgresql://u@h/db") == store_kind("postgres://h/db") == "postgresql"
    assert store_kind("x.db") == store_kind("sqlite:///x.db") == "sqlite"


@pytest.mark.parametrize(
    "url, message",
    [
        ("mysql://host/db", "scheme 'mysql://' is not one fsmdial knows"),
        ("sqlite://elsewhere/x.db", "names the host 'elsewhere'"),
        ("sqlite:///", "names no file"),
    ],
)
def test_open_store_refuses_urls_it_cannot_open(url: str, message: str) -> None:
    with pytest.raises(StoreError, match=message):
        open_store(url)


def test_a_postgresql_url_without_psycopg_says_which_extra_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "psycopg", None)  # as if fsmdial[postgres] were not installed
    with pytest.raises(MissingExtraError, match=r"fsmdial\[postgres\]"):
        open_store("postgresql://127.0.0.1:1/none")


def test_a_postgresql_url_whose_server_is_down_is_a_store_error_without_the_password() -> None:
    pytest.importorskip("psycopg")
    from tests.store.postgres_server import free_port

    with pytest.raises(StoreError, match="cannot connect") as caught:
        open_store(f"postgresql://fsmdial:s3cret@127.0.0.1:{free_port()}/none", timeout=1)
    assert "s3cret" not in str(caught.value) and "fsmdial:***@127.0.0.1" in str(caught.value)
