"""fsmdial.loader: format detection gives a clear error on any document."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fsmdial.errors import FlowError
from fsmdial.loader import load_flow
from tests.reliability_support import FUZZ_SETTINGS, count, record


@pytest.mark.parametrize("edges", [1, True, "x", 1.5, {"a": 1}, None])
@pytest.mark.parametrize("node_id", ["a", 1])
def test_format_detection_gives_a_clear_error(edges: Any, node_id: Any) -> None:
    doc = {"nodes": [{"id": node_id, "type": "end"}], "edges": edges}
    try:
        load_flow(doc)
    except FlowError as exc:
        assert str(exc)


json_scalar = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False), st.text(max_size=8))


json_value = st.recursive(
    json_scalar,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)),
    max_leaves=12,
)


SHAPES = ["nodes", "edges", "graph", "Agent.Start", "slots", "id", "condition", "messages", "examples", "fallbacks"]


@st.composite
def shaped_document(draw: st.DrawFn) -> dict[str, Any]:
    doc = draw(st.dictionaries(st.sampled_from(SHAPES), json_value, max_size=5))
    if draw(st.booleans()):
        doc["nodes"] = draw(
            st.lists(st.dictionaries(st.sampled_from(["id", "type", "slots", "message"]), json_value), max_size=3)
        )
    return doc


def test_format_detection_never_crashes() -> None:
    stats: Counter[str] = Counter()

    @settings(max_examples=count(400, 5000), **FUZZ_SETTINGS)
    @given(doc=shaped_document(), fmt=st.sampled_from(["auto", "fsmdial", "chief", "sop"]))
    def fuzz(doc: dict[str, Any], fmt: Any) -> None:
        try:
            load_flow(doc, format=fmt)
            stats["valid"] += 1
        except FlowError as exc:
            assert str(exc)
            stats["flow_error"] += 1

    fuzz()
    record("format_detection", **stats)  # a crash fails the test before this line
