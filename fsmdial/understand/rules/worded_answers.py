"""Answers said in words instead of their value, read for the slot they answer (head counts said in words are
:mod:`.head_counts`'):

* an asked yes/no question answered by a statement about its subject ("there's parking on the drive", "there's no
  parking, it's a city centre flat"): the polarity of the clause naming the subject;
* no preference for a categorical slot that has an "any" value ("whoever's free", "any", "don't mind").

Each reads only when the slot is asked (or named by its own words): the same words answer nothing else.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from functools import lru_cache
from typing import Any

from ...flow import Slot, SlotType
from ...language import concluded_yes_no, normalize, parse_yes_no
from ...language.clauses import NEGATION, clauses, negation_scope
from ...language.text import FUNCTION_WORDS, IRREGULAR_FORMS, OPPOSITE_WORDS
from ..base import UnderstandingState
from .categories import stem, value_forms
from .first_time import first_time_answer
from .measured_answers import measured_answer
from .yes_no_replies import NONE_SAID, age_answer, pronoun_answer

__all__ = [
    "asked_boolean",
    "boolean_reply",
    "both_sides_named",
    "details_told",
    "no_preference",
    "stated_answer",
    "two_sided",
]

_STOP = frozenset({"the", "and", "for", "with", "whether", "number", "name", "value", "what", "which"})
_BOUGHT = r"(?:we|i)(?:'ve|\s+have)?\s+(?:just\s+|already\s+)?(?:bought|ordered|purchased)"
"""Having got the thing said by buying it ("I've bought", "we ordered"): :data:`_AFFIRMS`, :data:`_POSSESSED`."""
_AFFIRMS = re.compile(
    r"(?<![\w'])(?:yes|yeah|yep|there'?s|there\s+is|there\s+are|(?:we|i)'?ve\s+(?:just\s+|now\s+|already\s+)?got|"
    r"(?:we|i)\s+(?:just\s+|now\s+|already\s+)?have|"
    rf"{_BOUGHT}|"
    r"(?:has|have)\s+got|has|have|had|can|plenty|space|room|loads|fine|ok|okay|free|available|usually|always|"
    r"take|want|add|include|"
    # "I am claiming on insurance", "we'll be using the car park": doing it, said of oneself
    r"(?:i'?m|i\s+am|we'?re|we\s+are|(?:i|we)(?:'ll|\s+will)\s+be)\s+"
    r"(?!(?:wondering|thinking|asking|checking|hoping|trying|calling|ringing|not)\b)[a-z]+ing)"
    r"(?![\w'])",
    re.I,
)
"""Words that make a statement about a thing say it is there or can be done ("there's parking", "you can park")."""
_WITH = re.compile(r"(?<![\w'])with(?:\s+(?:the|a|an|our|your|some))?(?:\s+[a-z'-]+)?\s*$")
"""A thing asked for with "with" right before its name ("with the pizza platter")."""
_REMOVES = re.compile(
    r"(?<![\w'-])(?:scrap|drop|forget|cancel|remove|skip|ditch|lose|without|leave\s+out|take\s+off|no\s+need\s+for)"
    r"(?![\w'-])",  # not a part of a compound: "a drop-down ladder"
    re.I,
)
"""Words before a thing that take it away ("scrap the platter", "drop the extras", "without the platter")."""
_DENIES = re.compile(r"(?<![\w'])(?:no|nowhere|none|nothing)(?![\w'])", re.I)
"""Words that say a thing is not there ("no parking", "nowhere to park")."""


_KINDS = {
    "pet": "dog puppy pup cat kitten rabbit bunny hamster gerbil guinea parrot budgie bird tortoise snake ferret",
    "children": "child kid baby babies toddler son daughter teenager grandchild grandkid",
    "child": "kid baby babies toddler son daughter teenager grandchild grandkid",
}
"""The kinds a subject word names ("we've got a dog" says there are pets; "the kids" that there are children)."""


def _subject_groups(slot: Slot) -> tuple[tuple[str, ...], ...]:
    """Per word naming ``slot``'s subject (its name and label), its stem and the kinds it names: "park" for "parking",
    "pet" and "dog" for "pets"."""
    return _groups_of(slot.name, slot.label or "")


@lru_cache(maxsize=1024)
def _groups_of(name: str, label: str) -> tuple[tuple[str, ...], ...]:
    words = re.findall(r"[a-z]+", f"{name.replace('_', ' ')} {label}".casefold())
    # "allergies": "allerg", which "allergy" starts with too
    stems = {re.sub(r"(?<=\w{5})ies$|(?:ing|ed|s)$", "", word) for word in words if len(word) > 2 and word not in _STOP}
    groups = tuple(
        tuple(sorted({stem, *_KINDS.get(stem, "").split(), *IRREGULAR_FORMS.get(stem, ())}))  # "swollen" for swelling
        for stem in sorted(stems)
        if len(stem) >= 3
    )
    # a number in the name is part of its subject: "under" alone ("under my wife's name") names no under_16
    return groups + tuple((number,) for number in re.findall(r"\d+", f"{name.replace('_', ' ')} {label}"))


def _subject_stems(slot: Slot) -> tuple[str, ...]:
    """The stems of the words naming ``slot``'s subject, and of the kinds they name (:func:`_subject_groups`)."""
    return tuple(sorted({stem for group in _subject_groups(slot) for stem in group}))


