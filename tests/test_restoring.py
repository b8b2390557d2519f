"""Reading snapshots back (fsmdial.session.decode_snapshot, fsmdial.restoring): a damaged or hand-edited snapshot
is a clear SnapshotError and changes nothing; a valid hand edit is taken with the flow's spelling."""

from __future__ import annotations

import datetime as dt
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson
import pytest

from fsmdial import session as session_module
from fsmdial.assistant import Assistant
from fsmdial.errors import SnapshotError
from fsmdial.runtime import Dialogue
from fsmdial.session import HISTORY_LIMIT, History
from fsmdial.stores import SQLiteStore
from tests.reliability_support import ROOT, SpyTools, clock, drive, flow

RESTAURANT = flow(ROOT / "flows" / "restaurant_booking.json")


RIDE = flow(ROOT / "flows" / "ride_change.json")


def restaurant() -> Dialogue:
    """A booking dialogue at its confirmation: every slot filled, a few messages in the history."""
    dialogue = Dialogue(RESTAURANT, tools=SpyTools(RESTAURANT).registry, clock=clock)
    for _ in drive(dialogue, 4):
        pass
    assert dialogue.node == "confirm_booking"
    return dialogue


def edited(dialogue: Dialogue, change: Callable[[dict[str, Any]], None]) -> bytes:
    data = orjson.loads(dialogue.snapshot())
    change(data)
    return orjson.dumps(data)


def put(key: str, value: Any) -> Callable[[dict[str, Any]], None]:
    return lambda data: data.__setitem__(key, value)


def put_slot(name: str, value: Any) -> Callable[[dict[str, Any]], None]:
    return lambda data: data["slots"].__setitem__(name, value)


DAMAGED = {
    "visits is a list": (put("visits", []), "visits"),
    "retries is a list": (put("retries", []), "retries"),
    "turns is 1e300": (put("turns", 1e300), "turns"),
    "turns is a boolean": (put("turns", True), "turns"),
    "turns is negative": (put("turns", -1), "turns"),
    "a visit count is 2.0": (lambda d: d["visits"].__setitem__("ask_booking", 2.0), "visits.ask_booking"),
    "a visit count is huge": (lambda d: d["visits"].__setitem__("ask_booking", 2**60), "visits.ask_booking"),
    "version is true": (put("version", True), "version"),
    "version is 2.0": (put("version", 2.0), "version"),
    "version is 1.0": (lambda d: d.update(version=1.0, machine={}), "version"),
    "ended is 1": (put("ended", 1), "ended"),
    "a set is text": (put("informed", "confirm_booking"), "informed"),
    "a history role is unknown": (put("history", [["system", "obey"]]), "history.0.0"),
    "a history entry is short": (put("history", [["user"]]), "history.0"),
    "a status is unknown": (put("status", {"book": "maybe"}), "status.book"),
    "a result is not an object": (put("results", {"book": [1, 2]}), "results.book"),
    "unknown node": (put("node", "nowhere"), "nowhere"),
    "unknown node in visits": (lambda d: d["visits"].__setitem__("nowhere", 1), "visits"),
    "unknown last action": (put("last_action", "nowhere"), "last_action"),
    "unknown node came through": (put("came_through", "nowhere"), "came_through"),
    "unknown slot": (put_slot("shoe_size", 42), "shoe_size"),
    "unknown slot asked": (put("asked", "shoe_size"), "asked"),
    "unknown slot declined": (put("declined", ["shoe_size"]), "declined"),
    "party size above its maximum": (put_slot("party_size", 5000), "party_size"),
    "party size below its minimum": (put_slot("party_size", 0), "party_size"),
    "party size not whole": (put_slot("party_size", 2.5), "party_size"),
    "party size is text": (put_slot("party_size", "two"), "party_size"),
    "party size is a boolean": (put_slot("party_size", True), "party_size"),
    "date is impossible": (put_slot("date", "2023-02-29"), "date"),
    "date is a number": (put_slot("date", 20240515), "date"),
    "time is out of range": (put_slot("time", "25:99"), "time"),
    "seating is not one of its values": (put_slot("seating", "on the roof"), "seating"),
    "name is an object": (put_slot("name", {"first": "Alex"}), "name"),
    "a field is missing": (lambda d: d.pop("calls"), "calls"),
    "an extra field": (put("surprise", 1), "surprise"),
}


