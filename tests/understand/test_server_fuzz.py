"""Whatever a model server writes, nothing outside what the turn offered is taken, and nothing but a typed error
comes out: random replies (JSON near the turn's offer, free text, raw bytes as the whole HTTP answer) from the
fake server, through the native client and the OpenAI-compatible one.

The oracle is independent of fsmdial's own check: a reply that is taken must validate against the turn's JSON
schema with the ``jsonschema`` package, and every value taken must be one the schema offered (a text value a
span of the message).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections import deque
from collections.abc import Iterator
from typing import Any

import jsonschema
import orjson
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

pytest.importorskip("jinja2", reason="needs the gguf extra (chat templates)")

from fsmdial.errors import ModelServerError, UnderstandingError
from fsmdial.runtime import Dialogue
from fsmdial.testing import FrozenClock
from fsmdial.understand.base import UnderstandingState
from fsmdial.understand.constraint.schema import turn_schema
from fsmdial.understand.model.openai_server import OpenAIServerUnderstander
from fsmdial.understand.model.server import ServerUnderstander
from tests.understand.server_fake import FakeLlamaServer
from tests.understand.test_server import BOOKING, CONFIRMING, UNSURE

NOW = dt.datetime(2026, 11, 23, 10, 0)


def booking_states() -> list[tuple[UnderstandingState, str]]:
    """(state, message) pairs whose turns offer different things: a required text slot, typed spans, choices,
    a pending confirmation with only some answers."""
    dialogue = Dialogue(BOOKING, stand_in_tools=True, clock=FrozenClock("2026-11-23T10:00"))
    dialogue.start()
    start = dialogue.understanding_state()
    with_choices = dataclasses.replace(start, choices=("keep", "cancel"))
    dialogue.turn(CONFIRMING)
    confirming = dialogue.understanding_state()
    return [
        (start, "the booking is for Dana Lee please"),
        (start, "Dana Lee, 4 people tomorrow at 7pm on the terrace"),
        (with_choices, "cancel it, Dana Lee"),
        (confirming, UNSURE),
        (confirming, "yes but make it 5 people"),
    ]


STATES = booking_states()
WORDS = [
    *("none", "yes", "no", "other", "change", "goodbye", "decline", "keep", "cancel", "Dana Lee", "Dana", "4"),
    *("tomorrow", "7pm", "terrace", "indoor", "5", "Bob", "", "name", "party_size", "date", "time", "seating"),
]
scalars = st.one_of(
    st.sampled_from(WORDS),
    st.none(),
    st.booleans(),
    st.integers(-3, 30),
    st.floats(allow_nan=False),
    st.text(max_size=8),
)
values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=2) | st.dictionaries(scalars.map(str), inner, max_size=2),
    max_leaves=4,
)
slot_maps = st.dictionaries(st.sampled_from(["name", "party_size", "date", "time", "seating", "x"]), values, max_size=4)


@st.composite
def near_offers(draw: Any) -> str:
    """A JSON object spelled like an answer (intent first, as the prompt starts it), fields near the offer's."""
    reply: dict[str, Any] = {"intent": draw(st.sampled_from(["none", "goodbye", "decline", "yes", "book"]) | values)}
    for key in draw(st.lists(st.sampled_from(["answer", "slots", "choice", "extra"]), unique=True)):
        reply[key] = draw(slot_maps) if key == "slots" and draw(st.booleans()) else draw(values)
    return orjson.dumps(reply).decode()


replies = st.one_of(near_offers(), st.text(max_size=40), st.sampled_from(['{"intent":"none"}', '{"intent"']))


@pytest.fixture(scope="module")
def servers() -> Iterator[tuple[FakeLlamaServer, list[ServerUnderstander]]]:
    fake = FakeLlamaServer()
    options: dict[str, Any] = {"rules_first": False, "fast_path": False, "retries": 0, "deadline": 5}
    yield fake, [ServerUnderstander(fake.url, **options), OpenAIServerUnderstander(fake.url, **options)]
    fake.close()


def check_taken(state: UnderstandingState, text: str, parse: Any) -> None:
    """A parse taken from a server's reply must be one the turn's schema offered, checked by jsonschema."""
    schema = turn_schema(state, text, NOW)
    output = orjson.loads(parse.info["output"])
    jsonschema.validate(output, schema.json_schema)  # the reply, as written, fits exactly what was offered
    for name, value in parse.slots.items():
        if name in schema.text_slots:
            assert value in text
        else:
            assert name in schema.values or name in schema.categorical or name in schema.free
    assert parse.answer in (None, "yes", "no", "other")
    if parse.answer is not None:
        options = schema.json_schema.get("anyOf", [schema.json_schema])
        offered = [option["properties"].get("answer", {}) for option in options]
        assert any(parse.answer in spec.get("enum", [spec.get("const")]) for spec in offered)


@settings(max_examples=150, deadline=None)
@given(which=st.integers(0, len(STATES) - 1), client=st.integers(0, 1), reply=replies)
@example(which=0, client=0, reply='{"intent":"none","slots":{"name":"Dana Lee"}}')  # taken: the offer's own
@example(which=3, client=1, reply='{"intent":"none","answer":"no"}')
@example(which=3, client=0, reply='{"intent":"none","answer":"yes"}')  # refused: "yes" was not offered
def test_a_reply_is_taken_only_inside_the_turns_offer_and_fails_typed_otherwise(servers, which, client, reply):
    fake, understanders = servers
    state, text = STATES[which]
    fake.raw, fake.replies = deque(), deque([reply])
    try:
        parse = understanders[client].understand(state, text, now=NOW)
    except UnderstandingError:
        return  # typed: the runtime rolls the turn back
    check_taken(state, text, parse)


@settings(max_examples=100, deadline=None)
@given(client=st.integers(0, 1), body=st.binary(max_size=80) | near_offers().map(str.encode))
def test_raw_bytes_as_the_whole_answer_fail_the_turn_typed(servers, client, body):
    fake, understanders = servers
    state, text = STATES[0]
    fake.raw, fake.replies = deque([body]), deque()
    try:
        parse = understanders[client].understand(state, text, now=NOW)
    except ModelServerError:
        return
    except UnderstandingError:
        return
    check_taken(state, text, parse)
