"""A length of time said as a range of clock times ("a rehearsal room on Friday 7 till 10", "11am to 3pm"): the time
reader takes the range's start for the time slot; the time between its two ends is the value of the flow's one
duration slot counted in hours or minutes, when the message gives it no length of its own. Asked for the length,
"until 6" says where it ends: no new start; the turn, which holds the start, counts the length (:func:`end_said`)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from ...flow import Slot, SlotType
from ...language.times import range_minutes

__all__ = ["end_said", "range_length", "range_length_slot"]

_CLOCK_UNITS = ("minutes", "hours")


def range_length_slot(slots: Iterable[Slot]) -> Slot | None:
    """The slot a range of clock times gives its length: the flow's one duration slot counted in hours or minutes,
    where the flow also has a time slot the range starts; None otherwise. Read once per state."""
    slots = list(slots)
    lengths = [slot for slot in slots if slot.type is SlotType.duration and (slot.unit or "minutes") in _CLOCK_UNITS]
    return lengths[0] if len(lengths) == 1 and any(slot.type is SlotType.time for slot in slots) else None


def range_length(slot: Slot, read: Mapping[str, Any], text: str) -> dict[str, int | float]:
    """The length a range of clock times in ``text`` gives ``slot`` (:func:`range_length_slot`), unless ``read`` has
    one: "8pm till 11" to a slot ``hours``: ``{"hours": 3}``; else nothing."""
    if slot.name in read or (minutes := range_minutes(text)) is None:
        return {}
    value = minutes / 60 if slot.unit == "hours" else minutes
    return {slot.name: int(value) if float(value).is_integer() else value}


_UNTIL = re.compile(
    r"\W*(?:(?:err?m?|um|oh|ok(?:ay)?|so|probably|maybe|just|we'?ll\s+(?:stay|play|go)|we'?d\s+(?:stay|play|go))[\s,]+)*"
    r"(?:until|till|til|'til|to)\s",
    re.I,
)
"""A reply that starts by saying where the time ends ("until 6 if that's ok", "till about 9")."""


def end_said(length: Slot, time_slot: Slot, read: dict[str, Any], text: str) -> dict[str, Any] | None:
    """Asked ``length`` (:func:`range_length_slot`), a reply that says only where the time ends ("until 6 if that's
    ok"): the end, taken out of ``read`` (no new start), as ``{"length": .., "time": .., "at": "18:00"}`` for the
    turn to count from the held start; else None."""
    if length.name in read or time_slot.name not in read or not _UNTIL.match(text):
        return None
    return {"length": length.name, "time": time_slot.name, "at": read.pop(time_slot.name)}
