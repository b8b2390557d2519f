"""A tool is called again only when one of its arguments really changed (issue 12)."""

from __future__ import annotations

from typing import Any

import pytest

from fsmdial.compiler import emit_source
from fsmdial.errors import FlowError
from fsmdial.loader import load_flow
from fsmdial.runtime import Dialogue
from fsmdial.tools import ToolRegistry

SEARCH_AGAIN = {
    "name": "search_again",
    "nodes": [
        {
            "id": "ask",
            "type": "request",
            "slots": [{"name": "city", "type": "categorical", "description": "city", "values": ["Paris", "London"]}],
        },
        {
            "id": "search",
            "type": "external_action",
            "tool": "search",
            "arguments": {"city": "city"},
            "result": {"hotels": "integer"},
        },
        {
            "id": "again",
            "type": "inform_and_confirm",
            "message": "{result.hotels} hotels in {city}.",
            "question": "Search again?",
        },
        {"id": "done", "type": "end", "message": "Bye."},
    ],
    "edges": [
        {"source": "ask", "target": "search"},
        {"source": "search", "target": "again"},
        {"source": "again", "target": "search", "when": {"answer": "yes"}},
        {"source": "again", "target": "done", "when": {"answer": "no"}},
    ],
}


def dialogue() -> tuple[Dialogue, list[dict[str, Any]]]:
    calls: list[dict[str, Any]] = []
    registry = ToolRegistry()

    def search(city: str) -> dict[str, Any]:
        calls.append({"city": city})
        return {"hotels": len(city)}

    registry.register("search", search)
    return Dialogue(load_flow(SEARCH_AGAIN), tools=registry), calls


def test_a_repeat_with_the_same_arguments_takes_the_last_outcome_without_calling() -> None:
    d, calls = dialogue()
    d.start()
    first = d.turn("Paris")
    assert first.text == "5 hotels in Paris. Search again?" and calls == [{"city": "Paris"}]
    again = d.turn("yes")
    assert calls == [{"city": "Paris"}]  # not called a second time
    assert again.tool_calls == [] and [c.to_dict() for c in again.trace.repeated_calls] == [
        {
            "tool": "search",
            "node": "search",
            "arguments": {"city": "Paris"},
            "status": "success",
            "result": {"hotels": 5},
        }
    ]
    assert "repeated_calls" in again.trace.to_dict() and any("not called again" in n for n in again.trace.notes)
    assert again.text == "5 hotels in Paris. Search again?" and d.node == "again"  # a fresh visit of `again`


def test_a_changed_argument_calls_again_and_the_record_survives_a_snapshot() -> None:
    d, calls = dialogue()
    d.start()
    d.turn("Paris")
    restored, _ = dialogue()
    restored.load_snapshot(d.snapshot())
    assert restored.session.calls == d.session.calls
    changed = d.turn("London")
    assert calls == [{"city": "Paris"}, {"city": "London"}]
    assert [c.arguments for c in changed.tool_calls] == [{"city": "London"}] and not changed.trace.repeated_calls


def test_changing_a_value_back_takes_the_first_answer_without_a_second_call() -> None:
    d, calls = dialogue()
    d.start()
    d.turn("Paris")
    d.turn("London")
    back = d.turn("Paris")
    assert calls == [{"city": "Paris"}, {"city": "London"}]  # Paris was asked once, London once
    assert back.tool_calls == [] and [c.arguments for c in back.trace.repeated_calls] == [{"city": "Paris"}]
    assert "5 hotels in Paris" in back.text
    restored, _ = dialogue()  # the memory of earlier calls is part of the snapshot
    restored.load_snapshot(d.snapshot())
    again = restored.turn("London")
    assert again.tool_calls == [] and "6 hotels in London" in again.text


QUIZ = {
    "name": "quiz",
    "nodes": [
        {
            "id": "start_at",
            "type": "request",
            "slots": [
                {"name": "number", "type": "integer", "minimum": 1, "maximum": 3, "description": "question number"}
            ],
        },
        {
            "id": "question",
            "type": "external_action",
            "tool": "question",
            "arguments": {"number": "number"},
            "result": {"text": "string"},
        },
        {"id": "next", "type": "inform_and_confirm", "message": "Q{number}: {result.text}", "question": "Another?"},
        {"id": "done", "type": "end", "message": "Bye."},
    ],
    "edges": [
        {"source": "start_at", "target": "question"},
        {"source": "question", "target": "next"},
        {"source": "next", "target": "question", "when": {"answer": "yes"}, "count": "number"},
        {"source": "next", "target": "done", "when": {"answer": "no"}},
    ],
}


def quiz(document: dict[str, Any] = QUIZ) -> tuple[Dialogue, list[int]]:
    asked: list[int] = []
    registry = ToolRegistry()

    def question(number: int) -> dict[str, Any]:
        asked.append(number)
        return {"text": f"question {number}"}

    registry.register("question", question)
    return Dialogue(load_flow(document), tools=registry), asked


def test_an_edge_that_counts_moves_an_integer_slot_on_so_the_tool_is_called_with_the_next_number() -> None:
    d, asked = quiz()
    d.start()
    assert d.turn("1").text.startswith("Q1: question 1")
    assert d.turn("yes").text.startswith("Q2: question 2")
    assert d.turn("yes").text.startswith("Q3: question 3")
    # At the slot's maximum the count stops: the same call again is not made, its outcome is reused.
    last = d.turn("yes")
    assert asked == [1, 2, 3] and last.text.startswith("Q3: question 3") and last.trace.repeated_calls
    assert d.slots["number"] == 3


def test_a_number_the_user_gives_with_the_yes_is_taken_as_given_not_counted_on() -> None:
    d, asked = quiz()
    d.start()
    d.turn("1")
    assert "Q3: question 3" in d.turn("yes, question 3 please").text
    assert asked == [1, 3]


def test_the_counting_edge_is_compiled_into_the_class_source_and_checked() -> None:
    source = emit_source(load_flow(QUIZ))
    assert "self.count_up('number')" in source and "'after': ['count_2_number']" in source
    for slot, problem in (("nothing", "no request node asks for slot 'nothing'"), ("text", "is string, not integer")):
        document = {**QUIZ, "nodes": [*QUIZ["nodes"]], "edges": [dict(e) for e in QUIZ["edges"]]}
        document["nodes"][0] = {**QUIZ["nodes"][0], "slots": [*QUIZ["nodes"][0]["slots"], {"name": "text"}]}
        document["edges"][2]["count"] = slot
        with pytest.raises(FlowError, match=problem):
            load_flow(document)


# ------------------------------------------------------------------ issue 22 #4: a count stops at the integer range


def test_a_count_edge_stops_at_the_largest_integer_so_the_session_stays_loadable():
    import copy

    from fsmdial.loader import load_flow
    from fsmdial.runtime import Dialogue

    document = copy.deepcopy(QUIZ)
    del document["nodes"][0]["slots"][0]["maximum"]  # no maximum of its own: the integer range bounds the count
    d, asked = quiz(document)
    d.start()
    largest = 2**63 - 1
    d.turn(str(largest))
    d.turn("yes")
    assert d.slots["number"] == largest and asked == [largest]
    restored = Dialogue.restore(load_flow(document), d.snapshot(), tools={"question": lambda number: {"text": "q"}})
    assert restored.slots["number"] == largest
