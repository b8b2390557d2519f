"""Dates as customers say them; a weekday alone or a day without a month resolved inside the slot's bounds."""

from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fsmdial.flow import Slot, SlotType
from fsmdial.language import (
    NEXT_ONE,
    date_readings,
    find_numbers,
    parse_date,
    read_date,
    remove_dates_and_times,
    says_only_when,
)
from fsmdial.loader import load_flow
from fsmdial.runtime import Dialogue
from fsmdial.understand.base import UnderstandingState
from fsmdial.understand.constraint.grounding import typed_candidates
from fsmdial.understand.rules import RulesUnderstander
from fsmdial.values import InvalidValue, coerce

NOW = dt.datetime(2026, 11, 23, 10, 0)  # a Monday


@pytest.mark.parametrize(
    ("said", "date"),
    [
        # relative days
        ("in two days", "2026-11-25"),
        ("in 2 days", "2026-11-25"),
        ("in a day", "2026-11-24"),
        ("in three days please", "2026-11-26"),
        ("a week from today", "2026-11-30"),
        ("a week today", "2026-11-30"),
        ("in a week", "2026-11-30"),
        ("two weeks from tomorrow", "2026-12-08"),
        ("in a fortnight", "2026-12-07"),
        ("5 days from now", "2026-11-28"),
        ("the day after tomorrow", "2026-11-25"),
        ("day after tomorrow", "2026-11-25"),
        ("tomorrow", "2026-11-24"),
        ("tonight", "2026-11-23"),
        ("today", "2026-11-23"),
        # weekdays
        ("next Friday", "2026-11-27"),
        ("this Saturday", "2026-11-28"),
        ("Friday", "2026-11-27"),
        ("on saturday", "2026-11-28"),
        ("next Monday", "2026-11-30"),  # today is Monday: next is the one after
        ("Monday", "2026-11-23"),
        ("Friday next week", "2026-12-04"),
        ("thursday this week", "2026-11-26"),
        ("on Wednesday the 2nd", "2026-12-02"),
        ("Friday the 27th", "2026-11-27"),
        # a day, with or without a month
        ("the 21st", "2026-12-21"),
        ("on the 3rd", "2026-12-03"),
        ("the twenty-first", "2026-12-21"),
        ("on the first", "2026-12-01"),
        ("the 25th", "2026-11-25"),
        ("December 3rd", "2026-12-03"),
        ("December the 3rd", "2026-12-03"),
        ("December third", "2026-12-03"),
        ("the first of December", "2026-12-01"),
        ("Nov 21", "2027-11-21"),  # already past this year
        ("Nov 30", "2026-11-30"),
        ("3rd of January", "2027-01-03"),
        ("on the 4th of December", "2026-12-04"),
        ("12th of this month", "2026-12-12"),
        # numeric: month first (US), unless the first number cannot be a month
        ("3/12", "2027-03-12"),
        ("12/25", "2026-12-25"),
        ("25/12", "2026-12-25"),
        ("12/25/2026", "2026-12-25"),
        ("2026-12-01", "2026-12-01"),
        # no date
        ("just a second", None),
        ("tell me about the menu first", None),
        ("at 12.30", None),
        ("a table for 2", None),
        ("two weeks", None),
        ("", None),
    ],
)
def test_parse_date(said: str, date: str | None) -> None:
    assert parse_date(said, NOW) == date


def test_a_weekday_alone_or_a_day_without_a_month_has_the_coming_ones_as_readings() -> None:
    fridays = date_readings("Friday", NOW)
    assert fridays[:3] == ("2026-11-27", "2026-12-04", "2026-12-11") and len(fridays) >= 52
    days = date_readings("the 31st", NOW)
    assert days[:3] == ("2026-12-31", "2027-01-31", "2027-03-31")  # the months that have one
    assert date_readings("next Friday", NOW) == ("2026-11-27",)
    assert date_readings("December 3rd", NOW) == ("2026-12-03",)


