"""The options of a turn's meaning without words, and when a turn is offered them.

A state offers meaning without words in two places (issue 36 item 3), only where the rules read nothing for it and
words of the message are open (:mod:`fsmdial.understand.rules.coverage`):

* **the asked categorical slot**, when the rules read no value from the message (a value of another slot answers
  another question): its values, each said by its texts: the
  value itself, the synonyms the slot's description lists, and "<what the slot is>: <value>" (the description
  before its list of synonyms, else the slot's label);
* **the asked boolean slot's two sides**, when its description names them ("Whether the lessons are online (yes) or
  at the student's home (no)") and the rules read nothing from the message: each side said by its words, the no
  side also by what the question says happens otherwise ("If not, the tutor comes to your home");
* **the state's intents**, when nothing is asked, no confirmation is pending and the rules read no intent nor
  value: each intent with examples (an :class:`~fsmdial.Assistant`'s flows are its router's intents, said by
  each flow's examples or description), goodbye and decline aside (an act, read by the rules).

At a confirmation only a boolean's side, and only in a message with a change cue the rules read no change from
("actually could the tutor come to us instead?"): a choice is no yes and no no. And only when a word of the open
part has letters and is no number word: a bare "12" at a frequency question is a value said for another question
(or a slip), not a meaning to guess ("monthly", chosen once by cosine before this rule).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from ...flow import SlotType
from ...language import WORD_NUMBERS, fold, read_acts
from ...language.choices import described_synonyms
from ...language.clauses import clauses
from ..base import DECLINE, GOODBYE, Parse, UnderstandingState
from ..constraint.schema import greets
from ..rules.changes import read_change
from ..rules.coverage import describing_words
from ..rules.worded_answers import described_sides


@dataclass(frozen=True)
class Option:
    """One thing the message may mean: a value of ``slot``, or an intent; said by ``texts``."""

    kind: Literal["value", "intent"]
    name: str
    texts: tuple[str, ...]
    slot: str | None = None
    value: Any = None
    """The value stored when chosen, where it is not ``name`` (a boolean's side: ``name`` "yes", ``value`` True)."""


_SYNONYM_LIST = re.compile(r"\s*\(.*$", re.S)
_LETTER = re.compile(r"[^\W\d_]")
_WORD = re.compile(r"[\w'’-]+")


def has_words(open_part: list[str] | tuple[str, ...]) -> bool:
    """Does the open part hold a word with letters that is no number word ("electric", not "12" nor "twelve")?"""
    return any(_LETTER.search(word) and fold(word) not in WORD_NUMBERS for word in open_part)


def open_clauses(text: str, open_part: list[str] | tuple[str, ...]) -> str:
    """The clauses of ``text`` that hold a word of the open part: what a choice is read from, the clauses the rules
    accounted for left out (an address beside a description would pull its vector away). The whole text when no
    clause holds one."""
    wanted = {fold(word) for word in open_part}
    kept = [clause for clause in clauses(text) if wanted & {fold(word) for word in _WORD.findall(clause)}]
    return ", ".join(clause.strip() for clause in kept) if kept else text


def slot_subject(description: str, label: str) -> str:
    """What a slot is, in words: its description before any list of synonyms in brackets, else its label."""
    head = _SYNONYM_LIST.sub("", description).strip().rstrip(".:")
    return head or label


def value_options(state: UnderstandingState, name: str | None = None) -> tuple[Option, ...]:
    """The values of categorical slot ``name`` (the asked slot by default) as options (none for another type)."""
    name = name or state.asked
    slot = state.slot(name) if name else None
    if slot is None or slot.type is not SlotType.categorical or not slot.values:
        return ()
    values = tuple(slot.values)
    synonyms = dict(described_synonyms(values, slot.description))
    subject = slot_subject(slot.description, slot.noun)
    texts = {value: (value, *synonyms.get(value, ()), f"{subject}: {value}") for value in values}
    return tuple(Option("value", value, tuple(dict.fromkeys(texts[value])), slot.name) for value in values)


_OTHERWISE = re.compile(r"(?:^|[.?!]\s+)if\s+not\W+(?P<other>[^.?!]+)", re.I)
"""What the question says happens on a no ("Would you like the lessons online? If not, the tutor comes to your
home.")."""


def side_options(state: UnderstandingState, name: str | None = None) -> tuple[Option, ...]:
    """The two sides of boolean slot ``name`` (the asked slot by default) whose description names them ("Whether the
    lessons are online (yes) or at the student's home (no)") as options, each said by its words, the no side also by
    what its question says happens otherwise ("If not, the tutor comes to your home"): "could the tutor come to us?"
    has no word of either. None for a slot of another type or without such a description."""
    name = name or state.asked
    slot = state.slot(name) if name else None
    sides = (
        described_sides(slot.description or "", slot.ask or "")
        if slot is not None and slot.type is SlotType.boolean
        else None
    )
    if slot is None or sides is None:
        return ()
    yes, no = sides
    otherwise = _OTHERWISE.search(slot.ask or "")
    noes = (no, otherwise.group("other").strip()) if otherwise is not None else (no,)
    return (
        Option("value", "yes", (yes,), slot.name, True),
        Option("value", "no", tuple(dict.fromkeys(noes)), slot.name, False),
    )


def _greeting(state: UnderstandingState, name: str) -> bool:
    """Is the state's intent ``name`` a greeting (its examples mostly nothing but one)?"""
    return any(intent.name == name and greets(intent.examples) for intent in state.intents)


def _names_values(state: UnderstandingState, name: str, open_part: Sequence[str]) -> bool:
    """Does the open part say one of the slot's values in its own words, left unread by the rules? Then they saw a
    doubt ("somewhere between medium and large"): the flow asks, no choice is made."""
    slot = state.slot(name)
    said = {fold(word) for word in open_part}
    return slot is not None and any(
        (words := {fold(word) for word in _WORD.findall(str(value))}) and words <= said for value in slot.values or ()
    )


def intent_options(state: UnderstandingState) -> tuple[Option, ...]:
    """The state's intents with examples as options (goodbye and decline are acts the rules read)."""
    return tuple(
        Option("intent", intent.name, tuple(dict.fromkeys(intent.examples)))
        for intent in state.intents
        if intent.name not in (GOODBYE, DECLINE) and intent.examples
    )


def options_for(state: UnderstandingState, text: str, reading: Parse) -> tuple[Option, ...]:
    """What ``text`` may be choosing among at ``state``, given the rules' ``reading`` of it (with its open part in
    ``info["open"]``); none when the rules read what would be chosen, or nothing is open."""
    open_part = reading.info.get("open", ())
    if not has_words(open_part) or reading.answer is not None or reading.info.get("echo"):
        return ()  # (a reply in the question's own words: asked again, no guess from those words)
    if state.confirm is not None:
        # a change the rules did not read ("actually could the tutor come to us instead?" at the summary): a
        # boolean's side, said in other words (the held one chosen changes nothing); no other value, intent or choice
        if reading.slots or reading.intent is not None or reading.choice is not None or read_change(text) is None:
            return ()
        if reading.info.get("change"):
            return ()  # the rules read the change ("can you deliver it instead?"): nothing left to choose
        return tuple(option for slot in state.slots for option in side_options(state, slot.name))
    if reading.choice is not None or (reading.intent is not None and not _greeting(state, reading.intent)):
        return ()  # a greeting beside the words ("Hi there, my dishwasher is full of water") chooses nothing
    if reading.negated and (state.asked is None or set(reading.negated) != {state.asked}):
        return ()  # a value ruled out of the asked slot leaves its others to choose from ("I'm not locked out, but...")
    acts = read_acts(text)
    if acts.holds_no_value and not acts.request:  # a greeting, a question, a don't-know: no value and no task
        return ()  # (a request is: "could you come to the house")
    if state.asked is not None:
        # A message the rules read another slot's value from may still describe one ("the key's stuck in the door,
        # it's 7 Rustlings Road"); a word left beside it is another question's answer ("it's a wooden door, quite
        # old" at "what do you need us for?" chose "extra lock", and it was booked).
        if reading.slots and len(describing_words(state, reading, open_part)) < 2:
            return ()
        options: list[Option] = []
        # The asked slot, and the node's other categorical slots when the message says more than the answer ("my
        # washing machine won't drain": the appliance read, the fault described).
        for name in dict.fromkeys((state.asked, *(state.expected if reading.slots else ()))):
            if name in reading.slots or name in reading.info.get("doubt", ()) or _names_values(state, name, open_part):
                continue
            options += [option for option in value_options(state, name) if option.name != reading.negated.get(name)]
        if not reading.slots and state.asked not in reading.info.get("doubt", ()):
            options += side_options(state)  # "would rather the tutor came to us" to "online? If not, ..."
        return tuple(options)
    if reading.slots:
        return ()
    return intent_options(state)
