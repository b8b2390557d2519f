"""Relative dates two days fit ("next Saturday" said on a Friday) are passed on to be asked about, never guessed;
the week forms ("next week Tuesday", "a week Tuesday") read as the day of that week (issue 34, item 6)."""

from __future__ import annotations

import datetime as dt

import pytest

from fsmdial.language import WEEKDAYS, parse_date, read_date
from fsmdial.language.dates import ASK_WHICH, day_choices

FRIDAY = dt.datetime(2026, 11, 27, 10, 0)
MONDAY = dt.datetime(2026, 11, 23, 10, 0)


@pytest.mark.parametrize("weekday", range(7))
def test_next_weekday_said_the_day_before_it_has_two_readings_asked_about(weekday: int) -> None:
    now = dt.datetime(2026, 11, 23, 10, 0) + dt.timedelta(days=(weekday - 1) % 7)  # the day before `weekday`
    said = f"next {WEEKDAYS[weekday]} please"
    tomorrow = (now.date() + dt.timedelta(days=1)).isoformat()
    week_later = (now.date() + dt.timedelta(days=8)).isoformat()
    assert day_choices(said, now) == (tomorrow, week_later)
    assert read_date(said, now) == f"{tomorrow} or {week_later}{ASK_WHICH}"
    assert day_choices(read_date(said, now) or "", now) == (tomorrow, week_later)  # read back from what it passes on
    assert parse_date(said, now) == tomorrow  # the first reading, for readers that take one


@pytest.mark.parametrize(
    ("said", "now", "day"),
    [
        ("next Sunday", FRIDAY, "2026-11-29"),  # two days ahead: the coming one, as before
        ("next Friday", FRIDAY, "2026-12-04"),  # said on a Friday: a week on
        ("this Saturday", FRIDAY, "2026-11-28"),
        ("this coming Saturday", FRIDAY, "2026-11-28"),
        ("next Saturday the 28th", FRIDAY, "2026-11-28"),  # the number settles it
        ("Saturday next week", FRIDAY, "2026-12-05"),
        ("next week Saturday", FRIDAY, "2026-12-05"),
    ],
)
def test_a_relative_day_with_one_reading_is_not_asked(said: str, now: dt.datetime, day: str) -> None:
    assert day_choices(said, now) == ()
    assert read_date(said, now) == day


@pytest.mark.parametrize(
    "said", ["next week Tuesday", "next week on Tuesday", "Tuesday next week", "next week, Tuesday", "a week Tuesday"]
)
def test_tuesday_of_next_week_said_on_a_monday_is_not_tomorrow(said: str) -> None:
    assert read_date(said, MONDAY) == "2026-12-01"  # was 2026-11-24 (tomorrow) for "next week Tuesday"


def test_a_week_tuesday_is_a_week_after_the_coming_tuesday() -> None:
    assert read_date("a week Tuesday", FRIDAY) == "2026-12-08"
    assert read_date("this week Wednesday", MONDAY) == "2026-11-25"


@pytest.mark.parametrize("said", ["a week on Friday", "a week Friday", "Friday week"])
def test_a_week_on_friday_said_on_a_friday_is_asked(said: str) -> None:
    assert day_choices(said, FRIDAY) == ("2026-12-04", "2026-12-11")  # was no date at all


def test_no_date_and_several_readings_are_no_choice() -> None:
    assert day_choices("I'd like to book", FRIDAY) == ()
    assert day_choices("Saturday", FRIDAY) == ()  # a weekday alone: the slot's bounds resolve it
    assert day_choices("the 21st", FRIDAY) == ()
