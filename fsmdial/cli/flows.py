"""``fsmdial validate | compile | graph | schema``: check a flow, write its class, draw it, the format's schema."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from ..errors import FlowError
from .common import add_format, flow_summary, load


def cmd_validate(args: argparse.Namespace) -> int:
    from ..flow import flow_warnings

    failed = 0
    for path in args.flows:
        try:
            flow = load(path, args.format)
        except FlowError as exc:
            failed += 1
            for issue in exc.issues:
                print(f"{path}: error: {issue}", file=sys.stderr)
            continue
        print(f"{path}: ok ({flow_summary(flow)})")
        for warning in flow_warnings(flow):
            print(f"{path}: warning: {warning}", file=sys.stderr)
    return 1 if failed else 0


def cmd_compile(args: argparse.Namespace) -> int:
    from ..compiler import check_source, emit_source

    source = emit_source(load(args.flow, args.format))
    check_source(source, args.output or "<stdout>")  # never write a file that does not compile
    if args.output in (None, "-"):
        sys.stdout.write(source)
    else:
        Path(args.output).write_bytes(source.encode("utf-8"))  # the encoding line 1 declares
        print(f"wrote {args.output}", file=sys.stderr)
    return 0


def cmd_graph(args: argparse.Namespace) -> int:
    """The Mermaid state diagram of the compiled flow (:func:`fsmdial.compiler.mermaid`: ids and labels escaped)."""
    from ..compiler import compile_flow, mermaid

    sys.stdout.write(mermaid(compile_flow(load(args.flow, args.format))))
    return 0


def cmd_schema(args: argparse.Namespace) -> int:
    import orjson

    from ..flow import Flow

    schema = Flow.model_json_schema(by_alias=True)
    sys.stdout.write(orjson.dumps(schema, option=orjson.OPT_INDENT_2).decode() + "\n")
    return 0


def register(subparsers: Any) -> None:
    p = subparsers.add_parser("validate", help="check flow files (exit 1 if any is broken)")
    p.add_argument("flows", nargs="+", metavar="FLOW")
    add_format(p)
    p.set_defaults(func=cmd_validate)

    p = subparsers.add_parser("compile", help="write a flow's state-machine class as Python source")
    p.add_argument("flow", metavar="FLOW")
    p.add_argument("-o", "--output", metavar="FILE", help="output .py file (default: stdout)")
    add_format(p)
    p.set_defaults(func=cmd_compile)

    p = subparsers.add_parser("graph", help="print a flow's state machine as a Mermaid diagram")
    p.add_argument("flow", metavar="FLOW")
    add_format(p)
    p.set_defaults(func=cmd_graph)

    p = subparsers.add_parser("schema", help="print the JSON Schema of the flow format")
    p.set_defaults(func=cmd_schema)
