"""``fsmdial prompt FLOW NODE TEXT``: see what a model would be asked, without a model."""

from __future__ import annotations

from pathlib import Path

from fsmdial.cli import main

FLOW = str(Path(__file__).resolve().parents[2] / "flows" / "restaurant_booking.json")


def test_prompt_shows_the_prompt_what_the_rules_settled_and_the_grounded_grammar(capsys):
    assert main(["prompt", FLOW, "ask_booking", "it's under Jane Doe, 4 of us", "--asked", "name"]) == 0
    out = capsys.readouterr().out
    assert "User: it's under Jane Doe, 4 of us" in out and "The agent asked for name." in out
    assert "--- settled by the rules: {'intent': None, 'slots': {'party_size': 4}}" in out
    assert '"x-span-of":"it\'s under Jane Doe, 4 of us"' in out  # the name can only be a span of the message
    assert 'span-' in out and "Alex" not in out  # no example value anywhere


def test_an_unknown_node_is_a_clear_error(capsys):
    assert main(["prompt", FLOW, "nowhere"]) == 2
    assert "has no node 'nowhere'" in capsys.readouterr().err
