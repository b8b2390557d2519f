"""A split of SGD through fsmdial, scored with the official metrics: the report and the predictions."""

from __future__ import annotations

import json
import os
import random
from collections import defaultdict
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fsmdial.testing.suites import model_turn_share, model_turns_line
from fsmdial.understand.factory import meaning_for
from fsmdial.userfiles import MAX_CORPUS_BYTES, read_json

from .metrics import AGA, ALL, INTENT, JGA, REQUESTED_F1, SEEN, UNSEEN, Collections, frame_metrics
from .tracking import Service, Tracked, build_services, read_dialogues, track_dialogue

UNDERSTANDERS = ("rules", "gguf", "meaning")
MISSES_KEPT = 60
OFFICIAL = "official: fsmdial's own state, carried from its own earlier turns; the gold state is never an input"
TEACHER_FORCED = (
    "teacher_forced (diagnostic, not comparable with published figures): the previous gold state "
    "is the session's slots before each user turn"
)


@dataclass
class Split:
    """The data of one split: schemas, the seen services, the dialogue files."""

    directory: Path
    name: str
    schema: list[dict[str, Any]]
    seen: set[str]
    files: list[Path]

    @classmethod
    def read(cls, data: str | Path, name: str) -> Split:
        directory = Path(data)
        schema_path, train_path = directory / name / "schema.json", directory / "train" / "schema.json"
        for path in (schema_path, train_path):
            if not path.is_file():
                raise ValueError(
                    f"{path} not found: --data must hold {name}/schema.json, {name}/dialogues_*.json "
                    "and train/schema.json (the SGD layout)"
                )
        files = sorted((directory / name).glob("dialogues_*.json"))
        if not files:
            raise ValueError(f"no dialogues_*.json in {directory / name}")
        schema = read_json(schema_path, limit=MAX_CORPUS_BYTES)
        train = read_json(train_path, limit=MAX_CORPUS_BYTES)
        return cls(directory, name, schema, {s["service_name"] for s in train}, files)


def select(
    dialogues: list[tuple[str, dict[str, Any]]],
    *,
    services: list[str] | None = None,
    sample: int | None = None,
    seed: int = 0,
) -> list[tuple[str, dict[str, Any]]]:
    """The dialogues whose services are all among ``services`` (when given), then a seeded sample of ``sample``."""
    if services:
        wanted = set(services)
        dialogues = [(f, d) for f, d in dialogues if set(d["services"]) <= wanted]
    if sample is not None and sample < len(dialogues):
        chosen = set(random.Random(seed).sample(range(len(dialogues)), sample))
        dialogues = [item for i, item in enumerate(dialogues) if i in chosen]
    return dialogues