def test_read_date_passes_a_date_with_several_readings_on_as_written() -> None:
    assert read_date("Friday", NOW) == "Friday" + NEXT_ONE
    assert read_date("on the 21st please", NOW) == "the 21st" + NEXT_ONE
    assert read_date("the twenty-second", NOW) == "the 22nd" + NEXT_ONE
    assert read_date("tomorrow", NOW) == "2026-11-24"
    assert read_date("nothing", NOW) is None
    assert date_readings(read_date("the 3rd", NOW) or "", NOW) == date_readings("the 3rd", NOW)  # reads back


def _date_slot(earliest: str | None = None, latest: str | None = None) -> Slot:
    return Slot(name="day", type=SlotType.date, earliest=earliest, latest=latest)


@pytest.mark.parametrize(
    ("said", "earliest", "latest", "stored"),
    [
        ("the 21st", None, None, "2026-12-21"),
        ("the 21st", "today+30", None, "2027-01-21"),  # the next 21st inside the bounds
        ("the 25th", "today+3", "today+60", "2026-12-25"),  # not this month's, two days away
        ("the 24th", "today", "today+5", "2026-11-24"),
        ("Friday", "today+7", None, "2026-12-04"),
        ("Friday", "today+14", "today+30", "2026-12-11"),
        ("friday", None, None, "2026-11-27"),
        ("Monday", "today+1", None, "2026-11-30"),  # not today's
    ],
)
def test_the_next_one_inside_the_bounds(said: str, earliest: str | None, latest: str | None, stored: str) -> None:
    slot = _date_slot(earliest, latest)
    assert coerce(slot, read_date(said, NOW), NOW) == stored


def test_a_day_without_a_month_never_inside_the_bounds_is_refused() -> None:
    with pytest.raises(InvalidValue, match="allowed date"):
        coerce(_date_slot("today+2", "today+10"), read_date("the 23rd", NOW), NOW)
    with pytest.raises(InvalidValue, match="before the earliest"):
        coerce(_date_slot("today+400"), read_date("Friday", NOW), NOW)


def _visit(earliest: str, latest: str) -> dict[str, object]:
    day = {"name": "day", "type": "date", "earliest": earliest, "latest": latest}
    return {
        "name": "visit",
        "nodes": [
            {"id": "ask", "type": "request", "slots": [day]},
            {"id": "done", "type": "end", "message": "See you on {day:%Y-%m-%d}."},
        ],
        "edges": [{"source": "ask", "target": "done"}],
    }


def _state(doc: dict[str, object]) -> UnderstandingState:
    dialogue = Dialogue(load_flow(doc), clock=lambda: NOW)
    dialogue.start()
    return dialogue.understanding_state()


def test_rules_and_grounded_spans_resolve_the_same_way() -> None:
    doc = _visit("today+30", "today+90")
    slot = load_flow(doc).slots()["day"]
    rules = RulesUnderstander().understand(_state(doc), "on the 21st please", now=NOW)
    offered = typed_candidates(slot, "on the 21st please", NOW)
    assert rules.slots["day"] in offered.values()
    assert {coerce(slot, value, NOW) for value in offered.values()} == {"2027-01-21"}
    assert coerce(slot, rules.slots["day"], NOW) == "2027-01-21"


def test_a_bounded_flow_books_the_next_weekday_inside_its_bounds() -> None:
    flow = load_flow(_visit("today+7", "today+60"))
    dialogue = Dialogue(flow, clock=lambda: NOW)
    dialogue.start()
    assert dialogue.turn("Friday works for me").messages == ["See you on 2026-12-04."]
    again = Dialogue(flow, clock=lambda: NOW)
    again.start()
    assert again.turn("the 25th").messages == ["See you on 2026-12-25."]


def test_dates_are_removed_before_numbers_are_read() -> None:
    assert find_numbers(remove_dates_and_times("a table for four in two days", NOW)) == [4]
    assert find_numbers(remove_dates_and_times("six of us on the twenty-first", NOW)) == [6]
    assert find_numbers(remove_dates_and_times("3 people, 3/12 at 7pm", NOW)) == [3]


