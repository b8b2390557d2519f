"""`fsmdial eval multiwoz`: real MultiWOZ user turns mapped onto the clem:todd flows, scored per slot."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from fsmdial.understand.base import Parse, UnderstandingState
from fsmdial.understand.rules import RulesUnderstander
from fsmdial_eval.multiwoz_turns import first_turns, format_table, load_cases, routing, score


def _task(name: str, turns: list[tuple[str, dict[str, list[list[str]]]]]) -> dict[str, Any]:
    corpus: list[dict[str, Any]] = []
    for text, acts in turns:
        corpus += [{"utterance": text, "dialog_act": acts}, {"utterance": "(wizard)", "dialog_act": {}}]
    return {"filename": name, "corpususer": corpus}


def _data(tmp_path: Path, tasks: list[dict[str, Any]]) -> Path:
    (tmp_path / "tasks").mkdir()
    (tmp_path / "tasks" / "taskdata_dev.json").write_text(json.dumps(tasks), encoding="utf-8")
    return tmp_path


def test_gold_informs_are_mapped_onto_the_flows_slots_and_values(tmp_path: Path) -> None:
    tasks = [
        _task(
            "T1",
            [
                (
                    "a cheap place in the centre with free parking",
                    {"Hotel-Inform": [["pricerange", "cheap"], ["area", "centre"], ["parking", "yes"]]},
                ),
                ("any area is fine", {"Restaurant-Inform": [["area", "dontcare"]]}),
                ("leaving cambridge for ely", {"Train-Inform": [["departure", "cambridge"], ["destination", "ely"]]}),
                ("thanks", {"general-thank": [["none", "none"]]}),
            ],
        )
    ]
    cases = load_cases(_data(tmp_path, tasks))
    assert [case.domain for case in cases] == ["hotel", "restaurant", "train"]
    assert cases[0].gold == {"hotel_pricerange": "cheap", "hotel_area": "centre", "parking": "free parking"}
    assert cases[1].gold == {"restaurant_area": "any area"}
    assert cases[2].gold == {"departure": "from cambridge", "destination": "to ely"}
    assert cases[0].turn == 0 and cases[1].turn == 2  # wizard turns are skipped


def test_a_value_the_flow_cannot_hold_is_neither_counted_nor_blamed(tmp_path: Path) -> None:
    tasks = [_task("T2", [("some klingon food please", {"Restaurant-Inform": [["food", "klingon"]]})])]
    (case,) = load_cases(_data(tmp_path, tasks))
    assert case.gold == {} and case.unmapped == {"food"}


class _Fixed:
    """An understander that reads the same values from every message."""

    def __init__(self, slots: dict[str, Any]) -> None:
        self.slots = slots

    def understand(self, state: UnderstandingState, text: str, **_: Any) -> Parse:
        return Parse(slots=dict(self.slots))


def test_precision_and_recall_count_right_wrong_and_missed_values(tmp_path: Path) -> None:
    tasks = [_task("T3", [("north, cheap", {"Restaurant-Inform": [["area", "north"], ["pricerange", "cheap"]]})])]
    cases = load_cases(_data(tmp_path, tasks))
    report = score(_Fixed({"restaurant_area": "north", "food": "chinese"}), cases)  # type: ignore[arg-type]
    assert (report["precision"], report["recall"]) == (50.0, 50.0)
    assert report["per_slot"]["restaurant_pricerange"]["recall"] == 0.0
    assert report["details"][0]["wrong"] == ["food"] and report["details"][0]["missed"] == ["restaurant_pricerange"]
    assert "restaurant_area" in format_table(report)


def test_the_rules_read_a_real_users_constraints(tmp_path: Path) -> None:
    text = "I'm looking for an expensive restaurant in the south that serves italian food."
    acts = {"Restaurant-Inform": [["pricerange", "expensive"], ["area", "south"], ["food", "italian"]]}
    report = score(RulesUnderstander(), load_cases(_data(tmp_path, [_task("T4", [(text, acts)])])))
    assert report["details"][0]["read"] == {
        "restaurant_pricerange": "expensive",
        "restaurant_area": "south",
        "food": "italian",
    }
    assert report["precision"] == report["recall"] == 100.0


def test_routing_counts_real_first_turns_routed_into_their_domains_flow(tmp_path: Path) -> None:
    tasks = [
        _task("R1", [("I need a place to stay", {"Hotel-Inform": [["type", "hotel"]]})]),
        _task("R2", [("what is the weather like", {"Train-Inform": [["day", "monday"]]})]),
        _task("R3", [("hello", {"general-greet": [["none", "none"]]})]),  # no domain: not a routing case
    ]
    turns = first_turns(_data(tmp_path, tasks))
    assert [(task, domain) for task, domain, _ in turns] == [("R1", "hotel"), ("R2", "train")]
    report = routing(RulesUnderstander(), turns)
    assert report["routed"] == 1
    assert [miss["task"] for miss in report["misrouted"]] == ["R2"]
