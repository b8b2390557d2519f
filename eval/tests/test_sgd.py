"""SGD: the importer, the official metrics on hand-computed cases, fsmdial tracking a dialogue."""

from __future__ import annotations

import argparse
import copy
import json
from pathlib import Path
from typing import Any

import pytest

from fsmdial.errors import FlowError
from fsmdial.flow import ConfirmNode, ExternalActionNode, RequestNode
from fsmdial.loader import flow_from_document
from fsmdial.understand.rules import RulesUnderstander
from fsmdial_eval import sgd
from fsmdial_eval.importers.sgd import import_schema, service_to_flow_dict, slot_kind
from fsmdial_eval.sgd import metrics
from fsmdial_eval.sgd.errors import error_counts
from fsmdial_eval.sgd.errors import main as errors_main
from fsmdial_eval.sgd.evaluation import Scores, Split, evaluate, read_dialogues, select
from fsmdial_eval.sgd.tracking import build_services, track_dialogue

pytest.importorskip("rapidfuzz")


def _slot(name: str, values: list[str] | None = None, description: str = "") -> dict[str, Any]:
    return {
        "name": name,
        "description": description or name,
        "is_categorical": values is not None,
        "possible_values": values or [],
    }


HOTELS = {
    "service_name": "Hotels_9",
    "description": "Find and book hotels",
    "slots": [
        _slot("city"),
        _slot("check_in_date"),
        _slot("number_of_rooms", ["1", "2", "3"]),
        _slot("smoking_allowed", ["True", "False"]),
        _slot("hotel_name"),
        _slot("phone_number"),
    ],
    "intents": [
        {
            "name": "SearchHotel",
            "description": "Find a hotel",
            "is_transactional": False,
            "required_slots": ["city"],
            "optional_slots": {"smoking_allowed": "dontcare"},
            "result_slots": [],
        },
        {
            "name": "BookHotel",
            "description": "Book a hotel room",
            "is_transactional": True,
            "required_slots": ["hotel_name", "check_in_date", "city"],
            "optional_slots": {"number_of_rooms": "1"},
            "result_slots": ["phone_number"],
        },
    ],
}
RESTAURANTS = {
    "service_name": "Restaurants_9",
    "description": "Find restaurants",
    "slots": [_slot("city"), _slot("time"), _slot("cuisine", ["Italian", "Thai"])],
    "intents": [
        {
            "name": "FindRestaurants",
            "description": "Find a restaurant",
            "is_transactional": False,
            "required_slots": ["city"],
            "optional_slots": {"cuisine": "dontcare", "time": "dontcare"},
            "result_slots": [],
        }
    ],
}


# ------------------------------------------------------------------ the importer


def test_a_service_becomes_a_valid_flow_with_its_tasks_and_typed_slots():
    document = service_to_flow_dict(HOTELS)
    flow = flow_from_document(document)
    slots = flow.slots()
    assert set(slots) == {
        "city",
        "check_in_date",
        "number_of_rooms",
        "smoking_allowed",
        "hotel_name",
    }  # not result-only
    assert slots["check_in_date"].type.value == "date"
    assert (
        slots["number_of_rooms"].type.value,
        slots["number_of_rooms"].minimum,
        slots["number_of_rooms"].maximum,
    ) == ("integer", 1, 3)
    assert slots["smoking_allowed"].type.value == "boolean"  # "True"/"False": a yes or a no
    assert not slots["smoking_allowed"].required and slots["city"].required
    nodes = {node.id: node for node in flow.nodes}
    assert isinstance(nodes["BookHotel"], ExternalActionNode) and nodes["BookHotel"].commits
    assert isinstance(nodes["SearchHotel"], ExternalActionNode) and not nodes["SearchHotel"].commits
    assert isinstance(nodes["BookHotel__confirm"], ConfirmNode) and "SearchHotel__confirm" not in nodes
    # city is asked once, by the first task; the booking reads it from there
    assert [s.name for s in nodes["BookHotel__slots"].slots] == ["hotel_name", "check_in_date", "number_of_rooms"]  # type: ignore[union-attr]
    assert isinstance(nodes["SearchHotel__slots"], RequestNode)
    assert set(nodes["BookHotel"].arguments or {}) == {"hotel_name", "check_in_date", "city", "number_of_rooms"}  # type: ignore[union-attr]
    start = nodes[flow.start_id]
    assert isinstance(start, ConfirmNode) and [c.name for c in start.choices or ()] == ["SearchHotel", "BookHotel"]
    assert {ga.intent: ga.target for ga in flow.global_actions} == {
        "SearchHotel": "SearchHotel__slots",
        "BookHotel": "BookHotel__slots",
    }


