"""Reading a STAR task graph: which keys are condition tokens, which labels they follow, which labels ask back.

A STAR graph maps each label to the next one. Keys that are never a target (and
not a wizard reply) are *condition tokens* (``available``, ``yes``, ``Info missing``):
the graph does not say which label they follow, so :func:`token_edges` finds out
from what the token says (:mod:`.star_names`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from fsmdial.flow import AnswerCondition, CallCondition, ChoiceCondition, iter_conditions
from fsmdial.language import DONT_KNOW_PATTERN

from .star_format import Overlay, StarFormatError, StarTask, parse_condition
from .star_names import (
    ANSWER_TOKENS,
    ANYTHING_ELSE,
    CANNOT,
    GENERIC_WORDS,
    SYNONYMS,
    asks_back,
    bag,
    is_ask_label,
    is_query,
    slot_part,
    status_of,
    status_stem,
)

START = "hello"
"""The graph's first key: a global action whose target is where the flow starts."""


@dataclass(frozen=True)
class TokenEdge:
    """A conditional edge between STAR labels: a condition token, an overlay's fsmdial condition, or neither."""

    source: str
    target: str
    token: str | None = None
    """A STAR condition token (``available``, ``yes``, ``Info missing`` ...)."""
    condition: dict[str, Any] | None = None
    """An overlay's fsmdial condition, as written (both None: an overlay's plain edge)."""
    count: str | None = None
    """An overlay's ``count``: the integer slot the edge adds 1 to."""

    def conditions(self) -> list[Any]:
        """The overlay condition and every condition nested in it (models)."""
        if self.condition is None:
            return []
        return list(iter_conditions(parse_condition(self.condition)))

    @property
    def calls(self) -> list[str]:
        """Named predicates the overlay condition uses, at any depth."""
        return [c.call for c in self.conditions() if isinstance(c, CallCondition)]

    @property
    def answered(self) -> bool:
        """Does the edge branch on an answer to its source (yes/no or a choice)?"""
        if self.token is not None:
            return self.token in ANSWER_TOKENS
        return any(isinstance(c, (AnswerCondition, ChoiceCondition)) for c in self.conditions())


@dataclass(frozen=True)
class StarGraph:
    """What the importer reads off a task's graph before building nodes."""

    start: str
    """The label ``hello`` leads to."""
    order: list[str]
    """Labels (no tokens) in the order a conversation meets them."""
    queries: list[str]
    plain: dict[str, str]
    """Unconditional edges: label -> next label."""
    edges: list[TokenEdge]
    declined: dict[str, list[str]]
    """Token -> the ask labels it says the user cannot give."""
    confirms: set[str]
    """Labels that ask a question answered yes/no (or by a choice)."""
    notes: list[str]


def read_graph(task: StarTask, overlay: Overlay | None) -> StarGraph:
    """Tokens, label order, queries, token edges and questions of a task (after its overlay's renames)."""
    graph = task.graph
    if START not in graph:
        raise StarFormatError(f"STAR task {task.name}: graph has no {START!r} entry (the start)")
    tokens = condition_tokens(task)
    extra = [label for edge in overlay.edges for label in (edge.source, edge.target)] if overlay else []
    labels = [k for k in graph if k not in tokens and k != START] + list(graph.values()) + extra
    order = conversation_order(graph, tokens, list(dict.fromkeys(labels)))
    queries = [n for n in order if is_query(n, task.replies.get(n, ""))]
    plain = {k: v for k, v in graph.items() if k not in tokens and k != START}
    edges, declined, notes = token_edges(task, overlay, tokens, order, queries, plain)
    answered = {edge.source for edge in edges if edge.answered}
    confirms = {
        n
        for n in order
        if n in answered or (asks_back(n) and task.replies.get(n, "").rstrip().endswith("?") and n not in queries)
    }
    return StarGraph(graph[START], order, queries, plain, edges, declined, confirms, notes)