def two_sided(slot: Slot) -> bool:
    """Does the boolean ``slot`` offer two alternatives (:func:`described_sides`: "the food package, or just the
    jump?")? Naming it then says no side: "we'll do our own packing" names packing and chooses the no side."""
    return _sides(slot.description or "", slot.ask or "") is not None


def _only_a_side(slot: Slot, clause: str) -> bool | None:
    """The side a clause says with nothing but that side's own words ("just the jump thanks"), else None ("two of us
    will hire shoes" says who as well: the clauses after it may say the others' side)."""
    sides = _sides(slot.description or "", slot.ask or "")
    if sides is None:
        return None
    stems, yes_words, no_words = _side_words(clause, *sides)
    if stems and stems in (yes_words, no_words) and yes_words != no_words:
        return stems == yes_words
    return None


def asked_boolean(slot: Slot, text: str) -> bool | None:
    """The value a reply to the boolean ``slot``'s question, just asked, gives it (:func:`boolean_reply`), but a first
    clause that is one side's words alone chooses it, whatever the reason after names; a reply that starts by saying
    there is none is a no ("nothing on at the moment", "neither of us has" to "are you wearing
    gels?"). Not a change at a summary: "nothing, I've changed my mind" there is no answer about the packaging."""
    said = clauses(text)
    if (
        two_sided(slot)
        and len(said) > 1
        and not (NEGATION.search(said[0]) or _DENIES.search(said[0]))
        and not any(_CONTRAST.match(clause) for clause in said[1:])  # "..., but most will need them"
        and (first := _only_a_side(slot, said[0])) is not None
    ):
        return first  # "just the jump thanks, we're doing food at home" to "the food package, or just the jump?"
    if (answer := boolean_reply(slot, text)) is not None:
        return answer
    return False if _NONE_FIRST.match(text) else None


def boolean_reply(slot: Slot, text: str) -> bool | None:
    """The value a reply to the boolean ``slot``'s question gives it: the yes or no it ends by concluding ("we had a
    dog but he died last year so no"), else the clause naming its subject (:func:`stated_answer`: "there's parking on
    the drive", before a yes or no said about something else), else a yes or no said first in a short clause, before
    the reason (to a question offering no two alternatives), else the side the answer names, else the yes or no it
    starts with."""
    if (thanks := _ACKNOWLEDGED.match(text)) is not None and parse_yes_no(text[thanks.end() :]) is not None:
        text = text[thanks.end() :]  # "ok great. no, no kids" after the price was told: the no answers
    if (concluded := concluded_yes_no(text)) is not None:
        return concluded == "yes"
    if (by_age := age_answer(slot, text)) is not None:
        return by_age  # "we've got one apprentice who's 17" to "will anyone be under 18?"
    if parse_yes_no(text) is None and (measured := measured_answer(slot, text)) is not None:
        return measured  # "the tank's about 10 metres from the drive" to "can the tanker get within 30 metres?"
    said = clauses(text)
    leading = parse_yes_no(text) if said and len(said[0].split()) <= 3 else None  # "ok fine, no ...": the no
    if leading is None and said and len(said) > 1 and (ends := _ENDS_IN_YES_NO.match(said[0])) is not None:
        leading = parse_yes_no(ends.group("answer"))  # "two kids yes, 7 and 11": the first clause ends by answering
    if leading == "no" and _ALREADY.search(text):
        return False  # "no, there's already a pole up" to "new poles, or keeping the ones you've got?": no new one
    if (own := own_side(slot, text)) is not None:
        return own  # "he has his own shoes" to "hire shoes, or bringing your own?": his own, whatever he has
    if has_it_already(slot, said):
        return True  # "I think my son ordered one... yeah he says it's arrived": already has it
    stated = stated_answer(slot, text, asked=False)  # the clause naming its subject
    if stated is not None and leading is not None and stated != (leading == "yes"):
        # "yes please, I don't have a car to take it to the tip": after a yes or no said first, a clause denying
        # something else is the reason; only a clause without a denial contradicts the yes or no
        plain = " ".join(clause for clause in said if not (NEGATION.search(clause) or _DENIES.search(clause)))
        stated = stated_answer(slot, plain, asked=False)
    if stated is not None:
        return stated
    offered = _OFFERED.search(slot.ask or "") is not None
    if leading is not None and not offered:
        # "yes, I'll leave them under the bench", "not really, the porch isn't covered": a yes or no said first
        # answers a question that offers no alternatives; the words after it give the reason, whichever side's words
        # they use (where the question offers two, "yes, I'll collect it" chooses collecting: the sides decide)
        return leading == "yes"
    if (side := side_named(slot, text)) is not None:
        return side
    if (one := pronoun_answer(slot.ask or "", text)) is not None:
        return one  # "oh actually I do have one, it's in the garage", "there's one by the back door"
    if _SOME.match(text) and _ASKS_ANY.search(slot.ask or ""):
        return True  # "a bit, the cat sleeps in it sometimes" to "is there any pet hair?": some is a yes
    if (last := _LAST_YES_NO.search(text)) is not None and not offered:
        return parse_yes_no(last.group("answer")) == "yes"  # "we'll pick them up when they're done, yes"
    answer = parse_yes_no(text)
    return None if answer is None else answer == "yes"


