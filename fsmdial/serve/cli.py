"""``fsmdial serve``: the flow playground in the browser (registered by :mod:`fsmdial.cli`)."""

from __future__ import annotations

import argparse
import logging
import sys
from typing import Any

DEFAULT_DB = "fsmdial-sessions.db"
LOOPBACK = ["127.0.0.1", "localhost", "::1", "[::1]"]


def register(sub: Any) -> None:
    from ..cli import FORMATS

    p = sub.add_parser("serve", help="talk to flows in the browser: chat, live diagram, slots, trace (needs fsmdial[serve])")
    p.add_argument("flows", nargs="+", metavar="FLOW")
    p.add_argument("--format", choices=FORMATS, default="auto", help="flow file format (default: recognised from its content)")
    p.add_argument("--tools", metavar="MODULE:REGISTRY", help="tools to call (default: stand-ins)")
    p.add_argument("--model", metavar="PATH", help="GGUF model for understanding (default: $FSMDIAL_MODEL, else rules)")
    # No `choices`: the model understander checks the name and lists the backends it has (one list, kept there).
    p.add_argument("--backend", metavar="NAME", default=None, help="constrained-decoding backend, as for chat (default: the understander's)")
    p.add_argument("--db", metavar="FILE", default=DEFAULT_DB, help=f"SQLite file the sessions live in (default: {DEFAULT_DB})")
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
    from ..cli import load_tools, make_understander
    from ..loader import load_flow
    from ..store import SessionStore
    from ..tools import ToolRegistry
    from .app import create_app
    from .sessions import Playground

    logging.basicConfig(level=logging.WARNING, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    flows = [load_flow(path, format=args.format) for path in args.flows]
    tools = load_tools(args.tools)
    registry = ToolRegistry.of(tools)
    for name in sorted({name for flow in flows for name in registry.missing(flow)}):
        print(f"[note] tool {name!r} is not registered: a stand-in returns the first outcome the flow expects")
    store = SessionStore(args.db)
    playground = Playground(flows, store, tools=tools, understander=make_understander(args))
    hosts = ["*"] if args.host in ("0.0.0.0", "::") else [*LOOPBACK, args.host]
    app = create_app(playground, allowed_hosts=hosts)
    shown = f"[{args.host}]" if ":" in args.host else args.host
    print(f"fsmdial serve: http://{shown}:{args.port}/  (sessions in {args.db}; Ctrl-C stops)", flush=True)
    try:
        uvicorn.run(app, host=args.host, port=args.port, log_level="warning")
    finally:
        store.close()
    return 0
