"""Stage 6: `fsmdial eval star` throughput with the rules understander (dialogues per second)."""

from __future__ import annotations

import pytest

from fsmdial_eval.corpus import default_star_dir, dev_split
from fsmdial_eval.star import evaluate

DIALOGUES = 200


def test_eval_star_rules_throughput(benchmark):
    star = default_star_dir()
    if not star:
        pytest.skip("STAR data not found (../shared/data/star or FSMDIAL_STAR)")
    paths = dev_split(star)[:DIALOGUES]

    def run():
        return evaluate(star, paths, kind="rules", workers=1)

    benchmark.group = "eval"
    benchmark.extra_info["dialogues"] = len(paths)
    report = benchmark.pedantic(run, rounds=3, warmup_rounds=1)
    benchmark.extra_info["dialogues_per_second"] = (
        round(len(paths) / benchmark.stats.stats.median, 1) if benchmark.stats else None
    )
    assert report.dialogues > 0 and report.to_dict()["api"]["schema_valid"] == 100.0
