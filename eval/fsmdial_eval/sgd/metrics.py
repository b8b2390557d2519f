"""SGD's official dialogue state tracking metrics, per frame, and their aggregation.

Computed as google-research's ``schema_guided_dst/metrics.py`` and ``evaluate.py`` do
(fuzzy matching on, joint accuracy per frame, i.e. per service, not across a turn):

* a frame is one service of one user turn of the reference; every slot of the service's
  schema is scored: a slot absent from both states scores 1, present in one only 0, present
  in both: a categorical value is right when it equals the first reference value, a
  non-categorical one scores its best fuzzy match (0..1) against the reference values;
* **joint goal accuracy** of a frame is the product of all its slot scores (so a fuzzy
  match below 1 counts partly); **average goal accuracy** the mean over the slots present
  in the reference (no value when there are none); **active intent accuracy** 1 when the
  intents are equal; **requested slots F1** over the two lists (1 when both are empty);
* the fuzzy match is fuzzywuzzy's ``token_sort_ratio`` (the official script's): both
  strings made ASCII, every non-word character a space, lower case, tokens sorted, then the
  Indel similarity ratio (rapidfuzz's ``fuzz.ratio``) rounded to a whole percent;
* every metric is the plain mean of its frame values over a collection of frames: all
  services, seen services (named in the training schema), unseen services, each service.

Beside the official numbers, the same per-slot scores are grouped by slot type
(categorical, number, date, time, free text; see :func:`fsmdial_eval.importers.sgd.slot_kind`):
``average_goal_accuracy[type]`` over the reference's slots of that type and
``joint_goal_accuracy[type]`` over the frames whose service has slots of that type.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rapidfuzz import fuzz

ALL = "#ALL_SERVICES"
SEEN = "#SEEN_SERVICES"
UNSEEN = "#UNSEEN_SERVICES"

JGA = "joint_goal_accuracy"
AGA = "average_goal_accuracy"
INTENT = "active_intent_accuracy"
REQUESTED_F1 = "requested_slots_f1"
REQUESTED_P = "requested_slots_precision"
REQUESTED_R = "requested_slots_recall"

_NON_WORD = re.compile(r"\W+")


def _sorted_tokens(text: str) -> str:
    ascii_only = "".join(c for c in text if ord(c) < 128)
    return " ".join(sorted(_NON_WORD.sub(" ", ascii_only).lower().split()))


def fuzzy_match(reference: str, hypothesis: str) -> float:
    """fuzzywuzzy's ``token_sort_ratio(reference, hypothesis) / 100`` (a whole percent, 0.0 to 1.0)."""
    left, right = _sorted_tokens(reference), _sorted_tokens(hypothesis)
    if left == right:
        return 1.0
    if not left or not right:
        return 0.0
    return round(fuzz.ratio(left, right)) / 100.0


def noncategorical_match(references: Sequence[str], hypothesis: str) -> float:
    """The best fuzzy match of ``hypothesis`` against any of the reference values."""
    return max((fuzzy_match(ref, hypothesis) for ref in references), default=0.0)


def f1(reference: Iterable[str], hypothesis: Iterable[str]) -> tuple[float, float, float]:
    """(F1, precision, recall) of two lists, counted as multisets; an empty side scores 1."""
    ref, hyp = Counter(reference), Counter(hypothesis)
    true_positive = sum((ref & hyp).values())
    precision = true_positive / sum(hyp.values()) if hyp else 1.0
    recall = true_positive / sum(ref.values()) if ref else 1.0
    score = 2 * precision * recall / (precision + recall) if precision + recall > 0 else 0.0
    return score, precision, recall


@dataclass(frozen=True)
class SlotScore:
    slot: str
    kind: str
    """categorical, number, date, time or free text."""
    categorical: bool
    active: bool
    """The reference has a value."""
    score: float
    expected: tuple[str, ...]
    got: str | None


