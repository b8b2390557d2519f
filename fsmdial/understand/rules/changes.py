"""A change the user asks for, in any words: a change cue ("make that", "can we do", "actually", "no wait",
"sorry", "change it to", "let's say", "instead"), the new value's words after it, and the words naming the value
it replaces ("instead of 7", "not the 7th", "rather than monthly").

The rules read the new words and the old ones with the type readers of every typed slot, as if that slot were
asked (:func:`read_change`), and put them in ``Parse.info["change"]``: the turn, which knows the held values,
gives the new value to the one held slot it fits (:mod:`fsmdial.held_changes`). Inside one message the last
value said wins ("the 17th... no sorry, the 18th"): :func:`last_said` puts it in place of the earlier one. A part
of a name ("the surname is Clark", "first name is Jon, not John") is ``Parse.info["name_part"]``.
"""

from __future__ import annotations

import dataclasses
import re
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ...flow import Slot, SlotType
from ...language import PEOPLE_WORDS, find_numbers
from ...language.acts import split_negated
from ...language.addresses import find_addresses
from ...language.clauses import NEGATION
from ...slots import KINDS
from ...slots.numbers import asks_which
from ..base import Parse, UnderstandingState
from .forms import naming_words
from .pronoun_one import without_uncounted_ones
from .worded_answers import boolean_reply

__all__ = [
    "CORRECTION",
    "SELF_CORRECTION",
    "Change",
    "asked_state",
    "changed_name_part",
    "last_said",
    "note_change",
    "read_change",
    "read_values",
    "short_change",
    "without_reasons",
]

_CONCLUDING = r"(?<=,\s)(?:so|say)(?=\s+(?:that'?s\s+|it'?s\s+)?[\w.]+(?:\s+[a-z]+)?[\s.!]*$)"
"""A value settled at the end of the message's own reasoning ("the four of them, and me too, so five"; "probably the
whole day, say 8 hours"): the last value said wins inside the message, and no held value changes."""
_CONCLUDES = re.compile(_CONCLUDING, re.I)
_WAIT = (
    r"(?<!can't )(?<!cant )(?<!cannot )(?<!can not )(?<!'ll )(?<!will )(?<!to )(?<!'d )(?<!can )(?<!i )(?<!we )"
    r"(?<!she )(?<!he )(?<!they )wait(?!ing)"
)
"""A "wait" that stops to correct ("wait, Friday"), not the eagerness of "can't wait to see everyone Friday", nor
waiting said as what one will do ("I'll wait", "I'd prefer to wait": a side of "wait, or shall we take them?")."""
_CUE = re.compile(
    r"(?<![\w'])(?:actually|no wait|" + _WAIT + r"|hang on|sorry|i mean|i meant|oops|make (?:it|that)(?: to| for)?|"
    r"change (?:it|that)(?: to)?|(?:can|could) (?:we|i|you) (?:do|make it|say|go for|change (?:it|that) to|move it to)|"
    r"let'?s (?:say|do|make it|go for)|or rather|scratch that|scrap that|on second thoughts?|"
    r"(?:it|that|there|we)(?:'ll| will) be(?=\s+[\w.:]+(?:\s+\w+)?\s+now\b)|"  # "so it'll be 5 now"
    r"switch (?:it |that )?to|move (?:it|that) to|how about|what about|correction|"
    r"(?:change|move|switch|put)\s+(?:the|my|our)\s+[a-z]+(?:\s+[a-z]+)?\s+to|" + _CONCLUDING + r")(?![\w'])",
    re.I,
)
"""Words that say the value after them replaces one said or held before ("can't wait to see everyone Friday" is
eagerness, no "wait")."""
_AFTER_CUE = re.compile(r"(?<![\w'])(?:instead|rather)(?![\w'])(?!\s+(?:of|than)\b)", re.I)
"""Words that say the value before them replaces another ("can we do 11 instead?", "Wednesday rather")."""
_OLD = re.compile(
    r"(?<![\w'])(?:instead of|rather than|not|forget(?: about)?|i\s+said|i\s+told\s+you)\s+"
    r"(?:just\s+|only\s+)?(?P<old>(?:the\s+|a\s+|an\s+)?[\w'\-:]+"
    r"(?:\s+(?!not\b|but\b|please\b|it\b)[a-z0-9][\w'\-:]*)?)(?=\s*(?:[,.;!?]|$|\s(?:please|thanks|then|but)\b))",
    re.I,
)
"""The words naming the value replaced: "instead of 7", "not the 7th", "rather than (just) the patio", "I said four days
but" (never "from X to Y": a journey's two ends)."""

