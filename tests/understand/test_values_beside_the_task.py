"""Values said beside the task, on a small flow written here (a clock repairer's visit), each with wordings of its
own: a categorical value inside its own longer synonym ("my grandfather clock" where "grandfather clock" is listed
for "longcase") is that value; a word of another slot's forms ("clock") tells no value of the job; a street with an
ordinary street word ("close") in lower case is an address when a house number comes before it and a postcode after."""

from __future__ import annotations

from typing import Any

import pytest

from fsmdial.flow import Slot, SlotType
from fsmdial.language import parse_yes_no
from fsmdial.language.addresses import find_addresses
from fsmdial.language.amounts import find_durations
from fsmdial.language.dates import without_past_moments
from fsmdial.language.names import introduced_name
from fsmdial.language.times import read_clock
from fsmdial.loader import load_flow
from fsmdial.runtime import Dialogue
from fsmdial.testing import FrozenClock
from fsmdial.understand.rules.changes import says_change
from fsmdial.understand.rules.first_time import first_time_answer
from fsmdial.understand.rules.places import is_place
from fsmdial.understand.rules.worded_answers import boolean_reply, stated_unasked
from tests.flows import request_flow
from tests.understand.test_ranges_groups_and_sides import _dialogue

CLOCKS: dict[str, Any] = {
    "name": "clock_repair",
    "nodes": [
        {
            "id": "ask_job",
            "type": "request",
            "slots": [
                {
                    "name": "job",
                    "type": "categorical",
                    "values": ["service", "repair"],
                    "description": "What the visit is for (service: clean and oil, overhaul, annual check; repair: "
                    "broken spring, broken clock, stopped ticking, chime not working, wound too tight)",
                    "ask": "A service or a repair?",
                }
            ],
        },
        {
            "id": "ask_details",
            "type": "request",
            "slots": [
                {
                    "name": "clock_type",
                    "type": "categorical",
                    "values": ["longcase", "wall", "mantel"],
                    "description": "The kind of clock (longcase: longcase clock, grandfather clock, tall clock; wall: "
                    "wall clock; mantel: mantel clock, carriage clock)",
                    "ask": "What kind of clock is it?",
                },
                {"name": "address", "type": "address", "ask": "What's the address?"},
            ],
        },
        {"id": "done", "type": "end", "message": "Thanks."},
    ],
    "edges": [{"source": "ask_job", "target": "ask_details"}, {"source": "ask_details", "target": "done"}],
}


def _first(said: str) -> dict[str, Any]:
    dialogue = Dialogue(load_flow(CLOCKS), stand_in_tools=True, clock=FrozenClock("2027-02-01T09:00"))
    dialogue.start()
    dialogue.turn(said)
    return dict(dialogue.slots)


@pytest.mark.parametrize(
    ("said", "kind"), [("a service for my grandfather clock", "longcase"), ("a service please, a wall clock", "wall")]
)
def test_a_value_inside_its_own_longer_synonym_is_that_value(said, kind):
    assert _first(said).get("clock_type") == kind


def test_a_word_of_another_slots_forms_tells_no_value_of_the_job():
    """ "clock" names the clock types: beside "tight" (of the repair's "wound too tight") it tells no repair."""
    slots = _first("it's the old mantel clock, we're a bit tight on space in the hall")
    assert slots.get("clock_type") == "mantel" and "job" not in slots


@pytest.mark.parametrize(
    ("said", "found"),
    [
        ("9 oak close, bath ba2 4qt", "9 oak close, bath BA2 4QT"),
        ("we'll be 8 close to the station", None),  # no number before, no postcode: "close" is a word
        ("9 oak close, bath", None),  # no postcode: in lower case, "close" may be an ordinary word
    ],
)
def test_a_lower_case_street_with_an_ordinary_street_word_before_a_postcode(said, found):
    assert [value for _, value in find_addresses(said)][:1] == ([found] if found else [])


