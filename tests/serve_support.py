"""Shared by the `fsmdial serve` tests: understanders that are slow or fail, and a live server on 127.0.0.1."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from fsmdial.understand.rules import RulesUnderstander

ROOT = Path(__file__).resolve().parent.parent
RESTAURANT = ROOT / "flows" / "restaurant_booking.json"
RIDE = ROOT / "flows" / "ride_change.json"

BOOKING = ["Alex", "4 people", "tomorrow", "7pm"]
"""Utterances that fill the restaurant booking, up to its confirmation question (rules understanding)."""


class Failing(Exception):
    """What the broken understander raises (not an fsmdial error: the engine must type it)."""


class TestUnderstander:
    """The rules understander, but ``boom`` makes it fail, every call takes ``delay`` seconds, and
    with ``costs`` each parse is reported as one model call (path ``model``, ``info`` = the costs).

    It counts how many calls run at once, so a test can see that the server runs them one at a time.
    """

    __test__ = False  # not a test class

    def __init__(self, delay: float = 0.0, costs: dict[str, Any] | None = None):
        self.delay = delay
        self.costs = costs  # when given, parses say they came from a model call with these costs
        self.rules = RulesUnderstander()
        self.running = 0
        self.most_at_once = 0
        self.calls = 0
        self._lock = threading.Lock()

    def understand(self, state: Any, text: str, **kwargs: Any) -> Any:
        with self._lock:
            self.running += 1
            self.calls += 1
            self.most_at_once = max(self.most_at_once, self.running)
        try:
            if self.delay:
                time.sleep(self.delay)
            if "boom" in text:
                raise Failing("the model fell over")
            parse = self.rules.understand(state, text, **kwargs)
            if self.costs is not None:
                parse.path, parse.model_calls, parse.info = "model", 1, dict(self.costs)
            return parse
        finally:
            with self._lock:
                self.running -= 1


@contextmanager
def live_server(app: Any, timeout: float = 15.0) -> Iterator[str]:
    """``app`` served by uvicorn on 127.0.0.1 (a free port) in a thread; yields its base URL."""
    import uvicorn

    # IPPROTO_TCP named: asyncio sets TCP_NODELAY only on sockets that say so (else ~40 ms delayed-ACK stalls)
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="off"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + timeout
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the test server did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout)
        sock.close()


def at_once(sid: str, text: str, *servers: Any, timeout: float = 30.0) -> list[Any]:
    """Each of ``servers`` (playgrounds sharing one store) takes the turn ``text`` of session ``sid`` at the same
    moment, each in its own thread; what each gave: the node it reached, or the name of the error it raised."""
    outcomes: list[Any] = []
    start = threading.Barrier(len(servers))

    def take(server: Any) -> None:
        start.wait()
        try:
            outcomes.append(server.turn(sid, text)["node"])
        except Exception as exc:  # noqa: BLE001 - recorded for the caller to check
            outcomes.append(type(exc).__name__)

    threads = [threading.Thread(target=take, args=(server,)) for server in servers]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout)
    return outcomes
