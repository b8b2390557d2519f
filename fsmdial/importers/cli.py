"""``fsmdial import FORMAT ...``: convert other dialogue formats into validated fsmdial flows.

Each format is one entry of :data:`FORMATS`: a function adding its arguments
and a function running it. Add a format by adding an entry.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any


def _add_star(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("data", metavar="STAR_DIR", help="a STAR copy (with tasks/ and apis/)")
    parser.add_argument("--out", metavar="DIR", required=True, help="where to write <task>.json flows")
    parser.add_argument("--tasks", nargs="+", metavar="TASK", help="only these tasks (default: every task)")
    parser.add_argument("--no-overlays", action="store_true", help="leave out the hand corrections in star_overlays/")


def _run_star(args: argparse.Namespace) -> int:
    from ..errors import FlowError
    from ..loader import flow_from_document
    from .star import import_star_task, task_names

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    failed = 0
    for task in args.tasks or task_names(args.data):
        imported = import_star_task(args.data, task, overlays=not args.no_overlays)
        try:
            flow = flow_from_document(imported.flow, origin=f"STAR task {task}")
        except FlowError as exc:
            failed += 1
            for issue in exc.issues:
                print(f"{task}: error: {issue}", file=sys.stderr)
            continue
        path = out / f"{task}.json"
        path.write_text(json.dumps(imported.flow, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        kinds: dict[str, int] = {}
        for node in flow.nodes:
            kinds[node.type] = kinds.get(node.type, 0) + 1
        summary = ", ".join(f"{n} {k}" for k, n in kinds.items())
        print(f"{path}: ok ({summary}, {len(flow.edges)} edges{', overlay' if imported.overlay else ''})")
        for note in imported.notes:
            print(f"  note: {note}")
    return 1 if failed else 0


FORMATS: dict[str, tuple[str, Callable[[argparse.ArgumentParser], None], Callable[[argparse.Namespace], int]]] = {
    "star": ("STAR task schemas (tasks/<task>/<task>.json + apis/<task>.json)", _add_star, _run_star),
}
"""Format name -> (help, add its arguments, run it)."""


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("import", help="convert another format into fsmdial flows")
    formats = parser.add_subparsers(dest="import_format", metavar="FORMAT", required=True)
    for name, (help_text, add_arguments, run) in FORMATS.items():
        sub = formats.add_parser(name, help=help_text)
        add_arguments(sub)
        sub.set_defaults(func=run)
