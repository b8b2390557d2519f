"""``fsmdial import FORMAT ...``: convert other dialogue formats into validated fsmdial flows.

Each format is one entry of :data:`IMPORTERS`: a function adding its arguments
and a function running it. Add a format by adding an entry.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from .common import Command, deferred, flow_summary, register_table


def _add_star(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("data", metavar="STAR_DIR", help="a STAR copy (with tasks/ and apis/)")
    parser.add_argument("--out", metavar="DIR", required=True, help="where to write <task>.json flows")
    parser.add_argument("--tasks", nargs="+", metavar="TASK", help="only these tasks (default: every task)")
    parser.add_argument("--no-overlays", action="store_true", help="leave out the hand corrections in star_overlays/")


def _run_star(args: argparse.Namespace) -> int:
    from ..errors import FlowError
    from ..importers.star import import_star_task, task_names
    from ..loader import flow_from_document

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


def _add_sop(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "file", metavar="SOP.json", help="an adjacency list of Agent.*/User.* vertices (or {graph, messages, examples})"
    )
    parser.add_argument("--out", metavar="FLOW.json", required=True, help="where to write the flow")
    parser.add_argument(
        "--max-loops", type=int, default=3, help="visits of an ask-again step before its way out (default 3)"
    )


def _run_sop(args: argparse.Namespace) -> int:
    from ..importers.sop import sop_to_flow_dict
    from ..loader import flow_from_document, load_flow

    source = Path(args.file)
    document = json.loads(source.read_text(encoding="utf-8"))
    flow_dict = sop_to_flow_dict(document, name=source.stem.replace(".", "_"), max_loops=args.max_loops)
    flow = flow_from_document(flow_dict, origin=str(source))
    Path(args.out).write_text(json.dumps(flow_dict, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    load_flow(args.out)  # what was written loads as an fsmdial flow
    print(f"{args.out}: ok ({flow_summary(flow)})")
    return 0


IMPORTERS: dict[str, Command] = {
    "star": ("STAR task schemas (tasks/<task>/<task>.json + apis/<task>.json)", _add_star, _run_star),
    "sgd": deferred("Schema-Guided Dialogue schema.json (one flow per service)", "fsmdial.importers.sgd"),
    "sop": ("a ChatSOP adjacency list of Agent.*/User.* vertices", _add_sop, _run_sop),
}
"""Format name -> (help, add its arguments, run it)."""


def register(subparsers: Any) -> None:
    register_table(subparsers, "import", "convert another format into fsmdial flows", IMPORTERS)
