"""Walks over a graph of node ids (node -> the nodes it leads to), for the flow checks, the
:class:`~fsmdial.flow.document.Flow` lookups and the importers; they know nothing of the model."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Iterator, Mapping


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


def components(graph: Mapping[str, Iterable[str]], nodes: Iterable[str]) -> Iterator[list[str]]:
    """The strongly connected components of ``graph`` restricted to ``nodes`` (Tarjan's, iterative: no
    recursion limit on long chains), each as soon as it is complete."""
    members = dict.fromkeys(nodes)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    for root in members:
        if root in index:
            continue
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        work = [(root, iter(graph.get(root, ())))]
        while work:
            node, successors = work[-1]
            for nxt in successors:
                if nxt not in members:
                    continue
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(graph.get(nxt, ()))))
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    yield component


def on_cycle(graph: dict[str, list[str]], nodes: Iterable[str]) -> set[str]:
    """The nodes of ``nodes`` that lie on a cycle of ``graph`` restricted to ``nodes`` (a node that
    leads back to itself), in one pass over its strongly connected components.

    ``nodes`` must be closed under ``graph`` (every successor of one is one too) for the answer to be
    that of the whole graph, as the nodes that cannot reach an end are.
    """
    found: set[str] = set()
    for component in components(graph, nodes):
        if len(component) > 1 or component[0] in graph.get(component[0], ()):
            found.update(component)
    return found
