"""``fsmdial eval star | messy | clemtodd | conversations | sgd | multiwoz``: the benchmarks of :mod:`fsmdial.eval`.

* ``star``: next-action prediction on STAR's dev split (:mod:`fsmdial.eval.star`);
* ``messy``: slot precision/recall on labelled messy utterances (:mod:`fsmdial.eval.messy`);
* ``clemtodd``: clem:todd's MultiWOZ booking tasks with a simulated user (:mod:`fsmdial.eval.clemtodd`).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

from ..eval.corpus import SPLITS, default_star_dir
from .common import Command, deferred, register_table


def _add_star(parser: argparse.ArgumentParser) -> None:
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


def _run_star(args: argparse.Namespace) -> int:
    from ..eval.corpus import read_dialogue, sample_paths, split_paths
    from ..eval.star import evaluate

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
    """The report as a plain-text table: overall, splits, per task, API calls."""
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
    return "\n".join(lines)


def _add_messy(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--data", metavar="FILE.json", help="the labelled cases (default: tests/data/messy_utterances.json)"
    )
    from ..understand.factory import add_model_arguments

    add_model_arguments(parser)
    parser.add_argument("--show", action="store_true", help="print every case's parse")
    parser.add_argument("--out", metavar="FILE.json", help="write the full report as JSON")


def _run_messy(args: argparse.Namespace) -> int:
    from ..eval.messy import DEFAULT_DATA, load_cases, score
    from ..understand.factory import understander_from_arguments
    from ..understand.rules import RulesUnderstander

    try:
        model = understander_from_arguments(args)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    understander = model or RulesUnderstander()  # scored directly, not through a Dialogue's default
    now, cases = load_cases(args.data or DEFAULT_DATA)
    started = time.perf_counter()
    report = score(understander, cases, now)
    report["seconds"] = round(time.perf_counter() - started, 1)
    report["settings"] = {"understander": args.understander, "model": args.model, "fast_path": not args.no_fast_path}
    if args.show:
        for case in report["details"]:
            print(f"{'ok ' if case['ok'] else 'BAD'} {case['id']:24s} {case['path']:5s} {json.dumps(case['parse'])}")
    print(
        f"{report['cases']} cases: slot precision {report['slot_precision']}, recall {report['slot_recall']}, "
        f"F1 {report['slot_f1']}; intent accuracy {report['intent_accuracy']}, answer accuracy "
        f"{report['answer_accuracy']}; cases exactly right {report['cases_exactly_right']} ({report['seconds']} s)"
    )
    if args.out:
        Path(args.out).write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    return 0


def _add_clemtodd(parser: argparse.ArgumentParser) -> None:
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


def _run_clemtodd(args: argparse.Namespace) -> int:
    from ..eval.clemtodd.runner import evaluate, format_table, load_tasks, report_from_logs
    from ..eval.clemtodd.tools import default_data_dir
    from ..understand.factory import make_understander

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


EVALS: dict[str, Command] = {
    "star": ("STAR next-action prediction and API calls", _add_star, _run_star),
    "messy": ("slot precision/recall on labelled messy utterances for the example flows", _add_messy, _run_messy),
    "clemtodd": ("clem:todd MultiWOZ booking tasks with a simulated user", _add_clemtodd, _run_clemtodd),
    "conversations": deferred(
        "customers' words suite: task success, wrong commits, slot errors by kind", "fsmdial.testing.suites"
    ),
    "sgd": deferred("SGD dialogue state tracking (official protocol and metrics)", "fsmdial.eval.sgd"),
    "multiwoz": deferred(
        "turn-level slot precision/recall on real MultiWOZ users' words (clem:todd corpususer)",
        "fsmdial.eval.multiwoz_turns",
    ),
}
"""Benchmark name -> (help, add its arguments, run it)."""


def register(subparsers: Any) -> None:
    register_table(subparsers, "eval", "evaluate the engine on a benchmark corpus", EVALS)
