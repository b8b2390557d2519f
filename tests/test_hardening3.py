"""Hardening round 3 (issue 22): one test per class, each failing before its fix."""

from __future__ import annotations

import datetime as dt

from hypothesis import given, settings
from hypothesis import strategies as st

from fsmdial.language.dates import MONTHS, impossible_date, parse_date

# ------------------------------------------------------------------ 8. a month and day never raise, whatever the clock


@settings(max_examples=400, deadline=None)
@given(
    month=st.integers(1, 12),
    day=st.integers(1, 31),
    clock=st.dates(dt.date(1990, 1, 1), dt.date(2200, 12, 31)),
    form=st.sampled_from(["{m} {d}", "{d} {m}", "{m} {d}th", "the {d}th of {m}", "{m3} {d}"]),
)
def test_a_month_and_day_are_read_or_refused_on_any_clock(month, day, clock, form):
    name = MONTHS[month - 1]
    text = form.format(m=name.title(), m3=name[:3], d=day)
    now = dt.datetime.combine(clock, dt.time(12, 0))
    found = parse_date(text, now)  # never raises
    said = impossible_date(text, now)
    if found is None:
        assert said is not None, text  # the user is told the date does not exist, never silence
    else:
        date = dt.date.fromisoformat(found)
        assert (date.month, date.day) == (month, day) and date >= clock and said is None


def test_february_29_after_a_leap_day_is_not_an_error():
    now = dt.datetime(2028, 3, 1, 9, 0)  # after 2028-02-29: the next "February 29" would be in 2029, which has none
    assert parse_date("February 29", now) is None
    assert impossible_date("February 29", now) == "February 29"
    assert parse_date("February 28", now) == "2029-02-28"