def slot_scores(
    reference: Mapping[str, Sequence[str]],
    hypothesis: Mapping[str, Sequence[str]],
    service: Mapping[str, Any],
    kinds: Mapping[str, str],
) -> list[SlotScore]:
    """One score per slot of ``service``'s schema (the official ``compare_slot_values``)."""
    out = []
    for slot in service["slots"]:
        name, categorical = slot["name"], bool(slot["is_categorical"])
        expected = tuple(reference.get(name) or ())
        got = hypothesis[name][0] if hypothesis.get(name) else None
        if name in reference:
            if got is None:
                score = 0.0
            elif categorical:
                score = float(expected[0] == got) if expected else 0.0
            else:
                score = noncategorical_match(expected, got)
        else:
            score = 0.0 if got is not None else 1.0
        out.append(
            SlotScore(
                name,
                kinds.get(name, "categorical" if categorical else "free text"),
                categorical,
                name in reference,
                score,
                expected,
                got,
            )
        )
    return out


def _product(values: Iterable[float]) -> float:
    result = 1.0
    for value in values:
        result *= value
    return result


def frame_metrics(
    reference: Mapping[str, Any], hypothesis: Mapping[str, Any], service: Mapping[str, Any], kinds: Mapping[str, str]
) -> tuple[dict[str, float], list[SlotScore]]:
    """The metrics of one frame (``reference`` and ``hypothesis`` are the frames' ``state`` objects)."""
    scores = slot_scores(reference["slot_values"], hypothesis["slot_values"], service, kinds)
    requested = f1(reference["requested_slots"], hypothesis["requested_slots"])
    values: dict[str, float] = {
        INTENT: float(reference["active_intent"] == hypothesis["active_intent"]),
        REQUESTED_F1: requested[0],
        REQUESTED_P: requested[1],
        REQUESTED_R: requested[2],
    }
    active = [s.score for s in scores if s.active]
    if active:
        values[AGA] = sum(active) / len(active)
    if scores:
        values[JGA] = _product(s.score for s in scores)
    for kind in {s.kind for s in scores}:
        of_kind = [s for s in scores if s.kind == kind]
        values[f"{JGA}[{kind}]"] = _product(s.score for s in of_kind)
        active_of_kind = [s.score for s in of_kind if s.active]
        if active_of_kind:
            values[f"{AGA}[{kind}]"] = sum(active_of_kind) / len(active_of_kind)
    return values, scores


@dataclass
class Collections:
    """Frame metric values per collection (all, seen, unseen, each service); means on demand."""

    values: dict[str, dict[str, list[float]]] = field(default_factory=lambda: defaultdict(lambda: defaultdict(list)))
    slot_values: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    """Per-slot scores over the reference's active slots, keyed ``service/slot``."""

    def add(self, service: str, seen: bool, frame: Mapping[str, float], scores: Sequence[SlotScore] = ()) -> None:
        for key in (ALL, SEEN if seen else UNSEEN, service):
            for metric, value in frame.items():
                self.values[key][metric].append(value)
        for score in scores:
            if score.active:
                self.slot_values[f"{service}/{score.slot}"].append(score.score)

    def merge(self, other: Collections) -> None:
        for key, metrics in other.values.items():
            for metric, values in metrics.items():
                self.values[key][metric].extend(values)
        for key, values in other.slot_values.items():
            self.slot_values[key].extend(values)

    def means(self) -> dict[str, dict[str, float]]:
        """Collection -> metric -> mean over its frames (with ``frames``: how many), in percent."""
        out: dict[str, dict[str, float]] = {}
        for key in sorted(self.values, key=lambda k: (not k.startswith("#"), k)):
            metrics = self.values[key]
            row = {metric: round(100 * sum(v) / len(v), 2) for metric, v in sorted(metrics.items()) if v}
            row["frames"] = len(metrics.get(INTENT, ()))
            out[key] = row
        return out
