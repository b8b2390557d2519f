"""A pair of date slots, one where something starts and one where it ends (rules): which is which by the slots'
names (:func:`~fsmdial.understand.rules.date_roles.date_role`), a date after "until", "till", "returning on" is the
end's, any other the start's (:func:`~fsmdial.understand.rules.date_roles.paired_dates`)."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from fsmdial.flow import Slot, SlotType
from fsmdial.runtime import Dialogue
from fsmdial.understand.rules.date_roles import END, START, date_role, paired_dates

NOW = dt.datetime(2019, 3, 1, 12, 0)  # a Friday


def _date(name: str) -> Slot:
    return Slot(name=name, type=SlotType.date)


@pytest.mark.parametrize(
    ("name", "role"),
    [
        ("pickup_date", START),
        ("dropoff_date", END),
        ("departure_date", START),
        ("return_date", END),
        ("check_in_date", START),
        ("check_out_date", END),
        ("date", None),
        ("visit_date", None),
    ],
)
def test_a_date_slot_starts_or_ends_by_its_name(name: str, role: str | None):
    assert date_role(_date(name)) == role


CAR = [_date("pickup_date"), _date("dropoff_date")]


@pytest.mark.parametrize(
    ("said", "dates"),
    [
        ("a car on March 8th please", {"pickup_date": "2019-03-08"}),
        (
            "I need it from the 6th of March till March 14th",
            {"pickup_date": "2019-03-06", "dropoff_date": "2019-03-14"},
        ),
        (
            "pick it up on the 9th of March and keep it until March 14th",
            {"pickup_date": "2019-03-09", "dropoff_date": "2019-03-14"},
        ),
        ("I'll bring it back on March 12th", {"dropoff_date": "2019-03-12"}),
        ("I want to go somewhere nice", {}),
    ],
)
def test_a_date_after_words_that_end_a_period_is_the_end(said: str, dates: dict[str, str]):
    assert paired_dates(CAR, said, NOW) == dates


def test_no_pair_reads_nothing_here():
    assert paired_dates([_date("pickup_date"), _date("visit_date")], "on March 8th", NOW) == {}


RENTAL_FLOW: dict[str, Any] = {
    "name": "rental",
    "description": "Rent a car.",
    "nodes": [
        {
            "id": "ask",
            "type": "request",
            "slots": [
                {"name": "pickup_date", "type": "date", "description": "Day to pick up the car"},
                {"name": "dropoff_date", "type": "date", "description": "Day to bring the car back"},
            ],
        },
        {"id": "bye", "type": "end", "message": "Done."},
    ],
    "edges": [{"source": "ask", "target": "bye"}],
    "start": "ask",
}


def test_both_dates_of_one_message_are_booked_on_their_slots():
    dialogue = Dialogue(RENTAL_FLOW, stand_in_tools=True, clock=lambda: NOW)
    dialogue.turn("I'd like a car from March 6th until March 9th")
    assert dialogue.slots == {"pickup_date": "2019-03-06", "dropoff_date": "2019-03-09"}
