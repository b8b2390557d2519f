"""A "one" said for a thing ("the red one", "I need one", "we both had one last month") is no number.

A number not asked for gives a numeric slot its value only when it counts something. For the word "one" that is
told by its neighbours: a count has a noun after it ("one person"), or a word before it that asks for a count ("just
one", "for one", "make it one"); a "one" at the end of its clause or before a word naming no thing (a time, a
preposition) stands for a thing said before.
"""

from __future__ import annotations

import re

from ...language import WORD_NUMBERS

__all__ = ["ONE_IN_A_NAME", "only_pronoun_ones"]

ONE_IN_A_NAME = re.compile(r"(?<![\w'])one[\s-]+way(?![\w'])", re.I)
"""A "one" that is part of the name of a kind of thing ("a one-way flight", "one way tickets"): no count."""

_WORDS = re.compile(r"[a-z']+|\d+(?:[.,]\d+)?|[,.;!?]")
_COUNTING_BEFORE = frozenset(
    {"just", "only", "for", "of", "be", "are", "re", "were", "it", "that", "party", "table", "booking", "exactly"}
)
"""Words before a "one" that make it a count ("just one", "a table for one", "make it one", "we'll be one")."""
_NO_THING_AFTER = frozenset(
    "last this next yesterday today tomorrow already before too as with from at in on of for which that please "
    "thanks thank and or but so is was i we you it he she they here there done recently ago again then now "
    "when while if because since until by to a an the my our your their his her yes no yeah yep ok okay".split()
)
"""Words after a "one" that name no thing it counts ("had one last month", "one with a fringe")."""


def only_pronoun_ones(text: str) -> bool:
    """Does ``text`` hold a number only as the word "one" standing for a thing (never a digit, never a count)?"""
    words = _WORDS.findall(text.casefold())
    ones = [i for i, word in enumerate(words) if word == "one"]
    if not ones or any(word[0].isdigit() or (word in WORD_NUMBERS and word != "one") for word in words):
        return False
    for i in ones:
        before = words[i - 1] if i > 0 else ""
        after = words[i + 1] if i + 1 < len(words) else ""
        if before in _COUNTING_BEFORE:
            return False
        if after and after[0].isalpha() and after not in _NO_THING_AFTER:
            return False  # "one person", "one haircut": a count of what follows
    return True
