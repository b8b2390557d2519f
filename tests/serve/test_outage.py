"""Issue 33, item 4: ``fsmdial serve`` with its store down, and with a password in the store URL.

Before: with ``--store 'postgresql://user@host:port/db?password=...'`` and the database down, the password was in
serve's start line and in every HTTP error body (only a ``user:password@`` password was masked), and the outage was
answered 422, as if the request were wrong. Now the URL is shown masked everywhere, an outage is 503 with
``Retry-After`` (the same request may be sent again), and serve answers again as soon as the store is back.
"""

from __future__ import annotations

import json
import logging
import sqlite3
import subprocess
import sys
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import orjson
import pytest

pytest.importorskip("starlette", reason="fsmdial serve needs the serve extra: pip install 'fsmdial[serve]'")
pytest.importorskip("httpx", reason="the ASGI test client needs httpx (dev extra)")
pytest.importorskip("uvicorn", reason="fsmdial serve needs the serve extra: pip install 'fsmdial[serve]'")

with warnings.catch_warnings():  # starlette 1.x would rather have httpx2; httpx works the same here
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from fsmdial.serve.app import create_app  # noqa: E402
from fsmdial.serve.sessions import Playground  # noqa: E402
from fsmdial.stores import SQLiteStore, open_store  # noqa: E402
from tests.serve_support import RESTAURANT, ROOT  # noqa: E402
from tests.store.postgres_server import PostgresServer, free_port, started_server  # noqa: E402

SECRET = "hunter2-Zq"
JSON = {"content-type": "application/json"}


def secret_url(port: int) -> str:
    """A URL with the password written twice, in the userinfo and as a parameter (the server trusts loopback, so
    any password connects)."""
    return f"postgresql://postgres:{SECRET}@127.0.0.1:{port}/postgres?password={SECRET}&sslpassword={SECRET}"


def assert_no_secret(text: str) -> None:
    for form in (SECRET, quote(SECRET), json.dumps(SECRET)[1:-1]):
        assert form not in text


@pytest.fixture
def own_server() -> Iterator[PostgresServer]:
    """A PostgreSQL server of this test's own, since the test stops it."""
    with started_server() as server:
        yield server


def post(client: TestClient, path: str, body: dict[str, Any] | None = None) -> Any:
    return client.post(path, content=orjson.dumps(body or {}), headers=JSON)


def assert_unavailable(response: Any) -> None:
    assert response.status_code == 503, response.text
    assert int(response.headers["retry-after"]) > 0
    assert response.json()["error"]["type"] == "StoreUnavailable"
    assert "Traceback" not in response.text


def test_a_postgres_outage_is_503_without_the_password_and_serve_recovers(
    own_server: PostgresServer, clock: Any, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    store = open_store(secret_url(own_server.port), timeout=2)
    playground = Playground([RESTAURANT], store, clock=clock)
    with TestClient(create_app(playground, allowed_hosts=["testserver"])) as client:
        sid = post(client, "/sessions").json()["id"]
        assert post(client, f"/sessions/{sid}/turns", {"text": "Alex"}).status_code == 200
        own_server.halt()
        answers = [
            post(client, "/sessions"),
            client.get(f"/sessions/{sid}"),
            post(client, f"/sessions/{sid}/turns", {"text": "4 people"}),
            post(client, f"/sessions/{sid}/undo"),
            client.get(f"/sessions/{sid}/download"),
        ]
        for response in answers:
            assert_unavailable(response)
            assert_no_secret(response.text)
            assert f"127.0.0.1:{own_server.port}" in response.json()["error"]["message"]
        own_server.resume()
        view = client.get(f"/sessions/{sid}")
        assert view.status_code == 200 and [t["user"] for t in view.json()["turns"]] == [None, "Alex"]
        view = post(client, f"/sessions/{sid}/turns", {"text": "4 people"})
        assert view.status_code == 200 and view.json()["turns"][-1]["user"] == "4 people"
        assert post(client, "/sessions").status_code == 201
    store.close()
    assert "store" in caplog.text.lower()  # the outage is logged for whoever runs the server...
    assert_no_secret(caplog.text)  # ...without the password


def test_an_sqlite_file_locked_by_another_writer_is_503_and_serve_recovers(tmp_path: Path, clock: Any) -> None:
    path = tmp_path / "sessions.db"
    playground = Playground([RESTAURANT], SQLiteStore(path, timeout=0.3), clock=clock)
    with TestClient(create_app(playground, allowed_hosts=["testserver"])) as client:
        sid = post(client, "/sessions").json()["id"]
        holder = sqlite3.connect(path, isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")  # another process holds the write lock
        assert_unavailable(post(client, "/sessions"))
        assert_unavailable(post(client, f"/sessions/{sid}/turns", {"text": "Alex"}))
        assert client.get(f"/sessions/{sid}").status_code == 200  # reads go on meanwhile
        holder.execute("COMMIT")
        holder.close()
        view = post(client, f"/sessions/{sid}/turns", {"text": "Alex"})
        assert view.status_code == 200 and [t["user"] for t in view.json()["turns"]] == [None, "Alex"]


def serve_command(store: str, port: int) -> list[str]:
    return [sys.executable, "-m", "fsmdial.cli", "serve", str(RESTAURANT), "--store", store, "--port", str(port)]


def test_serves_start_line_shows_the_store_url_masked(own_server: PostgresServer) -> None:
    port = free_port()
    process = subprocess.Popen(
        serve_command(secret_url(own_server.port), port), cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT
    )
    try:
        assert process.stdout is not None
        deadline = time.monotonic() + 60
        lines: list[str] = []
        while time.monotonic() < deadline and not any("fsmdial serve: http" in line for line in lines):
            line = process.stdout.readline().decode()
            if not line:
                break
            lines.append(line)
    finally:
        process.terminate()
        rest = process.communicate(timeout=30)[0].decode()
    output = "".join(lines) + rest
    assert f"http://127.0.0.1:{port}/" in output
    assert f"postgresql://postgres:***@127.0.0.1:{own_server.port}/postgres?password=***&sslpassword=***" in output
    assert_no_secret(output)


def test_serve_with_its_store_down_says_so_without_the_password() -> None:
    pytest.importorskip("psycopg", reason="psycopg is not installed: pip install 'fsmdial[postgres]'")
    down = free_port()  # nothing listens there
    done = subprocess.run(serve_command(secret_url(down), free_port()), cwd=ROOT, capture_output=True, timeout=120)
    assert done.returncode == 2
    error = done.stderr.decode()
    assert f"127.0.0.1:{down}" in error and "cannot" in error
    assert_no_secret(error + done.stdout.decode())


def test_a_flow_no_store_can_keep_is_refused_when_serve_starts(tmp_path: Path, clock: Any) -> None:
    """Issue 33, item 9: a flow named with U+0000 cannot be stored (PostgreSQL's text cannot hold it, and the stores
    take the same values): serve says so at the start instead of failing every first turn."""
    from fsmdial.errors import FlowError
    from fsmdial.loader import load_flow
    from fsmdial.serve.errors import ServeError

    document = orjson.loads(RESTAURANT.read_bytes())
    document["name"] = "restaurant\x00booking"
    with pytest.raises(FlowError, match="U\\+0000"):  # refused where it is written (fsmdial validate too) ...
        load_flow(document)
    flow = load_flow(RESTAURANT)
    flow.name = document["name"]  # ... and by serve, for a flow built in code and changed after its checks
    with pytest.raises((FlowError, ServeError), match="U\\+0000"):  # compiling it checks the flow again
        Playground([flow], SQLiteStore(tmp_path / "s.db"), clock=clock)
