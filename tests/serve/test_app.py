"""`fsmdial serve`: the JSON API through the ASGI test client, a live server, and the command itself."""

from __future__ import annotations

import re
import socket
import subprocess
import sys
import threading
import time
import warnings
from typing import Any

import orjson
import pytest

pytest.importorskip("starlette", reason="fsmdial serve needs the serve extra: pip install 'fsmdial[serve]'")
pytest.importorskip("httpx", reason="the ASGI test client needs httpx (dev extra)")
pytest.importorskip("uvicorn", reason="fsmdial serve needs the serve extra: pip install 'fsmdial[serve]'")

with warnings.catch_warnings():  # starlette 1.x would rather have httpx2; httpx works the same here
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from fsmdial.cli import build_parser  # noqa: E402
from fsmdial.compiler import PLAIN_CHARS, mermaid, mermaid_text  # noqa: E402
from fsmdial.loader import load_flow  # noqa: E402
from fsmdial.runtime import flow_class  # noqa: E402
from fsmdial.serve.app import MAX_BODY_BYTES, create_app  # noqa: E402
from fsmdial.serve.diagram import flow_diagram  # noqa: E402
from fsmdial.serve.sessions import Playground  # noqa: E402
from fsmdial.stores import SQLiteStore  # noqa: E402
from fsmdial.tools import ToolRegistry  # noqa: E402
from tests.reliability_support import AskedTextVerbatim  # noqa: E402
from tests.serve_support import BOOKING, RESTAURANT, RIDE, ROOT, TestUnderstander, at_once, live_server  # noqa: E402
from tests.test_store import damage  # noqa: E402

JSON = {"content-type": "application/json"}


@pytest.fixture
def db(tmp_path):
    return tmp_path / "sessions.db"


def make_client(db, clock, flows=(RESTAURANT,), understander=None, **options):
    store = SQLiteStore(db)
    playground = Playground(list(flows), store, understander=understander, clock=clock, **options)
    return TestClient(create_app(playground, allowed_hosts=["testserver"]))


@pytest.fixture
def client(db, clock):
    with make_client(db, clock) as client:
        yield client


def post(client, path, body=None):
    return client.post(path, content=orjson.dumps(body or {}), headers=JSON)


def new_session(client, **body):
    response = post(client, "/sessions", body)
    assert response.status_code == 201, response.text
    return response.json()


def say(client, session, text, status=200):
    response = post(client, f"/sessions/{session}/turns", {"text": text})
    assert response.status_code == status, response.text
    return response.json()


def bot_text(view):
    return [act["text"] for act in view["turns"][-1]["acts"]]


def slot(view, name):
    return next(s for s in view["slots"] if s["name"] == name)


# ------------------------------------------------------------------ a booking


def test_booking_through_the_api_follows_the_flow(client):
    view = new_session(client)
    assert view["target"] == "restaurant_booking" and view["node"] == "ask_booking"
    assert bot_text(view) == ["Sure! What name should the booking be under?"]
    assert all(not s["set"] for s in view["slots"])
    sid = view["id"]
    assert re.fullmatch(r"[0-9a-f]{32}", sid)

    for text in BOOKING:
        view = say(client, sid, text)
    assert view["node"] == "confirm_booking"
    assert view["entered"] == ["confirm_booking"]
    assert bot_text(view) == ["A table for 4 on Monday 23 November at 7 pm, under the name Alex. Shall I book it?"]
    assert slot(view, "time") == {"name": "time", "value": "19:00", "set": True, "turn": 4, "corrected": False}
    assert slot(view, "name")["turn"] == 1 and slot(view, "party_size")["value"] == 4
    assert slot(view, "seating")["set"] is False

    view = say(client, sid, "actually make it 8pm")
    assert bot_text(view)[0] == "OK, I changed the time to 8 pm."
    assert view["entered"] == ["ask_booking", "confirm_booking"]  # rewound to the question, then on to confirm
    assert slot(view, "time") == {"name": "time", "value": "20:00", "set": True, "turn": 5, "corrected": True}
    trace = view["turns"][-1]["trace"]
    assert trace["path"] == "rules" and trace["slot_changes"] == [{"slot": "time", "old": "19:00", "new": "20:00"}]
    assert "total" in trace["timings_ms"]

    view = say(client, sid, "yes")
    assert view["node"] == "goodbye" and view["ended"] is True
    assert view["entered"] == ["book_table", "booked", "goodbye"]
    (call,) = view["turns"][-1]["tool_calls"]
    assert call["tool"] == "book_table" and call["status"] == "success"
    assert call["arguments"] == {"name": "Alex", "party_size": 4, "date": "2026-11-23", "time": "20:00"}
    assert [t["user"] for t in view["turns"]] == [None, *BOOKING, "actually make it 8pm", "yes"]


