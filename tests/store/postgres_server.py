"""A throwaway PostgreSQL server for the tests: ``initdb`` in a temporary folder, started on a free loopback port.

The distribution's binaries are found on ``PATH`` or in ``/usr/lib/postgresql/*/bin`` (``.ci/run`` installs
Debian's ``postgresql`` package in CI). ``initdb`` refuses to run as root, so as root the server runs as the
``postgres`` user (or ``nobody``). Nothing is faked: without binaries the tests that need a server are skipped
and say why (:data:`MISSING`).
"""

from __future__ import annotations

import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

SEARCH = "/usr/lib/postgresql/*/bin"


def binaries() -> Path | None:
    """The folder holding ``initdb``, ``pg_ctl`` and ``postgres`` (PATH first, then the newest Debian version)."""
    found = shutil.which("initdb")
    candidates = [Path(found).resolve().parent] if found else []
    candidates += sorted(Path("/").glob(SEARCH.lstrip("/")), key=lambda p: int(p.parent.name), reverse=True)
    for folder in candidates:
        if all((folder / name).is_file() for name in ("initdb", "pg_ctl", "postgres")):
            return folder
    return None


MISSING = (
    f"no PostgreSQL server binaries (initdb, pg_ctl, postgres) on PATH or in {SEARCH}: "
    "install the distribution's postgresql package (.ci/run does in CI) to run the PostgreSQL store tests"
)


@contextmanager
def started_server() -> Iterator[PostgresServer]:
    """A server started for the caller and stopped after; the test is skipped, saying why, without the binaries
    or psycopg (a fixture's body: ``with started_server() as server: yield server``)."""
    import pytest  # only the tests call this; the server class itself is plain

    folder = binaries()
    if folder is None:
        pytest.skip(MISSING)
    pytest.importorskip("psycopg", reason="psycopg is not installed: pip install 'fsmdial[postgres]'")
    with PostgresServer(folder) as server:
        yield server


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class PostgresServer:
    """One server (``start()``/``stop()``, or ``with``); :meth:`new_database` gives each test its own database."""

    def __init__(self, bin_dir: Path):
        self.bin_dir = bin_dir
        self.port = free_port()
        self.folder = Path(tempfile.mkdtemp(prefix="fsmdial-pg-"))
        self.data = self.folder / "data"
        self.log = self.folder / "server.log"
        self.as_user: dict[str, Any] = {}
        if os.geteuid() == 0:  # initdb and postgres refuse root
            try:
                account = pwd.getpwnam("postgres")
            except KeyError:
                account = pwd.getpwnam("nobody")
            os.chown(self.folder, account.pw_uid, account.pw_gid)
            self.as_user = {"user": account.pw_uid, "group": account.pw_gid, "extra_groups": []}

    def _run(self, *command: str) -> None:
        done = subprocess.run(
            [str(self.bin_dir / command[0]), *command[1:]],
            cwd=self.folder,  # a folder the server's user may enter (the checkout may be root's own)
            capture_output=True,
            text=True,
            timeout=120,
            **self.as_user,
        )
        if done.returncode != 0:
            log = self.log.read_text(errors="replace")[-3000:] if self.log.exists() else ""
            raise RuntimeError(f"{' '.join(command)} failed ({done.returncode}): {done.stderr[-3000:]}{log}")

    def start(self) -> PostgresServer:
        self._run("initdb", "-D", str(self.data), "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync")
        self.resume()
        return self

    def halt(self) -> None:
        """Stop the server, keeping its data (a database outage); :meth:`resume` brings it back on the same port."""
        self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "-t", "60", "stop")

    def resume(self) -> None:
        """Start the server on its data folder (after :meth:`start` made it, or :meth:`halt` stopped it)."""
        options = (
            f"-p {self.port} -c listen_addresses=127.0.0.1 -c unix_socket_directories={self.folder} "
            "-c fsync=off -c max_connections=200"  # fsync off: a test server; no test crashes the machine
        )
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.log), "-o", options, "-w", "-t", "60", "start")

    def stop(self) -> None:
        try:
            if (self.data / "postmaster.pid").exists():
                self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)

    def __enter__(self) -> PostgresServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def new_database(self) -> str:
        """The URL of a new, empty database on this server."""
        import psycopg

        name = f"t_{uuid.uuid4().hex[:12]}"
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name}")
        return self.url(name)