@dataclass
class Scores:
    """Frame metrics over many dialogues, and a seeded sample of the slots scored below 1."""

    seed: int = 0
    collections: Collections = field(default_factory=Collections)
    misses: list[dict[str, Any]] = field(default_factory=list)
    missed: int = 0
    _random: random.Random = field(init=False)

    def __post_init__(self) -> None:
        self._random = random.Random(self.seed)

    def add(self, reference: Mapping[str, Any], predicted: Mapping[str, Any], services: Mapping[str, Service]) -> None:
        """Score ``predicted`` (a dialogue with fsmdial's states) against ``reference`` frame by frame."""
        for index, (ref_turn, hyp_turn) in enumerate(zip(reference["turns"], predicted["turns"], strict=True)):
            if ref_turn["speaker"] != "USER":
                continue
            hyp_frames = {f["service"]: f for f in hyp_turn["frames"]}
            for frame in ref_turn["frames"]:
                service = services.get(frame["service"])
                if service is None:
                    continue
                hyp = hyp_frames[frame["service"]]["state"]
                values, scores = frame_metrics(frame["state"], hyp, service.schema, service.kinds)
                self.collections.add(service.name, service.seen, values, scores)
                for score in scores:
                    if score.score < 1.0:
                        self._keep(
                            {
                                "dialogue": reference["dialogue_id"],
                                "turn": index,
                                "text": ref_turn["utterance"],
                                "service": service.name,
                                "slot": score.slot,
                                "type": score.kind,
                                "expected": list(score.expected),
                                "got": score.got,
                                "score": score.score,
                            }
                        )
                if values[INTENT] < 1.0:
                    self._keep(
                        {
                            "dialogue": reference["dialogue_id"],
                            "turn": index,
                            "text": ref_turn["utterance"],
                            "service": service.name,
                            "slot": "active_intent",
                            "type": "intent",
                            "expected": [frame["state"]["active_intent"]],
                            "got": hyp["active_intent"],
                            "score": 0.0,
                        }
                    )

    def _keep(self, miss: dict[str, Any]) -> None:
        """Reservoir sampling: every miss has the same chance of being among the kept ones."""
        self.missed += 1
        if len(self.misses) < MISSES_KEPT:
            self.misses.append(miss)
        else:
            slot = self._random.randrange(self.missed)
            if slot < MISSES_KEPT:
                self.misses[slot] = miss

    def report(self) -> dict[str, Any]:
        means = self.collections.means()
        overall = means.get(ALL, {})
        official = (JGA, AGA, INTENT, REQUESTED_F1)
        per_type: dict[str, dict[str, float]] = defaultdict(dict)
        for key, value in overall.items():
            if key.endswith("]"):
                metric, kind = key[:-1].split("[")
                per_type[kind][metric] = value
        services = {
            k: {m: v for m, v in row.items() if m in official or m == "frames"}
            for k, row in means.items()
            if not k.startswith("#")
        }
        slots = {k: round(100 * sum(v) / len(v), 2) for k, v in sorted(self.collections.slot_values.items())}
        return {
            "metrics": {
                k: {m: v for m, v in means[k].items() if m in official or m == "frames" or m.startswith("requested")}
                for k in (ALL, SEEN, UNSEEN)
                if k in means
            },
            "per_slot_type": dict(sorted(per_type.items())),
            "per_service": services,
            "per_slot_average_accuracy": slots,
            "misses": {"slots_and_intents_scored_below_1": self.missed, "sample": self.misses},
        }


# ------------------------------------------------------------------ running a split

_WORKER: dict[str, Any] = {}


def _init_worker(
    schema: list[dict[str, Any]], seen: set[str], kind: str, model: str | None, teacher_forced: bool
) -> None:
    from ..star import make_inner_understander

    _WORKER["services"] = build_services(schema, seen)
    _WORKER["understander"] = make_inner_understander(kind, model)
    _WORKER["teacher_forced"] = teacher_forced


def _track(dialogue: dict[str, Any]) -> Tracked:
    return track_dialogue(
        dialogue, _WORKER["services"], _WORKER["understander"], teacher_forced=_WORKER["teacher_forced"]
    )


def _tracked(dialogues: list[dict[str, Any]], args: tuple[Any, ...], workers: int) -> Iterator[Tracked]:
    if workers > 1 and args[2] != "gguf":
        import multiprocessing

        with multiprocessing.get_context("fork").Pool(workers, initializer=_init_worker, initargs=args) as pool:
            yield from pool.imap(_track, dialogues, chunksize=8)
    else:
        _init_worker(*args)
        yield from map(_track, dialogues)


