"""Issue 36 item 5: every evaluation report says how many user turns made a model call, and what share.

A fake understander stands in for a model: the rules' reading, reported as a model call on the messages it
picks, so the counts are known by hand.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from test_sgd import DIALOGUE, HOTELS, RESTAURANTS
from test_star import grooming_corpus  # noqa: F401 - the fixture

from fsmdial.understand.base import Parse, UnderstandingState
from fsmdial.understand.rules import RulesUnderstander
from fsmdial_eval import star
from fsmdial_eval.clemtodd.runner import Episode, load_tasks, report
from fsmdial_eval.clemtodd.runner import evaluate as clemtodd_evaluate
from fsmdial_eval.clemtodd.runner import format_table as clemtodd_table
from fsmdial_eval.clemtodd.tools import default_data_dir
from fsmdial_eval.commands.star import format_table as star_table
from fsmdial_eval.corpus import dev_split
from fsmdial_eval.multiwoz_turns import format_table as multiwoz_table
from fsmdial_eval.multiwoz_turns import load_cases, routing, score
from fsmdial_eval.sgd.evaluation import Split, evaluate, format_table, read_dialogues, select
from fsmdial_eval.sgd.tracking import build_services, track_dialogue


class ModelOn(RulesUnderstander):
    """The rules' reading, said to come from one model call when the message holds ``word`` (any: every one)."""

    def __init__(self, word: str = "") -> None:
        super().__init__()
        self.word = word

    def understand(self, state: UnderstandingState, text: str, **kwargs: Any) -> Parse:
        parse = super().understand(state, text, **kwargs)
        if self.word.lower() in text.lower():
            parse.path, parse.model_calls = "model", 1
        return parse


def fake(kind: str, word: str) -> RulesUnderstander:
    """What ``make_inner_understander`` gives in these tests: the fake model for ``gguf``, else the rules."""
    return ModelOn(word) if kind == "gguf" else RulesUnderstander()


def test_sgd_counts_one_turn_per_user_frame_and_those_with_a_model_call(tmp_path: Path, monkeypatch):
    services = build_services([HOTELS, RESTAURANTS], {"Hotels_9"})
    tracked = track_dialogue(DIALOGUE, services, ModelOn("Lyon"))
    user_frames = sum(len(t["frames"]) for t in DIALOGUE["turns"] if t["speaker"] == "USER")
    with_lyon = sum(
        len(t["frames"]) for t in DIALOGUE["turns"] if t["speaker"] == "USER" and "lyon" in t["utterance"].lower()
    )
    assert (tracked.turns, tracked.model_turns) == (user_frames, with_lyon)
    assert 0 < with_lyon < user_frames

    for name in ("dev", "train"):
        (tmp_path / name).mkdir()
    (tmp_path / "dev" / "schema.json").write_text(json.dumps([HOTELS, RESTAURANTS]))
    (tmp_path / "train" / "schema.json").write_text(json.dumps([HOTELS]))
    (tmp_path / "dev" / "dialogues_001.json").write_text(json.dumps([DIALOGUE]))
    split = Split.read(tmp_path, "dev")
    monkeypatch.setattr(star, "make_inner_understander", lambda kind, model=None: fake(kind, "Lyon"))
    found = evaluate(split, select(read_dialogues(split.files)), kind="gguf", model="fake")
    share = round(100 * with_lyon / user_frames, 1)
    assert found["model_turns"] == {"turns": user_frames, "with_model_call": with_lyon, "share": share}
    assert f"user turns with a model call: {with_lyon} of {user_frames} ({share:.1f}%)" in format_table(found)
    rules = evaluate(split, select(read_dialogues(split.files)), kind="rules")
    assert rules["model_turns"] == {"turns": user_frames, "with_model_call": 0, "share": 0.0}


def test_star_counts_every_user_turn_and_those_with_a_model_call(grooming_corpus, monkeypatch):  # noqa: F811
    monkeypatch.setattr(star, "make_inner_understander", lambda kind, model=None: fake(kind, ""))
    data = star.evaluate(grooming_corpus, dev_split(grooming_corpus), kind="gguf", model="fake").to_dict()
    turns = data["understanding"]["turns"]
    assert turns >= 6  # the dialogue's six user turns at least (the engine opens on the first)
    assert data["model_turns"] == {"turns": turns, "with_model_call": turns, "share": 100.0}
    data["settings"].update(split="dev")
    assert f"user turns with a model call: {turns} of {turns} (100.0%)" in star_table(data)
    rules = star.evaluate(grooming_corpus, dev_split(grooming_corpus), kind="rules").to_dict()
    assert rules["model_turns"] == {"turns": turns, "with_model_call": 0, "share": 0.0}


def _episode(name: str, turns: int, model_turns: int) -> Episode:
    return Episode(name, ["hotel"], turns, False, True, 1, 1, [], model_calls=model_turns, model_turns=model_turns)


def test_clemtodd_adds_up_the_episodes_turns_and_model_turns():
    data = report([_episode("a", 6, 2), _episode("b", 4, 0)], seconds=1.0, seed=0, cap=30)
    assert data["model_turns"] == {"turns": 10, "with_model_call": 2, "share": 20.0}
    data["settings"]["understander"] = "gguf"
    assert "user turns with a model call: 2 of 10 (20.0%)" in clemtodd_table(data)
    old = {k: v for k, v in _episode("c", 3, 0).to_dict().items() if k != "model_turns"}  # a log from before
    assert Episode(**old).model_turns == 0


DATA = default_data_dir()


@pytest.mark.skipif(DATA is None, reason="clem:todd data not found (set FSMDIAL_CLEMTODD)")
def test_clemtodd_counts_the_simulated_users_turns_with_a_model_call():
    assert DATA is not None
    tasks = [t for t in load_tasks(DATA, "test") if t["filename"] == "SNG01936.json"]
    data = clemtodd_evaluate(tasks, DATA, understander=ModelOn(), seed=0)
    (episode,) = data["episodes"]
    assert episode["model_turns"] == episode["turns"] > 0
    assert data["model_turns"] == {"turns": episode["turns"], "with_model_call": episode["turns"], "share": 100.0}


def _multiwoz_data(tmp_path: Path) -> Path:
    def task(name: str, text: str, acts: dict[str, list[list[str]]]) -> dict[str, Any]:
        return {"filename": name, "corpususer": [{"utterance": text, "dialog_act": acts}, {"utterance": "(wizard)"}]}

    tasks = [
        task("M1", "a cheap restaurant in the north", {"Restaurant-Inform": [["pricerange", "cheap"]]}),
        task("M2", "I need a place to stay in the east", {"Hotel-Inform": [["area", "east"]]}),
        task("M3", "a train to Cambridge please", {"Train-Inform": [["dest", "cambridge"]]}),
    ]
    (tmp_path / "tasks").mkdir()
    (tmp_path / "tasks" / "taskdata_dev.json").write_text(json.dumps(tasks), encoding="utf-8")
    return tmp_path


def test_multiwoz_counts_the_turns_read_with_a_model_call_and_the_routing_turns(tmp_path: Path):
    from fsmdial_eval.multiwoz_turns import first_turns

    data = _multiwoz_data(tmp_path)
    cases = load_cases(data)
    found = score(ModelOn("north"), cases)
    assert found["model_turns"] == {"turns": len(cases), "with_model_call": 1, "share": round(100 / len(cases), 1)}
    assert f"user turns with a model call: 1 of {len(cases)}" in multiwoz_table(found)
    routed = routing(ModelOn("stay"), first_turns(data))
    assert routed["model_turns"]["turns"] == 3 and routed["model_turns"]["with_model_call"] == 1
