"""Stage 7: session snapshot and restore, and the serialized size of a session."""

from __future__ import annotations

from fsmdial.loader import load_flow
from fsmdial.runtime import Dialogue

from .conftest import FLOWS, REPO, frozen_clock

import sys

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
