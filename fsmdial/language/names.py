"""People's names in English replies: where a name is said, and whether words can be one.

:func:`find_name` reads a name after the words that introduce one ("my name is",
"the name should be", "under the name", "it's under", "I'm", "this is"), in
any case, and, when the name was just asked for, from the reply's first clause
("Priya, I'd like to make a reservation" -> "Priya"). A stretch of words is a
name only when none of them is a word of a sentence (a pronoun, a verb of the
usual kind, a preposition, a number, a day, a greeting ...): "he's bleeding
badly" and "vegan options?" are no names.
"""

from __future__ import annotations

import re
from functools import lru_cache

from .numbers import WORD_NUMBERS

STRONG_CUES = re.compile(
    r"(?<![\w'])(?:(?:my|the|our|your)\s+(?:full\s+|last\s+|first\s+|sur)?name(?:'s|\s+"
    r"(?:is|'s|was|should be|will be|"
    r"would be|must be|has to be|needs to be))|(?<!\w\s)(?:full\s+)?name(?:'s|\s+is|\s+should be|:)|"
    r"under the name(?: of)?|(?:change|switch|update|correct|set|put)\s+(?:the\s+)?name\s+to|"
    r"in the name of|(?:book|put|make|have|reserve)\s+(?:it|that|this|the (?:table|booking|reservation))\s+under|"
    r"(?:it's|it is|its|that's|that is|it should be|should be|booking's|booking is)\s+under|under)\s+",
    re.I,
)
"""Words that introduce a name wherever they stand ("yes, but the name should be Bob Smith", "under Dana Lee"); "his
name", "her name" name someone else (a pet, a relative).
A bare "name is" counts only where no word qualifies it: "my mother's maiden name is Cooper" names someone else."""
WEAK_CUES = re.compile(
    r"^(?:(?:i'm|i am|im|this is|call me|it's|it is|its|that's|that is|it's for|it is for|for|name|"
    r"(?:the )?(?:booking|reservation|table|order)(?:'s| is| should be)(?: for)?)\s+)+",
    re.I,
)
"""Words that introduce a name at the start of a reply to a question asking for one ("I'm Jane")."""

_NOT_NAME = frozenset(
    """i i'm i'd i'll i've me my mine he he's him his she she's her hers they they're them their we we're us our
    you you're your yours it it's its this that these those there here the a an some any no not none every each
    is are was were am be been being have has had do does did can could would should shall must might
    to of for in on at with about from by under over into as than then and or but so because if when while
    yes yeah yep ok okay sure thanks thank please hi hello hey sorry bye goodbye well um uh hmm oh
    want wants need needs like likes would know think guess believe maybe just also too very really actually
    book booked booking bookings table tables reservation reserve name names people person persons guests
    what when where why how who which whom whose again still already now today tomorrow tonight yesterday
    morning afternoon evening night noon midnight pm am o'clock week weekend day days month year
    monday tuesday wednesday thursday friday saturday sunday january february march july august september
    october november december jan feb mar apr jun jul aug sep sept oct nov dec
    let let's check wait help get got go going make made take took call called change changed cancel
    please sounds good great fine perfect correct right wrong""".split()
) | frozenset(w for key in WORD_NUMBERS for w in key.split())
_NOUNS = frozenset(
    """book table tables reservation options option menu vegan vegetarian food price dog cat pet bleeding hurt sick
    emergency morning evening night week day""".split()
)
"""Nouns that are also surnames ("Hannah Price", "Tom Book"): no name on their own or first, but a capitalised
one after a first name is part of it."""
"""Words no person's name is made of, as written in a sentence (names that are also such words, "May", "Will",
"April", are left out: a reply that is only "Will" is a name)."""

_WORD = re.compile(r"[^\W\d_][\w'\-]*\.?", re.U)
_ABBREVIATIONS = frozenset({"mr.", "mrs.", "ms.", "dr.", "st.", "jr.", "sr.", "prof."})
_CLAUSE_END = re.compile(r"[,;:!?()\"]|\.(?=\s|$)|\s(?:and|but|for|at|on|please|thanks|thank you)\b", re.I)
MAX_NAME_WORDS = 4
NAME_TAILS = frozenset({"here", "speaking", "calling", "again"})
"""Words after a name that say who speaks, not part of the name ("Lucy Gray here")."""


