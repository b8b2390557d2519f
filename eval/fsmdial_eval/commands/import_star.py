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
    parser.add_argument("--force", action="store_true", help="replace flow files already in --out (default: keep)")


def run(args: argparse.Namespace) -> int:
    """Write one flow per task into ``--out``, named from the task (checked, never cleaned, before its folder is
    read: :mod:`fsmdial.importers.output`); a task that fails is reported and the others are still written."""
    from fsmdial.cli.common import flow_summary
    from fsmdial.errors import FlowError
    from fsmdial.importers.output import NamedFiles, OutputError
    from fsmdial.loader import flow_from_document

    from ..importers.star import import_star_task, task_names
    from ..importers.star_format import StarFormatError

    tasks = str(Path(args.data) / "tasks")
    files = NamedFiles(args.out, source=tasks, what="STAR task", force=args.force)
    failed = 0
    for task in args.tasks or task_names(args.data):
        try:
            files.path_for(task)  # a bad name first: tasks/<task>/ is not even read
            imported = import_star_task(args.data, task, overlays=not args.no_overlays)
            flow = flow_from_document(imported.flow, origin=f"STAR task {task}")
            path = files.write(task, json.dumps(imported.flow, indent=2, ensure_ascii=False) + "\n")
        except FlowError as exc:
            failed += 1
            for issue in exc.issues:
                print(f"{tasks}: {task}: error: {issue}", file=sys.stderr)
            continue
        except (StarFormatError, OutputError) as exc:
            failed += 1
            print(f"error: {exc}", file=sys.stderr)
            continue
        print(f"{path}: ok ({flow_summary(flow)}{', overlay' if imported.overlay else ''})")
        for note in imported.notes:
            print(f"  note: {note}")
    return 1 if failed else 0
