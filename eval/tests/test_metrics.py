"""The metrics, pinned on hand-computed values (scikit-learn's weighted F1 definition)."""

from __future__ import annotations

import pytest

from fsmdial_eval.metrics import CallTally, accuracy, per_label, summary, weighted_f1


def test_weighted_f1_by_hand():
    gold = ["a", "a", "b", "c"]
    pred = ["a", "b", "b", "a"]
    # a: tp 1, predicted 2, gold 2 -> P 1/2, R 1/2, F1 1/2
    # b: tp 1, predicted 2, gold 1 -> P 1/2, R 1,   F1 2/3
    # c: tp 0                      -> F1 0
    # weighted by gold support: (2 * 1/2 + 1 * 2/3 + 1 * 0) / 4 = 5/12
    assert weighted_f1(gold, pred) == pytest.approx(5 / 12)
    assert accuracy(gold, pred) == pytest.approx(2 / 4)
    scores = {s.label: s for s in per_label(gold, pred)}
    assert (scores["b"].precision, scores["b"].recall, scores["b"].support) == (0.5, 1.0, 1)
    assert scores["c"].f1 == 0.0


def test_a_label_only_predicted_lowers_precision_but_has_no_weight():
    gold = ["x", "x", "y"]
    pred = ["x", "z", "y"]
    # x: P 1/1, R 1/2 -> F1 2/3 (weight 2); y: F1 1 (weight 1); z: never gold -> weight 0
    assert weighted_f1(gold, pred) == pytest.approx((2 * 2 / 3 + 1) / 3)
    assert {s.label for s in per_label(gold, pred)} == {"x", "y", "z"}
    assert next(s for s in per_label(gold, pred) if s.label == "z").support == 0


def test_perfect_and_empty_and_mismatched():
    assert weighted_f1(["a", "b"], ["a", "b"]) == 1.0
    assert weighted_f1([], []) == 0.0 and accuracy([], []) == 0.0
    with pytest.raises(ValueError, match="2 gold labels but 1 predictions"):
        weighted_f1(["a", "b"], ["a"])


def test_summary_is_in_percent():
    assert summary(["a", "a", "b", "c"], ["a", "b", "b", "a"]) == {"weighted_f1": 41.67, "accuracy": 50.0, "n": 4}


def test_call_tally_report_and_sum():
    tally = CallTally(made=4, correct=3, gold=6, found=3, exact=2, valid=4)
    tally.add(CallTally(made=1, correct=0, gold=0, found=0, exact=0, valid=1))
    report = tally.report()
    assert report["precision"] == 60.0  # 3 of 5 calls made were right
    assert report["recall"] == 50.0  # 3 of 6 gold calls were made
    assert report["args_exact"] == pytest.approx(66.67)  # 2 of the 3 right calls had the gold arguments
    assert report["schema_valid"] == 100.0
    assert CallTally().report()["precision"] is None
