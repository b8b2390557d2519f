"""The rules understander on customers' words, per mechanism (issue 20), on the example flows.

Each test plays the flow with a frozen clock and checks what the dialogue keeps, so a reading that
the runtime would refuse or undo does not pass.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any

import pytest

from fsmdial.assistant import Assistant
from fsmdial.runtime import Dialogue
from tests.conftest import FLOWS, REPO

NOW = dt.datetime(2026, 11, 23, 10, 0)
PIZZA = REPO / "examples" / "pizza_shop" / "flow.json"


def play(flow: str, turns: Sequence[str]) -> Dialogue:
    dialogue = Dialogue(
        str(FLOWS / flow) if not flow.endswith("flow.json") else flow, stand_in_tools=True, clock=lambda: NOW
    )
    dialogue.start()
    for text in turns:
        dialogue.turn(text)
    return dialogue


def slots(flow: str, *turns: str) -> dict[str, Any]:
    return dict(play(flow, turns).slots)


VET_START = ("Zara Ali", "Pepper")


# ------------------------------------------------------------------ categorical values
@pytest.mark.parametrize(
    ("said", "species"),
    [
        ("dogs", "dog"),
        ("guinea pigs", "guinea pig"),
        ("he's a puppy", "dog"),
        ("a budgie", "bird"),
        ("a bearded dragon, so a lizard", "reptile"),
        ("a rabit", "rabbit"),
        ("guinae pig", "guinea pig"),
    ],
)
def test_plurals_synonyms_and_typos_of_a_categorical_value(said, species):
    assert slots("vet_appointment.json", *VET_START, said).get("species") == species


@pytest.mark.parametrize("said", ["the car is outside", "a cut on his paw", "what do you treat?"])
def test_ordinary_words_are_no_categorical_value(said):
    assert "species" not in slots("vet_appointment.json", *VET_START, said)


def test_a_number_inside_a_value_is_no_quantity():
    kept = slots(str(PIZZA), "four cheese then")
    assert kept.get("pizza") == "four cheese" and "quantity" not in kept


def test_one_standing_for_a_value_is_no_quantity():
    kept = slots("grocery_delivery.json", "the mixed one then")
    assert kept.get("box") == "mixed box" and "quantity" not in kept


# ------------------------------------------------------------------ patterned slots
def test_a_value_goes_to_the_slot_of_its_form_with_cue_words_naming_it():
    kept = slots(
        "vet_appointment.json",
        "Hi, I'm Tom Becker, I'd like to bring my cat Luna in. You can reach me on 07123 456 789 or tom.becker@web.de",
    )
    assert kept["owner_name"] == "Tom Becker" and kept["pet_name"] == "Luna" and kept["species"] == "cat"
    assert kept["phone"] == "07123456789" and kept["email"] == "tom.becker@web.de"


def test_digit_groups_are_one_number_and_an_email_may_be_read_out():
    kept = slots("vet_appointment.json", *VET_START, "dog", "ear infection", "tomorrow", "noon", "07700 222 333")
    assert kept["phone"] == "07700222333"
    kept = slots(
        "vet_appointment.json",
        *VET_START,
        "dog",
        "ear",
        "tomorrow",
        "noon",
        "07700222333",
        "zara dot ali at gmail dot com",
    )
    assert kept["email"] == "zara.ali@gmail.com"


def test_spaced_digits_are_one_account_number_not_its_first_group():
    assert slots("bank_fraud_report.json", "Mark Twain", "1234 5678")["account_number"] == "12345678"


def test_a_correction_goes_to_the_earlier_slot_whose_form_it_has():
    kept = slots("bank_fraud_report.json", "Ana Silva", "12345678", "sorry, wrong number, it's 12345679")
    assert kept["account_number"] == "12345679" and "pin" not in kept


# ------------------------------------------------------------------ free text
def test_a_date_inside_a_free_text_answer_is_not_read_for_another_slot():
    dialogue = play(
        "bank_fraud_report.json",
        [
            "Gary Oldman",
            "dont have it on me",
            "3 May 1985",
            "Miller",
            "Buddy",
            "someone withdrew 500 pounds on November 21st",
        ],
    )
    assert dialogue.slots["date_of_birth"] == "1985-05-03"
    assert dialogue.slots["fraud_report"] == "someone withdrew 500 pounds on November 21st"


def test_a_free_text_answer_is_taken_whole_even_with_a_dont_know_or_an_example_inside():
    said = "someone used my card online at a shop in China"  # holds one of the flow's examples
    assert slots("bank_fraud_report.json", "Ivan Horvat", "22334455", "8642", said)["fraud_report"] == said
    said = "there's a transfer of 900 euros to an account I don't know"
    assert slots("bank_fraud_report.json", "Tom Hardy", "55512345", "2468", said)["fraud_report"] == said


def test_an_address_loses_the_words_in_front_of_it():
    assert slots("grocery_delivery.json", "vegetable box", "1", "Please send it to 18 Harbour View, Brighton")[
        "address"
    ] == ("18 Harbour View, Brighton")


# ------------------------------------------------------------------ names
@pytest.mark.parametrize(
    ("turns", "slot", "name"),
    [
        (
            ("Gary Oldman", "dont have it on me", "3 May 1985", "her maiden name was Miller"),
            "mothers_maiden_name",
            "Miller",
        ),
        (
            ("Gary Oldman", "dont have it on me", "3 May 1985", "Miller", "we had a dog called Buddy"),
            "childhood_pet",
            "Buddy",
        ),
    ],
)
def test_a_name_after_its_cue_words_is_the_name_alone(turns, slot, name):
    assert slots("bank_fraud_report.json", *turns)[slot] == name


def test_another_name_of_the_flow_said_with_its_words_goes_to_its_slot():
    kept = slots("vet_appointment.json", "yeah hi um this is Rachel Green", "uh the pet's name is Chandler")
    assert kept == {"owner_name": "Rachel Green", "pet_name": "Chandler"}
    kept = slots("vet_appointment.json", "this is Maya Patel speaking", "her name is Daisy")
    assert kept == {"owner_name": "Maya Patel", "pet_name": "Daisy"}


# ------------------------------------------------------------------ corrections
def test_a_word_put_in_place_of_another_edits_the_free_text_holding_it():
    dialogue = play(
        "grocery_delivery.json",
        [
            "fruit box",
            "2",
            "12 Mill Lane, Oxford",
            "tomorrow",
            "11am",
            "Amy Lee",
            "07700900321",
            "yes but the house number is 14, not 12",
        ],
    )
    assert dialogue.slots["address"] == "14 Mill Lane, Oxford"
    assert not dialogue.session.calls  # nothing placed: the order is confirmed again


def test_a_cued_value_at_the_confirmation_changes_it_and_does_not_commit():
    dialogue = play(
        "vet_appointment.json",
        [
            *VET_START,
            "cat",
            "dental check",
            "tomorrow",
            "3pm",
            "07444555666",
            "sam.reed@gmail.com",
            "correct, but the email should be sam.reed@outlook.com",
        ],
    )
    assert dialogue.slots["email"] == "sam.reed@outlook.com" and not dialogue.session.calls


def test_people_words_name_the_party_size_at_the_confirmation():
    dialogue = play(
        "restaurant_booking.json",
        ["Jonas", "4 people", "on Saturday", "at 1pm", "fine but not for 4 people, we'll be 5"],
    )
    assert dialogue.slots["party_size"] == 5 and not dialogue.session.calls


def test_the_last_correction_inside_a_message_counts():
    assert slots(str(PIZZA), "one large margherita and... actually make that two")["quantity"] == 2


def test_a_correction_at_a_free_text_question_reads_its_values():
    kept = slots("grocery_delivery.json", "vegetable box", "2", "actually make that 3 boxes")
    assert kept["quantity"] == 3 and "address" not in kept


# ------------------------------------------------------------------ don't know
def test_dont_know_then_the_value_reads_the_value():
    assert (
        slots(
            "grocery_delivery.json",
            "fruit box",
            "1",
            "hmm I don't know the exact address... hold on, it's 3 Rose Lane, Bath",
        )["address"]
        == "3 Rose Lane, Bath"
    )


# ------------------------------------------------------------------ routing
def test_the_assistant_routes_a_task_by_its_own_words_and_names_its_tasks_otherwise():
    flows = [FLOWS / "restaurant_booking.json", FLOWS / "vet_appointment.json", FLOWS / "grocery_delivery.json"]
    assistant = Assistant(flows, stand_in_tools=True, clock=lambda: NOW)
    assistant.start()
    assert assistant.turn("I need a vegetable box delivered").flow == "grocery_delivery"
    other = Assistant(flows, stand_in_tools=True, clock=lambda: NOW)
    other.start()
    reply = other.turn("what's the weather like?")
    assert reply.flow is None
    assert (
        reply.text
        == "Sorry, I can help with restaurant booking, vet appointment and grocery delivery. What would you like to do?"
    )


# ------------------------------------------------------------------ no preference, values of several slots
CLEMTODD_RESTAURANT = REPO / "eval" / "fsmdial_eval" / "clemtodd" / "flows" / "restaurant.json"


def _restaurant_state():
    dialogue = Dialogue(str(CLEMTODD_RESTAURANT), stand_in_tools=True, clock=lambda: NOW)
    dialogue.start()
    return dialogue.understanding_state()


@pytest.mark.parametrize(
    ("said", "read"),
    [
        ("I don't care about the price range", {"restaurant_pricerange": "any price range"}),
        ("any area is fine", {"restaurant_area": "any area"}),
        ("It doesn't matter to me.", {}),  # the food asked has no "any" value: asked again
    ],
)
def test_no_preference_fills_the_constraint_it_names_with_its_any_value(said, read):
    from fsmdial.understand.rules import RulesUnderstander

    assert RulesUnderstander().understand(_restaurant_state(), said).slots == read


@pytest.mark.parametrize(
    ("said", "read"),
    [
        (
            "I need a restaurant in the North cheap priced",
            {"restaurant_area": "north", "restaurant_pricerange": "cheap"},
        ),
        ("north american food please", {"food": "north american"}),
    ],
)
def test_a_value_goes_to_the_slot_it_is_written_whole_for(said, read):
    from fsmdial.understand.rules import RulesUnderstander

    assert RulesUnderstander().understand(_restaurant_state(), said).slots == read


def test_an_all_in_one_order_reads_the_quantity_by_its_words_and_the_address_after_its_cue():
    kept = slots("grocery_delivery.json", "can you deliver 2 mixed boxes to 7 High Street, Bath tomorrow at 5pm?")
    assert kept["box"] == "mixed box" and kept["quantity"] == 2 and kept["address"] == "7 High Street, Bath"
    assert kept["delivery_day"] == "2026-11-24" and kept["delivery_time"] == "17:00"
    kept = slots("grocery_delivery.json", "fruit box", "1", "my address is 4 Elm Road, Leeds")
    assert kept["address"] == "4 Elm Road, Leeds"


@pytest.mark.parametrize(
    ("said", "flow"),
    [
        ("I'm looking for a British restaurant, in the expensive price range.", "restaurant"),
        ("I'd like a restuarant in the north with expensive food.", "restaurant"),
        ("Hi, I am planning a trip to Cambridge and need some help with restaurants.", "restaurant"),
    ],
)
def test_a_first_message_with_a_tasks_constraints_is_routed_to_it(said, flow):
    flows = sorted((REPO / "eval" / "fsmdial_eval" / "clemtodd" / "flows").glob("*.json"))
    assistant = Assistant(flows, stand_in_tools=True, clock=lambda: NOW)
    assistant.start()
    assert assistant.turn(said).flow == flow


def test_a_yes_with_thats_all_confirms_and_says_no_goodbye():
    dialogue = play(
        "vet_appointment.json",
        [
            *VET_START,
            "cat",
            "dental check",
            "tomorrow",
            "3pm",
            "07444555666",
            "zara@mail.com",
            "yep that's all correct",
        ],
    )
    assert dialogue.session.calls  # booked, not ended by a goodbye before the booking


@pytest.mark.parametrize(
    ("said", "name"),
    [
        ("actually make it Bob Smith", "Bob Smith"),
        ("can you change the name to Bob Smith", "Bob Smith"),
        ("the name is wrong, it's Bob Smith", "Bob Smith"),
        ("make it friday instead", "Alex"),  # a day is no name
        ("it's Oxford Street", "Alex"),  # a self-introduction once the name is given changes nothing
    ],
)
def test_a_name_corrected_at_the_confirmation(said, name):
    dialogue = play("restaurant_booking.json", ["Alex", "4", "tomorrow", "7pm", said])
    assert dialogue.slots["name"] == name and not dialogue.session.calls
