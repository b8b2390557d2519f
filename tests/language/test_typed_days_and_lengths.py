"""Issue 34, held-out round 5: days and lengths of time as customers type them, read as said or not at all.

A relative day mistyped or texted ("tomoro", "tommorow", "2morrow", "tonite", "2day", "wensday") is that day; a word
that is no day ("tomato", "knight", "forthright", "a 2day course") and a typo close to two days ("munday") are none;
"tonite at 8" is 8 in the evening, as "tonight at 8" is.
A length said "a couple of hours" is two hours, one typed against its number ("3hrs", "90mins") is that length,
"a few hours" is none (asked). Typed days are held to ``dateparser``'s reading of the day they stand for.
"""

from __future__ import annotations

import datetime as dt

import dateparser
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fsmdial.flow import Slot
from fsmdial.language import WEEKDAYS, date_readings
from fsmdial.language.amounts import find_durations

from .said import NOTHING, in_words, offered, read

SETTINGS = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
DAYS = st.dates(min_value=dt.date(2026, 1, 1), max_value=dt.date(2030, 12, 31))
DAY = Slot(name="day", type="date")
HOURS = Slot(name="hours", type="duration", unit="hours")
MINUTES = Slot(name="length", type="duration")
FRAMES = ["{}", "{} please", "can we do {}?", "hi can i book a canoe for {}", "ok {} then"]

TYPED = {
    "tomorrow": ["tomoro", "tommorow", "tomorow", "tomorro", "tommorrow", "tmrw", "2morrow", "2moro", "2mrw", "tomoz"],
    "today": ["2day"],
    "tonight": ["tonite", "2nite", "2night"],
    "yesterday": ["yesturday", "yesteday"],
}
"""Relative days as customers type them: a letter or two wrong, or as texted."""
TYPED_WEEKDAYS = {
    "monday": ["monady", "mondya"],
    "tuesday": ["tuesdy", "teusday"],
    "wednesday": ["wensday", "wendsday", "wenesday", "wednseday"],
    "thursday": ["thurday", "thrusday", "thursdy"],
    "friday": ["fridya", "frday", "firday"],
    "saturday": ["satuday", "saterday", "satday", "sataday"],
    "sunday": ["sundya", "snuday"],
}
"""Weekdays mistyped: two typos only for a weekday of eight letters or more ("wensday", "satday")."""


def _said_on(today: dt.date) -> dt.datetime:
    return dt.datetime.combine(today, dt.time(9))


def _day_of(word: str, today: dt.date) -> str:
    offsets = {"tomorrow": 1, "today": 0, "tonight": 0, "yesterday": -1}
    return (today + dt.timedelta(days=offsets[word])).isoformat()


# ------------------------------------------------------------------ typed days


@SETTINGS
@given(today=DAYS, word=st.sampled_from(sorted(TYPED)), pick=st.integers(0, 9), frame=st.sampled_from(FRAMES))
def test_a_relative_day_typed_is_that_day(today: dt.date, word: str, pick: int, frame: str) -> None:
    forms = TYPED[word]
    said = frame.format(forms[pick % len(forms)])
    assert date_readings(said, _said_on(today)) == (_day_of(word, today),), said


@SETTINGS
@given(today=DAYS, word=st.sampled_from(["tomorrow", "today", "tonight"]), pick=st.integers(0, 9))
def test_a_relative_day_typed_agrees_with_dateparser(today: dt.date, word: str, pick: int) -> None:
    """The typed form reads as dateparser reads the word it stands for."""
    now = _said_on(today)
    typed = TYPED[word][pick % len(TYPED[word])]
    theirs = dateparser.parse(word, settings={"RELATIVE_BASE": now, "PREFER_DATES_FROM": "future"})
    assert theirs is not None
    assert date_readings(typed, now) == (theirs.date().isoformat(),), typed


