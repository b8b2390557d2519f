"""``fsmdial import star``: STAR task schemas as fsmdial flows (:mod:`fsmdial_eval.importers.star`).

A command of the harness, found by the engine's ``fsmdial`` through the entry point ``fsmdial.import: star``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

HELP = "STAR task schemas (tasks/<task>/<task>.json + apis/<task>.json)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("data", metavar="STAR_DIR", help="a STAR copy (with tasks/ and apis/)")
    parser.add_argument("--out", metavar="DIR", required=True, help="where to write <task>.json flows")
    parser.add_argument("--tasks", nargs="+", metavar="TASK", help="only these tasks (default: every task)")
    parser.add_argument("--no-overlays", action="store_true", help="leave out the hand corrections in star_overlays/")


def run(args: argparse.Namespace) -> int:
    from fsmdial.cli.common import flow_summary
    from fsmdial.errors import FlowError
    from fsmdial.loader import flow_from_document

    from ..importers.star import import_star_task, task_names

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
        print(f"{path}: ok ({flow_summary(flow)}{', overlay' if imported.overlay else ''})")
        for note in imported.notes:
            print(f"  note: {note}")
    return 1 if failed else 0