@pytest.mark.parametrize("case", sorted(DAMAGED))
def test_a_damaged_snapshot_is_a_snapshot_error_naming_where_and_changes_nothing(case: str) -> None:
    change, where = DAMAGED[case]
    dialogue = restaurant()
    bad = edited(dialogue, change)
    other = Dialogue(RIDE, tools=SpyTools(RIDE).registry, clock=clock)
    for _ in drive(other, 2):
        pass
    fresh = Dialogue(RESTAURANT, tools=SpyTools(RESTAURANT).registry, clock=clock)
    for target in (dialogue, fresh):
        before, state = target.snapshot(), target.session.copy()
        with pytest.raises(SnapshotError, match=where):
            target.load_snapshot(bad)
        assert target.snapshot() == before and target.session == state
        assert target.machine.state == state.node  # the machine did not move either
    with pytest.raises(SnapshotError):
        Dialogue.restore(RESTAURANT, bad, tools=SpyTools(RESTAURANT).registry, clock=clock)


def test_a_valid_hand_edit_is_taken_with_the_flow_s_spelling() -> None:
    dialogue = restaurant()
    data = orjson.loads(dialogue.snapshot())
    data["slots"] |= {"party_size": 6, "seating": "TERRACE", "time": "8pm"}
    restored = Dialogue.restore(RESTAURANT, orjson.dumps(data), tools=SpyTools(RESTAURANT).registry, clock=clock)
    assert restored.slots["party_size"] == 6
    assert restored.slots["seating"] == "terrace" and restored.slots["time"] == "20:00"
    assert restored.turn("yes").acts


@pytest.mark.parametrize("case", ["visits is a list", "retries is a list", "party size above its maximum"])
def test_a_damaged_snapshot_in_the_store_is_a_snapshot_error(tmp_path: Path, case: str) -> None:
    change, where = DAMAGED[case]
    with SQLiteStore(tmp_path / "s.db") as store:
        dialogue = store.dialogue(RESTAURANT, "s1", tools=SpyTools(RESTAURANT).registry, clock=clock)
        for _ in drive(dialogue, 2):
            pass
        bad = edited(dialogue, change)
        with sqlite3.connect(tmp_path / "s.db") as conn:
            conn.execute("UPDATE sessions SET snapshot = ? WHERE id = 's1'", (bad,))
        with pytest.raises(SnapshotError, match=where):
            store.resume(RESTAURANT, "s1", tools=SpyTools(RESTAURANT).registry, clock=clock)


def test_a_snapshot_stored_as_text_resumes(tmp_path: Path) -> None:
    with SQLiteStore(tmp_path / "s.db") as store:
        dialogue = store.dialogue(RESTAURANT, "s1", tools=SpyTools(RESTAURANT).registry, clock=clock)
        for _ in drive(dialogue, 2):
            pass
        with sqlite3.connect(tmp_path / "s.db") as conn:  # as another tool (or a hand edit) might write it
            conn.execute("UPDATE sessions SET snapshot = CAST(snapshot AS TEXT) WHERE id = 's1'")
            assert conn.execute("SELECT typeof(snapshot) FROM sessions").fetchone() == ("text",)
        resumed = store.resume(RESTAURANT, "s1", tools=SpyTools(RESTAURANT).registry, clock=clock)
        assert resumed.session == dialogue.session
        with sqlite3.connect(tmp_path / "s.db") as conn:
            conn.execute("UPDATE sessions SET snapshot = 42 WHERE id = 's1'")
        with pytest.raises(SnapshotError, match="s1"):
            store.resume(RESTAURANT, "s1", tools=SpyTools(RESTAURANT).registry, clock=clock)


def test_a_damaged_assistant_snapshot_changes_nothing() -> None:
    tools = SpyTools(RESTAURANT).registry
    assistant = Assistant([RESTAURANT, RIDE], tools=tools, clock=clock)
    assistant.start()
    assistant.turn("I want to book a table")
    assistant.turn("Alex")
    good = orjson.loads(assistant.snapshot())
    names = list(good["dialogues"])
    for damage in (
        lambda d: d["dialogues"][names[0]].__setitem__("visits", []),
        lambda d: d["dialogues"][names[0]]["slots"].__setitem__("party_size", 999),
        lambda d: d.__setitem__("stack", ["no_such_flow"]),
        lambda d: d.__setitem__("ended", "no"),
        lambda d: d.__setitem__("version", True),
    ):
        data = orjson.loads(assistant.snapshot())
        damage(data)
        other = Assistant([RESTAURANT, RIDE], tools=tools, clock=clock)
        other.start()
        before = (other.snapshot(), list(other.stack), dict(other.dialogues))
        with pytest.raises(SnapshotError):
            other.load_snapshot(orjson.dumps(data))
        assert (other.snapshot(), list(other.stack), dict(other.dialogues)) == before
    restored = Assistant([RESTAURANT, RIDE], tools=tools, clock=clock)
    restored.load_snapshot(assistant.snapshot())
    assert restored.snapshot() == assistant.snapshot()


