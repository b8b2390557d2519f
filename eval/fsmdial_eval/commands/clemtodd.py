"""``fsmdial eval clemtodd``: clem:todd's MultiWOZ booking tasks with a simulated user (:mod:`fsmdial_eval.clemtodd`).

A command of the harness, found by the engine's ``fsmdial`` through the entry point ``fsmdial.eval: clemtodd``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

HELP = "clem:todd MultiWOZ booking tasks with a simulated user"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--data", metavar="DIR", help="the clem:todd copy (default: $FSMDIAL_CLEMTODD or ../shared/data/clemtodd)"
    )
    parser.add_argument("--split", choices=("test", "dev"), default="test")
    parser.add_argument("--understander", choices=("rules", "gguf"), default="rules")
    parser.add_argument("--model", metavar="PATH", help="GGUF model for --understander gguf")
    parser.add_argument("--backend", default=None, help="constrained-decoding backend for --understander gguf")
    parser.add_argument("--seed", type=int, default=0, help="seed of the simulated user's wording")
    parser.add_argument(
        "--corpus-rate",
        type=float,
        default=0.5,
        metavar="P",
        help="chance that the user says a fitting real MultiWOZ utterance instead of a template",
    )
    parser.add_argument("--limit", type=int, metavar="N", help="only the first N tasks")
    parser.add_argument("--tasks", nargs="+", metavar="FILE", help="only these tasks (e.g. SNG01936.json)")
    parser.add_argument("--out", metavar="FILE.json", help="write the full report (every dialogue) as JSON")
    parser.add_argument("--log", metavar="FILE.jsonl", help="append each task's result as it finishes")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    parser.add_argument(
        "--from-log",
        nargs="+",
        metavar="FILE.jsonl",
        help="run nothing: print the table of the tasks these --log files hold (a partial run)",
    )


def run(args: argparse.Namespace) -> int:
    from fsmdial.understand.factory import make_understander

    from ..clemtodd.runner import evaluate, format_table, load_tasks, report_from_logs
    from ..clemtodd.tools import default_data_dir

    if args.from_log:
        data = report_from_logs(args.from_log)
        data["settings"].update(understander=f"{args.understander} (from {len(args.from_log)} log file(s))")
        print(format_table(data))
        return 0
    if args.data is None:
        args.data = default_data_dir()  # looked up here: it imports the clem:todd tools, which --help need not
    if not args.data or not Path(args.data, "tasks").is_dir():
        print("error: no clem:todd copy found; pass --data DIR (with tasks/ and db/)", file=sys.stderr)
        return 2
    tasks = load_tasks(args.data, args.split)
    if args.tasks:
        tasks = [t for t in tasks if t.get("filename") in set(args.tasks)]
    if args.limit:
        tasks = tasks[: args.limit]
    try:
        understander = make_understander(args.understander, args.model, backend=args.backend)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    log = open(args.log, "a", encoding="utf-8") if args.log else None  # noqa: SIM115 - closed below

    def on_episode(episode: Any) -> None:
        if log is not None:
            log.write(json.dumps(episode.to_dict()) + "\n")
            log.flush()

    try:
        data = evaluate(
            tasks,
            args.data,
            understander=understander,
            seed=args.seed,
            progress=not args.no_progress,
            on_episode=on_episode,
            corpus_rate=args.corpus_rate,
        )
    finally:
        if log is not None:
            log.close()
    data["settings"].update(
        split=args.split, understander=args.understander, model=args.model, corpus_rate=args.corpus_rate
    )
    print(format_table(data))
    if args.out:
        Path(args.out).write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
        print(f"wrote {args.out}", file=sys.stderr)
    return 0
