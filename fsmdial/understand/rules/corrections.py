"""A word put in place of another inside one message: "14, not 12", "not 12 but 14", "it's not Pepper, it's
Paprika", "12? no, 14", "I said Daisy, I meant Maisie". The rules hand the swap (old, new) to the turn, which edits
the one held value that contains the old word and confirms again (:func:`fsmdial.turn.replaced`)."""

from __future__ import annotations

import re

from ...language.text import FUNCTION_WORDS

_WORD = r"([\w'\-]+(?:\.[\w'\-]+)*)"  # "dan.okafor, not d.okafor": a dotted word is one
_SWAPS = (
    # "14, not 12": (new, old)
    (re.compile(r"(?<![\w'])" + _WORD + r"\s*,?\s+not\s+(?:a\s+|an\s+|the\s+)?" + _WORD + r"(?![\w'])", re.I), 1, 2),
    # "not 12 but 14", "it's not Pepper, it's Paprika"
    (
        re.compile(
            r"(?<![\w'])(?:not|isn't|wasn't)\s+(?:a\s+|an\s+|the\s+)?"
            + _WORD
            + r"\s*[,;]?\s+(?:but\s+|it's\s+|it\s+is\s+)?"
            + _WORD
            + r"(?![\w'])",
            re.I,
        ),
        2,
        1,
    ),
    # "I said Daisy, I meant Maisie", "said 14 but meant 41"
    (
        re.compile(
            r"(?<![\w'])said\s+" + _WORD + r"\s*[,;.]?\s*(?:but\s+|and\s+)?(?:i\s+)?meant\s+" + _WORD + r"(?![\w'])",
            re.I,
        ),
        2,
        1,
    ),
    # "12? no, 14", "Pepper?? no it's Paprika"
    (
        re.compile(
            r"(?<![\w'])"
            + _WORD
            + r"\s*\?+\s*(?:no|nope|nah)\b[\s,.!]*(?:it's\s+|it\s+is\s+|make\s+it\s+)?"
            + _WORD
            + r"(?![\w'])",
            re.I,
        ),
        2,
        1,
    ),
)
"""The ways of putting one word in place of another, with the groups of the new word and the old one."""
_SWAP_WORD = re.compile(r"(?<![\w'])(?:not|isn't|wasn't|no|nope|nah|meant)(?![\w'])", re.I)


def replacement(text: str) -> tuple[str, str] | None:
    """A word put in place of another ("14, not 12", "not 12 but 14", "it's not X, it's Y", "X? no, Y"):
    (old, new), both of one shape (digits or letters), or None."""
    if _SWAP_WORD.search(text) is None:
        return None  # each way says one of these: most messages are read no further
    for pattern, new_group, old_group in _SWAPS:
        for found in pattern.finditer(text):
            new, old = found.group(new_group), found.group(old_group)
            if new_group < old_group and new.isdigit() != old.isdigit():
                # "it's 24 Kings Road not 22": the nearest word of the same shape before the "not"
                same = [w for w in re.findall(r"[\w'\-]+", text[: found.start(2)]) if w.isdigit() == old.isdigit()]
                new = same[-1] if same else new
            if len(new) == 1 and len(old) > 1 and new.isalpha():
                # "Marc with a C, M A R C, not Mark": the word spelt, not its last letter
                spelt = [
                    w
                    for w in re.findall(r"[\w'\-]+", text[: found.start(new_group)])
                    if len(w) > 1 and w.casefold() not in FUNCTION_WORDS
                ]
                new = spelt[-1] if spelt else new
            if (
                new.isdigit() == old.isdigit()
                and new.casefold() != old.casefold()
                and new.casefold() not in FUNCTION_WORDS
                and old.casefold() not in FUNCTION_WORDS
                and not re.search(rf"(?<![\w']){re.escape(old)}\s+{re.escape(new)}(?![\w'])", text, re.I)
            ):  # "not a rowing boat": two words of one thing, no swap
                return old, new
    return None
