"""Issue 13, item 16: a turn late in a long conversation costs what an early one does.

One turn of the restaurant flow (rules understander, stored in a SQLite store with ``durable=False``)
after 10 and after 1,000 turns; the snapshot written per turn is recorded too. Before the history was
bounded, turn 1,200 took 38 ms and wrote a 2.6 MB snapshot.
"""

from __future__ import annotations

import sys

import pytest

from fsmdial.loader import load_flow
from fsmdial.runtime import Dialogue
from fsmdial.stores import SQLiteStore

from .conftest import FLOWS, REPO, frozen_clock

sys.path.insert(0, str(REPO))
from tests import example_tools  # noqa: E402


@pytest.mark.parametrize("after", [10, 1000])
def test_turn_late_in_a_long_conversation(benchmark, tmp_path, after):
    with SQLiteStore(tmp_path / "sessions.db", durable=False) as store:
        dialogue: Dialogue = store.dialogue(
            load_flow(FLOWS / "restaurant_booking.json"), tools=example_tools.registry, clock=frozen_clock
        )
        dialogue.start()
        while dialogue.turns < after:
            dialogue.turn(f"hmm, let me think ({dialogue.turns})")
        benchmark.group = "long session"
        benchmark.extra_info["after_turns"] = after
        benchmark.pedantic(lambda: dialogue.turn("hmm, let me think"), rounds=100, warmup_rounds=5)
        benchmark.extra_info["snapshot_bytes"] = len(dialogue.snapshot())
        assert len(dialogue.snapshot()) < 8_000
