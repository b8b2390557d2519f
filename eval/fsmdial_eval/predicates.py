"""Named predicates for STAR condition tokens whose meaning the schema leaves implicit.

The importer turns a token it cannot structure into ``{"call": token}``. The
STAR tasks use four such tokens; their meaning is the same wherever they
appear, so they are implemented once here, over the machine's state:

* ``correct`` / ``incorrect`` / ``noanswer``: the user's reply to the question
  asked at the source node, against the answer in the latest query result
  (trivia);
* ``done``: a step-by-step answer has been told to its end: the source node
  has been visited as many times as the latest result lists steps (trip
  directions); ``last_step``: the step about to be told is its last one.

Any other token evaluates to false (the edge is never taken) and is reported.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from fsmdial.language import NO_ANSWER_PATTERN, find_numbers
from fsmdial.machine import FlowMachine

Predicate = Callable[[FlowMachine], bool]

_WORDS = re.compile(r"[a-z0-9]+")


def _latest_result(machine: FlowMachine) -> dict[str, Any]:
    return machine.results.get(machine.last_action or "", {}) if machine.last_action else {}


def _answer_field(result: dict[str, Any]) -> str | None:
    for key, value in result.items():
        if "answer" in key.lower() and isinstance(value, str) and value:
            return value
    return None


def _reply(machine: FlowMachine, node_slots: list[str]) -> str | None:
    for name in reversed(node_slots):
        value = machine.slots.get(name)
        if value is not None:
            return str(value)
    return None


def matches_answer(reply: str, answer: str) -> bool:
    """Is ``reply`` the ``answer`` (word containment either way, or the same number)?"""
    said, wanted = _WORDS.findall(reply.lower()), _WORDS.findall(answer.lower())
    if not said or not wanted:
        return False
    if " ".join(wanted) in " ".join(said) or (
        len(said) >= 1 and " ".join(said) in " ".join(wanted) and len(" ".join(said)) > 2
    ):
        return True
    reply_numbers, answer_numbers = find_numbers(reply), find_numbers(answer)
    return bool(reply_numbers and answer_numbers and reply_numbers[0] == answer_numbers[0])


def _steps(result: dict[str, Any]) -> int:
    lists = [v for v in result.values() if isinstance(v, list) and v and all(isinstance(x, str) for x in v)]
    if not lists:
        return 0
    return max(sum(1 for x in items if not x.startswith("#")) for items in lists)


def token_predicates(
    tokens: dict[str, list[str]], node_slots: dict[str, list[str]]
) -> tuple[dict[str, Predicate], list[str]]:
    """Predicates for a flow's call tokens (token -> source nodes); also the tokens left unimplemented."""
    out: dict[str, Predicate] = {}
    unknown: list[str] = []
    for token, sources in tokens.items():
        slots = [s for src in sources for s in node_slots.get(src, [])]
        if token in ("correct", "incorrect", "noanswer"):
            out[token] = _judge(token, slots)
        elif token == "done":
            out[token] = _done(sources)
        elif token == "last_step":
            out[token] = _last_step(sources)
        else:
            out[token] = lambda machine: False
            unknown.append(token)
    return out, unknown


def _judge(token: str, slots: list[str]) -> Predicate:
    def predicate(machine: FlowMachine) -> bool:
        reply = _reply(machine, slots)
        answer = _answer_field(_latest_result(machine))
        if reply is None:
            return False
        no_idea = bool(NO_ANSWER_PATTERN.search(reply))
        right = answer is not None and matches_answer(reply, answer)
        if token == "correct":
            return right
        if token == "noanswer":
            return no_idea and not right
        return not right and not no_idea

    return predicate


def _done(sources: list[str]) -> Predicate:
    def predicate(machine: FlowMachine) -> bool:
        steps = _steps(_latest_result(machine))
        visits = max((machine.visits.get(src, 0) for src in sources), default=0)
        return steps > 0 and visits >= steps

    return predicate


def _last_step(sources: list[str]) -> Predicate:
    """The step about to be told is the last one (the source has told all but one)."""

    def predicate(machine: FlowMachine) -> bool:
        steps = _steps(_latest_result(machine))
        told = max((machine.visits.get(src, 0) for src in sources), default=0)
        return steps > 0 and told + 1 >= steps

    return predicate
