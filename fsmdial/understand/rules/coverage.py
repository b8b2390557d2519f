"""Coverage: which words of a message the rules' reading accounts for, and what is left open.

A reading accounts for a word when the word is part of a value it read (a number it read, the words of a date
or time when it read one, the words of a text value, a categorical value's own words or the synonyms its slot's
description lists), an act or filler word ("yes", "thanks", "um", "please"), a function word, a word of the
intent it read (its examples), or a cue word naming a slot ("the registration is ..."). The rest is the turn's
**open part** (:func:`open_words`): words the rules read nothing from. "it has a big battery" at a bike-type
question leaves "big battery" open; "make that 5" at a confirmation leaves "5" open (the rules read no change).

The model path asks the model only when something is open (the fast path and the no-decision exit stand
otherwise), and the open part widens what the model is offered (all the asked categorical slot's values, the
state's intents, a change to a held slot at a confirmation: :mod:`fsmdial.understand.constraint.schema`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from ...flow import Slot, SlotType
from ...language import MONTHS, NEGATIVE_WORDS, POSITIVE_WORDS, WEEKDAYS, WORD_NUMBERS, find_numbers, fold
from ...language.amounts import find_durations
from ...language.choices import described_synonyms
from ...language.text import FUNCTION_WORDS
from ..base import CONTINUE, Parse, UnderstandingState
from .day_values import weekday_values

_WORD = re.compile(r"\w+(?:['\u2019]\w+)*")

FILLER_WORDS = frozenset(
    """um umm uhm er erm hmm hm ah ahh oh ooh so well right alright great good fine lovely perfect cool cheers ta
    mate guys please pls plz thanks thank thx cheers sorry believe sound hiya morning afternoon evening yep yup yh
    yeah nope nah sure
    certainly absolutely definitely correct exactly that's thats go ahead sounds works work fine i'll i'd we'll
    we'd let's lets think reckon guess maybe perhaps probably kind sort got get would like love okay ok k
    wait hang hold on sec second moment bit quick quickly just only mind know don't dont it'd it'll that'll
    there's theres he she they them their his her hers him then that'd that'll thing things""".split()
)
"""Words that say no value on their own (filler, politeness, hedges): never the open part."""

DATE_TIME_WORDS = frozenset(
    {*WEEKDAYS, *MONTHS, *(day[:3] for day in WEEKDAYS), *(month[:3] for month in MONTHS)}
    | set(
        """today tonight tomorrow tomorow tmrw yesterday morning afternoon evening night noon midday midnight am pm
        o'clock oclock week weeks weekend day days month months next this coming following half past quarter ish
        early late earlier later earliest possible first thing lunchtime lunch teatime st nd rd th sat sun mon tue
        tues wed thu thur
        thurs fri hour hours minute minutes mins min hrs hr after before from until till by fortnight fortnights
        """.split()
    )
)
"""Words of a date, time or length of time: accounted for when the reading has such a value."""

_SPOKEN_DIGITS = frozenset(
    {"oh", "o", "double", "triple", "treble", "zero", "nought", "dot", "at", "underscore", "dash", "hyphen"}
)
"""Words of digits and of an address's signs said one by one ("oh seven seven double oh", "jo dot smith at gmail dot
com"): accounted for when the reading has a phone number, an email or a reference."""
_CLOCK = re.compile(r"(\d{1,2})(?:[:.]\d{2})?(?:am|pm|h)?")
COUNTED_WORDS = frozenset(
    """people person persons guests guest adults kids children pax party us of times piece duo trio quartet
    quintet""".split()
)
"""What a number counts ("4 people"): accounted for when the reading has a number."""
_ORDINAL = re.compile(r"(\d{1,2})(?:st|nd|rd|th)")
_TIMED = frozenset({SlotType.date, SlotType.time, SlotType.duration})


def words(text: str) -> list[str]:
    """The words of ``text`` as written, in order."""
    return _WORD.findall(text)


@lru_cache(maxsize=8192)
def _key(word: str) -> str:
    key = fold(word).replace("\u2019", "'")
    return "yes" if _DRAWN_OUT_YES.fullmatch(key) else key


_DRAWN_OUT_YES = re.compile(r"yes{2,}|yeah{2,}|ye")
"""A yes typed long or short ("yess", "yeahhh", "ye")."""


def _alnum(text: str) -> str:
    return re.sub(r"[\W_]+", "", fold(str(text)))


def _stem(word: str) -> str:
    return word[:4] if len(word) > 4 else word


