"""Answers said in words instead of their value (rules): a head count said by who comes, an asked yes/no answered by
a statement about its subject, no preference left to whoever is free, and a "one" standing for a thing.

Unit tests of :mod:`fsmdial.understand.rules.worded_answers` and :mod:`~fsmdial.understand.rules.pronoun_one`, and
conversations on a small tour-booking flow (written here, no shipped flow has all four slots) that check the value
the committing tool is called with.
"""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

import pytest

from fsmdial.flow import Slot, SlotType
from fsmdial.runtime import Dialogue
from fsmdial.testing import FrozenClock
from fsmdial.understand.rules.head_counts import counts_people, head_count
from fsmdial.understand.rules.pronoun_one import only_pronoun_ones
from fsmdial.understand.rules.worded_answers import no_preference, stated_answer, stated_unasked

NOW = dt.datetime(2026, 11, 24, 10, 0)  # a Tuesday

TOUR_FLOW: dict[str, Any] = {
    "name": "walking_tour",
    "description": "Book a guided walking tour: which tour, for how many people, parking, the guide and the day.",
    "examples": ["I'd like to book a tour"],
    "nodes": [
        {
            "id": "ask_tour",
            "type": "request",
            "slots": [
                {
                    "name": "tour",
                    "type": "categorical",
                    "values": ["castle walk", "river walk"],
                    "description": "Which tour",
                    "ask": "Which tour: the castle walk or the river walk?",
                },
                {
                    "name": "walkers",
                    "type": "integer",
                    "minimum": 1,
                    "maximum": 8,
                    "description": "How many people are coming on the walk",
                    "label": "number of people",
                    "ask": "How many people is that for?",
                },
            ],
        },
        {
            "id": "ask_parking",
            "type": "request",
            "slots": [
                {
                    "name": "parking",
                    "type": "boolean",
                    "description": "Whether the group has somewhere to leave a car near the start",
                    "label": "parking",
                    "ask": "Is there somewhere for you to park near the start?",
                }
            ],
        },
        {
            "id": "ask_guide",
            "type": "request",
            "slots": [
                {
                    "name": "guide",
                    "type": "categorical",
                    "values": ["Ana", "Ben", "any guide"],
                    "description": "Which guide (any guide: no preference)",
                    "ask": "Would you like Ana, Ben or any guide?",
                },
                {"name": "day", "type": "date", "description": "Day of the walk", "ask": "Which day?"},
            ],
        },
        {
            "id": "confirm",
            "type": "inform_and_confirm",
            "message": "{tour} for {walkers}, parking {parking}, with {guide} on {day}.",
            "question": "Shall I book it?",
        },
        {
            "id": "book",
            "type": "external_action",
            "tool": "book_tour",
            "commits": True,
            "arguments": {"tour": "tour", "walkers": "walkers", "parking": "parking", "guide": "guide", "day": "day"},
            "result": {"booked": "boolean"},
            "success_when": {"result": "booked", "op": "eq", "value": True},
        },
        {"id": "done", "type": "end", "message": "Booked."},
        {"id": "failed", "type": "end", "message": "Sorry, that did not work."},
    ],
    "edges": [
        {"source": "ask_tour", "target": "ask_parking"},
        {"source": "ask_parking", "target": "ask_guide"},
        {"source": "ask_guide", "target": "confirm"},
        {"source": "confirm", "target": "book"},
        {"source": "book", "target": "done", "when": {"result": "booked", "op": "eq", "value": True}},
        {"source": "book", "target": "failed"},
    ],
}