def condition_tokens(task: StarTask) -> list[str]:
    """Graph keys that are never a target nor a wizard reply."""
    targets = set(task.graph.values())
    wizard = set(task.responses) if task.responses is not None else None
    return [k for k in task.graph if k != START and k not in targets and (wizard is None or k not in wizard)]


def conversation_order(graph: dict[str, str], tokens: list[str], labels: list[str]) -> list[str]:
    """Labels in the order a conversation meets them: along plain edges from the start, token targets after."""
    order: list[str] = []
    todo = [graph[START]] + [graph[t] for t in tokens]
    while todo:
        label = todo.pop(0)
        while label not in order and label in labels:
            order.append(label)
            label = graph.get(label, "")
    return order + [label for label in labels if label not in order]


# ------------------------------------------------------------------ where tokens come from


def token_edges(
    task: StarTask,
    overlay: Overlay | None,
    tokens: list[str],
    order: list[str],
    queries: list[str],
    plain: dict[str, str],
) -> tuple[list[TokenEdge], dict[str, list[str]], list[str]]:
    """Every token edge (source label, token, target label), the tokens meaning "cannot give", and notes."""
    edges: list[TokenEdge] = []
    declined: dict[str, list[str]] = {}
    notes: list[str] = []
    explicit = overlay.token_sources if overlay else {}
    open_queries = [q for q in queries if q not in plain]  # queries whose outcome the graph branches on
    stems = list(dict.fromkeys(status_stem(t) for t in tokens if status_of(t)))  # "query", "available" ...
    dead_ends = [n for n in order if n not in plain and n not in queries]
    for token in tokens:
        if token in explicit:
            sources = list(explicit[token])
        elif status_of(token):
            if not open_queries:
                notes.append(f"status token {token!r} has no query without a plain edge to follow")
                continue
            # status pairs follow the open queries in order: the n-th pair the n-th query (the last takes the rest)
            sources = [open_queries[min(stems.index(status_stem(token)), len(open_queries) - 1)]]
        elif token in ANSWER_TOKENS:
            sources = question_before(task, dead_ends)
        elif mentioned := mentioned_asks(task, token, order, queries):
            declined[token] = mentioned
            sources = mentioned[-1:]
        else:
            sources = previous_target(task.graph, token, tokens)
            if DONT_KNOW_PATTERN.search(task.replies.get(token, "")) and all(is_ask_label(s) for s in sources):
                declined[token] = sources  # "Don't know": the user cannot answer the question
        edges.extend(TokenEdge(source, task.graph[token], token=token) for source in sources)
    for extra in overlay.edges if overlay else ():
        written = extra.when  # a token, an fsmdial condition, or nothing (a plain edge)
        if isinstance(written, str):
            edges.append(TokenEdge(extra.source, extra.target, token=written, count=extra.count))
        else:
            edges.append(TokenEdge(extra.source, extra.target, condition=written, count=extra.count))
    return edges, declined, notes


def question_before(task: StarTask, dead_ends: list[str]) -> list[str]:
    """The yes/no question a yes/no token answers: a question with no plain way on."""
    questions = [n for n in dead_ends if task.replies.get(n, "").rstrip().endswith("?")]
    specific = [n for n in questions if n != ANYTHING_ELSE]
    return (specific or questions)[:1]


def mentioned_asks(task: StarTask, token: str, order: list[str], queries: list[str]) -> list[str]:
    """Ask labels of the graph that the token's text says the user cannot give ("Can't remember X or Y")."""
    text = task.replies.get(token, "")
    if not CANNOT.search(text):
        return []
    said = bag([text])
    found = []
    for label in order:
        if not is_ask_label(label) or label in queries:
            continue
        terms = bag([slot_part(label)]) - GENERIC_WORDS
        if any(term in said or (SYNONYMS.get(term) and SYNONYMS[term] <= said) for term in terms):
            found.append(label)
    return found


def previous_target(graph: dict[str, str], token: str, tokens: list[str]) -> list[str]:
    """A token of unknown meaning follows the label the graph named just before it."""
    keys = list(graph)
    for key in reversed(keys[: keys.index(token)]):
        if key not in tokens:
            return [graph[key]]
    return []