def test_get_returns_the_same_view(client):
    sid = new_session(client)["id"]
    view = say(client, sid, "Alex")
    assert client.get(f"/sessions/{sid}").json() == view


def test_tabs_are_separate_sessions(client):
    one, two = new_session(client)["id"], new_session(client)["id"]
    assert one != two
    say(client, one, "Alex")
    say(client, two, "Sam")
    assert slot(client.get(f"/sessions/{one}").json(), "name")["value"] == "Alex"
    assert slot(client.get(f"/sessions/{two}").json(), "name")["value"] == "Sam"


# ------------------------------------------------------------------ undo, download, restart


def test_undo_restores_the_previous_snapshot(client):
    sid = new_session(client)["id"]
    for text in [*BOOKING, "actually make it 8pm"]:
        before_undo = say(client, sid, text)
    assert slot(before_undo, "time")["value"] == "20:00"

    response = post(client, f"/sessions/{sid}/undo")
    assert response.status_code == 200, response.text
    view = response.json()
    assert slot(view, "time") == {"name": "time", "value": "19:00", "set": True, "turn": 4, "corrected": False}
    assert view["node"] == "confirm_booking" and len(view["turns"]) == 5
    # the conversation continues from the restored state: yes books at 19:00
    view = say(client, sid, "yes")
    assert view["turns"][-1]["tool_calls"][0]["arguments"]["time"] == "19:00"


def test_undo_down_to_the_opening_and_no_further(client):
    sid = new_session(client)["id"]
    say(client, sid, "Alex")
    say(client, sid, "4 people")
    for _ in range(2):
        assert post(client, f"/sessions/{sid}/undo").status_code == 200
    view = client.get(f"/sessions/{sid}").json()
    assert view["can_undo"] is False and all(not s["set"] for s in view["slots"])
    response = post(client, f"/sessions/{sid}/undo")
    assert response.status_code == 409
    assert response.json()["error"]["type"] == "NothingToUndo"
    assert client.get(f"/sessions/{sid}").json() == view


def test_download_has_the_snapshot_and_every_trace(client):
    sid = new_session(client)["id"]
    for text in BOOKING:
        say(client, sid, text)
    post(client, f"/sessions/{sid}/undo")
    response = client.get(f"/sessions/{sid}/download")
    assert response.status_code == 200
    assert response.headers["content-disposition"] == f'attachment; filename="fsmdial-session-{sid}.json"'
    data = response.json()
    assert data["format"] == "fsmdial.serve.session" and data["id"] == sid
    assert [e["event"] for e in data["events"]] == ["start", "turn", "turn", "turn", "turn", "undo"]
    assert data["events"][-1]["undoes"] == 5
    assert [e["trace"]["text"] for e in data["events"][1:5]] == BOOKING
    # the current snapshot is the one before the undone turn, and a Dialogue restores it
    assert data["snapshot"] == data["events"][3]["snapshot"]
    from fsmdial.runtime import Dialogue

    assert Dialogue.restore(RESTAURANT, orjson.dumps(data["snapshot"]), stand_in_tools=True).slots == {
        "name": "Alex",
        "party_size": 4,
        "date": "2026-11-23",
    }


