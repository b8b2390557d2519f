"""The ``fsmdial`` command line: validate, compile, graph, chat, schema, and the tools around them."""

from __future__ import annotations

import argparse
import importlib
import sys
from pathlib import Path
from typing import Any

import orjson

from . import __version__
from .errors import FlowError, FsmdialError
from .understand.backends import BACKENDS, DEFAULT_BACKEND

FORMATS = ("auto", "fsmdial", "chief", "sop")


def _add_format(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--format", choices=FORMATS, default="auto", help="flow file format (default: recognised from its content)"
    )


def _load(path: str, fmt: Any):
    from .loader import load_flow

    return load_flow(path, format=fmt)


def flow_summary(flow) -> str:
    """``ride_change: 1 request, 1 external_action, 2 inform, 5 edges``."""
    kinds: dict[str, int] = {}
    for node in flow.nodes:
        kinds[node.type] = kinds.get(node.type, 0) + 1
    summary = ", ".join(f"{count} {kind}" for kind, count in kinds.items())
    return f"{flow.name}: {summary}, {len(flow.edges)} edges"


def register_table(subparsers: Any, command: str, help_text: str, table: dict[str, tuple[str, Any, Any]]) -> None:
    """A command whose sub-commands come from ``table``: name -> (help, add its arguments, run it)."""
    parser = subparsers.add_parser(command, help=help_text)
    choices = parser.add_subparsers(dest=f"{command}_kind", metavar="KIND", required=True)
    for name, (kind_help, add_arguments, run) in table.items():
        sub = choices.add_parser(name, help=kind_help)
        add_arguments(sub)
        sub.set_defaults(func=run)


# ----------------------------------------------------------------- commands


def cmd_validate(args: argparse.Namespace) -> int:
    from .flow import flow_warnings

    failed = 0
    for path in args.flows:
        try:
            flow = _load(path, args.format)
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
    from .compiler import check_source, emit_source

    source = emit_source(_load(args.flow, args.format))
    check_source(source, args.output or "<stdout>")  # never write a file that does not compile
    if args.output in (None, "-"):
        sys.stdout.write(source)
    else:
        Path(args.output).write_bytes(source.encode("utf-8"))  # the encoding line 1 declares
        print(f"wrote {args.output}", file=sys.stderr)
    return 0


def mermaid_diagram(cls: Any) -> str:
    """The Mermaid state diagram of a compiled flow class (what ``fsmdial graph`` prints): node ids
    and labels escaped (see :func:`fsmdial.compiler.mermaid`)."""
    from .compiler import mermaid

    return mermaid(cls)


def cmd_graph(args: argparse.Namespace) -> int:
    from .compiler import compile_flow

    sys.stdout.write(mermaid_diagram(compile_flow(_load(args.flow, args.format))))
    return 0


def cmd_schema(args: argparse.Namespace) -> int:
    from .flow import Flow

    schema = Flow.model_json_schema(by_alias=True)
    sys.stdout.write(orjson.dumps(schema, option=orjson.OPT_INDENT_2).decode() + "\n")
    return 0


def load_tools(spec: str | None) -> Any:
    if not spec:
        return None
    module_name, _, attribute = spec.partition(":")
    if not attribute:
        raise SystemExit(f"--tools expects module:registry, got {spec!r}")
    if "" not in sys.path and str(Path.cwd()) not in sys.path:
        sys.path.insert(0, str(Path.cwd()))  # like `python -m`: the app's modules are found from where it runs
    module = importlib.import_module(module_name)
    try:
        return getattr(module, attribute)
    except AttributeError:
        raise SystemExit(f"--tools: module {module_name!r} has no attribute {attribute!r}") from None


def make_understander(args: argparse.Namespace) -> Any:
    """The understander ``chat`` uses: rules, or a GGUF model with ``--model``/``FSMDIAL_MODEL``."""
    import os

    model = getattr(args, "model", None) or os.environ.get("FSMDIAL_MODEL")
    if not model:
        return None
    from .understand.gguf import GGUFUnderstander

    return GGUFUnderstander(model, backend=args.backend)


