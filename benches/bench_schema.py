"""Stage 3: building the understanding schema and grammar of a state, cold and cached,
for every state of the example flows."""

from __future__ import annotations

import sys

import pytest

from fsmdial.loader import load_flow
from fsmdial.runtime import Dialogue
from fsmdial.understand.constraint import schema as schema_module

from .conftest import FLOWS, REPO, frozen_clock

sys.path.insert(0, str(REPO))
from tests import example_tools  # noqa: E402
from tests.conversations import SCRIPTS  # noqa: E402


def example_states():
    """Every understanding state the scripted conversations of the example flows pass through."""
    states = {}
    for path, script in SCRIPTS.values():
        dialogue = Dialogue(load_flow(FLOWS / path), tools=example_tools.registry, clock=frozen_clock)
        dialogue.start()
        for text in (turn.user for turn in script[1:]):
            state = dialogue.understanding_state()
            states.setdefault(state.key, state)
            dialogue.turn(text)
    return list(states.values())


STATES = example_states()


def _clear():
    schema_module._BY_KEY.clear()
    schema_module._GRAMMARS.clear()


def test_schema_and_grammar_cold_all_states(benchmark):
    """Model + JSON schema + bounded grammar for every state, caches emptied first (per state: extra_info)."""

    def build_all():
        for state in STATES:
            schema_module.state_schema(state)

    benchmark.group = "schema"
    benchmark.extra_info["states"] = len(STATES)
    benchmark.pedantic(build_all, setup=_clear, rounds=5, warmup_rounds=1)
    assert len(schema_module._BY_KEY) == len(STATES)


@pytest.mark.parametrize("index", [0, len(STATES) // 2, len(STATES) - 1])
def test_schema_cold_one_state(benchmark, index):
    state = STATES[index]
    benchmark.group = "schema"
    benchmark.extra_info["state"] = f"{state.flow}:{state.node}"
    built = benchmark.pedantic(schema_module.state_schema, args=(state,), setup=_clear, rounds=20)
    assert built.grammar.max_bytes > 0


def test_schema_cached_all_states(benchmark):
    """A state reached again: a dictionary lookup, no model or grammar is rebuilt."""
    for state in STATES:
        schema_module.state_schema(state)
    before = dict(schema_module.stats)

    def lookup_all():
        for state in STATES:
            schema_module.state_schema(state)

    benchmark.group = "schema"
    benchmark.extra_info["states"] = len(STATES)
    benchmark(lookup_all)
    assert schema_module.stats == before
