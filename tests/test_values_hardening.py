"""Issue 13, items 2, 4 and 19 (value side): values recorded as said, impossible dates and date bounds."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from fsmdial.loader import load_flow
from fsmdial.runtime import Dialogue
from fsmdial.values import InvalidValue, coerce

NOW = dt.datetime(2025, 3, 1, 12, 0)  # 2025 is not a leap year


def date_flow(**bounds: str) -> dict[str, Any]:
    return {
        "name": "dates",
        "nodes": [
            {"id": "ask", "type": "request", "slots": [{"name": "day", "type": "date", **bounds}]},
            {"id": "done", "type": "end", "message": "Day {day}."},
        ],
        "edges": [{"source": "ask", "target": "done"}],
    }


def dialogue(doc: dict[str, Any]) -> Dialogue:
    d = Dialogue(load_flow(doc), clock=lambda: NOW)
    d.start()
    return d


@pytest.mark.parametrize("said", ["February 29", "April 31", "13/45", "2025-02-30", "feb 29 2023"])
def test_an_impossible_date_is_an_invalid_value_asked_again(said: str) -> None:
    slot = load_flow(date_flow()).slots()["day"]
    with pytest.raises(InvalidValue, match="not a real date"):
        coerce(slot, said, NOW)
    d = dialogue(date_flow())
    result = d.turn(said)  # never an UnderstandingError
    assert not result.ended and result.node == "ask"
    assert "not a real date" in result.text
    assert d.turn("March 3").messages == ["Day 2025-03-03."]


def test_february_29_of_a_leap_year_is_a_date() -> None:
    assert dialogue(date_flow()).turn("February 29 2024").messages == ["Day 2024-02-29."]


def test_date_bounds_are_enforced_on_the_dialogue_clock() -> None:
    slot = load_flow(date_flow(earliest="today", latest="today+30")).slots()["day"]
    assert coerce(slot, "2025-03-31", NOW) == "2025-03-31"
    assert coerce(slot, "today", NOW) == "2025-03-01"
    with pytest.raises(InvalidValue, match="before the earliest allowed date, 2025-03-01"):
        coerce(slot, "yesterday", NOW)
    with pytest.raises(InvalidValue, match="after the latest allowed date, 2025-03-31"):
        coerce(slot, dt.date(2025, 4, 1), NOW)
    birth = load_flow(date_flow(latest="today", earliest="1900-01-01")).slots()["day"]
    with pytest.raises(InvalidValue, match="after the latest"):
        coerce(birth, "2025-03-02", NOW)
    with pytest.raises(InvalidValue, match="before the earliest allowed date, 1900-01-01"):
        coerce(birth, "1899-12-31", NOW)
    assert coerce(birth, "1980-05-06", NOW) == "1980-05-06"


def test_a_date_out_of_bounds_is_asked_again() -> None:
    d = dialogue(date_flow(latest="today"))
    result = d.turn("tomorrow")
    assert result.node == "ask" and "after the latest allowed date" in result.text
    assert d.turn("yesterday").messages == ["Day 2025-02-28."]


def test_categorical_coercion_compares_value_keys() -> None:
    doc = {
        "name": "c",
        "nodes": [
            {"id": "ask", "type": "request",
             "slots": [{"name": "g", "type": "categorical", "values": ["O+", "O-", "new york", "-"]}]},
            {"id": "done", "type": "end", "message": "{g}"},
        ],
        "edges": [{"source": "ask", "target": "done"}],
    }  # fmt: skip
    slot = load_flow(doc).slots()["g"]
    assert coerce(slot, "o-", NOW) == "O-"
    assert coerce(slot, "O+", NOW) == "O+"
    assert coerce(slot, "New-York", NOW) == "new york"
    assert coerce(slot, "-", NOW) == "-"
    with pytest.raises(InvalidValue):
        coerce(slot, "O", NOW)


def test_a_punctuation_value_is_not_read_from_an_unrelated_reply() -> None:
    doc = {
        "name": "c",
        "nodes": [
            {"id": "ask", "type": "request",
             "slots": [{"name": "g", "type": "categorical", "values": ["O+", "-"]}]},
            {"id": "done", "type": "end", "message": "{g}"},
        ],
        "edges": [{"source": "ask", "target": "done"}],
    }  # fmt: skip
    d = dialogue(doc)
    for reply in ("which one is best for a donor?", "hmm", "what are the options?"):
        result = d.turn(reply)
        assert result.node == "ask" and "g" not in d.session.slots
    assert d.turn("-").messages == ["-"]


def test_a_date_bound_that_is_not_a_real_date_is_a_validation_error():
    from fsmdial import load_flow
    from fsmdial.errors import FlowError

    doc = {
        "name": "bounds",
        "nodes": [
            {"id": "a", "type": "request", "slots": [{"name": "d", "type": "date", "earliest": "2023-02-30"}]},
            {"id": "e", "type": "end"},
        ],
        "edges": [{"source": "a", "target": "e"}],
    }
    with pytest.raises(FlowError, match=r"slots\[0\].*'2023-02-30' is not a real date"):
        load_flow(doc)
