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
from hypothesis import given, settings
from hypothesis import strategies as st

import fsmdial

pytest.importorskip("uvicorn", reason="needs the serve extra")

from fsmdial.cli import build_parser
from fsmdial.serve.loadtest import LoadTestError, Options, conversations, flow_path, loopback_url, run, store_options

REPO = Path(__file__).resolve().parents[2]
SUITE = REPO / "tests" / "data" / "customer_conversations" / "suite.jsonl"


def assert_nothing_lost(figures: dict) -> None:
    assert figures["lost_turns"] == 0
    assert figures["repeated_turns"] == 0
    assert figures["repeated_side_effects"] == 0
    assert figures["unresumable_sessions"] == 0


def test_users_against_two_workers_one_killed_mid_turn_lose_and_repeat_nothing(tmp_path):
    figures = run(Options(users=4, sessions=8, workers=2, duration=60, kill_worker=True, directory=tmp_path))
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
    scripts = conversations()
    assert len(scripts) >= 20 and all(turns for turns in scripts)


def test_the_packaged_data_is_the_repositorys():
    """The load test reads its flow and its users' words from the installed package (issue 33, item 8): the copies
    there are the repository's flow and the customer suite's restaurant bookings, nothing else."""
    package = Path(fsmdial.__file__).resolve().parent
    assert package in flow_path().resolve().parents
    assert flow_path().read_bytes() == (REPO / "flows" / "restaurant_booking.json").read_bytes()
    rows = [orjson.loads(line) for line in SUITE.read_text(encoding="utf-8").splitlines() if line.strip()]
    expected = [[t["user"] for t in row["turns"]] for row in rows if row.get("flow") == "flows/restaurant_booking.json"]
    assert conversations() == expected


# ------------------------------------------------------------------ issue 33, item 8: ordinary mistakes


def test_the_command_runs_from_any_directory(tmp_path):
    """Before: run outside a checkout's root, it failed with FileNotFoundError (it read flows/ and tests/data/
    relative to the working directory)."""
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    command = [sys.executable, "-m", "fsmdial", "loadtest", "--users", "1", "--sessions", "1", "--workers", "1"]
    command += ["--json", "--keep", str(tmp_path / "run")]
    env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}  # fsmdial as installed
    done = subprocess.run(command, capture_output=True, cwd=elsewhere, env=env, timeout=300)
    assert done.returncode == 0, done.stderr.decode()
    figures = orjson.loads(done.stdout)
    assert figures["sessions"] == 1 and figures["turns"] >= 1 and figures["lost_turns"] == 0
    assert list(elsewhere.iterdir()) == []  # nothing written where it was started


@pytest.mark.parametrize(
    "arguments",
    [
        ["--workers", "0"],  # before: IndexError
        ["--workers", "-2"],
        ["--users", "0"],  # before: ran nothing and exited 0
        ["--sessions", "0"],
        ["--users", "many"],
        ["--duration", "0"],
        ["--duration", "nan"],
        ["--timeout", "-1"],
        ["--slots", "0"],
        ["--model-outage", "-3"],
    ],
)
def test_bad_arguments_are_usage_errors(arguments, capsys):
    with pytest.raises(SystemExit) as caught:
        build_parser().parse_args(["loadtest", *arguments])
    assert caught.value.code == 2
    error = capsys.readouterr().err
    assert "usage:" in error and arguments[0] in error


def test_the_command_refuses_a_bad_argument_with_exit_2():
    command = [sys.executable, "-m", "fsmdial", "loadtest", "--workers", "0"]
    done = subprocess.run(command, capture_output=True, timeout=120)
    assert done.returncode == 2 and b"--workers" in done.stderr and b"Traceback" not in done.stderr


@pytest.mark.parametrize(
    "options", [{"workers": 0}, {"users": 0}, {"sessions": -1}, {"duration": 0.0}, {"timeout": 0.0}, {"slots": 0}]
)
def test_run_refuses_options_that_cannot_run(options):
    with pytest.raises(LoadTestError, match=next(iter(options))):
        run(Options(**options))


def test_only_loopback_and_known_store_urls_are_taken():
    with pytest.raises(LoadTestError, match="loopback only"):
        loopback_url("http://10.0.0.1:8080")
    assert loopback_url("http://127.0.0.1:8080")
    assert store_options("sqlite:////tmp/x.db") == ["--db", "/tmp/x.db"]
    assert store_options("postgresql://u@127.0.0.1/db") == ["--store", "postgresql://u@127.0.0.1/db"]
    with pytest.raises(LoadTestError, match="expected sqlite"):
        store_options("mysql://x")
    with pytest.raises(LoadTestError, match="needs a model server this command starts"):
        run(Options(users=1, sessions=1, workers=1, model_outage=2.0))


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
        directory=tmp_path,
    )
    figures = run(options)
    assert_nothing_lost(figures)
    assert figures["understander"] == "model server"
    assert "SIGKILL model server, down for 2 s" in figures["faults"]


NUMBERS = {"--users": "users", "--sessions": "sessions", "--workers": "workers", "--slots": "slots"}
SECONDS = {"--duration": "duration", "--timeout": "timeout", "--model-outage": "model_outage"}


@settings(max_examples=300, deadline=None)
@given(
    option=st.sampled_from(sorted({**NUMBERS, **SECONDS})),
    text=st.one_of(
        st.text(max_size=8),
        st.from_regex(r"-?[0-9]{1,4}(\.[0-9]{0,3})?([eE]-?[0-9])?", fullmatch=True),
        st.sampled_from(["nan", "inf", "-inf", "1e400", "0", "-0", "0.0"]),
    ),
)
def test_fuzz_every_argument_is_taken_as_one_that_can_run_or_refused_as_a_usage_error(option, text):
    """Whatever is typed for a number: argparse refuses it (exit 2), or the load test's own check takes it."""
    import contextlib
    import io

    with contextlib.redirect_stderr(io.StringIO()) as error:
        try:
            args = build_parser().parse_args(["loadtest", f"{option}={text}"])
        except SystemExit as exc:
            assert exc.code == 2 and option in error.getvalue()
            return
    name = {**NUMBERS, **SECONDS}[option]
    assert Options(**{name: getattr(args, name)}).problems() == []
