"""Crash safety: a child writing conversations is SIGKILLed at random moments; nothing committed is lost.

The child (tests/store_child.py) reports ``<session> <turn>`` on a pipe after
each turn returns, i.e. after the turn was committed. After every kill the
store must open, pass SQLite's integrity check, and hold every session at (or,
for the one turn in flight when the kill came, one past) the last turn
reported, with one trace per committed turn and a snapshot that resumes.

CI kills the child 12 times; ``FSMDIAL_FULL=1`` kills it 100 times.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from fsmdial.stores import SQLiteStore
from tests.reliability_support import FLOW_PATHS, SpyTools, clock, count, flow, record

CHILD = Path(__file__).resolve().parent / "store_child.py"
KILLS = count(12, 100)

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL is POSIX")


def run_and_kill(db: Path, seed: int, rng: random.Random) -> list[str]:
    """Start the child, let it commit for a random moment after it is ready, SIGKILL it; its report lines."""
    child = subprocess.Popen(
        [sys.executable, str(CHILD), "crash", str(db), str(seed)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    lines: list[str] = []
    ready = threading.Event()

    def read() -> None:
        for raw in child.stdout:  # type: ignore[union-attr]
            if not raw.endswith(b"\n"):
                break  # cut by the kill: never a completed report
            line = raw.decode().rstrip("\n")
            if line == "ready":
                ready.set()
            else:
                lines.append(line)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    if not ready.wait(timeout=60):
        child.kill()
        child.wait()
        pytest.fail(f"crash child never got ready: {child.stderr.read().decode()[-2000:]}")  # type: ignore[union-attr]
    # Most kills land mid-conversation; some right after start-up (resume paths, first commits).
    delay = rng.choice([rng.uniform(0.0, 0.02), rng.uniform(0.0, 0.3), rng.uniform(0.0, 0.3)])
    try:
        child.wait(timeout=delay)
    except subprocess.TimeoutExpired:
        pass
    alive = child.poll() is None
    os.kill(child.pid, signal.SIGKILL)
    child.wait()
    reader.join(timeout=10)
    errors = child.stderr.read().decode()  # type: ignore[union-attr]
    child.stdout.close()  # type: ignore[union-attr]
    child.stderr.close()  # type: ignore[union-attr]
    assert alive, f"the crash child died on its own before the kill:\n{errors[-3000:]}"
    assert child.returncode == -signal.SIGKILL
    return lines


def test_sigkill_at_random_moments_loses_no_committed_turn(tmp_path: Path) -> None:
    db = tmp_path / "sessions.db"
    rng = random.Random(20240514)
    flows = {f.name: f for f in map(flow, FLOW_PATHS)}
    tools = {name: SpyTools(f).registry for name, f in flows.items()}
    reported: dict[str, int] = {}  # session -> last turn the child reported committed
    commits = lost = ahead = 0
    for kill in range(KILLS):
        for line in run_and_kill(db, seed=kill, rng=rng):
            session, turn = line.rsplit(" ", 1)
            assert int(turn) == reported.get(session, 0) + 1, line  # the child resumes where the store is
            reported[session] = int(turn)
            commits += 1

        with SQLiteStore(db) as store:
            assert store.check() == [], f"integrity check failed after kill {kill}"
            stored = {info.id: info for info in store.sessions()}
            for session, turn in reported.items():
                if session not in stored or stored[session].turn < turn:
                    lost += turn - (stored[session].turn if session in stored else 0)
            for info in stored.values():
                # At most the one turn in flight at the kill is committed but unreported.
                assert reported.get(info.id, 0) <= info.turn <= reported.get(info.id, 0) + 1, (kill, info)
                ahead += info.turn - reported.get(info.id, 0)
                reported[info.id] = info.turn
                traces = store.traces(info.id)
                assert [t["turn"] for t in traces] == list(range(1, info.turn + 1)), (kill, info.id)
                turn, snapshot = store.load(info.id)
                dialogue = store.resume(flows[info.flow], info.id, tools=tools[info.flow], clock=clock)
                assert (dialogue.turns, turn) == (info.turn, info.turn)
                assert dialogue.snapshot() == snapshot  # restored exactly, nothing misread
        assert lost == 0, f"committed turns lost after kill {kill}"

    sessions = len(reported)
    record(
        "crash",
        kills=KILLS,
        commits_reported=commits,
        sessions=sessions,
        lost=lost,
        committed_unreported_at_kill=ahead,
        integrity_failures=0,
    )
    assert commits > KILLS  # the kills landed while the child was committing, not before it began
