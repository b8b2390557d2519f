"""Building a turn's grounded schema and grammar: the part of a model turn that depends on the text.

Per turn fsmdial cuts the message into words, finds the spans typed slots can take (every span of up
to six words through the date, time and number parsers), and builds and renders the grammar. What
does not depend on the text (the state's vocabulary, free slots' schemas) is cached on the state.
Work unit: one turn's schema + GBNF text (what the backend compiles).
"""

from __future__ import annotations

import datetime as dt

import pytest

from fsmdial.runtime import Dialogue
from fsmdial.testing.forcing import seek
from fsmdial.understand.constraint import grounding
from fsmdial.understand.constraint.schema import turn_schema

from .conftest import FLOWS

NOW = dt.datetime(2026, 11, 23, 12, 0)
TEXTS = {
    "short": "it's under Jane Doe",
    "several": "Table for two on Friday at 8.30pm please, name's Tom Berger, outside if possible",
    "long": "Hi, so I booked a table last week for my parents' anniversary, it was for 4 people tomorrow at 7pm "
    "under the name Jane Doe, but my brother is coming too so we are five now and we'd rather eat at 8pm, "
    "and could we sit on the terrace if the weather is nice, thanks a lot",
}


@pytest.mark.parametrize("size", list(TEXTS))
def test_turn_schema(benchmark, size):
    dialogue = Dialogue(FLOWS / "restaurant_booking.json", stand_in_tools=True, clock=lambda: NOW)
    seek(dialogue, dialogue.node, asked="name")
    state = dialogue.understanding_state()
    text = TEXTS[size]

    def build() -> str:
        grounding.message.cache_clear()  # every turn is a new message: nothing text-dependent is reused
        grounding.read_spans.cache_clear()
        grounding.pattern_candidates.cache_clear()
        grounding.name_spans.cache_clear()
        return turn_schema(state, text, NOW).grammar.gbnf

    gbnf = benchmark(build)
    benchmark.extra_info.update(words=len(grounding.message(text).words), gbnf_bytes=len(gbnf))
    # the asked name is offered as the spans of a name's shape, listed ("Jane Doe", "Tom Berger")
    assert '"name\\":\\"" (' in gbnf and ("Jane Doe" in gbnf or "Tom Berger" in gbnf)
