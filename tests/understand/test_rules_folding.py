"""Categorical values with letters whose case folding changes their length ("ß" -> "ss", "İ" -> "i̇"): the rules read
them typed exactly as the flow writes them, in lower case and in upper case, alone or inside a sentence
(issue 22 item 15). Text and values are folded by one function (:func:`fsmdial.flow.fold`)."""

from __future__ import annotations

import pytest

from fsmdial.flow import fold, value_key
from fsmdial.loader import load_flow
from fsmdial.runtime import Dialogue

VALUES = ["Hauptstraße", "İstanbul", "Zürich"]
FLOW = load_flow(
    {
        "name": "places",
        "nodes": [
            {
                "id": "ask",
                "type": "request",
                "slots": [{"name": "place", "type": "categorical", "values": VALUES, "ask": "Which place?"}],
            },
            {"id": "done", "type": "end", "message": "Going to {place}."},
        ],
        "edges": [{"source": "ask", "target": "done"}],
    }
)


def _read(text: str) -> object:
    dialogue = Dialogue(FLOW, tools={})
    dialogue.start()
    dialogue.turn(text)
    return dialogue.slots.get("place")


@pytest.mark.parametrize("value", VALUES)
@pytest.mark.parametrize(
    "form", ["{}", "{lower}", "{upper}", "I want to go to {} please", "to {upper}, quickly", "{lower}!"]
)
def test_a_value_is_read_however_its_case_is_written(value: str, form: str):
    text = form.format(value, lower=value.lower(), upper=value.upper())
    assert _read(text) == value, text


@pytest.mark.parametrize("written", ["istanbul", "ISTANBUL", "Istanbul", "hauptstrasse", "HAUPTSTRASSE"])
def test_the_ascii_spellings_of_the_folded_letters_are_read(written: str):
    assert _read(written) in VALUES


def test_one_fold_for_text_and_values():
    assert fold("İSTANBUL") == fold("İstanbul") == fold("istanbul") == "istanbul"
    assert fold("Hauptstraße") == fold("HAUPTSTRASSE") == "hauptstrasse"
    assert value_key("İstanbul") == value_key("i̇stanbul")  # "İ".lower(): an i and a combining dot above
