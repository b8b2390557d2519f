"""`fsmdial serve`, hardening round 3 (issue 22): undo, cross-process turns, damaged rows, thread pools, tool errors."""

from __future__ import annotations

import sqlite3
import threading
import warnings
from typing import Any

import orjson
import pytest

pytest.importorskip("starlette", reason="fsmdial serve needs the serve extra: pip install 'fsmdial[serve]'")
pytest.importorskip("httpx", reason="the ASGI test client needs httpx (dev extra)")
pytest.importorskip("uvicorn", reason="fsmdial serve needs the serve extra: pip install 'fsmdial[serve]'")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")

from fsmdial.errors import DamagedTrace  # noqa: E402
from fsmdial.serve.app import create_app  # noqa: E402
from fsmdial.serve.sessions import Playground  # noqa: E402
from fsmdial.store import SessionStore  # noqa: E402
from fsmdial.tools import ToolRegistry  # noqa: E402

from .serve_support import BOOKING, RESTAURANT, TestUnderstander, live_server  # noqa: E402
from .test_serve_api import make_client, new_session, post, say  # noqa: E402


class Bookings:
    """book_table that counts its calls (optionally slow, optionally failing with a secret in its message)."""

    def __init__(self, delay: float = 0.0, secret: str | None = None):
        self.delay, self.secret = delay, secret
        self.calls: list[dict[str, Any]] = []
        self.threads: set[str] = set()
        self.registry = ToolRegistry()
        self.registry.register("book_table", self.book_table)

    def book_table(self, name: str, party_size: int, date: str, time: str, seating: str | None = None) -> dict[str, Any]:
        import time as clock

        self.threads.add(threading.current_thread().name)
        if self.secret:
            raise ConnectionError(f"cannot reach {self.secret}")
        self.calls.append({"name": name, "time": time})
        if self.delay:
            clock.sleep(self.delay)
        return {"booked": True, "reference": f"R-{len(self.calls)}"}


def booked_client(db, clock, tools):
    return make_client(db, clock, tools=tools.registry)


# ------------------------------------------------------------------ 18. undo needs no body


def test_undo_with_no_body_as_the_readme_shows(client):
    sid = new_session(client)["id"]
    say(client, sid, "Alex")
    response = client.post(f"/sessions/{sid}/undo")  # curl -X POST .../undo: no body, no content type
    assert response.status_code == 200, response.text
    assert response.json()["can_undo"] is False
    form = client.post(f"/sessions/{sid}/undo", content=b"a=1", headers={"content-type": "application/x-www-form-urlencoded"})
    assert form.status_code == 415  # a body must still be JSON (a cross-site form cannot post one)
    untyped = client.post(f"/sessions/{sid}/turns", content=b'{"text": "Sam"}')
    assert untyped.status_code == 415  # a body with no content type is not taken for JSON


@pytest.fixture
def client(tmp_path, clock):
    with make_client(tmp_path / "sessions.db", clock) as client:
        yield client


# ------------------------------------------------------------------ 1. undo stops at a committed side effect


def test_undo_past_a_committed_booking_is_refused_and_says_so(tmp_path, clock):
    tools = Bookings()
    with booked_client(tmp_path / "s.db", clock, tools) as client:
        sid = new_session(client)["id"]
        for text in BOOKING:
            say(client, sid, text)
        booked = say(client, sid, "yes")
        assert booked["node"] == "goodbye" and len(tools.calls) == 1
        assert booked["can_undo"] is False
        response = post(client, f"/sessions/{sid}/undo")
        assert response.status_code == 409
        error = response.json()["error"]
        assert error["type"] == "UndoRefused" and "book_table" in error["message"]
        assert client.get(f"/sessions/{sid}").json() == booked  # nothing changed
        say(client, sid, "yes")
        assert len(tools.calls) == 1  # no second table


def test_undo_before_the_booking_still_works(tmp_path, clock):
    tools = Bookings()
    with booked_client(tmp_path / "s.db", clock, tools) as client:
        sid = new_session(client)["id"]
        for text in BOOKING:
            view = say(client, sid, text)
        assert view["can_undo"] is True
        assert post(client, f"/sessions/{sid}/undo").status_code == 200


# ------------------------------------------------------------------ 3. one turn of a session at a time, across processes


