"""Session stores, opened by URL: ``open_store("sqlite:///sessions.db")`` or ``open_store("postgresql://...")``.

Every store has the interface of :class:`~fsmdial.stores.base.Store` (snapshots, traces, claims; its
docstring says what each promises) and the same tests (``tests/store/``)::

    store = open_store("sessions.db")                      # SQLite (the default): one file, one machine
    store = open_store("postgresql://fsmdial@db/fsmdial")  # PostgreSQL: workers on several machines
    dialogue = store.dialogue(flow, tools=tools)           # a new session, each turn saved before it returns
    dialogue = store.resume(flow, dialogue.session_id, tools=tools)   # later, any process

The interface is :class:`Store` (:mod:`.base`), :class:`SQLiteStore` the SQLite store (:mod:`.sqlite`, the
default), :class:`~fsmdial.stores.postgres.PostgresStore` the PostgreSQL one (:mod:`.postgres`, needs
``fsmdial[postgres]``; imported only when a ``postgresql://`` URL is opened). A store URL is shown (in messages,
logs, ``fsmdial serve``'s start line) only as :func:`~fsmdial.stores.secrets.shown_url` masks it.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import unquote, urlsplit

from ..errors import StoreError, StoreUnavailable, UnknownSession, UnstorableValue
from .base import CLAIM_LEASE, MAX_ID_BYTES, SessionInfo, Store, storable_text
from .secrets import shown_url
from .sqlite import SCHEMA_VERSION, SQLiteStore

__all__ = [
    "CLAIM_LEASE",
    "MAX_ID_BYTES",
    "SCHEMA_VERSION",
    "SessionInfo",
    "SQLiteStore",
    "Store",
    "StoreUnavailable",  # lives in fsmdial.errors, as the next two
    "UnknownSession",
    "UnstorableValue",
    "open_store",
    "shown_url",
    "storable_text",
    "store_kind",
]

SCHEMES = {"sqlite": "sqlite", "postgresql": "postgresql", "postgres": "postgresql"}
"""URL schemes :func:`open_store` knows, and the store each opens."""


def store_kind(url: str) -> str:
    """``"sqlite"`` or ``"postgresql"``: the store ``url`` names (a bare path is an SQLite file).
    Raises :class:`StoreError` for another scheme."""
    scheme, sep, _ = url.partition("://")
    if not sep:
        return "sqlite"
    kind = SCHEMES.get(scheme.lower())
    if kind is None:
        known = ", ".join(f"{name}://" for name in SCHEMES)
        raise StoreError(f"store URL scheme {scheme + '://'!r} is not one fsmdial knows (use {known} or a file path)")
    return kind


def sqlite_path(url: str) -> str:
    """The file an SQLite URL names: ``sqlite:///sessions.db`` is ``sessions.db`` (relative to the working
    directory) and ``sqlite:////var/lib/fsmdial.db`` is ``/var/lib/fsmdial.db``, as SQLAlchemy reads them; a
    bare path is itself."""
    if "://" not in url:
        return url
    parts = urlsplit(url)
    if parts.netloc not in ("", "localhost"):
        host = f"the host {parts.hostname!r}" if parts.hostname else "a host"  # the netloc may hold a password
        raise StoreError(f"an SQLite store is a local file: {shown_url(url)!r} names {host}")
    path = unquote(parts.path)[1:]
    if not path:
        raise StoreError(f"store URL {shown_url(url)!r} names no file (write sqlite:///sessions.db)")
    return path


def open_store(url: str, **options: Any) -> Store[Any]:
    """The store at ``url``: ``sqlite:///FILE`` or a bare file path (:class:`SQLiteStore`), or
    ``postgresql://...`` (:class:`~fsmdial.stores.postgres.PostgresStore`). ``options`` (``timeout``, ``durable``)
    go to the store."""
    if store_kind(url) == "sqlite":
        return SQLiteStore(sqlite_path(url), **options)
    from .postgres import PostgresStore

    return PostgresStore(url, **options)