CORRECTION = re.compile(
    r"\W*(?:no\b\W*)?(?:.{0,12}\b)?(?:wrong|mistake|typo|i meant|meant to say|correction|sorry|actually|oops|"
    r"make (?:it|that)|change (?:it|that))\b",
    re.I,
)
"""A message that opens as a correction ("sorry, wrong number, it's 251")."""


def short_change(words: str) -> bool:
    """Change words short enough, and denying nothing, to be read for a value by a word of its own ("I meant the
    sander for the floorboards"; not "I'm away that week. Don't book it, I'll get back to you")."""
    return len(words.split()) <= 10 and not NEGATION.search(words)


def says_change(text: str) -> bool:
    """Does ``text`` carry a change cue ("actually", "make it", "instead", "not X", "sorry, wrong ...")?"""
    return bool(_CUE.search(text) or _AFTER_CUE.search(text) or _OLD.search(text) or CORRECTION.match(text))


SELF_CORRECTION = re.compile(
    r"(?<![\w'])(?:actually|i mean|i meant|sorry|no wait|" + _WAIT + r"|make (?:it|that)|change (?:it|that) to|"
    r"(?:can|could|shall) (?:i|we) (?:say|put)|let'?s (?:say|put))"
    r"(?![\w'])(?!.*"
    r"(?<![\w'])(?:actually|i mean|i meant|sorry|no wait|wait|make (?:it|that))(?![\w']))",
    re.I,
)
"""The last correction inside one message ("one large margherita and... actually make that two"), or the value settled
on after a doubt ("somewhere between 4 and 6, can I say 6 and change it later?")."""

_PART = r"(?P<part>sur|last|family|second|first|given|christian)\s*-?\s*name"
_SPELT_WRONG = (
    r"(?:(?:spelt|spelled|written)\s+)?(?:wrong(?:ly)?|incorrectly)\b[\s,.:;-]*(?:(?:it'?s|it\s+is|should\s+be)\s+)?"
)
_NAME_PART = re.compile(
    r"(?<![\w'])" + _PART + r"\s*(?:is|was|should be|'s|:|=)?\s+(?:" + _SPELT_WRONG + r"|(?:spelt\s+|spelled\s+))?"
    r"(?P<word>[A-Z][\w'\-]*)|"
    r"\b(?:spelt|spelled|misspelt|misspelled|got)\s+(?:the|my|his|her)\s+"
    + _PART.replace("?P<part>", "?P<part2>")
    + r"\s+"
    + _SPELT_WRONG
    + r"(?P<word2>[A-Z][\w'\-]*)",
    re.I,
)
"""A part of a name put right ("the surname is Clark", "first name is Jon, not John", "the surname's spelt wrong,
it's McDonald", "you've spelt my surname wrong, it's McDonald")."""
_TYPED = (SlotType.date, SlotType.time, SlotType.integer, SlotType.number, SlotType.categorical, SlotType.boolean)


@dataclass(frozen=True)
class Change:
    """What a change says: the new value's words (cues and old words blanked out) and the old values' words."""

    new: str
    olds: tuple[str, ...]
    cued: bool = True
    """A change cue was said (else only a replaced value was named: "5 people not 4")."""
    earlier: tuple[str, ...] = ()
    """The words after earlier cues, the last first: read when ``new`` gives no value ("yes... actually no, scrap
    that, I'll get the train": no after "actually")."""
    after: str = ""
    """The words after the last "instead" ("could they come after lunch instead, like 1?": "like 1"): the new value
    when ``new`` names the held one ("I've got the dentist at ten" is why, not what)."""