@SETTINGS
@given(today=DAYS, weekday=st.integers(0, 6), pick=st.integers(0, 3), frame=st.sampled_from(FRAMES))
def test_a_weekday_typed_is_that_weekday(today: dt.date, weekday: int, pick: int, frame: str) -> None:
    forms = TYPED_WEEKDAYS[WEEKDAYS[weekday]]
    said = frame.format(forms[pick % len(forms)])
    now = _said_on(today)
    assert date_readings(said, now) == date_readings(WEEKDAYS[weekday], now), said
    theirs = dateparser.parse(WEEKDAYS[weekday], settings={"RELATIVE_BASE": now, "PREFER_DATES_FROM": "future"})
    assert theirs is not None
    if weekday != today.weekday():  # said on that day, dateparser reads a week ahead; the slot's bounds read today
        assert read(DAY, said, now=now) == theirs.date().isoformat(), said


@pytest.mark.parametrize(
    "said",
    [
        "tomato",
        "mode",
        "knight",
        "forthright",
        "thirsty",
        "saturate",
        "borrow",
        "morrow",
        "tumour",
        "the seaside",
        "something",
        "tomorrows",
        "wednesdays",
        "a 2day course",
        "the 2day pass",
        "munday",  # monday or sunday: one letter from each
    ],
)
def test_a_word_that_is_no_day_or_close_to_two_is_no_date(said: str) -> None:
    assert date_readings(said, _said_on(dt.date(2027, 3, 9))) == (), said
    assert read(DAY, said) is NOTHING, said


def test_a_typed_day_in_the_held_out_words_is_read() -> None:
    """h5-08's "tomoro" and h5-39's "tommorow", in their conversations' clocks."""
    assert read(DAY, "tomoro", now=dt.datetime(2027, 3, 9, 17, 45)) == "2027-03-10"
    said = "hi can i book a canoo for tommorow"
    assert read(DAY, said, now=dt.datetime(2027, 6, 10, 19)) == "2027-06-11"


# ------------------------------------------------------------------ lengths of time typed


@st.composite
def typed_lengths(draw: st.DrawFn) -> tuple[float, str]:
    """(hours, as typed): a couple, a unit against its number, shortened units."""
    hours, minutes = draw(st.integers(1, 8)), draw(st.integers(10, 59))
    return draw(
        st.sampled_from(
            [
                (2, "a couple of hours"),
                (2, "a couple of hrs"),
                (2, "couple of hours"),
                (2, "a couple hours"),
                (hours, f"{hours}hrs" if hours > 1 else "1hr"),
                (hours, f"{hours} hrs" if hours > 1 else "1 hr"),
                (hours, f"{hours}h"),
                (hours, f"{in_words(hours)} hrs" if hours > 1 else "one hr"),
                (hours + minutes / 60, f"{hours}hr {minutes}"),
                (hours + minutes / 60, f"{hours}hrs {minutes}mins"),
                (minutes / 60, f"{minutes}mins"),
                (1, "an hour or so"),
            ]
        )
    )


@SETTINGS
@given(length=typed_lengths(), frame=st.sampled_from(["{}", "about {}", "{} please", "we'd like it for {}"]))
def test_a_length_typed_is_the_length_said(length: tuple[float, str], frame: str) -> None:
    hours, said = length
    text = frame.format(said)
    assert read(MINUTES, text) == round(hours * 60), text
    assert offered(MINUTES, text) <= {round(hours * 60)}, text
    if hours == int(hours):
        assert read(HOURS, text) == hours, text


@pytest.mark.parametrize(
    "said",
    [
        "a few hours",
        "a couple",
        "hours",
        "2-3hrs",
        "2 or 3hrs",
        "a couple of hours and a half",
        "a couple or three hours",
        "couple of days or a few hours",
    ],
)
def test_a_length_with_no_one_number_is_none(said: str) -> None:
    assert read(HOURS, said) is NOTHING, said


def test_a_day_texted_is_no_length() -> None:
    assert find_durations("2day") == ()
    assert find_durations("2days") == ((0, 5, 2.0, "day"),)


