"""What a customer tells in choosing a value by describing it: "our hot tub keeps tripping the electrics every time the
heater kicks in, could somebody come and have a look" chooses a repair and says what is wrong, the text the flow asks
next for a repair ("what's it doing?"). When that question is answered by other values alone ("it's an eight
seater": the customer took it as told), the describing clauses of the message before are that text; the request,
greeting, questions and the clauses naming a value are not. A customer who answers the question describes there."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from ...flow import Slot
from ...language import read_acts, says_only_when
from ...language.clauses import clauses
from ...language.statements import without_task_statements
from ...language.text import FUNCTION_WORDS
from ..base import UnderstandingState
from .categories import named_value, value_pattern
from .text_values import descriptive

_JOINED = re.compile(r"(?:and|but|so|plus)\b", re.I)
"""A clause that goes on from the one before ("... gone stone cold and the panel keeps flashing"): joined by a space."""


def told_before(
    state: UnderstandingState, history: Sequence[tuple[str, str]], read: Mapping[str, Any]
) -> dict[str, str]:
    """At the question for a free-text description a categorical value leads to (``state.details``: a repair,
    then "what's it doing?"), answered by other values alone (``read``: "it's an eight seater"), the clauses of the
    customer's message before it that describe (:func:`described`), as that slot's value: told there, in choosing the
    value ("our hot tub keeps tripping the electrics, could somebody come?"), it is not asked for again."""
    asked = state.slot(state.asked) if state.asked is not None else None
    if asked is None or not read or asked.name in read or not descriptive(asked):
        return {}
    before = next((said for role, said in reversed(history) if role == "user"), None)
    if before is None:
        return {}
    for name, value, detail in state.details:
        if detail == asked.name and isinstance(value, str) and (slot := state.slot(name)) is not None:
            if (said := described(slot, value, before)) is not None:
                return {asked.name: said}
    return {}


def described(slot: Slot, value: str, text: str) -> str | None:
    """The clauses of ``text`` that describe, joined as said: no greeting or thanks, question, request, task
    statement, moment alone, clause naming a value of ``slot`` by its own words ("so a repair I suppose") or another
    value than ``value`` ("it's not really a service"); None if none has three words. A clause telling ``value`` by
    a synonym describes ("it keeps tripping the electrics")."""
    kept: list[str] = []
    for clause in clauses(text):
        acts = read_acts(clause)
        words = re.findall(r"[\w']+", clause)
        if (
            acts.only_social
            or acts.question
            or acts.request
            or len([word for word in words if word.casefold() not in FUNCTION_WORDS]) < 2
            or len(words) < 3
            or not without_task_statements(clause)
            or says_only_when(clause)
            or named_value(slot, clause) not in (None, value)
            or any(value_pattern(own).search(clause) for own in slot.values or ())
        ):
            continue
        kept.append(clause.strip(" ,;"))
    if not kept:
        return None
    said = kept[0]
    for clause in kept[1:]:
        said += (" " if _JOINED.match(clause) else ", ") + clause
    return said
