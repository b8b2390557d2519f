"""Two general readings, each tested on wordings of its own:

- a text slot without a pattern whose name says it holds a number or a code ("membership_number", "door_pin",
  "booking_id") takes the word with digits its name points at, asked or named in passing, never the whole sentence
  around it, and never a bare number nobody named it for;
- a categorical slot of the seven weekdays takes the weekday of a day said by other words ("tomorrow", "tonight",
  "next Friday"), and no day when the words say two.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from fsmdial.flow import Slot
from fsmdial.understand.rules.day_values import weekday_said, weekday_values
from fsmdial.understand.rules.forms import names_a_number
from tests.flows import played, request_flow

GYM: dict[str, Any] = request_flow(
    {"name": "membership_number", "type": "string", "ask": "What's your membership number?"},
    {"name": "door_pin", "type": "string", "ask": "And the PIN for the door?"},
    {"name": "guests", "type": "integer", "minimum": 1, "maximum": 4, "ask": "How many guests?"},
    name="gym_guest_pass",
)
NOW = "2027-05-05T09:00"  # a Wednesday


@pytest.mark.parametrize(
    ("name", "type_", "pattern", "numbered"),
    [
        ("membership_number", "string", None, True),
        ("bookingId", "text", None, True),
        ("pin", "string", None, True),
        ("gate_code", "string", None, True),
        ("notes", "string", None, False),
        ("membership_number", "string", r"M\d{6}", False),  # its pattern says its form
        ("guests_number", "integer", None, False),  # a count, not a code
    ],
)
def test_which_slots_are_named_as_numbers(name, type_, pattern, numbered):
    assert names_a_number(Slot(name=name, type=type_, pattern=pattern)) is numbered


def test_the_asked_number_is_the_word_with_digits_not_the_sentence():
    dialogue = played(GYM, NOW, "it's 40021877, though I've lost my card")
    assert dialogue.slots["membership_number"] == "40021877"


def test_two_numbers_named_in_passing_go_to_the_slots_named():
    dialogue = played(GYM, NOW, "membership is 40021877 and the pin's 5512")
    assert dialogue.slots["membership_number"] == "40021877"
    assert dialogue.slots["door_pin"] == "5512"


def test_the_asked_number_beside_another_named_one():
    dialogue = played(GYM, NOW, "40021877, with PIN 5512")
    assert dialogue.slots["membership_number"] == "40021877"
    assert dialogue.slots["door_pin"] == "5512"


def test_a_bare_count_is_no_code_nobody_named():
    dialogue = played(GYM, NOW, "40021877", "5512", "3 guests")
    assert dialogue.slots == {"membership_number": "40021877", "door_pin": "5512", "guests": 3}


def test_digits_said_one_by_one_are_the_number():
    dialogue = played(GYM, NOW, "M for Mike, then four zero zero two one eight seven seven")
    assert dialogue.slots["membership_number"] == "40021877"


@pytest.mark.parametrize("said", ["I left my card at home", "not sure, it's on the card somewhere"])
def test_a_reply_with_no_number_is_no_membership_number(said):
    dialogue = played(GYM, NOW, said)
    assert "membership_number" not in dialogue.slots
    assert dialogue.session.asked == "membership_number"  # asked again


WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
FORECAST: dict[str, Any] = request_flow(
    {"name": "city", "type": "categorical", "values": ["Leeds", "York", "Hull"], "ask": "Which town?"},
    {"name": "day", "type": "categorical", "values": WEEKDAYS, "ask": "Which day?"},
    name="forecast",
)


@pytest.mark.parametrize(
    ("said", "day"),
    [
        ("tomorrow", "Thursday"),
        ("what's it doing tonight", "Wednesday"),
        ("the friday after next", "Friday"),
        ("in a fortnight", "Wednesday"),
        ("friday or saturday", None),  # two days: the flow asks
        ("in York", None),
    ],
)
def test_the_weekday_of_a_day_said_by_other_words(said, day):
    now = dt.datetime.fromisoformat(NOW)
    assert weekday_said(weekday_values(tuple(WEEKDAYS)), said, now) == day


def test_values_that_are_not_the_seven_days_take_no_weekday():
    assert weekday_values(("Monday", "Tuesday", "Wednesday")) is None


def test_the_forecast_for_tomorrow_in_a_town():
    dialogue = played(FORECAST, NOW, "the forecast for Hull tomorrow please")
    assert dialogue.slots == {"city": "Hull", "day": "Thursday"}


def test_a_weekday_named_is_read_as_itself():
    dialogue = played(FORECAST, NOW, "York on Saturday")
    assert dialogue.slots == {"city": "York", "day": "Saturday"}


NIGHTS = ["1st", "2nd", "3rd", *(f"{day}th" for day in range(4, 21)), "21st", "22nd", "23rd"]
NIGHTS += [f"{day}th" for day in range(24, 31)] + ["31st"]
CABIN: dict[str, Any] = request_flow(
    {"name": "name", "type": "string", "description": "Full name", "ask": "Your name?"},
    {"name": "arrive", "type": "categorical", "values": NIGHTS, "description": "Start day (1 - 31)", "ask": "From?"},
    {"name": "leave", "type": "categorical", "values": NIGHTS, "description": "End day (1 - 31)", "ask": "Until?"},
    name="cabin",
)


@pytest.mark.parametrize(
    ("said", "days"),
    [
        ("from 5/9 to 5/16", [9, 16]),
        ("May 13th-16th", [13, 16]),
        ("tonight the 20th", [20]),  # one day said twice
        ("the 14th", [14]),
        ("next week sometime", []),
    ],
)
def test_the_days_of_the_month_said(said, days):
    from fsmdial.understand.rules.day_values import days_of_month_said

    assert days_of_month_said(said, dt.datetime.fromisoformat(NOW)) == days


def test_two_days_said_fill_a_from_and_an_until_slot_of_days_of_the_month():
    dialogue = played(CABIN, NOW, "Hi, my name is Mark I would like the cabin from May 13th-16th")
    assert dialogue.slots == {"name": "Mark", "arrive": "13th", "leave": "16th"}


def test_one_day_said_goes_to_the_slot_asked_and_never_to_both():
    dialogue = played(CABIN, NOW, "Mark", "the 14th")
    assert dialogue.slots == {"name": "Mark", "arrive": "14th"}


def test_thanks_anyway_is_no_name():
    assert "name" not in played(CABIN, NOW, "ok thanks anyway").slots
