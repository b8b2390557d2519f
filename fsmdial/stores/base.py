"""``Store``: what every session store does, and the parts of it that do not depend on the database.

A store keeps, per session, the snapshot of its last committed turn and the trace of every committed turn
(``fsmdial serve`` keeps its event log there). Its promises, which ``tests/store/`` checks on every store:

* ``save_turn`` commits a turn's snapshot and trace together, and only when the stored session is at the turn
  before (else :class:`~fsmdial.errors.ConflictError`): optimistic concurrency, the first commit wins.
* ``claim`` serialises the turns of one session across threads and processes: hold it around reading the session
  and running its turn, so no two turns of a session run their tools at once; while it is held, no other writer
  may ``save_turn`` that session. A claim whose holder died does not block the session for ever.
* reads (``load``, ``traces``, ``sessions``) see committed turns only; a damaged row is a typed error.
* every store takes the same values (:func:`storable_text`): a session id or flow name that one database could not
  keep as it is (U+0000, an unpaired surrogate, an id too long for PostgreSQL's index) is refused by all of them alike
  (:class:`~fsmdial.errors.UnstorableValue`), before anything is written, and reads find nothing under it.
* a database that cannot be reached or stays busy is a :class:`~fsmdial.errors.StoreUnavailable` (the same call may
  succeed later; the store reconnects by itself), any other failure a :class:`~fsmdial.errors.StoreError`. Their
  messages name the store by its ``location``, never with its credentials (:mod:`fsmdial.stores.secrets`).

A store hands each thread its own connection (opened on first use, closed when the thread has ended and another
thread opens one, or by :meth:`Store.close`).
"""

from __future__ import annotations

import threading
import time
import uuid
from abc import ABC, abstractmethod
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, Literal, TypeVar

import orjson

from ..errors import (
    ConflictError,
    DamagedTrace,
    SnapshotError,
    StoreError,
    StoreUnavailable,
    UnknownSession,
    UnstorableValue,
)
from ..jsonvalues import jsonable
from .secrets import redact

if TYPE_CHECKING:
    from ..runtime import Dialogue
    from ..tables import FlowSource

CLAIM_LEASE = 300.0
"""Seconds a claim holds (:meth:`Store.claim`) if its holder never releases it (the process died), where the store
cannot tell by itself that the holder is gone (SQLite; a PostgreSQL claim ends with its holder's connection)."""

MAX_ID_BYTES = 1024
"""The longest session id (in bytes of UTF-8) a store takes. PostgreSQL refuses an index entry over about 2.7 kB
(SQLite has no such limit), and every store takes the same ids."""

Connection = TypeVar("Connection")


def storable_text(value: object, *, limit: int | None = None) -> str | None:
    """Why ``value`` cannot be text a store keeps (a session id, at most ``limit`` bytes of UTF-8; a flow name), or
    ``None`` when every store keeps it exactly. Refused: what is not a ``str``; U+0000 (PostgreSQL's text cannot hold
    it); an unpaired surrogate (not Unicode text: UTF-8, which both databases store, cannot hold it)."""
    if not isinstance(value, str):
        return f"is a {type(value).__name__}, not text"
    if "\x00" in value:
        return "holds U+0000 (NUL), which PostgreSQL's text cannot hold"
    try:
        size = len(value.encode("utf-8"))
    except UnicodeEncodeError:
        return "holds an unpaired surrogate, which is not Unicode text (UTF-8 cannot hold it)"
    if limit is not None and size > limit:
        return f"is {size} bytes of UTF-8, more than the {limit} a store takes"
    return None


def storable_id(session_id: object) -> bool:
    """Whether every store can keep ``session_id`` (see :func:`storable_text`)."""
    return storable_text(session_id, limit=MAX_ID_BYTES) is None


def check_session_id(session_id: object) -> None:
    """Raise :class:`UnstorableValue` unless every store can keep ``session_id``."""
    problem = storable_text(session_id, limit=MAX_ID_BYTES)
    if problem is not None:
        raise UnstorableValue(f"session id {session_id!r:.80} {problem}; no store takes it (use a plain text id)")


