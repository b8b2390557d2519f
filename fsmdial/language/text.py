"""Text helpers shared by the English parsers and the rules understander.

The cheap tests here rule a pattern out before it is searched; they never
rule out text the pattern would match. Substring tests only hold for ASCII
text: with ``re.I`` a few other letters match ASCII ones ("ſ" matches "s"),
so other text always goes through the full pattern.
"""

from __future__ import annotations

import re

_PUNCT = re.compile(r"[^\w\s']+")
DIGIT = re.compile(r"\d")
"""Any digit (most date, time and number patterns need one)."""
ASCII_WORDS = re.compile(r"[a-z]+")
"""Runs of lower-case ASCII letters: the words of lower-cased ASCII text."""
SENTENCE_BREAK = re.compile(r"(?<=[.!?])\s+(?=\S)")
"""Where one sentence ends and the next begins ("Can we make it 8 instead? It's Jane Clarke"): split on it."""
TERMS_OF_ADDRESS = frozenset("mate love luv darling dear pal sir madam ma'am maam hun hon duck chief lads guys".split())
"""Words people call each other ("cheers mate", "yes thank you love"): no name (language.names), and social after a
yes, thanks or a greeting (language.acts)."""
FUNCTION_WORDS = frozenset(
    """a an the i i'm i'd i'll i've me my mine we we're our us you your it it's its this that these those
    to of for in on at by from with about as and or but so if then than is am are was were be been being do does
    did have has had will would can could should shall may might must please hi hello hey yes no ok okay yeah
    um uh oh well just also too very really like want need make let thanks thank sure not don't bye goodbye
    actually instead change changed under over into onto before after around there here what which who how
    when where why one ones some any all none though although anyway either neither yet still again now""".split()
)
"""Function words: they name no value on their own. A text span a model copies may not start or end with one (a
value is rarely "I" or "the party"), and words are matched without them (a categorical value's own words, the two
sides of a correction, an intent's examples)."""


OPPOSITE_WORDS = frozenset({"off", "non"})
"""Words that make the next word its opposite ("off the road", "off-road", "non-smoking")."""
OPPOSITE_OF = r"(?<![\w-])(?<!one\s)(?:" + "|".join(sorted(OPPOSITE_WORDS)) + r")(?:\s+the\s+|\s*-\s*|\s+)"
""""off" or "non" before a word, which it makes its opposite ("a space off the road", "non-slip"): the word names no
value; not the "off" of "a one-off"."""
OPPOSITES = re.compile(OPPOSITE_OF + r"[\w'-]+", re.I)
"""A word made its opposite by "off" or "non", with them (:data:`OPPOSITE_OF`)."""


def fold(text: str) -> str:
    """``text`` case-folded, as the engine compares words: the one fold for what the user wrote and what the flow
    says (categorical values, condition values). ``casefold`` changes some lengths ("ß" -> "ss", "İ" -> "i" and a
    combining dot above); the dot is dropped, so "İstanbul", "ISTANBUL" and "istanbul" are one word. Text is
    searched in its folded form, never folded values in raw text (a folded value is not a case variant of it)."""
    return text.casefold().replace("i\u0307", "i")


def normalize(text: str) -> str:
    """Lower-case (:func:`fold`) words separated by single spaces, punctuation dropped (apostrophes kept)."""
    return " ".join(_PUNCT.sub(" ", fold(text)).split())  # split() and \s agree on what a space is


def may_contain(low: str, needles: tuple[str, ...]) -> bool:
    """False only when the lower-cased ASCII text ``low`` contains none of ``needles``."""
    return not low.isascii() or any(map(low.__contains__, needles))


def may_have_word(text: str, words: frozenset[str]) -> bool:
    """False only when the ASCII ``text`` has none of ``words`` (lower-case letters) as a whole word."""
    if not text.isascii():
        return True
    return not words.isdisjoint(ASCII_WORDS.findall(text.lower()))


PEOPLE_WORDS = frozenset(
    {"people", "person", "persons", "guests", "guest", "adults", "adult", "diners", "pax", "party"}
    | {"travelers", "traveler", "travellers", "traveller", "passengers", "passenger", "riders", "rider"}
    | {"players", "player", "participants", "participant", "attendees", "attendee", "visitors", "visitor"}
    | {"golfers", "golfer", "climbers", "climber", "bathers", "bather", "swimmers", "swimmer", "skaters", "skater"}
    | {"group"}
    # the people a booking is for, by who they are ("20 staff", "6 lads"); not kids, boys or women, who are most
    # often a part of the party ("yes, my two boys": no party of 2) or whose things are counted ("three kids' beds")
    | {"staff", "colleagues", "employees", "coworkers", "co-workers", "friends", "mates", "lads", "gents"}
    | {"teammates", "workers", "delegates", "members"}
    # what a booking for people books per head ("two places on your workshop", "4 spaces on the class")
    | {"places", "spaces", "seats", "spots"}
)
"""Words that count people ("4 people", "a party of 6"): a count slot named with one of them counts people."""
PARTY_PLURALS = frozenset(
    """sons daughters boys girls children kids friends mates adults people guys grandchildren grandkids parents
    teenagers teens colleagues guests babies toddlers others family folks lads ladies men women twins triplets quads
    quadruplets""".split()
)
"""Plural nouns of people a party is made of ("me and the two kids", "my two boys"): part of a head count, never
things counted."""


IRREGULAR_FORMS: dict[str, tuple[str, ...]] = {
    stem: tuple(forms.split())
    for stem, forms in {
        "swell": "swollen swelled",
        "break": "broken broke",
        "freez": "frozen froze",
        "steal": "stolen stole",
        "fall": "fallen fell",
        "tear": "torn tore",
        "wear": "worn wore",
        "bit": "bitten",
        "shak": "shaken shook",
        "los": "lost",
        "spill": "spilt",
        "bleed": "bled",
    }.items()
}
"""The forms of a word that do not start with its stem as the subject readers cut it ("swell" of "swelling": "swollen";
"freez" of "freezing": "frozen"), so that a subject named by one is named by the others."""
