"""``fsmdial prompt FLOW NODE [TEXT]``: the prompt and the turn's grammar a model would get, without calling it."""

from __future__ import annotations

import argparse
import datetime as dt
import sys
from typing import Any


def _run_prompt(args: argparse.Namespace) -> int:
    from ..loader import load_flow
    from ..runtime import Dialogue
    from ..testing.forcing import seek
    from ..understand.constraint.schema import standing, turn_schema
    from ..understand.model.gguf import GGUFUnderstander
    from ..understand.model.prompt import PromptBuilder

    flow = load_flow(args.flow)
    dialogue = Dialogue(flow, stand_in_tools=True)
    nodes = [node.id for node in flow.nodes]
    if args.node not in nodes:
        print(f"error: flow {flow.name!r} has no node {args.node!r} (nodes: {', '.join(nodes)})", file=sys.stderr)
        return 2
    seek(dialogue, args.node, asked=args.asked)
    state = dialogue.understanding_state()
    if args.model:
        understander = GGUFUnderstander(args.model, fast_path=False)
        builder: PromptBuilder = understander.prompts
        certain = understander.certain(state, args.text, (), dt.datetime.now())
    else:
        from ..testing.tiny_model import CHATML_TEMPLATE
        from ..understand.model.prompt import ChatFormat
        from ..understand.rules import RulesUnderstander

        builder = PromptBuilder(ChatFormat(CHATML_TEMPLATE), lambda text, special: [])
        certain = standing(RulesUnderstander(), state, args.text, (), dt.datetime.now())
    print(builder.text(state, (), args.text))
    schema = turn_schema(state, args.text, dt.datetime.now(), settled=certain)
    print("--- settled by the rules:", {"intent": certain.intent, "slots": certain.slots})
    print("--- the turn's JSON schema:")
    print(schema.schema_text)
    print("--- its grammar (GBNF):")
    print(schema.grammar.gbnf, end="")
    return 0


def register(subparsers: Any) -> None:
    p = subparsers.add_parser("prompt", help="show the prompt, JSON schema and grammar a model gets at a node")
    p.add_argument("flow", metavar="FLOW")
    p.add_argument("node", metavar="NODE")
    p.add_argument("text", metavar="TEXT", nargs="?", default="", help="the user's message (default: empty)")
    p.add_argument("--asked", metavar="SLOT", help="the slot the bot has just asked for")
    p.add_argument("--model", metavar="PATH", help="render with this GGUF's chat template (default: ChatML)")
    p.set_defaults(func=_run_prompt)