# ------------------------------------------------------------------ round 15's second classes, as language readers
def test_a_unit_said_alone_is_no_length_and_no_doubt():
    assert [amount for _, _, amount, _ in find_durations("a clean on boxing day? 90 mins")] == [90.0]
    assert [amount for _, _, amount, _ in find_durations("the day after, 2 hours")] == [2.0]
    assert find_durations("a few hours") == ()  # how many: in doubt, asked
    assert [amount for _, _, amount, _ in find_durations("an hour on Thursday at 11")] == [1.0]  # a length, on a day
    assert find_durations("a week on Wednesday") == ()  # a day counted from another


def test_the_day_of_an_event_the_booking_comes_before_is_no_booking_day():
    assert "Sunday" not in without_past_moments("a service before my race on Sunday please")
    assert "Sunday" in without_past_moments("after my shift on Sunday please")  # a booking after it may be that day


def test_a_bare_hour_after_a_part_of_the_day_chosen_then():
    assert read_clock("oh ok. tuesday morning then, 10 if you can") == "10:00"


@pytest.mark.parametrize(("said", "first"), [("been loads of times", False), ("came twice last year", False)])
def test_visits_counted_say_an_earlier_visit(said, first):
    slot = Slot(name="first_visit", type=SlotType.boolean, label="first visit", ask="Is this your first visit?")
    assert first_time_answer(slot, said) is first


def test_a_slot_kept_in_the_customers_words_is_no_place():
    said = "Which areas to work on, in the client's words"
    assert not is_place(Slot(name="focus_area", type=SlotType.text, description=said))
    assert is_place(Slot(name="area", type=SlotType.text, description="The area of the city"))


def test_digits_put_right_inside_a_held_phone_number():
    flow = {
        "name": "callback",
        "nodes": [
            {
                "id": "ask",
                "type": "request",
                "slots": [
                    {"name": "customer_name", "type": "person_name", "ask": "Your name?"},
                    {"name": "phone", "type": "phone", "region": "GB", "ask": "And your number?"},
                ],
            },
            {"id": "confirm", "type": "inform_and_confirm", "message": "{customer_name}, {phone}.", "question": "OK?"},
            {"id": "done", "type": "end", "message": "Thanks."},
        ],
        "edges": [
            {"source": "ask", "target": "confirm"},
            {"source": "confirm", "target": "done", "when": {"answer": "yes"}},
        ],
    }
    dialogue = Dialogue(load_flow(flow), stand_in_tools=True)
    dialogue.start()
    for said in ("Ada Lovelace", "07700 900 461"):
        dialogue.turn(said)
    dialogue.turn("sorry, the end of the number is 416 not 461")
    assert dialogue.slots["phone"] == "07700900416"


def test_a_street_said_with_a_change_cue_while_another_question_is_asked_changes_the_held_address():
    flow = request_flow(
        {"name": "address", "type": "address", "ask": "The address?"},
        {"name": "day", "type": "date", "ask": "Which day?"},
        name="visit",
    )
    dialogue = Dialogue(load_flow(flow), stand_in_tools=True, clock=FrozenClock("2027-02-01T09:00"))
    dialogue.start()
    dialogue.turn("21 Mill Lane, Bath BA2 4QT")
    dialogue.turn("sorry, wrong house number, it's 12 Mill Lane. And Thursday please")
    assert dialogue.slots["address"].startswith("12 Mill Lane") and dialogue.slots["day"] == "2027-02-04"


@pytest.mark.parametrize(
    ("said", "job"), [("could someone inspect my clock?", "inspection"), ("I'd like my clock valued", "valuation")]
)
def test_a_value_said_by_the_verb_its_name_is_made_from(said, job):
    job_slot = {
        "name": "job",
        "type": "categorical",
        "values": ["inspection", "valuation", "repair"],
        "ask": "Inspection, valuation or repair?",
    }
    flow = request_flow(job_slot, name="clock_check")
    dialogue = Dialogue(load_flow(flow), stand_in_tools=True)
    dialogue.start()
    dialogue.turn(said)
    assert dialogue.slots.get("job") == job


@pytest.mark.parametrize(
    ("said", "clock"), [("anytime after lunch, say 1.30", "1:30 (12-hour clock)"), ("it costs 8.30", None)]
)
def test_a_dotted_time_after_say_is_a_time_and_a_price_is_none(said, clock):
    assert read_clock(said) == clock


