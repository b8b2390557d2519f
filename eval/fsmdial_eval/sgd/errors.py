"""Where the state tracking loses frames: the slots wrong in the frames that fail, by slot type, by slot and by service.

``python -m fsmdial_eval.sgd.errors PREDICTIONS_DIR DATA_DIR/SPLIT [--top N] [--new]`` reads the predictions
``fsmdial eval sgd --predictions`` wrote and the split's gold dialogues, scores every frame as the official script does
(:func:`~fsmdial_eval.sgd.metrics.slot_scores`) and counts each slot scored below 1 in a failed frame as missed (the
reference has a value, fsmdial none), wrong (both have one) or extra (fsmdial has one, the reference none). ``--new``
counts a slot only in the turn its reference value or fsmdial's value changed: a reading's own errors, not the ones
carried on from an earlier turn.
"""

from __future__ import annotations

import argparse
from collections import Counter
from pathlib import Path
from typing import Any

from fsmdial.userfiles import MAX_CORPUS_BYTES, read_json

from ..importers.sgd import slot_kind
from .metrics import slot_scores


def error_counts(predictions: Path, gold: Path, *, new_only: bool = False) -> dict[str, Counter[tuple[str, ...]]]:
    """Counters of (kind, class), (slot, class) and (service, slot, class) over the failed frames; and frames."""
    schema = {service["service_name"]: service for service in read_json(gold / "schema.json", limit=MAX_CORPUS_BYTES)}
    kinds = {name: {slot["name"]: slot_kind(slot) for slot in service["slots"]} for name, service in schema.items()}
    out: dict[str, Counter[tuple[str, ...]]] = {"kind": Counter(), "slot": Counter(), "service": Counter()}
    out["frames"] = Counter()
    for path in sorted(predictions.glob("dialogues_*.json")):
        reference = {d["dialogue_id"]: d for d in read_json(gold / path.name, limit=MAX_CORPUS_BYTES)}
        for predicted in read_json(path, limit=MAX_CORPUS_BYTES):
            _count(reference[predicted["dialogue_id"]], predicted, schema, kinds, out, new_only)
    return out


def _count(
    reference: dict[str, Any],
    predicted: dict[str, Any],
    schema: dict[str, Any],
    kinds: dict[str, dict[str, str]],
    out: dict[str, Counter[tuple[str, ...]]],
    new_only: bool,
) -> None:
    before: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {}
    for gold_turn, turn in zip(reference["turns"], predicted["turns"], strict=True):
        if gold_turn["speaker"] != "USER":
            continue
        ours = {frame["service"]: frame["state"]["slot_values"] for frame in turn["frames"]}
        for frame in gold_turn["frames"]:
            service = frame["service"]
            if service not in schema:
                continue
            gold, hyp = frame["state"]["slot_values"], ours.get(service, {})
            scores = [s for s in slot_scores(gold, hyp, schema[service], kinds[service]) if s.score < 1.0]
            out["frames"][("all",)] += 1
            out["frames"][("failed",)] += bool(scores)
            gold_before, hyp_before = before.get(service, ({}, {}))
            for score in scores:
                if (
                    new_only
                    and gold.get(score.slot) == gold_before.get(score.slot)
                    and hyp.get(score.slot) == hyp_before.get(score.slot)
                ):
                    continue
                kind = "missed" if score.got is None else "wrong" if score.active else "extra"
                out["kind"][(score.kind, kind)] += 1
                out["slot"][(score.slot, kind)] += 1
                out["service"][(service, score.slot, kind)] += 1
            before[service] = (gold, hyp)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m fsmdial_eval.sgd.errors", description=__doc__)
    parser.add_argument("predictions", type=Path, help="the directory fsmdial eval sgd --predictions wrote")
    parser.add_argument("gold", type=Path, help="the split's directory (DATA/dev): schema.json, dialogues_*.json")
    parser.add_argument("--top", type=int, default=25, help="rows of the slot and service tables")
    parser.add_argument("--new", action="store_true", help="only the turn a value changed (no carried errors)")
    args = parser.parse_args(argv)
    counts = error_counts(args.predictions, args.gold, new_only=args.new)
    frames, failed = counts["frames"][("all",)], counts["frames"][("failed",)]
    print(f"frames {frames}, failed {failed} ({100 * failed / max(frames, 1):.2f} %)")
    for title, table, top in (
        ("slot type", "kind", None),
        ("slot", "slot", args.top),
        ("service", "service", args.top),
    ):
        print(f"\n{title}: missed / wrong / extra in failed frames")
        for key, count in counts[table].most_common(top):
            print("  " + "  ".join(f"{part:24}" for part in key) + f"{count:>7}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
