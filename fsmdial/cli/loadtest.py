"""``fsmdial loadtest``: simulated users against several ``fsmdial serve`` processes, with faults
(see :mod:`fsmdial.serve.loadtest`)."""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any


def number(kind: Callable[[str], Any], what: str, fits: Callable[[Any], bool]) -> Callable[[str], Any]:
    """An argparse type: ``kind(text)``, refused (a usage error, exit 2) unless it is finite and ``fits``."""

    def read(text: str) -> Any:
        try:
            value = kind(text)
        except ValueError:
            value = None
        if value is None or not (math.isfinite(value) and fits(value)):
            raise argparse.ArgumentTypeError(f"expected {what}, not {text!r}")
        return value

    return read


COUNT = number(int, "a whole number, 1 or more", lambda value: value >= 1)
SECONDS = number(float, "a number of seconds above 0", lambda value: value > 0)
PAUSE = number(float, "a number of seconds, 0 or more", lambda value: value >= 0)


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "loadtest", help="N simulated users against M `fsmdial serve` workers on loopback, with faults (needs serve)"
    )
    p.add_argument("--users", type=COUNT, default=20, help="concurrent simulated users, one session each (default 20)")
    p.add_argument("--sessions", type=COUNT, default=40, help="sessions in all, one after another per user (40)")
    p.add_argument("--workers", type=COUNT, default=2, help="`fsmdial serve` processes sharing the store (default 2)")
    p.add_argument("--store", metavar="URL", help="sqlite:///PATH or postgresql://... (default: a new SQLite file)")
    p.add_argument("--model-server", metavar="URL", help="a running llama-server on loopback (default: the rules)")
    p.add_argument("--llama-server", metavar="BINARY", help="start this llama-server (needs --model) and use it")
    p.add_argument("--model", metavar="GGUF", help="the model --llama-server serves")
    p.add_argument("--slots", type=COUNT, default=2, help="--llama-server's parallel slots (default 2)")
    p.add_argument("--duration", type=SECONDS, default=120.0, help="most seconds users keep starting turns (120)")
    p.add_argument("--kill-worker", action="store_true", help="SIGKILL a worker mid-turn, restart it a second later")
    p.add_argument(
        "--model-outage", type=PAUSE, default=0.0, metavar="S", help="kill --llama-server for S seconds, then restart"
    )
    p.add_argument("--timeout", type=SECONDS, default=120.0, help="seconds a request may take (default 120)")
    p.add_argument("--json", action="store_true", help="print the figures as JSON")
    p.add_argument("--keep", metavar="DIR", help="run in DIR and keep the store, ledger and process logs")
    p.set_defaults(func=cmd_loadtest)


def cmd_loadtest(args: argparse.Namespace) -> int:
    import orjson

    from ..serve.loadtest import Options, report, run

    directory = Path(args.keep) if args.keep else None
    if directory:
        directory.mkdir(parents=True, exist_ok=True)
    figures = run(
        Options(
            users=args.users,
            sessions=args.sessions,
            workers=args.workers,
            store=args.store,
            model_server=args.model_server,
            llama_server=args.llama_server,
            model=args.model,
            slots=args.slots,
            duration=args.duration,
            kill_worker=args.kill_worker,
            model_outage=args.model_outage,
            timeout=args.timeout,
            directory=directory,
        )
    )
    print(orjson.dumps(figures, option=orjson.OPT_INDENT_2).decode() if args.json else report(figures))
    sys.stdout.flush()
    clean = not (figures["lost_turns"] or figures["repeated_turns"] or figures["unresumable_sessions"])
    return 0 if clean and not figures["repeated_side_effects"] else 1
