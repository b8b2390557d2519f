"""What only the PostgreSQL store has to handle: its connection to the server being cut."""

from __future__ import annotations

import orjson
import pytest

from fsmdial.errors import ConflictError, StoreError

from .conftest import Backend, postgres_backend
from .postgres_server import PostgresServer

SESSION = orjson.dumps({"flow": "f"})


@pytest.fixture
def pg(postgres_server: PostgresServer) -> Backend:
    return postgres_backend(postgres_server)


def cut_connections(backend: Backend) -> None:
    """What a restarted server or a dropped network does to the store's connections."""
    backend.sql(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
        "WHERE datname = current_database() AND pid <> pg_backend_pid()",
        (),
    )


def test_a_cut_connection_fails_one_call_then_the_store_reconnects(pg: Backend) -> None:
    with pg.open() as store:
        store.save_turn("s1", 1, SESSION, {"turn": 1})
        cut_connections(pg)
        with pytest.raises(StoreError, match="cannot"):  # the call that finds the connection gone
            store.save_turn("s1", 2, SESSION, {"turn": 2})
        store.save_turn("s1", 2, SESSION, {"turn": 2})  # a new connection, nothing half-written
        assert store.traces("s1") == [{"turn": 1}, {"turn": 2}]


def test_a_claim_lost_with_its_connection_commits_nothing(pg: Backend) -> None:
    """The lock went with the connection, so another process may have run a turn meanwhile: the holder's
    commit is refused, not slipped in on a new connection."""
    with pg.open() as store:
        store.save_turn("s1", 1, SESSION, {"turn": 1})
        with store.claim("s1"):
            cut_connections(pg)
            with pg.open() as other, other.claim("s1", wait=5):  # the lock went: another turn can claim the session
                pass
            with pytest.raises(StoreError):
                store.load("s1")  # the store finds its connection gone
            with pytest.raises(ConflictError, match="claim on session 's1' was lost"):
                store.save_turn("s1", 2, SESSION, {"turn": 2})
        with store.claim("s1", wait=5):  # a new claim, on the new connection, works
            store.save_turn("s1", 2, SESSION, {"turn": 2})
        assert store.load("s1")[0] == 2


def test_durable_false_commits_without_waiting_for_the_disk(pg: Backend) -> None:
    with pg.open(durable=False) as fast, pg.open() as durable:
        fast.save_turn("s1", 1, SESSION, {})
        setting = "SELECT current_setting('synchronous_commit')"
        assert fast._connection().execute(setting).fetchone() == ("off",)
        assert durable._connection().execute(setting).fetchone() == ("on",)
        assert durable.load("s1") == (1, SESSION)


def test_a_database_that_is_not_utf8_is_refused(postgres_server: PostgresServer) -> None:
    """Issue 33, item 9: every store takes the same text, all of Unicode but U+0000; a LATIN1 database could not."""
    import psycopg

    with psycopg.connect(postgres_server.url(), autocommit=True) as conn:
        conn.execute("CREATE DATABASE latin ENCODING 'LATIN1' LC_COLLATE 'C' LC_CTYPE 'C' TEMPLATE template0")
    with pytest.raises(StoreError, match="encoding is LATIN1, not UTF8"):
        Backend("postgresql", postgres_server.url("latin"), lambda *_: None).open()


def test_text_goes_as_utf8_whatever_the_client_encoding_says(pg: Backend, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PGCLIENTENCODING", "LATIN1")
    with pg.open() as store:
        store.save_turn("€ 😀", 1, orjson.dumps({"flow": "ünïcode ✓"}), {"turn": 1})
        assert [(info.id, info.flow) for info in store.sessions()] == [("€ 😀", "ünïcode ✓")]
