"""Values said beside the task, on a small flow written here (a clock repairer's visit), each with wordings of its
own: a categorical value inside its own longer synonym ("my grandfather clock" where "grandfather clock" is listed
for "longcase") is that value; a word of another slot's forms ("clock") tells no value of the job; a street with an
ordinary street word ("close") in lower case is an address when a house number comes before it and a postcode after."""

from __future__ import annotations

from typing import Any

import pytest

from fsmdial.language.addresses import find_addresses
from fsmdial.loader import load_flow
from fsmdial.runtime import Dialogue
from fsmdial.testing import FrozenClock

CLOCKS: dict[str, Any] = {
    "name": "clock_repair",
    "nodes": [
        {
            "id": "ask_job",
            "type": "request",
            "slots": [
                {
                    "name": "job",
                    "type": "categorical",
                    "values": ["service", "repair"],
                    "description": "What the visit is for (service: clean and oil, overhaul, annual check; repair: "
                    "broken spring, broken clock, stopped ticking, chime not working, wound too tight)",
                    "ask": "A service or a repair?",
                }
            ],
        },
        {
            "id": "ask_details",
            "type": "request",
            "slots": [
                {
                    "name": "clock_type",
                    "type": "categorical",
                    "values": ["longcase", "wall", "mantel"],
                    "description": "The kind of clock (longcase: longcase clock, grandfather clock, tall clock; wall: "
                    "wall clock; mantel: mantel clock, carriage clock)",
                    "ask": "What kind of clock is it?",
                },
                {"name": "address", "type": "address", "ask": "What's the address?"},
            ],
        },
        {"id": "done", "type": "end", "message": "Thanks."},
    ],
    "edges": [{"source": "ask_job", "target": "ask_details"}, {"source": "ask_details", "target": "done"}],
}


def _first(said: str) -> dict[str, Any]:
    dialogue = Dialogue(load_flow(CLOCKS), stand_in_tools=True, clock=FrozenClock("2027-02-01T09:00"))
    dialogue.start()
    dialogue.turn(said)
    return dict(dialogue.slots)


@pytest.mark.parametrize(
    ("said", "kind"), [("a service for my grandfather clock", "longcase"), ("a service please, a wall clock", "wall")]
)
def test_a_value_inside_its_own_longer_synonym_is_that_value(said, kind):
    assert _first(said).get("clock_type") == kind


def test_a_word_of_another_slots_forms_tells_no_value_of_the_job():
    """ "clock" names the clock types: beside "tight" (of the repair's "wound too tight") it tells no repair."""
    slots = _first("it's the old mantel clock, we're a bit tight on space in the hall")
    assert slots.get("clock_type") == "mantel" and "job" not in slots


@pytest.mark.parametrize(
    ("said", "found"),
    [
        ("9 oak close, bath ba2 4qt", "9 oak close, bath BA2 4QT"),
        ("we'll be 8 close to the station", None),  # no number before, no postcode: "close" is a word
        ("9 oak close, bath", None),  # no postcode: in lower case, "close" may be an ordinary word
    ],
)
def test_a_lower_case_street_with_an_ordinary_street_word_before_a_postcode(said, found):
    assert [value for _, value in find_addresses(said)][:1] == ([found] if found else [])
