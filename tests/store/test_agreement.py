"""Issue 33, item 9: the SQLite and the PostgreSQL store accept exactly the same values.

Before: a flow named with U+0000 saved on SQLite and failed every first commit on PostgreSQL ("text fields cannot
contain NUL"); a lone surrogate in a session id escaped both stores as a bare ``UnicodeEncodeError``.

The rule (:func:`fsmdial.stores.storable_text`): a session id and a flow name, the two values a store keeps as
text, must be text that both databases hold as it is: no U+0000, no unpaired surrogate, and a session id at most
:data:`~fsmdial.stores.MAX_ID_BYTES` bytes of UTF-8 (PostgreSQL's index entries are limited). Anything else is
refused with :class:`~fsmdial.stores.UnstorableValue` by every store, before anything is written, and reads find
nothing under it. Snapshots and traces are bytes to both stores: whatever JSON holds round-trips in both alike.
"""

from __future__ import annotations

from typing import Any

import orjson
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from fsmdial.errors import FlowError, StoreError, UnknownSession
from fsmdial.stores import MAX_ID_BYTES, Store, UnstorableValue, storable_text
from tests.reliability_support import ROOT, flow

from .conftest import postgres_backend, sqlite_backend
from .postgres_server import PostgresServer

SESSION = orjson.dumps({"flow": "f"})
UNSTORABLE = ["a\x00b", "\x00", "a\ud800", "\udfff", "é" * (MAX_ID_BYTES // 2) + "x", 7]


def surrogates(text: str) -> bool:
    return any("\ud800" <= c <= "\udfff" for c in text)


@pytest.mark.parametrize("bad", UNSTORABLE, ids=repr)
def test_an_unstorable_session_id_is_refused_alike_before_anything_is_written(store: Store[Any], bad: Any) -> None:
    with pytest.raises(UnstorableValue, match="session id"):
        store.save_turn(bad, 1, SESSION, {"turn": 1})
    with pytest.raises(UnstorableValue, match="session id"), store.claim(bad):
        pass
    with pytest.raises(UnknownSession):
        store.load(bad)
    with pytest.raises(UnknownSession):
        store.traces(bad)
    assert bad not in store
    assert store.delete(bad) is False
    assert store.sessions() == []


@pytest.mark.parametrize("bad", UNSTORABLE[:4], ids=repr)
def test_an_unstorable_flow_name_is_refused_alike(store: Store[Any], bad: str) -> None:
    if surrogates(bad):  # JSON bytes cannot hold a lone surrogate (its escape is refused too): not a session at all
        snapshot, refusal = b'{"flow": "' + bad.encode("ascii", "backslashreplace") + b'"}', "is not a session"
    else:
        snapshot, refusal = orjson.dumps({"flow": bad}), "flow name"
    with pytest.raises(StoreError, match=refusal):
        store.save_turn("s1", 1, snapshot, {"turn": 1})
    assert "s1" not in store
    assert store.sessions(flow=bad) == []


def test_the_longest_session_id_is_taken_by_both(store: Store[Any]) -> None:
    longest = "é" * (MAX_ID_BYTES // 2)  # random-looking text: PostgreSQL cannot compress it under the index limit
    assert len(longest.encode()) == MAX_ID_BYTES
    store.save_turn(longest, 1, SESSION, {"turn": 1})
    with store.claim(longest):
        store.save_turn(longest, 2, SESSION, {"turn": 2})
    assert store.load(longest) == (2, SESSION) and longest in store
    assert [info.id for info in store.sessions()] == [longest]


def test_a_flow_named_with_nul_is_refused_before_any_store_sees_it(store: Store[Any]) -> None:
    # No store keeps U+0000 (test_the_rule_itself): the flow is refused when it loads, so no session of it starts.
    document = orjson.loads((ROOT / "flows" / "ride_change.json").read_bytes())
    document["name"] = "ride\x00change"
    with pytest.raises(FlowError, match="U\\+0000"):
        flow(document)
    assert "s1" not in store


def test_the_rule_itself() -> None:
    assert storable_text("abc") is None and storable_text("") is None and storable_text("é😀\u2028") is None
    assert "U+0000" in str(storable_text("a\x00"))
    assert "surrogate" in str(storable_text("a\ud800"))
    assert "text" in str(storable_text(b"abc"))  # type: ignore[arg-type]
    assert storable_text("x" * (MAX_ID_BYTES + 1)) is None  # only a session id has a length limit
    assert "bytes" in str(storable_text("x" * (MAX_ID_BYTES + 1), limit=MAX_ID_BYTES))


# ------------------------------------------------------------------ both stores, one value at a time


SPECIAL = st.sampled_from(["\x00", "\ud800", "\udfff", "\udbff", "é", "😀", "\u2028", "'", '"', "\\", "%", " "])
TEXTS = st.text(st.one_of(st.characters(exclude_categories=()), SPECIAL), max_size=12)


def outcome(store: Store[Any], session_id: str, flow_name: str, value: str) -> tuple[Any, ...]:
    """What ``store`` does with a session of this id and flow whose snapshot and trace hold ``value``."""
    try:
        snapshot = orjson.dumps({"flow": flow_name, "slots": {"x": value}})
    except TypeError:  # an unpaired surrogate: JSON bytes cannot hold it, so no snapshot has it
        snapshot = orjson.dumps({"flow": flow_name.encode("utf-8", "replace").decode(), "slots": {}})
    try:
        store.save_turn(session_id, 1, snapshot, {"value": value, "text": flow_name})
    except StoreError as exc:
        return ("refused", type(exc).__name__, session_id in store)
    try:
        infos = store.sessions(flow=flow_name)
        return ("stored", store.load(session_id), store.traces(session_id), [(i.id, i.flow) for i in infos])
    finally:
        store.delete(session_id)


@pytest.fixture(scope="module")
def both(postgres_server: PostgresServer, tmp_path_factory: pytest.TempPathFactory) -> Any:
    sqlite = sqlite_backend(tmp_path_factory.mktemp("agreement")).open()
    postgres = postgres_backend(postgres_server).open()
    yield sqlite, postgres
    sqlite.close()
    postgres.close()


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(session_id=TEXTS, flow_name=TEXTS, value=TEXTS)
def test_fuzz_both_stores_agree_on_every_value(
    both: tuple[Store[Any], Store[Any]], session_id: str, flow_name: str, value: str
) -> None:
    # A store reads the flow's name from the snapshot, JSON bytes, which cannot hold an unpaired surrogate: such a
    # name never reaches a store that way (outcome() would write "?" for it), so it is not a case here.
    assume(not surrogates(flow_name))
    sqlite, postgres = both
    on_sqlite = outcome(sqlite, session_id, flow_name, value)
    assert outcome(postgres, session_id, flow_name, value) == on_sqlite
    refused = storable_text(session_id, limit=MAX_ID_BYTES) is not None or storable_text(flow_name) is not None
    if refused:
        assert on_sqlite == ("refused", "UnstorableValue", False)
        return
    _, (turn, snapshot), traces, listed = on_sqlite
    assert turn == 1 and listed == [(session_id, flow_name)] and traces[0]["text"] == flow_name
    if not surrogates(value):
        assert orjson.loads(snapshot)["slots"]["x"] == value and traces[0]["value"] == value