def open_words(state: UnderstandingState, text: str, parse: Parse) -> tuple[str, ...]:
    """The words of ``text`` that ``parse`` (the rules' reading of it at ``state``) does not account for."""
    said = words(text)
    if not said:
        return ()
    changed = parse.slots or parse.negated or parse.info.get("change") or parse.info.get("name_part")
    read_nothing = not (changed or parse.intent or parse.answer or parse.choice)
    unanswered = state.confirm is not None and parse.answer is None and parse.choice is None and not changed
    if read_nothing or unanswered:
        # Nothing was read, or a pending question got no answer ("hello there" as no intent; "wait, are you open
        # on sundays?" at a confirmation): its filler and act words account for nothing read, so every word but
        # the function words is open, and the model (when there is one) decides.
        return tuple(word for word in said if _key(word) not in FUNCTION_WORDS) or tuple(said)
    covered = set(FUNCTION_WORDS | FILLER_WORDS | POSITIVE_WORDS | NEGATIVE_WORDS)
    stems: set[str] = set()
    cues: set[str] = set()
    for each in state.slots:  # cue words: the slot's name and label name it ("reg", "dropping"), they are no value
        cues.update(_key(word) for word in words(each.name.replace("_", " ") + " " + (each.label or "")))
    covered |= cues
    stems.update(_stem(cue) for cue in cues if len(cue) > 3)
    # A word of 3+ letters that begins a cue word ("reg" of "registration"): every such beginning, looked up once
    # per word (a long reply has hundreds of words and a flow dozens of cues).
    cue_starts = {cue[:end] for cue in cues for end in range(3, len(cue) + 1)}
    numbers: set[Any] = set()
    texts: list[str] = []
    timed = clock = spoken = False
    for name, value in {**parse.slots, **parse.negated}.items():
        slot = state.slot(name)
        if slot is None:
            continue
        spoken |= slot.type in (SlotType.phone, SlotType.reference, SlotType.email)
        timed |= slot.type in _TIMED
        clock |= slot.type is SlotType.time
        _account(slot, value, covered, stems, numbers, texts)
        if slot.type is SlotType.duration:  # "2 weeks" read as 14 days: the 2 is the length's
            numbers.update(amount for _, _, amount, _ in find_durations(text))
    if timed:
        covered |= DATE_TIME_WORDS
    if numbers:
        covered |= COUNTED_WORDS
    for intent in state.intents:
        # The intent read, and what the flow itself does ("a table" in the booking: its built-in continue).
        if intent.name in (parse.intent, CONTINUE):
            covered.update(_key(word) for example in intent.examples for word in words(example))
    if parse.choice is not None:
        for choice in state.choice_examples:
            if choice.name == parse.choice:
                covered.update(_key(word) for example in choice.examples for word in words(example))
        covered.update(_key(word) for word in words(parse.choice.replace("_", " ")))
    texts += parse.info.get("counted", ())  # "me, my wife and the two kids" counted as 4: its words are the count's
    joined = [_alnum(value) for value in texts]
    unread = _unread_values(state, parse) - covered_values(state, parse)
    left = []
    for word in said:
        key = _key(word)
        if spoken and (key in WORD_NUMBERS or key in _SPOKEN_DIGITS):
            continue  # "oh seven seven double oh, nine double oh, three five six": a phone number said
        if joined and (flat := _alnum(word)) and any(flat in value for value in joined):
            continue  # a text value read holds it: "the double socket by the bed" describes the problem asked
        if key in unread:  # "a regular weekly clean": "weekly" names a frequency too, which nothing read
            left.append(word)
            continue
        if key in covered or _stem(key) in stems or key in cue_starts:
            continue
        if timed and (ordinal := _ORDINAL.fullmatch(key)) and int(ordinal.group(1)) in numbers:
            continue  # "the 16th" of a date read ("the 8th not the 7th" read as not the 7th leaves "8th" open)
        if clock and (hour := _CLOCK.fullmatch(key)) and {int(hour.group(1)), int(hour.group(1)) + 12} & numbers:
            continue  # "7pm", "8.30" of a time read
        if numbers and _number_word(word, numbers):
            continue
        left.append(word)
    return tuple(left)


