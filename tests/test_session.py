"""SessionState: one dataclass holds the session, so every field is saved, restored and rolled back."""

from __future__ import annotations

import copy
import dataclasses
from pathlib import Path
from typing import Any

import orjson
import pytest

from fsmdial.errors import SnapshotError, TurnError
from fsmdial.loader import load_flow
from fsmdial.runtime import Dialogue
from fsmdial.session import HISTORY_LIMIT, SNAPSHOT_VERSION, SessionState, check_state, decode_snapshot, encode_snapshot
from fsmdial.stores import SQLiteStore
from fsmdial.testing.forcing import checkpoint, rewind, seek
from fsmdial.understand.rules import RulesUnderstander
from tests import example_tools
from tests.conftest import FLOWS
from tests.reliability_support import ROOT, SpyTools, clock, flow

RIDE = FLOWS / "ride_change.json"

SAMPLES: dict[str, Any] = {
    "node": "change_ride",
    "slots": {"customer_name": "Ann", "ride_id": 17},
    "results": {"change_ride": {"changed": True}},  # the shape the node declares (checked at restore)
    "status": {"change_ride": "success"},
    "calls": {"change_ride": {"arguments": {"ride_id": 17}, "result": {"changed": True}, "error": None}},
    "informed": {"ask_details", "ride_inform_changes_successful"},
    "answers": {"ask_details": "yes"},
    "last_action": "change_ride",
    "visits": {"ask_details": 2, "change_ride": 1},
    "declined": {"change_description"},
    "confirmed": {"customer_name"},
    "asked": "ride_id",
    "came_through": "ask_details",
    "retries": {"ride_id": 1},
    "ended": True,
    "history": [("user", "hi"), ("bot", "hello")],
    "turns": 3,
}
"""A value of each field that differs from its default and that a snapshot of flow RIDE may hold."""


def sample(field: dataclasses.Field[Any], node: str = "ask_details") -> Any:
    """A value for ``field`` that differs from its default (and survives JSON)."""
    default = field.default_factory() if field.default_factory is not dataclasses.MISSING else field.default
    if field.name == "node":
        return node
    if isinstance(default, bool):
        return not default
    if isinstance(default, int):
        return default + 3
    if isinstance(default, set):
        return {f"{field.name}_a", f"{field.name}_b"}
    if isinstance(default, list):
        return [("user", f"{field.name} text"), ("bot", "reply")]
    if isinstance(default, dict):
        return {f"{field.name}_key": 2}
    return f"{field.name}_value"  # str | None


def filled(cls: type[SessionState] = SessionState) -> SessionState:
    """Every field away from its default: :data:`SAMPLES`, and :func:`sample` for a field a test's class adds."""
    return cls(
        **{f.name: copy.deepcopy(SAMPLES[f.name]) if f.name in SAMPLES else sample(f) for f in dataclasses.fields(cls)}
    )


def test_every_field_round_trips_through_copy_and_the_snapshot() -> None:
    assert set(SAMPLES) == {f.name for f in dataclasses.fields(SessionState)}  # a new field needs a sample
    state = filled()
    assert all(getattr(state, f.name) != getattr(SessionState(), f.name) for f in dataclasses.fields(state))
    assert state.copy() == state
    flow = load_flow(RIDE)
    snapshot = encode_snapshot(state, flow.name, Dialogue(flow, tools=example_tools.registry).tables.fingerprint)
    for given in (snapshot, orjson.loads(snapshot)):  # the bytes, and the mapping they hold
        restored = Dialogue.restore(flow, given, tools=example_tools.registry)
        assert restored.session == state and restored.session is not state


def test_a_copy_shares_no_container() -> None:
    state = filled()
    copy = state.copy()
    for f in dataclasses.fields(state):
        value = getattr(copy, f.name)
        if isinstance(value, (dict, list, set)):
            value.clear()
    assert state == filled()


def test_a_field_added_to_the_dataclass_is_copied_saved_and_restored() -> None:
    extended = dataclasses.make_dataclass(
        "Extended", [("extra", dict, dataclasses.field(default_factory=dict))], bases=(SessionState,)
    )
    state = filled(extended)
    assert state.extra == {"extra_key": 2}
    assert state.copy().extra == {"extra_key": 2} and state.copy().extra is not state.extra
    data = orjson.loads(encode_snapshot(state, "f", "abc"))
    assert data["extra"] == {"extra_key": 2}
    fields = {name: value for name, value in data.items() if name not in ("format", "version", "flow", "fingerprint")}
    assert check_state(extended, fields) == state  # the reading decode_snapshot does after the header


@pytest.mark.parametrize("field", [f.name for f in dataclasses.fields(SessionState)])
def test_a_snapshot_without_one_field_is_refused(field: str) -> None:
    data = orjson.loads(encode_snapshot(filled(), "f", "abc"))
    del data[field]
    with pytest.raises(SnapshotError, match=f"no '{field}'"):
        decode_snapshot(orjson.dumps(data), "f", "abc")


def test_a_snapshot_with_an_unknown_field_is_refused() -> None:
    data = orjson.loads(encode_snapshot(filled(), "f", "abc"))
    data["surprise"] = 1
    with pytest.raises(SnapshotError, match="unknown field"):
        decode_snapshot(orjson.dumps(data), "f", "abc")


