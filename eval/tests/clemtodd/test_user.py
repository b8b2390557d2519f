"""The simulated user (from acts and words only) and whole tasks through the runner."""

from __future__ import annotations

import copy

import pytest

from fsmdial.trace import Act
from fsmdial_eval.clemtodd.tools import default_data_dir
from fsmdial_eval.clemtodd.user import SimulatedUser

TASK = {
    "filename": "T1.json",
    "message": "You are looking for a place to dine. The restaurant should serve traditional food. If there is no "
    "such restaurant, how about mexican. Book for 6 people at 14:00 on wednesday. You also need a train ...",
    "domains": {
        "train": {
            "info": {"departure": "cambridge", "destination": "ely", "day": "thursday", "arriveBy": "12:00"},
            "fail_info": {},
            "book": {"people": "6", "invalid": False},
            "fail_book": {},
        },
        "restaurant": {
            "info": {"food": "mexican", "area": "south"},
            "fail_info": {"food": "traditional", "area": "south"},
            "book": {"people": "6", "day": "wednesday", "time": "14:00", "invalid": False},
            "fail_book": {},
        },
    },
    "corpususer": [
        {
            "utterance": "I want a restaurant in the south serving traditional food.",
            "dialog_act": {"Restaurant-Inform": [["area", "south"], ["food", "traditional"]]},
        },
        {"utterance": "There is none.", "dialog_act": {"Restaurant-NoOffer": [["none", "none"]]}},
    ],
}


def act(kind: str, name: str, text: str = "", slot: str | None = None) -> Act:
    return Act(kind, name, text, slot=slot)


def test_domains_in_the_order_the_goal_mentions_them_and_fail_info_first() -> None:
    user = SimulatedUser(TASK, corpus_rate=0.0)
    assert [d.name for d in user.agenda] == ["restaurant", "train"]
    first = user.respond([act("greeting", "greeting", "Hello!")])
    assert "restaurant" in first and "traditional" in first and "south" in first and "mexican" not in first


def test_nothing_matches_switches_to_the_alternative() -> None:
    user = SimulatedUser(TASK, corpus_rate=0.0)
    user.respond([act("greeting", "greeting")])
    said = user.respond(
        [act("inform", "nomatch_restaurant", "I'm sorry, there is no restaurant serving traditional food")]
    )
    assert "mexican" in said and "traditional" not in said


def test_answers_what_is_asked_from_the_goal_and_checks_offers_and_confirmations() -> None:
    user = SimulatedUser(TASK, corpus_rate=0.0)
    user.respond([act("greeting", "greeting")])
    user.respond([act("inform", "nomatch_restaurant")])
    # An offer that does not show the asked food: the user says it again instead of booking.
    said = user.respond(
        [
            act("inform", "offer_restaurant", "nandos is a cheap portuguese restaurant in the south."),
            act("ask", "ask_people", "For how many people?", slot="people"),
        ]
    )
    assert "mexican" in said
    said = user.respond(
        [
            act("inform", "offer_restaurant", "chiquito is an expensive mexican restaurant in the south."),
            act("ask", "ask_people", "For how many people?", slot="people"),
        ]
    )
    assert "6 people" in said and "wednesday" in said and "14:00" in said
    wrong = user.respond(
        [act("confirm", "confirm_restaurant", "A table for 5 people on wednesday at 14:00. Shall I book it?")]
    )
    assert wrong.lower().startswith("no") and "6 people" in wrong
    right = user.respond(
        [act("confirm", "confirm_restaurant", "A table for 6 people on wednesday at 14:00. Shall I book it?")]
    )
    assert right.lower().startswith(("yes", "sure"))


