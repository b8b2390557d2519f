"""Dialogue acts: what a message *does* before what values it holds.

:func:`read_acts` reads a message as a set of acts from cue-word lexicons (a
greeting, thanks, a goodbye, a yes, a no, a hedge such as "but" or "though", a
question, "I don't know", "it doesn't matter", a stall such as "hmm let me
think") and finds where a value may start: greetings and filler in front of it
are stripped ("hi, I'm Jane" -> "I'm Jane"). The rules understander reads acts
first: a greeting, thanks or a question never fills a slot, and a confirmation
guarding a committing action is answered yes only by a :attr:`Acts.plain_yes`.

The lexicons describe classes of phrasings, not sentences; everything is a pure
function of the text, cached.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from .clauses import clauses, negation_scope, question_tag
from .numbers import WORD_NUMBERS
from .text import TERMS_OF_ADDRESS, normalize


def phrase_pattern(*items: str) -> re.Pattern[str]:
    """One pattern for whole-word phrases of normalised text (longest first), each apostrophe optional ("thats
    grand", "lets do it", typed without them)."""
    phrases = (re.escape(item).replace("'", "'?") for item in sorted(items, key=len, reverse=True))
    return re.compile(r"(?<![\w'])(?:" + "|".join(phrases) + r")(?![\w'])")


GREETINGS = phrase_pattern(
    "hi",
    "hello",
    "hey",
    "hiya",
    "howdy",
    "yo",
    "greetings",
    "good morning",
    "good afternoon",
    "good evening",
    "good day",
    "morning",
    "evening",
    "afternoon",
    "hi there",
    "hello there",
    "hey there",
    "hey guys",
    "hi guys",
    "hello again",
    "hi again",
)
THANKS = phrase_pattern(
    "thanks",
    "thank you",
    "thankyou",  # one word, as typed in a hurry
    "thank u",
    "thx",
    "ty",
    "ta",
    "cheers",
    "much appreciated",
    "appreciate it",
    "thanks a lot",
    "thank you so much",
    "thanks so much",
    "thanks very much",
    "thank you very much",
    "many thanks",
)
BYE = phrase_pattern(
    "bye",
    "goodbye",
    "good bye",
    "bye bye",
    "see you",
    "see ya",
    "farewell",
    "have a nice day",
    "have a good day",
    "have a great day",
)
WORKS_FOR_ME = ("that works", "that would work", "that will work", "that'd work", "that'll work", "works for me")
"""Words that say a proposal fits: a yes to a question, an appraisal of what was shown (:mod:`.statements`)."""
AFFIRM = phrase_pattern(
    "yes",
    "ye",
    "yeh",
    "yess",
    "yesss",
    "all correct",
    "that's all correct",
    "that is all correct",
    "all fine",
    "that's all fine",
    "all looks good",
    "that all looks good",
    "all sounds good",
    "that all sounds good",
    "yea sure",
    "yeah",
    "yep",
    "yup",
    "yh",
    "ya",
    "yea",
    "y",  # typed alone
    "aye",  # Scotland's and the north's yes
    "yes please",
    "sure",
    "sure thing",
    "correct",
    "right",
    "exactly",
    "absolutely",
    "definitely",
    "certainly",
    "of course",
    "ok",
    "okay",
    "alright",
    "all right",
    "affirmative",
    "that's right",
    "that is right",
    "that's correct",
    "that is correct",
    "that's it",
    "that's perfect",
    "perfect",
    "spot on",
    "bang on",
    "great",
    "great stuff",  # British: "great stuff, yes"
    "good stuff",
    "lovely stuff",
    "brilliant stuff",
    "brill",  # British, short for brilliant
    "fine",
    "good",
    "sounds good",
    "sounds great",
    "sounds perfect",
    "looks good",
    "looks great",
    "please do",
    "yes please do",
    "yes do",
    "go ahead",
    "proceed",  # STAR's customers: "Proceed", "please proceed"
    "go for it",
    "let's go for it",
    "go on then",
    "that's everything",
    "that is everything",
    "do it",
    "book it",
    "confirm",
    "confirmed",
    "agreed",
    "indeed",
    "true",
    *WORKS_FOR_ME,
    "all good",
    "lovely",
    "excellent",
    "wonderful",
    "brilliant",
    "yes it is",
    "please",
    "yes go ahead",
    "let's do it",
    "let's do that",
    "do that",
    "book that",
    "make the booking",
    "i confirm",
    "it is",
    "that's fine",
    "that is fine",
    "that's grand",
    "that is grand",
    "that's great",
    "that's good",
    "that'd be great",
    "that would be great",
    "yes thanks",
    "yes thank you",
    "sure thanks",
    "you bet",
    "book the table",
    "please book it",
    "go ahead and book it",
    "yes book it",
    "do it please",
)
"""Words and phrases that say yes (a message made only of these, thanks and greetings is a plain yes)."""
_URGENT = (
    "asap",
    "as soon as possible",
    "as soon as you can",
    "straight away",
    "right away",
    "quick",
    "quickly",
    "hurry",
)
"""Words asking for speed: said with a yes ("yes asap please"), they say nothing more."""
_URGENCY = phrase_pattern(*_URGENT, "hurry up", "please", "and")
POLITE_TAIL = phrase_pattern(
    "that's",
    "thats",
    "that is",
    "that'd be",
    "that would be",
    "that will be",
    "that'll be",
    "it's",
    "its",
    "it is",
    "it'd be",
    "it would be",
    "this is",
    "would be",
    "will be",
    "that",
    "it",
    "sounds",
    "looks",
    "seems",
    "works",
    "would work",
    "will work",
    "to me",
    "for me",
    "with me",
    "go on",
    "then",
    "really",
    "very",
    "so",
    "just",
    "quite",
    "all",
    "much",
    "handy",
    "ideal",
    "better",  # "yes that's better" after a change
    "much better",
    "spot on",
    "you got it",
    # a yes passed on ("yes she says that's fine, book it")
    "she says",
    "he says",
    "they say",
    "she said",
    "he said",
    "they said",
    "i do",
    "i will",
    "now",
    *_URGENT,
)
"""The frame of a yes in its own clause ("that'd be lovely", "yeah go on then", "that works for me", "that's right now"
after a value was put right, "yes asap please"): in a clause that says yes these words say nothing more; alone
("that's it" without a yes word) they are no yes."""
DENY = phrase_pattern(
    "no",
    "nope",
    "nah",
    "not",
    "never",
    "don't",
    "do not",
    "doesn't",
    "does not",
    "isn't",
    "is not",
    "won't",
    "wouldn't",
    "negative",
    "wrong",
    "incorrect",
    "not really",
    "no thanks",
    "no thank you",
    "cancel",
    "stop",
)
HEDGE = phrase_pattern(
    "but",
    "though",
    "although",
    "however",
    "except",
    "except for",
    "instead",
    "rather",
    "actually",
    "only if",
    "as long as",
    "provided",
    "unless",
    "wait",
    "hold on",
    "hang on",
    "change",
    "make it",
    "almost",
    "nearly",
    "apart from",
    "other than",
)
"""Words that take back or qualify what comes before them: a "yes" with one of these is no plain yes."""
QUESTION_START = re.compile(
    r"^(?:(?:what's|whats|which|who|whom|whose|why|how|how's|tell me|any idea)\b|"
    # "when I go up hills it slips", "when anyone flushes it comes up", "what I need is": a clause that tells; "when
    # can you come", "where's the nearest": a verb of asking right after it asks
    r"(?:when|where)(?:'s|s)\b|(?:when|where)(?=\s+(?:is|are|was|were|do|does|did|can|could|will|would|should|"
    r"shall|may|might|have|has|abouts)\b|\s*$)|what\b(?!\s+(?:i|we)\b)|"
    r"(?:is|are|was|were|do|does|did|can|could|will|would|should|shall|may|might|have|has|am|isn't|aren't|"
    r"don't|doesn't|won't|can't)\s+(?:you|ya|i|we|it|there|they|he|she|this|that|these|those|the|your|my|our|a|an)\b)"
)
"""A message (after its greeting) that starts like a question ("do you have vegan options"); not one that starts with
a clause of when or where something happens ("when I brake it squeals"), which tells (with a "?" it still asks)."""
REQUEST_START = re.compile(
    r"^(?:(?:actually|oh|sorry|so|well|um|and|also|but|then)\W+)*(?:please\s+)?(?:can|could|would|will)\s+"
    r"(?:you|we|i|someone|somebody|anyone|anybody|one of you|(?:the|your)\s+[a-z]+)\s+"
    r"(?:please\s+)?(?!tell|say|explain|help|know|have)\w+"
)
"""A question that asks for something to be done ("could you move it to 6pm", "can we add a stop", "can someone come
out to me?")."""
WISH_LEAD = re.compile(
    r"^(?:(?:hi|hello|hey|yes|ok|okay|so|well)\s+)*(?:please\s+)?"
    r"(?:i\s*(?:would|'d|d)\s+(?:like|love)\s+to|i\s+(?:want|need|wanna|wish)(?:\s+to)?|"
    r"i\s*(?:am|'m|m)\s+(?:looking|trying|hoping)\s+to|i\s+have\s+to|"
    r"(?:can|could|would|will)\s+you\s+(?:please\s+)?(?:help\s+me\s+)?|help\s+me(?:\s+to)?)\s+"
)
"""The framing of a wish before what is wished ("i need to | change my ride", "could you help me | book a table")."""


def without_wish(norm: str) -> str:
    """A normalised phrase without its leading wish framing (itself when it has none)."""
    return WISH_LEAD.sub("", norm, count=1)


LEADING_WORDS = 3
SHORT_WORDS = 8
"""A no-preference makes a message no value only in a short one ("whatever box you recommend"), not in a report."""
"""A cue phrase "leads" a message when it starts within its first three words."""


def leads(norm: str, start: int) -> bool:
    """Does a phrase found at ``start`` of the normalised message stand at its start (within its first words)?"""
    return norm[:start].count(" ") < LEADING_WORDS


DONT_KNOW = phrase_pattern(
    "i don't know",
    "don't know",
    "do not know",
    "dunno",
    "no idea",
    "not sure",
    "no clue",
    "idk",
    "let me check",
    "i'll check",
    "i will check",
    "need to check",
    "have to check",
    "i'll have to check",
    "i need to ask",
    "not yet",
    "haven't decided",
    "have not decided",
    "undecided",
    "can't remember",
    "cannot remember",
    "don't remember",
    "i forgot",
    "can't recall",
    "don't recall",
    "let me see",
    "let me ask",
)
NO_PREFERENCE = phrase_pattern(
    "doesn't matter",
    "does not matter",
    "don't care",
    "do not care",
    "no preference",
    "any is fine",
    "anything is fine",
    "either is fine",
    "either one",
    "either way",
    "whatever",
    "i don't mind",
    "don't mind",
    "up to you",
    "you choose",
    "you decide",
    "surprise me",
    "any will do",
    "anything's fine",
    "no matter",
    "not important",
    "not fussy",
    "i'm easy",
    "whichever",
)
NO_PREFERENCE_FORMS = re.compile(
    r"(?<![\w'])(?:(?:don't|do not|doesn't|does not) (?:really )?(?:have )?(?:a |any )?(?:particular |specific )?"
    r"(?:preference|care|mind)|no (?:particular|specific|real) (?:preference|\w+)|not picky|"
    r"any (?:\w+ )?(?:is|are|would be|will be) (?:fine|ok|okay|good)|any (?:\w+ )?(?:will|would) do|"
    r"any (?:of them|one of them|place|time)|(?:\w+ )?in particular)(?![\w'])"
)
"""No-preference phrasings with a word inside ("I don't really care about the area", "any area is fine", "no
particular type of food"), read in MultiWOZ's users' turns marked dontcare."""
STALL = phrase_pattern(
    "hmm",
    "hmmm",
    "umm",
    "um",
    "uh",
    "let me think",
    "give me a second",
    "give me a sec",
    "give me a minute",
    "one moment",
    "one second",
    "one sec",
    "just a moment",
    "just a second",
    "wait",
    "hold on",
    "hang on",
    "thinking",
    "let me see",
    "bear with me",
    "hang on a sec",
    "hang on a second",
    "hang on a minute",
    "hold on a sec",
    "hold on a second",
    "hold on a minute",
)
_CHECKING = re.compile(r"(?<![\w'])let\s+me\s+(?:just\s+)?(?:check|ask)(?:(?:\s+with)?(?:\s+[a-z']+){1,5})?(?![\w'])")
"""A stall that says who or what is asked ("let me just check with the others", "let me ask my wife", "let me just
check friday's ok for her"): in normalised text."""
FOR_NOW = phrase_pattern(
    "yet",
    "hang on",
    "hold on",
    "one moment",
    "one sec",
    "one second",
    "just a moment",
    "just a second",
    "give me a second",
    "give me a sec",
    "give me a minute",
    "bear with me",
    "let me check",
    "let me find",
    "let me look",
    "let me get",
    "let me grab",
)
"""Words that make a "don't have" or "don't know" a pause ("I don't have the card with me right now, hang on"):
the user will give the value in a moment, it is no refusal ("I don't have it on me" alone still is one)."""
FILLER = phrase_pattern(
    "sound",  # British slang for fine, said before the answer: "sound, book it"
    "pls",
    "plz",
    "um",
    "umm",
    "uh",
    "hmm",
    "hmmm",
    "well",
    "so",
    "oh",
    "ok",
    "okay",
    "alright",
    "right",
    "sorry",
    "actually",
    "yeah",
    "yes",
    "sure",
    "please",
    "ah",
    "er",
    "erm",
    "oops",
    "no",
)
"""Words that may stand in front of a value and are no part of it ("um, Jane", "sorry, 251")."""

_LEAD = re.compile(r"^[\s,.!;:\-]*")
_HEAD = re.compile(r"[\w']+(?:\s+[\w']+){0,3}")


@dataclass(frozen=True, slots=True)
class Acts:
    """The acts of one message (see the module docstring); ``rest`` is the message from where a value may
    start, with its original case (greetings, thanks and filler in front removed)."""

    greet: bool
    thank: bool
    bye: bool
    affirm: bool
    deny: bool
    hedge: bool
    question: bool
    request: bool
    """A clause asks the agent to do something ("can you move it to tomorrow?", "the arm's snapped off, can I bring
    them in?"): at a free-text question it is the answer, and its other words may hold values."""
    dont_know: bool
    no_preference: bool
    preference_leads: bool
    """The no-preference starts the message ("whatever you have"): the message is no text value."""
    stall: bool
    for_now: bool
    """A don't-know or don't-have said for now ("not with me right now, hang on"): asked again, never a decline."""
    rest: str
    only_social: bool
    """Nothing but greetings, thanks, yes/no words and filler: no value can be in it."""

    @property
    def plain_yes(self) -> bool:
        """An unambiguous plain affirmation: a yes, nothing against it, nothing else said."""
        return (
            self.affirm
            and self.only_social
            and not (self.deny or self.hedge or self.question or self.dont_know or self.stall)
        )

    @property
    def plain_no(self) -> bool:
        return self.deny and self.only_social and not (self.affirm or self.question)

    @property
    def holds_no_value(self) -> bool:
        """The message cannot be the text value of a slot: a greeting, thanks, a question, a don't-know ..."""
        return self.only_social or self.question or self.dont_know or self.preference_leads or self.stall


_CALLED = TERMS_OF_ADDRESS | {"pet", "sweetheart", "buddy", "boss"}
"""What one calls the agent: the terms of address, and some that are names too, which only a yes before them tells
apart ("Buddy" alone is a dog)."""
ADDRESS_TERMS = re.compile(
    r"(?<![\w'])(?:yes|yeah|yep|ok|okay|right|thanks|thank\s+you|cheers|ta|please|lovely|hello|hi|morning)[\s,]+"
    rf"(?:my\s+)?(?:{'|'.join(map(re.escape, sorted(_CALLED, key=len, reverse=True)))})(?![\w'])",
    re.I,
)
"""What a customer calls the agent after a yes, thanks or a greeting ("yes thank you love", "cheers mate"): social,
no value (alone, "Buddy" may be a pet's name)."""
_SOCIAL = (ADDRESS_TERMS, GREETINGS, THANKS, BYE, AFFIRM, DENY, FILLER, STALL)


_TYPED_EMAIL = re.compile(r"[\w.+\-]+@[\w\-]+(?:\.[\w\-]+)+")
"""An email address as typed: its words are no acts ("nope@gmail.com" refuses nothing)."""


@lru_cache(maxsize=4096)
def read_acts(text: str) -> Acts:
    """The acts of ``text`` (cached; see :class:`Acts`)."""
    said = text  # what is left after the front's acts (``rest``) is what was said, the address whole
    text = _TYPED_EMAIL.sub(" ", text) if "@" in text else text
    norm = normalize(text.replace("\u2019", "'"))
    rest = _strip_front(said)
    leftover = norm
    for pattern in _SOCIAL:
        leftover = pattern.sub(" ", leftover)
    plain = GREETINGS.sub(" ", norm)  # "good evening" is no "good"
    # British "sound" alone, or with thanks ("sound cheers"), is fine by them: a yes; "the sound is bad" says none
    affirm = bool(AFFIRM.search(plain)) or (norm.split()[:1] == ["sound"] and not leftover.strip())
    # a polite tail is social only in a clause that says yes ("yes please, that'd be lovely")
    eager = [c for c in clauses(text) if _eager_clause(normalize(c))] if "wait" in norm or "forward" in norm else []
    only_social = not leftover.strip() or (
        affirm and all(_social_clause(normalize(c)) or c in eager for c in clauses(text))
    )
    # the "n't" and the "wait" of "can't wait to be running again" deny nothing and hedge nothing
    denied = normalize(" ".join(c for c in clauses(text) if c not in eager)) if eager else norm
    # A stall is a message that only stalls ("hmm let me think"); an "um" in front of a value is filler.
    stalled = (
        bool(STALL.search(norm) or _CHECKING.search(norm)) and not STALL.sub(" ", _CHECKING.sub(" ", leftover)).strip()
    )
    front = normalize(rest)
    question = (
        "?" in text
        or (bool(QUESTION_START.match(front)) and not _ADDRESS_FIRST.match(rest))  # "why@gmail.com" asks nothing
        or any(question_tag(clause) for clause in clauses(text))  # "terrible weather today, isn't it"
    )
    # "I don't know" says don't-know at the start of a message ("hmm, not sure yet"), not inside a statement
    # ("a transfer to an account I don't know").
    preference = [found for pattern in (NO_PREFERENCE, NO_PREFERENCE_FORMS) if (found := pattern.search(norm))]
    unsure = [
        found for said in (norm, normalize(rest)) if (found := DONT_KNOW.search(said)) and leads(said, found.start())
    ]
    return Acts(
        greet=bool(GREETINGS.search(norm)) and bool(GREETINGS.match(normalize(text))),
        thank=bool(THANKS.search(norm)),
        bye=bool(BYE.search(norm)),
        affirm=affirm,
        deny=bool(DENY.search(denied)) or "n't" in denied,
        hedge=bool(HEDGE.search(denied)),
        question=question,
        # a request in any clause ("the arm's snapped off my glasses, can I bring them in saturday?")
        request=bool(REQUEST_START.match(front)) or any(REQUEST_START.match(normalize(c)) for c in clauses(text)[1:]),
        dont_know=bool(unsure),
        no_preference=bool(preference),
        preference_leads=norm.count(" ") < SHORT_WORDS and any(leads(norm, found.start()) for found in preference),
        stall=stalled,
        for_now=bool(FOR_NOW.search(norm)) and (bool(unsure) or bool(_NOT_HAVE.search(norm))),
        rest=rest,
        only_social=only_social,
    )


_ANTICIPATES = re.compile(
    r"^(?:(?:and|oh|so|really|i|we|i'm|we're|am|are)\s+)*(?:(?:can't|cannot|can not)\s+wait|look(?:ing|s)?\s+forward)\b"
)
"""A clause of eagerness after a yes ("can't wait to be running again", "looking forward to it")."""
_NAMES_WHEN = re.compile(
    r"\d|\b(?:at|on|instead|actually|change|make|not|but|(?:mon|tues|wednes|thurs|fri|satur|sun)day|tomorrow|today|"
    r"tonight|morning|afternoon|evening|week|weekend|month)\b"
)
"""Words that may carry a value or a change, so that a clause with them is no mere eagerness."""


def _eager_clause(clause: str) -> bool:
    """Is a (normalised) clause only eagerness, with no word that may carry a value ("can't wait to see you on
    Friday" may move the day)?"""
    return _ANTICIPATES.match(clause) is not None and _NAMES_WHEN.search(clause) is None


def _social_clause(clause: str) -> bool:
    """Is a (normalised) clause nothing but social words, a yes with its polite frame counted as social?"""
    leftover = clause
    for pattern in _SOCIAL:
        leftover = pattern.sub(" ", leftover)
    if not leftover.strip() or not _URGENCY.sub(" ", leftover).strip():  # "yes please, asap": a tail of its own
        return True
    return bool(AFFIRM.search(GREETINGS.sub(" ", clause))) and not POLITE_TAIL.sub(" ", leftover).strip()


_NOT_HAVE = re.compile(r"(?<![\w'])(?:don't|do not|dont|can't|cannot|can not)\s+(?:have|find|get|see|reach)(?![\w'])")


def _strip_front(text: str) -> str:
    """``text`` without the greetings, thanks and filler in front of its value ("hi there, um, Jane" -> "Jane")."""
    rest = text.replace("\u2019", "'")
    while True:
        rest = _LEAD.sub("", rest)
        head = _HEAD.match(rest)
        if head is None:
            return rest.strip()
        for pattern in (GREETINGS, THANKS, FILLER):
            found = pattern.match(head.group().lower())
            if found is not None and (len(rest) == found.end() or not rest[found.end()].isalnum()):
                # a front word ends at punctuation or a space; "so" in "sofia" is no filler
                break
        else:
            return rest.strip()
        rest = rest[found.end() :]


_PAUSE = re.compile(
    r"\.\.+|\u2026|(?<![\w'])(?:hold on|hang on|wait|oh wait|ok(?:ay)?|ah|oh|actually|here it is|found it)(?![\w'])",
    re.I,
)
_UNSURE = (DONT_KNOW, STALL)


@lru_cache(maxsize=1024)
def second_thoughts(text: str) -> str | None:
    """What a message says after the user found the value they did not know at first ("hmm I don't know the booking
    number, let me check... ok it's 640" -> "it's 640"; "I'd rather not say my pin... ok fine, it's 2468"), or None
    when it has no such turn. The part before must say don't-know, stall or refuse; the part after must say more
    than filler."""
    pauses = list(_PAUSE.finditer(text))
    if not pauses:
        return None
    before = normalize(text[: pauses[-1].start()])
    if not (any(p.search(before) for p in _UNSURE) or _REFUSAL.search(before)):
        return None
    later = text[pauses[-1].end() :]
    found = read_acts(later)
    if found.only_social or found.dont_know or found.stall or not found.rest:
        return None
    return later.strip(" ,.;:!")


_REFUSAL = re.compile(r"(?<![\w'])(?:rather not|prefer not|won't say|not (?:going|willing) to)(?![\w'])")


_ASKS = re.compile(r"^(?!(?:what|how) about\b)(?:what|what's|whats|when|where|which|who|whom|whose|why|how|how's)\b")
"""A clause that asks the agent something ("how many does one box feed", "what sizes do you have")."""
_ADDRESS_FIRST = re.compile(
    r"^\s*(?:[^\s@]*@|[\w-]+(?:\s+(?:dot|underscore|dash|hyphen)\s+[\w-]+)*(?:\s+\d+)?\s+at\s+[\w-]+\s+dot\s+\w)", re.I
)
"""Text that starts with an email address, typed or read out, whose first word may be a question word
("why@gmail.com", "why at gmail dot com")."""


@lru_cache(maxsize=1024)
def without_questions(text: str) -> str:
    """``text`` without its clauses that ask a question ("not sure, how many does one box feed?" -> "not sure"): a
    question never gives a value, and what it names ("one box") is no answer; "what about 8?" proposes one."""
    parts = clauses(text)
    kept = [c for c in parts if not ((_ASKS.match(normalize(c)) and not _ADDRESS_FIRST.match(c)) or question_tag(c))]
    return text if len(kept) == len(parts) else ", ".join(kept)  # no question clause: the text as written


_BOUND_SAID = re.compile(
    r"\b(?:under|over|above|below|older\s+than|younger\s+than|aged|at\s+least|more\s+than|less\s+than|up\s+to)\s+"
    r"(?:\d{1,3}|" + "|".join(sorted((w for w, n in WORD_NUMBERS.items() if n <= 20), key=len, reverse=True)) + r")\b",
    re.I,
)
"""A bound a question says ("Will anyone in the group be under 12?", "anyone over 65?")."""


def without_echoes(text: str, question: str | None) -> str:
    """``text`` without the bounds of ``question`` it repeats ("neither of us is under 12" to "will anyone be under
    12?"): the question's number, no value of the reply."""
    echo = _echo_of(question or "")
    return text if echo is None else echo.sub(" ", text)


@lru_cache(maxsize=256)
def _echo_of(question: str) -> re.Pattern[str] | None:
    """The bounds ``question`` says, as said again in a reply (:data:`_BOUND_SAID`); None if it says none."""
    bounds = sorted({" ".join(found.group().casefold().split()) for found in _BOUND_SAID.finditer(question)})
    if not bounds:
        return None
    return re.compile("|".join(r"\b" + r"\s+".join(map(re.escape, bound.split())) + r"\b" for bound in bounds), re.I)


_DEFERRED = re.compile(
    r"^\W*(?:(?:the|my|our|that|this|those|these)\s+)?[\w'-]+(?:\s+[\w'-]+)?\s+(?:can|will\s+have\s+to|'ll\s+have\s+to)"
    r"\s+wait\b",
    re.I,
)
"""A clause putting a thing off ("the roof can wait", "the frames will have to wait"): the thing is not chosen."""


@lru_cache(maxsize=1024)
def without_deferred(text: str) -> str:
    """``text`` without its clauses that put a thing off ("make it the windows rather than the conservatory, the roof
    can wait" -> "make it the windows rather than the conservatory"): what they name is no value chosen."""
    parts = clauses(text)
    kept = [c for c in parts if not _DEFERRED.match(c)]
    return text if len(kept) == len(parts) else ", ".join(kept)


@lru_cache(maxsize=1024)
def split_negated(text: str) -> tuple[str, str]:
    """``text`` cut into what it says and what it rules out: the clauses with a "not" ("sure, just not at 7pm",
    "fine but not for 4 people", "I can't do Friday") go to the second part. A bare "no" in front of a value is
    a correction ("no, five people"), not a negation of it."""
    said: list[str] = []
    ruled_out: list[str] = []
    for clause in clauses(text):
        scope = negation_scope(clause)
        if scope is None:
            said.append(clause)
        else:  # "my e-bike's battery won't charge": the bike is said, only "won't charge" is negated
            if clause[:scope].strip():
                said.append(clause[:scope].strip())
            ruled_out.append(clause[scope:])
    return ", ".join(said), ", ".join(ruled_out)
