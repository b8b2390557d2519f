"""Issue 13, item 12 (and 4, model side): valid flows never make every model turn fail.

On the tiny model (random weights): its logits are replaced by seeded noise so the grammar
alone decides what is written, and every corner of it is reached.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

import numpy as np
import pytest

pytest.importorskip("llama_cpp", reason="needs the gguf extra (llama-cpp-python)")

from fsmdial.loader import load_flow
from fsmdial.runtime import Dialogue
from fsmdial.testing.tiny_model import ensure_tiny_model
from fsmdial.understand.constraint.grammar import (
    LARGEST_INT,
    MAX_STRING_CHARS,
    REGEX_STRING_CHARS,
    grammar_from_schema,
    string,
)
from fsmdial.understand.constraint.schema import turn_schema
from fsmdial.understand.decoding.backends import decoder_for
from fsmdial.understand.model.gguf import GGUFUnderstander
from tests.model_support import noisy_logits

pytestmark = pytest.mark.model

NOW = dt.datetime(2025, 3, 1, 12, 0)


@pytest.fixture(scope="module")
def tiny() -> Any:
    return ensure_tiny_model()


def flow(slots: list[dict[str, Any]], name: str = "f") -> dict[str, Any]:
    return {
        "name": name,
        "nodes": [
            {"id": "ask", "type": "request", "slots": slots},
            {"id": "done", "type": "end", "message": "ok"},
        ],
        "edges": [{"source": "ask", "target": "done"}],
    }


def run_turns(understander: GGUFUnderstander, doc: dict[str, Any], replies: list[str], seeds: int = 4) -> list[Any]:
    """Each reply in a fresh dialogue, under noisy logits: no turn may raise."""
    parses = []
    for seed in range(seeds):
        for reply in replies:
            dialogue = Dialogue(load_flow(doc), understander=understander, clock=lambda: NOW)
            dialogue.start()
            with noisy_logits(understander.model, seed, scale=5):
                result = dialogue.turn(reply)
            parses.append((result, dict(dialogue.session.slots)))
    return parses


def test_integer_bounds_beyond_64_bits_are_clamped_in_schema_and_grammar(tiny):
    grammar = grammar_from_schema({"type": "integer", "minimum": -1e19, "maximum": 1e30})
    regex = re.compile(grammar.regex)
    assert regex.fullmatch(str(-LARGEST_INT)) and regex.fullmatch(str(LARGEST_INT))
    assert not regex.fullmatch(str(-LARGEST_INT - 1)) and not regex.fullmatch("10000000000000000000")
    number = re.compile(grammar_from_schema({"type": "number", "minimum": -1e19, "maximum": 1e300}).regex)
    assert number.fullmatch("12.5") and not number.fullmatch("1" * 25)
    u = GGUFUnderstander(tiny, n_threads=1, fast_path=False)
    doc = flow(
        [
            {"name": "n", "type": "integer", "minimum": -1e19, "extract": "free"},
            {"name": "x", "type": "number", "minimum": -1e19, "maximum": 1e300, "extract": "free"},
        ]
    )
    for _, slots in run_turns(u, doc, ["hmm not sure", "minus a lot"]):
        assert set(slots) <= {"n", "x"}
        assert "n" not in slots or type(slots["n"]) is int  # never a float or a bool past the grammar
        for value in slots.values():
            assert not isinstance(value, bool) and -LARGEST_INT <= value <= LARGEST_INT


def test_a_flow_name_with_odd_characters_reaches_the_model(tiny):
    # A control character (U+0000) is refused when the flow loads (tests/flow/test_document.py); what a name may
    # hold (a line separator, a chat template's own marker, a zero-width space) reaches the prompt as text.
    u = GGUFUnderstander(tiny, n_threads=1, fast_path=False)
    doc = flow([{"name": "n", "type": "integer", "extract": "free"}], name="a\u2028b<|im_end|>\u200bc")
    for result, _slots in run_turns(u, doc, ["hmm let me think"], seeds=2):
        assert result.trace.understanding.get("backend") == "llguidance"


@pytest.mark.parametrize("pattern", ["[0-9]+\\$", "(?i)^[a-z]{3}$", "[0-9]{0,5000}"])
@pytest.mark.parametrize("extract", ["span", "free"])
def test_patterns_the_grammar_cannot_bound_never_fail_a_model_turn(tiny, pattern, extract):
    u = GGUFUnderstander(tiny, n_threads=1, fast_path=False)
    doc = flow([{"name": "code", "pattern": pattern, "extract": extract}])
    for _result, slots in run_turns(u, doc, ["it is 12$ or abc", "no idea"], seeds=2):
        if "code" in slots:
            assert re.fullmatch(pattern, slots["code"])


def test_long_strings_are_bounded_in_every_grammar_form(tiny):
    long = string(0, 2000)
    assert long.max_bytes <= (MAX_STRING_CHARS * 4) + 2  # noqa: PLR2004
    grammar = grammar_from_schema({"type": "string", "maxLength": 2000})
    assert "{0,1000}" in grammar.gbnf and "{0,1000}" in grammar.regex
    assert f"{{0,{REGEX_STRING_CHARS}}}" in grammar.index_regex
    doc = flow([{"name": "s", "type": "string", "max_length": 2000, "extract": "free"}])
    dialogue = Dialogue(load_flow(doc), clock=lambda: NOW)
    dialogue.start()
    schema = turn_schema(dialogue.understanding_state(), "something", NOW)
    assert schema.grammar.max_bytes < 5000  # noqa: PLR2004


def test_outlines_builds_a_long_string_slot_and_never_ends_mid_json(tiny):
    pytest.importorskip("outlines")
    # The model writes the free slot itself (beside the rules, their whole answer would stand: no call).
    u = GGUFUnderstander(tiny, backend="outlines", n_threads=1, fast_path=False, rules_first=False)
    doc = flow([{"name": "s", "type": "string", "max_length": 2000, "extract": "free"}])
    model = u.model
    ends = [t for t in range(model.n_vocab) if model.is_end(t)]
    assert ends
    real = model.logits

    def end_first() -> np.ndarray:  # the model wants to stop at once: the constraint must not let it
        out = real()
        out[:] = 0.0
        out[ends] = 100.0
        return out

    dialogue = Dialogue(load_flow(doc), understander=u, clock=lambda: NOW)
    dialogue.start()
    model.logits = end_first  # type: ignore[method-assign]
    try:
        result = dialogue.turn("call me later please")
    finally:
        del model.logits
    assert result.trace.understanding["output"].endswith("}")


def test_compiled_grammars_are_kept_in_a_bounded_cache(tiny):
    u = GGUFUnderstander(tiny, n_threads=1, fast_path=False)
    decoder = decoder_for("llguidance", u.model)
    before = decoder.cache_size
    decoder.cache_size = 3
    try:
        for n in range(8):
            decoder.constraint(grammar_from_schema({"enum": [f"value {n}"]}))
        assert len(decoder._compiled) == 3  # noqa: SLF001
        kept = grammar_from_schema({"enum": ["value 7"]})
        assert decoder.constraint(kept) is decoder.constraint(kept)
    finally:
        decoder.cache_size = before
