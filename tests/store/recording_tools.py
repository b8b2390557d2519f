"""Tools for the ``fsmdial serve`` worker tests: ``book_table`` appends each call, as one JSON line, to the file
named by ``$FSMDIAL_TEST_SIDE_EFFECTS`` (one ``write`` in append mode, so calls from several processes never
mix), after a pause that keeps it inside the turn long enough for another worker to try the same turn."""

from __future__ import annotations

import os
import time as clock
from typing import Any

import orjson

from fsmdial.tools import ToolRegistry

registry = ToolRegistry()


def book_table(name: str, party_size: int, date: str, time: str, seating: str | None = None) -> dict[str, Any]:
    clock.sleep(0.3)
    line = orjson.dumps({"pid": os.getpid(), "name": name, "party_size": party_size, "date": date, "time": time})
    line += b"\n"
    fd = os.open(os.environ["FSMDIAL_TEST_SIDE_EFFECTS"], os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    try:
        os.write(fd, line)
    finally:
        os.close(fd)
    return {"booked": True, "reference": f"R-{os.getpid()}"}


registry.register("book_table", book_table)
