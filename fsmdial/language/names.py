"""People's names in English replies: where a name is said, and whether words can be one.

:func:`find_name` reads a name after the words that introduce one ("my name is",
"the name should be", "under the name", "it's under", "I'm", "this is"), in
any case, and, when the name was just asked for, from the reply's first clause
("Priya, I'd like to make a reservation" -> "Priya"), after clauses that say
nothing but an acknowledgement or whose name it is ("Okay good. Sophie
Lindqvist", "put it under her name, Margaret Cole", "it's for my dad, Tom
Reilly"). A name said again more fully right after is the one taken ("it's Mr
Patel, Vikram Patel" -> "Vikram Patel"). A stretch of words is a name only when
none of them is a word of a sentence (a pronoun, a verb of the usual kind, a
preposition, a number, a day, a greeting, a word people call each other, "mate",
"love" ...) and its last word is no street word ("Elm Street"): "he's bleeding
badly" and "vegan options?" are no names.
"""

from __future__ import annotations

import re
from functools import lru_cache

from .numbers import WORD_NUMBERS
from .said_ing_words import SAID_ING_WORDS
from .text import TERMS_OF_ADDRESS

STRONG_CUES = re.compile(
    r"(?<![\w'])(?:(?:my|the|our|your)\s+(?:full\s+|last\s+|first\s+|sur)?name(?:'s|\s+"
    r"(?:is|'s|was|should be|will be|"
    r"would be|must be|has to be|needs to be))|(?<!\w\s)(?:full\s+)?name(?:'s|\s+is|\s+should be|:)|"
    r"under the name(?: of)?|"
    r"(?:change|switch|update|correct|set|put|have)\s+(?:the\s+|my\s+)?name\s+(?:to|as|down\s+as)|"
    r"in the name of|(?:book|put|make|have|reserve)\s+(?:it|that|this|the (?:table|booking|reservation))\s+under|"
    r"(?:it's|it is|its|that's|that is|it should be|should be|booking's|booking is)\s+under|under|"
    # a form filled in words: "... at 09:00. Name Richard Hale, 07700 900 571"
    r"(?:(?<=[.,;]\s)|^)(?-i:[Nn]ame)(?=\s+(?-i:[A-Z])))\s+",
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
    october november december feb mar apr jun jul aug sep sept oct nov dec
    let let's check wait help get got go going make made take took call called change changed cancel
    please sounds good great fine perfect correct right wrong anyway anyways anyhow though""".split()
) | frozenset(w for key in WORD_NUMBERS for w in key.split())
_NOUNS = frozenset(
    """book table tables reservation options option menu vegan vegetarian food price dog cat pet bleeding hurt sick
    emergency morning evening night week day""".split()
)
"""Nouns that are also surnames ("Hannah Price", "Tom Book"): no name on their own or first, but a capitalised
one after a first name is part of it."""
"""Words no person's name is made of, as written in a sentence (names that are also such words, "May", "Will",
"April", "Jan", are left out: a reply that is only "Will" is a name)."""
_PLACE_ENDS = frozenset(
    """street st road rd avenue ave drive crescent terrace tce boulevard gardens gdns parade mews wharf council ltd
    limited plc hotel school college university hospital surgery centre center housing estates lettings agency office
    services company""".split()
)
"""Last words of a street's or an organisation's name and of no person's ("Elm Street", "Fulwood Road", "Sheffield
Council")."""

_WORD = re.compile(r"[^\W\d_](?:[^\W\d_]|['\-])*\.?", re.U)  # no digit: "joanpickering48" is an email's
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
    if low in _NOT_NAME or low in _NOUNS or low in TERMS_OF_ADDRESS:
        return False
    # A lower-case adverb or -ing form is a word of a sentence ("badly", "looking"); written capitalised it may be
    # a name ("Fleming"), and common names end in "ly" too ("shaz kelly", "emily").
    return low in _LY_NAMES or not (word[0].islower() and len(low) > 4 and low.endswith(("ly", "ing")))


_LY_NAMES = frozenset(
    """kelly kelley emily holly molly polly sally shelly shelley beverly ashley lily lilly billy wesley bradley
    stanley hayley haley lesley riley finley dudley shirley kimberly kimberley ally nelly dolly carly charley marley
    oakley presley hadley kingsley tilly milly bailey farley hartley lily-may""".split()
)
"""Given names and surnames ending in "ly", which the adverb rule above would read as a sentence's words."""


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