def test_a_restarted_server_keeps_its_sessions(db, clock):
    with make_client(db, clock) as first:
        sid = new_session(first)["id"]
        for text in BOOKING:
            view = say(first, sid, text)
    first.app.state.playground.store.close()
    with make_client(db, clock) as second:
        assert second.get(f"/sessions/{sid}").json() == view
        view = say(second, sid, "yes")
        assert view["node"] == "goodbye"
    stored = SQLiteStore(db).sessions()
    assert [(s.id, s.flow, s.turn) for s in stored] == [(sid, "restaurant_booking", 6)]


# ------------------------------------------------------------------ errors


def test_a_failing_turn_is_a_typed_error_and_changes_nothing(db, clock):
    with make_client(db, clock, understander=TestUnderstander()) as client:
        sid = new_session(client)["id"]
        before = say(client, sid, "Alex")
        response = post(client, f"/sessions/{sid}/turns", {"text": "boom"})
        assert response.status_code == 422
        error = response.json()["error"]
        assert error["type"] == "UnderstandingError"
        assert "the model fell over" in error["message"] and "Traceback" not in response.text
        assert client.get(f"/sessions/{sid}").json() == before
        assert say(client, sid, "4 people")["node"] == "ask_booking"


def test_an_unexpected_failure_is_answered_without_its_details(client, caplog):
    playground = client.app.state.playground

    def broken(session_id):
        raise RuntimeError("secret internals /etc/passwd")

    playground.view = broken
    response = client.get("/sessions/" + "a" * 32)
    assert response.status_code == 500
    assert response.json()["error"]["type"] == "InternalError"
    assert "secret" not in response.text and "RuntimeError" not in response.text
    assert "secret internals" in caplog.text  # logged on the server for whoever runs it


def test_unknown_sessions_and_paths(client):
    for path in ["/sessions/" + "0" * 32, "/sessions/..%2F..%2Fetc%2Fpasswd", "/sessions/%2e%2e", "/sessions/ABC"]:
        response = client.get(path)
        assert response.status_code == 404, path
        assert response.json()["error"]["type"] in ("UnknownSession", "NotFound")
    for path in [
        "/static/..%2Fapp.py",
        "/static/%2e%2e%2fsessions.py",
        "/static/index.html",
        "/static/app.py",
        "/static/../app.py",
        "/nothing",
    ]:
        response = client.get(path)
        assert response.status_code == 404, path
        assert "import" not in response.text
    assert client.get("/static/app.js").status_code == 200
    assert client.get("/sessions").status_code == 405
    response = post(client, "/sessions", {"flow": "../flows/restaurant_booking"})
    assert response.status_code == 404 and response.json()["error"]["type"] == "UnknownFlow"


def test_requests_must_be_small_json(client):
    sid = new_session(client)["id"]
    url = f"/sessions/{sid}/turns"
    big = orjson.dumps({"text": "x" * MAX_BODY_BYTES})
    response = client.post(url, content=big, headers=JSON)
    assert response.status_code == 413 and response.json()["error"]["type"] == "RequestTooLarge"

    # a body that lies about its length is cut off all the same
    def chunks():
        yield b'{"text": "'
        for _ in range(20):
            yield b"y" * 1024
        yield b'"}'

    response = client.post(url, content=chunks(), headers=JSON)
    assert response.status_code == 413
    response = client.post(url, content=b'{"text": "hi"}', headers={"content-type": "text/plain"})
    assert response.status_code == 415  # a cross-site form cannot post JSON without a preflight
    assert client.post(url, content=b"{nope", headers=JSON).status_code == 400
    assert client.post(url, content=b"[1, 2]", headers=JSON).status_code == 400
    assert post(client, url, {"text": 42}).json()["error"]["type"] == "BadRequest"
    assert len(client.get(f"/sessions/{sid}").json()["turns"]) == 1  # none of them was a turn