def test_slot_kinds_come_from_the_schema_not_the_service():
    assert [slot_kind(s) for s in HOTELS["slots"]] == [
        "free text",
        "date",
        "number",
        "categorical",
        "free text",
        "free text",
    ]
    assert slot_kind(_slot("pickup_time")) == "time" and slot_kind(_slot("number_of_seats")) == "number"
    assert slot_kind(_slot("stay_length", description="Length of stay in days")) == "number"  # described as a count
    assert slot_kind(_slot("airport", description="Number of the airport flying to")) == "free text"  # a name


def test_a_free_count_is_reported_as_it_was_said():
    stays = copy.deepcopy(HOTELS)
    stays["slots"].append(_slot("stay_length", description="Length of stay in days"))
    stays["intents"][1]["optional_slots"]["stay_length"] = "1"
    services = build_services([stays], seen=set())
    dialogue = {
        "dialogue_id": "9_00009",
        "services": ["Hotels_9"],
        "turns": [
            _turn("USER", "I want to book hotel", "Hotels_9", _state({}, "BookHotel")),
            _turn("SYSTEM", "For how long?", "Hotels_9", acts=_request("stay_length")),
            _turn("USER", "For seven days.", "Hotels_9", _state({}, "BookHotel")),
            _turn("SYSTEM", "How many rooms?", "Hotels_9", acts=_request("number_of_rooms")),
            _turn("USER", "two rooms", "Hotels_9", _state({}, "BookHotel")),
        ],
    }
    states = _frames(track_dialogue(dialogue, services, RulesUnderstander()).dialogue)
    assert states[1]["slot_values"]["stay_length"] == ["seven"]  # SGD writes a free value as said
    assert states[2]["slot_values"]["number_of_rooms"] == ["2"]  # and a categorical one as its schema lists it


def test_a_bad_schema_is_a_flow_error_saying_where(tmp_path: Path):
    broken = copy.deepcopy(HOTELS)
    broken["intents"][0]["required_slots"] = ["town"]
    with pytest.raises(FlowError, match="SearchHotel.*unknown slot 'town'"):
        service_to_flow_dict(broken)
    path = tmp_path / "schema.json"
    path.write_text(json.dumps({"not": "a list"}))
    with pytest.raises(FlowError, match="JSON list of services"):
        import_schema(path)


def test_the_import_command_writes_one_valid_flow_per_service(tmp_path: Path, capsys):
    path = tmp_path / "schema.json"
    path.write_text(json.dumps([HOTELS, RESTAURANTS]))
    parser = argparse.ArgumentParser()
    from fsmdial_eval.importers import sgd as importer

    importer.add_arguments(parser)
    assert importer.run(parser.parse_args([str(path), "--out", str(tmp_path / "flows")])) == 0
    written = sorted(p.name for p in (tmp_path / "flows").iterdir())
    assert written == ["Hotels_9.json", "Restaurants_9.json"]
    for name in written:
        flow_from_document(json.loads((tmp_path / "flows" / name).read_text()))


# ------------------------------------------------------------------ the metrics


