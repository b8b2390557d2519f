"""Stage 5: prompt tokens evaluated per turn over a 10-turn conversation, with and without KV-cache reuse,
and model forward passes per turn against output tokens (forced tokens are fed in one batch).

The figures are counts, recorded in extra_info (and asserted where they are promises); the timing is of
the whole 10-turn conversation on the tiny model.
"""

from __future__ import annotations

import pytest

pytest.importorskip("llama_cpp", reason="needs the gguf extra (llama-cpp-python)")

from fsmdial.loader import load_flow
from fsmdial.runtime import Dialogue
from fsmdial.testing.tiny_model import ensure_tiny_model
from fsmdial.understand.model.gguf import GGUFUnderstander

from .conftest import FLOWS, frozen_clock

TURNS = [
    "hello there",
    "my name is Jane Doe",
    "the booking is 102",
    "I want a later pickup",
    "make it 7pm",
    "actually the booking is 103",
    "what can you do",
    "is that done",
    "thank you",
    "ok",
]


def conversation(understander, *, reuse: bool):
    dialogue = Dialogue(
        load_flow(FLOWS / "ride_change.json"), understander=understander, stand_in_tools=True, clock=frozen_clock
    )
    dialogue.start()
    rows = []
    for text in TURNS:
        if not reuse:
            understander.model.forget()  # the KV cache and the prefix states: the whole prompt is evaluated again
        trace = dialogue.turn(text).trace
        if trace.path == "model":  # a turn the model decoded (the rules' own turns carry notes too)
            rows.append(trace.understanding)
    return rows


@pytest.fixture(scope="module")
def understander():
    return GGUFUnderstander(ensure_tiny_model(), n_threads=1, fast_path=False)


@pytest.mark.parametrize("reuse", [True, False], ids=["kv_reuse", "no_reuse"])
def test_prompt_tokens_per_turn(benchmark, understander, reuse):
    rows = conversation(understander, reuse=reuse)
    evaluated = [row["evaluated_tokens"] for row in rows]
    prompt = [row["prompt_tokens"] for row in rows]
    share = max(e / p for e, p in zip(evaluated[1:], prompt[1:], strict=True))
    benchmark.group = "prompt"
    benchmark.extra_info.update(
        turns=len(rows), evaluated_per_turn=evaluated, prompt_per_turn=prompt, max_share_after_first=round(share, 4)
    )
    benchmark.pedantic(conversation, args=(understander,), kwargs={"reuse": reuse}, rounds=3, warmup_rounds=0)
    if reuse:
        assert share <= 0.15
    else:
        assert evaluated == prompt


def test_forward_passes_per_turn(benchmark, understander):
    rows = conversation(understander, reuse=True)
    passes = [row["forward_passes"] for row in rows]
    sampled = [row["output_tokens"] - row["forced_tokens"] for row in rows]
    benchmark.group = "prompt"
    benchmark.extra_info.update(
        forward_passes=passes, output_tokens=[r["output_tokens"] for r in rows], non_forced_tokens=sampled
    )
    benchmark.pedantic(conversation, args=(understander,), kwargs={"reuse": True}, rounds=3)
    assert all(p <= s for p, s in zip(passes, sampled, strict=True))
