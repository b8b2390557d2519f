"""Hardening round 2 (issue 13): one test per class of failure found by the red-team pass.

Each test fails on the code before the fix: the compiled file's first lines, flows that
validate but do not compile, values that collide, slot patterns that hang, unbounded output,
tool timeouts that share a pool, tools mutating what they were given, non-finite numbers,
format detection crashes, reserved names, flow files without end, Mermaid escaping, and the
authoring checks (condition value types, shadowed edges, confirmations without a "yes").
"""

from __future__ import annotations

import copy
import subprocess
import sys
import textwrap
import threading
from pathlib import Path
from typing import Any

import orjson
import pytest

from fsmdial.cli.chat import json_line
from fsmdial.compiler import ENCODING_LINE, check_source, compile_flow, emit_source, mermaid
from fsmdial.errors import FlowError, ToolTimeout
from fsmdial.flow import MAX_NESTING, ExternalActionNode, flow_warnings, pattern_problem, search_regex
from fsmdial.loader import MAX_FLOW_BYTES, load_flow
from fsmdial.tools import Tool, call_tool, check_result

from .conftest import run_cli

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE_FLOWS = sorted(
    [*ROOT.glob("flows/*.json"), *ROOT.glob("flows/star/*.json"), *ROOT.glob("examples/**/*.json")]
)


fsmdial = run_cli


def small_flow(**changes: Any) -> dict[str, Any]:
    doc: dict[str, Any] = {
        "name": "small",
        "nodes": [
            {"id": "ask", "type": "request", "slots": [{"name": "size", "type": "integer"}]},
            {"id": "done", "type": "end", "message": "Size {size}."},
        ],
        "edges": [{"source": "ask", "target": "done"}],
    }
    doc.update(changes)
    return doc


def issues_of(doc: Any) -> str:
    with pytest.raises(FlowError) as caught:
        load_flow(doc)
    return str(caught.value)


# ------------------------------------------------------------ 1. compiled file


CODING_NAMES = [
    "coding:utf-7 +ACc-)+ADs-import os+ADs-os.system(+ACc-echo pwned+ACc-)+ADs-x=(+ACc-",
    "coding:latin-1 caf\u00e9 \u00fcber",
    "-*- coding: latin-1 -*-\u00e9",
    "vim: set fileencoding=utf-16 :",
]


