"""What a message states as a whole, read clause by clause: a give-up, a refusal, a statement of the task.

A text value is the reply's own words, so it must first be a reply: "never mind, forget it" gives up, "I'd like to
book an airport transfer please" says what the customer wants done, "I don't know" refuses. A clause that says more
than these ("I lost my wallet on Saturday and someone used my card") describes, and a description is the value.
"""

from __future__ import annotations

import re
from functools import lru_cache

from .acts import AFFIRM, DENY, DONT_KNOW, FILLER, GREETINGS, THANKS, WORKS_FOR_ME, phrase_pattern, read_acts
from .addresses import RULED_OUT_AFTER
from .clauses import clauses
from .phrases import DECLINE_PATTERN
from .text import normalize

GIVE_UP = phrase_pattern(
    "never mind",
    "nevermind",
    "forget it",
    "forget about it",
    "forget the whole thing",
    "don't bother",
    "do not bother",
    "not bother",
    "leave it",
    "skip it",
    "drop it",
    "i give up",
    "i'll leave it",
    "i will leave it",
    "i'll leave it there",
    "i changed my mind",
    "i've changed my mind",
    "changed my mind",
    "no longer needed",
    "not needed anymore",
    "don't need it anymore",
)
"""Phrases that drop the whole request ("never mind", "forget it", "don't bother")."""
_GIVE_UP_FRAME = phrase_pattern(
    "then", "now", "actually", "it's ok", "it's fine", "that's ok", "that's fine", "oh", "ah"
)
"""Words around a give-up that say nothing more ("oh never mind then", "it's ok, forget it")."""
APPRAISAL = phrase_pattern(
    "good",
    "great",
    "perfect",
    "fine",
    "lovely",
    "excellent",
    "wonderful",
    "brilliant",
    "sounds good",
    "sounds great",
    "sounds perfect",
    "looks good",
    "looks great",
    "all good",
    "all fine",
    "all looks good",
    *WORKS_FOR_ME,
)
"""Words that judge what was just said or shown ("that sounds good", "that'd be perfect") rather than answer a
question with a yes."""
_ACKNOWLEDGE = phrase_pattern("ok", "okay", "alright", "all right")
"""Words that take in what was said ("alright, that sounds good"): with an appraisal they still judge, not answer."""
MORE_OF_THE_SAME = re.compile(
    r"(?<![\w'])(?:any\s*more|some\s*more|anything\s+else|something\s+else|anyone\s+else|another)(?![\w'])", re.I
)
"""A question offering more of what the customer has just had ("would you like to search for any more
restaurants?", "is there anything else I can do for you?")."""
_SOCIAL = (GREETINGS, THANKS, FILLER, DENY, AFFIRM)
REFUSAL_WORDS = 3
"""A refusal refuses while the message says at most this many other words ("I don't know it, sorry")."""
TASK_STATEMENT = re.compile(
    r"^(?:(?:hi|hello|hey|yes|ok|okay|so|well)\s+)*(?:please\s+)?"
    r"(?:(?:i\s*(?:would|'d|d)\s+(?:like|love)\s+to|i\s+(?:want|need|wanna|wish)(?:\s+to)?|"
    r"i\s*(?:am|'m|m)\s+(?:looking|trying|hoping|calling|ringing|phoning|writing)\s+to|i\s+have\s+to|"
    r"(?:can|could|would|will)\s+(?:you|i|we)\s+(?:please\s+)?(?:help\s+me\s+)?|help\s+me(?:\s+to)?)\s*)"
    r"(?:book|reserve|arrange|schedule|order|organi[sz]e|set up|report|"
    r"make\s+(?:a|an)\s+(?:booking|reservation|appointment|order|report))(?![\w'])"
)
"""A clause that asks for a booking, an order or a report ("I'd like to book an airport transfer", "hi, I need to
book an MOT", "I'm calling to report a fraud", "can I book a clean"): the task the customer wants done, never the
answer to one of its questions. A change asked for ("can you change the destination to the airport") answers "what
shall I change?", and is no statement of the task."""


