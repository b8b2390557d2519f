"""Text values: a free-text or name slot's value in a reply, without the words around it.

Moved out of ``understander.py`` (which calls these): whether the asked slot takes the reply's own words
(:func:`free_text`), the "my <slot> is" lead-in of a slot (:func:`slot_lead`), the cue words of a free-text value
inside a longer message (:func:`text_cue`), the value itself (:func:`string_value`) and a person's name in a
reply (:func:`read_name`).
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Protocol

from ...flow import Slot, SlotType, fold, search_regex
from ...language import (
    GREETING_PATTERN,
    LEAD_IN_PATTERN,
    SELF_INTRODUCTION_PATTERN,
    WORD_NUMBERS,
    Acts,
    correction_end,
    find_name,
    introduced_name,
    name_at,
    names_a_relative,
    only_refuses,
    read_acts,
    says_only_when,
    without_ruled_out,
)
from ...language.names import MAX_NAME_WORDS, TITLES, is_name
from ...language.text import FUNCTION_WORDS, SENTENCE_BREAK
from ...slots import KINDS
from ..base import Parse, UnderstandingState
from .coverage import FILLER_WORDS
from .forms import names_a_number

__all__ = [
    "TEXT_END",
    "NameTables",
    "describes",
    "free_text",
    "names_nothing",
    "pattern_value",
    "read_name",
    "slot_lead",
    "string_value",
    "text_cue",
]


class NameTables(Protocol):
    """What these readers need of the rules' tables for one state."""

    @property
    def asked(self) -> Slot | None: ...
    @property
    def name_slot(self) -> Slot | None: ...
    @property
    def name_given(self) -> bool: ...
    @property
    def any_value(self) -> re.Pattern[str] | None: ...


def read_name(state: UnderstandingState, tables: NameTables, acts: Acts, parse: Parse, text: str = "") -> bool:
    """The flow's person's name said in the reply (``text``, whose acts are ``acts``), into ``parse``; True when the
    name was asked (the reply then gives no other value: no name in it is asked again, never the whole text)."""
    asked = tables.asked
    # a reply whose front, left out of ``acts.rest``, puts something right ("sorry, it's Joanne Harding"): at a
    # confirmation, a full name said after it is the name put right
    corrects = 0 <= correction_end(text) <= len(text) - len(acts.rest) + 1
    if tables.name_slot is not None and tables.name_slot.name not in parse.slots:
        # A name said after words that introduce one, at any point ("yes, but the name should be Bob Smith");
        # for the name just asked, also the reply's first clause ("Priya, I'd like to make a reservation").
        # Only a name after words that introduce it is certain (the model path keeps it); one read from the
        # first clause of the reply is a reading the model may still make better.
        name_asked = asked is tables.name_slot
        other_name = (
            asked is not None
            and asked is not tables.name_slot
            and (slot_lead(asked.name, asked.description)[1] or names_an_organisation(asked))
        )
        # Only a name after words that introduce it ("my name is") is certain; a self-introduction ("I'm Ada")
        # is read, as the first clause is, but a model may still read it better.
        corrected = _last_said_first(acts.rest)  # "it's Lucy Marsh... sorry, Lucy Marshall": the last one meant
        # the name asked may be a later sentence's answer ("can we make it 8 instead? it's Jane Clarke")
        later = _later_sentences(acts.rest) if name_asked else []
        for said in [*corrected, *later]:
            cued = find_name(said, False, False, state.confirm is not None, not other_name)
            name = (
                cued
                or (find_name(said, False) if not other_name and not tables.name_given else None)
                or (find_name(said, True) if name_asked and (said in later or not acts.holds_no_value) else None)
                # A full name introduced before the name is asked ("hi, this is Lisa Gray, I need ..."), never at a
                # confirmation, nor for someone else's name slot when the booking is a relative's ("I'm Sarah
                # Knight, ... for my son": the student's name is asked)
                or (
                    introduced_name(said)
                    if not other_name
                    and tables.name_given
                    and state.confirm is None
                    and not (names_a_relative(said) and _someone_elses(tables.name_slot))
                    else None
                )
                # A reply that is nothing but a full name, capitalised, while another question is asked ("Lucy
                # Fairbrother" to "where will the things be?"): the name, as a phone number said then is the phone;
                # at a confirmation, only said again after a self-correction ("my name's Joanne, not Jo, sorry -
                # Joanne Harding")
                or (
                    bare_full_name(said, lead_in=state.confirm is not None)
                    if not other_name
                    and not name_asked
                    and (state.confirm is None or said is not acts.rest or corrects)
                    else None
                )
            )
            if name is not None:
                if said is not acts.rest and said not in later and name in said:
                    cued = name  # said again after "sorry": as certain as a name after "my name is"
                break
        if name is not None and cued is None and (_another_slots_value(state, name) or _flow_words_only(state, name)):
            name = None  # "city" answered to the name question is another slot's value, no one's name
        if name is not None and cued is not None and _names_a_slot(state, name):
            name = None  # "not under guarantee": "under" cues a name ("a table under Smith"), not here
        if name is not None:
            parse.slots[tables.name_slot.name] = name  # whole: over max_length is refused, never cut
            if cued is not None:
                parse.info.setdefault("cued", []).append(tables.name_slot.name)
        if name_asked:
            return True  # no name in the reply: asked again, never the whole text
    return False