def read_change(text: str) -> Change | None:
    """The change ``text`` asks for, when it has a change cue or names a replaced value; else None."""
    olds = list(_OLD.finditer(text))
    cues = list(_CUE.finditer(text))
    afters = list(_AFTER_CUE.finditer(text))
    if not cues and not afters and not olds:
        return None
    blank = list(text)
    for found in [*olds, *cues, *afters]:
        blank[found.start() : found.end()] = " " * (found.end() - found.start())
    masked = "".join(blank)
    # The new words: after the last cue that has words after it, up to an "instead" ("could you change that to an
    # interim service instead, the full one's too pricey"); else the clause before an "instead" ("Wednesday
    # instead"); with no cue, the message itself ("5 people not 4").
    start, end = 0, len(text)
    ahead = [cue for cue in cues if re.search(r"\w", masked[cue.end() :])]
    if ahead:
        start = ahead[-1].end()
        end = next((after.start() for after in afters if after.start() >= start), end)
        if not re.search(r"\w", masked[start:end]):
            end = len(text)
    elif afters:
        end = afters[-1].start()
        start = max((found.end() for found in re.finditer(r"[.;!?]", text[:end])), default=0)
    old_words = tuple(found.group("old") for found in olds)
    earlier = tuple(_tidy(masked[cue.end() :]) for cue in reversed(ahead[:-1]))
    after = _tidy(re.split(r"[.;!?](?=\s|$)", masked[afters[-1].end() :])[0]) if afters else ""
    return Change(
        _tidy(masked[start:end]), tuple(word.strip() for word in old_words), bool(cues or afters), earlier, after
    )


def _tidy(words: str) -> str:
    """Words with the blanks of the cues and old words closed up, without punctuation at their ends."""
    return re.sub(r"\s+([,.;!?])", r"\1", " ".join(words.split())).strip(" ,.;!?")


_UNAVAILABLE = re.compile(
    r"(?<![\w'])(?:i'?m|i\s+am|we'?re|we\s+are|he'?s|she'?s|they'?re)\s+(?:(?:at|in)\s+work|working|away|busy|out|off|not\s+"
    r"(?:in|around|free|about))|(?<![\w'])(?:can'?t|cannot|won'?t\s+be\s+able\s+to)\s+(?:do|make)(?![\w'])|"
    # "I finish work at half 4": when someone is free, the reason for the new value, not it
    r"(?<![\w'])(?:i|we|he|she|they)\s+(?:finish|finishes|get\s+off|gets\s+off|leave|leaves|knock\s+off)"
    r"(?:\s+work|\s+school)?\s+(?:at|by|around|about)(?![\w'])",
    re.I,
)
"""A clause saying when someone cannot, or is free ("I'm at work on the Wednesday", "I finish work at half 4"): the
day or time in it is the reason, no value."""


def without_reasons(text: str) -> str:
    """``text`` without its clauses saying when someone cannot, or is free (:data:`_UNAVAILABLE`: "I'm working till
    the 29th, so Wednesday the 30th?"), where another clause is left: the day or time in them is the reason."""
    parts = re.split(r"[,;]", text)
    kept = [part for part in parts if not _UNAVAILABLE.search(part)]
    return ",".join(kept) if kept and len(kept) < len(parts) and any(re.search(r"\w", part) for part in kept) else text


