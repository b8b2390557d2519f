"""Categorical values as customers write them: plurals, synonyms a slot's description lists, and typos.

* :func:`plural_tolerant`: the regex of a value's last word that also matches its plural ("dogs", "boxes",
  "puppies");
* :func:`described_synonyms`: the other words a slot's description gives a value, written as
  ``"value: word, word; value: word"`` ("Kind of animal (dog: puppy, pup; cat: kitten)");
* :func:`closest_value`: the one value (or synonym) a word of the reply is a typo of ("rabit", "guinae pig"),
  with rapidfuzz; only words of five letters or more, never a value two values are equally close to.

It imports nothing else from fsmdial.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from functools import lru_cache

from rapidfuzz import fuzz

from .text import FUNCTION_WORDS

TYPO_SCORE = 80.0
"""The least rapidfuzz ratio (0-100) for a written word to be read as a typo of a value."""
TYPO_MIN_LETTERS = 5
"""Shorter words are never read as typos ("car" is no "cat")."""

_SYNONYM_LIST = re.compile(r"([^\W\d][\w' \-]*?)\s*:\s*([^;:()]+)")


def plural_tolerant(word: str) -> str:
    """The regex of an escaped last word of a value that also matches its plural (letters only, three or more, or
    two that are no small word of the language: an abbreviation)."""
    if word.isalpha() and len(word) == 2 and word.casefold() not in FUNCTION_WORDS:
        return re.escape(word) + "s?"  # an abbreviation: "TVs", "PCs" (never "its" nor "us")
    if not (word.isalpha() and len(word) >= 3):
        return re.escape(word)
    if word.endswith("y") and word[-2:-1] not in ("a", "e", "i", "o", "u"):
        return re.escape(word[:-1]) + "(?:y|ies)"
    if word.endswith(("s", "x", "z", "ch", "sh")):
        return re.escape(word) + "(?:es)?"
    return re.escape(word) + "s?"


_EXAMPLE_LEAD = re.compile(r"^(?:e\.?\s?g\.?|i\.?\s?e\.?|such as|for example|for instance|like|incl\.?|including)\s+")
"""Words in front of a synonym that only say examples follow ("e.g. labrador", "such as a chihuahua")."""


@lru_cache(maxsize=512)
def described_synonyms(values: tuple[str, ...], description: str) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """The synonyms of each value its slot's description lists ("dog: puppy, pup; cat: kitten, kitty"), folded."""
    keys = {value.casefold(): value for value in values}
    found: dict[str, list[str]] = {}
    for match in _SYNONYM_LIST.finditer(description):
        # The words before the colon end with the value's name ("Which box (fruit box: fruit ...").
        head = match.group(1).casefold().strip()
        value = next(
            (keys[k] for k in sorted(keys, key=len, reverse=True) if head == k or head.endswith(" " + k)), None
        )
        if value is None:
            continue
        said = [_EXAMPLE_LEAD.sub("", w.strip().casefold()) for w in match.group(2).split(",")]
        words = [form for synonym in said for form in _alternatives(synonym)]
        found.setdefault(value, []).extend(w for w in dict.fromkeys(words) if w and w != value.casefold())
    return tuple((value, tuple(words)) for value, words in found.items())


_ARTICLE = re.compile(r"^(?:a|an|the|some)\s+")


def _alternatives(synonym: str) -> list[str]:
    """The forms one listed synonym says: each side of an "or", its article dropped ("a studio or one-bedroom flat":
    studio, one-bedroom flat; "cracked or broken screen": cracked, broken screen, cracked screen). A last side of one
    word shares the words before it ("a two-bedroom flat or house": two-bedroom house, never "house" alone, which a
    customer moving house does not mean)."""
    sides = [_ARTICLE.sub("", side.strip()) for side in re.split(r"\s+or\s+", synonym)]
    if len(sides) != 2 or not all(sides):
        return [_ARTICLE.sub("", synonym)]
    left, right = sides
    if " " not in right and " " in left:
        return [left, left.rsplit(" ", 1)[0] + " " + right]
    if " " not in left and " " in right:
        return [left, right, left + " " + right.split(" ", 1)[1]]
    return [left, right]


def _letters(form: str) -> str:
    """A written form as the words of a normalised message are: lower case, punctuation dropped."""
    return " ".join(re.sub(r"[^\w\s']+", " ", form.casefold()).split())


def _each_word_close(span: str, form: str) -> bool:
    """Is each word of a two-word ``span`` the form's word or close to it ("guinae pig": each of "guinea pig")?"""
    return all(
        said == wanted or fuzz.ratio(said, wanted) >= TYPO_SCORE - 10
        for said, wanted in zip(span.split(), form.split(), strict=False)
    )


def closest_value(words: Iterable[str], choices: Mapping[str, str]) -> str | None:
    """The value one of ``words`` (or two of them side by side) is a typo of: ``choices`` maps each written form
    (a value, a synonym; folded) to its value. None when no form is close enough, or two values are equally so."""
    words = list(words)
    spans = words + [f"{a} {b}" for a, b in zip(words, words[1:], strict=False)]
    forms = {_letters(form): value for form, value in choices.items()}
    if any(span in forms for span in spans):
        return None  # a value written as it is (but left unread, for doubt) is no typo of another
    best: dict[str, float] = {}
    for span in dict.fromkeys(spans):  # each said once: a long reply repeats its words
        if len(span.replace(" ", "")) < TYPO_MIN_LETTERS:
            continue
        for form, value in forms.items():
            if form.count(" ") != span.count(" ") or len(form) < TYPO_MIN_LETTERS:
                continue
            score = fuzz.ratio(span, form, score_cutoff=TYPO_SCORE)  # 0 below it, found sooner
            if score and " " in span and not _each_word_close(span, form):
                continue  # "blocked gurgles" is no "blocked gutters": one word the same, the other far off
            if score >= TYPO_SCORE and score > best.get(value, 0.0):
                best[value] = score
    if not best:
        return None
    ranked = sorted(best.items(), key=lambda item: -item[1])
    if len(ranked) > 1 and ranked[1][1] == ranked[0][1]:
        return None
    return ranked[0][0]