def _left(clause: str, *patterns: re.Pattern[str]) -> list[str]:
    for pattern in patterns:
        clause = pattern.sub(" ", clause)
    return clause.split()


@lru_cache(maxsize=1024)
def gives_up(text: str) -> bool:
    """Does ``text`` drop the request and say nothing else ("never mind, forget it", "oh forget it then")?"""
    parts = [normalize(clause) for clause in clauses(text)]
    return any(GIVE_UP.search(part) for part in parts) and all(
        not _left(part, GIVE_UP, _GIVE_UP_FRAME, *_SOCIAL) for part in parts
    )


@lru_cache(maxsize=1024)
def only_appraises(text: str) -> bool:
    """Is ``text`` a yes made only of an appraisal ("that sounds good", "alright, that's great, thanks"): no yes word
    proper ("yes", "sure", "please", "go ahead")? An appraisal judges what the bot has just said or found."""
    if not read_acts(text).plain_yes:
        return False
    said = GREETINGS.sub(" ", normalize(text.replace("\u2019", "'")))
    return bool(APPRAISAL.search(said)) and not AFFIRM.search(_ACKNOWLEDGE.sub(" ", APPRAISAL.sub(" ", said)))


def content_with_what_they_have(question: str, text: str) -> bool:
    """Is ``text`` an appraisal ("that sounds great, thanks") answering an offer of more of the same ("would you
    like to search for any more restaurants?", "anything else?")? It judges what the customer already has, and is
    no yes to more (to an offer of one thing, "shall I book it?", the same words are a yes). Only the question the
    bot's message ends with counts (a search result told before it may say "another")."""
    asked = _LAST_SENTENCE.search(question.strip())
    return only_appraises(text) and bool(asked and MORE_OF_THE_SAME.search(asked.group(0)))


_LAST_SENTENCE = re.compile(r"[^.!?]*[.!?]*$")


@lru_cache(maxsize=1024)
def only_refuses(text: str) -> bool:
    """Does ``text`` refuse or not know, and say nothing more ("not sure, sorry", "I don't have it with me")? A
    message with a clause that says more is a description ("I lost my wallet on Saturday and someone used my
    card", "not sure really, a sort of knocking from underneath")."""
    said = normalize(text)
    refuses = any(pattern.search(said) for pattern in (DECLINE_PATTERN, DONT_KNOW))
    return refuses and len(_left(said, DECLINE_PATTERN, DONT_KNOW, *_SOCIAL)) <= REFUSAL_WORDS


@lru_cache(maxsize=1024)
def without_task_statements(text: str) -> str:
    """``text`` without its clauses that state the task ("hi, I need to book an MOT, the clutch is slipping" -> "the
    clutch is slipping"); empty when it is nothing else. A clause with a digit in it stays ("I need to book a pickup
    from 12 Elm Street"): what it names may be the value."""
    parts = clauses(text)
    kept = [c for c in parts if not (TASK_STATEMENT.match(_front(normalize(c))) and not re.search(r"\d", c))]
    return text if len(kept) == len(parts) else ", ".join(kept)


def _front(norm: str) -> str:
    """A normalised clause from its first word that is no greeting or filler ("hi there so i need" -> "i need")."""
    while True:
        found = GREETINGS.match(norm) or FILLER.match(norm) or THANKS.match(norm)
        if found is None or found.end() == 0:
            return norm
        norm = norm[found.end() :].lstrip()


_RULED_OUT_TAIL = re.compile(r"(?=[,;])" + RULED_OUT_AFTER.pattern + r"[^,;.!?]+[.!?]*\s*$", re.I)


def without_ruled_out(text: str) -> str:
    """A text value without the one it was put in place of, said after it ("Church Lane, not Church Street" ->
    "Church Lane"): the address's reading of "12 Elm Street, not 21", for every text value."""
    tail = _RULED_OUT_TAIL.search(text)
    return text[: tail.start()].rstrip() if tail is not None and tail.start() > 0 else text
