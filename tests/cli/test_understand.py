"""``fsmdial prompt FLOW NODE TEXT``: see what a model would be asked, without a model."""

from __future__ import annotations

from pathlib import Path

from fsmdial.cli import main

FLOW = str(Path(__file__).resolve().parents[2] / "flows" / "restaurant_booking.json")


def test_prompt_shows_the_prompt_what_the_rules_settled_and_the_grounded_grammar(capsys):
    assert main(["prompt", FLOW, "ask_booking", "Jane Doe, 4 of us", "--asked", "name"]) == 0
    out = capsys.readouterr().out
    assert "User: Jane Doe, 4 of us" in out and "The agent asked for name." in out
    assert "--- settled by the rules: {'intent': None, 'slots': {'party_size': 4}}" in out
    assert '"x-span-of":"Jane Doe, 4 of us"' in out  # the name can only be a span of the message
    assert '("Jane" | "Jane Doe" | "Doe")' in out  # a person's name: only spans of a name's shape, listed
    assert "Alex" not in out  # no example value anywhere
    assert "- continue: e.g." in out  # asking for what the flow does carries on (built-in intent)


def test_prompt_shows_a_name_after_cue_words_settled_by_the_rules(capsys):
    assert main(["prompt", FLOW, "ask_booking", "it's under Jane Doe, 4 of us", "--asked", "name"]) == 0
    out = capsys.readouterr().out
    assert "--- settled by the rules: {'intent': None, 'slots': {'party_size': 4, 'name': 'Jane Doe'}}" in out
    assert '"x-span-of"' not in out  # nothing left for the model to write


def test_an_unknown_node_is_a_clear_error(capsys):
    assert main(["prompt", FLOW, "nowhere"]) == 2
    assert "has no node 'nowhere'" in capsys.readouterr().err
