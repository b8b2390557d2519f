"""Small flow documents for tests, built in one place (the ``flow_doc`` fixture in conftest.py hands out
:func:`small_flow`)."""

from __future__ import annotations

from typing import Any

import pytest

from fsmdial.errors import FlowError
from fsmdial.loader import load_flow
from fsmdial.runtime import Dialogue
from fsmdial.testing import FrozenClock


def small_flow(**changes: Any) -> dict[str, Any]:
    """A valid two-node flow (ask an integer ``size``, then end saying it), top-level keys replaced by ``changes``."""
    doc: dict[str, Any] = {
        "name": "small",
        "nodes": [
            {"id": "ask", "type": "request", "slots": [{"name": "size", "type": "integer"}]},
            {"id": "done", "type": "end", "message": "Size {size}."},
        ],
        "edges": [{"source": "ask", "target": "done"}],
    }
    doc.update(changes)
    return doc


def request_flow(*slots: dict[str, Any], name: str = "flow") -> dict[str, Any]:
    """A flow that asks ``slots`` at one request node, then ends."""
    return {
        "name": name,
        "nodes": [
            {"id": "ask", "type": "request", "slots": list(slots)},
            {"id": "done", "type": "end", "message": "Thanks."},
        ],
        "edges": [{"source": "ask", "target": "done"}],
    }


def booking_flow(*slots: dict[str, Any], name: str = "booking", summary: str, argument: str) -> dict[str, Any]:
    """A flow that asks ``slots`` at one request node, shows the ``summary`` and asks "Shall I book it?", and on a yes
    runs the committing tool ``book`` with the slot ``argument``."""
    return {
        "name": name,
        "nodes": [
            {"id": "ask", "type": "request", "slots": list(slots)},
            {"id": "check", "type": "inform_and_confirm", "message": summary, "question": "Shall I book it?"},
            {
                "id": "book",
                "type": "external_action",
                "tool": "book",
                "commits": True,
                "arguments": {argument: argument},
            },
            {"id": "done", "type": "end", "message": "Booked."},
        ],
        "edges": [
            {"source": "ask", "target": "check"},
            {"source": "check", "target": "book", "when": {"answer": "yes"}},
            {"source": "book", "target": "done"},
        ],
    }


def issues_of(doc: Any) -> str:
    """The message of the FlowError loading ``doc`` raises (the test fails if it loads)."""
    with pytest.raises(FlowError) as caught:
        load_flow(doc)
    return str(caught.value)


def bike_repair_flow() -> dict[str, Any]:
    """Issue 33's bike shop: two confirmations, with and without a courtesy bike (asked only for an e-bike or a
    road bike), both leading on "yes" to one committing action, ``book_repair``."""
    return {
        "name": "bike_repair",
        "nodes": [
            {
                "id": "ask_name",
                "type": "request",
                "slots": [
                    {
                        "name": "name",
                        "type": "person_name",
                        "description": "Name the repair is booked under",
                        "ask": "What name should the repair be under?",
                    }
                ],
            },
            {
                "id": "ask_bike",
                "type": "request",
                "slots": [
                    {
                        "name": "bike_type",
                        "type": "categorical",
                        "values": ["e-bike", "road", "other"],
                        "description": "Kind of bike (e-bike: electric bike; road: racing bike; "
                        "other: city bike, cargo bike, mountain bike)",
                        "ask": "What kind of bike is it: an e-bike, a road bike or another kind?",
                    }
                ],
            },
            {
                "id": "ask_courtesy",
                "type": "request",
                "slots": [
                    {
                        "name": "courtesy_bike",
                        "type": "boolean",
                        "description": "A courtesy bike during the repair",
                        "ask": "Would you like a courtesy bike while we repair it?",
                    }
                ],
            },
            {
                "id": "confirm_with_bike",
                "type": "inform_and_confirm",
                "message": "A repair of your {bike_type} bike for {name}, courtesy bike: {courtesy_bike}.",
                "question": "Shall I book it?",
            },
            {
                "id": "confirm_plain",
                "type": "inform_and_confirm",
                "message": "A repair of your {bike_type} bike for {name}.",
                "question": "Shall I book it?",
            },
            {
                "id": "book_repair",
                "type": "external_action",
                "tool": "book_repair",
                "commits": True,
                "arguments": {"name": "name", "bike_type": "bike_type", "courtesy_bike": "courtesy_bike"},
                "result": {"reference": "string"},
            },
            {"id": "booked", "type": "end", "message": "Booked, reference {result.reference}."},
        ],
        "edges": [
            {"source": "ask_name", "target": "ask_bike"},
            {
                "source": "ask_bike",
                "target": "ask_courtesy",
                "when": {"slot": "bike_type", "op": "in", "value": ["e-bike", "road"]},
            },
            {"source": "ask_bike", "target": "confirm_plain"},
            {"source": "ask_courtesy", "target": "confirm_with_bike"},
            {"source": "confirm_with_bike", "target": "book_repair", "when": {"answer": "yes"}},
            {"source": "confirm_plain", "target": "book_repair", "when": {"answer": "yes"}},
            {"source": "book_repair", "target": "booked"},
        ],
    }


def played(doc: dict[str, Any], now: str, *said: str) -> Dialogue:
    """A dialogue on the flow document ``doc`` (stand-in tools, the clock frozen at ``now``), started and told
    ``said``, one turn each."""
    dialogue = Dialogue(load_flow(doc), stand_in_tools=True, clock=FrozenClock(now))
    dialogue.start()
    for words in said:
        dialogue.turn(words)
    return dialogue
