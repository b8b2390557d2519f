"""Flow options: the leniencies STAR's imported flows need, off unless a flow switches them on."""

from __future__ import annotations

from typing import Any

import pytest

from fsmdial.compiler import compile_flow, emit_source, load_compiled
from fsmdial.errors import FlowError, TemplateError
from fsmdial.loader import load_flow
from fsmdial.responses import render
from fsmdial.runtime import Dialogue
from fsmdial.understand.base import Parse


def city_flow(**options: bool) -> dict[str, Any]:
    """Asks a city and a count; says which branch the city took, with the count formatted as an integer."""
    flow: dict[str, Any] = {
        "name": "options_demo",
        "nodes": [
            {
                "id": "ask",
                "type": "request",
                "slots": [
                    {"name": "city", "type": "string", "description": "city"},
                    {"name": "count", "type": "string", "description": "count"},
                ],
            },
            {"id": "paris", "type": "end", "message": "Paris it is, {count:d} of you."},
            {"id": "elsewhere", "type": "end", "message": "Not Paris."},
        ],
        "edges": [
            {"source": "ask", "target": "paris", "when": {"slot": "city", "op": "eq", "value": "Paris"}},
            {"source": "ask", "target": "elsewhere"},
        ],
    }
    if options:
        flow["options"] = options
    return flow


def run(flow: dict[str, Any], city: str, count: str = "3") -> str:
    dialogue = Dialogue(load_flow(flow))
    dialogue.start()
    dialogue.turn(city)
    return dialogue.turn(count).text


def test_options_are_off_by_default_and_unknown_ones_are_refused() -> None:
    options = load_flow(city_flow()).options
    assert not (options.case_insensitive_values or options.lenient_format_specs or options.result_fallback)
    with pytest.raises(FlowError, match="options"):
        load_flow(city_flow(case_insensitive=True))


def test_values_compare_exactly_unless_case_insensitive_values() -> None:
    assert run(city_flow(lenient_format_specs=True), "paris") == "Not Paris."
    assert run(city_flow(lenient_format_specs=True), "Paris") == "Paris it is, 3 of you."
    assert run(city_flow(lenient_format_specs=True, case_insensitive_values=True), "paris") == "Paris it is, 3 of you."


def test_the_option_is_in_the_compiled_source_and_survives_a_file(tmp_path) -> None:
    flow = load_flow(city_flow(case_insensitive_values=True))
    source = emit_source(flow)
    assert "eq_folded as eq" in source and "eq_folded" not in emit_source(load_flow(city_flow()))
    path = tmp_path / "demo.py"
    path.write_text(source)
    cls = load_compiled(str(path))
    assert cls.__dict__["when_0_ask_to_paris"].__globals__["eq"]("paris", "Paris") is True


def test_a_format_spec_that_does_not_fit_fails_unless_lenient_format_specs() -> None:
    with pytest.raises(TemplateError, match="format spec 'd'"):
        render("{n:d}", {"n": "3"})
    assert render("{n:d}", {"n": "3"}, lenient=True) == "3"
    assert render("{n:s}", {"n": 4.5}, lenient=True) == "4.5"
    dialogue = Dialogue(load_flow(city_flow()))
    dialogue.start()
    dialogue.turn("Paris")
    with pytest.raises(TemplateError, match="format spec"):
        dialogue.turn("3")
    assert dialogue.node == "ask" and dialogue.slots == {"city": "Paris"}  # the failed turn left no trace
    assert run(city_flow(lenient_format_specs=True), "Paris", "three") == "Paris it is, three of you."


def two_searches(**options: bool) -> dict[str, Any]:
    flow: dict[str, Any] = {
        "name": "two_searches",
        "nodes": [
            {"id": "ask", "type": "request", "slots": [{"name": "a", "type": "string", "description": "a"}]},
            {"id": "first", "type": "external_action", "tool": "first", "arguments": {}, "result": {"x": "string"}},
            {"id": "ask_b", "type": "request", "slots": [{"name": "b", "type": "string", "description": "b"}]},
            {
                "id": "second",
                "type": "external_action",
                "tool": "second",
                "arguments": {"b": "b"},
                "result": {"x": "string"},
            },
            {"id": "done", "type": "end", "message": "Found {result.x}."},
        ],
        "edges": [
            {"source": "ask", "target": "first"},
            {"source": "first", "target": "ask_b"},
            {"source": "ask_b", "target": "second"},
            {"source": "second", "target": "done"},
        ],
    }
    if options:
        flow["options"] = options
    return flow


@pytest.mark.parametrize("fallback, expected", [(False, None), (True, "first")])
def test_result_x_falls_back_to_an_earlier_result_only_with_result_fallback(
    fallback: bool, expected: str | None
) -> None:
    cls = compile_flow(load_flow(two_searches(result_fallback=fallback)))
    machine = cls()
    session = machine.session
    session.results.update(first={"x": "one"}, second={"x": "two"})
    session.last_action = "second"
    machine.forget(("second",))
    assert session.last_action == expected


class Says:
    """An understander that returns the given slot values, whatever the text."""

    def understand(self, state: Any, text: str, **kwargs: Any) -> Parse:
        return Parse(slots={"city": text})


def test_a_value_differing_only_in_case_is_no_change_with_case_insensitive_values() -> None:
    for options, changed in (({}, True), ({"case_insensitive_values": True}, False)):
        dialogue = Dialogue(load_flow(city_flow(lenient_format_specs=True, **options)), understander=Says())
        dialogue.start()
        dialogue.turn("Paris")
        result = dialogue.turn("paris")
        assert ("changed" in result.act_names) is changed and bool(result.trace.slot_changes) is changed
        assert dialogue.slots["city"] == ("paris" if changed else "Paris")