_ACKNOWLEDGED = re.compile(
    r"^\W*(?:ok(?:ay)?|great|lovely|perfect|brilliant|right|cool|thanks|thank\s+you|cheers)"
    r"(?:[\s,]+(?:great|lovely|thanks|then|cool|perfect|brilliant))*\s*[.!]+\s+(?=\S)",
    re.I,
)
"""A sentence of its own acknowledging what the bot said before the question ("ok great." after a price): what
follows it answers the question."""
_CONTRAST = re.compile(r"\W*but\b", re.I)
"""A clause set against the one before ("but most will need them"): no reason that lets the first clause stand."""
_NONE_FIRST = re.compile(r"^\W*(?:(?:um|erm|well|oh)\W+)?" + NONE_SAID + r"(?![\w'])", re.I)
"""A reply to a yes/no question that starts by saying there is none ("nothing on", "neither of us"); not "nothing's
wrong", which says all is well."""
_ALREADY = re.compile(r"(?<![\w'])already(?![\w'])", re.I)


_ENDS_IN_YES_NO = re.compile(r"^\W*(?:[\w'-]+\s+){1,3}(?P<answer>yes|yeah|yep|no|nope)\W*$", re.I)
"""A short first clause that ends in a yes or no, after the answer's detail ("two kids yes", "just adults no")."""
_LAST_YES_NO = re.compile(r",\s*(?P<answer>yes|yeah|yep|no|nope)\W*$", re.I)
"""A yes or no said last, after the answer's words ("we'll pick them up when they're done, yes")."""


_SOME = re.compile(
    r"^\W*(?:(?:yes|yeah|yep|oh|well|erm|um)\W+)?(?:a\s+(?:bit|little|little\s+bit|fair\s+bit|lot|few|couple)|"
    r"some|loads|lots|tons|plenty|masses|quite\s+a\s+(?:bit|lot))(?![\w'])(?!\s+of\s+(?:time|money)\b)",
    re.I,
)
"""A reply that starts by saying how much there is ("a bit", "loads", "some"): to "is there any ...?", a yes."""
_ASKS_ANY = re.compile(r"\bany\b", re.I)


def stated_answer(slot: Slot, text: str, *, asked: bool = True) -> bool | None:
    """The yes or no a statement gives the boolean ``slot`` ("there's parking on the drive": True; "there's no
    parking, it's a flat": False): read from the first clause naming the slot's subject, None when no clause names it
    or the clause says neither (a statement that it is there, can be done, or is not). To the question itself
    (``asked``), naming one of the two sides is an answer ("online" to "online, or at your home?"):
    :func:`side_named`."""
    if (first := first_time_answer(slot, text)) is not None:
        return first  # "I've been before" to "Is this your first visit?"
    stems = _subject_stems(slot)
    if not stems:
        return side_named(slot, text) if asked else None
    for clause in clauses(text):
        folded = clause.casefold()
        found = list(re.finditer(r"[a-z']+", folded))
        at = next((i for i, word in enumerate(found) if word.group().startswith(stems)), None)
        if at is None or _ASKS_WHETHER.match(clause) or _ASKS_OF_YOU.match(clause):
            continue  # "do you take NHS patients?" asks, and says nothing of the patient
        before = folded[: found[at].start()]  # as said: "a drop-down ladder" drops nothing
        if negation_scope(clause) is not None or _DENIES.search(before) or _REMOVES.search(before):
            return False
        if _AFFIRMS.search(clause) or _WITH.search(before):  # "a party for six, with the pizza platter"
            return True
        if not asked:
            continue  # "we'll pack the stock, no packing needed": a later clause may say it
        return side_named(slot, text)
    return side_named(slot, text) if asked else None


_SIDES = re.compile(r"(?P<yes>[^()]*?)\s*\(yes\)\s*,?\s*(?:or\s+)?(?P<no>[^()]*?)\s*\(no\)", re.I)
"""A boolean's description naming its two sides: "Whether the lessons are online (yes) or at the student's home
(no)"."""
_LABELLED = re.compile(
    r"(?<![\w'])yes\s*[:=-]\s*(?P<yes>[^;()]+?)\s*[;,]\s*no\s*[:=-]\s*(?P<no>[^;()]+?)\s*(?:\)|$|;)", re.I
)
"""A description labelling its two sides: "Whether the customer wants our packing service (yes: we pack everything;
no: the customer packs themselves)"."""
_OTHERWISE = re.compile(
    r"^\W*whether\s+(?P<yes>[^;]+?)\s*(?:;|,|\.|\s)\s*(?:otherwise|or\s+else|if\s+not|else)\W+(?P<no>.+?)\W*$", re.I
)
"""A description naming the no side after "otherwise": "Whether we deliver the tool; otherwise the customer collects
it from the depot"."""
_WITHOUT_SIDES = re.compile(r"^\W*whether\s+[^()]*?\bwithout\s+(?P<no>[^()]+?)\s*\((?P<yes>[^()]+)\)\W*$", re.I)
"""A description of doing without the no side, its yes side's examples in brackets: "Whether the technician can get
round to the tub without going through the house (a side gate or garden access)"."""
_OFFERED = re.compile(
    r"^(?P<yes>[^?]+)\?.*?(?:,\s*or\s+(?:else\s+)?|(?:^|[.?!]\s+)(?:or|if\s+not|otherwise)\W+)"
    r"(?P<no>(?:you|we|i)\b[^.?!]*)",
    re.I,
)
"""A question offering the no side as an alternative the customer can take: "Would you like us to deliver it?
Delivery is 20 GBP, or you can collect it from the depot for free." ("if not" and "otherwise" too)."""
_SIDE_FILLER = frozenset(
    """whether please pls plz thanks thank ok okay then just one would like prefer rather best better easiest easier
    fine good great works work suits suit probably think them they it its us we you your me my her him his our
    their""".split()
)
"""Words that say which side suits, not a side ("online's easiest", "at home would be best")."""


