"""A change the user asked for, applied to the held values (read by :mod:`fsmdial.understand.rules.changes`).

The new words were read for every typed slot; the value goes to the one held slot it fits: its type reads it,
its bounds take it, it is not the value held, and, when the message names the replaced value ("8 instead of 7"),
the old words name that slot's held value, in any of its forms ("7" names a held 19:00, and then "8" is 20:00).
When two slots could take it, the one the user's message before this one gave is put right ("10am", then "make it
11 instead"); when nothing tells them apart, nothing changes. When the new words name the held value itself, the
value said after "instead" is the new one ("I've got the dentist at ten, could they come after lunch instead, like
1?"). A part of a name ("the surname is Clark") edits the held name. A categorical value read in passing (another
question asked and answered, named by a synonym, no change cue: ``info["in_passing"]``) does not replace a held one
the user named by its own words ("let's just do the touch up for now", answering nothing, does). Asked the length,
"until 6" after a held start of 15:00 is 3 hours (``info["ends_at"]``).
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Mapping
from typing import Any

from .flow import Slot, SlotType, fold
from .language import clock_readings
from .session import SessionState
from .slots import KINDS
from .slots.times import clock_minutes
from .values import InvalidValue, coerce_given

__all__ = ["held_changes"]


def held_changes(
    slots: Mapping[str, Slot],
    session: SessionState,
    info: Mapping[str, Any],
    given: Mapping[str, Any],
    now: dt.datetime,
) -> tuple[dict[str, Any], frozenset[str]]:
    """The values a parse gives (``given``) with the change in its ``info`` applied to the held slots: the one held
    slot the new value fits takes it, and a slot the parse gave the same words goes ("can we do 9 instead of 7?"
    at a held 19:00 is no party of 9). Second, the slots whose held value the message named as the one it replaces
    ("11 not 2" at a held 14:00): refused, the new value leaves the slot to be asked again, never the old value."""
    changes = {**given, **_name_part(slots, session, info), **_length_to(slots, session, info)}
    answered = session.asked is not None and session.asked in given  # the message answers the question asked
    for name in info.get("in_passing", ()):
        if name not in session.slots or changes.get(name) == session.slots[name]:
            continue
        before = session.slots[name]
        # "no, it's mid terrace" to the question about access, with "three storey house" said before: a value in
        # passing (another question asked, by a synonym, with no change cue) does not replace one the user named by its
        # own words (one read from a description may be put right so: "today, we've no heating"); a count held was
        # the user's and stays whatever was answered ("the kids will hire some, me and my wife have our own": no 2)
        if not isinstance(before, str) or (answered and _said(session, before)):
            changes.pop(name, None)
    change = info.get("change")
    if not change:
        return changes, frozenset()
    held = session.slots
    new: Mapping[str, Any] = change["new"]
    old: Mapping[str, Any] = change["old"]
    misread = [name for name, value in new.items() if name in given and given[name] == value]
    named: list[tuple[str, Any]] = []
    fitting: list[tuple[str, Any]] = []
    after_instead: list[tuple[str, Any]] = []
    for name, raw in new.items():
        if name not in held or name not in slots or (name in changes and name not in misread):
            continue
        slot = slots[name]
        names_held = name in old and _names(slot, old[name], held[name], session, now)
        value = _fit(slot, raw, held[name], names_held, session, now)
        if (value is None or value == held[name]) and name in change.get("later", {}):
            # "I've got the dentist at ten, could they come after lunch instead, like 1?": the held 10:00 is the
            # reason; the value said after "instead" is the new one
            value = _fit(slot, change["later"][name], held[name], names_held, session, now)
            if value is not None and value != held[name]:
                after_instead.append((name, value))
                continue
        if value is None or value == held[name]:
            continue
        (named if names_held else fitting).append((name, value))
    by_words = [item for item in fitting if item[0] in change.get("named", ())]
    # "10am" ... "sorry, can we make it 11 instead?": of two held slots the value fits, the one the user's message
    # before this one gave is the one put right (an age of 3 said earlier is not)
    # (at a question only: a confirmation's summary has just shown every value again, and "make that 5" there is no
    # more the last answer's than any other's)
    just_said = (
        _said_before(fitting, slots, session, now)
        if len(fitting) > 1 and not (named or by_words) and session.asked is not None
        else []
    )
    if (
        misread
        and not (named or after_instead or just_said)
        and not (by_words and set(misread).isdisjoint(change.get("named", ())))
    ):
        # the parse gave the new words to a slot itself ("make that 5" for the only number), unless the message
        # names another slot by its words ("the time, can we do 3 instead" is no driver aged 3)
        return changes, frozenset()
    # the value replaced named by the message, else the slot its words name ("one more person: make that 5")
    # (a value said alone for no slot, only when the message gave no other: "please pick me up at eight instead"
    # describes the change asked for; a first value of a slot that is no free text beside it is another answer: "oh
    # actually I do have one. the address is 5 Ferndale Road")
    answers_beside = (
        bool(given) and not set(given) & set(held) and not any(_free_text(slots.get(name)) for name in given)
    )
    chosen = named or by_words or after_instead or just_said or (fitting if not given or answers_beside else [])
    if len(chosen) == 1:
        for name in misread:
            # a slot given for the first time is the answer beside the change ("not friday, saturday would be better,
            # about 11" at the time question), never the chosen slot's words
            # (at a confirmation nothing is asked: "make it 1 instead of midday" gives no first party of 1)
            if name not in held and session.asked is not None:
                continue
            if name == chosen[0][0] or name not in change.get("named", ()):
                # the same words the chosen slot took ("9 instead of 7" at a held 19:00 is no party of 9); a slot the
                # message names by its own words keeps its value ("make it 3pm not 1. and 2 hours")
                changes.pop(name, None)
        changes[chosen[0][0]] = chosen[0][1]
        return changes, frozenset({chosen[0][0]} if named else ())
    return changes, frozenset()


def _free_text(slot: Slot | None) -> bool:
    """Is ``slot`` a free-text slot (its value may describe a change, and hold its words)?"""
    return slot is not None and KINDS[slot.type].whole_text


def _said_before(
    fitting: list[tuple[str, Any]], slots: Mapping[str, Slot], session: SessionState, now: dt.datetime
) -> list[tuple[str, Any]]:
    """Of the ``fitting`` slots, the one whose held value the user's message before this one said (none when it said
    several of them, or none)."""
    said = [text for role, text in session.history if role == "user"][-2:-1]
    if not said:
        return []
    before = [
        (name, value) for name, value in fitting if _names(slots[name], said[0], session.slots[name], session, now)
    ]
    return before if len(before) == 1 else []


def _coerced(slot: Slot, raw: Any, session: SessionState, now: dt.datetime) -> Any:
    return coerce_given({slot.name: slot}, slot.name, raw, {}, session.slots, now)


def _names(slot: Slot, raw: Any, held: Any, session: SessionState, now: dt.datetime) -> bool:
    """Do the old words (read as ``raw``) name the held value ``held``, in any of its forms?"""
    if slot.type is SlotType.time and isinstance(held, str):
        return held in _clock(raw) or any(_same_on_the_dial(reading, held) for reading in _clock(raw))
    try:
        return bool(_coerced(slot, raw, session, now) == held)
    except InvalidValue:
        return False


def _fit(slot: Slot, raw: Any, held: Any, names_held: bool, session: SessionState, now: dt.datetime) -> Any:
    """The value the new words give ``slot`` (None: they do not fit it). A time said without its half of the day
    takes the held one's ("11 instead of 8" at a held 20:00 is 23:00), else the other half when only that is inside
    the bounds ("9 instead of 3" at a held 15:00 of a sweep arriving 8 to 4 is 09:00), else it is refused."""
    if slot.type is SlotType.time and isinstance(held, str):
        readings = _clock(raw)
        same_half = [reading for reading in readings if (reading >= "12:00") == (held >= "12:00")]
        if len(readings) > 1 and same_half:
            # the held half first, then the other ("9 instead of 3" at a held 15:00, open 8 to 4: 09:00 is meant)
            for reading in (same_half[0], *(other for other in readings if other != same_half[0])):
                try:
                    return _coerced(slot, reading, session, now)
                except InvalidValue:
                    continue
            if names_held:
                return same_half[0]  # both halves refused by the bounds: asked again, never a value unsaid
    try:
        return _coerced(slot, raw, session, now)
    except InvalidValue as refused:
        return raw if names_held and not refused.question else None


def _clock(raw: Any) -> tuple[str, ...]:
    return clock_readings(str(raw)) if raw is not None else ()


def _same_on_the_dial(reading: str, held: str) -> bool:
    """ "7" or "7:00" names 19:00: the same hour and minute on a 12-hour dial."""
    hours, minutes = reading.split(":")
    held_hours, held_minutes = held.split(":")
    return int(hours) % 12 == int(held_hours) % 12 and minutes == held_minutes


def _said(session: SessionState, value: Any) -> bool:
    """Did the user name ``value`` by its own words in a message of the session's history?"""
    if not isinstance(value, str):
        return False
    pattern = re.compile(r"(?<![\w'])" + re.escape(fold(value)) + r"s?(?![\w'])")
    return any(role == "user" and pattern.search(fold(said)) for role, said in session.history)


