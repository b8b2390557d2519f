"""``SessionStore``: conversations kept in one SQLite file, one committed turn at a time.

Each committed turn is one SQLite transaction that writes the session's new
snapshot and the turn's trace together, so after a crash (even ``SIGKILL``
mid-write) a session is at its last committed turn, never between two::

    store = SessionStore("sessions.db")
    dialogue = store.dialogue(flow, tools=tools)        # a new session, bound to the store
    dialogue.start(); dialogue.turn("hi")              # each turn saved before it returns
    ...
    dialogue = store.resume(flow, dialogue.session_id, tools=tools)   # later, any process

Concurrency is optimistic: a turn saves only if the stored session is still at
the turn before it. When two copies of a session race, the first commit wins
and the other raises :class:`~fsmdial.errors.ConflictError` (and its turn is
rolled back in memory); resume the session to continue from the winner. That
alone lets both turns run their tools; to serialise turns *before* any tool
runs, hold :meth:`SessionStore.claim` around reading the session and running
its turn (``fsmdial serve`` does): a lock row in the file, so it holds across
processes, and a writer that does not hold it cannot commit meanwhile.

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
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

import orjson

from .errors import ConflictError, DamagedTrace, SnapshotError, StoreError, UnknownSession
from .jsonvalues import jsonable

__all__ = ["SessionInfo", "SessionStore", "UnknownSession"]  # UnknownSession lives in fsmdial.errors

if TYPE_CHECKING:
    from .runtime import Dialogue
    from .tables import FlowSource

SCHEMA_VERSION = 2
"""Layout of the SQLite file (``PRAGMA user_version``); a newer file is refused, not misread. Version 2 added
the ``claims`` table (a version 1 file is upgraded when opened)."""

CLAIM_LEASE = 300.0
"""Seconds a claim holds (:meth:`SessionStore.claim`) if its holder never releases it (the process died)."""

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


@dataclass(frozen=True)
class SessionInfo:
    """One stored session, as :meth:`SessionStore.sessions` lists it."""

    id: str
    flow: str
    turn: int
    created: float
    updated: float


class SessionStore:
    """Sessions in the SQLite file at ``path`` (created if missing); see the module docstring.

    ``timeout`` is how long (seconds) a write waits for another writer's lock
    before failing with :class:`StoreError`.
    """

    def __init__(self, path: str | os.PathLike[str], *, timeout: float = 10.0, durable: bool = True):
        self.path = Path(path)
        self.timeout = timeout
        self.durable = durable
        self._local = threading.local()
        self._connections: dict[threading.Thread, sqlite3.Connection] = {}
        self._lock = threading.Lock()
        self._closed = False
        with self._errors("open"):
            self._init_schema(self._connection())

    # ------------------------------------------------------------ connections
    def _connection(self) -> sqlite3.Connection:
        if self._closed:
            raise StoreError(f"store {str(self.path)!r} is closed")
        conn = getattr(self._local, "conn", None)
        if conn is None:
            # isolation_level=None: transactions are begun and ended explicitly below.
            conn = sqlite3.connect(self.path, timeout=self.timeout, isolation_level=None, check_same_thread=False)
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute(f"PRAGMA synchronous={'FULL' if self.durable else 'NORMAL'}")
            conn.execute("PRAGMA foreign_keys=ON")
            self._local.conn = conn
            with self._lock:
                for thread in [t for t in self._connections if not t.is_alive()]:
                    self._connections.pop(thread).close()  # threads that ended do not leak connections
                self._connections[threading.current_thread()] = conn
        return conn

    def _init_schema(self, conn: sqlite3.Connection) -> None:
        conn.execute("BEGIN IMMEDIATE")
        try:
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            if version > SCHEMA_VERSION:
                raise StoreError(
                    f"store {str(self.path)!r} has layout version {version}; this fsmdial reads up to {SCHEMA_VERSION}"
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

    def close(self) -> None:
        """Close every connection this store opened (in any thread)."""
        with self._lock:
            self._closed = True
            connections, self._connections = self._connections, {}
        for conn in connections.values():
            conn.close()

    def __enter__(self) -> SessionStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def _errors(self, doing: str) -> Iterator[None]:
        try:
            yield
        except sqlite3.Error as exc:
            raise StoreError(f"store {str(self.path)!r}: cannot {doing}: {exc}") from exc

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

    # ------------------------------------------------------------ claims
    @contextmanager
    def claim(self, session_id: str, *, wait: float | None = None, lease: float = CLAIM_LEASE) -> Iterator[None]:
        """Hold the session's turn: no other claim on it (from any thread or process on this file) succeeds until
        this one is released, and no other writer may :meth:`save_turn` it meanwhile.

        Take it *before* reading the session and running its turn (``fsmdial serve`` does), so two turns of one
        session never run their tools at the same time: the second waits, then reads what the first committed.
        Waits up to ``wait`` seconds (default: the store's ``timeout``), then raises :class:`ConflictError`.
        ``lease``: seconds after which a claim whose holder never released it (a killed process) lapses.
        """
        owner = uuid.uuid4().hex
        deadline = time.monotonic() + (self.timeout if wait is None else wait)
        while True:
            with self._write(f"claim session {session_id!r}") as conn:
                now = time.time()
                held = conn.execute("SELECT expires FROM claims WHERE session_id = ?", (session_id,)).fetchone()
                if held is None or held[0] <= now:
                    conn.execute(
                        "INSERT OR REPLACE INTO claims (session_id, owner, expires) VALUES (?, ?, ?)",
                        (session_id, owner, now + lease),
                    )
                    break
            if time.monotonic() >= deadline:
                raise ConflictError(
                    f"another turn of session {session_id!r} is running (in this or another process); "
                    "try again when it is done"
                )
            time.sleep(0.02)
        claims = self._claims()
        claims[session_id] = owner
        try:
            yield
        finally:
            claims.pop(session_id, None)
            with self._write(f"release session {session_id!r}") as conn:
                conn.execute("DELETE FROM claims WHERE session_id = ? AND owner = ?", (session_id, owner))

    def _claims(self) -> dict[str, str]:
        """The claims this thread holds: session id -> owner token."""
        claims: dict[str, str] | None = getattr(self._local, "claims", None)
        if claims is None:
            claims = self._local.claims = {}
        return claims

    # ------------------------------------------------------------ the sink
    def save_turn(self, session_id: str, turn: int, snapshot: bytes, trace: dict[str, Any]) -> None:
        """Commit turn ``turn`` of the session: its snapshot and trace, atomically.

        Raises :class:`ConflictError` unless the stored session is at ``turn - 1``
        (no row counts as turn 0), :class:`StoreError` if the write fails.
        """
        if not isinstance(snapshot, (bytes, bytearray)):
            raise StoreError(f"snapshot of session {session_id!r} must be bytes, not {type(snapshot).__name__}")
        try:
            flow = orjson.loads(snapshot).get("flow", "")
        except (orjson.JSONDecodeError, AttributeError) as exc:
            raise StoreError(f"snapshot of turn {turn} of session {session_id!r} is not a session: {exc}") from None
        trace_bytes = _trace_json(trace)
        now = time.time()
        with self._write(f"save turn {turn} of session {session_id!r}") as conn:
            claim = conn.execute("SELECT owner, expires FROM claims WHERE session_id = ?", (session_id,)).fetchone()
            if claim is not None and claim[1] > now and claim[0] != self._claims().get(session_id):
                raise ConflictError(
                    f"another turn of session {session_id!r} is running (it holds the session's claim); "
                    "resume the session when it is done"
                )
            row = conn.execute("SELECT turn FROM sessions WHERE id = ?", (session_id,)).fetchone()
            stored = row[0] if row else 0
            if stored != turn - 1:
                raise ConflictError(
                    f"session {session_id!r} is at turn {stored} in the store, so turn {turn} cannot follow it "
                    "(another writer committed first; resume the session to continue from there)"
                )
            if row is None:
                conn.execute(
                    "INSERT INTO sessions (id, flow, turn, snapshot, created, updated) VALUES (?, ?, ?, ?, ?, ?)",
                    (session_id, str(flow), turn, bytes(snapshot), now, now),
                )
            else:
                conn.execute(
                    "UPDATE sessions SET turn = ?, snapshot = ?, updated = ? WHERE id = ?",
                    (turn, bytes(snapshot), now, session_id),
                )
            conn.execute(
                "INSERT OR REPLACE INTO turns (session_id, turn, trace, created) VALUES (?, ?, ?, ?)",
                (session_id, turn, trace_bytes, now),
            )

    # ------------------------------------------------------------ reading
    def load(self, session_id: str) -> tuple[int, bytes]:
        """``(turn, snapshot)`` of the session's last committed turn. Raises :class:`UnknownSession`, or
        :class:`~fsmdial.errors.SnapshotError` if the row is damaged (a snapshot stored as TEXT is read as UTF-8)."""
        with self._errors(f"load session {session_id!r}"):
            row = (
                self._connection().execute("SELECT turn, snapshot FROM sessions WHERE id = ?", (session_id,)).fetchone()
            )
        if row is None:
            raise UnknownSession(session_id)
        turn, snapshot = row
        if isinstance(snapshot, str):  # a TEXT value (the file written or edited by another tool): its UTF-8
            snapshot = snapshot.encode("utf-8", "surrogatepass")
        if type(turn) is not int or not isinstance(snapshot, bytes):
            raise SnapshotError(
                f"store {str(self.path)!r}: session {session_id!r} is damaged: turn {turn!r:.40} "
                f"and a snapshot of type {type(snapshot).__name__} (expected an integer and JSON)"
            )
        return turn, snapshot

    def __contains__(self, session_id: object) -> bool:
        with self._errors("look up a session"):
            return (
                self._connection().execute("SELECT 1 FROM sessions WHERE id = ?", (session_id,)).fetchone() is not None
            )

    def sessions(self, *, flow: str | None = None) -> list[SessionInfo]:
        """Stored sessions (of one flow, if given), most recently updated first."""
        query = "SELECT id, flow, turn, created, updated FROM sessions"
        params: tuple[Any, ...] = ()
        if flow is not None:
            query, params = query + " WHERE flow = ?", (flow,)
        with self._errors("list sessions"):
            rows = self._connection().execute(query + " ORDER BY updated DESC, id", params).fetchall()
        return [SessionInfo(*row) for row in rows]

    def traces(self, session_id: str, *, damaged: Literal["raise", "mark"] = "raise") -> list[dict[str, Any]]:
        """The traces of the session's committed turns, in order. Raises :class:`UnknownSession`.

        A row that cannot be read (not JSON, not an object: a damaged or hand-edited file) raises
        :class:`~fsmdial.errors.DamagedTrace` naming the session and turn; with ``damaged="mark"`` it is
        ``{"turn": n, "damaged": "<what is wrong>"}`` in the list instead, and the other traces are read.
        """
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
        if known is None:
            raise UnknownSession(session_id)
        traces = []
        for turn, raw in rows:
            try:
                trace = orjson.loads(raw) if isinstance(raw, (bytes, str)) else raw
            except orjson.JSONDecodeError as exc:
                problem: str | None = f"is not JSON ({exc})"
            else:
                problem = None if isinstance(trace, dict) else f"is a {type(trace).__name__}, not a JSON object"
            if problem is None:
                traces.append(trace)
            elif damaged == "mark":
                traces.append({"turn": turn, "damaged": problem})
            else:
                raise DamagedTrace(
                    f"store {str(self.path)!r}: the trace of turn {turn} of session {session_id!r} {problem}",
                    session_id,
                    turn,
                )
        return traces

    def delete(self, session_id: str) -> bool:
        """Remove a session and its traces; False if there was none."""
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

    # ------------------------------------------------------------ dialogues
    def dialogue(self, flow: FlowSource, session_id: str | None = None, **kwargs: Any) -> Dialogue:
        """A :class:`~fsmdial.runtime.Dialogue` bound to this store: resumed if ``session_id``
        is stored, else new (a fresh id when none is given). Keyword arguments go to ``Dialogue``."""
        from .runtime import Dialogue

        if session_id is not None and session_id in self:
            return self.resume(flow, session_id, **kwargs)
        return Dialogue(flow, store=self, session_id=session_id, **kwargs)

    def resume(self, flow: FlowSource, session_id: str, **kwargs: Any) -> Dialogue:
        """The stored session continued, bound to this store.

        Raises :class:`UnknownSession`, or :class:`~fsmdial.errors.SnapshotError`
        if the snapshot is of an unknown format version or of another flow.
        """
        from .runtime import Dialogue

        _, snapshot = self.load(session_id)
        return Dialogue.restore(flow, snapshot, store=self, session_id=session_id, **kwargs)


def _trace_json(trace: Any) -> bytes:
    """The trace as JSON. A trace is a diagnostic record, so what JSON cannot hold exactly (an
    integer beyond 64 bits, a lone surrogate, an object) is written as readable text instead of
    failing the turn; snapshots, which must round-trip, are never altered like this."""
    try:
        return orjson.dumps(trace, default=repr, option=orjson.OPT_NON_STR_KEYS)
    except TypeError:  # orjson.JSONEncodeError is a TypeError
        return orjson.dumps(jsonable(trace, storable=True))