def described_sides(description: str, question: str = "") -> tuple[str, str] | None:
    """The yes side and the no side a boolean names, as written, or None: the question's own two sides when it offers
    the no side as an alternative (:data:`_OFFERED`: a customer answers in the question's words), else the
    description's (marked "(yes)" and "(no)", :data:`_SIDES`, or the no side after "otherwise", :data:`_OTHERWISE`,
    or after "without", the yes side's examples in brackets, :data:`_WITHOUT_SIDES`)."""
    if (offered := _OFFERED.search(question)) is not None:
        return offered.group("yes").strip(), offered.group("no").strip()
    found = (
        _SIDES.search(description)
        or _LABELLED.search(description)
        or _OTHERWISE.search(description)
        or _WITHOUT_SIDES.search(description)
    )
    if found is None:
        return None
    yes = re.sub(r"^\W*whether\s+", "", found.group("yes"), flags=re.I).strip()
    return yes, found.group("no").strip()


_SUBJECT = re.compile(
    r"^\W*(?:(?:the|your|their|his|her|its|a|an)\s+)?[\w'-]+(?:\s+[\w'-]+)?\s+"
    r"(?:will|would|is|are|was|were|gets?|can)(?:\s+be)?\s+(?=\w)",
    re.I,
)
"""What a side is said of, before its verb ("the car will be" of "the car will be on a drive")."""


_SIDE_SYNONYMS = {stem(word): stem("bring") for word in ("supply", "provide", "source", "fetch")}
_SIDE_SYNONYMS |= {stem(word): stem("own") for word in ("ours", "theirs", "hers")}
"""Words said for a side's word: verbs of bringing a thing along are one word where a side is who brings it ("the
technician brings one"); the words that say whose a thing is ("it's ours") say owning it ("mine" is a function word,
never a side's)."""
OFF_MARK = "~"
"""Marks a side's word said after one of :data:`~fsmdial.language.text.OPPOSITE_WORDS` ("~road" of "off the road")."""


def _side_stems(text: str) -> set[str]:
    """The stems of ``text``'s words that may name a side (no function words, no filler), each said after "off" or
    "non" marked (:data:`OFF_MARK`): "off the road" is "~road", "on the road" "road"."""
    stems, off, before = set(), False, ""
    words = re.findall(r"[a-z']+", text.casefold())
    for at, said in enumerate(words):
        word = said.removesuffix("'s").strip("'")  # "online's easiest": online
        after = words[at + 1 : at + 3]
        if after[:1] == ["out"] or (after[1:] == ["out"] and after[0] in ("it", "them")):
            word = "out-" + word  # "a flat I rent out" is no renting it: a verb with "out" is another verb
        before, was = word, before
        if word in OPPOSITE_WORDS and was != "one":  # not the "off" of "a one-off"
            off = True
        elif word and word not in FUNCTION_WORDS and said not in FUNCTION_WORDS and word not in _SIDE_FILLER:
            # "fires" and "fire", "collects" and "collect": one word; "supply" and "provide" are "bring"
            if word in _REFLEXIVES:  # "run it yourselves", "we'll do it ourselves", "drop it off myself": one side
                word, off = "self", False
            stems.add(OFF_MARK * off + _SIDE_SYNONYMS.get(stem(word), stem(word)))
            off = False
    return stems


_AGENT = re.compile(r"(?<=[a-z]{3})ers?$")
"""The ending of a noun of who does a verb ("owner", "renters")."""
_REFLEXIVES = frozenset("myself yourself yourselves ourselves themselves themself himself herself".split())
"""The one doing it said of any person: "run it yourselves" asked, "we'll do it ourselves" said, "self-operated"."""


def _naming(said: set[str], side: frozenset[str]) -> set[str]:
    """The stems of ``said`` that name ``side``: its own words, a compound that starts with one ("driveway" names a
    "drive"), and the plain word of one it says after "off" ("on the road" names the other side of "off the road")."""
    return {
        word
        for word in said
        if word in side
        or any(len(stem) >= 4 and len(word) >= len(stem) + 3 and word.startswith(stem) for stem in side)
        or _AGENT.sub("", word) in side  # "I'm the owner" says "own", "a renter" "rent"
    }


