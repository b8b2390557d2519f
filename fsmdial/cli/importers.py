"""``fsmdial import FORMAT ...``: convert other dialogue formats into validated fsmdial flows.

Each format is one entry of :data:`IMPORTERS`: a function adding its arguments
and a function running it. Add a format by adding an entry. ``star`` and ``sgd`` (the corpora's schemas) come
with the evaluation harness (``fsmdial-eval``), through its entry points of group ``fsmdial.import``.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from .common import INSTALL_HARNESS, Command, flow_summary, register_table


def _add_sop(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "file", metavar="SOP.json", help="an adjacency list of Agent.*/User.* vertices (or {graph, messages, examples})"
    )
    parser.add_argument("--out", metavar="FLOW.json", required=True, help="where to write the flow")
    parser.add_argument(
        "--max-loops", type=int, default=3, help="visits of an ask-again step before its way out (default 3)"
    )


def _run_sop(args: argparse.Namespace) -> int:
    from ..errors import FlowError, FlowIssue, InputFileError
    from ..importers.sop import sop_to_flow_dict
    from ..loader import flow_from_document, load_flow
    from ..userfiles import read_json

    source = Path(args.file)
    try:  # read as the loader reads a flow (bounded, typed); every error names the SOP file
        document = read_json(source, what="SOP file")
        flow_dict = sop_to_flow_dict(document, name=source.stem.replace(".", "_"), max_loops=args.max_loops)
    except InputFileError as exc:
        raise FlowError(FlowIssue("", exc.problem), source=str(source)) from None
    except FlowError as exc:
        raise FlowError(exc.issues, source=str(source)) from None
    flow = flow_from_document(flow_dict, origin=str(source))
    Path(args.out).write_text(json.dumps(flow_dict, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    load_flow(args.out)  # what was written loads as an fsmdial flow
    print(f"{args.out}: ok ({flow_summary(flow)})")
    return 0


IMPORTERS: dict[str, Command] = {
    "sop": ("a ChatSOP adjacency list of Agent.*/User.* vertices", _add_sop, _run_sop),
}
"""Format name -> (help, add its arguments, run it)."""

WITHOUT_HARNESS = (
    f"fsmdial import star and sgd come with the evaluation harness, which is not installed: {INSTALL_HARNESS}"
)


def register(subparsers: Any) -> None:
    register_table(
        subparsers,
        "import",
        "convert another format into fsmdial flows",
        IMPORTERS,
        group="import",
        missing=WITHOUT_HARNESS,
    )
