"""A child process for tests/store/test_conformance.py: claims across processes.

python tests/store/claim_child.py count URL NAME N
    Prints ``ready``, waits for a line on stdin, then N times: claims the session ``counter``, reads its turn,
    waits a little (a window for another process to cut in, if the claim let it), saves the next turn with the
    trace ``{"by": NAME, "i": i}``. Prints ``done <conflicts>``.

python tests/store/claim_child.py hold URL SESSION LEASE
    Claims SESSION (with that lease), prints ``held``, and sleeps until it is killed.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import orjson  # noqa: E402

from fsmdial.errors import ConflictError, UnknownSession  # noqa: E402
from fsmdial.stores import open_store  # noqa: E402


def report(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def count(url: str, name: str, times: int) -> None:
    store = open_store(url)
    conflicts = 0
    report("ready")
    sys.stdin.readline()
    for i in range(times):
        with store.claim("counter", wait=120):
            try:
                turn = store.load("counter")[0]
            except UnknownSession:
                turn = 0
            time.sleep(0.002)
            try:
                store.save_turn(
                    "counter", turn + 1, orjson.dumps({"flow": "counter", "n": turn + 1}), {"by": name, "i": i}
                )
            except ConflictError:
                conflicts += 1
    store.close()
    report(f"done {conflicts}")


def hold(url: str, session_id: str, lease: float) -> None:
    store = open_store(url)
    with store.claim(session_id, lease=lease):
        report("held")
        time.sleep(3600)


if __name__ == "__main__":
    mode, *args = sys.argv[1:]
    if mode == "count":
        count(args[0], args[1], int(args[2]))
    elif mode == "hold":
        hold(args[0], args[1], float(args[2]))
    else:
        raise SystemExit(__doc__)
