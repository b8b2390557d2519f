"""Small flow documents for tests, built in one place (the ``flow_doc`` fixture in conftest.py hands out
:func:`small_flow`)."""

from __future__ import annotations

from typing import Any

import pytest

from fsmdial.errors import FlowError
from fsmdial.loader import load_flow


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


def issues_of(doc: Any) -> str:
    """The message of the FlowError loading ``doc`` raises (the test fails if it loads)."""
    with pytest.raises(FlowError) as caught:
        load_flow(doc)
    return str(caught.value)