def bare_full_name(said: str, lead_in: bool = False) -> str | None:
    """``said`` when it is nothing but a person's full name written capitalised (two or three words, "Lucy
    Fairbrother", "Chris O'Neill"), else None. ``lead_in``: after "it's" too, and before a short remark of no
    capitalised word ("it's Siobhan Kelly-Dunne, double barrelled": said again to put a name right)."""
    if lead_in:
        said, _, remark = LEAD_IN_PATTERN.sub("", said.strip(), count=1).partition(",")
        if len(remark.split()) > 3 or any(word[:1].isupper() for word in remark.split()):
            return None
    words = said.strip().rstrip(".!").split()
    if not 2 <= len(words) <= 3 or not all(
        re.fullmatch(r"[A-Z][a-z]*(?:['\-][A-Z]?[a-z]+)*|Ma?c[A-Z][a-z]+", w) for w in words
    ):
        return None
    return " ".join(words) if is_name(words) else None


_OWN_NAME_WORDS = frozenset("name full first last sur customer caller booker contact your my lead".split())


def _someone_elses(slot: Slot) -> bool:
    """Is ``slot`` the name of someone other than the caller (a student's, a patient's: a word of its name beside
    "name" says whose), not the customer's own?"""
    return bool(
        set(re.findall(r"[a-z]+", f"{slot.name.replace('_', ' ')} {slot.label or ''}".casefold())) - _OWN_NAME_WORDS
    )


def _last_said_first(text: str) -> list[str]:
    """The words after the message's last self-correction, if any, then the whole message: a name said again after
    "sorry", "no wait" is the one meant."""
    cut = correction_end(text)
    if not 0 < cut < len(text.rstrip()):
        return [text]
    return [_JOINING.sub("", text[cut:]), text]  # "..., sorry. and it's Jack Turner": "it's Jack Turner"


def _later_sentences(text: str) -> list[str]:
    """The sentences of ``text`` after its first that may hold a value ("can we make it 8 instead? it's Jane Clarke":
    "it's Jane Clarke"; never a question, thanks or a greeting)."""
    return [
        said for said in SENTENCE_BREAK.split(text.strip())[1:] if said.strip() and not read_acts(said).holds_no_value
    ]


_JOINING = re.compile(r"^[\s.,;:!?\-]*(?:(?:and|also|oh|so|but)\b[\s,]*)*", re.I)
"""What joins the words after a self-correction to it: punctuation and "and", "also", "so"."""


