"""The flow's Mermaid diagram for the page: what ``fsmdial graph`` draws, made safe to render.

Node ids and the flow name are free text in a flow file, and ``fsmdial graph``
writes them into the Mermaid source as they are. On a page that would let a
flow file inject Mermaid syntax or HTML. So the diagram is drawn by the same
code (:func:`fsmdial.cli.mermaid_diagram`) on a stand-in of the flow class
whose states are named ``s0``, ``s1``, ... and the real node ids are then put
back only as escaped labels. The page highlights states by those aliases.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any

_STATE_LINE = re.compile(r'^(\s*)state "(s\d+)" as (s\d+)\s*$')
_EDGE_LINE = re.compile(r"^(\s*)(s\d+|\[\*\]) --> (s\d+|\[\*\])(?:: (.*))?$")
_PLAIN = re.compile(r"[A-Za-z0-9_ ]")

CLASS_DEFS = (
    "  classDef current fill:#ffd166,stroke:#c1121f,stroke-width:3px,color:#000",
    "  classDef entered fill:#d7ecff,stroke:#1b6ec2,stroke-width:2px,color:#000",
)
"""How the page marks the current node and the nodes entered in the last turn."""


@dataclass(frozen=True)
class Diagram:
    """Mermaid source with states named by alias, and the alias of every node id."""

    source: str
    aliases: dict[str, str]

    def to_dict(self) -> dict[str, Any]:
        return {"source": self.source, "aliases": self.aliases}


def mermaid_text(text: str) -> str:
    """``text`` with everything but letters, digits, ``_`` and spaces as Mermaid entity codes (``#60;``).

    Mermaid turns the codes back into characters in the drawn SVG as text, so
    neither Mermaid syntax (quotes, colons, newlines) nor HTML gets through.
    """
    return "".join(ch if _PLAIN.match(ch) else f"#{ord(ch)};" for ch in text)


def flow_diagram(cls: Any) -> Diagram:
    """The diagram of a compiled flow class (see the module docstring)."""
    from ..cli import mermaid_diagram

    aliases = {node.id: f"s{index}" for index, node in enumerate(cls.FLOW.nodes)}
    stand_in = SimpleNamespace(
        FLOW=SimpleNamespace(nodes=[SimpleNamespace(id=alias) for alias in aliases.values()], name="flow"),
        TRANSITIONS=[
            {**transition, "source": aliases[transition["source"]], "dest": aliases[transition["dest"]]}
            for transition in cls.TRANSITIONS
        ],
        INITIAL=aliases[cls.INITIAL],
    )
    labels = {alias: node_id for node_id, alias in aliases.items()}
    lines = _without_front_matter(mermaid_diagram(stand_in).splitlines())
    out: list[str] = []
    for line in lines:
        stripped = line.strip()
        if stripped.startswith(("Class ", "classDef ")):
            continue  # the page sets its own classes (current, entered)
        state = _STATE_LINE.match(line)
        edge = _EDGE_LINE.match(line)
        if state:
            indent, alias = state.group(1), state.group(2)
            out.append(f'{indent}state "{mermaid_text(labels[alias])}" as {alias}')
        elif edge:
            indent, source, target, label = edge.groups()
            out.append(f"{indent}{source} --> {target}" + (f": {mermaid_text(label)}" if label else ""))
        elif stripped in ("stateDiagram-v2", "direction LR", ""):
            out.append(line)
        else:  # anything the drawing code may add later is left out rather than passed on unchecked
            continue
    header = next((i for i, line in enumerate(out) if line.strip().startswith("direction")), 0)
    out[header + 1 : header + 1] = CLASS_DEFS
    return Diagram("\n".join(line for line in out if line.strip()) + "\n", aliases)


def _without_front_matter(lines: list[str]) -> list[str]:
    """Drop the ``---``/title/``---`` header (the page shows the flow name itself, escaped)."""
    if lines and lines[0].strip() == "---":
        try:
            end = lines.index("---", 1)
        except ValueError:
            return lines
        return lines[end + 1 :]
    return lines