def test_the_held_out_lengths_are_read() -> None:
    """h5-35's "a couple of hours" and h5-39's "3hrs" for a slot counted in hours."""
    assert read(HOURS, "a couple of hours") == 2
    assert read(HOURS, "3hrs") == 3


DAYS_SLOT = Slot(name="days", type="duration", unit="days")


@pytest.mark.parametrize(
    ("said", "days"),
    [
        ("a fortnight", 14),
        ("for a fortnight please", 14),
        ("two fortnights", 28),
        ("just the fortnight", 14),
        ("and just for the day", 1),
        ("just for the day", 1),
    ],
)
def test_a_fortnight_is_two_weeks_and_the_day_said_with_for_is_one(said: str, days: int) -> None:
    assert read(DAYS_SLOT, said) == days, said


@pytest.mark.parametrize("said", ["a week on wednesday", "2 days after friday", "a week today", "a fortnight tomorrow"])
def test_a_length_counting_a_day_from_another_is_a_date_not_a_length(said: str) -> None:
    assert find_durations(said) == (), said


def test_a_length_said_with_for_before_the_day_it_starts_is_both() -> None:
    """ "for 2 days from Saturday": how long, then the day it starts (it read as no date: "days from" counts a day)."""
    wednesday = dt.datetime(2026, 12, 2, 10, 0)
    assert date_readings("a jet washer for 2 days from Saturday please", wednesday)[0] == "2026-12-05"
    assert date_readings("2 days from today", wednesday) == ("2026-12-04",)  # without "for": a day counted
    assert [amount for _, _, amount, _ in find_durations("for 2 days from Saturday")] == [2.0]


@pytest.mark.parametrize("tonight", ["tonight", "tonite", "2nite", "Tonite", "2night"])
def test_tonight_texted_settles_the_evening_as_tonight_does(tonight: str) -> None:
    now = dt.datetime(2027, 6, 10, 9)
    assert read(Slot(name="time", type="time"), f"{tonight} at 8", DAY, now=now) == "20:00"
    assert read(DAY, f"{tonight} at 8", Slot(name="time", type="time"), now=now) == "2027-06-10"


# ------------------------------------------------------------------ a day counted from the day said before


@pytest.mark.parametrize(
    "said",
    [
        "oh right, the saturday after then",  # h5-10, after Friday 26th was refused as closed
        "the saturday after",
        "the day after that",
        "the following monday",
        "following monday please",
        "the monday following",
        "the friday before that",
        "a week after that",
    ],
)
def test_a_day_counted_from_the_day_said_before_is_no_date(said: str) -> None:
    """The readers are not given the day said before: a day counted from it is none (asked again), never the day
    it would be counted from today."""
    assert date_readings(said, dt.datetime(2027, 3, 11, 13)) == (), said
    assert read(DAY, said, now=dt.datetime(2027, 3, 11, 13)) is NOTHING, said


@pytest.mark.parametrize(
    ("said", "day"),
    [
        ("tuesday after school, about 4?", "2027-03-16"),
        ("monday after work", "2027-03-15"),
        ("friday before lunch", "2027-03-12"),
    ],
)
def test_a_weekday_before_or_after_what_the_day_holds_is_that_weekday(said: str, day: str) -> None:
    """Round 10: "thursday after school" is a time of Thursday, no day counted from it (it was read as none)."""
    assert read(DAY, said, now=dt.datetime(2027, 3, 11, 13)) == day, said


@pytest.mark.parametrize(
    ("said", "found"),
    [
        ("just the day", ((0, 12, 1.0, "day"),)),  # one day, said with "the"
        ("the one night please", ((0, 20, 1.0, "night"),)),
        ("the day after tomorrow", ()),  # a day, no length
    ],
)
def test_a_whole_reply_of_one_length_said_with_the_is_one_of_it(said, found):
    assert find_durations(said) == found
