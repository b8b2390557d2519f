"""Where a number said is no count of the slot at hand: two numbers said as a range with no word of the clock
("somewhere between 4 and 6" to "how many of you?": counts, no start time), a length of time ("every couple of
months", "3 years": no count of bedrooms), and a part of a count said beside it ("seven, two of them are
teenagers")."""

from __future__ import annotations

import re

from ...language import WORD_NUMBERS

__all__ = ["counts_in_a_range", "without_lengths_of_time", "without_subsets"]

_SMALL = "|".join(
    sorted(
        (w for w, n in WORD_NUMBERS.items() if " " not in w and 1 <= n <= 12 and w != "dozen"), key=len, reverse=True
    )
)
_A_NUMBER = rf"(?:\d+|{_SMALL})"
"""A number a count or an hour is said with: digits, or a word up to twelve (:data:`~fsmdial.language.WORD_NUMBERS`)."""
_CLOCK_SAID = re.compile(
    rf"\d\s*(?::\d\d|[ap]\.?m\b)|o'?clock|\b(?:noon|midday|midnight|morning|afternoon|evening|tonight|half\s+past|"
    rf"quarter\s+(?:past|to)|half\s+(?:{_SMALL}|\d))\b",
    re.I,
)
"""Words that make a number a clock time, whatever is asked ("7pm", "6:30", "at 6 o'clock", "half 7", "in the
evening")."""
_NUMBER_RANGE = re.compile(
    rf"\b(?:between\s+{_A_NUMBER}\s+and\s+|{_A_NUMBER}(?:\s*-\s*|\s+(?:to|till|until|or)\s+)){_A_NUMBER}\b", re.I
)
"""Two numbers said as a range ("between 4 and 6", "4-6"): to a count's question, counts."""
_TIME_SPAN = re.compile(
    rf"(?<![\w'])(?:{_A_NUMBER}|a\s+couple\s+of|couple\s+of|a\s+few|few|several)"
    r"\s+(?P<unit>months?|years?|weeks?|fortnights?)(?![\w'])"
    r"(?!\s+old\b)",  # "31 years old" is an age
    re.I,
)
"""A length of time in weeks or more ("a couple of months", "3 years"): no count of a slot it does not name (nights,
days and hours are what stays and hires count, often in a slot named otherwise: "2 nights" for a hotel's ``stay``)."""


def counts_in_a_range(text: str) -> bool:
    """Does ``text`` say two numbers as a range ("between 4 and 6", "4-6") with no word that makes them clock times
    ("7pm", "half 7", "in the evening")? To a count's question, they are counts."""
    return _NUMBER_RANGE.search(text) is not None and _CLOCK_SAID.search(text) is None


def without_lengths_of_time(text: str, naming: frozenset[str]) -> str:
    """``text`` without its lengths of time ("a couple of months"), but those whose unit names a slot (``naming``:
    "3 nights" where the nights are counted)."""
    return _TIME_SPAN.sub(lambda found: found.group() if found.group("unit") in naming else " ", text)


_SUBSET = re.compile(
    rf"(?<![\w']){_A_NUMBER}\s+of\s+(?:them|whom)"
    r"(?:'s|'re|'ll|\s+(?:is|are|was|were|has|have|had|will|need|needs|can|can't|won't|don't|doesn't))(?![\w'])",
    re.I,
)
_NUMBER = re.compile(rf"(?<![\w']){_A_NUMBER}(?![\w'])", re.I)
_PART_OF_US = re.compile(
    rf"(?<![\w'])(?:{_A_NUMBER}|a\s+couple|a\s+few|some|most)\s+of\s+(?:us|them)"
    r"(?:'ll|'s|\s+(?:need|needs|want|wants|will|would|are|is|was|were|have|has|don't|can't))(?![\w'])|"
    # "wetsuits for two of us, the others have their own": beside the others, a part
    rf"(?<![\w'])(?:{_A_NUMBER}|a\s+couple|a\s+few|some|most)\s+of\s+(?:us|them)(?![\w'])"
    r"(?=.*(?<![\w'])(?:the\s+others?|the\s+rest|everyone\s+else|everybody\s+else)(?![\w']))|"
    # the children of the party ("my two lads will be there", "our 3 kids are coming"): a part of it
    rf"(?<![\w'])(?:my|our|his|her|the)\s+{_A_NUMBER}\s+(?:lads|boys|girls|kids|children|sons|daughters|"
    r"grandkids|grandchildren|teenagers|teens|nieces|nephews)(?![\w'])(?!\s+and\b|\s*,\s*(?:my|our|me|and)\b)",
    re.I,
)


def says_a_part(text: str) -> bool:
    """Does ``text`` say what a part of the party does ("3 of us need shoes", "two of us are under 18", "a couple of us
    will need to borrow some")? Said while
    another question is asked, that number is no new head count."""
    return _PART_OF_US.search(text) is not None


def without_subsets(text: str) -> str:
    """``text`` without "two of them are ..." where another number is the count ("seven, two of them are teenagers": 7;
    "one of them's dropped out so it'll be 5 now": 5); "2 of them, one for each of the kids" keeps its 2."""
    parts = _SUBSET.split(text)
    if len(parts) == 1 or not any(_NUMBER.search(part) for part in parts):
        return text
    return _SUBSET.sub(" ", text)