@lru_cache(maxsize=512)
def _sides(description: str, question: str) -> tuple[frozenset[str], frozenset[str]] | None:
    """The stems of the words only the yes side, and only the no side, of a boolean says (:func:`described_sides`),
    each side also holding the plain word of one the other says after "off" ("off the road" (yes): "road" names
    no)."""
    sides = described_sides(description, question)
    if sides is None:
        return None
    # the thing the question is about is said by either side ("the car will be on a drive"; "I'll leave the car on
    # the street")
    # a moment ("bring them back the next working day") is when a side happens, no word naming it ("she's in all day")
    yes, no = (frozenset(_side_stems(_SUBJECT.sub("", side, count=1))) - _MOMENT_STEMS for side in sides)
    only_yes, only_no = yes - no, no - yes
    flipped = {word.removeprefix(OFF_MARK) for word in only_yes | only_no if word.startswith(OFF_MARK)}
    return (
        only_yes | {word for word in flipped if OFF_MARK + word in only_no},
        only_no | {word for word in flipped if OFF_MARK + word in only_yes},
    )


_OWNED = re.compile(r"(?<![\w'])own\s+([a-z][a-z'-]*)", re.I)
"""The thing said after "own" ("our own clubs"): where a side is bringing one's own, the thing both sides are about."""


def _side_words(text: str, only_yes: frozenset[str], only_no: frozenset[str]) -> tuple[set[str], set[str], set[str]]:
    """The stems of ``text``, and those naming the yes side and the no side; where a side is bringing one's own, the
    thing said after "own" ("we've all got our own clubs" to "hire clubs (yes) or bring your own (no)") names neither:
    it is what both sides are about."""
    stems = _side_stems(text)
    if "own" in stems and "self" in only_yes | only_no and "own" not in only_yes | only_no:
        stems = stems - {"own"} | {"self"}  # "we'll do our own packing" to "... or will you pack yourselves?"
    if "own" in only_yes | only_no:
        stems -= set(_side_stems(" ".join(_OWNED.findall(text))))
    return stems, _naming(stems, only_yes), _naming(stems, only_no)


def own_side(slot: Slot, text: str, others: frozenset[str] = frozenset()) -> bool | None:
    """Where one side of the boolean ``slot`` is bringing one's own ("hire shoes (yes), otherwise they bring their
    own"), a clause saying one's own ("we've got our own shoes", "he has his own") chooses that side; where another
    clause names the other side by words no other slot uses (``others``), the others' side: "two of us need shoes, one
    has his own" is a yes to hiring shoes."""
    sides = _sides(slot.description or "", slot.ask or "")
    if sides is None or not (own := [side for side in sides if "own" in side]) or len(own) > 1:
        return None
    said = clauses(text)  # "some will bring their own", "but most will need them"
    stems = _subject_stems(slot)
    owning = [
        clause
        for clause in said
        if negation_scope(clause) is None
        and (_OWN.search(clause) or any(found.group(1).startswith(stems) for found in _HAVE_IT.finditer(clause)))
    ]
    other = sides[1] if own[0] is sides[0] else sides[0]
    if not owning:
        return None
    needing = [clause for clause in said if _NEEDS.search(clause) and negation_scope(clause) is None]
    if any(
        _naming(_side_stems(clause), other - others) or clause in needing for clause in said if clause not in owning
    ):
        return own[0] is not sides[0]  # "two of us need clubs, the others have their own": some need them
    return own[0] is sides[0]


_OWN = re.compile(r"(?<![\w'])(?:my|our|his|her|their|your)\s+own(?![\w'])", re.I)
_HAVE_IT = re.compile(
    r"(?<![\w'])(?:i|we|he|she|they)(?:'ve|\s+have|'s|\s+has)?\s+(?:already\s+|all\s+)?(?:got|have|has|own)\s+"
    r"(?:(?:a|an|some|my|our|his|her|their|the)\s+)?([a-z][a-z'-]*)",
    re.I,
)
"""The speaker's party having the thing themselves ("we've got wetsuits", "I have a board"): one's own."""
_NEEDS = re.compile(
    r"(?<![\w'])(?:need|needs|want|wants)\s+(?:them|some|one|ones|a\s+set|sets|to\s+(?:hire|borrow|rent))(?![\w'])",
    re.I,
)
"""A clause saying some need the thing ("most will need them", "two want to hire"): beside one's own, they need it."""


def both_sides_named(slot: Slot, text: str) -> bool:
    """Does an answer name words of both sides of the boolean ``slot`` ("two of us need clubs, the others have their
    own")? Then it is in doubt, and nobody guesses a side."""
    sides = _sides(slot.description or "", slot.ask or "")
    if sides is None:
        return False
    _, yes_words, no_words = _side_words(text, *sides)
    return bool(yes_words) and bool(no_words)