def test_fuzzy_matching_is_token_sort_ratio_in_whole_percents():
    assert metrics.fuzzy_match("New York", "new york!") == 1.0  # case and punctuation aside
    assert metrics.fuzzy_match("York New", "new york") == 1.0  # token order aside
    assert metrics.fuzzy_match("11:30", "11:30 am") == 0.77  # "11 30" vs "11 30 am": 2*5/13 = 76.9%
    assert metrics.fuzzy_match("Fresno", "I'll be travelling from Fresno") == 0.33  # 2*6/36
    assert metrics.fuzzy_match("Paris", "Paris France") == 0.59  # "paris" vs "france paris": 2*5/17
    assert metrics.fuzzy_match("Paris", "") == 0.0
    assert metrics.noncategorical_match(["San Francisco", "SF"], "sf") == 1.0


SCHEMA = {
    "service_name": "Hotels_9",
    "slots": [_slot("city"), _slot("day", ["Mon", "Tue"]), _slot("rooms", ["1", "2"])],
}
KINDS = {"city": "free text", "day": "categorical", "rooms": "number"}


def _state(values: dict[str, list[str]], intent: str = "Book", requested: list[str] | None = None) -> dict[str, Any]:
    return {"active_intent": intent, "requested_slots": requested or [], "slot_values": values}


def test_joint_goal_accuracy_over_turns_with_a_carried_error():
    turns = [  # (reference, hypothesis): the day is wrong at turn 2 and the error is carried to turn 3
        (_state({"city": ["Paris"]}), _state({"city": ["paris"]})),
        (_state({"city": ["Paris"], "day": ["Mon"]}), _state({"city": ["Paris"], "day": ["Tue"]})),
        (
            _state({"city": ["Paris"], "day": ["Mon"], "rooms": ["2"]}),
            _state({"city": ["Paris"], "day": ["Tue"], "rooms": ["2"]}),
        ),
        (_state({"city": ["Paris"]}), _state({"city": ["Paris France"]})),  # a partial fuzzy match counts partly
    ]
    scores = metrics.Collections()
    for ref, hyp in turns:
        values, _ = metrics.frame_metrics(ref, hyp, SCHEMA, KINDS)
        scores.add("Hotels_9", True, values)
    means = scores.means()[metrics.ALL]
    assert means[metrics.JGA] == round(100 * (1 + 0 + 0 + 0.59) / 4, 2)  # 39.75
    assert means[metrics.AGA] == round(100 * (1 + 0.5 + 2 / 3 + 0.59) / 4, 2)  # 68.92
    assert means["frames"] == 4
    # the day: right at turns 1 and 4 (absent from both sides), wrong at 2 and 3
    assert means[f"{metrics.JGA}[categorical]"] == 50.0


def test_a_value_where_the_reference_has_none_is_wrong_and_categorical_values_match_exactly():
    values, scores = metrics.frame_metrics(
        _state({"day": ["Mon"]}), _state({"day": ["mon"], "city": ["Rome"]}), SCHEMA, KINDS
    )
    assert [(s.slot, s.score) for s in scores] == [("city", 0.0), ("day", 0.0), ("rooms", 1.0)]
    assert values[metrics.JGA] == 0.0 and values[metrics.AGA] == 0.0  # only "day" is active in the reference
    values, _ = metrics.frame_metrics(_state({}), _state({}), SCHEMA, KINDS)
    assert metrics.AGA not in values and values[metrics.JGA] == 1.0  # no active slot: no average accuracy


def test_intent_and_requested_slots():
    values, _ = metrics.frame_metrics(
        _state({}, "Book", ["phone", "address"]), _state({}, "Find", ["phone"]), SCHEMA, KINDS
    )
    assert values[metrics.INTENT] == 0.0
    assert (values[metrics.REQUESTED_P], values[metrics.REQUESTED_R]) == (1.0, 0.5)
    assert values[metrics.REQUESTED_F1] == pytest.approx(2 / 3)
    assert metrics.f1([], []) == (1.0, 1.0, 1.0)


def test_seen_and_unseen_services_are_means_over_their_own_frames():
    scores = metrics.Collections()
    scores.add("Hotels_9", True, {metrics.JGA: 1.0, metrics.INTENT: 1.0})
    scores.add("Hotels_9", True, {metrics.JGA: 0.0, metrics.INTENT: 1.0})
    scores.add("Restaurants_9", False, {metrics.JGA: 1.0, metrics.INTENT: 0.0})
    means = scores.means()
    assert means[metrics.SEEN][metrics.JGA] == 50.0 and means[metrics.UNSEEN][metrics.JGA] == 100.0
    assert means[metrics.ALL][metrics.JGA] == pytest.approx(66.67) and means[metrics.ALL]["frames"] == 3
    assert means["Restaurants_9"][metrics.INTENT] == 0.0