def evaluate(
    split: Split,
    dialogues: list[tuple[str, dict[str, Any]]],
    *,
    kind: str = "rules",
    model: str | None = None,
    teacher_forced: bool = False,
    workers: int = 1,
    seed: int = 0,
    predictions: str | Path | None = None,
    progress: bool = False,
) -> dict[str, Any]:
    """Track ``dialogues`` (from :func:`read_dialogues`) with fsmdial and score them; the report as a dict.

    ``predictions``: a directory to write the predicted dialogues into, one file per source file,
    in SGD's format (each user frame's ``state`` is fsmdial's), for the official script.
    """
    from tqdm import tqdm

    if kind not in UNDERSTANDERS:
        raise ValueError(f"unknown understander {kind!r} (choose from {', '.join(UNDERSTANDERS)})")
    services = build_services(split.schema, split.seen)
    scores = Scores(seed)
    written: dict[str, list[dict[str, Any]]] = defaultdict(list)
    errors = model_calls = turns = model_turns = 0
    label = "SGD teacher-forced" if teacher_forced else "SGD"
    bar = tqdm(total=len(dialogues), desc=f"{label} {kind}", unit="dlg", disable=not progress, leave=False)
    args = (split.schema, split.seen, kind, model, teacher_forced)
    for (name, reference), tracked in zip(dialogues, _tracked([d for _, d in dialogues], args, workers), strict=True):
        scores.add(reference, tracked.dialogue, services)
        errors += tracked.errors
        model_calls += tracked.model_calls
        turns += tracked.turns
        model_turns += tracked.model_turns
        if predictions is not None:
            written[name].append(tracked.dialogue)
        bar.update()
    bar.close()
    if predictions is not None:
        out = Path(predictions)
        out.mkdir(parents=True, exist_ok=True)
        for name, items in written.items():
            (out / name).write_text(json.dumps(items, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    report = {"protocol": TEACHER_FORCED if teacher_forced else OFFICIAL, **scores.report()}
    report["turn_errors"] = errors
    report["model_calls"] = model_calls
    report["model_turns"] = model_turn_share(turns, model_turns)
    report["dialogues"] = len(dialogues)
    report["settings"] = {
        "split": split.name,
        "data": str(split.directory),
        "understander": kind,
        "meaning": meaning_for(kind, os.environ.get("FSMDIAL_MEANING") or None),
        "model": model,
        "teacher_forced": teacher_forced,
        "seed": seed,
        "seen_services": sorted(s for s in services if services[s].seen),
        "unseen_services": sorted(s for s in services if not services[s].seen),
    }
    return report


def format_table(report: dict[str, Any]) -> str:
    """The report as plain text: the official metrics over all/seen/unseen services, per type, per service."""
    s = report["settings"]
    lines = [
        f"SGD {s['split']} dialogue state tracking ({s['understander']}, {report['dialogues']} dialogues, "
        f"{s.get('seconds', '?')} s)",
        f"protocol: {report['protocol']}",
        "",
        f"{'':22s} {'JGA':>7s} {'avg GA':>7s} {'intent':>7s} {'req F1':>7s} {'frames':>7s}",
    ]

    def row(name: str, values: Mapping[str, float]) -> None:
        cells = [values.get(m) for m in (JGA, AGA, INTENT, REQUESTED_F1)]
        text = " ".join(f"{v:7.2f}" if v is not None else f"{'-':>7s}" for v in cells)
        lines.append(f"{name:22s} {text} {int(values.get('frames', 0)):7d}")

    for key, values in report["metrics"].items():
        row(key.strip("#").lower().replace("_", " "), values)
    lines += ["", f"{'slot type':22s} {'JGA':>7s} {'avg GA':>7s}"]
    for kind, values in report["per_slot_type"].items():
        jga, aga = values.get(JGA), values.get(AGA)
        lines.append(f"{kind:22s} {jga if jga is not None else '-':>7} {aga if aga is not None else '-':>7}")
    lines.append("")
    for name, values in report["per_service"].items():
        row(name, values)
    lines.append(
        f"\nturns that failed (state kept as before): {report['turn_errors']}; model calls: {report['model_calls']}"
    )
    lines.append(model_turns_line(report["model_turns"]))
    return "\n".join(lines)


__all__ = ["Split", "evaluate", "format_table", "read_dialogues", "select"]