def describing_words(state: UnderstandingState, parse: Parse, open_part: Sequence[str]) -> list[str]:
    """The words of ``open_part`` that may describe a value: words with letters, no number, function or degree word,
    none naming a slot ``parse`` holds a value of ("door" of "it's a wooden door", read as the door type). A message
    that says another slot's value describes the asked one only with two of them or more ("the key's stuck in the
    door, it's 7 Rustlings Road"; not "it's a wooden door, quite old")."""
    named = {
        _stem(word)
        for name in parse.slots
        if (slot := state.slot(name)) is not None
        for word in words(f"{slot.name.replace('_', ' ')} {slot.noun}".casefold())
    }
    return [
        word
        for word in open_part
        if _LETTER.search(word)
        and (key := _key(word)) not in WORD_NUMBERS
        and key not in FUNCTION_WORDS
        and key not in _DEGREE_WORDS
        and _stem(key) not in named
    ]


_LETTER = re.compile(r"[^\W\d_]")
_DEGREE_WORDS = frozenset("quite very really pretty rather fairly super too so extremely".split())
"""Words that say how much, not what ("quite old"): no description of their own."""


def _value_words(slot: Slot, value: Any) -> set[str]:
    """The words of a categorical value and of the synonyms its slot's description gives it."""
    said = [str(value)]
    for named, synonyms in described_synonyms(tuple(slot.values or ()), slot.description):
        if named == value:
            said += synonyms
    return {_key(word) for word in words(" ".join(said))}


def _unread_values(state: UnderstandingState, parse: Parse) -> set[str]:
    """The words naming a value of a categorical slot the reading gave no value (function words aside)."""
    found: set[str] = set()
    for slot in state.slots:
        if slot.type is SlotType.categorical and slot.name not in parse.slots and slot.name not in parse.negated:
            for value in slot.values or ():
                found |= _value_words(slot, value)
    return found - FUNCTION_WORDS


def covered_values(state: UnderstandingState, parse: Parse) -> set[str]:
    """The words of the categorical values the reading has, by their own names ("clean" of "regular clean"; a
    synonym, "weekly clean", may name another slot's value too)."""
    found: set[str] = set()
    for name, value in {**parse.slots, **parse.negated}.items():
        slot = state.slot(name)
        if slot is not None and slot.type is SlotType.categorical:
            found |= {_key(word) for word in words(str(value))}
    return found


def _account(slot: Slot, value: Any, covered: set[str], stems: set[str], numbers: set[Any], texts: list[str]) -> None:
    """Add the words a value of ``slot`` read from the message accounts for."""
    if isinstance(value, bool):
        # a yes or no to the slot: its words are the act words, and those of the sides its question and description
        # name ("on the street" to "on a drive, rather than on the street?")
        stems.update(_stem(word) for word in _side_words(slot.ask or "", slot.description or ""))
        return
    if isinstance(value, int | float):
        numbers.add(value)
        return
    if slot.type is SlotType.categorical:
        # The value's words and the synonyms the slot's description gives it (typos and plurals by their stem),
        # not the other values' ("a regular clean" leaves "weekly" open, though the description names it).
        stems.update(_stem(word) for word in _value_words(slot, value))
        if weekday_values(tuple(slot.values or ())) is not None:
            covered.update(DATE_TIME_WORDS)  # "tomorrow" said for a weekday
        return
    if slot.type in (SlotType.money,):
        covered.update({"pounds", "pound", "quid", "dollars", "dollar", "euros", "euro", "p", "pence", "bucks"})
    texts.append(str(value))
    numbers.update(find_numbers(str(value)))


@lru_cache(maxsize=256)
def _side_words(ask: str, description: str) -> frozenset[str]:
    """The words of a boolean's question and description (3+ letters, no function word), read once per slot."""
    said = words(f"{ask} {description}")
    return frozenset(key for word in said if len(key := _key(word)) > 3 and key not in FUNCTION_WORDS)


def _number_word(word: str, numbers: set[Any]) -> bool:
    """Is ``word`` a number the reading took (or a word of a number said in words, when it took one)?"""
    key = _key(word)
    if key in WORD_NUMBERS or key in {"and", "a", "couple", "dozen"}:
        return True
    return any(found in numbers for found in _numbers_in(word))


@lru_cache(maxsize=8192)
def _numbers_in(word: str) -> tuple[Any, ...]:
    """The numbers one word says (a long reply repeats its words: each is read once; "6ish" says 6)."""
    return tuple(find_numbers(word[:-3] if word[-3:].casefold() == "ish" and word[:-3].isdigit() else word))


def with_open(state: UnderstandingState, text: str, parse: Parse) -> Parse:
    """``parse`` with its open part in ``info["open"]`` (left out when nothing is open)."""
    left = open_words(state, text, parse)
    if left:
        parse.info["open"] = list(left)
    return parse