@given(st.dates(dt.date(2000, 1, 1), dt.date(2099, 12, 31)))
def test_every_written_day_reads_back(day: dt.date) -> None:
    now = dt.datetime(1999, 12, 31, 12, 0)
    assert parse_date(f"{day:%B} {day.day}, {day.year}", now) == day.isoformat()
    assert parse_date(f"the {day.day}{_suffix(day.day)} of {day:%B} {day.year}", now) == day.isoformat()
    assert parse_date(day.isoformat(), now) == day.isoformat()


@given(st.integers(0, 60), st.integers(0, 6))
def test_a_day_in_n_days_and_a_weekday_are_ahead(days: int, weekday: int) -> None:
    assert parse_date(f"in {days} days", NOW) == (NOW.date() + dt.timedelta(days=days)).isoformat()
    name = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")[weekday]
    found = dt.date.fromisoformat(parse_date(name, NOW) or "")
    assert found.weekday() == weekday and 0 <= (found - NOW.date()).days < 7


def _suffix(day: int) -> str:
    return "th" if 10 <= day % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(day % 10, "th")


def _booking(hours: tuple[str, str] = ("08:00", "22:00")) -> dict[str, object]:
    time = {"name": "time", "type": "time", "earliest": hours[0], "latest": hours[1], "not_past_with": "day"}
    return {
        "name": "booking",
        "nodes": [
            {"id": "ask", "type": "request", "slots": [{"name": "day", "type": "date"}, time]},
            {"id": "done", "type": "end", "message": "{day:%Y-%m-%d} at {time:%H:%M}."},
        ],
        "edges": [{"source": "ask", "target": "done"}],
    }


@pytest.mark.parametrize(
    ("clock", "said", "booked"),
    [
        ("2025-06-13T18:30", "Friday at 7", "2025-06-13 at 19:00."),  # today's hours are still ahead
        ("2025-06-13T22:30", "Friday at 7", "2025-06-20 at 19:00."),  # none is: the next Friday
        ("2025-06-13T22:30", "the 13th at 9 am", "2025-07-13 at 09:00."),
        ("2025-06-13T22:30", "next Friday at 7", "2025-06-20 at 19:00."),
    ],
)
def test_a_day_with_no_hours_left_is_not_the_next_one(clock: str, said: str, booked: str) -> None:
    now = dt.datetime.fromisoformat(clock)
    dialogue = Dialogue(load_flow(_booking()), clock=lambda: now)
    dialogue.start()
    assert dialogue.turn(said).messages == [booked]


def test_today_with_no_hours_left_is_still_refused() -> None:
    now = dt.datetime(2025, 6, 13, 22, 30)
    dialogue = Dialogue(load_flow(_booking()), clock=lambda: now)
    dialogue.start()
    result = dialogue.turn("today at 7")
    assert result.node == "ask" and "day" not in dialogue.slots


@pytest.mark.parametrize(
    ("text", "only_when"),
    [
        ("next Friday around 10", True),
        ("on the 3rd, say half past 7 please", True),
        ("tomorrow morning if possible", True),
        ("Saturday", True),
        ("he has been limping since yesterday", False),
        ("a check-up, maybe next week", False),
        ("around about then", False),  # no moment named
        ("", False),
    ],
)
def test_a_reply_that_says_only_when(text: str, only_when: bool) -> None:
    assert says_only_when(text) is only_when


@pytest.mark.parametrize(
    ("said", "day"),
    [
        ("maybe 8 years", None),  # "maybe" is no May
        ("12 margheritas, medium", None),  # nor "margheritas" March
        ("8 juniors", None),
        ("may 8", "2027-05-08"),
        ("Sept. 9", "2027-09-09"),
        ("the 4th of july", "2027-07-04"),
        ("febuary 3rd", "2027-02-03"),  # a month misspelt is still the month, not the coming 3rd
    ],
)
def test_a_month_is_its_name_or_abbreviation_never_a_word_beginning_as_one_does(said, day):
    import datetime as dt

    from fsmdial.language import read_date

    assert read_date(said, dt.datetime(2026, 12, 15)) == day


def test_a_day_since_which_something_happened_is_no_date_wanted():
    from fsmdial.language.dates import without_past_moments

    assert "tuesday" not in without_past_moments("no signal since the wind on tuesday, the dish has moved").casefold()
    assert "friday" in without_past_moments("can you come on friday").casefold()