def _another_slots_value(state: UnderstandingState, name: str) -> bool:
    """Is ``name`` a value of a categorical slot whose values are not people's names ("city" of a bike type; "Mark"
    of the driver names a ride flow lists is still a name)?"""
    said = fold(name)
    return any(
        any(fold(str(value)) == said for value in slot.values or ())
        for slot in state.slots
        if slot.type is SlotType.categorical and not slot_lead(slot.name, slot.description)[1]
    )


def _flow_words_only(state: UnderstandingState, name: str) -> bool:
    """Is every word of ``name`` (its title aside) a word of the flow's own text: its context, or the names,
    descriptions, questions, examples and values of its slots that are no names ("Sheffield" where the business is in
    Sheffield and its address examples name the town; "Hollis" of "Hollis Pest Control"; "guarantee" of "not under
    guarantee", the slot under_guarantee)?"""
    own = [word.casefold() for word in name.replace("\u2019", "'").split() if word.casefold().rstrip(".") not in TITLES]
    words = _flow_words(
        state.context,
        tuple(
            " ".join(
                [
                    slot.name.replace("_", " "),
                    slot.description,
                    slot.label or "",
                    slot.ask or "",
                    *map(str, slot.examples),
                ]
                + [str(value) for value in slot.values or ()]
            )
            for slot in state.slots
            if slot is not state.person_name and not slot_lead(slot.name, slot.description)[1]
        ),
    )
    return bool(own) and all(word in words for word in own)


def _names_a_slot(state: UnderstandingState, name: str) -> bool:
    """Is ``name`` one word of the name of one of the flow's slots ("guarantee" of under_guarantee)?"""
    word = fold(name)
    return " " not in word and any(word in slot.name.casefold().split("_") for slot in state.slots)


@lru_cache(maxsize=256)
def _flow_words(context: str, texts: tuple[str, ...]) -> frozenset[str]:
    return frozenset(word.casefold() for text in (context, *texts) for word in _FLOW_WORD.findall(text))


_FLOW_WORD = re.compile(r"[^\W\d_][\w'\-]*")


_DESCRIPTIVE = re.compile(
    r"\b(?:descri[bp]\w*|details?|problems?|issues?|faults?|symptoms?|happened|reasons?|notes?|comments?|messages?|"
    r"reports?|what's wrong|what is wrong|complaints?|should\s+know)\b",
    re.I,
)
"""Words of a slot that asks for a description (of a fault, of what happened) rather than for a value."""


def describes(acts: Acts, text: str) -> bool:
    """Does a reply to a free-text question say something ("can you move it to tomorrow?", "not sure really, a
    knocking from underneath"), though it asks or starts with a don't-know?"""
    return (
        acts.request
        or (acts.dont_know and not (acts.only_social or acts.question or acts.stall) and not only_refuses(text))
        or _states_first(text)
    )


def _states_first(text: str) -> bool:
    """Does ``text`` say something in a sentence of its own before it asks ("its the hen party like I said, the bride
    is Rosie. can we do a pink theme?")? The statement describes; the question goes with it."""
    sentences = SENTENCE_BREAK.split(text.strip())
    if len(sentences) < 2:
        return False
    first = read_acts(sentences[0])
    return not (first.holds_no_value or first.hedge) and len(re.findall(r"[\w']+", first.rest or "")) >= 3


def descriptive(slot: Slot | None) -> bool:
    """Does ``slot`` ask the customer to describe something ("problem", "Detailed description of the fraud")? Its
    answer may start with a don't-know and go on to describe ("not sure really, a knocking from underneath"); a
    don't-know to any other question ("I can't remember it, there are too many numbers") is a don't-know."""
    if slot is None:
        return False
    return _DESCRIPTIVE.search(f"{slot.name.replace('_', ' ')} {slot.description} {slot.label or ''}") is not None


_CHANGE_WORDS = re.compile(r"\b(?:chang\w*|modif\w*|amend\w*|alter\w*|updat\w*)", re.I)


