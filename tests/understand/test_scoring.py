"""The scoring chooser (``GGUFUnderstander(choose="score")``): each grounded option said as a sentence and scored.

On the tiny random model the readings are gibberish, but: every value chosen is one the turn's schema
offered, the same turn gives the same parse, the suffix scores are those of evaluating each option after
the prompt token by token, and below the margin nothing is taken. On SmolLM2 a few clear replies at a
confirmation are read right.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("llama_cpp", reason="needs the gguf extra (llama-cpp-python)")

from fsmdial.loader import load_flow
from fsmdial.model_catalogue import locate
from fsmdial.runtime import Dialogue
from fsmdial.testing.tiny_model import ensure_tiny_model
from fsmdial.understand.base import UnderstandingState
from fsmdial.understand.constraint.schema import turn_schema
from fsmdial.understand.decoding.suffix_scores import log_softmax, suffix_log_probs
from fsmdial.understand.model.gguf import GGUFUnderstander
from fsmdial.understand.model.scoring import Option, Scored, choose, options_for, text_spans

pytestmark = pytest.mark.model

REPO = Path(__file__).resolve().parents[2]
NOW = dt.datetime(2026, 12, 2, 16, 0)
BOOKING = ["I'd like to book a table", "Anna Fischer", "4 people", "tomorrow", "7:30pm"]
REPLIES = [
    "we're now six people",
    "can we make it 9:30",
    "sorry, it should be under Becker, not Fischer",
    "is there parking nearby?",
    "actually make it Friday",
    "make that 7 people at 8pm",
    "put it under my husband's name, Tom Fischer",
    "can we sit on the terrace instead",
    "when do you open?",
    "yes, 6 people at 9",
]


def at(turns: list[str]) -> tuple[UnderstandingState, list[tuple[str, str]]]:
    dialogue = Dialogue(load_flow(REPO / "flows" / "restaurant_booking.json"), clock=lambda: NOW, stand_in_tools=True)
    dialogue.start()
    for said in turns:
        dialogue.turn(said)
    return dialogue.understanding_state(), list(dialogue.history)


@pytest.fixture(scope="module")
def tiny() -> Path:
    return ensure_tiny_model()


@pytest.fixture(scope="module")
def confirming() -> tuple[UnderstandingState, list[tuple[str, str]]]:
    return at(BOOKING)


def scorer(path: Path, **options: Any) -> GGUFUnderstander:
    """The model alone (no fast path, no rules first): every reply reaches the chooser with every candidate."""
    return GGUFUnderstander(
        path, n_threads=1, kv_cache=False, choose="score", fast_path=False, rules_first=False, **options
    )


def offered(state: UnderstandingState, text: str) -> dict[str, list[Any]]:
    """Per slot, the values the turn's schema offers (typed values read from the spans, categories, text spans)."""
    schema = turn_schema(state, text, NOW)
    found: dict[str, list[Any]] = {name: list(spans.values()) for name, spans in schema.values.items()}
    for name, allowed in schema.categorical.items():
        found[name] = list(allowed)
    for name in schema.text_slots:
        found[name] = text_spans(schema, name)
    return found


def test_chosen_values_are_always_grounded_and_parses_are_deterministic(tiny, confirming):
    state, history = confirming
    first, second = scorer(tiny), scorer(tiny)
    asked, asked_history = at(["I'd like to book a table"])
    for where, said_history, texts in ((state, history, REPLIES), (asked, asked_history, ["Dana Lee", "for 3 at 8"])):
        for text in texts:
            parse = first.understand(where, text, history=said_history, now=NOW)
            assert parse.path == "model" and parse.model_calls == 1
            assert parse.info["backend"] == "score"
            grounded = offered(where, text)
            for name, value in parse.slots.items():
                assert value in grounded.get(name, []), (text, name, value)
            if where.confirm is not None:
                assert parse.answer in ("yes", "no", "other", None)
                assert (parse.answer is None) == bool(parse.slots), text  # a change carries a value, an act none
            again = second.understand(where, text, history=said_history, now=NOW)
            # The same reading and scores whatever the KV cache held before (only the tokens evaluated differ).
            again.info.pop("evaluated_tokens"), parse.info.pop("evaluated_tokens")
            assert again == parse, text