def test_change_the_named_slot_to_a_value_is_a_change_cue():
    assert says_change("yes but can you change the time to 3 please")
    assert says_change("could we move the appointment to Friday")


@pytest.mark.parametrize(
    ("said", "answer"),
    [
        ("definitely not", "no"),
        ("absolutely not, I'll be in", "no"),
        ("of course not", "no"),
        ("not at all", "no"),
        ("I guess not", "no"),
        ("of course", "yes"),
        ("definitely", "yes"),
    ],
)
def test_a_yes_word_with_not_is_a_no(said, answer):
    assert parse_yes_no(said) == answer


DOORSTEP = Slot(
    name="doorstep",
    type=SlotType.boolean,
    description="Whether the driver may take the bags left on the doorstep if nobody answers; otherwise the customer "
    "must hand them over in person",
    ask="If nobody's in, can we take the bags from your doorstep?",
)


def test_a_bare_hour_after_a_limit_is_the_time_chosen_inside_it():
    assert read_clock("any time before noon, 10 is good") == "10:00 (12-hour clock)"


@pytest.mark.parametrize(
    ("said", "items"),
    [
        ("I'd like to arrange a collection of bedding please", None),  # the kind's own name's word: no item
        ("a couple of duvets please", None),
        ("a king size duvet and two pillows", "a king size duvet and two pillows"),
    ],
)
def test_the_words_of_a_kinds_own_name_name_no_item(said, items):
    service = {
        "name": "service",
        "type": "categorical",
        "values": ["duvets and bedding", "wash and fold"],
        "description": "The service (duvets and bedding: duvet, bedding, pillows, sheets; wash and fold: washing, "
        "laundry)",
        "ask": "Which service?",
    }
    flow = request_flow(service, {"name": "items", "type": "text", "ask": "Which items?"}, name="laundry")
    dialogue = Dialogue(load_flow(flow), stand_in_tools=True)
    dialogue.start()
    dialogue.turn(said)
    assert dialogue.slots.get("service") == "duvets and bedding" and dialogue.slots.get("items") == items


@pytest.mark.parametrize(("said", "people"), [("a canoe for two, on saturday at 10", 2), ("a canoe for one please", 1)])
def test_a_booking_for_a_number_of_people(said, people):
    assert _dialogue(said).slots.get("people") == people


def test_a_full_name_after_its_in_a_sentence_of_its_own_before_the_number():
    assert introduced_name("can you come tomorrow at 11? It's Ruth Caddick, 07700 900 204") == "Ruth Caddick"
    assert introduced_name("we moved. It's Long Ashton, near Bristol") is None


def test_i_would_rather_not_is_a_no():
    assert parse_yes_no("i'd rather not, I'll be in") == "no"


def test_words_of_a_moment_name_no_side_in_passing():
    assert stated_unasked([FIRING], None, "I'm visiting Sheffield next week", {}) == {}
    assert stated_unasked([FIRING], None, "we'll take them home unfired", {}) == {"firing": False}


FIRING = Slot(
    name="firing",
    type=SlotType.boolean,
    description="Whether the studio fires the pieces for the customer to collect three weeks later (yes); otherwise "
    "the customer takes them home unfired on the day (no)",
    ask="Would you like us to fire your pieces?",
)


@pytest.mark.parametrize(
    ("slot", "said", "answer"),
    [
        (DOORSTEP, "yes, I'll leave them under the bench", True),  # "them" names no side
        (DOORSTEP, "not really, the porch isn't covered", False),  # the no said first, then its reason
        (DOORSTEP, "ok fine, no, I'll hand them over", False),
        (DOORSTEP, "no, I'll be in", False),
        (FIRING, "fire them please", True),  # "fire" and the description's "fires" are one word
        (FIRING, "we'll pick them up when they're done, yes", True),  # the yes said last
        (FIRING, "nah we'll take them home", False),
    ],
)
def test_a_boolean_answered_by_a_yes_or_no_around_its_reason_or_by_a_side_in_another_form(slot, said, answer):
    assert boolean_reply(slot, said) is answer