def test_two_servers_on_one_db_never_run_the_same_yes_twice(tmp_path, clock):
    db = tmp_path / "s.db"
    tools = Bookings(delay=0.5)  # slow: both "yes" are inside the tool at the same time unless serialised first
    first = Playground([RESTAURANT], SessionStore(db), tools=tools.registry, clock=clock)
    second = Playground([RESTAURANT], SessionStore(db), tools=tools.registry, clock=clock)  # its own connections
    sid = first.create()["id"]
    for text in BOOKING:
        first.turn(sid, text)
    outcomes: list[Any] = []
    start = threading.Barrier(2)

    def yes(playground):
        start.wait()
        try:
            outcomes.append(playground.turn(sid, "yes")["node"])
        except Exception as exc:  # noqa: BLE001 - recorded and checked below
            outcomes.append(type(exc).__name__)

    threads = [threading.Thread(target=yes, args=(p,)) for p in (first, second)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert len(tools.calls) == 1, outcomes  # book_table ran once
    assert sorted(outcomes) == ["goodbye", "goodbye"] or sorted(outcomes) == ["ConflictError", "goodbye"]


def test_a_claim_is_taken_before_the_turn_and_released_after(tmp_path):
    from fsmdial.errors import ConflictError

    one, two = SessionStore(tmp_path / "s.db", timeout=0.3), SessionStore(tmp_path / "s.db", timeout=0.3)
    with one.claim("abc"):
        with pytest.raises(ConflictError, match="another turn of session 'abc' is running"):
            with two.claim("abc"):
                pass
        with pytest.raises(ConflictError, match="another turn"):  # a writer that did not claim cannot commit
            two.save_turn("abc", 1, orjson.dumps({"flow": "f"}), {})
        one.save_turn("abc", 1, orjson.dumps({"flow": "f"}), {})
    with two.claim("abc"):
        two.save_turn("abc", 2, orjson.dumps({"flow": "f"}), {})
    with one.claim("abc", lease=0.0):  # a holder that died: its lease runs out
        with two.claim("abc"):
            pass


# ------------------------------------------------------------------ 7. a damaged trace row


def damage(db, sid, event):
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE turns SET trace = ? WHERE session_id = ? AND turn = ?", (b"\xff{not json", sid, event))


def test_a_damaged_trace_row_is_a_typed_error_or_a_marker(tmp_path):
    store = SessionStore(tmp_path / "s.db")
    for turn in (1, 2, 3):
        store.save_turn("abc", turn, orjson.dumps({"flow": "f"}), {"turn": turn})
    damage(tmp_path / "s.db", "abc", 2)
    with pytest.raises(DamagedTrace, match="turn 2 of session 'abc'") as caught:
        store.traces("abc")
    assert caught.value.turn == 2
    traces = store.traces("abc", damaged="mark")
    assert traces[0] == {"turn": 1} and traces[2] == {"turn": 3}
    assert traces[1]["damaged"] and traces[1]["turn"] == 2


def test_serve_keeps_answering_for_a_session_with_a_damaged_row(tmp_path, clock):
    with make_client(tmp_path / "s.db", clock) as client:
        sid = new_session(client)["id"]
        for text in BOOKING[:3]:
            say(client, sid, text)
        damage(tmp_path / "s.db", sid, 3)  # the second turn's event
        view = client.get(f"/sessions/{sid}")
        assert view.status_code == 200, view.text
        assert view.json()["node"] == "ask_booking" and [t["user"] for t in view.json()["turns"]] == [None, "Alex", "tomorrow"]
        assert say(client, sid, "7pm")["node"] == "confirm_booking"
        download = client.get(f"/sessions/{sid}/download")
        assert download.status_code == 200
        assert download.json()["events"][2]["event"] == "damaged"


# ------------------------------------------------------------------ 14. a tool's exception text stays on the server


def test_a_tool_exception_text_never_reaches_the_browser(tmp_path, clock, caplog):
    secret = "postgres://admin:hunter2@db.internal/bookings"
    tools = Bookings(secret=secret)
    with booked_client(tmp_path / "s.db", clock, tools) as client:
        sid = new_session(client)["id"]
        for text in BOOKING:
            before = say(client, sid, text)
        response = post(client, f"/sessions/{sid}/turns", {"text": "yes"})
        assert response.status_code == 422
        assert "hunter2" not in response.text and "postgres" not in response.text
        error = response.json()["error"]
        assert error["type"] == "ToolCrashed" and "book_table" in error["message"] and "log" in error["message"]
        assert secret in caplog.text  # logged for whoever runs the server
        assert client.get(f"/sessions/{sid}").json() == before


# ------------------------------------------------------------------ 13 + 17. turns on their own thread


def test_a_read_is_not_queued_behind_turns_and_tools_run_on_one_thread(tmp_path, clock):
    import time

    import httpx

    understander = TestUnderstander(delay=0.08)
    tools = Bookings()
    playground = Playground([RESTAURANT], SessionStore(tmp_path / "s.db"), understander=understander,
                            tools=tools.registry, clock=clock)  # fmt: skip
    other, busy = playground.create()["id"], playground.create()["id"]
    booking = [playground.create()["id"] for _ in range(3)]
    for sid in booking:
        for text in BOOKING:
            playground.turn(sid, text)
    queued = 80  # more than the server's pool of worker threads (40)
    before = understander.calls
    with live_server(create_app(playground)) as url, httpx.Client(base_url=url, timeout=120) as http:
        def turn(sid, text):
            http.post(f"/sessions/{sid}/turns", json={"text": text})

        threads = [threading.Thread(target=turn, args=(sid, "yes")) for sid in booking]
        threads += [threading.Thread(target=turn, args=(busy, "hello")) for _ in range(queued)]
        for thread in threads:
            thread.start()
        for _ in range(2000):  # until the turns are running (bounded: the join below would report a hang)
            if understander.calls > before:
                break
            time.sleep(0.005)
        time.sleep(0.2)  # every request has arrived and is queued
        response = http.get(f"/sessions/{other}")
        done_when_read = understander.calls - before
        for thread in threads:
            thread.join(120)
    assert response.status_code == 200
    assert done_when_read < 35, f"the read waited behind {done_when_read} turns"  # before: at least 43 (40 workers)
    assert len(tools.calls) == 3 and len(tools.threads) == 1, tools.threads  # every tool call on the one turn thread


def test_a_layout_version_1_file_is_upgraded_with_its_sessions(tmp_path):
    db = tmp_path / "old.db"
    SessionStore(db).save_turn("abc", 1, orjson.dumps({"flow": "f"}), {"turn": 1})
    with sqlite3.connect(db) as conn:  # as fsmdial wrote it before claims existed
        conn.execute("DROP TABLE claims")
        conn.execute("PRAGMA user_version=1")
    store = SessionStore(db)
    with store.claim("abc"):
        store.save_turn("abc", 2, orjson.dumps({"flow": "f"}), {"turn": 2})
    assert store.traces("abc") == [{"turn": 1}, {"turn": 2}]
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == 2