@pytest.fixture(scope="module")
def tour_flow(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("flows") / "walking_tour.json"
    path.write_text(json.dumps(TOUR_FLOW))
    return path


def booked(flow: Path, *turns: str) -> list[dict[str, Any]]:
    """The arguments of each booking the conversation commits."""
    calls: list[dict[str, Any]] = []

    def book_tour(**arguments: Any) -> dict[str, Any]:
        calls.append(arguments)
        return {"booked": True}

    dialogue = Dialogue(str(flow), tools={"book_tour": book_tour}, clock=lambda: NOW)
    dialogue.start()
    for text in turns:
        dialogue.turn(text)
    return calls


def _slot(name: str, kind: SlotType, **fields: Any) -> Slot:
    return Slot(name=name, type=kind, **fields)


WALKERS = _slot("walkers", SlotType.integer, description="How many people are coming on the walk")
NIGHTS = _slot("nights", SlotType.integer, description="How many nights")
PARKING = _slot("parking", SlotType.boolean, description="Whether the van can park near the house", label="parking")
GARDEN = _slot("garden", SlotType.boolean, description="Whether the property has a garden")


# ------------------------------------------------------------------ 1. a head count said by who
@pytest.mark.parametrize(
    ("said", "count"),
    [
        ("just me", 1),
        ("only me", 1),
        ("just for me", 1),
        ("just him", 1),
        ("just her", 1),
        ("myself", 1),
        ("jsut me", 1),
        ("just my son", 1),
        ("I'll be on my own", 1),
        ("both of us", 2),
        ("just me and my wife", None),  # two: the rules' couple, not this reading
        ("just our kids", None),
        ("me", 1),
    ],
)
def test_a_head_count_said_by_who_comes(said, count):
    assert head_count(WALKERS, said, asked=True) == count


def test_a_head_count_by_who_is_read_only_for_a_slot_counting_people_that_is_asked_or_named():
    assert counts_people(WALKERS) and not counts_people(NIGHTS)
    assert head_count(NIGHTS, "just me", asked=True) is None
    assert head_count(WALKERS, "it's just me asking", asked=False) is None
    assert head_count(WALKERS, "the coast walk, just for me", asked=False) == 1  # a booking for oneself
    assert head_count(WALKERS, "only me, one person", asked=False) == 1


def test_just_me_at_the_people_question_books_one_and_the_next_hour_is_no_count(tour_flow):
    calls = booked(tour_flow, "the castle walk please", "just me", "yes there's parking", "Ana", "thursday", "yes")
    assert calls == [{"tour": "castle walk", "walkers": 1, "parking": True, "guide": "Ana", "day": "2026-11-26"}]
    calls = booked(tour_flow, "the river walk", "both of us", "yes", "Ben", "friday", "yes")
    assert [call["walkers"] for call in calls] == [2]


# ------------------------------------------------------------------ 2. an asked boolean answered by a statement
@pytest.mark.parametrize(
    ("slot", "said", "answer"),
    [
        (PARKING, "there's parking on the drive", True),
        (PARKING, "sorry, wrong house number. and yes, there's space to park", True),
        (PARKING, "you can park on the street", True),
        (PARKING, "there's no parking, it's a city centre flat", False),
        (PARKING, "nowhere to park I'm afraid", False),
        (PARKING, "you can't park on our road", False),
        (PARKING, "the parking was mentioned by my neighbour", None),  # says neither
        (PARKING, "it's a city centre flat", None),  # names no parking
        (GARDEN, "we've got a garden at the back", True),
        (GARDEN, "there's no garden", False),
    ],
)
def test_a_statement_naming_the_subject_answers_its_yes_no_question(slot, said, answer):
    assert stated_answer(slot, said) is answer


@pytest.mark.parametrize(
    ("said", "parking"), [("there's parking by the church", True), ("there's no parking, it's all permits", False)]
)
def test_a_statement_about_parking_at_the_parking_question_is_booked(tour_flow, said, parking):
    calls = booked(tour_flow, "castle walk for 3 people", said, "Ben", "thursday", "yes")
    assert [call["parking"] for call in calls] == [parking]


def test_a_statement_naming_the_subject_changes_a_held_boolean_at_the_confirmation(tour_flow):
    calls = booked(
        tour_flow, "castle walk for 3 people", "no", "Ben", "thursday", "oh actually there is parking", "yes"
    )
    assert [call["parking"] for call in calls] == [True]


# ------------------------------------------------------------------ 3. no preference for a categorical "any" value
GUIDE = _slot("guide", SlotType.categorical, values=["Ana", "Ben", "any guide"])


@pytest.mark.parametrize(
    "said", ["whoever's free", "any", "anyone", "anybody is fine", "first available", "don't mind", "no preference"]
)
def test_a_pick_left_to_anyone_is_the_any_value_of_the_asked_slot(said):
    from fsmdial.language import read_acts

    acts = read_acts(said)
    found = no_preference(
        [(GUIDE, ("Ana", "Ben", "any guide"))], GUIDE, said, said=acts.no_preference, asks=acts.question
    )
    assert found == [(GUIDE, "any guide")]


@pytest.mark.parametrize("said", ["anyone else?", "is anyone free on Saturday?", "Ana"])
def test_asking_for_someone_else_is_no_preference(said):
    from fsmdial.language import read_acts

    acts = read_acts(said)
    found = no_preference(
        [(GUIDE, ("Ana", "Ben", "any guide"))], GUIDE, said, said=acts.no_preference, asks=acts.question
    )
    assert found == []


@pytest.mark.parametrize("said", ["whoever's free", "any"])
def test_whoever_is_free_books_the_any_value(tour_flow, said):
    calls = booked(tour_flow, "river walk for 2 people", "yes", said, "friday", "yes")
    assert [call["guide"] for call in calls] == ["any guide"]


# ------------------------------------------------------------------ 4. "one" standing for a thing is no number
@pytest.mark.parametrize(
    ("said", "pronoun"),
    [
        ("the red one", True),
        ("I need one", True),
        ("yes we both had one last month", True),
        ("one person", False),
        ("just one", False),
        ("a table for one", False),
        ("make it one", False),
        ("twenty one", False),
        ("1", False),
    ],
)
def test_a_one_standing_for_a_thing(said, pronoun):
    assert only_pronoun_ones(said) is pronoun


def test_a_one_standing_for_a_thing_at_a_yes_no_question_keeps_the_held_count(tour_flow):
    calls = booked(
        tour_flow,
        "me and my daughter would like the river walk",
        "yes we both had one last month",
        "Ana",
        "friday",
        "yes",
    )
    assert [(call["walkers"], call["parking"]) for call in calls] == [(2, True)]


def test_a_count_asked_or_changed_with_a_cue_still_reads_one(tour_flow):
    assert [call["walkers"] for call in booked(tour_flow, "castle walk", "one", "yes", "Ana", "friday", "yes")] == [1]
    calls = booked(tour_flow, "castle walk for 3 people", "yes", "Ana", "friday", "actually make it one person", "yes")
    assert [call["walkers"] for call in calls] == [1]


JOURNEY_FLOW: dict[str, Any] = {
    "name": "coach_seats",
    "description": "Coach seats for a group.",
    "nodes": [
        {
            "id": "ask",
            "type": "request",
            "slots": [
                {
                    "name": "travelers",
                    "type": "integer",
                    "minimum": 1,
                    "maximum": 5,
                    "description": "Number of travelers",
                },
                {"name": "trip", "type": "categorical", "values": ["one way", "return"], "description": "Kind of trip"},
                {"name": "bags", "type": "integer", "minimum": 0, "maximum": 3, "description": "Bags for the trip"},
            ],
        },
        {"id": "bye", "type": "end", "message": "Done."},
    ],
    "edges": [{"source": "ask", "target": "bye"}],
    "start": "ask",
}


@pytest.mark.parametrize(
    ("said", "slots"),
    [
        ("I need seats for three people", {"travelers": 3}),  # travelers are people: "people" names the count
        ("for 2 persons please", {"travelers": 2}),
        ("a one-way trip please", {"trip": "one way"}),  # the "one" of "one-way" counts nothing
        ("one way, for 2 people", {"trip": "one way", "travelers": 2}),
    ],
)
def test_travelers_are_counted_in_people_and_a_one_way_trip_counts_nothing(said: str, slots: dict[str, Any]):
    dialogue = Dialogue(JOURNEY_FLOW, stand_in_tools=True, clock=lambda: NOW)
    dialogue.turn(said)
    assert dialogue.slots == slots


@pytest.mark.parametrize(
    ("said", "count"),
    [
        ("me, my wife and the two kids", 4),  # each who comes counted: not the "two" alone
        ("me and my wife", 2),
        ("just me and my partner please", 2),
        ("2 adults and 2 children", 4),
        ("myself and three colleagues", 4),
        ("my son and his two friends", 3),
        ("me, my partner and a couple of friends", 4),
        ("me and the kids", None),  # one of them uncounted: the flow asks
        ("make that 6 people, my brother is coming too", "none"),  # commas alone join clauses: no party listed
        ("yes, two kids and a cat", "none"),  # a cat comes, but is no one of the party
        ("Yes for 8 people and I will require a reference number.", "none"),  # "I" starts a clause (MultiWOZ)
        ("It's me and me mum and we'll be there 2 nights.", "none"),  # the speaker once: "me mum" is dialect
    ],
)
def test_a_listed_party_counts_each_who_comes(said, count):
    from fsmdial.understand.rules.head_counts import listed_party

    found = listed_party(said)
    if count == "none":
        assert found is None
    else:
        assert found is not None and found[1] == count


@pytest.mark.parametrize(
    ("said", "count"),
    [
        ("two bedrooms and the living room", 3),  # a word ending in the noun counts ("bedroom")
        # beside a room named so, another thing listed is one more: "three" alone was booked (round 10)
        ("three bedrooms, the lounge and the stairs", 5),  # "the stairs" is one staircase
        ("2 bedrooms, the hall and the landing", 4),
        ("the kitchen and the utility room, so two", 2),
        ("the bedrooms and the kitchen", None),  # some rooms, uncounted: the flow asks
        ("2 bedrooms and the cushions", None),
        ("the bedrooms and the bathroom", None),
        ("the lounge and the kitchen", "none"),  # no room named by its words: nothing listed
        ("just the living room", 1),  # one thing of the kind as the whole answer
        ("only the one bedroom please", 1),
        ("the bedrooms", "none"),
    ],
)
def test_things_an_asked_count_counts_are_counted_when_listed(said, count):
    from fsmdial.understand.rules.head_counts import listed_things

    found = listed_things(said, frozenset({"room", "rooms"}))
    if count == "none":
        assert found is None
    else:
        assert found is not None and found[1] == count


def test_a_list_of_things_named_by_their_kind_counts_an_integer_slot_not_asked():
    flow = Path(__file__).resolve().parents[1] / "data" / "heldout_r10" / "flows" / "carpet_cleaning.json"
    said = {
        "we need the carpet cleaned in the front bedroom and the box room": 2,
        "a carpet clean in the lounge and the back bedroom": None,  # "the lounge" is no room by its words
    }
    for message, rooms in said.items():
        dialogue = Dialogue(flow, stand_in_tools=True, clock=FrozenClock("2027-01-06T09:00"))
        dialogue.start()
        dialogue.turn(message)
        assert dialogue.slots.get("rooms") == rooms, message


def test_a_listed_party_is_the_head_count_a_dialogue_stores():
    flow = Path(__file__).resolve().parents[1] / "data" / "heldout_r5" / "flows" / "boat_hire.json"
    dialogue = Dialogue(flow, stand_in_tools=True, clock=FrozenClock("2027-06-17T09:00"))
    dialogue.start()
    dialogue.turn("a rowing boat please")
    result = dialogue.turn("me, my wife and the two kids")
    assert dialogue.slots["people"] == 4
    assert "open" not in result.trace.to_dict().get("understanding", {})  # the count accounts for "wife" too


# ------------------------------------------------------------------ a boolean's noun inside a categorical value said
SERVICE = _slot(
    "service",
    SlotType.categorical,
    values=["safety check", "oil change"],
    description="The garage job (safety check: brake check, winter check; oil change: oil and filter)",
)
PRIORITY = _slot("priority_check", SlotType.boolean, label="priority check", description="Whether it is fast-tracked")


@pytest.mark.parametrize(
    ("said", "read", "stated"),
    [
        # "a brake check" is the job: its "check" says nothing of a priority check (round 9: "a sight test" booked a
        # free NHS test)
        ("can I book the car in for a brake check", {"service": "safety check"}, {}),
        ("I'd like a winter check on the van", {"service": "safety check"}, {}),
        # the noun said beside another job still names the yes/no
        ("an oil change, and I'll take the priority check", {"service": "oil change"}, {"priority_check": True}),
    ],
)
def test_a_boolean_named_by_its_noun_is_not_named_by_the_words_of_a_categorical_value_read(said, read, stated):
    assert stated_unasked([SERVICE, PRIORITY], SERVICE, said, read) == stated
