"""A reply to a yes/no question read as a yes or a no: the answer to a pending confirmation, a reply of nothing but
yes or no words, a bare yes or no that names nothing else, the thing asked about said by a pronoun ("I do have one",
"there's one by the back door"), and ages said to a question about people under an age."""

from __future__ import annotations

import re

from ...flow import Slot
from ...language import NEGATIVE_WORDS, POSITIVE_WORDS, parse_yes_no, read_acts
from ...language.acts import Acts

__all__ = ["BARE_REPLY_WORDS", "age_answer", "confirmation_answer", "only_yes_or_no", "plain_answer", "pronoun_answer"]


def confirmation_answer(text: str, acts: Acts) -> str | None:
    """The answer to a pending yes/no question: a "yes" taken back or qualified ("yes, but ...", "sure, just not
    at 7pm", "ok?") is no yes; a message made only of yes words ("sounds good, thanks") is one."""
    said = parse_yes_no(text)
    if said == "yes" and (acts.hedge or acts.question or acts.deny):
        return None
    return said if said is not None else plain_answer(text)


def plain_answer(text: str) -> str | None:
    """The yes or no of a message made only of yes words ("sounds good, thanks") or of no words; else None."""
    acts = read_acts(text)
    return "yes" if acts.plain_yes else "no" if acts.plain_no else None


def only_yes_or_no(text: str) -> bool:
    """The reply is a bare yes or no ("yes", "no thanks", "yes please") and says nothing else."""
    words = re.findall(r"[a-z']+", text.lower())
    return bool(words) and parse_yes_no(text) is not None and all(w in BARE_REPLY_WORDS for w in words)


BARE_REPLY_WORDS = POSITIVE_WORDS | NEGATIVE_WORDS | {"please", "thanks", "thank", "you", "ok", "okay", "sure"}
"""Words a bare yes/no reply may consist of (it then names nothing)."""


_HAVE_ONE = re.compile(
    r"(?<![\w'])(?:i|we)(?:\s+|(?='))(?:(?P<not>don'?t\s+have|do\s+not\s+have|haven'?t\s+got|have\s+not\s+got)|do\s+have|"
    r"have\s+got|'ve\s+got|'ve\s+already\s+got|already\s+have|have)(?:\s+(?:one|it|them))?\s*(?=[,.;!?]|$)",
    re.I,
)
"""The thing a yes/no asks about said by a pronoun ("I do have one", "we've already got it", "I don't have one")."""
_THERE_IS_ONE = re.compile(
    r"(?<![\w'])there(?:'s|\s+is|\s+are|'re)(?P<not>n'?t|\s+not|\s+no)?\s+(?:(?:only|just)\s+)?"
    r"(?:one|some|two|a\s+couple)(?=\s*(?:[,.;!?]|$)|\s+(?:by|on|in|at|round|around|out|outside|inside|near|next|"
    r"just|there|here|under|behind|beside|up|down|yes|yeah|though|too|as\s+well)(?![\w']))|"
    r"(?<![\w'])there(?:'s|\s+is|\s+are)\s+(?P<none>none)(?![\w'])",
    re.I,
)
"""The thing a question asks is there said by a pronoun ("there's one by the back door", "there isn't one")."""
_ASKS_IF_THERE = re.compile(r"(?<![\w'])(?:is|are)\s+there(?![\w'])", re.I)


def pronoun_answer(question: str, text: str) -> bool | None:
    """The yes or no of a reply saying the thing asked about by a pronoun ("I do have one", "we've already got it";
    to an "is there ...?" ``question``, "there's one by the back door", "there isn't one"); else None."""
    if (had := _HAVE_ONE.search(text)) is not None:
        return had.group("not") is None
    if _ASKS_IF_THERE.search(question) and (there := _THERE_IS_ONE.search(text)) is not None:
        return there.group("not") is None and there.group("none") is None
    return None


_AGE_BOUND = re.compile(r"(?<![\w'])(?:under|below|younger\s+than)[\s-]+(?P<under>\d{1,2})(?!\d)", re.I)
"""A yes/no question about people under an age ("Will anyone be under 18?", the slot under_18s)."""
_AGE_SAID = re.compile(
    r"(?<![\w'])(?:who'?s|who\s+is|who\s+are|they'?re|he'?s|she'?s|(?:is|are)(?:\s+(?:only|just))?|aged)\s+"
    r"(?P<age>\d{1,2})(?:\s*-?\s*years?[\s-]*old)?(?=\s*(?:[,.;!?]|and\b|$))|"
    r"(?<![\w'])(?P<old>\d{1,2})[\s-]*years?[\s-]*old(?![\w'])",
    re.I,
)
"""An age said of someone ("one apprentice who's 17", "two of them are 14", "a 15 year old")."""


def age_answer(slot: Slot, text: str) -> bool | None:
    """The answer ages said give a boolean asking about people under an age: yes when one said is under it, no when
    every one said is at least it; None when the question names no age, or no age is said."""
    bound = _AGE_BOUND.search(f"{slot.name.replace('_', ' ')} {slot.label or ''} {slot.ask or ''}")
    if bound is None:
        return None
    ages = [int(found.group("age") or found.group("old")) for found in _AGE_SAID.finditer(text)]
    if not ages:
        return None
    return min(ages) < int(bound.group("under"))