def test_long_text_is_cut_and_noted(client):
    sid = new_session(client)["id"]
    view = say(client, sid, "Alex " + "a" * 5000)
    trace = view["turns"][-1]["trace"]
    assert len(view["turns"][-1]["user"]) == 2000
    assert any("cut from 5005 to 2000" in note for note in trace["notes"])


def test_markup_comes_back_as_data(db, clock):
    text = '<script>alert("x")</script>'
    # the rules refuse markup as a person's name: an understander taking the asked text as typed stores it
    with make_client(db, clock, understander=AskedTextVerbatim()) as client:
        sid = new_session(client)["id"]
        view = say(client, sid, text)
    assert view["turns"][-1]["user"] == text
    assert slot(view, "name")["value"] == text  # kept as given: the page shows it as text


def test_other_hosts_are_refused(db, clock):
    store = SQLiteStore(db)
    app = create_app(Playground([RESTAURANT], store, clock=clock))  # default: loopback names only
    with TestClient(app, base_url="http://evil.example") as client:
        assert client.get("/flows").status_code == 400
    with TestClient(app, base_url="http://127.0.0.1:8000") as client:
        assert client.get("/flows").status_code == 200


def test_the_page_forbids_inline_script(client):
    response = client.get("/")
    assert response.status_code == 200 and "text/html" in response.headers["content-type"]
    policy = response.headers["content-security-policy"]
    script_src = next(part for part in policy.split(";") if part.strip().startswith("script-src")).split()
    assert script_src == ["script-src", "'self'"]
    assert response.headers["x-content-type-options"] == "nosniff"
    assert '<script src="/static/mermaid.min.js"' in response.text


def test_a_full_session_refuses_more(db, clock):
    with make_client(db, clock, max_events=3) as client:
        sid = new_session(client)["id"]
        say(client, sid, "Alex")
        say(client, sid, "4 people")
        response = post(client, f"/sessions/{sid}/turns", {"text": "tomorrow"})
        assert response.status_code == 409 and response.json()["error"]["type"] == "SessionFull"


# ------------------------------------------------------------------ flows and the diagram


def test_flows_lists_the_diagram(client):
    data = client.get("/flows").json()
    assert data["assistant"] is False
    (flow,) = data["flows"]
    assert flow["name"] == "restaurant_booking"
    assert flow["slots"] == ["name", "party_size", "date", "time", "seating"]
    aliases = flow["diagram"]["aliases"]
    assert aliases["ask_booking"] == "s0" and len(aliases) == 7
    source = flow["diagram"]["source"]
    assert source.startswith("stateDiagram-v2\n")
    assert 'state "confirm_booking" as s1' in source and "s0 --> s1: advance" in source


def test_the_diagram_is_what_fsmdial_graph_draws_with_aliases():
    cls = flow_class(RESTAURANT)
    graph = mermaid(cls)
    diagram = flow_diagram(cls)
    edges = lambda text: sorted(line.strip() for line in text.splitlines() if "-->" in line)  # noqa: E731
    aliased = edges(graph)
    for node, alias in sorted(diagram.aliases.items(), key=lambda item: -len(item[0])):
        aliased = [re.sub(rf"(?<![\w]){node}(?![\w])", alias, line) for line in aliased]
    unescaped = [line.replace("#91;", "[").replace("#93;", "]") for line in edges(diagram.source)]
    assert sorted(unescaped) == sorted(aliased)


def test_flow_text_cannot_inject_into_the_diagram(tmp_path):
    data = orjson.loads(RESTAURANT.read_bytes())
    evil = 'x" as s0\n  click s0 call alert(1)\n<img src=x onerror=alert(1)> %%{init: {"securityLevel": "loose"}}%%'
    data["name"] = "evil\n---\n%%{init: {}}%%"
    data["nodes"][1]["id"] = evil
    for edge in data["edges"]:
        for end in ("source", "target"):
            if edge[end] == "confirm_booking":
                edge[end] = evil
    path = tmp_path / "evil.json"
    path.write_bytes(orjson.dumps(data))
    diagram = flow_diagram(flow_class(load_flow(path)))
    allowed = re.compile(
        r'stateDiagram-v2|direction TB|classDef (current|entered) [\w:#,.-]+|state "[\w #;]*" as s\d+'
        r"|(s\d+|\[\*\]) --> s\d+(: [\w #;]*)?"
    )
    for line in diagram.source.splitlines():
        assert allowed.fullmatch(line.strip()), line
    assert f'state "{mermaid_text(evil, PLAIN_CHARS)}" as s1' in diagram.source
    assert "<" not in diagram.source and "%%" not in diagram.source and '"x"' not in diagram.source