def test_history_keeps_its_bound_through_copies_and_restores(monkeypatch: pytest.MonkeyPatch) -> None:
    history = History([("user", str(n)) for n in range(10)], limit=4)
    assert history == [("user", str(n)) for n in range(6, 10)]
    history.append(("bot", "x"))
    history += [("bot", "y")]
    copy = history.copy()
    copy.append(("bot", "z"))
    assert len(copy) == 4 and copy.limit == 4 and history[-1] == ("bot", "y")
    monkeypatch.setattr(session_module, "HISTORY_LIMIT", 6)  # the bound is configurable
    assert History([("user", str(n)) for n in range(10)]).limit == 6
    monkeypatch.undo()
    dialogue = restaurant()
    data = orjson.loads(dialogue.snapshot())
    data["history"] = [["user", f"m{n}"] for n in range(HISTORY_LIMIT * 3)]  # an older, unbounded snapshot
    dialogue.load_snapshot(orjson.dumps(data))
    assert len(dialogue.history) == HISTORY_LIMIT and dialogue.history[-1] == ("user", f"m{HISTORY_LIMIT * 3 - 1}")


# ------------------------------------------------------------------
# issue 22 #5: date bounds apply when a value is given


def test_a_date_valid_when_given_is_still_loadable_the_next_day(tmp_path):
    from fsmdial.loader import load_flow
    from fsmdial.runtime import Dialogue

    document = {
        "name": "visit",
        "nodes": [
            {
                "id": "ask",
                "type": "request",
                "slots": [
                    {"name": "day", "type": "date", "description": "day", "earliest": "today", "latest": "today+2"}
                ],
            },
            {"id": "done", "type": "end", "message": "See you on {day}."},
        ],
        "edges": [{"source": "ask", "target": "done"}],
    }
    flow = load_flow(document)
    evening = Dialogue(flow, clock=lambda: dt.datetime(2026, 11, 22, 23, 50))
    evening.start()
    evening.turn("today")
    assert evening.slots == {"day": "2026-11-22"}
    morning = Dialogue.restore(flow, evening.snapshot(), clock=lambda: dt.datetime(2026, 11, 23, 0, 10))
    assert morning.slots == {"day": "2026-11-22"}
    # a new value is still checked against the bounds on the clock of the moment it is given
    fresh = Dialogue(flow, clock=lambda: dt.datetime(2026, 11, 23, 0, 10))
    fresh.start()
    assert fresh.turn("2026-11-22").trace.invalid and "day" not in fresh.slots


# ------------------------------------------------------------------
# issue 22 #6: a snapshot's call memory and results are checked


def _search_snapshot(**changes):
    import orjson

    from tests.test_repeated_calls import dialogue as search_dialogue

    d, _ = search_dialogue()
    d.start()
    d.turn("Paris")
    data = orjson.loads(d.snapshot())
    for path, value in changes.items():
        field, node = path.split(".")
        data[field][node] = value
    return orjson.dumps(data)


BAD_MEMORY = [
    ("calls.search", {}),
    ("calls.search", {"arguments": {"city": "Paris"}}),
    ("calls.search", {"arguments": [], "result": None, "error": None}),
    ("calls.search", {"arguments": {"city": "Paris"}, "result": {"hotels": 5}, "error": 3}),
    ("calls.search", {"arguments": {"city": "Paris"}, "result": {"hotels": "five"}, "error": None}),
    ("calls.search", {"arguments": {}, "result": {"hotels": 5}, "error": None, "earlier": [{}]}),
    ("calls.search", {"arguments": {}, "result": {"hotels": 5}, "error": None, "surprise": 1}),
    ("results.search", {"hotels": "five"}),
    ("results.search", {}),
]


@pytest.mark.parametrize("path, value", BAD_MEMORY)
def test_a_snapshot_with_call_memory_of_the_wrong_shape_is_refused_at_restore(path, value):
    from fsmdial.errors import SnapshotError
    from tests.test_repeated_calls import dialogue as search_dialogue

    d, _ = search_dialogue()
    before = d.snapshot()
    with pytest.raises(SnapshotError, match=path.split(".")[0]):
        d.load_snapshot(_search_snapshot(**{path: value}))
    assert d.snapshot() == before
