"""``fsmdial chat FLOW...``: talk to a flow (several make one assistant) in the terminal, line by line."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ..errors import FsmdialError
from .common import add_conversation_options, load, load_tools, note_missing_tools, understander_of


def json_line(data: Any) -> str:
    """``data`` as one line of JSON; integers beyond 64 bits (legal JSON, orjson refuses them) included."""
    from ..jsonvalues import dumps

    return dumps(data, default=str).decode()


def cmd_chat(args: argparse.Namespace) -> int:
    from ..assistant import Assistant
    from ..conversation import Conversation
    from ..runtime import Dialogue
    from ..trace import TurnResult

    flows = [load(path, args.format) for path in args.flows]
    options = {"tools": load_tools(args.tools), "understander": understander_of(args), "stand_in_tools": True}
    dialogue: Conversation = Dialogue(flows[0], **options) if len(flows) == 1 else Assistant(flows, **options)
    out = sys.stdout
    note_missing_tools(flows, options["tools"], out)
    interactive = sys.stdin.isatty()

    def show(result: TurnResult) -> None:
        for message in result.messages:
            print(f"bot: {message}", file=out)
        if args.trace or args.timings:
            print("trace: " + json_line(result.trace.to_dict(timings=args.timings)), file=out)
        out.flush()

    show(dialogue.start())
    while True:
        if interactive:
            print("you: ", end="", file=out, flush=True)
        line = sys.stdin.readline()
        if not line:
            break
        text = line.rstrip("\n")
        if not interactive:
            print(f"you: {text}", file=out)
        try:
            result = dialogue.turn(text)
        except FsmdialError as exc:
            print(f"error: {exc} (the turn was undone)", file=out)
            continue
        show(result)
        if (result.trace.parse or {}).get("intent") == "goodbye":
            break  # the user said goodbye; anything else (even a polite end) may still be talked out of
    return 0


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "chat", help="talk to a flow in the terminal (reads stdin line by line); several flows make one assistant"
    )
    add_conversation_options(p)
    p.add_argument("--trace", action="store_true", help="print each turn's trace (without timings)")
    p.add_argument("--timings", action="store_true", help="print each turn's trace with timings")
    p.set_defaults(func=cmd_chat)
