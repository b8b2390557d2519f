"""``SQLiteStore``: conversations kept in one SQLite file, one committed turn at a time.

Each committed turn is one SQLite transaction that writes the session's new
snapshot and the turn's trace together, so after a crash (even ``SIGKILL``
mid-write) a session is at its last committed turn, never between two::

    store = SQLiteStore("sessions.db")
    dialogue = store.dialogue(flow, tools=tools)        # a new session, bound to the store
    dialogue.start(); dialogue.turn("hi")              # each turn saved before it returns
    ...
    dialogue = store.resume(flow, dialogue.session_id, tools=tools)   # later, any process

Concurrency is optimistic: a turn saves only if the stored session is still at
the turn before it. When two copies of a session race, the first commit wins
and the other raises :class:`~fsmdial.errors.ConflictError` (and its turn is
rolled back in memory); resume the session to continue from the winner. That
alone lets both turns run their tools; to serialise turns *before* any tool
runs, hold :meth:`SQLiteStore.claim` around reading the session and running
its turn (``fsmdial serve`` does): a lock row in the file, so it holds across
processes, and a writer that does not hold it cannot commit meanwhile. SQLite
cannot tell that a claim's holder died, so a claim lapses after its lease.

The file is in WAL mode with a busy timeout, and writes take the write lock up
front (``BEGIN IMMEDIATE``), so threads (one connection per thread) and
processes can share a store. ``durable=True`` (the default) syncs every commit
to disk (``synchronous=FULL``), so a committed turn also survives power loss;
``durable=False`` (``NORMAL``) survives a crash of the process but may lose
the last turns if the machine loses power.
"""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from ..errors import StoreError
from .base import SessionInfo, Store

UNAVAILABLE = ("SQLITE_BUSY", "SQLITE_LOCKED", "SQLITE_CANTOPEN", "SQLITE_IOERR", "SQLITE_FULL", "SQLITE_PROTOCOL")
"""SQLite's result codes (and their extended codes) for a file that cannot be reached now but may be later: a write
lock held elsewhere past the timeout, a file or folder gone (an unmounted volume), a disk error or a full disk.
Not a file that is not a database or is damaged: retrying cannot help those."""

SCHEMA_VERSION = 2
"""Layout of the SQLite file (``PRAGMA user_version``); a newer file is refused, not misread. Version 2 added
the ``claims`` table (a version 1 file is upgraded when opened)."""

_SCHEMA = """
CREATE TABLE IF NOT EXISTS sessions (
    id       TEXT PRIMARY KEY,
    flow     TEXT NOT NULL,
    turn     INTEGER NOT NULL,
    snapshot BLOB NOT NULL,
    created  REAL NOT NULL,
    updated  REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS turns (
    session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    turn       INTEGER NOT NULL,
    trace      BLOB NOT NULL,
    created    REAL NOT NULL,
    PRIMARY KEY (session_id, turn)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS claims (
    session_id TEXT PRIMARY KEY,
    owner      TEXT NOT NULL,
    expires    REAL NOT NULL
) WITHOUT ROWID;
"""


