"""``fsmdial eval messy``: slot precision/recall on labelled messy utterances (:mod:`fsmdial_eval.messy`).

A command of the harness, found by the engine's ``fsmdial`` through the entry point ``fsmdial.eval: messy``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

HELP = "slot precision/recall on labelled messy utterances for the example flows"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--data", metavar="FILE.json", help="the labelled cases (default: eval/tests/data/messy_utterances.json)"
    )
    from fsmdial.understand.factory import add_model_arguments

    add_model_arguments(parser)
    parser.add_argument("--show", action="store_true", help="print every case's parse")
    parser.add_argument("--out", metavar="FILE.json", help="write the full report as JSON")


def run(args: argparse.Namespace) -> int:
    from fsmdial.understand.factory import meaning_of, understander_from_arguments
    from fsmdial.understand.rules import RulesUnderstander

    from ..messy import DEFAULT_DATA, load_cases, score

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
    report["settings"] = {
        "understander": args.understander,
        "model": args.model,
        "meaning": meaning_of(model),
        "fast_path": not args.no_fast_path,
    }
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
