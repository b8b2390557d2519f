"""Ambiguity is asked, not guessed (issue 34, item 6): a day two readings fit, a clock hour with nothing to settle
morning or evening, a bare number two slots could take. One mechanism: the slot type's value check raises
``InvalidValue(question=...)``, the turn says the question (and nothing else), and the answer is read with it
(``SlotKind.answer_to``, through ``with_reading_asked``)."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from fsmdial.loader import load_flow
from fsmdial.runtime import Dialogue
from fsmdial.slots import with_reading_asked
from fsmdial.testing import FrozenClock
from fsmdial.values import InvalidValue, coerce

FRIDAY = dt.datetime(2026, 11, 27, 10, 0)
QUESTION = "Do you mean Saturday 28 November or Saturday 5 December?"


def day_flow(**slot: Any) -> dict[str, Any]:
    return {
        "name": "visit",
        "nodes": [
            {"id": "ask", "type": "request", "slots": [{"name": "day", "type": "date", "ask": "Which day?", **slot}]},
            {"id": "done", "type": "end", "message": "See you {day}."},
        ],
        "edges": [{"source": "ask", "target": "done"}],
    }


def time_flow(**slot: Any) -> dict[str, Any]:
    return {
        "name": "call",
        "nodes": [
            {"id": "ask", "type": "request", "slots": [{"name": "time", "type": "time", "ask": "What time?", **slot}]},
            {"id": "done", "type": "end", "message": "At {time:%H:%M}."},
        ],
        "edges": [{"source": "ask", "target": "done"}],
    }


def hotel_flow() -> dict[str, Any]:
    counts = [
        {"name": "guests", "type": "integer", "description": "Number of people", "minimum": 1, "maximum": 10},
        {"name": "nights", "type": "integer", "description": "Number of nights", "minimum": 1, "maximum": 30},
    ]
    return {
        "name": "hotel",
        "nodes": [
            {"id": "ask", "type": "request", "slots": [{"name": "day", "type": "date"}, *counts]},
            {
                "id": "check",
                "type": "inform_and_confirm",
                "message": "{guests} people for {nights} nights from {day}.",
                "question": "Shall I book it?",
            },
            {
                "id": "book",
                "type": "external_action",
                "tool": "book",
                "commits": True,
                "arguments": {"guests": "guests", "nights": "nights"},
            },
            {"id": "done", "type": "end", "message": "Booked: {guests} people, {nights} nights."},
        ],
        "edges": [
            {"source": "ask", "target": "check"},
            {"source": "check", "target": "book", "when": {"answer": "yes"}},
            {"source": "book", "target": "done"},
        ],
    }


def dialogue(doc: dict[str, Any], now: dt.datetime = FRIDAY, **kwargs: Any) -> Dialogue:
    d = Dialogue(load_flow(doc), clock=FrozenClock(now), **kwargs)
    d.start()
    return d


# ------------------------------------------------------------ 1. a day two readings fit


@pytest.mark.parametrize(
    ("answer", "day"),
    [
        ("the later one", "2026-12-05"),
        ("next week's", "2026-12-05"),
        ("the second one please", "2026-12-05"),
        ("the 5th", "2026-12-05"),
        ("Saturday 5 December", "2026-12-05"),
        ("tomorrow", "2026-11-28"),
        ("the first one", "2026-11-28"),
        ("this week's", "2026-11-28"),
        ("not tomorrow, the one after", "2026-12-05"),  # round 9: the day ruled out, then the one picked
    ],
)
def test_next_saturday_said_on_a_friday_is_asked_and_the_answer_settles_it(answer: str, day: str) -> None:
    d = dialogue(day_flow())
    result = d.turn("next Saturday please")
    assert result.messages == [QUESTION]  # the question alone: not "Which day?" after it
    assert "day" not in d.slots and d.session.retries.get("day") is None  # asked, not refused
    d.turn(answer)
    assert d.slots == {"day": day}


def test_an_answer_that_picks_neither_is_asked_again() -> None:
    d = dialogue(day_flow())
    d.turn("next Saturday")
    assert "day" not in d.slots
    assert d.turn("next Saturday").messages == [QUESTION]


def test_the_bounds_settle_what_they_can() -> None:
    only_next_week = dialogue(day_flow(earliest="today+3"))  # tomorrow is too soon: the Saturday after
    assert only_next_week.turn("next Saturday").messages == ["See you Saturday 5 December."]
    closed = dialogue(day_flow(closed_dates=["2026-12-05"]))
    assert closed.turn("next Saturday").messages == ["See you Saturday 28 November."]


def test_a_stored_value_is_never_asked_about() -> None:
    slot = load_flow(day_flow()).slots()["day"]
    assert coerce(slot, "2026-11-28", FRIDAY) == "2026-11-28"
    with pytest.raises(InvalidValue) as asked:
        coerce(slot, "next Saturday", FRIDAY)
    assert asked.value.question and asked.value.message == QUESTION
    assert coerce(slot, "next Saturday", FRIDAY, bounds=False) == "2026-11-28"  # a snapshot read back


def test_the_answer_is_completed_only_right_after_the_question() -> None:
    asked = [("user", "next Saturday"), ("bot", QUESTION)]
    assert with_reading_asked(asked, "the later one") == "Saturday 5 December"
    assert with_reading_asked([*asked, ("bot", "Which day?")], "the later one") == "Saturday 5 December"
    assert with_reading_asked([*asked, ("user", "hm"), ("bot", "Which day?")], "the later one") == "the later one"
    assert with_reading_asked(asked, "not next week's") == "not next week's"


def test_next_week_tuesday_said_on_a_monday_is_next_weeks() -> None:
    monday = dt.datetime(2026, 11, 23, 10, 0)
    assert dialogue(day_flow(), monday).turn("next week Tuesday").messages == ["See you Tuesday 1 December."]
    assert dialogue(day_flow(), monday).turn("next Tuesday").messages == [
        "Do you mean Tuesday 24 November or Tuesday 1 December?"
    ]


# ------------------------------------------------------------ 2. a clock hour with nothing to settle it


@pytest.mark.parametrize(
    ("said", "question", "answer", "stored"),
    [
        ("at 7", "7 in the morning or in the evening?", "in the evening", "19:00"),
        ("7 o'clock", "7 in the morning or in the evening?", "morning", "07:00"),
        ("half 8", "8:30 in the morning or in the evening?", "pm", "20:30"),
        ("7:45", "7:45 in the morning or in the evening?", "7:45 pm", "19:45"),
    ],
)
def test_a_bare_hour_without_hours_is_asked(said: str, question: str, answer: str, stored: str) -> None:
    d = dialogue(time_flow())
    assert d.turn(said).messages == [question]
    assert d.turn(answer).messages == [f"At {stored}."]


def test_a_bare_hour_both_of_whose_readings_fit_the_hours_is_asked() -> None:
    assert dialogue(time_flow(earliest="06:00", latest="22:00")).turn("at 7").messages == [
        "7 in the morning or in the evening?"
    ]
    assert dialogue(time_flow(earliest="12:00", latest="22:00")).turn("at 7").messages == ["At 19:00."]


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        ("19:00", "19:00"),
        ("10:00", "10:00"),
        ("07:30", "07:30"),
        ("11.30", "11:30"),
        ("7pm", "19:00"),
        ("7 in the evening", "19:00"),
        ("half 8 in the morning", "08:30"),
        ("at 7 tonight", "19:00"),
    ],
)
@pytest.mark.parametrize("hours", [{}, {"earliest": "06:00", "latest": "23:00"}])
def test_a_24_hour_time_or_a_part_of_the_day_is_never_asked(said: str, stored: str, hours: dict[str, str]) -> None:
    assert dialogue(time_flow(**hours)).turn(said).messages == [f"At {stored}."]


# ------------------------------------------------------------ 3. a number two slots could take


def test_a_bare_number_two_slots_still_need_is_asked_which() -> None:
    d = dialogue(hotel_flow(), tools={"book": lambda **_: {}})
    assert d.turn("5").messages == ["Is that 5 people or 5 nights?"]  # asked: the day; the number fits either
    assert d.slots == {}
    d.turn("nights")
    assert d.slots == {"nights": 5}


def test_a_number_named_or_said_to_the_slot_asked_takes_it() -> None:
    d = dialogue(hotel_flow(), tools={"book": lambda **_: {}})
    d.turn("5 people")
    assert d.slots == {"guests": 5}
    d.turn("tomorrow")
    assert d.session.asked == "nights"
    d.turn("3")  # the slot just asked
    assert d.slots == {"guests": 5, "day": "2026-11-28", "nights": 3}


def test_a_bare_number_at_a_confirmation_of_two_counts_is_asked_and_a_yes_to_that_books_nothing() -> None:
    booked: list[dict[str, Any]] = []
    d = dialogue(hotel_flow(), tools={"book": lambda **kw: booked.append(kw) or {}})
    for said in ("tomorrow", "5 people", "3 nights"):
        d.turn(said)
    assert d.turn("actually make it 2").messages == ["Is that 2 people or 2 nights?"]
    assert d.turn("yes").messages == ["5 people for 3 nights from Saturday 28 November. Shall I book it?"]
    assert booked == []  # the "yes" answered the clarifying question, not the confirmation
    assert d.turn("actually make it 2").messages == ["Is that 2 people or 2 nights?"]
    result = d.turn("the nights")
    assert result.messages[-1] == "5 people for 2 nights from Saturday 28 November. Shall I book it?"
    d.turn("yes")
    assert booked == [{"guests": 5, "nights": 2}]


def test_a_number_with_other_words_is_not_asked_about() -> None:
    d = dialogue(hotel_flow(), tools={"book": lambda **_: {}})
    assert d.turn("running 5 minutes late, sorry").messages != ["Is that 5 people or 5 nights?"]
    assert d.slots == {}


def test_the_clarifying_question_ends_the_turn_after_the_other_values_are_acknowledged() -> None:
    """Round 9: "next saturday, 8 in the morning" said on a Friday asked which Saturday, then thanked for the time and
    asked "Which day?" again: two questions, the clarifying one not last."""
    doc = day_flow()
    doc["nodes"][0]["slots"].append({"name": "time", "type": "time", "ask": "What time?"})
    d = dialogue(doc)
    result = d.turn("next saturday, 8 in the morning")
    assert result.messages[-1] == QUESTION and sum(message.endswith("?") for message in result.messages) == 1
    assert d.slots == {"time": "08:00"}
    d.turn("the later one")
    assert d.slots == {"time": "08:00", "day": "2026-12-05"}
