"""English phrases of a conversation's edges: declining to answer, closing, greeting, lead-ins.

Each ``*_PATTERN`` comes with the set of words every match contains (whole,
between non-letters), so a sentence with none of them is ruled out without a
search. Keep each pair in step.
"""

from __future__ import annotations

import re

DECLINE_PATTERN = re.compile(
    r"\b(?:i\s+)?(?:don'?t|do not|dont)\s+(?:know|have|remember|recall)\b|\bno idea\b|\bnot sure\b|\bi forgot\b|"
    r"\bcan'?t (?:remember|recall|find)\b|\bcannot (?:remember|recall|find)\b|\bi (?:lost|forgot) (?:it|my)\b|"
    r"\brather not\b|\bprefer not\b|\bwon'?t (?:say|tell|give)\b|\bnot (?:going|willing) to (?:say|tell|give|share)\b",
    re.I,
)
"""The user cannot or will not give the value just asked for ("I don't know", "I'd rather not say")."""
DECLINE_WORDS = frozenset(
    {
        "know",
        "have",
        "remember",
        "recall",
        "idea",
        "sure",
        "forgot",
        "find",
        "lost",
        "rather",
        "prefer",
        "say",
        "tell",
        "give",
        "share",
    }
)

NO_ANSWER_PATTERN = re.compile(
    r"\b(don'?t know|do not know|dunno|no idea|not sure|no clue|idk|pass|skip|give up|can'?t remember|have no)\b", re.I
)
"""A reply to a quiz question that gives no answer ("no idea", "pass", "I give up")."""

DONT_KNOW_PATTERN = re.compile(r"\b(?:don'?t|do not|doesn'?t) know\b|\bno idea\b|\bunknown\b", re.I)
"""A described user reply that means "I don't know" (STAR's "User doesn't know", "Unknown")."""

GOODBYE_PATTERN = re.compile(
    r"^(?:ok(?:ay)?[,.!\s]+)?(?:(?:no,?\s+)?(?:thanks?|thank you)(?: (?:so|very) much)?[,.!\s]*)?"
    r"(?:bye|goodbye|good bye|bye bye|see you|see ya|cya|farewell|have a (?:good|nice|great) (?:day|night|one)|"
    r"that'?s all(?!\s+(?:right|good(?!\s+(?:day|night|bye|evening))|fine|correct|ok(?:ay)?))|"
    r"that is all(?!\s+(?:right|correct))|that will be all|"
    r"nothing else|i'?m done|we'?re done)\b",
    re.I,
)
"""A sentence that starts by closing the conversation ("thanks, bye", "that's all")."""
CLOSING_PATTERN = re.compile(
    r"\b(?:bye|goodbye|good bye|farewell|have a (?:good|nice|great|wonderful|lovely) (?:day|night|evening|weekend|one)|"
    r"good night|that'?s all(?!\s+(?:right|good(?!\s+(?:day|night|bye|evening))|fine|correct|ok(?:ay)?)\b)|"
    r"that is all(?!\s+(?:right|correct)\b)|"
    r"that (?:will|would) be all|that'?ll be all|"
    r"that'?s everything|that is everything|"
    r"that'?s (?:about )?it for (?:me|now|today)|nothing else|(?:i'?m|i am|we'?re|we are) (?:all )?(?:set|done))\b",
    re.I,
)
"""A closing said anywhere in the sentence ("Great, that will be all. Good bye.")."""
CLOSING_WORDS = frozenset(
    {"bye", "goodbye", "farewell", "have", "night", "all", "everything", "for", "else", "set", "done"}
)
THANKS_ONLY_PATTERN = re.compile(
    r"^(?:ok(?:ay)?[,.!\s]*)?(?:no[,.!\s]+)?(?:thanks?|thank you|thx|ty)(?: (?:so|very) much)?[.!\s]*$", re.I
)
"""A sentence that is nothing but thanks (it closes the conversation when nothing is pending)."""

GREETING_PATTERN = re.compile(r"^(?:hi|hello|hey|hiya|good (?:morning|afternoon|evening))\b[\s,.!]*", re.I)
"""A greeting in front of an answer ("hi, Jane")."""
SELF_INTRODUCTION_PATTERN = re.compile(r"^(?:i'?m|i am|this is|call me|it'?s)\s+", re.I)
"""The words in front of a name ("I'm Jane", "call me Jane")."""
LEAD_IN_PATTERN = re.compile(
    r"^(?:(?:it'?s|it is|this is|that'?s|that is|(?:it|that)(?:'?d| would|'?ll| will| should) be)\s+)", re.I
)
"""The words in front of a value ("it's 1234", "that'd be 5 Oak Road")."""

_CORRECTION = re.compile(
    r"(?<![\w'])(?:actually|i mean|i meant|sorry|no wait|wait|oops|make (?:it|that)|change (?:it|that) to|"
    r"let'?s say|or rather|scratch that|scrap that|^\W*(?:nearly|almost|not\s+quite)\s*,|"
    r"(?<=,\s)(?:so|say)(?=\s+(?:that'?s\s+|it'?s\s+)?[\w.]+(?:\s+[a-z]+)?[\s.!]*$))(?![\w'])",
    re.I,
)


def correction_end(text: str) -> int:
    """Where the last self-correction of ``text`` ends ("07700 900 47... sorry 07700 900 474", "3 or 4 hours... let's
    say 4"), or -1: of several values said, those after it are the ones meant."""
    if not any(
        word in text.casefold()
        for word in (
            "actually",
            "mean",
            "sorry",
            "wait",
            "oops",
            "make",
            "change",
            "say",
            "rather",
            "scratch",
            "scrap",
            "nearly",
            "almost",
            "quite",
        )
    ):
        return -1
    return max((found.end() for found in _CORRECTION.finditer(text)), default=-1)