@pytest.mark.parametrize("name", CODING_NAMES)
def test_compiled_file_states_its_encoding_and_no_flow_text_reaches_lines_1_and_2(name: str, tmp_path: Path) -> None:
    doc = small_flow(name=name)
    doc["nodes"][0]["id"] = name
    doc["edges"][0]["source"] = name
    source = emit_source(load_flow(doc))
    first, second = source.splitlines()[:2]
    assert first == ENCODING_LINE
    assert "coding" not in second and name not in second
    target = tmp_path / "compiled.py"
    target.write_bytes(source.encode("utf-8"))
    loader = (
        "import sys, orjson; from fsmdial.compiler import load_compiled; cls = load_compiled(sys.argv[1]); "
        "sys.stdout.write(orjson.dumps([cls.FLOW.name, list(cls.STATES)]).decode())"
    )
    run = subprocess.run([sys.executable, "-c", loader, str(target)], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    assert orjson.loads(run.stdout) == [name, [name, "done"]]


def test_compile_command_checks_the_source_before_writing() -> None:
    with pytest.raises(FlowError, match="does not compile"):
        check_source("x = (" * 300 + ")" * 300)
    check_source("x = 1\n")


# ------------------------------------------------------- 7. valid flows compile


def nested(kind: str, depth: int) -> dict[str, Any]:
    cond: dict[str, Any] = {"slot": "size", "op": "gt", "value": 1}
    for _ in range(depth):
        cond = {"not": cond} if kind == "not" else {kind: [cond]}
    return cond


@pytest.mark.parametrize("kind", ["all", "any", "not"])
@pytest.mark.parametrize("depth", [100, 130, 5000])
def test_deeply_nested_conditions_are_refused_with_the_path(kind: str, depth: int) -> None:
    doc = small_flow()
    doc["nodes"].insert(1, {"id": "big", "type": "end"})
    doc["edges"].insert(0, {"source": "ask", "target": "big", "when": nested(kind, depth)})
    message = issues_of(doc)
    assert f"nested more than {MAX_NESTING} levels deep" in message
    assert "edges[0].when" in message


def test_deeply_nested_list_values_are_refused() -> None:
    value: Any = 1
    for _ in range(199):
        value = [value]
    doc = small_flow()
    doc["nodes"].insert(1, {"id": "big", "type": "end"})
    doc["edges"].insert(0, {"source": "ask", "target": "big", "when": {"slot": "size", "op": "eq", "value": value}})
    assert "levels deep" in issues_of(doc)


@pytest.mark.parametrize("kind", ["all", "any", "not"])
def test_the_deepest_conditions_validation_accepts_compile(kind: str) -> None:
    depth = 0
    while True:  # the deepest nesting validation accepts
        doc = small_flow()
        doc["nodes"].insert(1, {"id": "big", "type": "end"})
        doc["edges"].insert(0, {"source": "ask", "target": "big", "when": nested(kind, depth + 1)})
        try:
            flow = load_flow(doc)
        except FlowError:
            break
        depth += 1
    assert depth >= 15
    cls = compile_flow(flow)
    check_source(cls.SOURCE)


# -------------------------------------------------- 2. categorical collisions


def test_categorical_values_the_engine_cannot_tell_apart_are_a_validation_error() -> None:
    doc = small_flow()
    doc["nodes"][0]["slots"] = [{"name": "city", "type": "categorical", "values": ["New York", "new-york", "Paris"]}]
    doc["nodes"][1]["message"] = "{city}"
    message = issues_of(doc)
    assert "'New York' and 'new-york'" in message and "city" in message


def test_values_differing_in_punctuation_stay_apart() -> None:
    doc = small_flow()
    blood = ["A+", "A-", "B+", "B-", "AB+", "AB-", "O+", "O-", "-"]
    doc["nodes"][0]["slots"] = [{"name": "blood", "type": "categorical", "values": blood}]
    doc["nodes"][1]["message"] = "{blood}"
    assert load_flow(doc).slots()["blood"].values == blood


# --------------------------------------------------------- 3, 4. slot patterns


@pytest.mark.parametrize("pattern", ["^(a+)+$", "(a|ab)*c", "^(\\w+\\s?)+$", "(x+x+)+y", "((ab)*)*"])
def test_patterns_with_exponential_backtracking_are_refused_naming_the_slot(pattern: str) -> None:
    doc = small_flow()
    doc["nodes"][0]["slots"] = [{"name": "code", "pattern": pattern}]
    doc["nodes"][1]["message"] = "{code}"
    message = issues_of(doc)
    assert "code" in message and "exponential" in message


@pytest.mark.parametrize(
    ("pattern", "reply", "found"),
    [("[0-9]+\\$", "it costs 12$ now", "12$"), ("(?i)^[a-z]{3}$", "it is ABC", "ABC"), ("^[0-9]{4}$", "pin 1234", "1234")],
)
def test_patterns_are_decided_at_validation_and_found_inside_a_reply(pattern: str, reply: str, found: str) -> None:
    assert pattern_problem(pattern) is None
    match = search_regex(pattern).search(reply)
    assert match is not None and match.group() == found


# ------------------------------------------------------------ 8. bounded output


@pytest.mark.parametrize("template", ["Got {size:>100000000}", "Got {size:.999}", "{size:{size}}", "{size:!!}"])
def test_format_widths_are_bounded_at_validation(template: str) -> None:
    doc = small_flow()
    doc["nodes"][1]["message"] = template
    assert "done" in issues_of(doc)


def test_long_templates_are_refused() -> None:
    doc = small_flow()
    doc["nodes"][1]["message"] = "x" * 100_000
    assert "characters, more than" in issues_of(doc)


def test_date_placeholders_with_a_format_spec_are_refused() -> None:
    doc = small_flow()
    doc["nodes"][0]["slots"] = [{"name": "pickup_date", "type": "date"}]
    doc["nodes"][1]["message"] = "See you on {pickup_date:%A %d %B}."
    assert "pickup_date" in issues_of(doc)
    doc["nodes"][1]["message"] = "See you on {pickup_date:>12}."
    assert "shown as written" in issues_of(doc)


# ------------------------------------------------------------------ 6, 11. tools


def test_hung_tools_do_not_starve_other_calls() -> None:
    release = threading.Event()
    hung = Tool("hung", lambda: release.wait(30))
    quick = Tool("quick", lambda: {"ok": True})
    try:
        for _ in range(12):
            with pytest.raises(ToolTimeout):
                call_tool(hung, {}, timeout=0.05)
        # A quick tool still runs (it would time out if the hung calls had taken every worker).
        assert call_tool(quick, {}, timeout=5) == {"ok": True}
    finally:
        release.set()


def test_a_hung_tool_does_not_keep_the_process_alive() -> None:
    script = textwrap.dedent(
        """
        import time
        from fsmdial.errors import ToolTimeout
        from fsmdial.tools import Tool, call_tool
        try:
            call_tool(Tool("sleepy", lambda: time.sleep(120)), {}, timeout=0.1)
        except ToolTimeout:
            print("timed out")
        """
    )
    # The process exits well before the tool's 120 s sleep ends (subprocess's timeout fails the test otherwise).
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert run.stdout.strip() == "timed out"


@pytest.mark.parametrize("timeout", [None, 5.0])
def test_tools_get_copies_of_their_arguments(timeout: float | None) -> None:
    def greedy(**kwargs: Any) -> dict[str, Any]:
        kwargs["items"].append("stolen")
        kwargs["nested"]["inner"].clear()
        return {"items": kwargs["items"]}

    arguments = {"items": ["a"], "nested": {"inner": [1, 2]}}
    snapshot = copy.deepcopy(arguments)
    result = call_tool(Tool("greedy", greedy), arguments, timeout=timeout)
    assert arguments == snapshot
    assert result == {"items": ["a", "stolen"]}


def test_flow_constants_are_never_changed_by_a_tool() -> None:
    from fsmdial.runtime import Dialogue

    def greedy(**kwargs: Any) -> dict[str, Any]:
        kwargs["tags"].append("stolen")
        return {}

    doc = small_flow()
    doc["nodes"].insert(
        1, {"id": "act", "type": "external_action", "tool": "greedy", "arguments": {"tags": {"value": ["x"]}}}
    )
    doc["edges"] = [{"source": "ask", "target": "act"}, {"source": "act", "target": "done"}]
    flow = load_flow(doc)
    for _ in range(2):
        dialogue = Dialogue(flow, tools={"greedy": greedy})
        dialogue.start()
        dialogue.turn("3")
    action = flow.node("act")
    assert isinstance(action, ExternalActionNode) and action.arguments is not None
    assert action.arguments["tags"].value == ["x"]  # type: ignore[union-attr]


def test_results_are_copied_from_the_tool() -> None:
    node = ExternalActionNode(id="act", type="external_action", tool="t", result={"items": "list"})
    kept = {"items": [1]}
    result = check_result(node, kept)
    kept["items"].append(2)
    assert result == {"items": [1]}


# ------------------------------------------------- 13, 14. documents given as data


@pytest.mark.parametrize("bad", [float("inf"), float("-inf"), float("nan")])
def test_non_finite_numbers_are_refused_with_the_path(bad: float) -> None:
    doc = small_flow()
    doc["nodes"][0]["slots"][0]["maximum"] = bad
    message = issues_of(doc)
    assert "not a finite number" in message and "nodes[0](ask).slots[0].maximum" in message


@pytest.mark.parametrize("where", ["name", "message", "key"])
def test_unpaired_surrogates_are_refused(where: str) -> None:
    doc = small_flow()
    if where == "name":
        doc["name"] = "flow\ud800"
    elif where == "message":
        doc["nodes"][1]["message"] = "bye \udfff"
    else:
        doc["nodes"][0]["\udc80"] = 1
    assert "unpaired surrogate" in issues_of(doc)


@pytest.mark.parametrize("edges", [1, True, "x", 1.5, {"a": 1}, None])
@pytest.mark.parametrize("node_id", ["a", 1])
def test_format_detection_gives_a_clear_error(edges: Any, node_id: Any) -> None:
    doc = {"nodes": [{"id": node_id, "type": "end"}], "edges": edges}
    try:
        load_flow(doc)
    except FlowError as exc:
        assert str(exc)


# ------------------------------------------------------------ 15, 17. CLI


def test_trace_lines_take_integers_beyond_64_bits() -> None:
    assert json_line({"n": 2**70, "s": "x"}) == '{"n":' + str(2**70) + ',"s":"x"}'
    assert json_line({"n": 1}) == '{"n":1}'


def test_chat_trace_shows_a_huge_tool_argument(tmp_path: Path) -> None:
    doc = small_flow()
    doc["nodes"].insert(
        1, {"id": "act", "type": "external_action", "tool": "t", "arguments": {"n": {"slot": "size"}}}
    )
    doc["edges"] = [{"source": "ask", "target": "act"}, {"source": "act", "target": "done"}]
    path = tmp_path / "flow.json"
    path.write_bytes(orjson.dumps(doc))
    result = fsmdial("chat", "--trace", str(path), stdin="it is 123456789012345678901234567890\n")
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stdout + result.stderr


def test_validate_refuses_an_endless_file_quickly() -> None:
    result = fsmdial("validate", "/dev/zero")  # the helper's subprocess timeout bounds the time
    assert result.returncode == 1
    assert f"larger than {MAX_FLOW_BYTES // (1024 * 1024)} MiB" in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("reserved", ["none"])
def test_reserved_intent_and_choice_names_are_refused(reserved: str) -> None:
    doc = small_flow(global_actions=[{"intent": reserved, "examples": ["nothing"]}])
    assert "reserved" in issues_of(doc)
    doc = small_flow()
    doc["nodes"].insert(1, {"id": "pick", "type": "inform_and_confirm", "question": "Which?", "choices": [{"name": reserved}]})
    doc["edges"] = [{"source": "ask", "target": "pick"}, {"source": "pick", "target": "done"}]
    assert "reserved" in issues_of(doc)


def test_graph_escapes_node_ids_and_labels() -> None:
    evil = 'x"-->y\nstate "z" as end;#'
    doc = small_flow(name='flow\n---\nname: "x"')
    doc["nodes"][0]["id"] = evil
    doc["edges"][0]["source"] = evil
    text = mermaid(compile_flow(load_flow(doc)))
    lines = text.splitlines()
    assert lines[:4] == ["---", "title: flow#10;---#10;name#58; #34;x#34;", "---", "stateDiagram-v2"]
    states = [line for line in lines if line.startswith("  state ")]
    assert len(states) == 2 and all(line.count('"') == 2 for line in states)
    assert "  state_0 --> done: advance" in lines
    assert all(line.startswith(("---", "title: ", "stateDiagram", "  ")) for line in lines)
    assert sum("-->" in line for line in lines) == 2  # the edge and the initial state: none from the id


# --------------------------------------------------------- 18. authoring checks


@pytest.mark.parametrize(
    ("when", "expected"),
    [
        ({"slot": "size", "op": "eq", "value": "zero"}, "'size' is compared with 'zero', but its values are a number"),
        ({"slot": "size", "op": "in", "value": [1, "two"]}, "compared with 'two'"),
        ({"slot": "size", "op": "gt", "value": True}, "compared with True"),
    ],
)
def test_condition_values_of_the_wrong_type_are_errors(when: dict[str, Any], expected: str) -> None:
    doc = small_flow()
    doc["nodes"].insert(1, {"id": "big", "type": "end"})
    doc["edges"].insert(0, {"source": "ask", "target": "big", "when": when})
    message = issues_of(doc)
    assert expected in message and "edge ask->big" in message


def test_categorical_condition_values_must_be_values_of_the_slot() -> None:
    doc = small_flow()
    doc["nodes"][0]["slots"] = [{"name": "size", "type": "categorical", "values": ["small", "large"]}]
    doc["nodes"].insert(1, {"id": "big", "type": "end"})
    doc["edges"].insert(0, {"source": "ask", "target": "big", "when": {"slot": "size", "value": "huge"}})
    assert "not one of its values" in issues_of(doc)


def test_result_field_conditions_are_type_checked() -> None:
    doc = small_flow()
    doc["nodes"].insert(1, {"id": "act", "type": "external_action", "tool": "t", "result": {"count": "integer"}})
    doc["nodes"].insert(2, {"id": "none_left", "type": "end"})
    doc["edges"] = [
        {"source": "ask", "target": "act"},
        {"source": "act", "target": "none_left", "when": {"result": "count", "value": "zero"}},
        {"source": "act", "target": "done"},
    ]
    message = issues_of(doc)
    assert "result field 'count' is compared with 'zero'" in message and "edge act->none_left" in message


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ({"slot": "size", "op": "gt", "value": 2}, {"slot": "size", "op": "gt", "value": 5}),
        ({"slot": "size", "op": "present"}, {"slot": "size", "op": "eq", "value": 3}),
        ({"slot": "size", "op": "in", "value": [1, 2, 3]}, {"slot": "size", "op": "eq", "value": 2}),
        ({"any": [{"slot": "size", "op": "lt", "value": 0}, {"slot": "size", "op": "ge", "value": 1}]},
         {"all": [{"slot": "size", "op": "eq", "value": 4}, {"call": "weekday"}]}),
    ],
)
def test_shadowed_edges_are_warned_about(first: dict[str, Any], second: dict[str, Any]) -> None:
    doc = small_flow()
    doc["nodes"][1:1] = [{"id": "a", "type": "end"}, {"id": "b", "type": "end"}]
    doc["edges"][0:0] = [{"source": "ask", "target": "a", "when": first}, {"source": "ask", "target": "b", "when": second}]
    warnings = [str(w) for w in flow_warnings(load_flow(doc))]
    assert any(w.startswith("edge ask->b: never taken") and "ask->a" in w for w in warnings), warnings


