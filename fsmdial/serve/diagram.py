"""The flow's Mermaid diagram for the page: what ``fsmdial graph`` draws, made safe to render.

Node ids and the flow name are free text in a flow file. On a page they could inject Mermaid
syntax or HTML, so the diagram is drawn by the same code as ``fsmdial graph``
(:func:`fsmdial.compiler.mermaid`) with the states named ``s0``, ``s1``, ... (the aliases the page
highlights by), no title (the page shows the flow name itself, escaped), and every label kept to
letters, digits, ``_`` and spaces (:data:`fsmdial.compiler.PLAIN_CHARS`; the rest as entity codes).

The page lays the flow out top to bottom (``fsmdial graph`` draws left to right): a flow's nodes follow each other,
so left to right a chain of 30 nodes is some ten thousand pixels wide for a pane of a few hundred, and even the
restaurant booking's seven only fit it at a size nobody can read; top to bottom the drawing is about as wide as
a few node labels, and the page pans and zooms it (``static/app.js``) at a size its labels can be read at.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..compiler import PLAIN_CHARS, mermaid

CLASS_DEFS = (
    "classDef current fill:#ffd166,stroke:#c1121f,stroke-width:3px,color:#000",
    "classDef entered fill:#d7ecff,stroke:#1b6ec2,stroke-width:2px,color:#000",
)
"""How the page marks the current node and the nodes entered in the last turn."""


@dataclass(frozen=True)
class Diagram:
    """Mermaid source with states named by alias, and the alias of every node id."""

    source: str
    aliases: dict[str, str]

    def to_dict(self) -> dict[str, Any]:
        return {"source": self.source, "aliases": self.aliases}


def flow_diagram(cls: Any) -> Diagram:
    """The diagram of a compiled flow class (see the module docstring)."""
    aliases = {node.id: f"s{index}" for index, node in enumerate(cls.FLOW.nodes)}
    source = mermaid(cls, names=aliases, title=False, keep=PLAIN_CHARS, class_defs=CLASS_DEFS, direction="TB")
    return Diagram(source, aliases)