def test_several_flows_make_an_assistant_or_one_flow_by_name(db, clock):
    with make_client(db, clock, flows=(RESTAURANT, RIDE)) as client:
        data = client.get("/flows").json()
        assert data["assistant"] is True and [f["name"] for f in data["flows"]] == ["restaurant_booking", "ride_change"]
        view = new_session(client)
        assert view["target"] is None and view["flow"] is None and view["slots"] == []
        view = say(client, view["id"], "I'd like to book a table")
        assert view["flow"] == "restaurant_booking" and view["node"] == "ask_booking"
        assert [s["name"] for s in view["slots"]][:2] == ["name", "party_size"]
        view = new_session(client, flow="ride_change")
        assert view["target"] == "ride_change" and view["flow"] == "ride_change"


# ------------------------------------------------------------------ off the event loop, one turn at a time


def test_slow_turns_run_off_the_event_loop_one_at_a_time(db, clock):
    import httpx

    understander = TestUnderstander(delay=0.6)
    playground = Playground([RESTAURANT], SQLiteStore(db), understander=understander, clock=clock)
    with live_server(create_app(playground)) as url, httpx.Client(base_url=url, timeout=20) as http:
        sessions = [http.post("/sessions", json={}).json()["id"] for _ in range(3)]
        results: dict[str, int] = {}

        def turn(sid):
            results[sid] = http.post(f"/sessions/{sid}/turns", json={"text": "Alex"}).status_code

        threads = [threading.Thread(target=turn, args=(sid,)) for sid in sessions]
        for thread in threads:
            thread.start()
        time.sleep(0.2)
        response = http.get(f"/sessions/{sessions[0]}")  # answered while the model is busy
        busy = understander.running  # a turn is still inside the understander when the read comes back
        for thread in threads:
            thread.join(20)
        assert response.status_code == 200
        assert busy > 0, "the read waited until every turn was done"
        assert results == {sid: 200 for sid in sessions}
        assert understander.calls == 3 and understander.most_at_once == 1


# ------------------------------------------------------------------ the command


def test_serve_is_a_command():
    args = build_parser().parse_args(["serve", "a.json", "b.json", "--db", "x.db", "--port", "8123"])
    assert args.flows == ["a.json", "b.json"] and args.db == "x.db" and args.port == 8123
    assert args.host == "127.0.0.1"


def test_fsmdial_serve_answers_on_localhost(tmp_path):
    import httpx

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    db = tmp_path / "s.db"
    command = [sys.executable, "-m", "fsmdial.cli", "serve", str(RESTAURANT), "--db", str(db), "--port", str(port)]
    process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                response = httpx.get(f"http://127.0.0.1:{port}/flows", timeout=2)
                break
            except httpx.TransportError:
                if process.poll() is not None or time.monotonic() > deadline:
                    raise AssertionError(
                        f"fsmdial serve did not answer: {process.stdout.read() if process.stdout else ''}"
                    ) from None
                time.sleep(0.2)
        assert response.json()["flows"][0]["name"] == "restaurant_booking"
        created = httpx.post(f"http://127.0.0.1:{port}/sessions", json={}, timeout=5)
        assert created.status_code == 201
    finally:
        process.terminate()
        try:
            output = process.communicate(timeout=15)[0]
        except subprocess.TimeoutExpired:
            process.kill()
            output = process.communicate(timeout=15)[0]
    assert f"http://127.0.0.1:{port}/" in output
    assert "tool 'book_table' is not registered" in output
    assert SQLiteStore(db).sessions()[0].flow == "restaurant_booking"


