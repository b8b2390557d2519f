"""Categorical values in a reply, for the rules understander: where a value is written (whole, in the plural, by
the synonyms its slot's description lists, by its own words alone), and the asked slot's value a typo is of.

Pure functions of the values and the text, cached; :mod:`fsmdial.understand.rules` reads the slots with them.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from functools import lru_cache

from ...flow import Slot, fold, value_key
from ...language import normalize
from ...language.choices import closest_value, described_synonyms, plural_tolerant
from ...language.text import FUNCTION_WORDS


@lru_cache(maxsize=1024)
def value_pattern(value: str, plural: bool = True) -> re.Pattern[str]:
    """Where a categorical value is written in a reply: its :func:`~fsmdial.flow.value_key` words, in
    any case, joined by spaces, hyphens or underscores; its punctuation kept (``O-`` is not ``O+``)."""
    words = [re.escape(w) for w in value_key(value).split()]
    if words and plural:  # "dogs", "guinea pigs", "boxes"
        words[-1] = plural_tolerant(value_key(value).split()[-1])
    # An underscore joins the words of a value, so it is no part of a word at the edges either: "_n/a+" is read
    # whole, not as the "a+" inside it.
    return re.compile(r"(?<![^\W_])" + r"[\s\-_]*".join(words) + r"(?![^\W_])", re.I)


@lru_cache(maxsize=1024)
def short_names(values: tuple[str, ...]) -> tuple[tuple[str, re.Pattern[str]], ...]:
    """Values of several words a user may name by their own words alone: "the hilton" for "Hilton
    Hotel" when the slot also has "Hyatt Hotel" (the words no other value of the slot has, next to
    each other in the value, one of them a real word of four letters or more)."""
    keyed = {value: value_key(value).split() for value in values}
    # Words are compared without their punctuation: "york" is not "+new york_"'s own word beside "_new york+".
    bare = lambda word: re.sub(r"\W", "", word)  # noqa: E731
    shared = Counter(bare(word) for words in keyed.values() for word in set(words))
    out = []
    for value, words in keyed.items():
        own = [i for i, word in enumerate(words) if shared[bare(word)] == 1 and word not in FUNCTION_WORDS]
        if not own or len(own) == len(words) or own != list(range(own[0], own[-1] + 1)):
            continue
        if all(words[i].isalpha() for i in own) and any(len(words[i]) >= 4 for i in own):
            out.append((value, value_pattern(" ".join(words[i] for i in own), plural=False)))
    return tuple(out)


_WITHOUT = re.compile(r"(?<![^\W_])without(?:\s+(?:a|an|any|the))?(?![^\W_])", re.I)
""""without a clutch" says what "no clutch" says: a value described as "no X" is named by it, and the value described
as "with X" is not (it was: "one without a clutch please" booked a manual car)."""


def found_value(
    values: Sequence[str],
    text: str,
    aliases: Sequence[tuple[str, re.Pattern[str]]] = (),
    claimed: Sequence[tuple[int, int]] = (),
) -> str | None:
    """The one categorical value written in ``text``, or None when there is none or doubt.

    A value written inside a longer one is not counted (``O`` in ``O-``, ``C`` in ``C++``); of
    values found at the same place, one written exactly as its :func:`~fsmdial.flow.value_key`
    wins (``ab`` over ``a b`` for "ab"); any other doubt gives None. Where no value is written
    whole, one named by its own words alone counts, if only one is (:func:`short_names`) and those words are
    not ``claimed`` (spans another slot's value is written whole in: "north" is an area, not "north american").
    The patterns are of folded values, so they are searched in the folded text (:func:`~fsmdial.flow.fold`; spans
    are of it).
    """
    text = _WITHOUT.sub(lambda said: "no".ljust(len(said.group())), fold(text))  # same length: spans stay put
    hits = [(value, found) for value in values if (found := value_pattern(value).search(text))]
    hits += [(value, found) for value, pattern in aliases if (found := pattern.search(text))]
    if not hits:
        named = [
            value
            for value, pattern in short_names(tuple(values))
            if (found := pattern.search(text)) is not None
            and not any(start < found.end() and found.start() < end for start, end in claimed)
        ]
        return named[0] if len(named) == 1 else None
    if len(hits) > 1:
        spans = [found.span() for _, found in hits]
        hits = [
            (value, found)
            for value, found in hits
            if not any(s[0] <= found.start() and found.end() <= s[1] and s != found.span() for s in spans)
        ]
    if len({value for value, _ in hits}) > 1:
        hits = [(value, found) for value, found in hits if value_key(found.group()) == value_key(value)]
    distinct = {value for value, _ in hits}
    return distinct.pop() if len(distinct) == 1 else None


@lru_cache(maxsize=256)
def alias_patterns(values: tuple[str, ...], description: str) -> tuple[tuple[str, re.Pattern[str]], ...]:
    """The synonyms a categorical slot's description gives its values, as patterns (plurals too)."""
    return tuple(
        (value, value_pattern(word)) for value, words in described_synonyms(values, description) for word in words
    )


def typo_value(slot: Slot, text: str) -> str | None:
    """The value of the asked categorical slot a word of ``text`` is a typo of ("rabit", "guinae pig")."""
    forms = {value.casefold(): value for value in slot.values or ()}
    forms.update(
        {
            word: value
            for value, words in described_synonyms(tuple(slot.values or ()), slot.description)
            for word in words
        }
    )
    words = [w for w in normalize(text).split() if w not in FUNCTION_WORDS]
    return closest_value(words, forms)


def settled_value(values: Sequence[str], text: str) -> str | None:
    """The categorical value ``text`` is, beyond doubt: the one with its :func:`~fsmdial.flow.value_key`,
    else the one it names once punctuation is dropped, if that value has none that counts."""
    key = value_key(text.strip())
    for value in values:
        if value_key(value) == key:
            return value  # keys are unique within a slot (flow validation)
    norm = normalize(text)
    same = [value for value in values if normalize(value) == norm]
    if len(same) == 1 and value_key(same[0]) == norm:
        return same[0]
    return None


def inside_longer(value: str, folded: str, claimed: Sequence[tuple[int, int]]) -> bool:
    """Is ``value`` written only inside a longer value of another slot ("north" in "north american food")?"""
    found = value_pattern(value).search(folded)
    return found is not None and any(
        start <= found.start() and found.end() <= end and (start, end) != found.span() for start, end in claimed
    )


def distinctive(value: str) -> bool:
    # A categorical value found in passing counts only if it cannot be an ordinary word.
    return len(value) > 3 and value.casefold() not in {"none", "other", "any", "yes", "no", "true", "false"}


def value_owners(slots: Sequence[Slot], asked: Slot | None, text: str) -> Sequence[Slot]:
    """Of the slots a categorical value said once is a value of (``account_type`` and ``recipient_account_type`` both
    have "savings"), the one it is for: the asked one; else the one whose own name words the reply says ("the
    recipient's savings account"); else the one named by no word of its own (the plain ``account_type``). When none
    of these settles it, every slot still takes it."""
    if len(slots) < 2:
        return slots
    if asked is not None and asked in slots:
        return [asked]
    names = {slot.name: set(re.split(r"[_\W]+", slot.name.casefold())) - {""} for slot in slots}
    own = {
        name: words - set().union(*(other for key, other in names.items() if key != name))
        for name, words in names.items()
    }
    said = set(re.findall(r"[a-z]+", text.casefold()))
    named = [slot for slot in slots if own[slot.name] & said]
    if len(named) == 1:
        return named
    plain = [slot for slot in slots if not own[slot.name]]
    return plain if len(plain) == 1 and not named else slots