def read_values(
    slots: tuple[Slot, ...], text: str, read_as_asked: Callable[[Slot, str], dict[str, Any]]
) -> dict[str, Any]:
    """The value ``text`` gives each typed slot when that slot is asked (a boolean: its yes or no)."""
    values: dict[str, Any] = {}
    if not text or not re.search(r"\w", text):
        return values
    text = without_reasons(text)  # "5 instead of 3, I finish work at half 4": 5
    addressed = text
    for span, _ in find_addresses(text):  # "change the pickup to 12 Elm Street, Leeds": no ride number 12
        text = text.replace(span, " ")
    whole = text  # a yes/no is read with its denials ("don't leave it on the doorstep")
    # A clause that denies gives no other value ("I meant the patio, we haven't got a deck": the patio)
    said, denied = split_negated(text)
    if denied and re.search(r"\w", said):
        text = said
    # The last value said wins, slot by slot: "I'm away monday, tuesday instead" is Tuesday; "Tuesday, 7pm instead"
    # keeps Tuesday (its last clause says no date) and takes 7pm.
    last = re.split(r"[,;]|\bbut\b|\bno\b", text)[-1].strip()
    last = last if last != text.strip() and re.search(r"\w", last) and not _UNAVAILABLE.search(last) else ""
    first = re.split(r"[.?!](?=\s|$)", text)[0].strip()
    first = first if first != text.strip() and re.search(r"\w", first) else ""
    for slot in slots:
        if slot.type is SlotType.address:
            if (address := read_as_asked(slot, addressed)) and slot.name in address:
                values[slot.name] = address[slot.name]
        elif slot.type is SlotType.boolean:
            # read as the rules read an asked yes/no ("actually there is parking", "oh wait, ..., so yes"); with a
            # change cue a question is a request ("can you deliver it instead?")
            if (answer := boolean_reply(slot, whole.replace("?", " "))) is not None:
                values[slot.name] = answer
        elif slot.type in _TYPED or KINDS[slot.type].finds or (KINDS[slot.type].is_text and slot.pattern):
            read = read_as_asked(slot, last) if last and slot.type in _TYPED else {}
            if slot.name not in read:
                read = read_as_asked(slot, text)
            if slot.name not in read and first and slot.type in _TYPED:
                read = read_as_asked(slot, first)  # "11? and just the one day": the time is the first sentence's
            if slot.name in read:
                values[slot.name] = read[slot.name]
    return values


_COUNTS = (SlotType.integer, SlotType.number)


def last_said(parse: Parse, change: Change, asked: Slot | None, new: dict[str, Any], old: dict[str, Any]) -> None:
    """The values of ``parse`` put right by the change inside the message: a value read from the old words goes (or
    becomes the new one), and the slot asked, or one the message gave a value, takes the value said last."""
    for name, value in old.items():
        if parse.slots.get(name) == value:
            if name in new and new[name] != value:
                parse.slots[name] = new[name]
            elif new.get(name) != value:  # "veneers, not whitening": both of the one value, which stands
                del parse.slots[name]
    for name, value in new.items():
        if asks_which(parse.slots.get(name)):
            continue  # "make it 2" at a confirmation of 5 people for 3 nights: which it is for stays asked
        named_old = name in old and old[name] != value  # "a science tutor, well not science really, it's maths"
        if name in parse.slots or (asked is not None and asked.name == name and (change.olds == () or named_old)):
            parse.slots[name] = value
    for name, value in list(parse.slots.items()):
        # "12 Elm Street, not 21": the old words are no part of the value
        if isinstance(value, str):
            for word in change.olds:
                cut = re.sub(r"[\s,;]*\b(?:not|instead of|rather than)\s+" + re.escape(word) + r"\W*$", "", value)
                if cut != value and cut:
                    parse.slots[name] = cut


_SPELT_LETTERS = re.compile(r"[A-Za-z](?:[\s-]+[A-Za-z](?![\w']))*")


def changed_name_part(text: str) -> tuple[str, str] | None:
    """A part of a name the message puts right: ("last", "Clark") for "the surname is Clark, without an e"."""
    found = _NAME_PART.search(text)
    if found is None:
        return None
    part = (found.group("part") or found.group("part2")).casefold()
    word = found.group("word") or found.group("word2")
    if len(word) == 1 or re.fullmatch(r"[A-Za-z](?:-[A-Za-z])+", word):
        # "surname spelt M C D O N A L D": spelt letter by letter, its letters' case unsaid, unless the name is then
        # written out ("the surname's spelt P R Y C E, Nicola Pryce")
        start = found.start("word") if found.group("word") else found.start("word2")
        letters = re.sub(r"[\s-]+", "", _SPELT_LETTERS.match(text, start).group())  # type: ignore[union-attr]
        word = next(
            (said for said in re.findall(r"[\w'\-]+", text[start:]) if said.casefold() == letters.casefold()), ""
        )
        if len(word) < 2:
            return None
    return ("first" if part in ("first", "given", "christian") else "last"), word


