"""Times of day as customers say them, with one reading or two (the slot's hours pick)."""

from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fsmdial.flow import Slot
from fsmdial.language import TWELVE_HOUR, clock_readings, find_numbers, parse_time, read_clock, remove_times
from fsmdial.values import InvalidValue, coerce

NOW = dt.datetime(2026, 11, 23, 10, 0)  # a Monday morning


@pytest.mark.parametrize(
    ("said", "readings"),
    [
        # one reading: am/pm, a part of the day, a 24-hour clock, noon and midnight
        ("half past seven in the evening", ("19:30",)),
        ("7:30 in the evening", ("19:30",)),
        ("8.30pm", ("20:30",)),
        ("at 8.30pm please", ("20:30",)),
        ("quarter past seven pm", ("19:15",)),
        ("half past six pm", ("18:30",)),
        ("quarter to eight in the evening", ("19:45",)),
        ("around 8 in the evening", ("20:00",)),
        ("tonight at 8", ("20:00",)),
        ("tomorrow evening around 7", ("19:00",)),
        ("tomorrow morning at 10", ("10:00",)),
        ("9 at night", ("21:00",)),
        ("12:30 at night", ("00:30",)),
        ("6 o'clock in the evening", ("18:00",)),
        ("evening 5", ("17:00",)),
        ("morning 11", ("11:00",)),
        ("around noon", ("12:00",)),
        ("midday", ("12:00",)),
        ("12 noon", ("12:00",)),
        ("midnight", ("00:00",)),
        ("quarter to midnight", ("23:45",)),
        ("half past noon", ("12:30",)),
        ("17.30", ("17:30",)),
        ("19:00", ("19:00",)),
        ("07:45", ("07:45",)),
        ("nineteen thirty", ("19:30",)),
        ("7 p.m.", ("19:00",)),
        ("at 12am", ("00:00",)),
        ("4:30pm", ("16:30",)),
        ("half seven pm", ("19:30",)),
        # two readings, as written first: the slot's hours pick one
        ("quarter to five", ("04:45", "16:45")),
        ("quarter past 8", ("08:15", "20:15")),
        ("ten past seven", ("07:10", "19:10")),
        ("twenty to nine", ("08:40", "20:40")),
        ("5 minutes past 6", ("06:05", "18:05")),
        ("half seven", ("07:30", "19:30")),
        ("seven thirty", ("07:30", "19:30")),
        ("seven forty-five", ("07:45", "19:45")),
        ("9.30", ("09:30", "21:30")),
        ("ok, 9.30 please", ("09:30", "21:30")),
        ("at 7", ("07:00", "19:00")),
        ("Good evening, at 7 please", ("07:00", "19:00")),  # a greeting names no part of the day
        ("by 5", ("05:00", "17:00")),
        ("seven o'clock", ("07:00", "19:00")),
        ("12:30", ("12:30", "00:30")),
        ("for 2 at 12.30 tomorrow", ("12:30", "00:30")),
        ("the pickup should be at 6:30 instead", ("06:30", "18:30")),
        # no time
        ("about 4", ()),
        ("at 4 people", ()),
        ("table for 4", ()),
        ("it costs 8.30", ()),
        ("2 30 minutes", ()),
        ("13pm", ()),
        ("24:00", ()),
        ("half of them", ()),
        ("a quarter of the cake", ()),
        ("no time", ()),
        ("", ()),
    ],
)
def test_clock_readings(said: str, readings: tuple[str, ...]) -> None:
    assert clock_readings(said, NOW) == readings


@pytest.mark.parametrize(
    ("said", "time"),
    [
        ("in an hour", "11:00"),
        ("in 30 minutes", "10:30"),
        ("in half an hour", "10:30"),
        ("in two hours", "12:00"),
        ("in an hour and a half", "11:30"),
        ("in 45 mins", "10:45"),
    ],
)
def test_a_time_from_now_needs_the_clock(said: str, time: str) -> None:
    assert clock_readings(said, NOW) == (time,)
    assert clock_readings(said) == ()  # without the dialogue's clock: no time


def test_read_clock_marks_a_time_with_two_readings() -> None:
    assert read_clock("half past seven") == "7:30" + TWELVE_HOUR
    assert read_clock("half past seven in the evening") == "19:30"
    assert read_clock("no time here") is None
    assert clock_readings(read_clock("quarter to five") or "") == ("04:45", "16:45")  # the mark reads back


