"""The held-out rounds (tests/data/heldout_r*/): each is a conversation suite over flows of its own, written by someone
who had not read the understanding code. Their figures are measured with ``fsmdial eval conversations`` (EVALUATION.md);
here, that every round stays a valid suite: its flows load, every conversation names one of them, and every expected
argument is a slot of the action's flow."""

from __future__ import annotations

from pathlib import Path

import pytest

from fsmdial.loader import load_flow
from fsmdial.testing.suites import load_suite

ROUNDS = sorted((Path(__file__).resolve().parent / "data").glob("heldout_r*"))


def test_the_rounds_are_found():
    assert {path.name for path in ROUNDS} >= {f"heldout_r{n}" for n in range(2, 10)}


@pytest.mark.parametrize("folder", ROUNDS, ids=lambda path: path.name)
def test_a_round_is_a_valid_suite_over_its_own_flows(folder: Path):
    flows = {path.resolve(): load_flow(path) for path in sorted((folder / "flows").glob("*.json"))}
    suite = load_suite(folder / "conversations.jsonl")
    assert len(suite.conversations) >= 60
    for conversation in suite.conversations:
        flow = flows[conversation.flow.resolve()]
        slots = {slot.name for node in flow.nodes for slot in getattr(node, "slots", ()) or ()}
        for call in conversation.tool_calls:
            assert set(call.arguments or {}) <= slots, (conversation.id, set(call.arguments or {}) - slots)
