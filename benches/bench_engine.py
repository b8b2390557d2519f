"""Stage 1: the engine turn with the rules understander (no model), against one raw `transitions` trigger.

Ratio reported in BENCHMARKS.md: engine turn / raw trigger (target <= 5x).
"""

from __future__ import annotations

import sys
import timeit

import pytest
from transitions import Machine

from fsmdial.loader import load_flow
from fsmdial.runtime import Dialogue

from .conftest import FLOWS, REPO, frozen_clock

sys.path.insert(0, str(REPO))
from tests import example_tools  # noqa: E402
from tests.conversations import SCRIPTS  # noqa: E402


def raw_machine():
    """A 4-state `transitions` machine whose trigger is the floor the engine turn is compared with."""

    class Model:
        pass

    model = Model()
    states = ["a", "b", "c", "d"]
    Machine(
        model=model,
        states=states,
        transitions=[{"trigger": "go", "source": s, "dest": states[(i + 1) % 4]} for i, s in enumerate(states)],
        initial="a",
        auto_transitions=False,
    )
    return model


def floor_seconds() -> float:
    """One raw trigger, best of several timeit runs, measured right now (this VM's speed drifts by 2x)."""
    go = raw_machine().go
    return min(timeit.repeat(go, number=2000, repeat=7)) / 2000


def record_ratio(benchmark, per_unit: int = 1) -> None:
    """Store the floor measured around this benchmark, so the ratio compares like with like."""
    if benchmark.disabled:
        return
    floor = (benchmark.extra_info.pop("_floor_before") + floor_seconds()) / 2
    best = benchmark.stats.stats.min / per_unit
    benchmark.extra_info["raw_trigger_s"] = round(floor, 9)
    benchmark.extra_info["ratio_min_to_floor"] = round(best / floor, 2)


def test_raw_transitions_trigger(benchmark):
    """The floor: one trigger on a 4-state machine."""
    model = raw_machine()
    benchmark.group = "engine"
    benchmark(model.go)
    assert model.state in ("a", "b", "c", "d")


def _dialogue(path):
    return Dialogue(load_flow(path), tools=example_tools.registry, clock=frozen_clock)


@pytest.mark.parametrize("name", ["ride_change", "bank_fraud_report", "restaurant_booking", "card_activation"])
def test_engine_turn(benchmark, name):
    """One turn that fills a slot and asks the next (restored to the same state every round)."""
    path, script = SCRIPTS[name]
    turns = [turn.user for turn in script[1:]]
    dialogue = _dialogue(FLOWS / path)
    dialogue.start()
    snapshot = dialogue.snapshot()
    text = turns[0]

    def setup():
        dialogue.load_snapshot(snapshot)

    benchmark.group = "engine"
    benchmark.extra_info["turn"] = text
    benchmark.extra_info["_floor_before"] = floor_seconds()
    result = benchmark.pedantic(lambda: dialogue.turn(text), setup=setup, rounds=300, warmup_rounds=20)
    record_ratio(benchmark)
    assert result.act_names == script[1].acts


@pytest.mark.parametrize("name", sorted(SCRIPTS))
def test_engine_conversation(benchmark, name):
    """A whole scripted conversation; extra_info['turns'] gives the per-turn mean."""
    path, script = SCRIPTS[name]
    turns = [turn.user for turn in script[1:]]
    dialogue = _dialogue(FLOWS / path)
    dialogue.start()
    snapshot = dialogue.snapshot()

    def run():
        for text in turns:
            dialogue.turn(text)
        return dialogue

    benchmark.group = "conversation"
    benchmark.extra_info["turns"] = len(turns)
    benchmark.extra_info["_floor_before"] = floor_seconds()
    benchmark.pedantic(run, setup=lambda: dialogue.load_snapshot(snapshot), rounds=100, warmup_rounds=5)
    record_ratio(benchmark, per_unit=len(turns))
    assert dialogue.turns == len(turns) + 1
