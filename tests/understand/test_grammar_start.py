"""The fixed start of an output, written into the prompt, and the grammar of the rest (grammar_start.split_start).

The split must change nothing the model may write: an output of the whole grammar is the start followed
by an output of the rest's grammar, and the other way round.
"""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fsmdial.loader import load_flow
from fsmdial.runtime import Dialogue
from fsmdial.understand.constraint.grammar import Alt, Grammar, Lit, Repeat, Rule, Seq, grammar_from_schema
from fsmdial.understand.constraint.grammar_start import only_output, split_start
from fsmdial.understand.constraint.schema import turn_schema

REPO = Path(__file__).resolve().parents[2]
NOW = dt.datetime(2026, 11, 23, 10, 0)


def turn_grammars() -> list[Grammar]:
    """The grammars of the first question of every example flow, for a few messages."""
    found = []
    for path in sorted((REPO / "flows").glob("*.json")):
        if path.name.endswith((".chief.json", ".sop.json")):
            continue
        dialogue = Dialogue(load_flow(path), stand_in_tools=True, clock=lambda: NOW)
        dialogue.start()
        state = dialogue.understanding_state()
        for text in ("yes", "Dana Lee, for 4 people tomorrow", "can I speak to someone"):
            found.append(turn_schema(state, text, NOW).grammar)
    return found


GRAMMARS = turn_grammars()


def test_the_start_of_a_turns_output_is_written_up_to_its_first_choice():
    starts = {split_start(grammar)[0] for grammar in GRAMMARS}
    assert '{"intent"' in starts
    for start in starts:  # the start ends with a key: the punctuation after it is the model's to write
        assert start == "" or start.endswith('"')


@pytest.mark.parametrize("index", range(len(GRAMMARS)))
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_an_output_is_the_start_then_an_output_of_the_rest(index, data):
    grammar = GRAMMARS[index]
    start, rest = split_start(grammar)
    whole = data.draw(st.from_regex(grammar.regex, fullmatch=True))
    assert whole.startswith(start)
    assert re.fullmatch(rest.regex, whole[len(start) :])
    tail = data.draw(st.from_regex(rest.regex, fullmatch=True))
    assert re.fullmatch(grammar.regex, start + tail)
    assert rest.max_bytes <= grammar.max_bytes


def test_a_start_ends_after_a_key_and_rules_are_renamed_not_changed():
    word = Rule("word", Alt((Lit("none"), Lit("nothing"))))
    grammar = Grammar(Seq((Lit('{"a":"'), word, Lit('","b":'), word, Lit("}"))))
    start, rest = split_start(grammar)
    assert start == '{"a"'  # ':"no' is common to both values, but a key's punctuation is the model's to write
    assert "word ::=" in rest.gbnf and rest.regex == ':"(?:none|nothing)","b":(?:none|nothing)\\}'


def test_a_grammar_with_one_output_is_all_start():
    grammar = Grammar(Seq((Lit('{"intent":"'), Repeat(Lit("none"), 1, 1), Lit('"}'))))
    assert only_output(grammar) == '{"intent":"none"}'
    start, rest = split_start(grammar)  # no model call is made for it (GGUFUnderstander.understand)
    assert start == '{"intent"' and only_output(rest) == ':"none"}'


def test_a_schema_grammar_splits_at_its_first_free_value():
    grammar = grammar_from_schema(
        {
            "type": "object",
            "properties": {"n": {"type": "integer", "minimum": 1, "maximum": 20}},
            "required": ["n"],
            "additionalProperties": False,
        }
    )
    start, rest = split_start(grammar)
    assert start == '{"n"'
    assert re.fullmatch(rest.regex, ":12}") and not re.fullmatch(rest.regex, ":21}")
