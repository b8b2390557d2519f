"""fsmdial.jsonvalues: the one way a value becomes plain JSON data, and the one exact JSON writer."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import orjson
import pytest

from fsmdial.jsonvalues import dumps, jsonable
from fsmdial.stores import SQLiteStore


class Thing:
    def __repr__(self) -> str:
        return "<thing>"


def test_jsonable_keeps_json_values_and_writes_the_rest_as_text() -> None:
    value = {"a": [1, 2.5, True, None, "x"], 3: (Thing(), {"d": dt.date(2026, 11, 23)}), "t": dt.time(20, 0)}
    assert jsonable(value) == {"a": [1, 2.5, True, None, "x"], "3": ["<thing>", {"d": "2026-11-23"}], "t": "20:00:00"}
    assert jsonable(dt.datetime(2026, 11, 23, 20, 0)) == "2026-11-23T20:00:00"  # as orjson writes it
    assert jsonable({1, 2}) == "{1, 2}"
    assert orjson.loads(orjson.dumps(jsonable(value))) == jsonable(value)


def test_only_storable_changes_what_orjson_cannot_write() -> None:
    value = {"n": 2**70, "m": -(2**63), "u": 2**64 - 1, "s": "a\ud800b", "\udcff": 1}
    assert jsonable(value) == value  # shown as it is: an exact number, the text as given
    stored = jsonable(value, storable=True)
    assert stored == {"n": str(2**70), "m": -(2**63), "u": 2**64 - 1, "s": "a\\ud800b", "\\udcff": 1}
    assert orjson.loads(orjson.dumps(stored)) == stored


def test_a_trace_orjson_refuses_is_stored_readably(tmp_path: Path) -> None:
    with SQLiteStore(tmp_path / "s.db") as store:
        snapshot = orjson.dumps({"flow": "f"})
        store.save_turn("s", 1, snapshot, {"n": 2**70, "text": "a\ud800", "when": dt.date(2026, 1, 2), 7: Thing()})
        store.save_turn("s", 2, snapshot, {"n": 5, 7: Thing()})  # orjson takes it: non-text keys, objects by repr
        assert store.traces("s") == [
            {"n": str(2**70), "text": "a\\ud800", "when": "2026-01-02", "7": "<thing>"},
            {"n": 5, "7": "<thing>"},
        ]


def test_dumps_is_orjson_and_exact_beyond_64_bits() -> None:
    data = {"b": [1, "é", None], "a": 0.5}
    assert dumps(data) == orjson.dumps(data)
    assert dumps(data, sort_keys=True) == orjson.dumps(data, option=orjson.OPT_SORT_KEYS)
    big = {"n": 2**70, "b": -(10**30), "a": "é"}
    assert dumps(big) == ('{"n":' + str(2**70) + ',"b":' + str(-(10**30)) + ',"a":"é"}').encode()
    assert json.loads(dumps(big, sort_keys=True)) == big and dumps(big, sort_keys=True).startswith(b'{"a":"\xc3\xa9"')
    assert dumps({"t": Thing(), "n": 2**70}, default=str) == ('{"t":"<thing>","n":' + str(2**70) + "}").encode()
    assert json.loads(dumps(["a\ud800", 2**70]).decode()) == ["a\ud800", 2**70]  # valid UTF-8, the same text
    with pytest.raises(TypeError):
        dumps({"t": Thing()})