def asks_for_a_change(slot: Slot) -> bool:
    """Does ``slot`` ask what to change ("Sure, what can I change for you?")? Its answer is a change request."""
    return _CHANGE_WORDS.search(f"{slot.name.replace('_', ' ')} {slot.description} {slot.ask or ''}") is not None


def pattern_value(slot: Slot, text: str) -> str | None:
    """The part of the text that has the slot's form ("it's 1234, I think" -> "1234")."""
    found = _search_pattern(slot.pattern or "").search(text)
    return found.group() if found else None


@lru_cache(maxsize=1024)
def _search_pattern(pattern: str) -> re.Pattern[str]:
    # flow.search_regex moves anchors and global flags out properly: "[0-9]+\\$" keeps its dollar.
    return search_regex(pattern)


_ORGANISATION = re.compile(
    r"(?<![a-z])(?:company|companies|organi[sz]ations?|business|firm|employer|school|club|charity|society)(?![a-z])"
)


def names_an_organisation(slot: Slot) -> bool:
    """Is ``slot`` the name of a company, school or club (its name or label says so)? Its answer is a proper name
    ("Hallam Architects"), no person's."""
    return KINDS[slot.type].whole_text and _organisation_named(slot.name, slot.label or "")


@lru_cache(maxsize=256)
def _organisation_named(name: str, label: str) -> bool:
    return _ORGANISATION.search(f"{name.replace('_', ' ')} {label}".casefold()) is not None


@lru_cache(maxsize=1024)
def slot_lead(name: str, description: str = "") -> tuple[re.Pattern[str] | None, bool]:
    """The "my <slot words> is" lead-in pattern of a slot, and whether the slot is a name (its name says so, or its
    description starts "Name of ...")."""
    words = [w for w in re.split(r"[_\W]+", name.lower()) if len(w) > 2]
    if re.match(r"\W*name\b", description, re.I) and "name" not in words:
        words.append("name")
    if not words:
        return None, False
    own = [w for w in words if w != "name"] or words
    pattern = (
        r"(?:^|(?<=[,;.!?]\s)|(?<=\band\s))(?:(?:my|the|our|his|her|their|your|its)\s+)?(?:[\w']+\s+){0,2}?"
        r"(?:" + "|".join(re.escape(w) + r"(?:'s|s)?" for w in own) + r")(?:\s+name)?\s*(?:\s(?:is|are|was|were|"
        r"should be|will be)|'s)\s+"
    )
    return re.compile(pattern, re.I), "name" in words


_FILLER_FRONT = re.compile(
    r"^(?:(?:um+|uhm*|erm*|hmm+|ah|oh|well|so|ok(?:ay)?|right|sorry|yes|yeah|no)\s*[,.!\u2026-]+\s*)+", re.I
)
"""Filler set off in front of a value ("um, it's 5 Oak Road"); "no heat from the radiator" keeps its "no"."""
_CALLED = re.compile(r"(?<![\w'])(?:called|named|(?:his|her|its|their|the) name (?:is|was)|name's)\s+", re.I)
"""Words that introduce a name inside the answer to a name question ("a dog called Buddy")."""
_FOR_FROM = re.compile(r"^(?:(?:we'?re|we\s+are|i'?m|i\s+am)\s+)?(?:for|from|with|at)\s+(?=[A-Z0-9])")
"""The words in front of an organisation's name ("for Hallam Architects", "we're from Castlegate")."""
_SEND_TO = re.compile(
    r"^(?:(?:please\s+)?(?:send|deliver|bring|ship)\s+(?:it|them|that|the \w+)\s+)?to\s+(?=\w*\d)", re.I
)
"""The words in front of an address ("Please send it to 18 Harbour View", "to 221B Baker Street")."""


TEXT_END = re.compile(
    r"[?!;]|\.(?:\s|$)|\s+(?:on|at|for|by|from|tomorrow|today|tonight|next|this|please)\b|,\s*(?:name|my|number|phone|"
    r"and|it's|i'm|call|email|on|at|for|tomorrow|today)\b",
    re.I,
)