def side_named(slot: Slot, text: str) -> bool | None:
    """The side of the boolean ``slot`` that an answer names by its words (:func:`described_sides`): a short answer
    of one side's own words, none of the other's ("online" -> True, "at home please" -> False, where the description
    says "online (yes) or at the student's home (no)"); a longer one that names one side's words and none of the
    other's, negates nothing and asks nothing ("I'll collect, I've got a van" -> False, "deliver please, it's too
    heavy for me" -> True, to "Would you like us to deliver it? ..., or you can collect it from the depot"). Without
    such sides, the slot's own subject said alone ("online" to the slot online) is a yes. None when the answer names
    both, neither, or says more."""
    said = {word.removesuffix("'s") for word in re.findall(r"[a-z']+", text.casefold())} - FUNCTION_WORDS
    said -= _SIDE_FILLER
    if not said:
        return None
    sides = _sides(slot.description or "", slot.ask or "")
    if sides is None:
        if len(said) > 3:
            return None
        subject = set(_subject_stems(slot))
        return True if all(word.rstrip("s") in subject or word in subject for word in said) else None
    if "?" in text:
        return None  # "can't you deliver it?": asked, not chosen
    only_yes, only_no = sides
    named = [clause for clause in clauses(text) if _naming(_side_stems(clause), only_yes | only_no)]
    if any(negation_scope(clause) is not None or _DENIES.search(clause) for clause in named):
        return None  # "I don't want to collect it", "there's no back": the side is not simply chosen
    stems, yes_words, no_words = _side_words(text, only_yes, only_no)
    if len(said) <= 3 and stems and (yes_words == stems or no_words == stems):
        return yes_words == stems
    return bool(yes_words) if bool(yes_words) != bool(no_words) else None


def stated_unasked(slots: Iterable[Slot], asked: Slot | None, text: str, read: Mapping[str, Any]) -> dict[str, bool]:
    """The yes or no statements give boolean slots not asked (nor ``read`` already), in a clause naming all of the
    slot's subject ("my dishwasher is 7 years old, not under guarantee": under_guarantee False), or the noun its name
    and its label end with ("I'll take the cover after all": extra_cover, "excess cover"). Only words that name all of
    it count: "under" alone is no guarantee."""
    unasked = [slot for slot in slots if slot.type is SlotType.boolean and slot is not asked and slot.name not in read]
    if not unasked:
        return {}
    said = [
        (clause, re.findall(r"[a-z']+|\d+", clause.casefold()))
        for clause in clauses(text)
        if not _ASKS_WHETHER.match(clause)
    ]
    # the words of the categorical values read: "a sight test" is the visit's kind, never a yes to a "free test"
    valued = frozenset(
        word
        for slot in slots
        if slot.type is SlotType.categorical and isinstance(read.get(slot.name), str)
        for _, form in value_forms((read[slot.name],), slot.description or "")
        for word in re.findall(r"[a-z']+", form.casefold())
    )
    said_of = _said_of(slots)  # what each slot is named, described and valued by: built once a turn
    found: dict[str, bool] = {}
    for slot in unasked:
        others = _other_words(said_of, slot.name)  # words another slot may say
        groups = _subject_groups(slot)
        # all of its subject ("under guarantee"), or one where the name offers either ("children or pets")
        enough = any if "_or_" in slot.name else all
        head = _head_group(slot.name, slot.label or "")
        naming = next(
            (
                clause
                for clause, words in said
                if groups
                and (
                    enough(_names(words, group) for group in groups)
                    or (head and _names([word for word in words if word not in valued], head))
                )
            ),
            None,
        )
        if (own := own_side(slot, text, others)) is not None:
            found[slot.name] = own  # "..., we've got our own shoes": the side of bringing one's own
        elif naming is not None and (answer := stated_answer(slot, naming, asked=False)) is not None:
            found[slot.name] = answer
        elif (first := first_time_answer(slot, text)) is not None:
            found[slot.name] = first  # "..., it's my first time with you": a first visit said, not asked
        elif (side := _side_of_oneself(slot, [clause for clause, _ in said])) is not None:
            found[slot.name] = side  # "..., I'll collect it at 9" where the question offers collecting
        elif (side := _side_in_passing(slot, others, said)) is not None:
            found[slot.name] = side  # "..., it'll be parked on the road outside" to the off-road question to come
        elif (none := _none_of_kind(slot, said)) is not None:
            found[slot.name] = none  # "..., no pets, ..." says there is no pet hair
        elif valued and has_it_already(slot, [clause for clause, words in said if valued & set(words)]):
            found[slot.name] = True  # "I've bought a Tado kit and want someone to fit it": already has the device
    return found


_HAS_IT = re.compile(r"\b(?:already\s+)?(?:has|have|owns?|got)\s+(?:the|a|an|their|his|her|its)\b[^()]*\(yes\)", re.I)
"""A boolean whose yes side is already having the thing the booking is about ("already has the device to fit (yes)")."""
_POSSESSED = re.compile(
    rf"(?<![\w'])(?:{_BOUGHT}|(?:i|we)(?:'ve|\s+have)?\s+(?:just\s+|already\s+)?got)(?![\w'])|"
    r"(?<![\w'])(?:it'?s|they'?ve|it\s+has|they\s+have)\s+(?:just\s+)?arrived(?![\w'])|\bhere\s+waiting\b",
    re.I,
)
"""A clause saying one has the thing already ("I've bought a Tado kit", "we've got the Hive box here waiting")."""


def has_it_already(slot: Slot, said: Iterable[str]) -> bool:
    """Does a clause of ``said`` (not denied) say one has the thing already, where the yes side of the boolean
    ``slot`` is having it (:data:`_HAS_IT`)?"""
    return _HAS_IT.search(slot.description or "") is not None and any(
        _POSSESSED.search(clause) and negation_scope(clause) is None for clause in said
    )


