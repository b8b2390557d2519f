"""``fsmdial eval star``: next-action prediction on STAR's dev split (:mod:`fsmdial_eval.star`).

A command of the harness: the engine's ``fsmdial`` finds it through the entry point ``fsmdial.eval: star``
(eval/pyproject.toml) and calls :func:`add_arguments` and :func:`run`.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

from ..corpus import SPLITS, default_star_dir

HELP = "STAR next-action prediction and API calls"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--data",
        metavar="DIR",
        default=default_star_dir(),
        help="the STAR copy (default: $FSMDIAL_STAR or ../shared/data/star)",
    )
    parser.add_argument(
        "--tasks",
        nargs="+",
        metavar="TASK",
        help="only dialogues whose tasks are all among these (default: every task)",
    )
    parser.add_argument("--understander", choices=("oracle", "rules", "gguf"), default="rules")
    parser.add_argument("--model", metavar="PATH", help="GGUF model for --understander gguf")
    parser.add_argument("--out", metavar="FILE.json", help="write the full report as JSON")
    parser.add_argument("--no-overlays", action="store_true", help="import the tasks without the hand corrections")
    parser.add_argument(
        "--split",
        choices=SPLITS,
        default="dev",
        help="dev: ids not a multiple of 5 (default); test: the multiples of 5; all",
    )
    parser.add_argument(
        "--sample", type=int, metavar="N", help="a random sample of N dialogues of the split (see --seed)"
    )
    parser.add_argument("--limit", type=int, metavar="N", help="only the first N dialogues (quick looks)")
    parser.add_argument("--workers", type=int, default=min(2, os.cpu_count() or 1), help="processes (default: 2)")
    parser.add_argument("--seed", type=int, default=0, help="seed of --sample and of the API simulator's tables")
    parser.add_argument("--no-fast-path", action="store_true", help="gguf: ask the model on every turn")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")


def run(args: argparse.Namespace) -> int:
    from ..corpus import read_dialogue, sample_paths, split_paths
    from ..star import evaluate

    if not args.data or not Path(args.data, "dialogues").is_dir():
        print(
            "error: no STAR copy found; pass --data DIR (a directory with dialogues/, tasks/, apis/)", file=sys.stderr
        )
        return 2
    paths = split_paths(args.data, args.split)
    if args.tasks:
        wanted = set(args.tasks)
        paths = [p for p in paths if set(read_dialogue(p).tasks) <= wanted]
    if args.sample:
        paths = sample_paths(paths, args.sample, args.seed)
    if args.limit:
        paths = paths[: args.limit]
    if not paths:
        rule = {"dev": "ids not a multiple of 5", "test": "ids that are multiples of 5", "all": "any id"}[args.split]
        print(
            f"error: no dialogue to evaluate: {Path(args.data, 'dialogues')} has none of the {args.split} split "
            f"({rule}){' among the tasks asked for' if args.tasks else ''}",
            file=sys.stderr,
        )
        return 2
    if args.no_fast_path:
        os.environ["FSMDIAL_FAST_PATH"] = "0"
    started = time.perf_counter()
    try:
        report = evaluate(
            args.data,
            paths,
            kind=args.understander,
            model=args.model,
            overlays=not args.no_overlays,
            tasks=args.tasks,
            workers=args.workers,
            seed=args.seed,
            progress=not args.no_progress,
        )
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    data = report.to_dict()
    data["settings"]["seconds"] = round(time.perf_counter() - started, 1)
    sample = f", sample of {args.sample} with seed {args.seed}" if args.sample else ""
    data["settings"]["split"] = f"{args.split}: {len(paths)} dialogues{sample}"
    data["settings"]["model"] = args.model
    print(format_table(data))
    if args.out:
        Path(args.out).write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
        print(f"wrote {args.out}", file=sys.stderr)
    return 0


def format_table(data: dict[str, Any]) -> str:
    """The report as a plain-text table: overall, splits, per task, API calls, the turns with a model call."""
    from fsmdial.testing.suites import model_turns_line  # the parser is built without the engine's testing kit

    settings = data["settings"]
    lines = [
        f"STAR next-action prediction ({settings['understander']} understander, "
        f"{'with' if settings['overlays'] else 'without'} overlays, {settings.get('split', '')}, "
        f"{settings.get('seconds', '?')} s)",
        "",
        f"{'':28s} {'weighted F1':>11s} {'accuracy':>9s} {'n':>7s}",
    ]

    def row(name: str, score: dict[str, Any]) -> None:
        lines.append(f"{name:28s} {score['weighted_f1']:11.2f} {score['accuracy']:9.2f} {score['n']:7d}")

    row("overall", data["overall"])
    for name in ("single", "multi", "happy", "unhappy"):
        if name in data["splits"]:
            row(f"  {name}", data["splits"][name])
    lines.append("")
    for task, score in data["per_task"].items():
        row(task, score)
    api = data["api"]
    fmt = lambda v: "-" if v is None else f"{v:.2f}"  # noqa: E731
    lines += [
        "",
        f"API calls: precision {fmt(api['precision'])}, recall {fmt(api['recall'])}, "
        f"argument exact match {fmt(api['args_exact'])}, schema-valid {fmt(api['schema_valid'])} "
        f"({api['calls_made']} made, {api['gold_calls']} gold), repeated calls with unchanged arguments "
        f"{api.get('repeated_calls', 0)}",
        f"turns that failed (counted as no prediction): {data['turn_errors']}",
    ]
    if "model_turns" in data:  # reports written before it was counted
        lines.append(model_turns_line(data["model_turns"]))
    return "\n".join(lines)
