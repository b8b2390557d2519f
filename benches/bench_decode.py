"""Constrained decoding on the tiny GGUF model: cost per output token of each backend vs unconstrained.

Two cases per backend, on ride_change's first state and the same prompt:

* ``test_decode_constrained[...]``: the tiny model's own (random) logits. Its greedy token is
  almost never one the grammar allows, so the full vocabulary mask is computed at every step:
  the worst case, and the cost of the grammar engine itself.
* ``test_decode_constrained_agreeing[...]``: the model is steered to write a valid answer, as a
  real instruct model mostly does; then the greedy token passes the one-token check and no mask
  is computed. llguidance also fast-forwards the tokens the grammar forces.

``test_decode_unconstrained`` decodes as many tokens without any grammar. The work unit is the
output token (``extra_info["tokens"]``). One thread: stable numbers on a shared 2-core machine.
"""

from __future__ import annotations

import sys

import numpy as np
import pytest

pytest.importorskip("llama_cpp", reason="needs the gguf extra (llama-cpp-python)")

from fsmdial.loader import load_flow
from fsmdial.runtime import Dialogue
from fsmdial.testing.tiny_model import ensure_tiny_model
from fsmdial.understand.constraint.schema import state_schema
from fsmdial.understand.decoding.backends import BACKENDS, DEFAULT_BACKEND
from fsmdial.understand.model.gguf import GGUFUnderstander

from .conftest import FLOWS, REPO, frozen_clock

sys.path.insert(0, str(REPO))
from tests.understand.test_gguf import steered  # noqa: E402

ANSWER = (
    '{"intent":"none","slots":{"customer_name":"Jane Doe","ride_id":102,'
    '"change_description":"Change the pickup time to seven in the evening"}}'
)
UNCONSTRAINED_TOKENS = 32


def _setup(backend: str):
    understander = GGUFUnderstander(ensure_tiny_model(), backend=backend, n_threads=1, fast_path=False)
    dialogue = Dialogue(load_flow(FLOWS / "ride_change.json"), stand_in_tools=True, clock=frozen_clock)
    dialogue.start()
    state = dialogue.understanding_state()
    prompt = understander.prompts.build(
        state, dialogue.history, "Jane Doe, booking 102: change the pickup time", budget=3000
    )
    grammar = state_schema(state).grammar
    understander.decoder.generate(prompt.tokens, grammar)  # compile the grammar, fill the KV cache
    return understander, prompt.tokens, grammar


def test_decode_unconstrained(benchmark):
    understander, prompt, _ = _setup(DEFAULT_BACKEND)
    model = understander.model

    def decode() -> list[int]:
        model.feed(prompt)
        tokens = []
        for _ in range(UNCONSTRAINED_TOKENS - 1):
            tokens.append(int(np.argmax(model.logits())))
            model.step(tokens[-1:])
        tokens.append(int(np.argmax(model.logits())))
        return tokens

    benchmark.group = "decode"
    benchmark.extra_info["tokens"] = UNCONSTRAINED_TOKENS
    tokens = benchmark(decode)
    assert len(tokens) == UNCONSTRAINED_TOKENS and tokens == decode()  # greedy: the same tokens every round


@pytest.mark.parametrize("backend", ["default", *BACKENDS])
def test_decode_constrained(benchmark, backend):
    name = DEFAULT_BACKEND if backend == "default" else backend
    understander, prompt, grammar = _setup(name)
    generation = understander.decoder.generate(prompt, grammar)
    benchmark.group = "decode"
    benchmark.extra_info.update(tokens=len(generation.tokens), masked_steps=generation.masked_steps, backend=name)
    result = benchmark(understander.decoder.generate, prompt, grammar)
    assert result.text == generation.text  # greedy: the same output every round


@pytest.mark.parametrize("backend", BACKENDS)
def test_decode_constrained_agreeing(benchmark, backend):
    understander, prompt, grammar = _setup(backend)
    rounds = 10_000
    with steered(understander.model, *([ANSWER] * rounds)):
        generation = understander.decoder.generate(prompt, grammar)
        assert generation.text == ANSWER
        benchmark.group = "decode"
        benchmark.extra_info.update(
            tokens=len(generation.tokens), masked_steps=generation.masked_steps, backend=backend
        )
        benchmark.pedantic(
            understander.decoder.generate, args=(prompt, grammar), rounds=30, iterations=1, warmup_rounds=1
        )
