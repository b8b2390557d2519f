"""A reply to a question answered by choosing (an SOP's user states, ``UnderstandingState.choices``): which choice it
is, by the choice's examples, the words of its name, then the yes or no it says."""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence

from ...language import NEGATIVE_WORDS, POSITIVE_WORDS, parse_yes_no

__all__ = ["POLARITY_WORDS", "chosen"]

POLARITY_WORDS = POSITIVE_WORDS | NEGATIVE_WORDS
"""Words of a choice's label that do not tell it from the other choices."""


def _choice_words(name: str) -> list[str]:
    return [t.lower() for t in re.findall(r"[A-Z]?[a-z]+", name.split(".")[-1])]


def chosen(
    choices: Sequence[str], choice_examples: Sequence[tuple[str, Collection[str]]], norm: str, answer: str | None
) -> str | None:
    """Classify a reply into one of the question's choices: examples, then shared words, then yes/no polarity."""
    for name, examples in choice_examples:
        if norm in examples:
            return name
    words = set(norm.split())
    scored = sorted(
        ((sum(1 for w in _choice_words(c) if w in words and w not in POLARITY_WORDS), c) for c in choices),
        key=lambda item: -item[0],
    )
    if scored and scored[0][0] and (len(scored) == 1 or scored[0][0] > scored[1][0]):
        return scored[0][1]
    for name, examples in choice_examples:
        if any(len(e.split()) > 1 and e in norm for e in examples):
            return name
    polarity = answer or parse_yes_no(norm)
    if polarity in ("yes", "no"):
        fitting = [
            c
            for c in choices
            if (set(_choice_words(c)) & NEGATIVE_WORDS) == set()
            and polarity == "yes"
            or (set(_choice_words(c)) & NEGATIVE_WORDS)
            and polarity == "no"
        ]
        if len(fitting) == 1:
            return fitting[0]
    return None
