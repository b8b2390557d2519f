"""The ``fsmdial`` command line: one module per group of commands, each adding its own with ``register``.

* :mod:`.init`: ``init`` (a starter project);
* :mod:`.flows`: ``validate``, ``compile``, ``graph``, ``schema``;
* :mod:`.chat`: ``chat`` (one flow, or several as one assistant, in the terminal);
* :mod:`.models`: ``tiny-model``, ``models fetch | list``;
* :mod:`.importers`: ``import sop`` (and ``star``, ``sgd`` when the evaluation harness is installed);
* :mod:`.eval`: ``eval conversations`` (and the corpus benchmarks of the evaluation harness, ``fsmdial-eval``);
* :mod:`.understand`: ``prompt`` (what a model would be asked at a node);
* :mod:`.serve`: ``serve`` (the browser playground);
* :mod:`.loadtest`: ``loadtest`` (simulated users against several ``serve`` workers, with faults).

The command line sits on top of the package: it imports the engine, no module outside it imports it.
A group imports what its commands need inside their handlers, so ``fsmdial --help`` loads no engine.
"""

from __future__ import annotations

import argparse
import sys

from .. import __version__
from ..errors import FlowError, FsmdialError
from . import chat, eval, flows, importers, init, loadtest, models, serve, understand
from .common import CommandParser

GROUPS = (init, flows, chat, models, importers, eval, understand, serve, loadtest)
"""The command groups, in the order ``fsmdial --help`` lists their commands."""


def build_parser() -> argparse.ArgumentParser:
    parser = CommandParser(
        prog="fsmdial",
        description="Embedded dialogue engine: flows compile to state machines; a local model only understands.",
    )
    parser.add_argument("--version", action="version", version=f"fsmdial {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for group in GROUPS:
        group.register(sub)
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
