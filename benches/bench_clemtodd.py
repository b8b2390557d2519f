"""`fsmdial eval clemtodd` with the rules understander: the whole test split (117 tasks) well under 2 minutes."""

from __future__ import annotations

import pytest

from fsmdial_eval.clemtodd.runner import evaluate, load_tasks
from fsmdial_eval.clemtodd.tools import default_data_dir


def test_eval_clemtodd_rules_test_split(benchmark):
    data = default_data_dir()
    if data is None:
        pytest.skip("clem:todd data not found (../shared/data/clemtodd or FSMDIAL_CLEMTODD)")
    tasks = load_tasks(data, "test")

    def run():
        return evaluate(tasks, data)

    benchmark.group = "eval"
    benchmark.extra_info["tasks"] = len(tasks)
    report = benchmark.pedantic(run, rounds=1, warmup_rounds=0)
    assert report["tasks"] == 117 and report["aborts"] == 0
    if benchmark.stats:
        assert benchmark.stats.stats.median < 120  # the goal: under 2 minutes on 2 cores
