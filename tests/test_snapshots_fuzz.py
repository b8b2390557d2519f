"""Fuzzing snapshot documents (issue 13, item 10): valid snapshots of every example flow, taken at every
turn of a cooperative conversation, mutated field by field (wrong types, huge numbers, missing keys,
extra keys, nested junk). Each mutant is either refused with a SnapshotError (and the dialogue it was
loaded into is unchanged), or it is loaded and the dialogue can take a turn (or fails it with a typed
TurnError that leaves the session as it was)."""

from __future__ import annotations

import json
from functools import cache
from typing import Any

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fsmdial.errors import SnapshotError, TurnError
from fsmdial.runtime import Dialogue
from fsmdial.values import coerce
from tests.reliability_support import FLOW_PATHS, SpyTools, clock, count, drive, flow, record

EXAMPLES = count(150, 3000)

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**63), max_value=2**64 - 1),
    st.sampled_from([0, 1, -1, 2**53, 2**53 + 1, 2**63 - 1, 1e300, -1e300, 0.5, 2.0, 1e-300]),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=12),
    st.sampled_from(["", "user", "bot", "success", "failure", "yes", "no", "\x00", "\ud7ff", "ask_booking"]),
)
junk = st.recursive(
    scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)),
    max_leaves=12,
)


@cache
def snapshots(path_index: int) -> tuple[bytes, ...]:
    """Valid snapshots of one example flow: after the start and after each turn of a cooperative user."""
    loaded = flow(FLOW_PATHS[path_index])
    dialogue = Dialogue(loaded, tools=SpyTools(loaded).registry, clock=clock)
    return tuple(dialogue.snapshot() for _ in drive(dialogue, 8))


def paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in a JSON document (dict keys and list indexes), outermost first."""
    out = [prefix] if prefix else []
    if isinstance(value, dict):
        for key, item in value.items():
            out += paths(item, prefix + (key,))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            out += paths(item, prefix + (index,))
    return out


@st.composite
def mutants(draw: st.DrawFn) -> tuple[int, bytes, bytes, str]:
    path_index = draw(st.integers(0, len(FLOW_PATHS) - 1))
    valid = snapshots(path_index)
    original = draw(st.sampled_from(valid))
    data = orjson.loads(original)
    for _ in range(draw(st.integers(1, 3))):
        where = draw(st.sampled_from(paths(data)))
        parent: Any = data
        for step in where[:-1]:
            parent = parent[step]
        last = where[-1]
        how = draw(st.sampled_from(["replace", "delete", "extra", "wrap", "numeric"]))
        if how == "replace":
            parent[last] = draw(junk)
        elif how == "delete":
            del parent[last]
        elif how == "extra" and isinstance(parent, dict):
            parent[draw(st.text(min_size=1, max_size=8))] = draw(junk)
        elif how == "extra":
            parent.append(draw(junk))
        elif how == "wrap":
            parent[last] = draw(st.sampled_from([[parent[last]], {"x": parent[last]}, str(parent[last])]))
        else:
            parent[last] = draw(st.sampled_from([10**30, -(10**30), 2**64, 1e300, -0.0, True, 3.5]))
    # the mutant goes into a dialogue of the same flow, sitting at some other valid snapshot
    target = draw(st.sampled_from(valid))
    return path_index, json.dumps(data).encode(), target, how  # json: integers beyond 64 bits, as a hand edit may


def assert_sound(dialogue: Dialogue) -> None:
    """What a loaded session must be, whatever the snapshot said: ids of the flow, valid slot values, counts."""
    session, tables = dialogue.session, dialogue.tables
    assert session.node in tables.nodes
    for table in (session.visits, session.results, session.status, session.calls, session.answers, session.informed):
        assert set(table) <= set(tables.nodes)
    for table in (session.retries, session.declined, session.confirmed, session.slots):
        assert set(table) <= set(tables.slots)
    for name, value in session.slots.items():
        coerced = coerce(tables.slots[name], value, clock())
        assert coerced == value and type(coerced) is type(value), (name, value)
    for number in [session.turns, *session.visits.values(), *session.retries.values()]:
        assert type(number) is int and 0 <= number <= 2**53
    assert type(session.ended) is bool


FIGURES = {"cases": 0, "refused": 0, "loaded": 0, "turn_ok": 0, "turn_error": 0}


@settings(
    max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large]
)
@given(mutants())
def test_a_mutated_snapshot_is_refused_unchanged_or_takes_a_turn(case: tuple[int, bytes, bytes, str]) -> None:
    path_index, mutant, target, _ = case
    loaded = flow(FLOW_PATHS[path_index])
    tools = SpyTools(loaded).registry
    dialogue = Dialogue.restore(loaded, target, tools=tools, clock=clock)
    before, state = dialogue.snapshot(), dialogue.session.copy()
    FIGURES["cases"] += 1
    try:
        dialogue.load_snapshot(mutant)
    except SnapshotError as exc:
        FIGURES["refused"] += 1
        assert str(exc)
        assert dialogue.snapshot() == before and dialogue.session == state
        assert dialogue.machine.state == state.node
        return
    FIGURES["loaded"] += 1
    loaded_state = dialogue.session.copy()
    assert_sound(dialogue)
    assert Dialogue.restore(loaded, dialogue.snapshot(), tools=tools, clock=clock).session == loaded_state
    try:
        dialogue.turn("yes")
    except TurnError:
        FIGURES["turn_error"] += 1
        assert dialogue.session == loaded_state
    else:
        FIGURES["turn_ok"] += 1


@pytest.fixture(scope="module", autouse=True)
def _figures():
    yield
    record("fuzz_snapshots", **FIGURES)
