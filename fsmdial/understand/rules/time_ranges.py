"""A length of time said as a range of clock times ("a rehearsal room on Friday 7 till 10", "11am to 3pm"): the time
reader takes the range's start for the time slot; the time between its two ends is the value of the flow's one
duration slot counted in hours or minutes, when the message gives it no length of its own."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from ...flow import Slot, SlotType
from ...language.times import range_minutes

__all__ = ["range_lengths"]

_CLOCK_UNITS = ("minutes", "hours")


def range_lengths(slots: Iterable[Slot], read: Mapping[str, Any], text: str) -> dict[str, int | float]:
    """The duration a range of clock times in ``text`` gives the flow's duration slot (one, in minutes or hours, not
    ``read`` already), where the flow also has a time slot the range starts; else nothing. "8pm till 11" to a flow
    with ``start_time`` and ``hours``: ``{"hours": 3}``."""
    slots = list(slots)
    lengths = [slot for slot in slots if slot.type is SlotType.duration and (slot.unit or "minutes") in _CLOCK_UNITS]
    if len(lengths) != 1 or lengths[0].name in read or not any(slot.type is SlotType.time for slot in slots):
        return {}
    if (minutes := range_minutes(text)) is None:
        return {}
    slot = lengths[0]
    value = minutes / 60 if slot.unit == "hours" else minutes
    return {slot.name: int(value) if float(value).is_integer() else value}
