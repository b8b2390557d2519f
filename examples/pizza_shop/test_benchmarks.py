"""The pizza shop's speed, with pytest-benchmark through the fsmdial plugin.

Run ``pytest examples/ --benchmark-only``. These use the understander the run is configured with:
the rules by default, or a GGUF model with ``--fsmdial-model PATH`` (or ``$FSMDIAL_MODEL``).
Set-up (compiling the flow, loading the model, reaching the timed state, warming the model's
KV cache) is never timed; the model's costs per turn are saved in the benchmark JSON.
"""

from __future__ import annotations

import pytest

from .tools import Kitchen

FLOW = "flow.json"  # fsmdial_flow / fsmdial_dialogue find a relative path next to the test file

ORDER = [
    {"user": None, "acts": ["ask_pizza"]},
    {"user": "Two large pepperoni, please", "acts": ["ask_pickup_day"]},
    {"user": "tomorrow at 7pm", "acts": ["ask_name"]},
    {"user": "my name is Ada Lovelace", "acts": ["confirm_order"]},
    {"user": "yes please", "acts": ["order_placed", "see_you"], "tool_calls": ["place_order"], "ended": True},
]


@pytest.fixture
def kitchen() -> Kitchen:
    """Every round places an order: a kitchen that never sells out keeps every round on the same path."""
    return Kitchen(capacity=10**9)


def test_bench_whole_order(fsmdial_bench, fsmdial_dialogue, fsmdial_config):
    dialogue = fsmdial_dialogue(FLOW)
    # The script's expectations hold for the rules and for a capable model; the tiny random
    # test model only exercises the plumbing, so its replies are not checked.
    fsmdial_bench.conversation(dialogue, ORDER, check=fsmdial_config.model is None, rounds=20)
    assert fsmdial_bench.extra_info["turns"] == len(ORDER)


def test_bench_answering_the_confirmation(fsmdial_bench, fsmdial_dialogue, fsmdial_conversation, fsmdial_config):
    # Reach the confirmation with the rules (whatever the run's understander), then time the answer.
    reach = fsmdial_dialogue(FLOW, understander="rules")
    fsmdial_conversation(reach).run(ORDER[:-1])
    dialogue = fsmdial_dialogue(FLOW)
    dialogue.load_snapshot(reach.snapshot())
    result = fsmdial_bench.turn(dialogue, "yes please", expect=ORDER[-1] if fsmdial_config.model is None else None)
    assert result.node in ("see_you", "confirm_order", "nothing_ordered")


def test_bench_giving_the_name_with_the_rules(fsmdial_bench, fsmdial_dialogue, fsmdial_conversation):
    # The floor: the same kind of turn with no model at all.
    dialogue = fsmdial_dialogue(FLOW, understander="rules")
    fsmdial_conversation(dialogue).run(ORDER[:3])
    fsmdial_bench.turn(
        dialogue, "Ada", expect={"acts": ["confirm_order"], "slots": {"customer_name": "Ada"}}, rounds=200
    )
