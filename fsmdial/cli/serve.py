"""``fsmdial serve``: the flow playground in the browser (see :mod:`fsmdial.serve`)."""

from __future__ import annotations

import argparse
import logging
import sys
from typing import Any

from .common import add_conversation_options, load_tools, note_missing_tools, understander_of

DEFAULT_DB = "fsmdial-sessions.db"
LOOPBACK = ["127.0.0.1", "localhost", "::1", "[::1]"]


def register(sub: Any) -> None:
    p = sub.add_parser(
        "serve", help="talk to flows in the browser: chat, live diagram, slots, trace (needs fsmdial[serve])"
    )
    add_conversation_options(p)
    p.add_argument(
        "--db", metavar="FILE", default=DEFAULT_DB, help=f"SQLite file the sessions live in (default: {DEFAULT_DB})"
    )
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default: 127.0.0.1, this machine only)")
    p.add_argument("--port", type=int, default=8000, help="port to listen on (default: 8000)")
    p.set_defaults(func=cmd_serve)


def cmd_serve(args: argparse.Namespace) -> int:
    try:
        import starlette  # noqa: F401
        import uvicorn
    except ModuleNotFoundError as exc:
        print(f"error: fsmdial serve needs {exc.name!r}: pip install 'fsmdial[serve]'", file=sys.stderr)
        return 2
    from ..loader import load_flow
    from ..serve.app import create_app
    from ..serve.sessions import Playground
    from ..store import SessionStore

    logging.basicConfig(level=logging.WARNING, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    flows = [load_flow(path, format=args.format) for path in args.flows]
    tools = load_tools(args.tools)
    note_missing_tools(flows, tools)
    store = SessionStore(args.db)
    playground = Playground(flows, store, tools=tools, understander=understander_of(args))
    hosts = ["*"] if args.host in ("0.0.0.0", "::") else [*LOOPBACK, args.host]
    app = create_app(playground, allowed_hosts=hosts)
    shown = f"[{args.host}]" if ":" in args.host else args.host
    print(f"fsmdial serve: http://{shown}:{args.port}/  (sessions in {args.db}; Ctrl-C stops)", flush=True)
    try:
        uvicorn.run(app, host=args.host, port=args.port, log_level="warning")
    finally:
        store.close()
    return 0
