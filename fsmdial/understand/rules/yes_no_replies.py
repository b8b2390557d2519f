"""A reply to a yes/no question read as a yes or a no: the answer to a pending confirmation, a reply of nothing but
yes or no words, and a bare yes or no that names nothing else."""

from __future__ import annotations

import re

from ...language import NEGATIVE_WORDS, POSITIVE_WORDS, parse_yes_no, read_acts
from ...language.acts import Acts

__all__ = ["BARE_REPLY_WORDS", "confirmation_answer", "only_yes_or_no", "plain_answer"]


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
