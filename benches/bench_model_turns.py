"""Model turns at the speed of the hardware (issue 26): real models, the customers'-words conversations.

Per model: the first model turn of a fresh process, cold and with the prefix states on disk; a session's
first model turn; later turns p50/p95; tokens evaluated and decode steps per turn; peak memory; and each
turn's ratio to the floor for its token counts (the same evaluations replayed on a plain llama-cpp-python
``Llama`` in the same run, see :mod:`benches.model_turns`).

    FSMDIAL_BENCH_QWEN=1 pytest benches/bench_model_turns.py --benchmark-only -s    # the figures, printed
    pytest benches/bench_model_turns.py          # CI's quick mode: SmolLM2, one conversation, no fresh processes

Skipped, saying which command fetches it, when a model is not there (``fsmdial models fetch smollm2``).
"""

from __future__ import annotations

import os
from typing import Any

import pytest

pytest.importorskip("llama_cpp", reason="needs the gguf extra (llama-cpp-python)")

from fsmdial.model_catalogue import fetch_command, locate

from .model_turns import floor, fresh_process_first_turn, play, summary


def _models() -> list[Any]:
    names = ["smollm2"] + (["qwen0.5b"] if os.environ.get("FSMDIAL_BENCH_QWEN") == "1" else [])
    return [
        pytest.param(
            name, marks=pytest.mark.skipif(locate(name) is None, reason=f"no model file: run `{fetch_command(name)}`")
        )
        for name in names
    ]


@pytest.mark.model
@pytest.mark.parametrize("name", _models())
def test_model_turns(benchmark, name, tmp_path):
    path = str(locate(name))
    timed = not benchmark.disabled
    conversations = int(os.environ.get("FSMDIAL_BENCH_CONVERSATIONS", "20")) if timed else 1
    figures: dict[str, Any] = {}
    if timed:
        folder = str(tmp_path / "kv")
        figures["process first turn, cold"] = fresh_process_first_turn(path, folder)
        figures["process first turn, disk cache warm"] = fresh_process_first_turn(path, folder)
        assert figures["process first turn, disk cache warm"]["prefix"] == "disk"

    threads = None if timed else 1  # quick mode: one thread, so a busy machine's spinning threads cannot stall CI

    def run() -> Any:
        played = play(path, None, threads, conversations, kv_cache=False)
        floor(played, path)
        return played

    played = benchmark.pedantic(run, rounds=1, iterations=1)
    figures.update(summary(played))
    benchmark.extra_info.update({k: v for k, v in figures.items()})
    print(f"\n{name}:")
    for key, value in figures.items():
        print(f"  {key:42s} {value}")
    assert played.turns, "no model turn in the conversations played"
    assert all(turn.floor > 0 for turn in played.turns)