@lru_cache(maxsize=256)
def text_cue(name: str, label: str) -> re.Pattern[str] | None:
    """The words that introduce a free-text slot's value inside a longer message: "my address is", and for an
    address, "deliver(ed) to" / "send it to" before a house number."""
    words = {w for w in re.split(r"[_\W]+", f"{name} {label}".casefold()) if len(w) > 3}
    if "address" not in words:
        return None
    return re.compile(
        r"(?<![\w'])(?:(?:my|the|our)\s+(?:delivery\s+)?address\s+(?:is|will be|should be)\s+|"
        r"(?:deliver(?:ed)?|send|sent|bring|brought|ship(?:ped)?)\s+(?:[\w']+\s+){0,4}?to\s+(?=\w*\d))",
        re.I,
    )


_DATED = re.compile(r"\b(?:dates?|dob|birth|birthday|days?|when|times?|years?)\b", re.I)
"""Words of a text slot asking a moment (a date of birth): a moment is its answer."""


def names_nothing(asked: Slot | None, own_values: re.Pattern[str] | None, text: str) -> bool:
    """Is ``text``, said to the free-text question ``asked`` that wants no description (a thing's name, "which phone
    is it?"), nothing but a moment ("first thing, 9 o'clock") or categorical values of the flow by their own names
    (``own_values``) and filler ("original please")? It is then no name of the thing. A synonym is no such value ("a
    sofa and a table", asked which things, where furniture lists them); a moment is the answer to a slot that names a
    date or a time ("February 3 1927" to a text slot asking a date of birth)."""
    if asked is None or descriptive(asked):
        return False
    if (
        not _DATED.search(f"{asked.name.replace('_', ' ')} {asked.label or ''} {asked.description}")
        and says_only_when(text)
        and any(word not in WORD_NUMBERS for word in re.findall(r"[a-z']+", text.casefold()))
    ):
        return True  # a bare "3" or "eleven" may be a value of the slot; "tomorrow at 3" is none
    if own_values is None or not own_values.search(folded := fold(text)):
        return False
    left = re.findall(r"[a-z']+", own_values.sub(" ", folded))
    return all(word in FUNCTION_WORDS or word in FILLER_WORDS for word in left)


def free_text(tables: NameTables, asked: Slot | None) -> bool:
    """Is ``asked`` a free-text slot (a string without pattern, no person's name, not named as a number): its answer
    is the whole text."""
    return (
        asked is not None
        and KINDS[asked.type].whole_text
        and asked.pattern is None
        and not names_a_number(asked)
        and asked is not tables.name_slot
        and not slot_lead(asked.name, asked.description)[1]
    )


_KIND_SLOT = re.compile(
    r"\b(?:categor(?:y|ies)|genres?|kinds?|types?|cuisines?|styles?|sub\s?categor(?:y|ies))\b", re.I
)
"""Words of a slot that asks what kind of thing (a cuisine, a genre, a category of event)."""
_KIND_AROUND = frozenset(
    """i i'd i'm i'll we we'd we're want wanna would like love prefer preferably need some something somewhere a an the
    to have eat try find get see watch hear listen go with into craving can only really just maybe serving serves that
    any good nice enjoy fond of am is are be kind type sort genre category style please thanks food foods cuisine
    movie movies film films music song songs event events show shows place places restaurant restaurants dish dishes
    one ones information info stuff wish wishing look looking for me show search""".split()
)
"""Words around the kind itself in an answer ("I want some Korean food", "Try the drama", "Funny movies, please")."""


def kind_value(slot: Slot, text: str) -> str | None:
    """The kind a reply names for a slot asking what kind of thing ("I'm craving pizza and pasta!" -> "pizza and
    pasta"): its first clause without the words around the kind; None for another slot, or when nothing or more than
    four words are left."""
    if _KIND_SLOT.search(f"{slot.name.replace('_', ' ')} {slot.description} {slot.label or ''}") is None:
        return None
    clause = re.split(r"[,.;!?]", text.strip(), maxsplit=1)[0]
    words = clause.split()
    while words and words[0].casefold() in _KIND_AROUND:
        words.pop(0)
    while words and words[-1].casefold() in _KIND_AROUND:
        words.pop()
    return " ".join(words) if 0 < len(words) <= 4 else None