def _leading_name(text: str) -> list[str] | None:
    """After words that introduce a name, the capitalised name words it starts with, when the clause runs on
    unpunctuated ("my name is Mark I would like to stay ..."): up to the first word no name is made of."""
    words: list[str] = []
    for word in text.split()[:MAX_NAME_WORDS]:
        if not (word[:1].isupper() and is_name_word(word)):  # "I" and the words of a sentence are none
            break
        words.append(word)
    return words if words and is_name(words) else None


def name_at(text: str) -> str | None:
    """The name the words at the very start of ``text`` make ("Buddy" in "Buddy, he was a beagle"), or None."""
    words = _words_at(text.replace("\u2019", "'").strip())
    return " ".join(words).rstrip(".") if words else None


def is_name(words: list[str]) -> bool:
    """Can these words, as written, be a person's name (a few words, each of a name's shape)?"""
    return (
        0 < len(words) <= MAX_NAME_WORDS
        and is_name_word(words[0])
        and all(is_name_word(word) or _capitalised_noun(word) or _surname_ing(word) for word in words[1:-1])
        and (len(words) == 1 or is_name_word(words[-1]) or _surname_noun(words[-1]) or _surname_ing(words[-1]))
        and words[-1].lower().rstrip(".") not in _PLACE_ENDS
    )


def _surname_ing(word: str) -> bool:
    """A lower-case word after a name's first one that ends in "-ing" and is no "-ing" word customers say ("joan
    pickering"; not "joan calling"): :data:`~fsmdial.language.said_ing_words.SAID_ING_WORDS`."""
    return word.isalpha() and word.islower() and word.endswith("ing") and word not in SAID_ING_WORDS


def _surname_noun(word: str) -> bool:
    """A noun that is also a surname, last after a name's first word, in any case ("gareth price", "Tom Book")."""
    return word.lower() in _NOUNS or _capitalised_noun(word)


def _capitalised_noun(word: str) -> bool:
    return word[:1].isupper() and (word.lower() in _NOUNS or word.lower() in TERMS_OF_ADDRESS)


_SPOKEN_EMAIL = re.compile(r"\b(?:dot|underscore)\b.*\bat\b.*\bdot\b|\bat\s+\w+\s+dot\s+(?:com|co|org|net)\b", re.I)
"""An email address said word by word ("jo dot smith at gmail dot com"): no name said in reply to the name question
(one typed beside a name is read apart: "Vicky Hunt, vicky.hunt@gmail.com")."""
_WHOSE_NAME = re.compile(r"(?:my|his|her|our|their)\s+name\s*(?:please\s*)?(?:,|-|–|:|\bis\b|'s\b)\s*", re.I)
"""Whose name a booking goes under, said between the cue and the name ("under my name please, Julie Strand")."""


@lru_cache(maxsize=2048)
def find_name(
    text: str, asked: bool, introductions: bool = True, correcting: bool = False, for_whom: bool = True
) -> str | None:
    """The person's name said in ``text`` (see the module docstring); ``asked``: the name was just asked for;
    ``introductions``: a self-introduction counts ("I'm Ahmed"; not while another name, a pet's, is asked);
    ``correcting``: a confirmation is pending, so "actually make it Bob Smith" names the name (capitalised);
    ``for_whom``: "... for Ben" at the end names the person (not while a company's name is asked: "it's for Hallam
    Architects")."""
    text = text.replace("\u2019", "'").strip()
    position = 0
    while (cue := STRONG_CUES.search(text, position)) is not None:  # overlapping cues: "book it under the name X"
        # "put it under my name, Andrew Pearce": whose name, then the name
        after = own.end() if (own := _WHOSE_NAME.match(text, cue.end())) is not None else cue.end()
        words = _words_at(text[after:]) or _leading_name(text[after:])
        if words:
            return _said_in_full(words, text[after:])
        position = cue.start() + 1
    for found in _CORRECTING_NAME.finditer(text) if correcting else ():
        words = _words_at(text[found.end() :])
        if words and all(word[0].isupper() for word in words):
            return " ".join(words).rstrip(".")
    for found in _FOR_NAME.finditer(text) if for_whom else ():
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
                return _said_in_full(words, text[start.end() :])
    if not asked or _SPOKEN_EMAIL.search(text):
        return None  # "ruth dot grant at gmail dot com" to the name question: an email said, no one's name
    if (other := _OTHERS_NAME.search(text)) is not None and (words := _words_at(text[other.end() :])):
        return _said_in_full(words, text[other.end() :])  # "his name's Oliver Grant" to "what's the patient's name?"
    if (replied := _reply_name(text)) is not None:
        return replied
    start = WEAK_CUES.match(text)
    words = _words_at(text[start.end() :] if start else text)
    return " ".join(words).rstrip(".") if words else None