def note_change(
    parse: Parse,
    text: str,
    slots: tuple[Slot, ...],
    asked: Slot | None,
    read_as_asked: Callable[[Slot, str], dict[str, Any]],
) -> None:
    """Read the change ``text`` asks for into ``parse``: the last value said wins inside the message, and
    ``info["change"]`` holds what the new words and the old ones give each typed slot, for the turn to apply to
    the held values; ``info["name_part"]`` a part of a name put right."""
    part = changed_name_part(text)
    if part is not None:
        parse.info["name_part"] = part
    change = read_change(text)
    if change is None:
        return
    new = read_values(slots, without_uncounted_ones(change.new), read_as_asked)
    for words in change.earlier:
        new = new or read_values(slots, without_uncounted_ones(words), read_as_asked)
    old: dict[str, Any] = {}
    valued: list[str] = []
    for words in change.olds:
        for name, value in read_values(slots, words, read_as_asked).items():
            old.setdefault(name, value)
            valued.append(words)
    if not change.cued and not valued:
        return  # "a payment I did not make": no value is replaced
    last_said(parse, Change(change.new, tuple(dict.fromkeys(valued)), change.cued), asked, new, old)
    said = set(re.findall(r"[a-z]+", text.casefold()))
    if asked is not None and asked.name in new and parse.slots.get(asked.name) == new[asked.name]:
        # "4 pm, no sorry, make that 5" asked the time: the 5 is the time said last, not the weeks of another slot
        # that took it beside "4 pm" (one value said, one slot), unless the message names that slot by its words
        numbers = find_numbers(change.new)
        for name in [name for name in parse.slots if name != asked.name and new.get(name) == parse.slots[name]]:
            slot = next(slot for slot in slots if slot.name == name)
            if numbers == [parse.slots[name]] and slot.type in _COUNTS and not said & _own_words(slot):
                del parse.slots[name]
    if _CONCLUDES.search(text) is not None and read_change(_CONCLUDES.sub(" ", text)) is None:
        return  # "the four of them, and me too, so five": the answer settled, no held value changed
    if new:
        named = [slot.name for slot in slots if slot.name in new and said & _own_words(slot)]
        parse.info["change"] = {"new": new, "old": old, "named": named}
        # "can we do his party?" asked the session: "party" is the asked value's own word, whatever else it names
        of_asked = set(re.findall(r"[a-z]+", str(new.get(asked.name, "")).casefold())) if asked is not None else set()
        later = read_values(slots, without_uncounted_ones(change.after), read_as_asked) if change.after else {}
        if later := {name: value for name, value in later.items() if name in new and new[name] != value}:
            parse.info["change"]["later"] = later  # the value said after "instead", if ``new`` is the held one
        if (
            asked is not None
            and len(re.findall(r"\w+", change.new)) <= 3
            and any(said & _own_words(slot) - of_asked for slot in slots if slot.name in named)
            and asked.name not in named
            and asked.name in parse.slots
            and parse.slots[asked.name] == new.get(asked.name)
        ):
            del parse.slots[asked.name]  # "one more person, so make that 5" asked the time: the party's words


_TIME_WORDS = frozenset({"time", "pm", "am", "clock", "oclock", "morning", "afternoon", "evening", "noon", "hour"})
_DATE_WORDS = frozenset({"day", "date", "th", "st", "nd", "rd"})


def _own_words(slot: Slot) -> frozenset[str]:
    """The words that name ``slot`` in a message ("person" for a party size, "pm" for a time)."""
    words = set(naming_words(slot, described=False)) - {"we"}  # "can we do 11 instead" names no party
    if slot.name in ("party_size", "guests", "people"):
        words |= PEOPLE_WORDS | {"us"}
    if slot.type is SlotType.time:
        words |= _TIME_WORDS
    if slot.type is SlotType.date:
        words |= _DATE_WORDS
    return frozenset(words)


_ASKED: dict[tuple[int, str], tuple[weakref.ref[UnderstandingState], UnderstandingState]] = {}


def asked_state(state: UnderstandingState, name: str) -> UnderstandingState:
    """``state`` as if slot ``name`` were asked (a change's words read by that slot's readers); one object per live
    state and slot, so the rules' tables of it are built once."""
    key = (id(state), name)
    entry = _ASKED.get(key)
    if entry is not None and entry[0]() is state:
        return entry[1]
    asked = dataclasses.replace(state, asked=name, expected=(name,), confirm=None, confirm_slot=None)
    _ASKED[key] = (weakref.ref(state, lambda _: _ASKED.pop(key, None)), asked)
    return asked
