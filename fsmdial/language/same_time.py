"""A moment said as now's time on another day ("this time next week", "same time tomorrow"): the day and the clock
both, which no date or time reader finds on its own."""

from __future__ import annotations

import datetime as dt
import re

_SAME_TIME = re.compile(
    r"(?<![\w'])(?:this|the\s+same|same)\s+time\s+(?P<when>tomorrow|next\s+week|a\s+week\s+(?:today|from\s+(?:now|today))"
    r"|in\s+a\s+week(?:'s\s+time)?)(?![\w'])",
    re.I,
)
_DAYS_ON = {"tomorrow": 1}


def with_same_time(text: str, now: dt.datetime) -> str:
    """``text`` with "this time next week" (and "same time tomorrow", "this time a week today") written as the day and
    the clock it means from ``now`` ("6 January at 16:00"); ``text`` itself when it says none."""
    if "time" not in text.casefold():
        return text

    def written(found: re.Match[str]) -> str:
        days = _DAYS_ON.get(found.group("when").casefold(), 7)
        day = (now + dt.timedelta(days=days)).date()
        return f"{day.day} {day:%B} at {now:%H:%M}"

    return _SAME_TIME.sub(written, text)