class SQLiteStore(Store[sqlite3.Connection]):
    """Sessions in the SQLite file at ``path`` (created if missing); see the module docstring.

    ``timeout`` is how long (seconds) a write waits for another writer's lock
    before failing with :class:`StoreError`.
    """

    def __init__(self, path: str | os.PathLike[str], *, timeout: float = 10.0, durable: bool = True):
        super().__init__(str(path), timeout)
        self.path = Path(path)
        self.durable = durable
        try:
            with self._errors("open"):
                self._init_schema(self._connection())
        except BaseException:
            self.close()  # a refused file leaves no connection open
            raise

    # ------------------------------------------------------------ connections
    def _connect(self) -> sqlite3.Connection:
        # isolation_level=None: transactions are begun and ended explicitly below.
        conn = sqlite3.connect(self.path, timeout=self.timeout, isolation_level=None, check_same_thread=False)
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute(f"PRAGMA synchronous={'FULL' if self.durable else 'NORMAL'}")
        conn.execute("PRAGMA foreign_keys=ON")
        return conn

    def _disconnect(self, conn: sqlite3.Connection) -> None:
        conn.close()

    def _init_schema(self, conn: sqlite3.Connection) -> None:
        conn.execute("BEGIN IMMEDIATE")
        try:
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            if version > SCHEMA_VERSION:
                raise StoreError(
                    f"store {self.location!r} has layout version {version}; this fsmdial reads up to {SCHEMA_VERSION}"
                )
            if version < SCHEMA_VERSION:  # every statement is CREATE ... IF NOT EXISTS: an older file is upgraded
                for statement in _SCHEMA.split(";"):  # not executescript: it would commit early
                    if statement.strip():
                        conn.execute(statement)
            conn.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise

    def __enter__(self) -> SQLiteStore:
        return self

    @contextmanager
    def _errors(self, doing: str) -> Iterator[None]:
        try:
            yield
        except sqlite3.Error as exc:
            name = getattr(exc, "sqlite_errorname", "") or ""
            raise self._failure(doing, exc, unavailable=name.startswith(UNAVAILABLE)) from exc

    @contextmanager
    def _write(self, doing: str) -> Iterator[sqlite3.Connection]:
        """One write transaction holding the write lock from its start (no lock upgrade deadlocks)."""
        with self._errors(doing):
            conn = self._connection()
            conn.execute("BEGIN IMMEDIATE")
            try:
                yield conn
                conn.execute("COMMIT")
            except BaseException:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                raise

    # ------------------------------------------------------------ claims: a row with a lease, polled
    def _acquire(self, session_id: str, owner: str, wait: float, lease: float) -> bool:
        deadline = time.monotonic() + wait
        while True:
            with self._write(f"claim session {session_id!r}") as conn:
                now = time.time()
                held = conn.execute("SELECT expires FROM claims WHERE session_id = ?", (session_id,)).fetchone()
                if held is None or held[0] <= now:
                    conn.execute(
                        "INSERT OR REPLACE INTO claims (session_id, owner, expires) VALUES (?, ?, ?)",
                        (session_id, owner, now + lease),
                    )
                    return True
            if time.monotonic() >= deadline:
                return False
            time.sleep(0.02)

    def _release(self, session_id: str, owner: str) -> None:
        with self._write(f"release session {session_id!r}") as conn:
            conn.execute("DELETE FROM claims WHERE session_id = ? AND owner = ?", (session_id, owner))

    # ------------------------------------------------------------ the sink
    def _commit(self, session_id: str, turn: int, flow: str, snapshot: bytes, trace: bytes, now: float) -> None:
        with self._write(f"save turn {turn} of session {session_id!r}") as conn:
            claim = conn.execute("SELECT owner, expires FROM claims WHERE session_id = ?", (session_id,)).fetchone()
            if claim is not None and claim[1] > now and claim[0] != self._claims().get(session_id):
                raise self._claimed_elsewhere(session_id)
            row = conn.execute("SELECT turn FROM sessions WHERE id = ?", (session_id,)).fetchone()
            stored = row[0] if row else 0
            if stored != turn - 1:
                raise self._not_next(session_id, stored, turn)
            if row is None:
                conn.execute(
                    "INSERT INTO sessions (id, flow, turn, snapshot, created, updated) VALUES (?, ?, ?, ?, ?, ?)",
                    (session_id, flow, turn, snapshot, now, now),
                )
            else:
                conn.execute(
                    "UPDATE sessions SET turn = ?, snapshot = ?, updated = ? WHERE id = ?",
                    (turn, snapshot, now, session_id),
                )
            conn.execute(
                "INSERT OR REPLACE INTO turns (session_id, turn, trace, created) VALUES (?, ?, ?, ?)",
                (session_id, turn, trace, now),
            )

    # ------------------------------------------------------------ reading
    def _load_row(self, session_id: str) -> tuple[Any, Any] | None:
        with self._errors(f"load session {session_id!r}"):
            row = (
                self._connection().execute("SELECT turn, snapshot FROM sessions WHERE id = ?", (session_id,)).fetchone()
            )
        return None if row is None else (row[0], row[1])

    def _contains(self, session_id: str) -> bool:
        with self._errors("look up a session"):
            return (
                self._connection().execute("SELECT 1 FROM sessions WHERE id = ?", (session_id,)).fetchone() is not None
            )

    def _sessions(self, flow: str | None) -> list[SessionInfo]:
        query = "SELECT id, flow, turn, created, updated FROM sessions"
        params: tuple[Any, ...] = ()
        if flow is not None:
            query, params = query + " WHERE flow = ?", (flow,)
        with self._errors("list sessions"):
            rows = self._connection().execute(query + " ORDER BY updated DESC, id", params).fetchall()
        return [SessionInfo(*row) for row in rows]

    def _trace_rows(self, session_id: str) -> list[tuple[int, Any]] | None:
        with self._errors(f"read the traces of session {session_id!r}"):
            conn = self._connection()
            conn.execute("BEGIN")  # one consistent read of both tables
            try:
                known = conn.execute("SELECT 1 FROM sessions WHERE id = ?", (session_id,)).fetchone()
                rows = conn.execute(
                    "SELECT turn, trace FROM turns WHERE session_id = ? ORDER BY turn", (session_id,)
                ).fetchall()
            finally:
                conn.execute("COMMIT")
        return None if known is None else [(row[0], row[1]) for row in rows]

    def _delete(self, session_id: str) -> bool:
        with self._write(f"delete session {session_id!r}") as conn:
            conn.execute("DELETE FROM turns WHERE session_id = ?", (session_id,))
            conn.execute("DELETE FROM claims WHERE session_id = ?", (session_id,))
            return conn.execute("DELETE FROM sessions WHERE id = ?", (session_id,)).rowcount > 0

    def check(self) -> list[str]:
        """SQLite's ``integrity_check`` of the file: ``[]`` when it is sound, else the problems found."""
        with self._errors("check the file"):
            rows = self._connection().execute("PRAGMA integrity_check").fetchall()
        problems = [row[0] for row in rows]
        return [] if problems == ["ok"] else problems
