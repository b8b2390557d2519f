"""``fsmdial eval star`` options: --split, --sample/--seed, 0 dialogues is an error, repeated calls counted."""

from __future__ import annotations

import json

from test_star import GROOMING_DIALOGUE, grooming_corpus  # noqa: F401  (fixture)

from fsmdial.cli import main
from fsmdial_eval.corpus import sample_paths, split_paths
from fsmdial_eval.metrics import repeated_calls


def _copies(root, ids):
    scenario = {"Happy": True, "MultiTask": False, "WizardCapabilities": [{"Task": "pet_grooming"}]}
    for i in ids:
        (root / "dialogues" / f"{i}.json").write_text(
            json.dumps({"DialogueID": i, "Scenario": scenario, "Events": GROOMING_DIALOGUE})
        )


def test_splits_and_seeded_samples(grooming_corpus):  # noqa: F811
    _copies(grooming_corpus, [2, 3, 10, 11, 15])
    assert [p.stem for p in split_paths(grooming_corpus, "dev")] == ["1", "2", "3", "11"]
    assert [p.stem for p in split_paths(grooming_corpus, "test")] == ["5", "10", "15"]
    assert len(split_paths(grooming_corpus, "all")) == 7
    dev = split_paths(grooming_corpus, "dev")
    one, again, other = sample_paths(dev, 2, 7), sample_paths(dev, 2, 7), sample_paths(dev, 2, 8)
    assert one == again and len(one) == 2 and one == sorted(one, key=lambda p: int(p.stem))
    assert sample_paths(dev, 10, 7) == dev and (other != one or len(dev) < 3)


def test_zero_dialogues_is_an_error_that_names_the_split(grooming_corpus, tmp_path, capsys):  # noqa: F811
    only_test = tmp_path / "only_test"
    only_test.mkdir()
    for part in ("tasks", "apis", "dbs"):
        if (grooming_corpus / part).exists():
            (only_test / part).symlink_to(grooming_corpus / part)
    (only_test / "dialogues").mkdir()
    (only_test / "dialogues" / "5.json").write_text((grooming_corpus / "dialogues" / "5.json").read_text())
    code = main(["eval", "star", "--data", str(only_test), "--no-progress", "--workers", "1"])
    assert code == 2
    assert "no dialogue to evaluate" in capsys.readouterr().err
    code = main(["eval", "star", "--data", str(only_test), "--split", "test", "--no-progress", "--workers", "1"])
    assert code == 0  # the same directory, evaluated as the test split it is


def test_the_report_counts_repeated_calls(grooming_corpus, tmp_path):  # noqa: F811
    out = tmp_path / "r.json"
    assert (
        main(
            [
                "eval",
                "star",
                "--data",
                str(grooming_corpus),
                "--understander",
                "oracle",
                "--no-progress",
                "--workers",
                "1",
                "--out",
                str(out),
            ]
        )
        == 0
    )
    report = json.loads(out.read_text())
    assert report["api"]["repeated_calls"] == 0 and "dev: 1 dialogues" in report["settings"]["split"]


def test_repeated_calls_are_same_name_and_same_arguments():
    calls = [("a", {"x": 1}), ("a", {"x": 2}), ("a", {"x": 1}), ("b", {"x": 1}), ("a", {"x": 1})]
    assert repeated_calls(calls) == 2
    assert repeated_calls([]) == 0
