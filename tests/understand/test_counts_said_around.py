"""Rounds 19 and 20's classes, each a general mechanism, tested on wordings of its own on a small trampoline-park flow:

- a number followed by a word for people ("6 kids", "4 players for the big arena") is a count, never an hour;
- "grown ups" count in a listed party ("3 kids and 1 grown up": 4), and "a group of three" counts people;
- "whatever you've got earliest" is the earliest time;
- "two of them are ..." beside another number is part of that count ("seven, two of them are teenagers": 7);
- "it'll be 5 now" at a confirmation is a change;
- a dotted time on the quarter hour after a change's words ("can we do 3.30 instead") is a time, never a count;
- "our twins" count two;
- "Jan" is a first name, as "May" and "June" are;
- "no, there's already one" to a question offering something new is a no, whatever side its words name.
"""

from __future__ import annotations

from typing import Any

import pytest

from fsmdial.language.names import find_name
from fsmdial.language.times import read_clock
from fsmdial.runtime import Dialogue
from fsmdial.understand.rules.numbers_said import without_lengths_of_time, without_subsets
from tests.flows import played

PARK: dict[str, Any] = {
    "name": "trampoline_park",
    "description": "Book a session at a trampoline park.",
    "examples": ["I'd like to book a jump session"],
    "nodes": [
        {
            "id": "ask",
            "type": "request",
            "slots": [
                {
                    "name": "arena",
                    "type": "categorical",
                    "values": ["big arena", "toddler zone"],
                    "ask": "The big arena or the toddler zone?",
                },
                {
                    "name": "jumpers",
                    "type": "integer",
                    "minimum": 1,
                    "maximum": 12,
                    "label": "number of jumpers",
                    "description": "How many people are jumping",
                    "ask": "How many jumpers?",
                },
                {"name": "day", "type": "date", "earliest": "today", "ask": "Which day?"},
                {"name": "start", "type": "time", "earliest": "10:00", "latest": "13:00", "ask": "What time?"},
            ],
        },
        {
            "id": "confirm",
            "type": "inform_and_confirm",
            "message": "The {arena} for {jumpers} on {day} at {start}.",
            "question": "Shall I book it?",
        },
        {"id": "done", "type": "end", "message": "Booked."},
    ],
    "edges": [
        {"source": "ask", "target": "confirm"},
        {"source": "confirm", "target": "done", "when": {"answer": "yes"}},
    ],
}
NOW = "2027-05-03T08:00"  # a Monday


def _dialogue(*said: str) -> Dialogue:
    return played(PARK, NOW, *said)


def test_a_number_before_people_is_no_hour():
    dialogue = _dialogue("morning, 6 kids for the big arena please")
    assert dialogue.slots["jumpers"] == 6
    assert "start" not in dialogue.slots


@pytest.mark.parametrize(
    ("said", "count"), [("3 kids and 1 grown up", 4), ("2 grown-ups and 2 kids", 4), ("a group of three", 3)]
)
def test_grown_ups_and_groups_count(said, count):
    assert _dialogue("the big arena", said).slots["jumpers"] == count


def test_a_group_in_the_first_message_counts():
    assert _dialogue("the toddler zone on Friday, for a group of three").slots["jumpers"] == 3


@pytest.mark.parametrize("said", ["whatever you've got earliest", "whatever's earliest"])
def test_whatever_is_earliest(said):
    assert read_clock(said) == "first thing (the earliest)"


@pytest.mark.parametrize(
    ("said", "left"),
    [
        ("seven, two of them are teenagers", "seven,   teenagers"),
        ("one of them's dropped out, it'll be 5", "  dropped out, it'll be 5"),
        ("2 of them, one for each of the kids", "2 of them, one for each of the kids"),  # the count itself
        ("two of them are teenagers", "two of them are teenagers"),  # no other number: kept
    ],
)
def test_part_of_a_count_beside_it(said, left):
    assert without_subsets(said) == left


def test_seven_two_of_them_teenagers_is_seven():
    assert _dialogue("the big arena", "seven, two of them are teenagers").slots["jumpers"] == 7


def test_it_will_be_n_now_at_the_confirmation_is_a_change():
    dialogue = _dialogue("the big arena", "6", "tomorrow", "11am")
    assert dialogue.session.node == "confirm"
    dialogue.turn("one of the kids is poorly so it'll be 5 now")
    assert dialogue.slots["jumpers"] == 5


@pytest.mark.parametrize(
    ("said", "left"),
    [
        ("every couple of months", "every  "),
        ("for 3 years", "for  "),
        ("2 nights from wednesday", "2 nights from wednesday"),  # nights, days and hours are what stays count
        ("she's 31 years old", "she's 31 years old"),  # an age
        ("3 months of lessons", "3 months of lessons"),  # the unit names a slot: kept
    ],
)
def test_lengths_of_time_in_weeks_or_more_count_nothing(said, left):
    naming = frozenset({"lessons", "months"}) if "lessons" in said else frozenset()
    assert without_lengths_of_time(said, naming) == left


@pytest.mark.parametrize(
    ("said", "clock"),
    [
        ("actually can we do 3.30 instead", "3:30 (12-hour clock)"),
        ("make it 9.15", "9:15 (12-hour clock)"),
        ("can we do 4.50 each", None),  # no quarter hour: an amount
        ("it costs 8.30", None),
    ],
)
def test_a_dotted_time_after_a_change(said, clock):
    assert read_clock(said) == clock


def test_a_dotted_time_at_the_confirmation_changes_the_time():
    dialogue = _dialogue("the big arena", "6", "tomorrow", "11am")
    dialogue.turn("actually can we do 11.30 instead")
    assert dialogue.slots["start"] == "11:30" and dialogue.slots["jumpers"] == 6


def test_twins_count_two():
    assert _dialogue("the big arena", "me, my wife and our twins").slots["jumpers"] == 4


@pytest.mark.parametrize("said", ["Jan Kowalski", "May Thompson", "June Carter"])
def test_a_first_name_that_is_a_month(said):
    assert find_name(said, asked=True) == said