def test_suffix_scores_are_those_of_evaluating_each_option_in_full(tiny, confirming):
    state, history = confirming
    understander = scorer(tiny)
    model = understander.model
    prompt = understander.prompts.build(state, history, "can we make it 9:30", budget=model.n_ctx - 64)
    suffixes = [list(understander.prompts.tokens(s)) for s in ("The user agrees.", "The user wants 9:30.")]
    with model.lock:
        found = suffix_log_probs(model, prompt.tokens, suffixes)
        assert model.llm.n_tokens == len(prompt.tokens)  # the cache holds the prompt alone again
        for suffix, scores in zip(suffixes, found, strict=True):
            expected = []
            for i, token in enumerate(suffix):
                model.feed(prompt.tokens + suffix[:i])
                expected.append(float(log_softmax(model.logits())[token]))
            assert scores == pytest.approx(expected, abs=1e-3)


def test_below_the_margin_nothing_is_taken_and_above_it_every_offered_slot_is(tiny, confirming):
    state, history = confirming
    text = "make that 7 people at 8pm"
    cautious = scorer(tiny, margin=1e9).understand(state, text, history=history, now=NOW)
    assert cautious.slots == {} and cautious.intent is None and cautious.answer in ("yes", "no", "other")
    eager = scorer(tiny, margin=-1e9).understand(state, text, history=history, now=NOW)
    assert eager.answer is None and set(eager.slots) == set(offered(state, text))


def test_choose_takes_a_value_only_above_the_margin(confirming):
    state, _ = confirming
    text = "we're now six people"
    schema = turn_schema(state, text, NOW)
    options = options_for(state, schema)
    sentences = {option.sentence for option in options}
    assert "The user wants to change the number of people to six." in sentences
    assert "The user agrees." not in sentences or "yes" in [o.written for o in options if o.field == "answer"]

    def scored(gains: dict[str, float]) -> list[Scored]:
        return [Scored(option, gains.get(option.field, 0.0), 0.0) for option in options]

    taken = choose(state, schema, scored({"slot:party_size": 0.4, "answer": 0.1}), margin=0.2)
    assert taken["answer"] == "change" and taken["slots"] == {"party_size": "six"}
    unchanged = choose(state, schema, scored({"slot:party_size": 0.1, "answer": 0.3}), margin=0.2)
    assert unchanged["answer"] != "change" and unchanged.get("slots", {}) == {}
    assert schema.parse(__import__("orjson").dumps(taken)).slots == {"party_size": 6}


def test_options_are_one_per_value_said_with_its_words(confirming):
    state, _ = confirming
    schema = turn_schema(state, "put it under my husband's name, Tom Fischer", NOW)
    names = [o for o in options_for(state, schema) if o.field == "slot:name"]
    assert (
        Option("slot:name", "Tom Fischer", "The user wants to change the name the booking is under to Tom Fischer.")
        in names
    )


@pytest.fixture(scope="module")
def smollm2() -> GGUFUnderstander:
    path = locate("smollm2")
    if path is None:
        pytest.skip("SmolLM2 is not here")
    return scorer(path)


@pytest.mark.parametrize(
    ("text", "answer", "slots"),
    [
        ("can we sit on the terrace instead", None, {"seating": "terrace"}),
        ("could you move it to Saturday", None, {"date": "2026-12-05"}),
        ("put it under my husband's name, Tom Fischer", None, {"name": "Tom Fischer"}),
        ("do you have vegan options?", "other", {}),
    ],
)
def test_smollm2_chooses_right_on_clear_replies_at_a_confirmation(smollm2, confirming, text, answer, slots):
    from fsmdial.values import coerce

    state, history = confirming
    parse = smollm2.understand(state, text, history=history, now=NOW)
    assert parse.answer == answer
    assert {name: coerce(state.slot(name), value, NOW) for name, value in parse.slots.items()} == slots
