"""Per-turn latency with a real model: fsmdial's grounded turn vs the plain llama-cpp-python way.

Same model, same states, same texts, same JSON schema, greedy decoding, one thread:

* ``fsmdial``: ``GGUFUnderstander.understand`` with the fast path off (the model is called on
  every case unless the rules settle everything): prompt with a KV-cached static prefix (each
  round evaluates the conversation lines and the note again, as a new turn does), the turn's
  grounded grammar (llguidance), forced tokens, typed values;
* ``plain``: what one would write without fsmdial: ``Llama.create_chat_completion`` with the
  same system and user text and ``response_format={"type": "json_object", "schema": ...}``
  holding the turn's JSON schema (llama.cpp turns it into a GBNF grammar; fsmdial's own span
  keyword is unknown to it, so text slots are free strings there).

Models: SmolLM2-135M (``fsmdial models fetch smollm2``) always when present; Qwen2.5-Coder-0.5B
(``fsmdial models fetch qwen0.5b``) when ``FSMDIAL_BENCH_QWEN=1``. CI runs this file once,
untimed, with SmolLM2: then the plain way writes at most a few tokens (its grammar sampler over
the whole vocabulary takes seconds per token), enough to show it works.

    FSMDIAL_BENCH_QWEN=1 pytest benches/bench_real_model.py --benchmark-only --benchmark-json=real.json
"""

from __future__ import annotations

import datetime as dt
import os
from typing import Any

import orjson
import pytest

pytest.importorskip("llama_cpp", reason="needs the gguf extra (llama-cpp-python)")

from fsmdial.model_catalogue import fetch_command, locate
from fsmdial.runtime import Dialogue
from fsmdial.testing.forcing import seek
from fsmdial.understand.constraint.schema import turn_schema
from fsmdial.understand.decoding.llama_model import plain_cpu_buffers
from fsmdial.understand.model.gguf import GGUFUnderstander
from fsmdial.understand.model.prompt import CONVERSATION, history_line, state_note, static_prefix

from .conftest import FLOWS

NOW = dt.datetime(2026, 11, 23, 12, 0)
CASES = {
    "several": ("ask_booking", "name", {}, False, "for 4 people tomorrow at 7pm, under Jane Doe"),
    "name": ("ask_booking", "name", {"party_size": 4}, False, "it's under Jane Doe"),
    "correction": (
        "confirm_booking",
        None,
        {"name": "Jane Doe", "party_size": 4, "date": "2026-11-24", "time": "19:00"},
        True,
        "almost, but make it 5 people and at 8pm",
    ),
}


def _models() -> list[Any]:
    names = ["smollm2"] + (["qwen0.5b"] if os.environ.get("FSMDIAL_BENCH_QWEN") == "1" else [])
    return [
        pytest.param(name, marks=pytest.mark.skipif(locate(name) is None, reason=f"run `{fetch_command(name)}`"))
        for name in names
    ]


def _state(case: str) -> tuple[Any, list[tuple[str, str]], str]:
    node, asked, held, confirm, text = CASES[case]
    dialogue = Dialogue(FLOWS / "restaurant_booking.json", stand_in_tools=True, clock=lambda: NOW)
    dialogue.adopt_slots(held)
    seek(dialogue, node, told=confirm, asked=asked)
    history = [("bot", "Sure! What name should the booking be under?")]
    return dialogue.understanding_state(), history, text


_UNDERSTANDERS: dict[str, GGUFUnderstander] = {}


def _understander(name: str) -> GGUFUnderstander:
    if name not in _UNDERSTANDERS:
        _UNDERSTANDERS[name] = GGUFUnderstander(locate(name), n_threads=1, fast_path=False)  # type: ignore[arg-type]
    return _UNDERSTANDERS[name]


@pytest.mark.model
@pytest.mark.parametrize("case", list(CASES))
@pytest.mark.parametrize("name", _models())
def test_fsmdial_turn(benchmark, name, case):
    understander = _understander(name)
    state, history, text = _state(case)
    understander.understand(state, text, history=history, now=NOW)  # the flow's static prefix into the KV cache
    static = len(understander.prompts.prefix(state))

    def fresh_turn() -> None:
        # As in a conversation: the flow's static prefix is cached, this turn's lines are new.
        understander.model.llm.n_tokens = min(understander.model.llm.n_tokens, static)

    parse = benchmark.pedantic(
        lambda: understander.understand(state, text, history=history, now=NOW),
        setup=fresh_turn,
        rounds=3 if not benchmark.disabled else 1,
    )
    benchmark.extra_info.update(
        model=name,
        case=case,
        parse=parse.to_dict(),
        **{k: parse.info.get(k) for k in ("prompt_tokens", "evaluated_tokens", "output_tokens", "forced_tokens")},
    )
    assert parse.slots  # every case says at least one value
    assert all(str(v) for v in parse.slots.values())


_PLAIN: dict[str, Any] = {}


@pytest.mark.model
@pytest.mark.parametrize("case", list(CASES))
@pytest.mark.parametrize("name", _models())
def test_plain_chat_completion(benchmark, name, case):
    import llama_cpp

    state, history, text = _state(case)
    schema = turn_schema(state, text, NOW).json_schema
    user = (
        CONVERSATION + "".join(history_line(r, s) for r, s in history) + history_line("user", text) + state_note(state)
    )
    messages = [{"role": "system", "content": static_prefix(state)}, {"role": "user", "content": user}]
    llm = _PLAIN.get(name)
    if llm is None:
        # llama.cpp's AMX buffers crash on this machine (see fsmdial.understand.decoding.llama_model)
        with plain_cpu_buffers():
            llm = _PLAIN[name] = llama_cpp.Llama(
                model_path=str(locate(name)), n_ctx=4096, n_threads=1, n_threads_batch=1, verbose=False
            )
    timed = not benchmark.disabled
    max_tokens = 96 if timed else 4

    def call() -> str:
        out = llm.create_chat_completion(
            messages=messages,
            temperature=0.0,
            max_tokens=max_tokens,
            seed=0,
            response_format={"type": "json_object", "schema": schema},
        )
        return str(out["choices"][0]["message"]["content"])

    written = benchmark.pedantic(call, rounds=1 if not timed else 2, iterations=1)
    benchmark.extra_info.update(model=name, case=case, output=written, max_tokens=max_tokens)
    if timed:
        orjson.loads(written)  # a complete JSON object (the schema's grammar closes it within max_tokens)
    else:
        assert written.startswith("{")
