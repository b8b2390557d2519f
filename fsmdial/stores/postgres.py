"""``PostgresStore``: the sessions in a PostgreSQL database, for several processes or machines (``fsmdial[postgres]``).

The same store as the SQLite one (see :mod:`fsmdial.stores.base`): a committed turn is one transaction writing
the session's snapshot and the turn's trace, committed only if the stored session is at the turn before. Tables
are ``fsmdial_sessions``, ``fsmdial_turns`` and ``fsmdial_layout`` (created on first use), so the database may
hold other things too::

    store = PostgresStore("postgresql://fsmdial@127.0.0.1:5432/fsmdial")

Serialising a session's turns across processes is a PostgreSQL *advisory lock* keyed by the session id:

* :meth:`~fsmdial.stores.base.Store.claim` takes the session-level lock ``pg_advisory_lock`` on the thread's
  connection (waiting with ``lock_timeout``, in the server's queue: no polling), before the session is read and
  before any tool runs, and ``pg_advisory_unlock`` releases it. A holder that dies (``kill -9``, a lost machine)
  loses its connection, and the server drops its locks at once: no lease to wait out, no row left behind;
* a claim taken on a connection that has since been lost (the server restarted, the network dropped it) is lost
  with it: a ``save_turn`` under it raises :class:`~fsmdial.errors.ConflictError` instead of committing a turn
  that another process may have run meanwhile; the thread's next call opens a new connection;
* every ``save_turn`` takes the transaction-level lock ``pg_try_advisory_xact_lock`` first. It is granted when
  nobody holds the session, or when this connection holds its claim (advisory locks are re-entrant for their
  holder), and refused at once (:class:`~fsmdial.errors.ConflictError`) while another connection holds the claim;
  under it the read of the stored turn and the write that follows cannot interleave with another writer's.

A row lock (``SELECT ... FOR UPDATE`` on the session) cannot claim a session that has no row yet and would keep
a transaction open through the whole turn (tools, model); a version column alone (compare-and-swap) is what
``save_turn`` already does, and it lets two turns run their tools before one of them loses.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from ..errors import ConflictError, MissingExtraError, StoreError
from .base import SessionInfo, Store
from .secrets import shown_url, url_secrets

if TYPE_CHECKING:
    import psycopg

SCHEMA_VERSION = 1
"""Layout of the tables (the row of ``fsmdial_layout``); a database written by a newer layout is refused."""

_SCHEMA = [
    """CREATE TABLE IF NOT EXISTS fsmdial_sessions (
        id       TEXT PRIMARY KEY,
        flow     TEXT NOT NULL,
        turn     INTEGER NOT NULL,
        snapshot BYTEA NOT NULL,
        created  DOUBLE PRECISION NOT NULL,
        updated  DOUBLE PRECISION NOT NULL
    )""",
    """CREATE TABLE IF NOT EXISTS fsmdial_turns (
        session_id TEXT NOT NULL REFERENCES fsmdial_sessions(id) ON DELETE CASCADE,
        turn       INTEGER NOT NULL,
        trace      BYTEA NOT NULL,
        created    DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (session_id, turn)
    )""",
    "CREATE INDEX IF NOT EXISTS fsmdial_sessions_updated ON fsmdial_sessions (updated DESC, id)",
    "CREATE TABLE IF NOT EXISTS fsmdial_layout (one BOOLEAN PRIMARY KEY DEFAULT TRUE CHECK (one), version INTEGER)",
]

LAYOUT_LOCK = 0x66736D6469616C  # "fsmdial": the advisory lock key that serialises creating the tables
KEY = "hashtextextended('fsmdial:' || %s, 0)"
"""SQL for a session's advisory lock key: a 64-bit hash of its id (a collision only makes two sessions wait for
each other; it never lets two turns of one session run at once)."""


def connection_lost(exc: Exception) -> bool:
    """Whether ``exc`` means the connection is gone: a connection exception (SQLSTATE class 08), the server
    shutting down or terminating the backend (57P01-57P03), or an operational error with no state at all."""
    state = getattr(exc, "sqlstate", None)
    if state is None:
        return type(exc).__name__ == "OperationalError"
    return state.startswith("08") or state in ("57P01", "57P02", "57P03")


def unavailable(exc: Exception) -> bool:
    """Whether ``exc`` means the database cannot be reached or stays busy, so the same call may succeed later: the
    connection is lost or cannot be made, the server is out of resources (class 53: too many connections), a lock
    or statement timed out (55P03, 57014)."""
    state = getattr(exc, "sqlstate", None)
    return connection_lost(exc) or (state is not None and (state.startswith("53") or state in ("55P03", "57014")))


class PostgresStore(Store["psycopg.Connection[Any]"]):
    """Sessions in the PostgreSQL database at ``url`` (``postgresql://user:password@host:port/database``, or any
    libpq connection string); see the module docstring. ``timeout``: seconds a connection, a claim or a write
    waits before failing. ``durable=False`` commits with ``synchronous_commit=off``: a crash of the database
    server (not of fsmdial) may lose the last turns."""

    def __init__(self, url: str, *, timeout: float = 10.0, durable: bool = True):
        try:
            import psycopg
        except ImportError as exc:
            raise MissingExtraError("postgres", "a PostgreSQL session store", exc, packages="psycopg") from None
        self._psycopg = psycopg
        super().__init__(shown_url(url), timeout, secrets=url_secrets(url))
        self.url = url
        self.durable = durable
        try:
            with self._write("create the tables") as conn:
                self._init_schema(conn)
        except BaseException:
            self.close()  # a refused database leaves no connection open
            raise

    # ------------------------------------------------------------ connections
    def _connect(self) -> psycopg.Connection[Any]:
        with self._errors("connect"):
            conn = self._psycopg.connect(self.url, autocommit=True, connect_timeout=max(1, round(self.timeout)))
            conn.execute(  # text goes both ways as UTF-8, whatever $PGCLIENTENCODING says
                "SELECT set_config('lock_timeout', %s, false), set_config('client_encoding', 'UTF8', false)",
                (f"{round(self.timeout * 1000)}ms",),
            )
            if not self.durable:
                conn.execute("SET synchronous_commit = off")
        return conn

    def _usable(self, conn: psycopg.Connection[Any]) -> bool:
        return not (conn.closed or conn.broken)

    def _disconnect(self, conn: psycopg.Connection[Any]) -> None:
        conn.close()

    def _init_schema(self, conn: psycopg.Connection[Any]) -> None:
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (LAYOUT_LOCK,))  # workers starting at once: one creates
        row = conn.execute("SELECT current_setting('server_encoding')").fetchone()
        if row is None or row[0] != "UTF8":  # every store takes the same text: all of Unicode but U+0000
            raise StoreError(
                f"store {self.location!r}: the database's encoding is {row[0] if row else None}, not UTF8, so it "
                "cannot hold all the text another store holds; create it with ENCODING 'UTF8'"
            )
        for statement in _SCHEMA:
            conn.execute(statement)
        row = conn.execute("SELECT version FROM fsmdial_layout").fetchone()
        version = row[0] if row else 0
        if version > SCHEMA_VERSION:
            raise StoreError(
                f"store {self.location!r} has layout version {version}; this fsmdial reads up to {SCHEMA_VERSION}"
            )
        conn.execute(
            "INSERT INTO fsmdial_layout (one, version) VALUES (TRUE, %s) ON CONFLICT (one) DO UPDATE SET version = %s",
            (SCHEMA_VERSION, SCHEMA_VERSION),
        )

    def __enter__(self) -> PostgresStore:
        return self

    @contextmanager
    def _errors(self, doing: str) -> Iterator[None]:
        try:
            yield
        except self._psycopg.Error as exc:
            conn = getattr(self._local, "conn", None)
            if conn is not None and connection_lost(exc):
                conn.close()  # the server said goodbye (a restart, a terminated backend): the next call reconnects
            # not chained: the driver's own message may quote the URL, credentials and all (ours is redacted)
            raise self._failure(doing, exc, unavailable=unavailable(exc)) from None

    @contextmanager
    def _write(self, doing: str) -> Iterator[psycopg.Connection[Any]]:
        """One transaction on this thread's connection."""
        with self._errors(doing):
            conn = self._connection()
            with conn.transaction():
                yield conn

    # ------------------------------------------------------------ claims: advisory locks
    def _acquire(self, session_id: str, owner: str, wait: float, lease: float) -> bool:
        with self._errors(f"claim session {session_id!r}"):
            conn = self._connection()
            if wait <= 0:  # lock_timeout 0 would mean "wait for ever"
                row = conn.execute(f"SELECT pg_try_advisory_lock({KEY})", (session_id,)).fetchone()
                if row and row[0]:
                    self._held_on()[session_id] = conn
                return bool(row and row[0])
            conn.execute("SELECT set_config('lock_timeout', %s, false)", (f"{max(1, round(wait * 1000))}ms",))
            try:
                conn.execute(f"SELECT pg_advisory_lock({KEY})", (session_id,))
            except self._psycopg.errors.LockNotAvailable:
                return False
            finally:
                if self._usable(conn):
                    conn.execute("SELECT set_config('lock_timeout', %s, false)", (f"{round(self.timeout * 1000)}ms",))
            self._held_on()[session_id] = conn
            return True

    def _held_on(self) -> dict[str, psycopg.Connection[Any]]:
        """The connection each claim of this thread was taken on: the lock lives and dies with it."""
        held: dict[str, psycopg.Connection[Any]] | None = getattr(self._local, "held_on", None)
        if held is None:
            held = self._local.held_on = {}
        return held

    def _release(self, session_id: str, owner: str) -> None:
        conn = self._held_on().pop(session_id, None)
        if conn is None or not self._usable(conn):
            return  # the connection that held the lock is gone, and the server dropped the lock with it
        try:
            conn.execute(f"SELECT pg_advisory_unlock({KEY})", (session_id,))
        except self._psycopg.Error as exc:
            if not connection_lost(exc):
                raise self._failure(f"release session {session_id!r}", exc, unavailable=unavailable(exc)) from None
            conn.close()  # lost with its connection: the server dropped the lock already

    # ------------------------------------------------------------ the sink
    def _commit(self, session_id: str, turn: int, flow: str, snapshot: bytes, trace: bytes, now: float) -> None:
        with self._write(f"save turn {turn} of session {session_id!r}") as conn:
            if session_id in self._claims() and self._held_on().get(session_id) is not conn:
                raise ConflictError(
                    f"the claim on session {session_id!r} was lost with the connection to the database, so another "
                    "turn may have run meanwhile; resume the session to continue from what is stored"
                )
            free = conn.execute(f"SELECT pg_try_advisory_xact_lock({KEY})", (session_id,)).fetchone()
            if not (free and free[0]):
                raise self._claimed_elsewhere(session_id)
            row = conn.execute("SELECT turn FROM fsmdial_sessions WHERE id = %s", (session_id,)).fetchone()
            stored = row[0] if row else 0
            if stored != turn - 1:
                raise self._not_next(session_id, stored, turn)
            if row is None:
                conn.execute(
                    "INSERT INTO fsmdial_sessions (id, flow, turn, snapshot, created, updated) "
                    "VALUES (%s, %s, %s, %s, %s, %s)",
                    (session_id, flow, turn, snapshot, now, now),
                )
            else:
                conn.execute(
                    "UPDATE fsmdial_sessions SET turn = %s, snapshot = %s, updated = %s WHERE id = %s",
                    (turn, snapshot, now, session_id),
                )
            conn.execute(
                "INSERT INTO fsmdial_turns (session_id, turn, trace, created) VALUES (%s, %s, %s, %s) "
                "ON CONFLICT (session_id, turn) DO UPDATE SET trace = EXCLUDED.trace, created = EXCLUDED.created",
                (session_id, turn, trace, now),
            )

    # ------------------------------------------------------------ reading
    def _load_row(self, session_id: str) -> tuple[Any, Any] | None:
        with self._errors(f"load session {session_id!r}"):
            row = (
                self._connection()
                .execute("SELECT turn, snapshot FROM fsmdial_sessions WHERE id = %s", (session_id,))
                .fetchone()
            )
        return None if row is None else (row[0], row[1])

    def _contains(self, session_id: str) -> bool:
        with self._errors("look up a session"):
            found = self._connection().execute("SELECT 1 FROM fsmdial_sessions WHERE id = %s", (session_id,))
            return found.fetchone() is not None

    def _sessions(self, flow: str | None) -> list[SessionInfo]:
        query = "SELECT id, flow, turn, created, updated FROM fsmdial_sessions"
        params: tuple[Any, ...] = ()
        if flow is not None:
            query, params = query + " WHERE flow = %s", (flow,)
        with self._errors("list sessions"):
            rows = self._connection().execute(query + " ORDER BY updated DESC, id", params).fetchall()
        return [SessionInfo(*row) for row in rows]

    def _trace_rows(self, session_id: str) -> list[tuple[int, Any]] | None:
        with self._errors(f"read the traces of session {session_id!r}"):
            rows = (
                self._connection()
                .execute(  # one statement: one consistent read of both tables
                    "SELECT t.turn, t.trace FROM fsmdial_sessions s LEFT JOIN fsmdial_turns t ON t.session_id = s.id "
                    "WHERE s.id = %s ORDER BY t.turn",
                    (session_id,),
                )
                .fetchall()
            )
        if not rows:
            return None
        return [(row[0], row[1]) for row in rows if row[0] is not None]

    def _delete(self, session_id: str) -> bool:
        """Remove a session and its traces; False if there was none. Waits (up to the store's ``timeout``) for a
        turn of the session that holds its claim elsewhere, so it never cuts into a commit."""
        with self._write(f"delete session {session_id!r}") as conn:
            conn.execute(f"SELECT pg_advisory_xact_lock({KEY})", (session_id,))
            conn.execute("DELETE FROM fsmdial_turns WHERE session_id = %s", (session_id,))
            return conn.execute("DELETE FROM fsmdial_sessions WHERE id = %s", (session_id,)).rowcount > 0

    def check(self) -> list[str]:
        """What the store's rows promise, checked in the database: ``[]`` when it holds, else the sessions whose
        current turn has no trace or whose traces go past it."""
        with self._errors("check the tables"):
            rows = (
                self._connection()
                .execute(
                    "SELECT s.id, s.turn, max(t.turn) FROM fsmdial_sessions s "
                    "LEFT JOIN fsmdial_turns t ON t.session_id = s.id GROUP BY s.id, s.turn "
                    "HAVING max(t.turn) IS DISTINCT FROM s.turn ORDER BY s.id"
                )
                .fetchall()
            )
        return [f"session {sid!r} is at turn {turn} but its last trace is of turn {last}" for sid, turn, last in rows]