# ------------------------------------------------------------------ fsmdial tracking a dialogue


def _turn(
    speaker: str, text: str, service: str, state: dict[str, Any] | None = None, acts: list[Any] | None = None
) -> dict[str, Any]:
    frame: dict[str, Any] = {"service": service, "actions": acts or [], "slots": []}
    if state is not None:
        frame["state"] = state
    return {"speaker": speaker, "utterance": text, "frames": [frame]}


def _request(slot: str) -> list[dict[str, Any]]:
    return [{"act": "REQUEST", "slot": slot, "values": [], "canonical_values": []}]


DIALOGUE = {
    "dialogue_id": "9_00001",
    "services": ["Hotels_9", "Restaurants_9"],
    "turns": [
        _turn("USER", "I want to search hotel", "Hotels_9", _state({}, "SearchHotel")),
        _turn("SYSTEM", "Which city?", "Hotels_9", acts=_request("city")),
        _turn("USER", "Lyon", "Hotels_9", _state({"city": ["Paris"]}, "SearchHotel")),  # the gold differs on purpose
        _turn("SYSTEM", "When do you arrive?", "Hotels_9", acts=_request("check_in_date")),
        # only the booking asks the date: fsmdial goes to that task (its request node) when it hears one
        _turn(
            "USER",
            "on the 9th of March please",
            "Hotels_9",
            _state({"city": ["Paris"], "check_in_date": ["9th of March"]}, "BookHotel"),
        ),
        _turn("SYSTEM", "I found 3 hotels.", "Hotels_9"),
        _turn(
            "USER", "I also want to find a restaurant", "Restaurants_9", _state({"city": ["Paris"]}, "FindRestaurants")
        ),
    ],
}


def _frames(dialogue: dict[str, Any]) -> list[dict[str, Any]]:
    return [t["frames"][0]["state"] for t in dialogue["turns"] if t["speaker"] == "USER"]


def test_fsmdial_carries_its_own_state_across_turns_and_services():
    services = build_services([HOTELS, RESTAURANTS], seen={"Hotels_9"})
    tracked = track_dialogue(DIALOGUE, services, RulesUnderstander())
    states = _frames(tracked.dialogue)
    assert states[0] == _state({}, "SearchHotel")
    assert states[1]["slot_values"] == {"city": ["Lyon"]}  # what the user said, never the gold "Paris"
    assert states[2]["slot_values"] == {"city": ["Lyon"], "check_in_date": ["9th of March"]}  # the words said
    assert states[3]["slot_values"] == {"city": ["Lyon"]}  # the hotel's city carried to the restaurant
    assert [s["active_intent"] for s in states] == ["SearchHotel", "SearchHotel", "BookHotel", "FindRestaurants"]
    assert tracked.errors == 0
    assert DIALOGUE["turns"][2]["frames"][0]["state"]["slot_values"] == {"city": ["Paris"]}  # the reference untouched


FLIGHTS = {
    "service_name": "Flights_9",
    "description": "Find flights",
    "slots": [_slot("origin_city", description="City the journey starts from"), _slot("destination_city")],
    "intents": [
        {
            "name": "SearchFlight",
            "description": "Find a flight",
            "is_transactional": False,
            "required_slots": ["origin_city", "destination_city"],
            "optional_slots": {},
            "result_slots": [],
        }
    ],
}


