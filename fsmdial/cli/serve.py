"""``fsmdial serve``: the flow playground in the browser (see :mod:`fsmdial.serve`), in one process or several.

With ``--workers N`` (N > 1) uvicorn runs N worker processes on the one port, each building its own app from the
command's options (passed to them in ``$FSMDIAL_SERVE_OPTIONS``) and sharing the store named by ``--store``: every
request reads the session from the store and a turn holds the session's claim, so any worker may serve any turn
of any session. uvicorn starts a new worker in place of one that dies.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys
from typing import Any

from .common import add_conversation_options, load_tools, note_missing_tools, understander_of

DEFAULT_DB = "fsmdial-sessions.db"
LOOPBACK = ["127.0.0.1", "localhost", "::1", "[::1]"]
OPTIONS_VARIABLE = "FSMDIAL_SERVE_OPTIONS"
"""The environment variable that hands a worker process the command's options (JSON)."""


def register(sub: Any) -> None:
    p = sub.add_parser(
        "serve", help="talk to flows in the browser: chat, live diagram, slots, trace (needs fsmdial[serve])"
    )
    add_conversation_options(p)
    where = p.add_mutually_exclusive_group()
    where.add_argument(
        "--store",
        metavar="URL",
        help="where the sessions live: sqlite:///FILE, a file path, or postgresql://USER@HOST:PORT/DB "
        f"(needs fsmdial[postgres]); default: the SQLite file {DEFAULT_DB}",
    )
    where.add_argument("--db", metavar="FILE", help="SQLite file the sessions live in (the same as --store FILE)")
    p.add_argument(
        "--workers",
        type=int,
        default=1,
        metavar="N",
        help="worker processes serving the port, sharing the store (default: 1; each loads its own model)",
    )
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default: 127.0.0.1, this machine only)")
    p.add_argument("--port", type=int, default=8000, help="port to listen on (default: 8000)")
    p.set_defaults(func=cmd_serve)


def store_url(args: argparse.Namespace) -> str:
    return args.store or args.db or DEFAULT_DB


def cmd_serve(args: argparse.Namespace) -> int:
    try:
        import starlette  # noqa: F401
        import uvicorn
    except ModuleNotFoundError as exc:
        print(f"error: fsmdial serve needs {exc.name!r}: pip install 'fsmdial[serve]'", file=sys.stderr)
        return 2
    if args.workers < 1:
        print(f"error: --workers must be at least 1, not {args.workers}", file=sys.stderr)
        return 2
    from ..errors import FsmdialError
    from ..stores import open_store

    logging.basicConfig(level=logging.WARNING, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    shown = f"[{args.host}]" if ":" in args.host else args.host
    try:
        store = open_store(store_url(args))  # a wrong URL or a database that is down fails here, once
    except FsmdialError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    where = store.location
    try:
        if args.workers == 1:
            app = build_app(args, store)
        else:
            store.close()
            note_missing_tools(load_serve_flows(args), load_tools(args.tools))  # fails here, not in every worker
            options = {key: value for key, value in vars(args).items() if key != "func"}
            os.environ[OPTIONS_VARIABLE] = json.dumps(options)
        workers = "" if args.workers == 1 else f"; {args.workers} workers"
        print(f"fsmdial serve: http://{shown}:{args.port}/  (sessions in {where}{workers}; Ctrl-C stops)", flush=True)
        if args.workers == 1:
            uvicorn.run(app, host=args.host, port=args.port, log_level="warning")
        else:
            uvicorn.run(
                f"{__name__}:worker_app",
                factory=True,
                workers=args.workers,
                host=args.host,
                port=args.port,
                log_level="warning",
            )
    finally:
        store.close()
    return 0


def load_serve_flows(args: argparse.Namespace) -> list[Any]:
    from ..loader import load_flow

    return [load_flow(path, format=args.format) for path in args.flows]


def build_app(args: argparse.Namespace, store: Any, *, notes: bool = True) -> Any:
    """The playground app the options ask for, on ``store``."""
    from ..serve.app import create_app
    from ..serve.sessions import Playground

    flows = load_serve_flows(args)
    tools = load_tools(args.tools)
    if notes:
        note_missing_tools(flows, tools)
    playground = Playground(flows, store, tools=tools, understander=understander_of(args))
    hosts = ["*"] if args.host in ("0.0.0.0", "::") else [*LOOPBACK, args.host]
    return create_app(playground, allowed_hosts=hosts)


def worker_app() -> Any:
    """The app of one worker process of ``fsmdial serve --workers N`` (uvicorn calls it in each worker)."""
    from ..stores import open_store

    logging.basicConfig(level=logging.WARNING, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    args = argparse.Namespace(**json.loads(os.environ[OPTIONS_VARIABLE]))
    return build_app(args, open_store(store_url(args)), notes=False)