def test_edges_that_can_win_are_not_warned_about() -> None:
    doc = small_flow()
    doc["nodes"][1:1] = [{"id": "a", "type": "end"}, {"id": "b", "type": "end"}]
    doc["edges"][0:0] = [
        {"source": "ask", "target": "a", "when": {"slot": "size", "op": "gt", "value": 5}},
        {"source": "ask", "target": "b", "when": {"slot": "size", "op": "gt", "value": 2}},
    ]
    assert flow_warnings(load_flow(doc)) == []


def test_a_confirmation_without_a_yes_edge_and_a_leaf_inform_are_warned_about() -> None:
    doc = small_flow()
    doc["nodes"][1:1] = [
        {"id": "check", "type": "inform_and_confirm", "question": "Sure?"},
        {"id": "told", "type": "inform", "message": "Noted."},
    ]
    doc["edges"] = [
        {"source": "ask", "target": "check"},
        {"source": "check", "target": "done", "when": {"answer": "no"}},
        {"source": "check", "target": "told", "when": {"all": [{"answer": "other"}]}},
    ]
    warnings = {w.path: w.message for w in flow_warnings(load_flow(doc))}
    assert "'yes'" in warnings["node check"]
    assert "inform node with no outgoing edge" in warnings["node told"]


def test_validate_prints_warnings_and_still_succeeds(tmp_path: Path) -> None:
    path = tmp_path / "flow.json"
    doc = small_flow()
    doc["nodes"].insert(1, {"id": "told", "type": "inform", "message": "Noted."})
    doc["edges"].append({"source": "ask", "target": "told", "when": {"slot": "size", "op": "gt", "value": 3}})
    path.write_bytes(orjson.dumps(doc))
    result = fsmdial("validate", str(path))
    assert result.returncode == 0
    assert "warning: node told" in result.stderr


