"""A message cut into clauses, once, for every reading that works clause by clause.

What a clause says is read in that clause only: a "not" negates what follows it in its own clause ("my e-bike's
battery won't charge" rules out no e-bike), a polite tail ("that'd be lovely") is part of a yes only inside a clause
that says yes, a question clause gives no value. :func:`clauses` is the one split; :func:`negation_scope` is where a
negation starts in a clause.
"""

from __future__ import annotations

import re
from functools import lru_cache

_TITLES = "".join(rf"(?<!\b{title}\.)" for title in ("Dr", "Mr", "Mrs", "Ms", "Mx", "St", "Prof", "Capt", "Sgt"))
# A period inside a word ("8.30pm", "zara.ahmed1@gmail.com", "www.example.com") or after a title ("Dr. Morgan") ends
# no clause: split there, "the email's wrong, it should be zara.ahmed1@gmail.com" lost the address it corrects.
CLAUSE_BREAK = re.compile(
    r"(?:[,;!?]|\.(?!\w)" + _TITLES + r")+\s*|\s+(?=(?:but|though|although|however|except|instead|rather|whereas)\b)"
    r"|\s+(?=and\s+(?:it|it's|its|there|there's|i|i'm|i've|i'd|i'll|we|we're|we've|we'd|we'll|they|they're|they'd|"
    r"he|he's|she|she's)(?![\w'])"
    r"|and\s+(?:(?:half|all|some|one|most)\s+(?:of\s+)?)?(?:the|my|our|his|her|their)\s+[\w'-]+(?:\s+[\w'-]+)?\s+"
    r"(?:is|are|was|were|has|have|had|does|do|did|doesn't|don't|didn't|won't|can't|isn't|aren't|wasn't|keeps|keep|"
    r"will|just|also|now|still)(?![\w']))",
    re.I,
)
"""Where one clause ends and the next begins: punctuation, a contrasting conjunction, or "and" before a subject of its
own ("it won't spin and it's making a banging noise": the "won't" negates no noise; "the screen has lines on it and
half the touchscreen doesn't work": no screen is ruled out)."""
NEGATION = re.compile(r"(?<![\w'])(?:not|never|no longer)(?![\w'])|n't(?![\w'])", re.I)
"""A word that negates what follows it in its clause."""

TAG_QUESTION = re.compile(
    r"(?<![\w'])(?:is|isn't|are|aren't|was|wasn't|were|weren't|do|don't|does|doesn't|did|didn't|will|won't|would|"
    r"wouldn't|can|can't|could|couldn't|have|haven't|has|hasn't|shall|shan't)\s+(?:it|you|they|we|he|she|there|i|"
    r"that)\W*$",
    re.I,
)
"""A question tag closing a clause ("terrible weather today, isn't it"): the clause asks, and its "n't" negates
nothing said. Only as :func:`question_tag` reads it: after a subject or an auxiliary the same words are the clause's
own verb and object ("I don't have it", "we can do it")."""

_NOT_BEFORE_A_TAG = frozenset(
    "i you we they he she it to do don't does doesn't did didn't can can't could couldn't will won't would wouldn't "
    "shall should shouldn't must may might have has had not never 'll".split()
)


def question_tag(clause: str) -> re.Match[str] | None:
    """The question tag closing ``clause`` ("..., isn't it"), or None ("I don't have it" ends in no tag)."""
    tag = TAG_QUESTION.search(clause)
    if tag is None:
        return None
    before = re.findall(r"[\w']+", clause[: tag.start()].casefold())
    return None if before and before[-1] in _NOT_BEFORE_A_TAG else tag


_NEGATED_WORD = re.compile(r"[\w']*(?:n't|not|never|no longer)(?![\w'])", re.I)
_SUITS = re.compile(
    r"^[\w']*\s*(?:really\s+|quite\s+)?(?:work|works|suit|suits|do|good|ok|okay|fine|possible|available|free|"
    r"convenient|right|correct|manage|make it|going to work|be possible|be available)(?![\w'])",
    re.I,
)
"""A negated predicate of fit ("Friday doesn't work", "7pm isn't possible"): it rules out its subject too."""
_NOT_THE_ONE = re.compile(
    r"(?<![\w'])(?:(?:is|was|are|were)\s*n't|(?:is|was|are|were|'s)\s+not)\s+(?:really\s+)?"
    r"(?:my|our|your|his|her|their|the)(?![\w'])",
    re.I,
)
"""A negated identity ("Dr. Morgan wasn't my doctor", "Friday is not the day"): it rules out its subject too."""
_FUNCTION_WORDS = frozenset(
    "i we you it that this he she they just so and then well but also please sorry oh um uh yes no ok okay sure "
    "can could would will should do does did is are was were am be have has had me my our".split()
)
"""Words that name nothing: a clause's words before its negation made only of these are no subject of their own."""


@lru_cache(maxsize=2048)
def clauses(text: str) -> tuple[str, ...]:
    """The clauses of ``text``, as written (typographic apostrophes made plain), empty ones left out."""
    return tuple(c for c in CLAUSE_BREAK.split(text.replace("\u2019", "'")) if c and c.strip())


def negation_scope(clause: str) -> int | None:
    """Where the negated part of ``clause`` starts (None: it negates nothing). A negation negates what follows it
    ("I can't do Friday", "just not at 7pm"); the words before it stay said ("my e-bike's battery | won't charge"),
    unless they are only function words ("I | can't do Friday" negates the clause) or the negation says the thing
    before it does not fit ("Friday doesn't work": the whole clause) or is not the one meant ("Dr. Morgan wasn't my
    doctor": the whole clause)."""
    tag = question_tag(clause)
    asked = clause[: tag.start()] if tag is not None else clause
    found = next((word for word in _NEGATED_WORD.finditer(asked) if NEGATION.search(word.group())), None)
    if found is None:  # "cannot" and "knot" are no "not" of their own
        return None
    before = re.findall(r"[\w']+", clause[: found.start()].casefold())
    if all(word in _FUNCTION_WORDS for word in before) or _SUITS.match(clause[found.end() :].strip()):
        return 0
    identity = _NOT_THE_ONE.search(clause)
    if identity is not None and identity.start() <= found.start() < identity.end():
        return 0
    return found.start()