_MOMENT_STEMS = frozenset(
    stem(word)
    for word in """day days week weeks month months year years today tomorrow tonight morning afternoon evening night
    later earlier soon time hour hours minute minutes weekend next last""".split()
)
"""The stems of words of a moment or a length of time."""


def _side_in_passing(slot: Slot, others: frozenset[str], said: list[tuple[str, list[str]]]) -> bool | None:
    """The side of a boolean that a statement names by words of that side alone, none the flow's other slots use
    ("it'll be on the drive" where the description says "on a drive (yes), rather than on the street (no)"; not
    "the car", which the vehicle's slot names too: ``others``): no question (a request asks too: "can I pick it
    up?"), no number (an address: "12 Station Road"), no negation; None when no clause does, or clauses name both."""
    sides = _sides(slot.description or "", slot.ask or "")
    if sides is None:
        return None
    # words of a moment ("three weeks later") name no side said in passing: "I'm visiting next week" chooses nothing
    others = others | _MOMENT_STEMS
    only_yes, only_no = sides[0] - others, sides[1] - others
    if (without := _WITHOUT_SIDES.search(slot.description or "")) is not None:
        only_no = frozenset()  # what is done without ("going through the house"): its words in passing name no side
        # the yes side's examples by their heads ("a side gate, a back lane": gate, lane): "the back garden" is none
        examples = [example.split() for example in re.split(r",|\bor\b", without.group("yes"))]
        only_yes = only_yes & frozenset(stem for words in examples if words for stem in _side_stems(words[-1]))
    # a side of bringing one's own is said by "own" (:func:`own_side`), not by its verb ("my brother's bringing his
    # lads")
    only_yes, only_no = (
        frozenset() if "own" in side else only for side, only in zip(sides, (only_yes, only_no), strict=True)
    )
    stating = [
        clause
        for clause, _ in said
        if not any(char.isdigit() for char in clause)
        and negation_scope(clause) is None
        and not _DENIES.search(clause)  # "there's no back to get to" names the back, and denies it
        and not _ASKS.match(clause)
    ]
    return _one_side_named(stating, only_yes, only_no)


def _one_side_named(said: Iterable[str], only_yes: frozenset[str], only_no: frozenset[str]) -> bool | None:
    """The one side the clauses ``said`` name by its words (True: yes), each naming one side only; None when none do,
    or they name both."""
    named = set()
    for clause in said:
        stems = _side_stems(clause)
        yes, no = bool(_naming(stems, only_yes)), bool(_naming(stems, only_no))
        if yes != no:
            named.add(yes)
    return named.pop() if len(named) == 1 else None


def _said_of(slots: Iterable[Slot]) -> tuple[tuple[str, str], ...]:
    """Each slot's name and the words it is named, described, asked and valued by."""
    return tuple(
        (
            slot.name,
            f"{slot.name.replace('_', ' ')} {slot.label or ''} {slot.description or ''} {slot.ask or ''} "
            + " ".join(slot.values or ()),
        )
        for slot in slots
    )


@lru_cache(maxsize=256)
def _other_words(said: tuple[tuple[str, str], ...], name: str) -> frozenset[str]:
    """The side stems (:func:`_side_stems`) of the words the flow's slots but ``name`` are said by (:func:`_said_of`):
    words a statement may say of another slot."""
    words = " ".join(text for slot, text in said if slot != name)
    return frozenset(word.removeprefix(OFF_MARK) for word in _side_stems(words))


def _none_of_kind(slot: Slot, said: list[tuple[str, list[str]]]) -> bool | None:
    """No to a boolean whose subject is of a kind (pets, children) a clause says there is none of ("no pets", "we've
    got no kids"); None when no clause does."""
    kinds = [group for group in _subject_groups(slot) if len(group) > 2]  # a word with kinds: "pet" and its animals
    for _, words in said:
        for at, word in enumerate(words):
            if any(word.startswith(group) for group in kinds) and _DENIES.search(" ".join(words[max(0, at - 3) : at])):
                return False
    return None


_OF_ONESELF = re.compile(r"^\W*(?:(?:and|but|so|oh)\s+)?(?:i|we)(?:'ll|'d|\s+will|\s+would|\s+can|\s+could)?\s", re.I)
"""A clause whose subject is the customer ("I'll collect it", "we'd like it delivered")."""


def _side_of_oneself(slot: Slot, said: list[str]) -> bool | None:
    """The side of a boolean whose question offers its two sides as alternatives (:data:`_OFFERED`) that a clause
    about the customer names by its words alone, negating nothing and asking nothing ("I'll collect it at 9" where
    the question offers delivery or collecting; a description's sides are not enough: "I'd like some lessons" names
    the "lessons are online" of "online (yes) or at home (no)"); None when no clause does, or clauses name both."""
    # only a question offering the two as alternatives names sides a customer says unasked (no description: its
    # sides are not enough); _sides is cached, so this costs a lookup per message
    sides = _sides("", slot.ask or "")
    if sides is None:
        return None
    of_oneself = [
        clause for clause in said if "?" not in clause and _OF_ONESELF.match(clause) and negation_scope(clause) is None
    ]
    return _one_side_named(of_oneself, *sides)


