"""``fsmdial loadtest`` on a small scale: real ``fsmdial serve`` processes on loopback, a worker killed mid-turn,
and (with a llama-server at hand) the model server killed for a while. Nothing may be lost or repeated."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import orjson
import pytest

pytest.importorskip("uvicorn", reason="needs the serve extra")

from fsmdial.serve.loadtest import LoadTestError, Options, conversations, loopback_url, run, store_options

REPO = Path(__file__).resolve().parents[2]


def assert_nothing_lost(figures: dict) -> None:
    assert figures["lost_turns"] == 0
    assert figures["repeated_turns"] == 0
    assert figures["repeated_side_effects"] == 0
    assert figures["unresumable_sessions"] == 0


def test_users_against_two_workers_one_killed_mid_turn_lose_and_repeat_nothing(tmp_path):
    figures = run(Options(users=4, sessions=8, workers=2, duration=60, kill_worker=True, root=REPO, directory=tmp_path))
    assert_nothing_lost(figures)
    assert figures["faults"][0].startswith("SIGKILL worker") and figures["faults"][1].endswith("restarted")
    assert figures["sessions"] >= 4 and figures["turns"] > 0
    assert figures["bookings_made"] == figures["bookings_committed"] > 0
    ledger = [orjson.loads(line) for line in (tmp_path / "ledger.jsonl").read_bytes().splitlines()]
    assert len(ledger) == figures["bookings_made"] and all("party_size" in call for call in ledger)


def test_the_command_prints_the_figures_and_exits_0_when_nothing_is_lost(tmp_path):
    command = [sys.executable, "-m", "fsmdial", "loadtest", "--users", "2", "--sessions", "3", "--workers", "1"]
    command += ["--json", "--keep", str(tmp_path)]
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    done = subprocess.run(command, capture_output=True, cwd=REPO, env=env, timeout=300)
    assert done.returncode == 0, done.stderr.decode()
    figures = orjson.loads(done.stdout)
    assert figures["sessions"] == 3 and figures["turns"] >= 3
    assert set(figures["latency_ms"]) == {"p50", "p95", "p99", "mean"}


def test_the_users_say_the_customer_suites_bookings():
    scripts = conversations(REPO)
    assert len(scripts) >= 20 and all(turns for turns in scripts)


def test_only_loopback_and_known_store_urls_are_taken():
    with pytest.raises(LoadTestError, match="loopback only"):
        loopback_url("http://10.0.0.1:8080")
    assert loopback_url("http://127.0.0.1:8080")
    assert store_options("sqlite:////tmp/x.db") == ["--db", "/tmp/x.db"]
    assert store_options("postgresql://u@127.0.0.1/db") == ["--store", "postgresql://u@127.0.0.1/db"]
    with pytest.raises(LoadTestError, match="expected sqlite"):
        store_options("mysql://x")
    with pytest.raises(LoadTestError, match="needs a model server this command starts"):
        run(Options(users=1, sessions=1, workers=1, model_outage=2.0, root=REPO))


@pytest.mark.model
def test_the_model_server_killed_for_a_while_loses_nothing(tmp_path):
    binary = os.environ.get("FSMDIAL_LLAMA_SERVER") or shutil.which("llama-server")
    if binary is None:
        pytest.skip("no llama-server: run benches/build_llama_server.sh, then set $FSMDIAL_LLAMA_SERVER to it")
    from fsmdial.testing.tiny_model import ensure_tiny_model

    options = Options(
        users=3,
        sessions=6,
        workers=2,
        llama_server=binary,
        model=str(ensure_tiny_model()),
        duration=120,
        model_outage=2.0,
        root=REPO,
        directory=tmp_path,
    )
    figures = run(options)
    assert_nothing_lost(figures)
    assert figures["understander"] == "model server"
    assert "SIGKILL model server, down for 2 s" in figures["faults"]