def test_a_new_service_takes_where_the_user_will_be_from_the_service_before():
    # The flight's destination becomes the hotel's city (a place slot of another name), never its origin
    services = build_services([FLIGHTS, HOTELS], seen=set())
    dialogue = {
        "dialogue_id": "9_00007",
        "services": ["Flights_9", "Hotels_9"],
        "turns": [
            _turn("USER", "I need a flight from Boston to Denver", "Flights_9", _state({}, "SearchFlight")),
            _turn("SYSTEM", "I found 2 flights.", "Flights_9"),
            _turn("USER", "I also want to search hotel there", "Hotels_9", _state({}, "SearchHotel")),
        ],
    }
    states = _frames(track_dialogue(dialogue, services, RulesUnderstander()).dialogue)
    assert states[0]["slot_values"] == {"origin_city": ["Boston"], "destination_city": ["Denver"]}
    assert states[1]["slot_values"] == {"city": ["Denver"]}


def test_a_question_with_its_value_is_an_offer_the_user_may_take():
    services = build_services([HOTELS], seen=set())
    ask = [{"act": "REQUEST", "slot": "city", "values": ["Lyon"], "canonical_values": ["Lyon"]}]
    dialogue = {
        "dialogue_id": "9_00008",
        "services": ["Hotels_9"],
        "turns": [
            _turn("USER", "I want to search hotel", "Hotels_9", _state({}, "SearchHotel")),
            _turn("SYSTEM", "In Lyon?", "Hotels_9", acts=ask),
            _turn("USER", "Perfect.", "Hotels_9", _state({"city": ["Lyon"]}, "SearchHotel")),
        ],
    }
    states = _frames(track_dialogue(dialogue, services, RulesUnderstander()).dialogue)
    assert states[1]["slot_values"]["city"] == ["Lyon"]


def test_an_offer_stays_on_offer_while_the_bot_only_tells_more_of_it():
    services = build_services([HOTELS], seen=set())
    offer = [{"act": "OFFER", "slot": "hotel_name", "values": ["Hotel Ibis"], "canonical_values": ["Hotel Ibis"]}]
    inform = [{"act": "INFORM", "slot": "phone_number", "values": ["555"], "canonical_values": ["555"]}]
    dialogue = {
        "dialogue_id": "9_00010",
        "services": ["Hotels_9"],
        "turns": [
            _turn("USER", "I want to search hotel in Lyon", "Hotels_9", _state({}, "SearchHotel")),
            _turn("SYSTEM", "Hotel Ibis is nice.", "Hotels_9", acts=offer),
            _turn("USER", "What is their phone number?", "Hotels_9", _state({}, "SearchHotel")),
            _turn("SYSTEM", "It is 555.", "Hotels_9", acts=inform),
            _turn("USER", "Great, that works for me.", "Hotels_9", _state({}, "SearchHotel")),
        ],
    }
    states = _frames(track_dialogue(dialogue, services, RulesUnderstander()).dialogue)
    assert "hotel_name" not in states[1]["slot_values"]  # a question takes nothing
    assert states[2]["slot_values"]["hotel_name"] == ["Hotel Ibis"]  # the offer, still before the user, is taken


def test_teacher_forcing_starts_each_turn_from_the_previous_gold_state():
    services = build_services([HOTELS, RESTAURANTS], seen={"Hotels_9"})
    states = _frames(track_dialogue(DIALOGUE, services, RulesUnderstander(), teacher_forced=True).dialogue)
    assert states[1]["slot_values"] == {"city": ["Lyon"]}
    assert states[2]["slot_values"] == {"city": ["Paris"], "check_in_date": ["9th of March"]}
    assert states[3]["slot_values"] == {"city": ["Paris"]}  # carried from the hotel's forced state


def test_an_offer_the_user_accepts_becomes_state():
    services = build_services([HOTELS], seen=set())
    offer = [{"act": "OFFER", "slot": "hotel_name", "values": ["Hotel Ibis"], "canonical_values": ["Hotel Ibis"]}]
    dialogue = {
        "dialogue_id": "9_00002",
        "services": ["Hotels_9"],
        "turns": [
            _turn("USER", "I want to search hotel in Lyon", "Hotels_9", _state({"city": ["Lyon"]}, "SearchHotel")),
            _turn("SYSTEM", "Hotel Ibis is nice.", "Hotels_9", acts=offer),
            _turn("USER", "yes", "Hotels_9", _state({"city": ["Lyon"], "hotel_name": ["Hotel Ibis"]}, "SearchHotel")),
        ],
    }
    states = _frames(track_dialogue(dialogue, services, RulesUnderstander()).dialogue)
    assert states[1]["slot_values"].get("hotel_name") == ["Hotel Ibis"]