class MutateThenFail(RulesUnderstander):
    """Writes a new value into every field of the session, then fails the turn."""

    def __init__(self, dialogue: Dialogue | None = None):
        super().__init__()
        self.dialogue = dialogue

    def understand(self, state: Any, text: str, **kwargs: Any) -> Any:
        assert self.dialogue is not None
        session = self.dialogue.session
        for f in dataclasses.fields(session):
            setattr(session, f.name, sample(f, node="change_ride"))
        raise RuntimeError("understander bug")


def test_a_failed_turn_rolls_back_every_field() -> None:
    understander = MutateThenFail()
    dialogue = Dialogue(load_flow(RIDE), tools=example_tools.registry, understander=understander)
    dialogue.start()
    understander.dialogue = dialogue
    before = dialogue.session.copy()
    with pytest.raises(TurnError, match="understander bug"):
        dialogue.turn("Ann")
    assert dialogue.session == before
    assert dialogue.node == "ask_details"


def test_a_version_1_snapshot_still_loads() -> None:
    dialogue = Dialogue(load_flow(RIDE), tools=example_tools.registry)
    dialogue.start()
    dialogue.turn("Ann")
    dialogue.turn("17")
    current = orjson.loads(dialogue.snapshot())
    machine_fields = (
        "node",
        "slots",
        "results",
        "status",
        "informed",
        "answers",
        "last_action",
        "visits",
        "declined",
        "confirmed",
    )
    v1 = {k: v for k, v in current.items() if k not in machine_fields and k != "calls"}
    v1 |= {"version": 1, "machine": {k: current[k] for k in machine_fields}}
    restored = Dialogue.restore(load_flow(RIDE), orjson.dumps(v1), tools=example_tools.registry)
    assert restored.session == dialogue.session
    assert restored.turn("move it to 5pm").trace.to_dict() == dialogue.turn("move it to 5pm").trace.to_dict()
    assert SNAPSHOT_VERSION == 3


def test_a_version_2_snapshot_still_loads() -> None:
    """Version 2 had no ``came_through`` (issue 33): it reads as not recorded, and the session goes on alike."""
    dialogue = Dialogue(load_flow(RIDE), tools=example_tools.registry)
    dialogue.start()
    dialogue.turn("Ann")
    dialogue.turn("17")
    current = orjson.loads(dialogue.snapshot())
    assert current["version"] == 3 and current["came_through"] is None  # still at the first question
    v2 = {k: v for k, v in current.items() if k != "came_through"} | {"version": 2}
    restored = Dialogue.restore(load_flow(RIDE), orjson.dumps(v2), tools=example_tools.registry)
    assert restored.session == dialogue.session
    assert restored.turn("move it to 5pm").trace.to_dict() == dialogue.turn("move it to 5pm").trace.to_dict()
    assert restored.session == dialogue.session and restored.session.came_through == "ask_details"
    with pytest.raises(SnapshotError, match="version 4 is not supported"):
        Dialogue.restore(load_flow(RIDE), orjson.dumps({**current, "version": 4}), tools=example_tools.registry)


def test_seek_puts_the_session_at_a_node_as_a_transcript_says() -> None:
    dialogue = Dialogue(load_flow(RIDE), tools=example_tools.registry)
    dialogue.start()
    dialogue.turn("Ann")
    dialogue.turn("17")
    saved = checkpoint(dialogue)
    seek(dialogue, "ask_details", clear=["ride_id"])
    assert dialogue.node == "ask_details" and dialogue.slots == {"customer_name": "Ann"}
    # the cleared slot is taken, acknowledged (the question left pending before the seek is asked again)
    assert dialogue.turn("18").act_names == ["noted", "ride_ask_change"]
    seek(dialogue, "change_ride", result={"changed": True, "message": "moved"})
    assert dialogue.session.status["change_ride"] == "success" and dialogue.session.last_action == "change_ride"
    rewind(dialogue, saved)  # back to before the seeks, keeping what the user said since
    assert (
        dialogue.node == saved.node and dialogue.slots["ride_id"] == 18 and "change_ride" not in dialogue.session.status
    )
    assert dialogue.session.history != saved.history and dialogue.session.turns == saved.turns + 1


RESTAURANT = flow(ROOT / "flows" / "restaurant_booking.json")


def test_the_snapshot_stays_bounded_in_a_long_conversation(tmp_path: Path) -> None:
    with SQLiteStore(tmp_path / "s.db", durable=False) as store:
        dialogue = store.dialogue(RESTAURANT, "long", tools=SpyTools(RESTAURANT).registry, clock=clock)
        dialogue.start()
        sizes = {}
        for turn in range(2, 2001):
            dialogue.turn(f"hmm, let me think about it ({turn})")
            if turn in (100, 2000):
                sizes[turn] = len(dialogue.snapshot())
        assert dialogue.turns == 2000
        assert len(dialogue.history) == HISTORY_LIMIT
        assert sizes[2000] <= sizes[100] + 100  # only the digits of the counts grow
        assert sizes[2000] < 8_000
        assert [text for role, text in dialogue.history if role == "user"][-1] == "hmm, let me think about it (2000)"
        traces = store.traces("long")  # the whole transcript stays in the store
        assert len(traces) == 2000 and traces[1]["text"] == "hmm, let me think about it (2)"
        resumed = store.resume(RESTAURANT, "long", tools=SpyTools(RESTAURANT).registry, clock=clock)
        assert resumed.session == dialogue.session and resumed.history == dialogue.history