def json_line(data: Any) -> str:
    """``data`` as one line of JSON; integers beyond 64 bits (legal JSON, orjson refuses them) included."""
    try:
        return orjson.dumps(data).decode()
    except TypeError:
        import json

        return json.dumps(data, ensure_ascii=False, separators=(",", ":"), default=str)


def cmd_chat(args: argparse.Namespace) -> int:
    from .assistant import Assistant
    from .runtime import Dialogue
    from .tools import ToolRegistry

    flows = [_load(path, args.format) for path in args.flows]
    options = {"tools": load_tools(args.tools), "understander": make_understander(args), "stand_in_tools": True}
    dialogue: Any = Dialogue(flows[0], **options) if len(flows) == 1 else Assistant(flows, **options)
    out = sys.stdout
    registry = ToolRegistry.of(options["tools"])
    for name in sorted({name for flow in flows for name in registry.missing(flow)}):
        print(f"[note] tool {name!r} is not registered: a stand-in returns the first outcome the flow expects", file=out)
    interactive = sys.stdin.isatty()

    def show(result: Any) -> None:
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


def cmd_tiny_model(args: argparse.Namespace) -> int:
    from .understand.tiny_model import build_tiny_model

    path = build_tiny_model(args.path, chat_template=not args.no_chat_template)
    print(f"wrote {path} ({path.stat().st_size / 1e6:.1f} MB)")
    return 0


def _plugin_commands(sub: Any) -> None:
    """Commands whose modules register themselves (importers, evaluation)."""
    for module_name in ("fsmdial.importers.cli", "fsmdial.eval.cli", "fsmdial.models", "fsmdial.understand.cli", "fsmdial.serve.cli"):
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if not exc.name or not module_name.startswith(exc.name):
                raise
            continue
        module.register(sub)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="fsmdial",
        description="Embedded dialogue engine: flows compile to state machines; a local model only understands.",
    )
    parser.add_argument("--version", action="version", version=f"fsmdial {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    p = sub.add_parser("validate", help="check flow files (exit 1 if any is broken)")
    p.add_argument("flows", nargs="+", metavar="FLOW")
    _add_format(p)
    p.set_defaults(func=cmd_validate)

    p = sub.add_parser("compile", help="write a flow's state-machine class as Python source")
    p.add_argument("flow", metavar="FLOW")
    p.add_argument("-o", "--output", metavar="FILE", help="output .py file (default: stdout)")
    _add_format(p)
    p.set_defaults(func=cmd_compile)

    p = sub.add_parser("graph", help="print a flow's state machine as a Mermaid diagram")
    p.add_argument("flow", metavar="FLOW")
    _add_format(p)
    p.set_defaults(func=cmd_graph)

    p = sub.add_parser(
        "chat", help="talk to a flow in the terminal (reads stdin line by line); several flows make one assistant"
    )
    p.add_argument("flows", nargs="+", metavar="FLOW")
    _add_format(p)
    p.add_argument("--tools", metavar="MODULE:REGISTRY", help="tools to call (default: stand-ins)")
    p.add_argument("--model", metavar="PATH", help="GGUF model for understanding (default: $FSMDIAL_MODEL, else rules)")
    p.add_argument("--backend", choices=BACKENDS, default=None, help=f"constrained-decoding backend (default: {DEFAULT_BACKEND})")
    p.add_argument("--trace", action="store_true", help="print each turn's trace (without timings)")
    p.add_argument("--timings", action="store_true", help="print each turn's trace with timings")
    p.set_defaults(func=cmd_chat)

    p = sub.add_parser("schema", help="print the JSON Schema of the flow format")
    p.set_defaults(func=cmd_schema)

    p = sub.add_parser("tiny-model", help="build the tiny deterministic GGUF used by tests and benchmarks")
    p.add_argument("path", metavar="PATH")
    p.add_argument("--no-chat-template", action="store_true", help="leave the chat template out")
    p.set_defaults(func=cmd_tiny_model)

    _plugin_commands(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except FlowError as exc:
        for issue in exc.issues:
            prefix = f"{exc.source}: " if exc.source else ""
            print(f"{prefix}error: {issue}", file=sys.stderr)
        return 1
    except FsmdialError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