@pytest.mark.parametrize(
    ("reply", "taken"),
    [
        ("That one sounds good.", True),
        ("That works for me. Book me this car.", True),
        ("Okay, could you find me a hotel there too?", True),
        ("No, that doesn't work for me.", False),
        ("What is their phone number?", False),
    ],
)
def test_an_offer_taken_in_any_words_of_assent_becomes_state(reply: str, taken: bool):
    # The bot's offer asked no yes/no question: an affirmation with no denial takes it, a question alone does not
    services = build_services([HOTELS], seen=set())
    offer = [{"act": "OFFER", "slot": "hotel_name", "values": ["Hotel Ibis"], "canonical_values": ["Hotel Ibis"]}]
    dialogue = {
        "dialogue_id": "9_00004",
        "services": ["Hotels_9"],
        "turns": [
            _turn("USER", "I want to search hotel in Lyon", "Hotels_9", _state({"city": ["Lyon"]}, "SearchHotel")),
            _turn("SYSTEM", "Hotel Ibis is nice.", "Hotels_9", acts=offer),
            _turn("USER", reply, "Hotels_9", _state({"city": ["Lyon"]}, "SearchHotel")),
        ],
    }
    states = _frames(track_dialogue(dialogue, services, RulesUnderstander()).dialogue)
    assert (states[1]["slot_values"].get("hotel_name") == ["Hotel Ibis"]) is taken


def test_a_true_or_false_slot_is_answered_by_yes_and_reported_in_sgd_words():
    services = build_services([HOTELS], seen=set())
    dialogue = {
        "dialogue_id": "9_00005",
        "services": ["Hotels_9"],
        "turns": [
            _turn("USER", "I want to search hotel in Lyon", "Hotels_9", _state({}, "SearchHotel")),
            _turn("SYSTEM", "Do you need to smoke there?", "Hotels_9", acts=_request("smoking_allowed")),
            _turn("USER", "Yes, I do.", "Hotels_9", _state({}, "SearchHotel")),
        ],
    }
    states = _frames(track_dialogue(dialogue, services, RulesUnderstander()).dialogue)
    assert states[1]["slot_values"]["smoking_allowed"] == ["True"]


def test_a_day_said_without_its_month_is_reported_in_the_words_said():
    # "the 13th of this month" is read as the 13th (the slot type resolves a day without a month): the state
    # reports the words, as SGD writes its values, never the normal form 2019-03-13
    services = build_services([HOTELS], seen=set())
    dialogue = {
        "dialogue_id": "9_00003",
        "services": ["Hotels_9"],
        "turns": [
            _turn("USER", "I want to book hotel", "Hotels_9", _state({}, "BookHotel")),
            _turn("SYSTEM", "When do you arrive?", "Hotels_9", acts=_request("check_in_date")),
            _turn("USER", "I check in on the 13th of this month.", "Hotels_9", _state({}, "BookHotel")),
        ],
    }
    states = _frames(track_dialogue(dialogue, services, RulesUnderstander()).dialogue)
    assert states[1]["slot_values"]["check_in_date"] == ["13th of this month"]


@pytest.mark.parametrize(
    ("said", "words"),
    [
        ("I arrive on the 12th.", "the 12th"),  # a day said alone keeps its "the", as SGD writes it
        ("I arrive on the 9th of March.", "9th of March"),
        ("I arrive on March 1st 2019.", "March 1st 2019"),  # the year said with it
        ("I arrive at 11:30 am this Sunday.", "Sunday"),  # a time's "am" is no part of the date
    ],
)
def test_a_date_is_reported_in_the_words_sgd_writes(said: str, words: str):
    services = build_services([HOTELS], seen=set())
    dialogue = {
        "dialogue_id": "9_00006",
        "services": ["Hotels_9"],
        "turns": [
            _turn("USER", "I want to book hotel", "Hotels_9", _state({}, "BookHotel")),
            _turn("SYSTEM", "When do you arrive?", "Hotels_9", acts=_request("check_in_date")),
            _turn("USER", said, "Hotels_9", _state({}, "BookHotel")),
        ],
    }
    states = _frames(track_dialogue(dialogue, services, RulesUnderstander()).dialogue)
    assert states[1]["slot_values"]["check_in_date"] == [words]


