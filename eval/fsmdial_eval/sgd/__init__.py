"""``fsmdial eval sgd``: dialogue state tracking on the Schema-Guided Dialogue corpus (SGD).

* :mod:`.tracking` — fsmdial as a state tracker: a session per service, driven by the corpus' turns;
* :mod:`.metrics` — the official metrics (joint and average goal accuracy, intent accuracy,
  requested slots F1) per frame, and their means over all / seen / unseen services;
* :mod:`.evaluation` — a split run and scored: the report, the predictions in SGD's format.

:func:`add_arguments` and :func:`run` are the command (its arguments, running it).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

HELP = "SGD dialogue state tracking (official protocol and metrics)"
"""What ``fsmdial eval --help`` says of the command."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--data",
        metavar="DIR",
        default=os.environ.get("FSMDIAL_SGD", "../shared/data/sgd"),
        help="SGD laid out as the dataset: DIR/SPLIT/schema.json, DIR/SPLIT/dialogues_*.json, "
        "DIR/train/schema.json (default: $FSMDIAL_SGD or ../shared/data/sgd)",
    )
    parser.add_argument("--split", choices=("dev", "test"), default="dev")
    parser.add_argument("--understander", choices=("rules", "gguf", "meaning"), default="rules")
    parser.add_argument("--model", metavar="PATH", help="GGUF model for --understander gguf")
    parser.add_argument("--sample", type=int, metavar="N", help="a seeded random sample of N dialogues (see --seed)")
    parser.add_argument("--seed", type=int, default=0, help="seed of --sample and of the sample of misses")
    parser.add_argument(
        "--services", nargs="+", metavar="NAME", help="only dialogues whose services are all among these"
    )
    parser.add_argument(
        "--teacher-forced",
        action="store_true",
        help="diagnostic: the previous gold state as the session's slots before each user turn",
    )
    parser.add_argument("--out", metavar="FILE.json", help="write the full report as JSON")
    parser.add_argument("--predictions", metavar="DIR", help="write the predicted dialogues in SGD's format")
    parser.add_argument(
        "--workers", type=int, default=min(2, os.cpu_count() or 1), help="processes for rules (default: 2)"
    )
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")


def run(args: argparse.Namespace) -> int:
    from .evaluation import Split, evaluate, format_table, read_dialogues, select

    if args.understander == "gguf" and not args.model:
        print("error: --understander gguf needs --model PATH", file=sys.stderr)
        return 2
    try:
        split = Split.read(args.data, args.split)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    dialogues = select(read_dialogues(split.files), services=args.services, sample=args.sample, seed=args.seed)
    if not dialogues:
        print(f"error: no dialogue of {split.directory / split.name} has only the services asked for", file=sys.stderr)
        return 2
    started = time.perf_counter()
    report = evaluate(
        split,
        dialogues,
        kind=args.understander,
        model=args.model,
        teacher_forced=args.teacher_forced,
        workers=args.workers,
        seed=args.seed,
        predictions=args.predictions,
        progress=not args.no_progress,
    )
    report["settings"]["seconds"] = round(time.perf_counter() - started, 1)
    report["settings"]["sample"] = args.sample
    report["settings"]["services"] = args.services or "all"
    print(format_table(report))
    if args.out:
        Path(args.out).write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
        print(f"wrote {args.out}", file=sys.stderr)
    return 0