# ------------------------------------------------------------- 19. date slots


def test_date_bounds_and_invalid_messages_are_validated() -> None:
    doc = small_flow()
    doc["nodes"][0]["slots"] = [
        {"name": "birth", "type": "date", "latest": "today", "earliest": "1900-01-01", "invalid": "Not a birth date: {birth}"}
    ]
    doc["nodes"][1]["message"] = "{birth}"
    slot = load_flow(doc).slots()["birth"]
    assert (slot.earliest, slot.latest) == ("1900-01-01", "today")
    doc["nodes"][0]["slots"][0]["latest"] = "yesterday-ish"
    assert "date bound" in issues_of(doc)
    doc["nodes"][0]["slots"][0] = {"name": "birth", "type": "integer", "latest": "today"}
    assert "only apply to date slots" in issues_of(doc)
    doc["nodes"][0]["slots"][0] = {"name": "birth", "type": "date", "invalid": "Bad {nothing}"}
    assert "{nothing}" in issues_of(doc)


# --------------------------------------------------------------- examples


@pytest.mark.parametrize("path", EXAMPLE_FLOWS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_example_flow_validates_without_errors(path: Path) -> None:
    flow = load_flow(path)
    check_source(emit_source(flow))


@pytest.mark.parametrize(("pattern", "reply"), [("[0-9]+\\$", "it is 12$ please"), ("(?i)^[a-z]{3}$", "it is ABC")])
def test_a_valid_pattern_never_fails_a_turn(pattern: str, reply: str) -> None:
    from fsmdial.runtime import Dialogue

    doc = small_flow()
    doc["nodes"][0]["slots"] = [{"name": "code", "pattern": pattern}]
    doc["nodes"][1]["message"] = "Got {code}."
    dialogue = Dialogue(load_flow(doc))
    dialogue.start()
    assert dialogue.turn(reply).messages == [f"Got {search_regex(pattern).search(reply).group()}."]  # type: ignore[union-attr]


def test_an_end_node_that_asks_a_question_is_a_warning() -> None:
    doc = {"name": "ends_asking", "nodes": [
        {"id": "ask", "type": "request", "slots": [{"name": "x", "description": "x"}]},
        {"id": "bye", "type": "end", "message": "Anything else I can do for you?"},
    ], "edges": [{"source": "ask", "target": "bye"}]}  # fmt: skip
    assert [w.path for w in flow_warnings(load_flow(doc))] == ["node bye"]
    doc["nodes"][1]["message"] = "Goodbye."
    assert flow_warnings(load_flow(doc)) == []