def _name_part(slots: Mapping[str, Slot], session: SessionState, info: Mapping[str, Any]) -> dict[str, Any]:
    """The held person's name with the part the user put right ("the surname is Clark": Jane Clarke -> Jane
    Clark; "first name is Jon": John Smith -> Jon Smith)."""
    part = info.get("name_part")
    if not part:
        return {}
    which, word = part
    held = [
        (name, value)
        for name, value in session.slots.items()
        if name in slots and slots[name].type is SlotType.person_name and isinstance(value, str) and " " in value
    ]
    if len(held) != 1:
        return {}
    name, value = held[0]
    words = value.split()
    if which == "first":
        words[0] = word
    else:
        words[-1] = word
    return {name: " ".join(words)}


def _length_to(slots: Mapping[str, Slot], session: SessionState, info: Mapping[str, Any]) -> dict[str, Any]:
    """The length from the held start to the end the message said (``info["ends_at"]``: "until 6" asked how long,
    15:00 held): ``{"hours": 3}``; nothing without a held start, or an end not after it."""
    ends = info.get("ends_at")
    if not ends or not isinstance(start := session.slots.get(ends["time"]), str) or ends["length"] not in slots:
        return {}
    # "until 6" at a held 15:00: of its readings (06:00, 18:00) the first after the start
    after = sorted(end for end in _clock(ends["at"]) if ":" in start and end > start)
    if not after:
        return {}
    minutes = clock_minutes(after[0]) - clock_minutes(start)
    value = minutes / 60 if slots[ends["length"]].unit == "hours" else minutes
    return {ends["length"]: int(value) if float(value).is_integer() else value}