_QUESTION_LEAD = r"^\W*(?:(?:and|so|also|but|ok|okay|cool|great|then|oh)\W+)*"
_ASKS_OF_YOU = re.compile(_QUESTION_LEAD + r"(?:do|does|are|is)\s+(?:you|it|they|there)\b", re.I)
"""A question about the business ("do you take NHS patients?", "is there parking?"), not a request ("can you add
the cover?")."""
_ASKS_WHETHER = re.compile(
    _QUESTION_LEAD
    + r"(?:(?:do|does|did|is|isn't|are|aren't|was|were|can|could|will|would|have|has|any)\s+(?!you\s|we\s|i\s)"
    r"|(?:(?:can|could|would)\s+you\s+(?:please\s+)?(?:tell|let)\s+me|do\s+you\s+know|i'?d\s+like\s+to\s+know|"
    r"i\s+(?:wonder|was\s+wondering))\s+(?:if|whether)\s)",
    re.I,
)
"""A clause asking whether ("do they have outdoor seating", "is there parking", "can you tell me if pets are
allowed?"): a question about the subject states nothing of it (a request, "can you ..."/"could we ...", still
does)."""


_ASKS = re.compile(
    _QUESTION_LEAD + r"(?:can|could|may|do|does|is|are|will|would|shall|should)\s+(?:i|we|you|it|they)\b", re.I
)
"""A clause that asks ("can I pick it up?"): no side stated, though it names one (the clauses lose their "?")."""


@lru_cache(maxsize=1024)
def _head_group(name: str, label: str) -> tuple[str, ...]:
    """The stem group of the noun both a slot's ``name`` and its ``label`` end with ("cover" of ``extra_cover``,
    "excess cover"): said alone, it names the slot ("I'll take the cover after all"). Empty without a label ending
    so. Read once per slot."""
    name_words = re.findall(r"[a-z]+", name.replace("_", " ").casefold())
    label_words = re.findall(r"[a-z]+", label.casefold())
    if not name_words or not label_words or name_words[-1] != label_words[-1] or len(name_words[-1]) < 4:
        return ()
    return next((group for group in _groups_of(name_words[-1], "") if group), ())


def _names(words: list[str], stems: tuple[str, ...]) -> bool:
    return any(word.startswith(stems) for word in words)


_ANY_VALUE = re.compile(r"^(?:any\b.*|dontcare|don't care|no preference|whatever)$", re.I)
_ANYONE = re.compile(
    r"^\W*(?:(?:oh|um|erm|er|uh|well|honestly|really|ok|okay)\W+)*(?:any|anyone|anybody|either|whichever|whoever)"
    r"(?:\s+(?:is|are|'s|of\s+them|one|really))*\W*(?:(?:is\s+)?fine|please|thanks|thank\s+you)?\W*$|"
    r"(?<![\w'])(?:whoever|whichever)(?:'s|\s+is|\s+are)?\s+(?:free|available|around|in|on)(?![\w'])|"
    r"(?<![\w'])first\s+(?:available|free)(?![\w'])|(?<![\w'])(?:anyone|anybody)\s+(?:is\s+)?(?:fine|ok|okay|good)(?!\w)",
    re.I,
)
"""No preference said by leaving the pick to whoever it falls to ("whoever's free", "any", "anyone", "first
available"); never "anyone else" (asks for another)."""


def no_preference(
    categorical: Iterable[tuple[Slot, tuple[str, ...]]], asked: Slot | None, text: str, *, said: bool, asks: bool
) -> list[tuple[Slot, str]]:
    """The categorical slots a no-preference is about, with their "any" value: the asked one, else those whose
    own words the message names ("I don't care about the price" -> "any price range"). ``said``: the message's acts
    say no preference ("it doesn't matter"); else only a pick left to anyone ("whoever's free") counts, never in a
    question (``asks``: "is anyone free on Saturday?")."""
    if not said and (asks or not _ANYONE.search(text)):
        return []
    anys = [(slot, value) for slot, values in categorical for value in values if _ANY_VALUE.match(value)]
    words = set(normalize(text).split())
    named = [(slot, value) for slot, value in anys if words & (set(normalize(value).split()) - {"any"})]
    if named or asked is None:
        return named
    return [(slot, value) for slot, value in anys if slot is asked][:1]


def details_told(state: UnderstandingState, change: Mapping[str, Any] | None, text: str) -> dict[str, Any]:
    """Where a change turns a boolean to yes and a yes leads to asking what (``state.details``: "any allergies?",
    then "what should the chef know?"), the yes and the clause of ``text`` stating it, as that text ("oh wait, my son
    has a nut allergy actually" at the summary: the allergy, and what it is), as values given."""
    new = change.get("new", {}) if change else {}
    told: dict[str, Any] = {}
    for name, value, detail in state.details:
        slot = state.slot(name)
        if slot is None or value is not True or new.get(name) is not True or detail in new:
            continue
        stating = [clause for clause in clauses(text) if stated_answer(slot, clause, asked=False)]
        if stating:
            told.update({name: True, detail: stating[0].strip()})
    return told
