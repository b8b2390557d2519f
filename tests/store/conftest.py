"""The stores every test here runs against: SQLite (a file in the test's folder) and PostgreSQL (a database of
its own on one throwaway server per test run, see postgres_server.py; skipped, saying why, only when no
PostgreSQL binaries or no psycopg are installed)."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from fsmdial.stores import Store, open_store

from .postgres_server import PostgresServer, started_server


@dataclass
class Backend:
    """One store kind: ``url`` (what ``open_store`` and ``fsmdial serve --store`` take), and raw SQL on it for the
    tests that damage a row or fake a newer layout."""

    kind: str
    url: str
    sql: Callable[[str, tuple[Any, ...]], None]

    def open(self, **options: Any) -> Store[Any]:
        return open_store(self.url, **options)

    def set_layout(self, version: int) -> None:
        """Mark the store as written by fsmdial's layout ``version``."""
        if self.kind == "sqlite":
            self.sql(f"PRAGMA user_version={int(version)}", ())
        else:
            self.sql("UPDATE fsmdial_layout SET version = %s", (version,))


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    with started_server() as server:
        yield server


def sqlite_backend(tmp_path: Path) -> Backend:
    path = tmp_path / "sessions.db"

    def sql(statement: str, params: tuple[Any, ...]) -> None:
        with sqlite3.connect(path) as conn:
            conn.execute(statement.replace("%s", "?").replace("fsmdial_", ""), params)

    return Backend("sqlite", f"sqlite:///{path}", sql)


def postgres_backend(server: PostgresServer) -> Backend:
    import psycopg

    url = server.new_database()

    def sql(statement: str, params: tuple[Any, ...]) -> None:
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute(statement, params)  # type: ignore[arg-type]

    return Backend("postgresql", url, sql)


@pytest.fixture(params=["sqlite", "postgresql"])
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Backend:
    if request.param == "sqlite":
        return sqlite_backend(tmp_path)
    return postgres_backend(request.getfixturevalue("postgres_server"))


@pytest.fixture
def store(backend: Backend) -> Iterator[Store[Any]]:
    with backend.open() as opened:
        yield opened