def introduced_name(text: str) -> str | None:
    """A full name the speaker introduces themself with at the start of the message or of one of its sentences or
    clauses, capitalised, while no name was asked ("hi, this is Lisa Gray, I need a locksmith", "Hi, I'm Hollie
    Price, I'd like to book ..."): at least two words or a title and one ("this is Mrs Cole"), so "I'm English" or
    "I'm Polish" name no one; "it's" is left out ("it's Oxford Street", "it's Sheffield")."""
    text = text.replace("\u2019", "'").strip()
    for clause in _CLAUSE_START.finditer(text):
        start = _INTRODUCING.match(text, clause.end())
        if start is None:
            here = _IT_IS_HERE.match(text, clause.end())  # "Hi, it's Kwame Mensah here, I need ..."
            named = (here.group("name") or here.group("said")).split() if here is not None else []
            if named and is_name(named) and all(word[0].isupper() for word in named):
                return " ".join(named)
            continue
        words = _words_at(text[start.end() :])
        own = _own_words(words or [])
        if words and own and (len(own) >= 2 or len(own) < len(words)) and all(word[0].isupper() for word in words):
            return _said_in_full(words, text[start.end() :])
    return None


def _said_in_full(words: list[str], text: str) -> str:
    """The name ``words`` read at the start of ``text``, or the same person's name said again more fully in the
    clauses right after it ("Mr Patel, Vikram Patel" -> "Vikram Patel"; "Jane, Jane Smith" -> "Jane Smith")."""
    for clause in _clauses(text)[1:]:
        again = _clause_name(clause)
        if again is None:
            break
        mine = {word.lower().rstrip(".") for word in _own_words(words)}
        if len(_own_words(again)) > len(mine) and mine & {word.lower().rstrip(".") for word in again}:
            words = again
    return " ".join(words).rstrip(".")


def _reply_name(text: str) -> str | None:
    """The name a reply to the name question says after clauses that say nothing but an acknowledgement or whose
    name it is ("Okay good. Sophie Lindqvist", "put it under her name, Margaret Cole", "it's for my dad, Tom
    Reilly", "book it in my husband's name - Dev Mistry"), said again more fully if it is ("it's Mr Patel, Vikram
    Patel"); None when a clause before it says something else."""
    clauses = _clauses(text)
    for number, clause in enumerate(clauses):
        words = _clause_name(clause)
        if words is not None:
            return _said_in_full(words, ", ".join(clauses[number:]))
        if not _says_nothing(clause):
            return None
    return None


def _clauses(text: str) -> list[str]:
    """``text`` cut at commas, semicolons, colons, sentence ends and spaced dashes ("Dr." stays whole)."""
    kept = _TITLE_DOT.sub("\\1\0", text)
    return [part.replace("\0", ".").strip() for part in _CLAUSE_CUT.split(kept) if part.strip()]


def _clause_name(clause: str) -> list[str] | None:
    """The name a whole clause is, after the words that introduce one ("it's Vikram Patel", "Jane Doe please")."""
    start = WEAK_CUES.match(clause)
    rest = clause[start.end() :] if start else clause
    words = _words_at(rest)
    if not words:
        return None
    after = rest.split()[len(words) :]
    return words if all(_word_key(word) in _SAYS_NOTHING or _word_key(word) in NAME_TAILS for word in after) else None


def _says_nothing(clause: str) -> bool:
    """Does the clause say nothing but an acknowledgement, a courtesy or whose name it is ("Okay good", "put it under
    her name", "it's for my dad", "book it in my husband's name")?"""
    words = _CLAUSE_WORD.findall(clause.replace("\u2019", "'"))
    return bool(words) and all(_word_key(word) in _LEAD_IN_WORDS for word in words)


def _word_key(word: str) -> str:
    low = word.lower().strip(".!?,;:'\"")
    return low[:-2] if low.endswith("'s") and low[:-2] in _RELATIVES else low