# ------------------------------------------------------------------ issue 22: serve hardening, round 3


class Bookings:
    """book_table that counts its calls (optionally slow, optionally failing with a secret in its message)."""

    def __init__(self, delay: float = 0.0, secret: str | None = None):
        self.delay, self.secret = delay, secret
        self.calls: list[dict[str, Any]] = []
        self.threads: set[str] = set()
        self.registry = ToolRegistry()
        self.registry.register("book_table", self.book_table)

    def book_table(
        self, name: str, party_size: int, date: str, time: str, seating: str | None = None
    ) -> dict[str, Any]:
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


# ------------------------------------------------------------------ issue 22 #18: undo needs no body


def test_undo_with_no_body_as_the_readme_shows(client):
    sid = new_session(client)["id"]
    say(client, sid, "Alex")
    response = client.post(f"/sessions/{sid}/undo")  # curl -X POST .../undo: no body, no content type
    assert response.status_code == 200, response.text
    assert response.json()["can_undo"] is False
    form = client.post(
        f"/sessions/{sid}/undo", content=b"a=1", headers={"content-type": "application/x-www-form-urlencoded"}
    )
    assert form.status_code == 415  # a body must still be JSON (a cross-site form cannot post one)
    untyped = client.post(f"/sessions/{sid}/turns", content=b'{"text": "Sam"}')
    assert untyped.status_code == 415  # a body with no content type is not taken for JSON


# ------------------------------------------------------------------ issue 22 #1: undo stops at a committed side effect


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


# ------------------------------------------------------------------
# issue 22 #3: one turn of a session at a time, across processes


def test_two_servers_on_one_db_never_run_the_same_yes_twice(tmp_path, clock):
    db = tmp_path / "s.db"
    tools = Bookings(delay=0.5)  # slow: both "yes" are inside the tool at the same time unless serialised first
    first = Playground([RESTAURANT], SQLiteStore(db), tools=tools.registry, clock=clock)
    second = Playground([RESTAURANT], SQLiteStore(db), tools=tools.registry, clock=clock)  # its own connections
    sid = first.create()["id"]
    for text in BOOKING:
        first.turn(sid, text)
    outcomes = at_once(sid, "yes", first, second)
    assert len(tools.calls) == 1, outcomes  # book_table ran once
    assert sorted(outcomes) == ["goodbye", "goodbye"] or sorted(outcomes) == ["ConflictError", "goodbye"]


# ------------------------------------------------------------------ issue 22 #7: a damaged trace row


def test_serve_keeps_answering_for_a_session_with_a_damaged_row(tmp_path, clock):
    with make_client(tmp_path / "s.db", clock) as client:
        sid = new_session(client)["id"]
        for text in BOOKING[:3]:
            say(client, sid, text)
        damage(tmp_path / "s.db", sid, 3)  # the second turn's event
        view = client.get(f"/sessions/{sid}")
        assert view.status_code == 200, view.text
        assert view.json()["node"] == "ask_booking" and [t["user"] for t in view.json()["turns"]] == [
            None,
            "Alex",
            "tomorrow",
        ]
        assert say(client, sid, "7pm")["node"] == "confirm_booking"
        download = client.get(f"/sessions/{sid}/download")
        assert download.status_code == 200
        assert download.json()["events"][2]["event"] == "damaged"


# ------------------------------------------------------------------
# issue 22 #14: a tool's exception text stays on the server


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


# ------------------------------------------------------------------ issue 22 #13 + 17: turns on their own thread


def test_a_read_is_not_queued_behind_turns_and_tools_run_on_one_thread(tmp_path, clock):
    import time

    import httpx

    understander = TestUnderstander(delay=0.08)
    tools = Bookings()
    playground = Playground(
        [RESTAURANT], SQLiteStore(tmp_path / "s.db"), understander=understander, tools=tools.registry, clock=clock
    )
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
