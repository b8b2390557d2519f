"""Dates of a pair of date slots, one where something starts and one where it ends (a pick-up and a drop-off date,
departure and return, check-in and check-out), for the rules understander when neither is asked.

A date said after a word that ends a period ("until March 14th", "till next Friday", "returning on the 9th", "back
on the 12th") is the end's; a date said otherwise is the start's ("a car on March 8th", "from the 6th"). Which slot
starts and which ends comes from the slots' own names, never the flow's; with no clear pair nothing is read here.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Sequence

from ...flow import Slot, SlotType
from ...language import read_date

__all__ = ["END", "START", "date_role", "paired_dates"]

START, END = "start", "end"
_START_WORDS = frozenset("pickup start from outbound begin beginning checkin leaving depart departure".split())
_END_WORDS = frozenset("dropoff end until return returning inbound checkout".split())
_END_CUE = re.compile(
    r"(?<![\w'])(?:until|till|'til|through|to|back(?:\s+on)?|return(?:ing)?(?:\s+(?:it|the\s+\w+))?(?:\s+on)?|"
    r"drop(?:ping)?\s+(?:it\s+)?off(?:\s+on)?|check(?:ing)?\s+out(?:\s+on)?|(?:and\s+)?keep\s+it\s+(?:until|till))\s+"
    r"(?=(?:the\s+)?(?:\d|next\b|this\b|tomorrow\b|monday|tuesday|wednesday|thursday|friday|saturday|sunday|"
    r"jan|feb|mar|apr|may\b|jun|jul|aug|sep|oct|nov|dec))",
    re.I,
)
"""Words that end a period, right before a date."""


def date_role(slot: Slot) -> str | None:
    """:data:`START` or :data:`END` by the words of the slot's name ("pickup_date", "check_out_date"), or None."""
    if slot.type is not SlotType.date:
        return None
    words = set(re.split(r"[_\W]+", slot.name.casefold()))
    joined = slot.name.casefold().replace("_", "")
    words |= {w for w in ("checkin", "checkout", "pickup", "dropoff") if w in joined}
    start, end = bool(words & _START_WORDS), bool(words & _END_WORDS)
    return START if start and not end else END if end and not start else None


def paired_dates(slots: Sequence[Slot], text: str, now: dt.datetime) -> dict[str, str]:
    """Slot name -> the date ``text`` gives it, for the flow's one start date slot and one end date slot."""
    dated = [slot for slot in slots if slot.type is SlotType.date]
    starts = [slot for slot in dated if date_role(slot) == START]
    ends = [slot for slot in dated if date_role(slot) == END]
    if len(starts) != 1 or len(ends) != 1:
        return {}
    out = {}
    cue = _END_CUE.search(text)
    before = text if cue is None else text[: cue.start()]
    if (start := read_date(before, now)) is not None:
        out[starts[0].name] = start
    if cue is not None and (end := read_date(text[cue.end() :], now)) is not None:
        out[ends[0].name] = end
    return out
