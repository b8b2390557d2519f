"""What the command groups share: the ``--format`` option, loading flows and tools, command tables."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, NoReturn

FORMATS = ("auto", "fsmdial", "chief", "sop")
"""The flow file formats ``--format`` takes."""

Command = tuple[str, Callable[[argparse.ArgumentParser], None], Callable[[argparse.Namespace], int]]

INSTALL_HARNESS = "pip install fsmdial-eval (from a checkout of fsmdial: pip install -e ./eval)"
"""How to install the evaluation harness, the distribution whose entry points add the corpus commands."""


class CommandParser(argparse.ArgumentParser):
    """The parser of ``fsmdial`` and of its commands: a usage error ends with the parser's ``hint``, when it has one
    (what to install for the commands another distribution adds to it)."""

    hint: str | None = None

    def error(self, message: str) -> NoReturn:
        super().error(f"{message}\n{self.hint}" if self.hint else message)


def deferred(help_text: str, module: str) -> Command:
    """A command whose ``add_arguments`` and ``run`` live in ``module``, imported only when the command is used
    (``fsmdial --help`` loads no engine module)."""

    def add(parser: argparse.ArgumentParser) -> None:
        importlib.import_module(module).add_arguments(parser)

    def run(args: argparse.Namespace) -> int:
        return int(importlib.import_module(module).run(args))

    return help_text, add, run


"""A sub-command of a table: (help, add its arguments, run it)."""


def add_format(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--format", choices=FORMATS, default="auto", help="flow file format (default: recognised from its content)"
    )


def add_conversation_options(parser: argparse.ArgumentParser) -> None:
    """The flows, their format, tools and understanding options that ``chat`` and ``serve`` share."""
    from ..understand.decoding.backends import BACKENDS, DEFAULT_BACKEND
    from ..understand.factory import add_meaning_argument, add_model_server_argument

    parser.add_argument("flows", nargs="+", metavar="FLOW")
    add_format(parser)
    parser.add_argument("--tools", metavar="MODULE:REGISTRY", help="tools to call (default: stand-ins)")
    parser.add_argument(
        "--model", metavar="PATH", help="GGUF model for understanding (default: $FSMDIAL_MODEL, else rules)"
    )
    parser.add_argument(
        "--backend", choices=BACKENDS, default=None, help=f"constrained-decoding backend (default: {DEFAULT_BACKEND})"
    )
    add_model_server_argument(parser)
    add_meaning_argument(parser)


def load(path: str, fmt: Any) -> Any:
    """The flow at ``path`` (a :class:`~fsmdial.flow.Flow`), read as format ``fmt``."""
    from ..loader import load_flow

    return load_flow(path, format=fmt)


def flow_summary(flow: Any) -> str:
    """``ride_change: 1 request, 1 external_action, 2 inform, 5 edges``."""
    kinds: dict[str, int] = {}
    for node in flow.nodes:
        kinds[node.type] = kinds.get(node.type, 0) + 1
    summary = ", ".join(f"{count} {kind}" for kind, count in kinds.items())
    return f"{flow.name}: {summary}, {len(flow.edges)} edges"


def installed_commands(group: str) -> dict[str, Command]:
    """The sub-commands other installed distributions add to ``fsmdial GROUP``: their entry points of group
    ``fsmdial.GROUP``, each naming a module with ``HELP``, ``add_arguments(parser)`` and ``run(args)``. Found
    through the installed packages' metadata, so the engine names no module of them (the evaluation harness,
    ``fsmdial-eval``, adds ``eval star``, ``import star`` and others this way)."""
    from importlib.metadata import entry_points

    commands: dict[str, Command] = {}
    for point in entry_points(group=f"fsmdial.{group}"):
        module = point.load()
        commands[point.name] = (module.HELP, module.add_arguments, module.run)
    return commands


def register_table(
    subparsers: Any,
    command: str,
    help_text: str,
    table: dict[str, Command],
    group: str | None = None,
    missing: str | None = None,
) -> None:
    """A command whose sub-commands come from ``table``: name -> (help, add its arguments, run it), and, with
    ``group``, from the entry points of group ``fsmdial.<group>`` (:func:`installed_commands`; ``table``'s own
    names first). When no installed distribution adds any, ``missing`` (what to install) ends the command's help
    and its usage errors: ``fsmdial eval star`` without the harness says how to get it."""
    parser = subparsers.add_parser(command, help=help_text)
    added = installed_commands(group) if group else {}
    if group and not added and missing:
        parser.epilog = parser.hint = missing
        parser.formatter_class = argparse.RawDescriptionHelpFormatter  # the epilog as written: no break in a name
    table = {**table, **{name: entry for name, entry in added.items() if name not in table}}
    choices = parser.add_subparsers(dest=f"{command}_kind", metavar="KIND", required=True)
    for name, (kind_help, add_arguments, run) in table.items():
        sub = choices.add_parser(name, help=kind_help)
        add_arguments(sub)
        sub.set_defaults(func=run)


def load_tools(spec: str | None) -> Any:
    """The tool registry ``--tools MODULE:REGISTRY`` names (None without one)."""
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


def note_missing_tools(flows: list[Any], tools: Any, out: Any = None) -> None:
    """Say which tools the flows call that ``tools`` does not register (a stand-in answers for them)."""
    from ..tools import ToolRegistry

    registry = ToolRegistry.of(tools)
    for name in sorted({name for flow in flows for name in registry.missing(flow)}):
        print(
            f"[note] tool {name!r} is not registered: a stand-in returns the first outcome the flow expects", file=out
        )


def understander_of(args: argparse.Namespace) -> Any:
    """The understander ``--model``/``$FSMDIAL_MODEL`` and ``--backend`` ask for (None: the rules)."""
    from ..understand.factory import make_understander, model_of, server_options

    model = model_of(getattr(args, "model", None), getattr(args, "model_server", None))
    meaning = getattr(args, "meaning", None)
    return make_understander("auto", model, backend=args.backend, meaning=meaning, **server_options(args))
