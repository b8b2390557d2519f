"""The page's diagram is laid out top to bottom (readable when panned and zoomed); ``fsmdial graph`` keeps left to
right. How it reads in a browser is tests/serve/test_browser.py's (a 30-node flow at 1400 px)."""

from __future__ import annotations

from fsmdial.compiler import PLAIN_CHARS, mermaid
from fsmdial.runtime import flow_class
from fsmdial.serve.diagram import flow_diagram
from tests.serve_support import RESTAURANT


def test_the_page_draws_top_to_bottom_and_fsmdial_graph_left_to_right():
    cls = flow_class(RESTAURANT)
    page = flow_diagram(cls).source.splitlines()
    assert page[:2] == ["stateDiagram-v2", "  direction TB"]
    assert mermaid(cls).splitlines()[3:5] == ["stateDiagram-v2", "  direction LR"]
    assert [line for line in page if "-->" in line] == [
        line
        for line in mermaid(cls, names=flow_diagram(cls).aliases, title=False, keep=PLAIN_CHARS).splitlines()
        if "-->" in line
    ]
