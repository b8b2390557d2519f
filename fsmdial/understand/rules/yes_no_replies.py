"""A reply to a yes/no question read as a yes or a no: the answer to a pending confirmation, a reply of nothing but
yes or no words, a bare yes or no that names nothing else, the thing asked about said by a pronoun ("I do have one",
"there's one by the back door"), and ages said to a question about people under an age."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from ...flow import Slot
from ...language import NEGATIVE_WORDS, POSITIVE_WORDS, parse_yes_no, read_acts
from ...language.acts import Acts

__all__ = [
    "BARE_REPLY_WORDS",
    "NONE_SAID",
    "age_answer",
    "confirmation_answer",
    "names_value",
    "only_yes_or_no",
    "plain_answer",
    "pronoun_answer",
    "tells_what",
    "told_yes",
]


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
_OFFERS = re.compile(r"(?<![\w'])(?:would|do|will)\s+you\s+(?:like|want|need)(?![\w'])", re.I)
"""A question offering something ("Would you like one of our engineers ...?", "Do you need a trailer?")."""
_WANT_ONE = re.compile(
    r"(?<![\w'])(?:i|we)(?:\s+(?P<not>don'?t|do\s+not|won'?t|will\s+not)\s+(?:really\s+)?(?:need|want)|\s+need|"
    r"\s+want|(?:\s+would|'d)\s+like)\s+(?:one|it|them|any)(?=\s*(?:[,.;!?]|please\b|thanks?\b|thank\s+you\b|$))",
    re.I,
)
"""The thing offered said by a pronoun ("we don't need one", "I'd like one", "we don't want any")."""
_ASKS_IF_THERE = re.compile(r"(?<![\w'])(?:is|are)\s+there(?![\w'])", re.I)


def pronoun_answer(question: str, text: str) -> bool | None:
    """The yes or no of a reply saying the thing asked about by a pronoun ("I do have one", "we've already got it";
    to an "is there ...?" ``question``, "there's one by the back door", "there isn't one"); else None."""
    if (had := _HAVE_ONE.search(text)) is not None:
        return had.group("not") is None
    if _OFFERS.search(question) and (wanted := _WANT_ONE.search(text)) is not None:
        return wanted.group("not") is None  # "we don't need one" to "would you like one of our engineers?"
    if _ASKS_IF_THERE.search(question) and (there := _THERE_IS_ONE.search(text)) is not None:
        return there.group("not") is None and there.group("none") is None
    return None


_AGE_BOUND = re.compile(r"(?<![\w'])(?:under|below|younger\s+than)[\s-]+(?P<under>\d{1,2})(?!\d)", re.I)
"""A yes/no question about people under an age ("Will anyone be under 18?", the slot under_18s)."""
_AGE_SAID = re.compile(
    r"(?<![\w'])(?:who'?s|who\s+is|who\s+are|they'?re|he'?s|she'?s|(?:is|are)(?:\s+(?:only|just))?|aged)\s+"
    r"(?P<age>\d{1,2})(?:\s*-?\s*years?[\s-]*old)?(?=\s*(?:[,.;!?]|and\b|$))|"
    r"(?<![\w'])(?P<old>\d{1,2})[\s-]*years?[\s-]*old(?![\w'])|"
    r"(?<![\w'])(?:kids|children|lads|boys|girls|sons|daughters|teenagers|teens|grandkids|grandchildren)\s*,?\s*"
    r"(?:aged\s+)?(?P<kin>\d{1,2})(?:\s*(?:and|&|,)\s*(?P<kin2>\d{1,2}))?(?![\w'])|"
    r"(?<![\w'])in\s+(?:our|their|his|her|my)\s+(?P<decade>teens|twenties|thirties|forties|fifties|sixties|seventies|"
    r"eighties|nineties)(?![\w'])",
    re.I,
)
"""An age said of someone ("one apprentice who's 17", "two of them are 14", "a 15 year old"), of the children beside
their word ("two of them are kids, 9 and 10"), or by decade ("we're all in our twenties")."""
_DECADES = {"teens": 13, "twenties": 20, "thirties": 30, "forties": 40, "fifties": 50, "sixties": 60}
_DECADES |= {"seventies": 70, "eighties": 80, "nineties": 90}
"""The youngest age of each decade said."""


def age_answer(slot: Slot, text: str) -> bool | None:
    """The answer ages said give a boolean asking about people under an age: yes when one said is under it, no when
    every one said is at least it; None when the question names no age, or no age is said."""
    bound = _AGE_BOUND.search(f"{slot.name.replace('_', ' ')} {slot.label or ''} {slot.ask or ''}")
    if bound is None:
        return None
    ages = [
        _DECADES[said.casefold()] if name == "decade" else int(said)
        for found in _AGE_SAID.finditer(text)
        for name, said in found.groupdict().items()
        if said is not None
    ]
    if not ages:
        return None
    return min(ages) < int(bound.group("under"))


NONE_SAID = r"(?:nothing|neither|nobody|no\s*one|none)"
"""Words saying there is none of what a yes/no asks about, alone ("nothing on at the moment", "neither of us")."""
_NONE_OF_IT = re.compile(
    r"(?<![\w'])(?:" + NONE_SAID + r"|nope|nah|all\s+(?:fine|good|ok|okay)|"
    r"(?:not|n't)\b[^.,;!?]*\b(?:any|anything|anyone|anybody|one))(?![\w'])|n't\b[^.,;!?]*\bany",
    re.I,
)
"""Words saying there is none of what a yes/no asks about ("nobody has", "we're all fine", "we don't have any")."""


_ABOUT_SAYING = re.compile(r"(?:i'?ll|i\s+will|let\s+me|i\s+can|i'?d\s+have\s+to|i\s+need\s+to)\b", re.I)


def tells_what(acts: Acts, text: str) -> bool:
    """Does a reply to a yes/no question, read as neither yes nor no, tell what the yes would be followed by ("one of
    us is alergic to peanuts", "I'm vegetarian", "one coeliac" to "does anyone have any allergies?")? A statement of
    words that name something, no question, don't-know, pause or hedge, and no word saying there is none."""
    if acts.holds_no_value or acts.stall or acts.hedge or acts.request or _NONE_OF_IT.search(text):
        return False
    if _ABOUT_SAYING.match(acts.rest.strip()):  # "yes, I'll tell you": the telling is still to come
        return False
    return any(word not in BARE_REPLY_WORDS and len(word) > 2 for word in re.findall(r"[a-z']+", acts.rest.lower()))


def told_yes(acts: Acts, text: str, answer: bool | None, read: Mapping[str, Any]) -> str | None:
    """Where a yes to a yes/no question leads to asking what ("any allergies?", then "what should the chef know?"),
    the words of a reply telling what, which make it a yes: the whole reply read as neither yes nor no ("one of us is
    alergic to peanuts") unless it gave another value (``read``), or the words after a yes ("yes, two of them are
    vegan"), or a statement read as yes ("we've got two cats"). None for a no, or a reply telling nothing."""
    if answer is False or (answer is None and read):
        return None
    told = (acts.rest if parse_yes_no(text) is not None else text).strip()
    return told if told and tells_what(acts if told == text.strip() else read_acts(told), told) else None


def names_value(said: str, value: object) -> bool:
    """Does the agent's sentence ``said`` name ``value`` (as a whole word or number)? "yes, 4 people" to a summary
    showing 4 people restates it."""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    # Not inside a date or a time ("11" in "2026-11-26" is not "11 people").
    return re.search(r"(?<![\w.\-/:])" + re.escape(str(value)) + r"(?![\w\-/:])", said, re.I) is not None
