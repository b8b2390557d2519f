"""The figures of RELIABILITY.md section 8 (issue 22), for the code at REPO (this checkout, or a copy of main):

    python benches/round3_figures.py REPO race 20      # two serve stores on one file, both "yes" at once
    python benches/round3_figures.py REPO queue 80     # GET of another session while 80 turns queue
    python benches/round3_figures.py REPO dates        # "Month D" on every clock date 2024-2031

Not collected by pytest (a measurement, not a test); run it with an empty PYTHONPATH.
"""

from __future__ import annotations

import datetime as dt
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

CLOCK = dt.datetime(2026, 11, 22, 12)


def race(rounds: int) -> str:
    from fsmdial.serve.sessions import Playground
    from fsmdial.stores import SQLiteStore
    from fsmdial.tools import ToolRegistry
    from tests.serve_support import BOOKING, RESTAURANT

    calls: list[int] = []

    def book_table(name: str, party_size: int, date: str, time: str, seating: str | None = None) -> dict[str, Any]:
        calls.append(1)
        threading.Event().wait(0.2)
        return {"booked": True, "reference": "R"}

    registry = ToolRegistry()
    registry.register("book_table", book_table)
    db = Path(tempfile.mkdtemp()) / "s.db"
    one, two = (Playground([RESTAURANT], SQLiteStore(db), tools=registry, clock=lambda: CLOCK) for _ in range(2))
    outcomes: dict[str, int] = {}
    for _ in range(rounds):
        sid = one.create()["id"]
        for text in BOOKING:
            one.turn(sid, text)
        barrier = threading.Barrier(2)

        def yes(playground: Any, sid: str = sid, barrier: threading.Barrier = barrier) -> None:
            barrier.wait()
            try:
                outcome = playground.turn(sid, "yes")["node"]
            except Exception as exc:  # noqa: BLE001 - counted
                outcome = type(exc).__name__
            outcomes[outcome] = outcomes.get(outcome, 0) + 1

        threads = [threading.Thread(target=yes, args=(p,)) for p in (one, two)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    return f"rounds={rounds} book_table calls={len(calls)} outcomes={outcomes}"


def queue(queued: int) -> str:
    import httpx

    from fsmdial.serve.app import create_app
    from fsmdial.serve.sessions import Playground
    from fsmdial.stores import SQLiteStore
    from tests.serve_support import RESTAURANT, TestUnderstander, live_server

    understander = TestUnderstander(delay=0.1)
    playground = Playground(
        [RESTAURANT], SQLiteStore(Path(tempfile.mkdtemp()) / "s.db"), understander=understander, clock=lambda: CLOCK
    )
    other, busy = playground.create()["id"], playground.create()["id"]
    with live_server(create_app(playground)) as url, httpx.Client(base_url=url, timeout=600) as http:
        threads = [
            threading.Thread(target=http.post, args=(f"/sessions/{busy}/turns",), kwargs={"json": {"text": "hi"}})
            for _ in range(queued)
        ]
        for thread in threads:
            thread.start()
        time.sleep(0.5)
        started = time.perf_counter()
        status = http.get(f"/sessions/{other}").status_code
        took = time.perf_counter() - started
        done = understander.calls
        for thread in threads:
            thread.join()
    return f"queued={queued} GET status={status} took={took:.3f}s turns done before the answer={done}"


def dates() -> str:
    from fsmdial.language.dates import MONTHS, impossible_date, parse_date

    parses = exceptions = silent = 0
    day = dt.date(2024, 1, 1)
    while day <= dt.date(2031, 12, 31):
        now = dt.datetime.combine(day, dt.time(12))
        for month in MONTHS:
            for number in range(1, 32):
                text = f"{month.title()} {number}"
                parses += 1
                try:
                    if parse_date(text, now) is None and impossible_date(text, now) is None:
                        silent += 1
                except Exception:  # noqa: BLE001 - counted
                    exceptions += 1
        day += dt.timedelta(days=1)
    return f"parses={parses} exceptions={exceptions} neither read nor reported impossible={silent}"


if __name__ == "__main__":
    sys.path.insert(0, sys.argv[1])
    import fsmdial

    print(fsmdial.__file__)
    kind, *count = sys.argv[2:]
    print({"race": race, "queue": queue, "dates": dates}[kind](*map(int, count)))
