"""The floor and margin of the engine's meaning chooser, measured on the meaning probe (real SGD dev turns).

Each probe item (:mod:`fsmdial_eval.meaning_probe`: 150 intents and 150 categorical values the message has no
literal words for) is put to the engine's own chooser, exactly as a turn would: the item's understanding state,
the options :mod:`fsmdial.understand.meaning.options` makes of it (an intent by its examples; a value by itself,
its described synonyms and "<what the slot is>: <value>"), the numpy all-MiniLM-L6-v2 encoder. For each pair of
thresholds the sweep reports the **coverage** (the share of items where the chooser takes its best option: its
cosine reaches the floor and beats the runner-up by the margin) and the **precision** (the share of those taken
that are right). A wrong value committed after a "yes" is the worst outcome, so the engine's thresholds
(:data:`fsmdial.understand.meaning.chooser.FLOOR`, :data:`~fsmdial.understand.meaning.chooser.MARGIN`) are chosen
for precision.

    python -m fsmdial_eval.meaning_sweep [--model minilm|FOLDER] [--read message|open] [--out SCORES.json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .meaning_probe import read_probe, understanding_state

FLOORS = (0.0, 0.2, 0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6)
MARGINS = (0.0, 0.02, 0.04, 0.06, 0.08, 0.1, 0.12, 0.15, 0.2)


def score_items(model: str, items: Sequence[dict[str, Any]], *, read: str = "message") -> list[dict[str, Any]]:
    """Each item's best option, its cosine and margin, whether it is the gold, and the CPU ms of the choice.

    ``read``: what is encoded, the whole ``message`` (what the engine does) or only its ``open`` part (the words the
    rules' reading leaves open, in order; the message when none is)."""
    from fsmdial.understand.meaning.options import intent_options, value_options
    from fsmdial.understand.meaning.understander import load_chooser
    from fsmdial.understand.rules import RulesUnderstander

    chooser = load_chooser(model)
    rules = RulesUnderstander()
    rows = []
    for item in items:
        state = understanding_state(item)
        options = value_options(state) if item["kind"] == "value" else intent_options(state)
        chooser.vectors([text for option in options for text in option.texts])  # a flow's options: at load
        text = item["text"]
        if read == "open":
            text = " ".join(rules.understand(state, text).info.get("open", ())) or text
        started = time.process_time()
        scored = chooser.scores(text, options)
        cpu_ms = 1000 * (time.process_time() - started)
        assert scored.best is not None
        rows.append(
            {
                "id": item["id"],
                "kind": item["kind"],
                "gold": item["gold"],
                "best": scored.best[0].name,
                "cosine": scored.best[1],
                "margin": scored.margin,
                "right": scored.best[0].name == item["gold"],
                "cpu_ms": cpu_ms,
            }
        )
    return rows


def curve(rows: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Coverage and precision of every (floor, margin) pair of :data:`FLOORS` x :data:`MARGINS`."""
    from fsmdial.understand.meaning.chooser import clears

    out = []
    for floor in FLOORS:
        for margin in MARGINS:
            taken = [row for row in rows if clears(row["cosine"], row["margin"], floor, margin)]
            right = sum(row["right"] for row in taken)
            out.append(
                {
                    "floor": floor,
                    "margin": margin,
                    "taken": len(taken),
                    "right": right,
                    "wrong": len(taken) - right,
                    "coverage": 100 * len(taken) / len(rows) if rows else 0.0,
                    "precision": 100 * right / len(taken) if taken else 100.0,
                }
            )
    return out


def format_curve(rows: Sequence[dict[str, Any]]) -> str:
    """Precision / coverage (%) per floor (rows) and margin (columns), for all items and per kind."""
    lines = []
    for kind in ("all", "intent", "value"):
        part = [row for row in rows if kind == "all" or row["kind"] == kind]
        points = {(p["floor"], p["margin"]): p for p in curve(part)}
        lines.append(f"\n{kind} ({len(part)} items): precision / coverage, % (floor down, margin across)")
        lines.append("| floor | " + " | ".join(f"m {m:.2f}" for m in MARGINS) + " |")
        lines.append("|---|" + "---:|" * len(MARGINS))
        for floor in FLOORS:
            cells = [points[(floor, m)] for m in MARGINS]
            lines.append(
                f"| {floor:.2f} | " + " | ".join(f"{c['precision']:.1f} / {c['coverage']:.1f}" for c in cells) + " |"
            )
    cpu = [row["cpu_ms"] for row in rows]
    lines.append(f"\nCPU ms per choice (the message encoded and compared): p50 {statistics.median(cpu):.1f}")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m fsmdial_eval.meaning_sweep", description=__doc__.split("\n")[0])
    parser.add_argument("--model", default="minilm", help="the embedding model: minilm (fetched) or a folder")
    parser.add_argument("--probe", default=None, help="the probe (default: the shipped one)")
    parser.add_argument("--out", default=None, help="also write every item's scores here (JSON)")
    parser.add_argument(
        "--read", choices=("message", "open"), default="message", help="encode the whole message or its open part"
    )
    args = parser.parse_args(argv)
    items = read_probe(args.probe) if args.probe else read_probe()
    rows = score_items(args.model, items, read=args.read)
    if args.out:
        Path(args.out).write_text(json.dumps(rows, indent=1) + "\n", encoding="utf-8")
    print(format_curve(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