def is_name_word(word: str) -> bool:
    """Can ``word`` (as written) be one word of a person's name? The name-shape check of :func:`find_name`, and
    of the words a model may copy into a name slot (:mod:`fsmdial.understand.constraint.grounding`)."""
    word = word.replace("\u2019", "'")
    if not _WORD.fullmatch(word):
        return False
    low = word.lower().rstrip(".")
    if low + "." in _ABBREVIATIONS:
        return True
    if low in _NOT_NAME or low in _NOUNS:
        return False
    # A lower-case adverb or -ing form is a word of a sentence ("badly", "looking"); written capitalised it may be
    # a name ("Fleming").
    return not (word[0].islower() and len(low) > 4 and low.endswith(("ly", "ing")))


def _words_at(text: str) -> list[str] | None:
    """The name at the very start of ``text``: its words up to the end of the first clause, or None."""
    clause = text
    while True:
        end = _CLAUSE_END.search(clause)
        if end is None:
            break
        if clause[end.start()] == "." and clause[: end.start() + 1].split()[-1].lower() in _ABBREVIATIONS:
            clause = clause[: end.start()] + "\0" + clause[end.start() + 1 :]  # keep "Dr." whole
            continue
        clause = clause[: end.start()]
        break
    clause = clause.replace("\0", ".").strip()
    words = clause.split()
    while len(words) > 1 and words[-1].lower() in NAME_TAILS:  # "Lucy Gray here", "Maya Patel speaking"
        words = words[:-1]
    return words if is_name(words) else None


def name_at(text: str) -> str | None:
    """The name the words at the very start of ``text`` make ("Buddy" in "Buddy, he was a beagle"), or None."""
    words = _words_at(text.replace("\u2019", "'").strip())
    return " ".join(words).rstrip(".") if words else None


def is_name(words: list[str]) -> bool:
    """Can these words, as written, be a person's name (a few words, each of a name's shape)?"""
    return (
        0 < len(words) <= MAX_NAME_WORDS
        and is_name_word(words[0])
        and all(is_name_word(word) or _capitalised_noun(word) for word in words[1:])
    )


def _capitalised_noun(word: str) -> bool:
    return word[:1].isupper() and word.lower() in _NOUNS


@lru_cache(maxsize=2048)
def find_name(text: str, asked: bool, introductions: bool = True, correcting: bool = False) -> str | None:
    """The person's name said in ``text`` (see the module docstring); ``asked``: the name was just asked for;
    ``introductions``: a self-introduction counts ("I'm Ahmed"; not while another name, a pet's, is asked);
    ``correcting``: a confirmation is pending, so "actually make it Bob Smith" names the name (capitalised)."""
    text = text.replace("\u2019", "'").strip()
    position = 0
    while (cue := STRONG_CUES.search(text, position)) is not None:  # overlapping cues: "book it under the name X"
        words = _words_at(text[cue.end() :])
        if words:
            return " ".join(words).rstrip(".")
        position = cue.start() + 1
    for found in _CORRECTING_NAME.finditer(text) if correcting else ():
        words = _words_at(text[found.end() :])
        if words and all(word[0].isupper() for word in words):
            return " ".join(words).rstrip(".")
    for found in _FOR_NAME.finditer(text):
        # "2 medium margherita tomorrow at 6pm for Ben": "for" and capitalised name words that end the message.
        words = _words_at(text[found.end() :])
        rest = text[found.end() :].strip().rstrip(".!")
        if words and " ".join(words) == rest and all(word[0].isupper() for word in words):
            return rest
    for clause in _CLAUSE_START.finditer(text) if introductions else ():
        # A self-introduction at the start of any sentence or clause ("ok, I want to change my ride. I'm Ahmed");
        # written capitalised when the name was not asked for ("Hi, it's Julia, I want to order a pizza"); "it's"
        # only at the start of the message.
        start = SELF_INTRODUCTION.match(text, clause.end())
        if start is not None and (clause.end() == 0 or start.group().lower()[:2] != "it"):
            words = _words_at(text[start.end() :])
            if words and (asked or all(word[0].isupper() for word in words)):
                return " ".join(words).rstrip(".")
    if not asked:
        return None
    start = WEAK_CUES.match(text)
    words = _words_at(text[start.end() :] if start else text)
    return " ".join(words).rstrip(".") if words else None


SELF_INTRODUCTION = re.compile(r"(?:i'm|i am|im|this is|it's|it is|my name's)\s+", re.I)
_CORRECTING_NAME = re.compile(
    r"(?<![\w'])(?:make it|make that|change it to|not \w+ but|name\b[^.?!]{0,20}?\b(?:it's|it is|should be))"
    r"\s+(?=[A-Z])",
    re.I,
)
_FOR_NAME = re.compile(r"(?<![\w'])for\s+(?=[A-Z])")
_CLAUSE_START = re.compile(r"^|[.!?,;]\s+|\s+and\s+")
