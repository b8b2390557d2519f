"""Whether a customer has come before, said in words rather than with a yes or a no.

A business asks "Is this your first visit to us?" (or "Have you been to us before?"): customers answer with a
statement more often than a bare yes ("it's my first time with you", "I've been before", "never been", "I came in
last year"), and a "never" answers a first-visit question with a yes. :func:`first_time_answer` reads such a
statement for a boolean slot that asks either way round, from the slot's own words (its name, label, question and
description say "first" / "new patient", or "before" / "returning").
"""

from __future__ import annotations

import re
from functools import lru_cache

from ...flow import Slot, SlotType
from ...language import normalize
from ...language.acts import QUESTION_START
from ...language.clauses import clauses

__all__ = ["first_time_answer"]

_ASKS_FIRST = re.compile(
    r"^[^|]*\bfirst\b|\b(?:is|will)\s+(?:this|it)\s+(?:be\s+)?(?:your|their|his|her|the\s+[\w']+)\s+first\b"
    r"|\bnew\s+(?:patient|customer|client|member)s?\b",
    re.I,
)
"""A slot whose yes is a first time: its name or label says "first" or "new" ("first_visit"), or its question or
description asks it ("Is this your first visit?", "a new patient"); "we see it on the first lesson" and "needed for a
first visit" do not."""
_ASKS_BEFORE = re.compile(
    r"^[^|]*\b(?:before|returning|existing|visited)\b|\bhave\s+(?:you|they|he|she)\s+(?:been|visited|come|had|used|seen)"
    r"\b[^?]*\bbefore\b|\b(?:returning|existing)\s+(?:patient|customer|client|member)\b"
    r"|\balready\s+(?:registered|a\s+(?:patient|customer|client|member))\b|^[^|]*\bregistered\b",
    re.I,
)
"""A slot whose yes is an earlier visit ("Have you been to us before?", "returning customer")."""

_FIRST_SAID = re.compile(
    r"(?<![\w'])(?:(?<!not\s)(?<!n't\s)(?:my|our|his|her|their|the|a)\s+first\s+(?:time|visit|appointment|session)"
    r"(?!\s+(?:i|we|you|he|she|they|it)\b)"  # "the first time I rang": when, not whether
    r"|(?<!not\s)(?<!n't\s)first\s+time\b(?!\s+(?:i|we|you|he|she|they|it)\b)"
    r"|never\s+(?:been|had|visited|come|came|used|seen|tried)\b"
    r"|(?:have|has|had)n'?t\s+(?:been|visited|come|had|seen)\b[^.?!]*\bbefore\b"
    r"|(?:have|has|had)\s+not\s+(?:been|visited|come|had|seen)\b[^.?!]*\bbefore\b"
    r"|(?:i've|we've|he's|she's|they've)\s+not\s+(?:been|visited|come|had|seen)\b[^.?!]*\bbefore\b"
    r"|(?:i'm|i\s+am|we're|he's|she's|they're)\s+not\s+(?:a\s+)?(?:patient|customer|client|member|registered)"
    r"|\bnew\s+(?:patient|customer|client|member)\b)",
    re.I,
)
"""A first time said ("it's my first time with you", "yes first time", "never been", "haven't been before")."""
_BEFORE_SAID = re.compile(
    r"(?<![\w'])(?:(?:i|we|he|she|they)(?:'ve|'s|\s+have|\s+has)\s+(?:been|come|visited|had|seen)\b[^.?!]*?"
    r"\b(?:before|times|last\s+(?:year|month|week|time|summer|spring|autumn|winter)|ago|already)\b"
    r"|(?:i|we|he|she|they)\s+(?:came|was|were|saw)\b[^.?!]*?\b(?:before|last\s+(?:year|month|week|time|summer|"
    r"spring|autumn|winter)|ago|in\s+the\s+(?:summer|spring|autumn|winter)|a\s+while\s+back)\b"
    r"|(?<!never\s)(?<!not\s)(?<!n't\s)(?:been|come)\s+(?:here\s+|in\s+|to\s+you\s+)?before\b"
    r"|not\s+(?:my|our|his|her|their|the)\s+first\b"
    # "been loads of times", "I've been a couple of times", "came twice last year"
    r"|(?<!never\s)(?:been|come|came|visited)\s+(?:here\s+|to\s+you\s+)?(?:loads|lots|many|several|a\s+few|a\s+couple|a\s+number|"
    r"twice|once\s+or\s+twice|a\s+handful)(?:\s+of)?(?:\s+times)?\b"
    r"|(?:returning|existing|regular)\s+(?:patient|customer|client|member)\b"
    # "I'm already a patient", "I'm a patient of yours", "been going there for ages", "I was in in June"
    r"|(?:i'm|i\s+am|we're|he's|she's)\s+(?:already\s+)?(?:a\s+)?(?:patient|customer|client|member)s?"
    r"(?:\s+(?:of\s+yours|here|with\s+you|already))?\b(?!\s+(?:yet|anywhere))"
    r"|already\s+(?:a\s+)?(?:patient|customer|client|member|registered)\b"
    r"|(?:been|have\s+been|i've\s+been)\s+(?:going|coming)\s+(?:there\s+|here\s+|to\s+you\s+)?"
    r"(?:for\s+)?(?:years|ages|a\s+while|a\s+long\s+time|since)\b"
    r"|(?:i|we|he|she)\s+(?:was|were)\s+in\s+(?:in|last|back\s+in|a)\b)",
    re.I,
)
"""An earlier visit said ("I've been before", "I came in last year for my shoulder", "not my first time", "been loads of
times")."""


@lru_cache(maxsize=1024)
def _asks(name: str, label: str, ask: str, description: str) -> str | None:
    """What a boolean slot asks of these (``"first"``: a first time; ``"before"``: an earlier visit), or None; read
    once per slot, not per message."""
    said = f"{name.replace('_', ' ')} {label} | {ask} {description}"
    if _ASKS_FIRST.search(said) is not None:
        return "first"
    return "before" if _ASKS_BEFORE.search(said) is not None else None


def first_time_answer(slot: Slot, text: str) -> bool | None:
    """The value a statement of a first time or of an earlier visit gives the boolean ``slot`` that asks about one
    (True for "it's my first time" when the slot asks "first visit?", False when it asks "been before?"), or None:
    when the slot asks neither, the message says neither, or it says both."""
    asks = (
        _asks(slot.name, slot.label or "", slot.ask or "", slot.description or "")
        if slot.type is SlotType.boolean
        else None
    )
    if asks is None:
        return None
    # "how much is a first appointment?" asks, and says nothing of this visit: only the clauses that ask nothing
    text = " ".join(
        clause for clause in clauses(text.replace("\u2019", "'")) if not QUESTION_START.match(normalize(clause))
    )
    first, before = _FIRST_SAID.search(text) is not None, _BEFORE_SAID.search(text) is not None
    if first == before:
        return None
    return first if asks == "first" else before