def _dataset(tmp_path: Path) -> Path:
    (tmp_path / "dev").mkdir()
    (tmp_path / "train").mkdir()
    (tmp_path / "dev" / "schema.json").write_text(json.dumps([HOTELS, RESTAURANTS]))
    (tmp_path / "train" / "schema.json").write_text(json.dumps([HOTELS]))
    (tmp_path / "dev" / "dialogues_001.json").write_text(json.dumps([DIALOGUE]))
    return tmp_path


def test_a_split_scored_end_to_end_with_predictions_in_sgd_format(tmp_path: Path):
    split = Split.read(_dataset(tmp_path), "dev")
    dialogues = select(read_dialogues(split.files))
    report = evaluate(split, dialogues, predictions=tmp_path / "pred")
    predicted = json.loads((tmp_path / "pred" / "dialogues_001.json").read_text())
    assert [t["utterance"] for t in predicted[0]["turns"]] == [t["utterance"] for t in DIALOGUE["turns"]]
    # hand-computed, frame by frame (Hotels_9 has 5 slots, Restaurants_9 3):
    # 1: nothing expected, nothing said: JGA 1; 2: "Lyon" vs "Paris": fuzzy 0.0; 3: city 0 -> 0;
    # 4 (restaurants): carried "Lyon" vs "Paris": 0
    scores = Scores()
    scores.add(DIALOGUE, predicted[0], build_services([HOTELS, RESTAURANTS], {"Hotels_9"}))
    assert scores.report()["metrics"] == report["metrics"]
    assert report["metrics"][metrics.ALL][metrics.JGA] == 25.0
    assert report["metrics"][metrics.SEEN]["frames"] == 3 and report["metrics"][metrics.UNSEEN]["frames"] == 1
    assert report["per_slot_type"]["date"][metrics.AGA] == 100.0
    assert report["metrics"][metrics.ALL][metrics.INTENT] == 100.0
    assert report["misses"]["sample"] and all(m["slot"] == "city" for m in report["misses"]["sample"])


def test_the_error_table_counts_what_fails_frames_missed_wrong_or_extra(tmp_path: Path, capsys):
    split = Split.read(_dataset(tmp_path), "dev")
    evaluate(split, select(read_dialogues(split.files)), predictions=tmp_path / "pred")
    counts = error_counts(tmp_path / "pred", tmp_path / "dev")
    # "Lyon" for the reference's "Paris" fails three frames (carried into the restaurant's), never missed or extra
    assert counts["frames"][("all",)] == 4 and counts["frames"][("failed",)] == 3
    assert counts["slot"] == {("city", "wrong"): 3}
    assert error_counts(tmp_path / "pred", tmp_path / "dev", new_only=True)["slot"] == {("city", "wrong"): 2}
    assert errors_main([str(tmp_path / "pred"), str(tmp_path / "dev")]) == 0
    assert "city" in capsys.readouterr().out


def test_the_command_writes_its_report(tmp_path: Path, capsys):
    parser = argparse.ArgumentParser()
    sgd.add_arguments(parser)
    data = _dataset(tmp_path)
    args = parser.parse_args(
        ["--data", str(data), "--out", str(tmp_path / "r.json"), "--no-progress", "--workers", "1"]
    )
    assert sgd.run(args) == 0
    assert "joint_goal_accuracy" in json.loads((tmp_path / "r.json").read_text())["metrics"][metrics.ALL]
    assert "protocol: official" in capsys.readouterr().out
    assert sgd.run(parser.parse_args(["--data", str(tmp_path / "nowhere")])) == 2
