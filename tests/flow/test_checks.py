"""Hardening round 3 (issue 22), items 9, 10 and 11: what flow validation must refuse, and how fast.

9. A slot pattern that ignores case is checked on its case-folded form: ``(?i)^(?:ax|Ax)+$`` and the
   Unicode case pairs (``ſ``/``s``, the Kelvin sign/``k``) backtrack exponentially and are refused.
10. A loop with no exit is named in time linear in the flow (one search from the exits, one pass over
    the cycles), with the same issue as the per-node search it replaces.
11. Date bounds: a bound with a trailing newline and an ``earliest`` after ``latest`` are validation
    errors with their path.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fsmdial.compiler import check_source, emit_source
from fsmdial.errors import FlowError
from fsmdial.flow import pattern_problem
from fsmdial.flow.graph import on_cycle, reachable
from fsmdial.loader import load_flow
from tests.conftest import REPO
from tests.flows import issues_of, small_flow

# ------------------------------------------------------ 9. case-folded patterns


@pytest.mark.parametrize(
    "pattern",
    [
        "(?i)^(?:ax|Ax)+$",  # issue 22: 61 characters took 72 s
        "(?i)^(?:sx|\u017fx)+$",  # long s folds to s
        "(?i)^(?:kx|\u212ax)+$",  # the Kelvin sign folds to k
        "^(?i:ax|Ax)+$",  # a local flag
        "(?i)^(?:[a-c]x|Bx)+$",
        "(?i)a+A+",  # two runs that match the same letters: cubic when searched
        "(?i)[a-z]+[K]+",
    ],
)
def test_patterns_that_ignore_case_are_checked_on_their_folded_form(pattern: str) -> None:
    problem = pattern_problem(pattern)
    assert problem is not None and ("exponential" in problem or "cubic" in problem)


@pytest.mark.parametrize(
    "pattern",
    ["(?i)^[a-z]{3}$", "(?i)^(?:ax|bx)+$", "^(?:ax|Ax)+$", "(?i)^(?-i:ax|Ax)+$", "^(?:kx|\u212ax)+$", "a+A+"],
)
def test_patterns_whose_cases_stay_apart_are_still_accepted(pattern: str) -> None:
    assert pattern_problem(pattern) is None


CASE_PAIRS = "aAsS\u017fkK\u212ax"


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(alphabet=CASE_PAIRS, min_size=1, max_size=3), min_size=2, max_size=4, unique_by=lambda w: w[0]))
def test_an_accepted_case_insensitive_repetition_has_alternatives_no_character_starts_alike(words: list[str]) -> None:
    # The alternatives start with different characters as written, so re's parser keeps them apart
    # (it only factors a prefix all of them share, and reads single characters as one set: linear).
    pattern = "(?i)^(?:" + "|".join(map(re.escape, words)) + ")+$"
    if pattern_problem(pattern) is not None or all(len(word) == 1 for word in words):
        return
    # The oracle is re itself: no character matches the first character of two alternatives.
    for i, first in enumerate(words):
        for second in words[i + 1 :]:
            both = [c for c in CASE_PAIRS if re.fullmatch(first[0], c, re.I) and re.fullmatch(second[0], c, re.I)]
            assert not both, (pattern, both)


# ------------------------------------------------- 10. loops named in linear time


def _reference_looping(succ: dict[str, list[str]], stuck: list[str]) -> list[str]:
    """The check before issue 22: a search from every stuck node (quadratic), kept as the oracle."""
    return [n for n in stuck if n in reachable(succ, succ[n])]


@settings(max_examples=300, deadline=None)
@given(
    st.integers(1, 8).flatmap(
        lambda n: st.tuples(st.just(n), st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1))))
    )
)
def test_nodes_on_a_cycle_are_the_ones_a_search_from_each_node_finds(graph: tuple[int, list[tuple[int, int]]]) -> None:
    size, pairs = graph
    succ: dict[str, list[str]] = {f"n{i}": [] for i in range(size)}
    for a, b in pairs:
        succ[f"n{a}"].append(f"n{b}")
    nodes = list(succ)
    cycle = on_cycle(succ, nodes)
    assert [n for n in nodes if n in cycle] == _reference_looping(succ, nodes)


def looping_flow(size: int, loop: int, extra: list[tuple[int, int]] = ()) -> dict[str, Any]:  # type: ignore[assignment]
    """A request node, then a chain of ``size`` informs whose last ``loop`` ones loop back with no exit;
    ``extra`` edges are conditional, so the chain stays one unconditional edge per node (target ``size``: the end)."""
    nodes: list[dict[str, Any]] = [{"id": "ask", "type": "request", "slots": [{"name": "k", "type": "integer"}]}]
    nodes += [{"id": f"n{i}", "type": "inform", "message": f"step {i}"} for i in range(size)]
    nodes.append({"id": "end", "type": "end", "message": "bye"})
    edges = [{"source": "ask", "target": "n0"}]
    edges += [{"source": f"n{i}", "target": f"n{i + 1}"} for i in range(size - 1)]
    edges.append({"source": f"n{size - 1}", "target": f"n{size - loop}"})
    edges.append({"source": "ask", "target": "end", "when": {"slot": "k", "op": "eq", "value": 0}})
    for value, (a, b) in enumerate(extra, start=1):
        edges.append(
            {
                "source": f"n{a}",
                "target": f"n{b}" if b < size else "end",
                "when": {"slot": "k", "op": "eq", "value": value},
            }
        )
    return {"name": "loop", "nodes": nodes, "edges": edges}


def issues(doc: dict[str, Any]) -> list[str]:
    try:
        load_flow(doc)
    except FlowError as error:
        return [str(issue) for issue in error.issues]
    return []


def test_a_loop_without_exit_is_named_by_its_nodes() -> None:
    assert issues(looping_flow(5, 2)) == [
        "nodes n3, n4: loop with no way out: no path from here to an end node or a node without outgoing edges"
    ]
    # Two loops, the first leading into the second, neither with an exit: both are named.
    found = issues(looping_flow(6, 2, extra=[(1, 0), (2, 5)]))
    assert found == [
        "nodes n0, n1, n4, n5: loop with no way out: no path from here to an end node or a node without outgoing edges"
    ]
    # An exit from the first loop: only the second is stuck.
    found = issues(looping_flow(6, 2, extra=[(1, 0), (2, 6)]))
    assert found == [
        "nodes n4, n5: loop with no way out: no path from here to an end node or a node without outgoing edges"
    ]


@settings(max_examples=100, deadline=None)
@given(
    st.integers(2, 7).flatmap(
        lambda n: st.tuples(
            st.just(n), st.integers(1, n), st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n)), max_size=6)
        )
    )
)
def test_the_loop_issue_names_what_a_search_from_each_node_names(case: tuple[int, int, list[tuple[int, int]]]) -> None:
    size, loop, extra = case
    doc = looping_flow(size, loop, extra)
    succ: dict[str, list[str]] = {n["id"]: [] for n in doc["nodes"]}
    pred: dict[str, list[str]] = {n["id"]: [] for n in doc["nodes"]}
    for edge in doc["edges"]:
        succ[edge["source"]].append(edge["target"])
        pred[edge["target"]].append(edge["source"])
    can_end = set(reachable(pred, ["end"]))
    stuck = [n for n in succ if n not in can_end]
    looping = _reference_looping(succ, stuck) or stuck
    found = [issue for issue in issues(doc) if "no way out" in issue]
    if not looping:
        assert found == []
        return
    where = f"node {looping[0]}" if len(looping) == 1 else "nodes " + ", ".join(looping)
    assert found == [
        f"{where}: loop with no way out: no path from here to an end node or a node without outgoing edges"
    ]


# ------------------------------------------------------------ 11. date bounds


def date_flow(**bounds: str) -> dict[str, Any]:
    return {
        "name": "bounds",
        "nodes": [
            {"id": "ask", "type": "request", "slots": [{"name": "day", "type": "date", **bounds}]},
            {"id": "done", "type": "end", "message": "On {day}."},
        ],
        "edges": [{"source": "ask", "target": "done"}],
    }


@pytest.mark.parametrize("bound", ["today\n", "2026-01-01\n", "today+3\n", " today"])
@pytest.mark.parametrize("which", ["earliest", "latest"])
def test_a_date_bound_with_anything_around_it_is_refused_with_its_path(which: str, bound: str) -> None:
    with pytest.raises(FlowError) as caught:
        load_flow(date_flow(**{which: bound}))
    assert caught.value.path.startswith("nodes[0](ask).slots[0]")
    assert "date bound" in str(caught.value)


@pytest.mark.parametrize(
    ("earliest", "latest"),
    [("2026-12-01", "2026-11-01"), ("today+1", "today"), ("today", "today-30"), ("today+10", "today+3")],
)
def test_earliest_after_latest_is_refused_with_its_path(earliest: str, latest: str) -> None:
    with pytest.raises(FlowError) as caught:
        load_flow(date_flow(earliest=earliest, latest=latest))
    assert caught.value.path.startswith("nodes[0](ask).slots[0]")
    assert f"earliest {earliest!r} is after latest {latest!r}" in str(caught.value)


@pytest.mark.parametrize(
    ("earliest", "latest"),
    [
        ("2026-11-01", "2026-11-01"),
        ("today", "today"),
        ("today-30", "today+30"),
        ("1900-01-01", "today"),
        ("today", "2020-01-01"),
    ],
)
def test_bounds_that_leave_a_date_or_depend_on_the_clock_are_accepted(earliest: str, latest: str) -> None:
    slot = load_flow(date_flow(earliest=earliest, latest=latest)).slots()["day"]
    assert (slot.earliest, slot.latest) == (earliest, latest)


EXAMPLE_FLOWS = sorted(  # an example's conversation files (test_*.conversations.json) are tests, not flows
    path
    for path in [*REPO.glob("flows/*.json"), *REPO.glob("flows/star/*.json"), *REPO.glob("examples/**/*.json")]
    if not path.name.endswith(".conversations.json")
)


def test_categorical_values_the_engine_cannot_tell_apart_are_a_validation_error() -> None:
    doc = small_flow()
    doc["nodes"][0]["slots"] = [{"name": "city", "type": "categorical", "values": ["New York", "new-york", "Paris"]}]
    doc["nodes"][1]["message"] = "{city}"
    message = issues_of(doc)
    assert "'New York' and 'new-york'" in message and "city" in message


@pytest.mark.parametrize("template", ["Got {size:>100000000}", "Got {size:.999}", "{size:{size}}", "{size:!!}"])
def test_format_widths_are_bounded_at_validation(template: str) -> None:
    doc = small_flow()
    doc["nodes"][1]["message"] = template
    assert "done" in issues_of(doc)


def test_long_templates_are_refused() -> None:
    doc = small_flow()
    doc["nodes"][1]["message"] = "x" * 100_000
    assert "characters, more than" in issues_of(doc)


def test_date_placeholders_take_a_date_pattern_as_their_format_spec() -> None:
    # (issue 35: dates and times take patterns; before, any format spec on them was refused)
    doc = small_flow()
    doc["nodes"][0]["slots"] = [{"name": "pickup_date", "type": "date"}]
    doc["nodes"][1]["message"] = "See you on {pickup_date:%A %d %B}."
    load_flow(doc)
    doc["nodes"][1]["message"] = "See you on {pickup_date:>12}."
    assert "pickup_date" in issues_of(doc) and "takes a pattern" in issues_of(doc)


@pytest.mark.parametrize("reserved", ["none"])
def test_reserved_intent_and_choice_names_are_refused(reserved: str) -> None:
    doc = small_flow(global_actions=[{"intent": reserved, "examples": ["nothing"]}])
    assert "reserved" in issues_of(doc)
    doc = small_flow()
    doc["nodes"].insert(
        1, {"id": "pick", "type": "inform_and_confirm", "question": "Which?", "choices": [{"name": reserved}]}
    )
    doc["edges"] = [{"source": "ask", "target": "pick"}, {"source": "pick", "target": "done"}]
    assert "reserved" in issues_of(doc)


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


def test_date_bounds_and_invalid_messages_are_validated() -> None:
    doc = small_flow()
    doc["nodes"][0]["slots"] = [
        {
            "name": "birth",
            "type": "date",
            "latest": "today",
            "earliest": "1900-01-01",
            "invalid": "Not a birth date: {birth}",
        }
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


@pytest.mark.parametrize("path", EXAMPLE_FLOWS, ids=lambda p: str(p.relative_to(REPO)))
def test_every_example_flow_validates_without_errors(path: Path) -> None:
    flow = load_flow(path)
    check_source(emit_source(flow))
