"""Stage 7: session snapshot and restore, and the serialized size of a session."""

from __future__ import annotations

import sys

from fsmdial.loader import load_flow
from fsmdial.runtime import Dialogue

from .conftest import FLOWS, REPO, frozen_clock

sys.path.insert(0, str(REPO))
from tests import example_tools  # noqa: E402


def _mid_conversation():
    dialogue = Dialogue(load_flow(FLOWS / "restaurant_booking.json"), tools=example_tools.registry, clock=frozen_clock)
    dialogue.start()
    for text in ("Alex", "4", "tomorrow", "7pm"):
        dialogue.turn(text)
    return dialogue


def test_snapshot(benchmark):
    dialogue = _mid_conversation()
    benchmark.group = "session"
    data = benchmark(dialogue.snapshot)
    benchmark.extra_info["snapshot_bytes"] = len(data)
    assert len(data) < 4096


def test_restore(benchmark):
    dialogue = _mid_conversation()
    data = dialogue.snapshot()
    benchmark.group = "session"
    benchmark(dialogue.load_snapshot, data)
    assert dialogue.snapshot() == data


def _store_turn(benchmark, tmp_path, durable):
    from fsmdial.stores import SQLiteStore

    store = SQLiteStore(tmp_path / "sessions.db", durable=durable)
    dialogue = _mid_conversation()
    snapshot, trace = dialogue.snapshot(), dialogue.last_trace.to_dict(timings=True)
    turn = iter(range(1, 10**9))

    def write():
        store.save_turn("bench", next(turn), snapshot, trace)

    benchmark.group = "session"
    benchmark.extra_info["durable"] = durable
    benchmark.pedantic(write, rounds=200, warmup_rounds=5)
    assert store.load("bench")[1] == snapshot
    store.close()


def test_store_write_per_turn_durable(benchmark, tmp_path):
    """One committed turn in the SQLite store (WAL, synchronous=FULL: survives power loss)."""
    _store_turn(benchmark, tmp_path, True)


def test_store_write_per_turn_fast(benchmark, tmp_path):
    """The same with durable=False (WAL, synchronous=NORMAL: survives a process crash)."""
    _store_turn(benchmark, tmp_path, False)