def test_reference_then_next_domain_then_goodbye() -> None:
    user = SimulatedUser(TASK, corpus_rate=0.0)
    user.respond([act("greeting", "greeting")])
    asked = user.respond([act("inform", "booked_restaurant", "Your table is booked.")])
    assert "reference number" in asked
    nxt = user.respond(
        [
            act("inform", "booked_restaurant", "Your table is booked. Your reference number is ABCD1234."),
            act("end", "done_restaurant", "Anything else?"),
        ]
    )
    assert "train" in nxt and "same group of people" in nxt and "ely" in nxt
    assert user.agenda[0].reference == "ABCD1234"
    said = user.respond([act("ask", "ask_leave_at", "What time would you like to leave after?", slot="leave_at")])
    assert "don't have a" in said and ":" not in said  # no departure time in the goal: declined, no time said
    said = user.respond([act("ask", "ask_arrive_by", "By what time?", slot="arrive_by")])
    assert "12:00" in said
    bye = user.respond([act("inform", "booked_train", "Booked. Your reference number is TRAIN123.")])
    assert user.done and "bye" in bye.lower()


def test_real_corpus_utterances_are_used_where_they_fit() -> None:
    user = SimulatedUser(TASK, corpus_rate=1.0)
    assert user.respond([act("greeting", "greeting")]) == "I want a restaurant in the south serving traditional food."


def transcript(seed: int) -> list[str]:
    user = SimulatedUser(copy.deepcopy(TASK), seed=seed)
    acts = [
        [act("greeting", "greeting")],
        [act("inform", "nomatch_restaurant")],
        [
            act("inform", "offer_restaurant", "x is an expensive mexican restaurant in the south."),
            act("ask", "ask_people", "For how many people?", slot="people"),
        ],
        [act("confirm", "confirm_restaurant", "6 people on wednesday at 14:00")],
    ]
    return [user.respond(a) for a in acts]


def test_deterministic_for_a_seed_and_varied_across_seeds() -> None:
    assert transcript(1) == transcript(1)
    assert len({tuple(transcript(seed)) for seed in range(6)}) > 1


DATA = default_data_dir()


@pytest.mark.skipif(DATA is None, reason="clem:todd data not found (set FSMDIAL_CLEMTODD)")
def test_a_few_test_tasks_end_to_end_with_the_rules_understander(tmp_path) -> None:
    import json

    from fsmdial_eval.clemtodd.runner import evaluate, load_tasks, report_from_logs

    assert DATA is not None
    wanted = {"SNG01936.json", "SNG1048.json", "PMUL0938.json", "MUL1598.json"}  # name, fail_info, two domains
    tasks = [t for t in load_tasks(DATA, "test") if t["filename"] in wanted]
    log = tmp_path / "log.jsonl"
    with log.open("w") as out:
        report = evaluate(tasks, DATA, seed=0, on_episode=lambda e: out.write(json.dumps(e.to_dict()) + "\n"))
    assert report_from_logs([log])["booking_success"] == report["booking_success"]
    assert report["tasks"] == 4 and report["aborts"] == 0
    assert report["booking_success"]["tasks"] == 1.0
    fail_info = next(e for e in report["episodes"] if e["task"] == "SNG1048.json")
    assert any("nomatch_hotel" in turn.get("acts", []) for turn in fail_info["dialogue"])
    two = next(e for e in report["episodes"] if e["task"] == "PMUL0938.json")
    assert [b["domain"] for b in two["bookings"]] == ["restaurant", "train"] and two["turns"] < 15


def test_a_misread_constraint_shown_in_a_no_match_is_dropped() -> None:
    task = {
        "filename": "T2.json",
        "message": "a place to stay",
        "corpususer": [],
        "domains": {
            "hotel": {
                "info": {"area": "east", "stars": "4"},
                "fail_info": {},
                "book": {"people": "2", "day": "friday", "stay": "2"},
                "fail_book": {},
            }
        },
    }
    user = SimulatedUser(task, corpus_rate=0.0)
    user.respond([act("greeting", "greeting")])
    said = user.respond([act("inform", "nomatch_hotel", "I'm sorry, there is no a 4 star hotel in the east.")])
    assert said == "Any type is fine."