@dataclass(frozen=True)
class SessionInfo:
    """One stored session, as :meth:`Store.sessions` lists it."""

    id: str
    flow: str
    turn: int
    created: float
    updated: float


class Store(ABC, Generic[Connection]):
    """A session store (see the module docstring). ``location`` names it in messages (never a password: a store
    with credentials passes :func:`~fsmdial.stores.secrets.shown_url`'s form, and its ``secrets`` for
    :meth:`redact`); ``timeout`` is how long (seconds) a write or a claim waits for another writer before failing."""

    def __init__(self, location: str, timeout: float, *, secrets: frozenset[str] = frozenset()):
        self.location = location
        self.timeout = timeout
        self._secrets = secrets
        self._local = threading.local()
        self._connections: dict[threading.Thread, Connection] = {}
        self._lock = threading.Lock()
        self._closed = False

    # ------------------------------------------------------------ connections
    @abstractmethod
    def _connect(self) -> Connection:
        """A new connection to the database, set up for this store."""

    def _usable(self, conn: Connection) -> bool:
        """Whether this thread's connection can still be used (a server may have dropped it)."""
        return True

    @abstractmethod
    def _disconnect(self, conn: Connection) -> None:
        """Close ``conn``."""

    def _connection(self) -> Connection:
        """This thread's connection (a new one when it has none, or when the one it had is unusable)."""
        if self._closed:
            raise StoreError(f"store {self.location!r} is closed")
        conn: Connection | None = getattr(self._local, "conn", None)
        if conn is not None and not self._usable(conn):
            self._disconnect(conn)
            conn = None
        if conn is None:
            conn = self._connect()
            self._local.conn = conn
            with self._lock:
                for thread in [t for t in self._connections if not t.is_alive()]:
                    self._disconnect(self._connections.pop(thread))  # threads that ended do not leak connections
                self._connections[threading.current_thread()] = conn
        return conn

    def redact(self, text: str) -> str:
        """``text`` without any credential of this store's URL (for what a database driver says about it)."""
        return redact(text, self._secrets)

    def _failure(self, doing: str, exc: BaseException, *, unavailable: bool) -> StoreError:
        """The store error for ``exc`` (the driver's), met doing ``doing``: :class:`StoreUnavailable` when the
        database could not be reached or stayed busy; the driver's words redacted of the store's credentials."""
        kind = StoreUnavailable if unavailable else StoreError
        return kind(f"store {self.location!r}: cannot {doing}: {self.redact(str(exc)).strip()}")

    def close(self) -> None:
        """Close every connection this store opened (in any thread)."""
        with self._lock:
            self._closed = True
            connections, self._connections = self._connections, {}
        for conn in connections.values():
            self._disconnect(conn)

    def __enter__(self) -> Store[Connection]:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------ claims
    @contextmanager
    def claim(self, session_id: str, *, wait: float | None = None, lease: float = CLAIM_LEASE) -> Iterator[None]:
        """Hold the session's turn: no other claim on it (from any thread or process using the same database)
        succeeds until this one is released, and no other writer may :meth:`save_turn` it meanwhile.

        Take it *before* reading the session and running its turn (``fsmdial serve`` does), so two turns of one
        session never run their tools at the same time: the second waits, then reads what the first committed.
        Waits up to ``wait`` seconds (default: the store's ``timeout``), then raises :class:`ConflictError`, as it
        does at once when this thread already holds the session (waiting for itself would never end).
        ``lease``: seconds after which a claim whose holder never released it lapses, where the store cannot see
        that its holder died (see :data:`CLAIM_LEASE`).
        """
        check_session_id(session_id)
        claims = self._claims()
        if session_id in claims:
            raise ConflictError(f"this thread already holds session {session_id!r}; a turn cannot wait for itself")
        owner = uuid.uuid4().hex
        if not self._acquire(session_id, owner, self.timeout if wait is None else wait, lease):
            raise ConflictError(
                f"another turn of session {session_id!r} is running (in this or another process); "
                "try again when it is done"
            )
        claims[session_id] = owner
        try:
            yield
        finally:
            claims.pop(session_id, None)
            self._release(session_id, owner)

    @abstractmethod
    def _acquire(self, session_id: str, owner: str, wait: float, lease: float) -> bool:
        """Take the session's claim for ``owner`` within ``wait`` seconds; False if another holder kept it."""

    @abstractmethod
    def _release(self, session_id: str, owner: str) -> None:
        """Give up ``owner``'s claim on the session."""

    def _claims(self) -> dict[str, str]:
        """The claims this thread holds: session id -> owner token."""
        claims: dict[str, str] | None = getattr(self._local, "claims", None)
        if claims is None:
            claims = self._local.claims = {}
        return claims

    # ------------------------------------------------------------ the sink
    def save_turn(self, session_id: str, turn: int, snapshot: bytes, trace: dict[str, Any]) -> None:
        """Commit turn ``turn`` of the session: its snapshot and trace, atomically.

        Raises :class:`ConflictError` unless the stored session is at ``turn - 1`` (no row counts as turn 0) and
        no other thread or process holds its claim, :class:`UnstorableValue` for a session id or flow name not every
        store can keep, :class:`StoreError` if the write fails.
        """
        check_session_id(session_id)
        if not isinstance(snapshot, (bytes, bytearray)):
            raise StoreError(f"snapshot of session {session_id!r} must be bytes, not {type(snapshot).__name__}")
        try:
            flow = orjson.loads(snapshot).get("flow", "")
        except (orjson.JSONDecodeError, AttributeError) as exc:
            raise StoreError(f"snapshot of turn {turn} of session {session_id!r} is not a session: {exc}") from None
        flow = str(flow)
        problem = storable_text(flow)
        if problem is not None:
            raise UnstorableValue(
                f"the flow name {flow!r:.80} of session {session_id!r} {problem}; no store takes it (rename the flow)"
            )
        self._commit(session_id, turn, flow, bytes(snapshot), trace_json(trace), time.time())

    @abstractmethod
    def _commit(self, session_id: str, turn: int, flow: str, snapshot: bytes, trace: bytes, now: float) -> None:
        """Write the turn in one transaction, after the checks :meth:`save_turn` promises (use the helpers
        :meth:`_claimed_elsewhere` and :meth:`_not_next` for their errors)."""

    def _claimed_elsewhere(self, session_id: str) -> ConflictError:
        return ConflictError(
            f"another turn of session {session_id!r} is running (it holds the session's claim); "
            "resume the session when it is done"
        )

    def _not_next(self, session_id: str, stored: int, turn: int) -> ConflictError:
        return ConflictError(
            f"session {session_id!r} is at turn {stored} in the store, so turn {turn} cannot follow it "
            "(another writer committed first; resume the session to continue from there)"
        )

    # ------------------------------------------------------------ reading
    def load(self, session_id: str) -> tuple[int, bytes]:
        """``(turn, snapshot)`` of the session's last committed turn. Raises :class:`UnknownSession`, or
        :class:`~fsmdial.errors.SnapshotError` if the row is damaged (a snapshot stored as text is read as UTF-8)."""
        row = self._load_row(session_id) if storable_id(session_id) else None
        if row is None:
            raise UnknownSession(session_id)
        turn, snapshot = row
        if isinstance(snapshot, str):  # a text value (written or edited by another tool): its UTF-8
            snapshot = snapshot.encode("utf-8", "surrogatepass")
        elif isinstance(snapshot, memoryview):
            snapshot = bytes(snapshot)
        if type(turn) is not int or not isinstance(snapshot, bytes):
            raise SnapshotError(
                f"store {self.location!r}: session {session_id!r} is damaged: turn {turn!r:.40} "
                f"and a snapshot of type {type(snapshot).__name__} (expected an integer and JSON)"
            )
        return turn, snapshot

    @abstractmethod
    def _load_row(self, session_id: str) -> tuple[Any, Any] | None:
        """The stored ``(turn, snapshot)`` of the session, as the database gives them, or None."""

    def __contains__(self, session_id: object) -> bool:
        return storable_id(session_id) and self._contains(str(session_id))

    @abstractmethod
    def _contains(self, session_id: str) -> bool:
        """Whether the session is stored."""

    def sessions(self, *, flow: str | None = None) -> list[SessionInfo]:
        """Stored sessions (of one flow, if given), most recently updated first."""
        if flow is not None and storable_text(flow) is not None:
            return []  # no store holds a session of such a flow
        return self._sessions(flow)

    @abstractmethod
    def _sessions(self, flow: str | None) -> list[SessionInfo]:
        """Stored sessions (of ``flow``, unless None), most recently updated first."""

    def traces(self, session_id: str, *, damaged: Literal["raise", "mark"] = "raise") -> list[dict[str, Any]]:
        """The traces of the session's committed turns, in order. Raises :class:`UnknownSession`.

        A row that cannot be read (not JSON, not an object: a damaged or hand-edited row) raises
        :class:`~fsmdial.errors.DamagedTrace` naming the session and turn; with ``damaged="mark"`` it is
        ``{"turn": n, "damaged": "<what is wrong>"}`` in the list instead, and the other traces are read.
        """
        rows = self._trace_rows(session_id) if storable_id(session_id) else None
        if rows is None:
            raise UnknownSession(session_id)
        traces = []
        for turn, raw in rows:
            if isinstance(raw, memoryview):
                raw = bytes(raw)
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
                    f"store {self.location!r}: the trace of turn {turn} of session {session_id!r} {problem}",
                    session_id,
                    turn,
                )
        return traces

    @abstractmethod
    def _trace_rows(self, session_id: str) -> list[tuple[int, Any]] | None:
        """``(turn, raw trace)`` of the session's turns in order, read consistently; None if there is no session."""

    def delete(self, session_id: str) -> bool:
        """Remove a session and its traces; False if there was none."""
        return storable_id(session_id) and self._delete(session_id)

    @abstractmethod
    def _delete(self, session_id: str) -> bool:
        """Remove the session and its traces in one transaction; False if there was none."""

    @abstractmethod
    def check(self) -> list[str]:
        """The database's own check of what the store holds: ``[]`` when it is sound, else the problems found."""

    # ------------------------------------------------------------ dialogues
    def dialogue(self, flow: FlowSource, session_id: str | None = None, **kwargs: Any) -> Dialogue:
        """A :class:`~fsmdial.runtime.Dialogue` bound to this store: resumed if ``session_id``
        is stored, else new (a fresh id when none is given). Keyword arguments go to ``Dialogue``."""
        from ..runtime import Dialogue

        if session_id is not None and session_id in self:
            return self.resume(flow, session_id, **kwargs)
        return Dialogue(flow, store=self, session_id=session_id, **kwargs)

    def resume(self, flow: FlowSource, session_id: str, **kwargs: Any) -> Dialogue:
        """The stored session continued, bound to this store.

        Raises :class:`UnknownSession`, or :class:`~fsmdial.errors.SnapshotError`
        if the snapshot is of an unknown format version or of another flow.
        """
        from ..runtime import Dialogue

        _, snapshot = self.load(session_id)
        return Dialogue.restore(flow, snapshot, store=self, session_id=session_id, **kwargs)


def trace_json(trace: Any) -> bytes:
    """The trace as JSON. A trace is a diagnostic record, so what JSON cannot hold exactly (an
    integer beyond 64 bits, a lone surrogate, an object) is written as readable text instead of
    failing the turn; snapshots, which must round-trip, are never altered like this."""
    try:
        return orjson.dumps(trace, default=repr, option=orjson.OPT_NON_STR_KEYS)
    except TypeError:  # orjson.JSONEncodeError is a TypeError
        return orjson.dumps(jsonable(trace, storable=True))
