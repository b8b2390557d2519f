"""``fsmdial serve`` in several processes sharing one store (SQLite file or PostgreSQL): any process may serve
any turn of any session, and a session's turns never interleave, get lost or run a side effect twice."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import orjson
import pytest

from tests.serve_support import BOOKING, RESTAURANT, ROOT

from .conftest import Backend
from .postgres_server import free_port

httpx = pytest.importorskip("httpx", reason="the worker tests talk HTTP with httpx (dev extra)")
pytest.importorskip("uvicorn", reason="fsmdial serve needs the serve extra: pip install 'fsmdial[serve]'")

TOOLS = "tests.store.recording_tools:registry"


@contextmanager
def serve(backend: Backend, side_effects: Path, *options: str) -> Iterator[tuple[str, subprocess.Popen[str]]]:
    """``fsmdial serve`` on the restaurant flow with the recording tools, on a free port; yields its base URL."""
    port = free_port()
    command = [sys.executable, "-m", "fsmdial.cli", "serve", str(RESTAURANT), "--store", backend.url]
    command += ["--tools", TOOLS, "--port", str(port), *options]
    env = {**os.environ, "FSMDIAL_TEST_SIDE_EFFECTS": str(side_effects), "PYTHONPATH": str(ROOT)}
    process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                httpx.get(f"{base}/flows", timeout=5).raise_for_status()
                break
            except httpx.TransportError:
                if process.poll() is not None or time.monotonic() > deadline:
                    raise AssertionError(f"fsmdial serve did not answer: {stop(process)}") from None
                time.sleep(0.2)
        yield base, process
    finally:
        stop(process)


def stop(process: subprocess.Popen[str]) -> str:
    if process.poll() is None:
        process.terminate()
    try:
        return process.communicate(timeout=30)[0]
    except subprocess.TimeoutExpired:
        process.kill()
        return process.communicate(timeout=30)[0]


def say(base: str, sid: str, text: str) -> httpx.Response:
    return httpx.post(f"{base}/sessions/{sid}/turns", json={"text": text}, timeout=60)


def booked(side_effects: Path) -> list[dict[str, Any]]:
    return [orjson.loads(line) for line in side_effects.read_bytes().splitlines()] if side_effects.exists() else []


def user_turns(view: dict[str, Any]) -> list[str]:
    return [turn["user"] for turn in view["turns"][1:]]


def test_two_servers_serve_alternate_turns_of_one_session(backend: Backend, tmp_path: Path) -> None:
    """Two ``fsmdial serve`` processes on one store take turns of one session by turns, then both get the
    final "yes" at the same moment: every turn is there once and in order, and the table is booked once."""
    side_effects = tmp_path / "bookings.jsonl"
    with serve(backend, side_effects) as (a, _), serve(backend, side_effects) as (b, _):
        sid = httpx.post(f"{a}/sessions", json={}, timeout=60).json()["id"]
        for index, text in enumerate(BOOKING):
            response = say((a, b)[index % 2], sid, text)
            assert response.status_code == 200, response.text
            assert user_turns(response.json()) == BOOKING[: index + 1]  # each server sees the other's turns
        outcomes: list[httpx.Response] = []
        start = threading.Barrier(2)

        def yes(base: str) -> None:
            start.wait()
            outcomes.append(say(base, sid, "yes"))

        threads = [threading.Thread(target=yes, args=(base,)) for base in (a, b)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(120)
        assert sorted(r.status_code for r in outcomes) == [200, 200], [r.text for r in outcomes]
        assert len(booked(side_effects)) == 1  # the second "yes" waited for the first, then found it done
        events = httpx.get(f"{b}/sessions/{sid}/download", timeout=60).json()["events"]
    assert [e["event"] for e in events] == ["start"] + ["turn"] * (len(BOOKING) + 2)
    assert [e["text"] for e in events[1:]] == [*BOOKING, "yes", "yes"]
    calls = [call for e in events for call in e["result"]["tool_calls"] if call["tool"] == "book_table"]
    assert len(calls) == 1 and calls[0]["status"] == "success"
    with backend.open() as store:
        assert [t["event"] for t in store.traces(sid)] == [e["event"] for e in events]
        assert store.check() == []


def worker_pids(process: subprocess.Popen[str]) -> set[int]:
    """The processes whose parent is ``process`` (uvicorn's workers)."""
    children = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rpartition(")")[2].split()
        except OSError:
            continue
        if int(fields[1]) == process.pid:
            children.add(int(stat.parent.name))
    return children


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="the worker processes are counted in /proc")
def test_serve_with_workers_shares_the_store_and_loses_no_turn(backend: Backend, tmp_path: Path) -> None:
    """``--workers 2``: many clients at once (a new connection per request, so the kernel hands them to either
    worker) send turns to three sessions; each session's log holds every text sent to it once, numbered in order."""
    side_effects = tmp_path / "bookings.jsonl"
    with serve(backend, side_effects, "--workers", "2") as (base, process):
        deadline = time.monotonic() + 30
        while len(worker_pids(process)) < 2 and time.monotonic() < deadline:
            time.sleep(0.2)
        assert len(worker_pids(process)) >= 2, "fsmdial serve --workers 2 did not start two workers"
        sessions = [httpx.post(f"{base}/sessions", json={}, timeout=60).json()["id"] for _ in range(3)]
        sent = {sid: [f"Name{n}{sid[:4]}" for n in range(6)] for sid in sessions}
        statuses: list[int] = []
        lock = threading.Lock()

        def client(sid: str, texts: list[str]) -> None:
            for text in texts:
                status = say(base, sid, text).status_code
                with lock:
                    statuses.append(status)

        threads = [  # two clients per session, each sending half its texts
            threading.Thread(target=client, args=(sid, texts[half::2]))
            for sid, texts in sent.items()
            for half in (0, 1)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(180)
        assert statuses == [200] * 18
        for sid, texts in sent.items():
            events = httpx.get(f"{base}/sessions/{sid}/download", timeout=60).json()["events"]
            assert [e["event"] for e in events] == ["start"] + ["turn"] * 6
            assert sorted(e["text"] for e in events[1:]) == sorted(texts)
            for client_half in (texts[0::2], texts[1::2]):  # each client's turns in the order it sent them
                assert [e["text"] for e in events if e.get("text") in client_half] == client_half
    with backend.open() as store:
        assert {info.id: info.turn for info in store.sessions()} == {sid: 7 for sid in sessions}
        assert store.check() == []