def test_parse_time_is_the_reading_as_written_first() -> None:
    assert parse_time("quarter to five") == "04:45"
    assert parse_time("8.30pm") == "20:30"
    assert parse_time("nothing") is None


def test_times_are_removed_before_numbers_are_read() -> None:
    said = "a table for six at half past seven in the evening"
    assert find_numbers(remove_times(said)) == [6]
    assert find_numbers(remove_times("for 2 at 12.30 tomorrow")) == [2]
    assert find_numbers(remove_times("5 people at quarter to 8")) == [5]


@pytest.mark.parametrize(
    ("said", "hours", "stored"),
    [
        ("half past seven", ("12:00", "22:30"), "19:30"),
        ("quarter to five", ("08:00", "18:00"), "16:45"),
        ("seven thirty", ("11:00", "22:00"), "19:30"),
        ("9.30", ("08:00", "18:00"), "09:30"),
        ("at 4", ("08:00", "18:00"), "16:00"),
        ("ten past 11", ("18:00", "02:00"), "23:10"),
        ("half past twelve", ("18:00", "02:00"), "00:30"),
    ],
)
def test_the_slots_hours_pick_the_reading(said: str, hours: tuple[str, str], stored: str) -> None:
    slot = Slot(name="time", type="time", earliest=hours[0], latest=hours[1])
    assert coerce(slot, read_clock(said), NOW) == stored


def test_a_time_with_neither_reading_inside_the_hours_is_refused() -> None:
    slot = Slot(name="time", type="time", earliest="11:00", latest="14:00")
    with pytest.raises(InvalidValue):
        coerce(slot, read_clock("quarter to five"), NOW)


@given(st.integers(1, 12), st.sampled_from([0, 15, 30, 45]))
def test_every_clock_time_said_in_words_has_its_two_readings(hour: int, minute: int) -> None:
    words = {
        0: f"{hour} o'clock",
        15: f"quarter past {hour}",
        30: f"half past {hour}",
        45: f"quarter to {hour % 12 + 1}",
    }
    morning = f"{hour % 12:02d}:{minute:02d}"
    evening = f"{hour % 12 + 12:02d}:{minute:02d}"
    readings = clock_readings(words[minute])
    assert set(readings) == {morning, evening}
    assert clock_readings(words[minute] + " pm") == (evening,)
    assert clock_readings(words[minute] + " in the morning") == (morning,)


@given(st.text(max_size=60))
def test_any_text_gives_readings_of_the_stored_form(text: str) -> None:
    for reading in clock_readings(text, NOW):
        hour, minute = reading.split(":")
        assert 0 <= int(hour) <= 23 and 0 <= int(minute) <= 59


def test_an_approximate_hour_is_read_in_linear_time_over_runs_of_dashes() -> None:
    # "-" was a filler word and also a gap between words: "-" * 34 + "x" took 4.8 s (found hanging the input fuzz).
    import time

    from fsmdial.language.times import approximate_clock

    started = time.perf_counter()
    assert approximate_clock("-" * 5000 + "x") is None
    assert time.perf_counter() - started < 1.0
    assert approximate_clock("ok - around 11") is not None and approximate_clock("- say 9.30 please") is not None


@pytest.mark.parametrize(
    ("said", "readings"),
    [
        ("I need a small van monday morning, 9", ("09:00",)),  # a part of the day before a bare hour picks it
        ("tomorrow evening, 7", ("19:00",)),
        ("sunday morning, 2 boxes", ()),  # a count, no hour
    ],
)
def test_a_bare_hour_after_a_part_of_the_day_and_a_comma_is_a_time(said, readings):
    assert clock_readings(said) == readings


@pytest.mark.parametrize(
    ("said", "readings"),
    [
        # round 9: the morning is the husband's session, not the visit ("say 2 o'clock" booked 02:00, refused)
        ("say 2 o'clock, he has his session in the morning", ("02:00", "14:00")),
        ("at 7. She works in the evening", ("07:00", "19:00")),
        ("could they come at 2? I've got the dentist that morning", ("02:00", "14:00")),
        ("around 9 on tues, I'm in all morning", ("09:00",)),  # the speaker's own morning still picks
        ("tomorrow morning, ideally around 9", ("09:00",)),  # the same clause's part of the day still picks
        ("at 7, in the evening", ("19:00",)),
    ],
)
def test_a_part_of_the_day_in_another_clause_picks_no_reading(said, readings):
    assert clock_readings(said) == readings
