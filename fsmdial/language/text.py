"""Text helpers shared by the English parsers and the rules understander.

The cheap tests here rule a pattern out before it is searched; they never
rule out text the pattern would match. Substring tests only hold for ASCII
text: with ``re.I`` a few other letters match ASCII ones ("ſ" matches "s"),
so other text always goes through the full pattern.
"""

from __future__ import annotations

import re

_PUNCT = re.compile(r"[^\w\s']+")
DIGIT = re.compile(r"\d")
"""Any digit (most date, time and number patterns need one)."""
ASCII_WORDS = re.compile(r"[a-z]+")
"""Runs of lower-case ASCII letters: the words of lower-cased ASCII text."""


def normalize(text: str) -> str:
    """Lower-case words separated by single spaces, punctuation dropped (apostrophes kept)."""
    return " ".join(_PUNCT.sub(" ", text.casefold()).split())  # split() and \s agree on what a space is


def may_contain(low: str, needles: tuple[str, ...]) -> bool:
    """False only when the lower-cased ASCII text ``low`` contains none of ``needles``."""
    return not low.isascii() or any(map(low.__contains__, needles))


def may_have_word(text: str, words: frozenset[str]) -> bool:
    """False only when the ASCII ``text`` has none of ``words`` (lower-case letters) as a whole word."""
    if not text.isascii():
        return True
    return not words.isdisjoint(ASCII_WORDS.findall(text.lower()))
