"""Issue 33, item 4: a database that cannot be reached is a :class:`~fsmdial.stores.StoreUnavailable` (``fsmdial
serve`` answers it 503 with ``Retry-After``), not an error of the request, and the same store object works again
when the database is back: nothing to reopen, nothing half-written."""

from __future__ import annotations

import os
import sqlite3
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import orjson
import pytest

from fsmdial.errors import StoreError
from fsmdial.stores import SQLiteStore, StoreUnavailable, open_store

from .postgres_server import PostgresServer, started_server

SESSION = orjson.dumps({"flow": "f"})
SECRET = "hunter2-Zq"


def in_new_thread(call: Callable[[], Any]) -> Any:
    """``call()`` on a thread of its own (a thread opens its own connection on first use); its result or error."""
    outcome: list[Any] = []

    def run() -> None:
        try:
            outcome.append(call())
        except Exception as exc:
            outcome.append(exc)

    thread = threading.Thread(target=run)
    thread.start()
    thread.join(60)
    return outcome[0]


@pytest.fixture
def own_server() -> Iterator[PostgresServer]:
    """A server of this test's own, since the test stops it."""
    with started_server() as server:
        yield server


def test_an_sqlite_file_that_cannot_be_opened_is_unavailable_until_it_is_back(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    folder.mkdir()
    store = SQLiteStore(folder / "sessions.db", timeout=0.5)
    store.save_turn("s1", 1, SESSION, {"turn": 1})
    folder.rename(tmp_path / "moved")
    folder.write_text("not a folder")  # the path is there, the database is not (an unmounted volume)
    failed = in_new_thread(lambda: store.load("s1"))
    assert isinstance(failed, StoreUnavailable), failed
    assert "cannot load session 's1'" in str(failed)
    folder.unlink()
    (tmp_path / "moved").rename(folder)
    assert in_new_thread(lambda: store.load("s1")) == (1, SESSION)
    store.close()


def test_an_sqlite_file_locked_by_another_writer_is_unavailable_until_released(tmp_path: Path) -> None:
    path = tmp_path / "sessions.db"
    with SQLiteStore(path, timeout=0.3) as store:
        store.save_turn("s1", 1, SESSION, {"turn": 1})
        holder = sqlite3.connect(path, isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")  # a backup, a migration, a stuck process: the write lock is held
        with pytest.raises(StoreUnavailable, match="cannot save turn 2"):
            store.save_turn("s1", 2, SESSION, {"turn": 2})
        with pytest.raises(StoreUnavailable, match="cannot claim"), store.claim("s1"):
            pass
        assert store.load("s1") == (1, SESSION)  # reads go on (WAL)
        holder.execute("COMMIT")
        holder.close()
        store.save_turn("s1", 2, SESSION, {"turn": 2})
        assert store.traces("s1") == [{"turn": 1}, {"turn": 2}]


def test_a_postgres_server_down_then_up(own_server: PostgresServer) -> None:
    url = f"postgresql://postgres:{SECRET}@127.0.0.1:{own_server.port}/postgres?sslpassword={SECRET}"
    with open_store(url, timeout=2) as store:
        store.save_turn("s1", 1, SESSION, {"turn": 1})
        own_server.halt()
        for call in (
            lambda: store.load("s1"),
            lambda: store.save_turn("s1", 2, SESSION, {"turn": 2}),
            lambda: "s1" in store,
            lambda: store.traces("s1"),
            lambda: store.sessions(),
        ):
            with pytest.raises(StoreUnavailable) as caught:
                call()
            assert SECRET not in str(caught.value) and f"127.0.0.1:{own_server.port}" in str(caught.value)
        with pytest.raises(StoreUnavailable), store.claim("s1"):
            pass
        own_server.resume()
        assert store.load("s1") == (1, SESSION)  # the same store: it reconnects
        with store.claim("s1"):
            store.save_turn("s1", 2, SESSION, {"turn": 2})
        assert store.traces("s1") == [{"turn": 1}, {"turn": 2}]
        assert in_new_thread(lambda: store.load("s1"))[0] == 2


def test_a_store_error_that_is_not_an_outage_is_not_called_one(tmp_path: Path) -> None:
    (tmp_path / "junk.db").write_bytes(os.urandom(4096))
    with pytest.raises(StoreError) as caught:
        SQLiteStore(tmp_path / "junk.db")
    assert not isinstance(caught.value, StoreUnavailable)  # a file that is not a database: retrying cannot help
