"""Yes and no in English: the words that answer a yes/no question.

Three readings, from loose to strict:

* :func:`parse_yes_no`: an utterance that *starts* with a yes or a no word
  ("yes, at 7pm", "no, make it 4") or with a short answer ("she doesn't, no");
* :data:`CERTAIN_ANSWERS`: whole utterances that are nothing but an answer
  ("yes please", "no thanks"): safe to settle without a model;
* :data:`POSITIVE_WORDS` / :data:`NEGATIVE_WORDS`: words that give a
  labelled choice its polarity ("CustomerAgrees", "UserDeclines").
"""

from __future__ import annotations

import re
from typing import Literal

YES_PATTERN = re.compile(
    r"^\s*(yes+|yeah+|yep|yup|yh|ya|yea|ye|yeh|aye|sure|correct|right|exactly|affirmative|ok|okay|absolutely|definitely|"
    r"of course|that'?s (right|correct|it)|sounds good|please do|go ahead|go on(?=\s+then\b|\s*[,.!]|\s*$)|do it|"
    r"perfect|great|fine|i (?:think|believe|reckon) so|sound(?=\s*[,.!]|\s*$)|y(?=\W*$))\b",
    re.I,
)
"""An utterance that starts with a yes."""
NO_PATTERN = re.compile(
    # "no idea", "no clue": a don't-know, no no
    r"^\s*(no(?!\s+(?:idea|clue|notion|way\s+of\s+knowing)\b)|nope|nah|not really|negative|wrong|incorrect|"
    r"that'?s (wrong|not right)|don'?t|never|none|"
    # "definitely not", "absolutely not", "of course not", "not at all", "I guess not": a yes word with "not" is a no
    r"(?:definitely|absolutely|certainly|of course|surely|probably|i (?:guess|think|suppose|hope)|hopefully|rather|"
    r"i'?d rather|i would rather|i'?d prefer|i would prefer)"
    r"\s+not|not (?:at all|likely|a chance|really|for me|this time|today)|"
    r"i\s+(?:don'?t|do\s+not)\s+(?:think|believe|reckon)\s+so|"
    r"not that i(?:\s+(?:can see|know|know of|can tell|noticed|can feel|am aware of)|'?m aware of))\b",
    re.I,
)
"""An utterance that starts with a no (tested before :data:`YES_PATTERN`)."""


SHORT_ANSWER = re.compile(
    r"^\s*(?:(?:oh|um|erm|well|ah)\W+)*(?:i|you|he|she|it|we|they|that|there)\s+"
    r"(?:do|does|did|am|is|are|was|were|have|has|had|can|could|will|would)(?P<not>n'?t|\s+not)?"
    r"\s*(?:[,.;!]|$)(?:\s*(?P<word>yes|yeah|yep|no|nope|nah)\b)?",
    re.I,
)
"""A short answer, the subject and its auxiliary as a clause of their own ("she doesn't, no", "he does, he's under
16", "it is."): the auxiliary's polarity answers a yes/no question ("it is 7pm" is no answer: no clause ends there)."""


_ACKNOWLEDGED = re.compile(r"^\s*(?:(?:ok|okay|alright|all right|right|fine|ok fine|okay fine|fair enough)\W+)+", re.I)
"""An acknowledgement of what the agent said before the answer ("ok fine, no I've not been before")."""


_NO_TROUBLE = re.compile(r"\s*no\s+(?:problem|worries|bother|rush|probs)\b", re.I)


def parse_yes_no(text: str) -> Literal["yes", "no"] | None:
    """``"yes"``, ``"no"`` or None for an utterance that starts with neither (nor with a short answer, "she
    doesn't"); after an acknowledgement ("ok fine, no ..."), the answer that follows it."""
    if NO_PATTERN.match(text):
        return "no"
    if (ack := _ACKNOWLEDGED.match(text)) is not None:
        after = text[ack.end() :]
        if NO_PATTERN.match(after) and not _NO_TROUBLE.match(after):  # "ok, no problem" is a yes
            return "no"
    if YES_PATTERN.match(text):
        return "yes"
    if (short := SHORT_ANSWER.match(text)) is not None:
        answer: Literal["yes", "no"] = "no" if short.group("not") else "yes"
        word = (short.group("word") or "").casefold()
        if word and (word in ("no", "nope", "nah")) != (answer == "no"):
            return None  # "she does, no": the two disagree
        return answer
    return None


_CONCLUDED = re.compile(
    r"(?<![\w'])(?<!think\s)(?:so|then|so\s+then|which\s+means|meaning)\s*,?\s+(?P<answer>yes|yeah|yep|no|nope)\W*$",
    re.I,
)
"""A message that ends by concluding its answer ("my daughter's hamster is here this week, so yes")."""


_CONCLUDED_THEN_SAID = re.compile(
    r"(?<![\w'])(?<!think\s)(?:so|which\s+means|meaning)\s*,?\s+(?P<answer>yes|yeah|yep|no|nope)[,\s]+"
    r"(?P<rest>[^.?!]+?)[.!]*$",
    re.I,
)
"""A message concluding its answer and then saying it in full ("we share an alley with next door so yes you can get
round")."""
_NEGATED = re.compile(r"(?<![\w'])(?:not|never|no|cannot)(?![\w'])|n't(?![\w'])", re.I)


def concluded_yes_no(text: str) -> Literal["yes", "no"] | None:
    """The answer a message concludes with in its last words ("..., so yes"), or in its last clause when that says
    the answer in full ("..., so yes you can get round"; a yes whose words deny something, or a question, is not
    one), or None."""
    found = _CONCLUDED.search(text)
    if found is None:
        found = None if "?" in text else _CONCLUDED_THEN_SAID.search(text)
        if found is None or found.group("answer").casefold().startswith("y") and _NEGATED.search(found.group("rest")):
            return None
    return "yes" if found.group("answer").casefold().startswith("y") else "no"


CERTAIN_ANSWERS: dict[str, Literal["yes", "no"]] = {
    **dict.fromkeys(
        [
            "yes",
            "yes please",
            "yeah",
            "yep",
            "yup",
            "yh",
            "sure",
            "correct",
            "that's right",
            "right",
            "ok",
            "okay",
            "yes it is",
            "yes that's right",
            "yes that's correct",
            "absolutely",
            "of course",
        ],
        "yes",
    ),
    **dict.fromkeys(
        ["no", "nope", "nah", "no thanks", "no thank you", "not really", "incorrect", "that's wrong"], "no"
    ),
}
"""Normalised utterances (see :func:`~fsmdial.language.text.normalize`) that are a plain yes or no, and nothing else."""

POSITIVE_WORDS = frozenset(
    {
        "agree",
        "agrees",
        "accept",
        "accepts",
        "yes",
        "confirm",
        "confirms",
        "give",
        "gives",
        "is",
        "has",
        "want",
        "wants",
        "ok",
    }
)
"""Words of a choice's label that say the user goes along (they carry no meaning of their own)."""
NEGATIVE_WORDS = frozenset(
    {"not", "no", "decline", "declines", "refuse", "refuses", "doubt", "doubts", "reject", "rejects", "deny", "denies"}
)
"""Words of a choice's label that say the user does not go along: a "no" picks the choice that has one."""
