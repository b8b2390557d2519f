"""``fsmdial init DIR``: write a starter project (a flow, its Python tool, tests and a benchmark, a README)."""

from __future__ import annotations

import argparse
from typing import Any

NEXT_STEPS = """
next, in {folder}:
  fsmdial validate flow.json
  fsmdial chat flow.json --tools tools:tools
  pytest"""


def cmd_init(args: argparse.Namespace) -> int:
    from ..scaffold import write_project

    written = write_project(args.folder, force=args.force)
    for path in written:
        print(f"wrote {path}")
    print(NEXT_STEPS.format(folder=args.folder))
    return 0


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "init", help="write a starter project: a flow, its Python tool, tests with the fsmdial pytest plugin"
    )
    p.add_argument("folder", metavar="DIR", help="folder to write it in (made when missing; must be empty)")
    p.add_argument("--force", action="store_true", help="write over the starter's files in a folder that is not empty")
    p.set_defaults(func=cmd_init)
