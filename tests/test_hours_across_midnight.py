"""Issue 33 #10: hours across midnight. With hours 18:00-02:00, the night of a date runs to 02:00 the next morning:
"today" is possible while any of its hours, those after midnight included, is still ahead, and a time after midnight
on that date is a moment of that night (the next calendar day), not the early morning before it."""

from __future__ import annotations

import datetime as dt

import pytest

from fsmdial.loader import load_flow
from fsmdial.runtime import Dialogue
from fsmdial.values import InvalidValue, coerce, passed_times

from .test_bounds import booking_flow

NIGHT = ("18:00", "02:00")
FRIDAY = dt.date(2025, 6, 13)


def at(hour: int, minute: int, day: dt.date = FRIDAY) -> dt.datetime:
    return dt.datetime.combine(day, dt.time(hour, minute))


def night_booking(now: dt.datetime, lead: int = 0) -> Dialogue:
    dialogue = Dialogue(load_flow(booking_flow(lead=lead, hours=NIGHT)), clock=lambda: now)
    dialogue.start()
    return dialogue


@pytest.mark.parametrize("lead", [0, 30])
@pytest.mark.parametrize("said", [["today", "1am"], ["today at 1am"], ["today", "at 1"], ["today", "half past one"]])
def test_today_late_in_the_evening_takes_the_hours_after_midnight(lead: int, said: list[str]) -> None:
    dialogue = night_booking(at(23, 30), lead)
    results = [dialogue.turn(text) for text in said]
    assert dialogue.slots["day"] == "2025-06-13", [r.messages for r in results]
    assert dialogue.slots["time"] in ("01:00", "01:30") and results[-1].node == "done"


def test_today_is_refused_once_the_whole_night_is_behind() -> None:
    # 02:00 on Saturday: Friday's night is over, and "today" (Saturday) still has its own night ahead.
    dialogue = night_booking(at(1, 45, FRIDAY + dt.timedelta(days=1)), lead=30)
    dialogue.turn("yesterday")
    assert "day" not in dialogue.slots  # Friday night's last half hour starts within the lead time: none is left
    dialogue.turn("today")
    assert dialogue.slots["day"] == "2025-06-14"


def test_a_time_after_midnight_is_checked_against_the_night_it_belongs_to() -> None:
    doc = booking_flow(hours=NIGHT)
    slot = load_flow(doc).slots()["time"]
    assert coerce(slot, "1:30am", at(23, 30), day=FRIDAY) == "01:30"  # Saturday 01:30: ahead
    assert coerce(slot, "23:45", at(23, 30), day=FRIDAY) == "23:45"
    with pytest.raises(InvalidValue, match="in the past"):
        coerce(slot, "23:15", at(23, 30), day=FRIDAY)
    with pytest.raises(InvalidValue, match="in the past"):
        coerce(slot, "1am", at(1, 30, FRIDAY + dt.timedelta(days=1)), day=FRIDAY)  # Friday's night, 01:00: behind


def test_a_date_moved_keeps_a_time_after_midnight_that_is_still_ahead() -> None:
    slots = load_flow(booking_flow(hours=NIGHT)).slots()
    held = {"day": "2025-06-13", "time": "01:00"}
    assert passed_times(slots, ["day"], held, at(23, 30)) == []
    held_early = {"day": "2025-06-13", "time": "19:00"}
    assert passed_times(slots, ["day"], held_early, at(23, 30)) == [("time", "2025-06-13 at 19:00 is in the past")]


def test_hours_within_one_day_are_unchanged() -> None:
    dialogue = Dialogue(load_flow(booking_flow(hours=("08:00", "22:00"))), clock=lambda: at(22, 30))
    dialogue.start()
    dialogue.turn("today")
    assert "day" not in dialogue.slots  # 22:00 is behind: nothing of today is left