def _own_words(words: list[str]) -> list[str]:
    """The words of a name without its title ("Mr Patel" -> ["Patel"])."""
    return [word for word in words if word.lower().rstrip(".") not in TITLES]


SELF_INTRODUCTION = re.compile(r"(?:i'm|i am|im|this is|it's|it is|my name's)\s+", re.I)
_CORRECTING_NAME = re.compile(
    r"(?<![\w'])(?:make it|make that|change it to|not \w+ but|name\b[^.?!]{0,20}?\b(?:it's|it is|should be))"
    r"\s+(?=[A-Z])",
    re.I,
)
_FOR_NAME = re.compile(r"(?<![\w'])for\s+(?=[A-Z])")
_INTRODUCING = re.compile(r"(?:i'm|i am|this is|my name's)\s+", re.I)
_IT_IS_HERE = re.compile(
    r"(?:(?:it's|it is)\s+)?(?P<name>[A-Z][\w'\-]+(?:\s+[A-Z][\w'\-]+){1,2})\s+here\b(?=\s*(?:[,.;:!?\-]|$))"
    # "..., tomorrow at 11? It's Ruth Caddick, 07700 900 204": a sentence of its own, a full name and the caller's
    # number or email after it ("It's Long Ashton, near Bristol" is a place)
    r"|(?<=[.!?]\s)(?:It's|It is|it's)\s+(?P<said>[A-Z][a-z'\-]+(?:\s+[A-Z][\w'\-]+){1,2})"
    r"(?=\s*,\s*(?:\+?\d|[\w.\-]+@))"
)
""""it's Kwame Mensah here", "Jenny Walsh here," (a clause of its own): the speaker's full name."""
"""A caller's introduction on the phone: "it's Kwame Mensah here" (a full name, capitalised)."""
_OTHERS_NAME = re.compile(r"(?<![\w'])(?:his|her|their)\s+(?:full\s+)?name(?:'s|\s+is)\s+", re.I)
"""Another person's name introduced ("his name's Oliver Grant"): the name asked, when it is asked (a patient's, a
child's); otherwise someone else's (a pet, a relative)."""
TITLES = frozenset("mr mrs ms miss mx dr prof sir dame lady lord".split())
"""Words before a name that are no part of it ("Mr", "Dr"), lower case."""
_TITLE_DOT = re.compile(r"\b(mr|mrs|ms|mx|dr|st|jr|sr|prof)\.", re.I)
_CLAUSE_CUT = re.compile(r"[,;:!?\u2026]+|\.+(?=\s|$)|\s[-\u2013\u2014]+\s")
_CLAUSE_WORD = re.compile(r"[^\W_][\w'\-]*")
_RELATIVES = frozenset(
    """mum mom mam mother dad father husband wife partner son daughter brother sister gran granny grandma grandmother
    grandad granddad grandpa grandfather nan nana aunt auntie uncle niece nephew cousin friend flatmate housemate
    neighbour neighbor boyfriend girlfriend fiance fiancee fiancé fiancée boss colleague landlord landlady tenant
    kid kids child children family mother-in-law father-in-law other half""".split()
)
"""Whose name a booking may be in ("put it under my wife's name", "it's for my dad")."""
_FOR_A_RELATIVE = re.compile(r"(?<![\w'])(?:my|our)\s+(?:\w+\s+)?(?P<who>[a-z]+)(?![\w'])", re.I)


def names_a_relative(text: str) -> bool:
    """Does ``text`` say the booking is about a relative ("my son", "our eldest daughter")?"""
    return any(found.group("who").casefold() in _RELATIVES for found in _FOR_A_RELATIVE.finditer(text))


_SAYS_NOTHING = frozenset(
    """okay ok okey good great lovely cheers perfect brilliant fab fabulous fantastic cool alright right fine sure yes
    yeah yep yup aye no nope thanks thank ta you so well then um umm er erm uh oh ah hmm sorry please that's thats
    sounds super excellent wonderful nice awesome gotcha understood noted smashing""".split()
)
"""Acknowledgements and courtesies around a name ("Okay good. Sophie Lindqvist", "Jane Doe please")."""
_LEAD_IN_WORDS = (
    _NOT_NAME | _SAYS_NOTHING | _RELATIVES | TERMS_OF_ADDRESS | frozenset("put own behalf instead can".split())
)
"""The words of a clause that says nothing but an acknowledgement or whose name it is."""
_CLAUSE_START = re.compile(r"^|[.!?,;]\s+|\s+and\s+")
