"""``fsmdial prompt FLOW NODE TEXT``: see what a model would be asked, without a model."""

from __future__ import annotations

from pathlib import Path

from fsmdial.cli import main

FLOW = str(Path(__file__).resolve().parents[2] / "flows" / "restaurant_booking.json")


def test_prompt_shows_the_prompt_what_the_rules_settled_and_the_grounded_grammar(capsys):
    assert main(["prompt", FLOW, "ask_booking", "Jane Doe, 4 of us", "--asked", "name"]) == 0
    out = capsys.readouterr().out
    assert "User: Jane Doe, 4 of us" in out and "The agent asked for name." in out
    # The rules' whole reading stands (the name asked, read from the reply's first clause): nothing left to write.
    assert "--- settled by the rules: {'intent': None, 'slots': {'party_size': 4, 'name': 'Jane Doe'}}" in out
    assert '"x-span-of"' not in out
    assert "Alex" not in out  # no example value anywhere
    assert "- continue: the user asks for what this dialogue already does" in out  # built-in, described in words
    vet = str(Path(FLOW).with_name("vet_appointment.json"))
    text = "a cat, and the reason is her sore ear"
    assert main(["prompt", vet, "ask_appointment", text, "--asked", "species"]) == 0
    out = capsys.readouterr().out
    assert "--- settled by the rules: {'intent': None, 'slots': {'species': 'cat'}}" in out
    assert '"x-span-of":"a cat, and the reason is her sore ear"' in out  # the reason: a span of it
    assert '"x-whole-clause":true' in out and 'span-6 ::= "her " span-7' in out  # the whole clause, no fragment


def test_prompt_shows_a_name_after_cue_words_settled_by_the_rules(capsys):
    assert main(["prompt", FLOW, "ask_booking", "it's under Jane Doe, 4 of us", "--asked", "name"]) == 0
    out = capsys.readouterr().out
    assert "--- settled by the rules: {'intent': None, 'slots': {'party_size': 4, 'name': 'Jane Doe'}}" in out
    assert '"x-span-of"' not in out  # nothing left for the model to write


def test_an_unknown_node_is_a_clear_error(capsys):
    assert main(["prompt", FLOW, "nowhere"]) == 2
    assert "has no node 'nowhere'" in capsys.readouterr().err
