"""Walks over a graph of node ids (node -> the nodes it leads to), for the flow checks, the
:class:`~fsmdial.flow.document.Flow` lookups and the importers; they know nothing of the model."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable


def neighbours(node_ids: Iterable[str], pairs: Iterable[tuple[str, str]]) -> dict[str, list[str]]:
    """Node -> the nodes ``pairs`` lead it to, for every node of ``node_ids`` (none: an empty list).

    (source, target) pairs give successors, (target, source) pairs predecessors. For graphs that are
    not a valid :class:`~fsmdial.flow.document.Flow` yet, such as a flow document an importer is still building.
    """
    out: dict[str, list[str]] = {node_id: [] for node_id in node_ids}
    for node_id, other in pairs:
        out.setdefault(node_id, []).append(other)
    return out


def reachable(graph: dict[str, list[str]], roots: Iterable[str]) -> list[str]:
    """Nodes of ``graph`` reachable from ``roots`` (roots included, those not in ``graph`` left out),
    breadth-first, in the order met."""
    seen = dict.fromkeys(root for root in roots if root in graph)
    queue = deque(seen)
    while queue:
        for nxt in graph.get(queue.popleft(), ()):
            if nxt not in seen:
                seen[nxt] = None
                queue.append(nxt)
    return list(seen)