_NO_NAME = re.compile(
    r"(?<![\w'])(?:i|i'm|i've|he|he's|she|she's|it|it's|they|they're|we|we're|you|is|are|was|were|has|have|had|been|"
    r"does|did|comes|weighs|gets|goes)(?![\w'])",
    re.I,
)
"""Words of a sentence about someone, never of a name ("he comes every couple of months", "she weighs 24 kilos")."""


_FIRST_PART = re.compile(r"\s+[-–—]+\s+|[,;.!?]")
"""Where the first part of a reply ends: a name said first, then something about it."""
_WAS = re.compile(r"^(?:it|that)\s+was\s+", re.I)
"""A name said in the past ("It was Miller." to the mother's maiden name): the name is what follows."""


def names_someone(value: str) -> bool:
    """May ``value`` be a name (a pet's, a person's): one to four words, not only digits, no sentence about someone?"""
    words = value.split()
    return 0 < len(words) <= MAX_NAME_WORDS and not value.replace(" ", "").isdigit() and _NO_NAME.search(value) is None


def _bare(value: str) -> str:
    """``value`` without the filler and lead-in in front of it ("uh, it's Pickles" -> "Pickles")."""
    return _FILLER_FRONT.sub("", LEAD_IN_PATTERN.sub("", value)).strip().rstrip(".!")


def string_value(slot: Slot, text: str) -> str | None:
    """The value of text slot ``slot`` that ``text`` answers; None for a name slot answered with no name ("he comes
    every couple of months", "12" at "what's your dog's name?": asked again, never stored)."""
    value = text.strip()
    if not descriptive(slot) and (kind := kind_value(slot, value)) is not None:
        return kind
    if slot.pattern is not None and not re.fullmatch(slot.pattern, value):
        found = pattern_value(slot, value)
        if found is not None:
            return found
    # "my name is X" for a slot called *name*: keep X.
    lead, is_name = slot_lead(slot.name, slot.description)
    value = GREETING_PATTERN.sub("", value)
    cue = lead.match(value) if lead is not None else None
    cue = cue or (_CALLED.search(value) if is_name else None)
    if cue is not None:  # "her maiden name was Miller", "we had a dog called Buddy": the name after the cue
        return name_at(value[cue.end() :]) or value[cue.end() :].strip().rstrip(".!")
    if is_name:  # "I'm Jane", "this is Jane", "it was Miller" answer a name
        value = _WAS.sub("", SELF_INTRODUCTION_PATTERN.sub("", value))
        if not names_someone(_bare(value)):
            spaced = " ".join(value.split())
            inside = lead.search(spaced) if lead is not None else None  # "... My mother's maiden name is Miller"
            if inside is not None and (name := name_at(spaced[inside.end() :])) is not None:
                return name
            first = _FIRST_PART.split(value, maxsplit=1)[0]  # "Lola, she's a cockapoo", "Sanders - I hope ..."
            named = _bare(first)
            filler = all(fold(word) in FILLER_WORDS or fold(word) in FUNCTION_WORDS for word in named.split())
            return named if named != value and not filler and names_someone(named) else None
    value = _FILLER_FRONT.sub("", value)
    value = LEAD_IN_PATTERN.sub("", value).strip().rstrip(".!")
    value = _SEND_TO.sub("", value)
    if names_an_organisation(slot):  # "it's for Hallam Architects", "we're from Castlegate Solicitors"
        value = _FOR_FROM.sub("", value)
    value = without_ruled_out(value)  # "Church Lane, not Church Street": the one put in place
    return value or text.strip()  # whole: a value over max_length is refused and asked again, never cut
