"""Classification and tool-call metrics, computed the way the STAR papers report them.

:func:`weighted_f1` follows scikit-learn's ``f1_score(average="weighted")``:
per-label F1 over the labels seen in either the gold or the predicted
sequence, averaged with each label's gold support as its weight (labels
never in the gold get weight 0; a label never predicted has precision 0).
Implemented here so evaluation needs no scikit-learn.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class LabelScore:
    label: str
    precision: float
    recall: float
    f1: float
    support: int


def per_label(gold: Sequence[str], pred: Sequence[str]) -> list[LabelScore]:
    """Precision, recall, F1 and gold support of every label in ``gold`` or ``pred`` (sorted by label)."""
    if len(gold) != len(pred):
        raise ValueError(f"{len(gold)} gold labels but {len(pred)} predictions")
    true_pos: Counter[str] = Counter(g for g, p in zip(gold, pred, strict=True) if g == p)
    gold_count: Counter[str] = Counter(gold)
    pred_count: Counter[str] = Counter(pred)
    scores = []
    for label in sorted(set(gold_count) | set(pred_count)):
        tp = true_pos[label]
        precision = tp / pred_count[label] if pred_count[label] else 0.0
        recall = tp / gold_count[label] if gold_count[label] else 0.0
        f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
        scores.append(LabelScore(label, precision, recall, f1, gold_count[label]))
    return scores


def weighted_f1(gold: Sequence[str], pred: Sequence[str]) -> float:
    """Support-weighted mean of per-label F1, in [0, 1] (0 for empty input)."""
    if not gold:
        return 0.0
    scores = per_label(gold, pred)
    return sum(s.f1 * s.support for s in scores) / len(gold)


def accuracy(gold: Sequence[str], pred: Sequence[str]) -> float:
    if len(gold) != len(pred):
        raise ValueError(f"{len(gold)} gold labels but {len(pred)} predictions")
    return sum(g == p for g, p in zip(gold, pred, strict=True)) / len(gold) if gold else 0.0


def summary(gold: Sequence[str], pred: Sequence[str]) -> dict[str, Any]:
    """``{"weighted_f1", "accuracy", "n"}`` with scores in percent."""
    return {
        "weighted_f1": round(100 * weighted_f1(gold, pred), 2),
        "accuracy": round(100 * accuracy(gold, pred), 2),
        "n": len(gold),
    }


@dataclass
class CallTally:
    """Tool calls against gold API calls.

    ``made``: calls the engine made; ``correct``: those that match a gold call
    (same API and request type, same stretch of dialogue); ``gold``: gold
    calls; ``found``: gold calls some engine call matched; ``exact``: correct
    calls whose arguments equal the gold constraints; ``valid``: calls whose
    arguments fit the API's input schema; ``repeated``: calls with the same
    name and arguments as an earlier call of the same dialogue (see
    :func:`repeated_calls`).
    """

    made: int = 0
    correct: int = 0
    gold: int = 0
    found: int = 0
    exact: int = 0
    valid: int = 0
    repeated: int = 0
    problems: Counter[str] = field(default_factory=Counter)
    differences: Counter[str] = field(default_factory=Counter)
    """``"api.argument: extra|missing|other value"`` -> how many correct calls differ from the gold call so."""
    different_values: list[tuple[str, str, str | None, str | None]] = field(default_factory=list)
    """``(where, api.argument, engine value, gold value)`` of each argument that differs (None: not given),
    to read what was misunderstood."""
    missed: Counter[str] = field(default_factory=Counter)
    """API name -> gold calls of it that no engine call matched."""

    def add(self, other: CallTally) -> None:
        for name in ("made", "correct", "gold", "found", "exact", "valid", "repeated"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.problems.update(other.problems)
        self.differences.update(other.differences)
        self.different_values += other.different_values
        self.missed.update(other.missed)

    def note_difference(self, where: str, api: str, engine: Mapping[str, str], gold: Mapping[str, str]) -> None:
        """Count how a correct call's arguments differ from the gold call's, one entry per argument."""
        for name in sorted(engine.keys() | gold.keys()):
            if engine.get(name) == gold.get(name):
                continue
            how = "extra" if name not in gold else "missing" if name not in engine else "other value"
            self.differences[f"{api}.{name}: {how}"] += 1
            self.different_values.append((where, f"{api}.{name}", engine.get(name), gold.get(name)))

    def report(self) -> dict[str, Any]:
        pct = lambda a, b: round(100 * a / b, 2) if b else None  # noqa: E731
        return {
            "precision": pct(self.correct, self.made),
            "recall": pct(self.found, self.gold),
            "args_exact": pct(self.exact, self.correct),
            "schema_valid": pct(self.valid, self.made),
            "calls_made": self.made,
            "gold_calls": self.gold,
            "repeated_calls": self.repeated,
        }


def repeated_calls(calls: Iterable[tuple[str, Mapping[str, Any]]]) -> int:
    """How many of ``calls`` (name, arguments) repeat an earlier one with unchanged name and arguments."""
    seen: set[str] = set()
    repeated = 0
    for name, arguments in calls:
        key = json.dumps([name, arguments], sort_keys=True, default=str)
        if key in seen:
            repeated += 1
        seen.add(key)
    return repeated
