"""Places said after their cue word (rules): which free-text slots hold a place and on which side of a journey
(:func:`~fsmdial.understand.rules.places.place_role`, from the slot's own name and description), the place after
"in", "from", "to" (:func:`~fsmdial.understand.rules.places.read_places`), and a small coach-booking flow whose
turns store only the place said, never the words around it; and the answer to what kind of thing (a cuisine, a genre)
without the words around it (:func:`~fsmdial.understand.rules.text_values.kind_value`).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from fsmdial.flow import Slot, SlotType
from fsmdial.runtime import Dialogue
from fsmdial.understand.rules.places import DESTINATION, ORIGIN, WHERE, place_role, place_slots, read_places
from fsmdial.understand.rules.text_values import kind_value

NOW = dt.datetime(2026, 11, 24, 10, 0)


def _text(name: str, description: str = "") -> Slot:
    return Slot(name=name, type=SlotType.string, description=description)


@pytest.mark.parametrize(
    ("name", "description", "role"),
    [
        ("from_location", "City where bus is leaving from", ORIGIN),
        ("to_location", "City where bus is going to", DESTINATION),
        ("origin_city", "City in which the journey originates", ORIGIN),
        ("destination", "Location of the hotel", DESTINATION),
        ("city_of_event", "City where event is happening", WHERE),
        ("city", "Name of the city", WHERE),
        ("pickup_city", "City to pick up the rental car", ORIGIN),  # "to" of a description is no destination
        ("area", "City where the apartment is located", WHERE),
        ("event_location", "Name of event location", None),  # a venue's name
        ("street_address", "Street address of the accommodation", None),
        ("from_station", "Station where bus is leaving from", None),
        ("restaurant_name", "Name of the restaurant", None),
        ("problem", "What is wrong with the boiler", None),
    ],
)
def test_a_slot_holds_a_place_by_its_own_words(name: str, description: str, role: str | None):
    assert place_role(_text(name, description)) == role


def test_only_free_text_slots_hold_places():
    assert place_role(Slot(name="city", type=SlotType.categorical, values=["Leeds", "York"])) is None
    assert place_role(Slot(name="city", type=SlotType.string, pattern="[A-Z]+")) is None


BUS = place_slots([_text("from_location", "City where bus is leaving from"), _text("to_location", "Destination city")])
HOTEL = place_slots([_text("destination", "Location of the hotel")])
EVENTS = place_slots([_text("city_of_event", "City where event is happening")])


@pytest.mark.parametrize(
    ("places", "text", "read"),
    [
        (
            BUS,
            "I need a bus from Long Beach to San Francisco for three people.",
            {"from_location": "Long Beach", "to_location": "San Francisco"},
        ),
        (
            BUS,
            "travelling from Vancouver to Seattle, WA on March 5th at 8:30 am.",
            {"from_location": "Vancouver", "to_location": "Seattle, WA"},
        ),
        (BUS, "I need it from Monday next week", {}),  # a weekday is no place
        (HOTEL, "I am looking for a hotel room in Nairobi, Kenya", {"destination": "Nairobi, Kenya"}),
        (EVENTS, "I'm looking for events around the city of New York", {"city_of_event": "New York"}),
        (EVENTS, "Anything fun in Washington D.C.?", {"city_of_event": "Washington D.C."}),
        (EVENTS, "Something in March, at 8 PM", {}),  # a month and a time are no places
        (EVENTS, "something fun in the evening", {}),  # unasked, a place is written as a name
    ],
)
def test_a_place_is_the_name_after_its_cue(places: Any, text: str, read: dict[str, str]):
    assert read_places(places, text, None) == read


def test_the_asked_place_may_be_written_in_lower_case_but_is_still_only_a_place():
    city = EVENTS[0][0]
    assert read_places(EVENTS, "Look in anaheim", city) == {"city_of_event": "anaheim"}
    assert read_places(EVENTS, "In london, England please.", city) == {"city_of_event": "london, England"}
    assert read_places(EVENTS, "something in the evening", city) == {}


def test_a_categorical_value_is_no_place():
    assert read_places(EVENTS, "I like events in Music", None, taken=("music",)) == {}


COACH_FLOW: dict[str, Any] = {
    "name": "coach_tickets",
    "description": "Book coach tickets between two towns.",
    "examples": ["I'd like to book a coach"],
    "nodes": [
        {
            "id": "ask",
            "type": "request",
            "slots": [
                {"name": "from_town", "type": "string", "description": "Town the coach leaves from"},
                {"name": "to_town", "type": "string", "description": "Town the coach is going to"},
                {"name": "travel_date", "type": "date", "description": "Day of travel"},
            ],
        },
        {"id": "book", "type": "external_action", "tool": "book", "arguments": {}},
        {"id": "bye", "type": "end", "message": "Booked."},
    ],
    "edges": [{"source": "ask", "target": "book"}, {"source": "book", "target": "bye"}],
    "start": "ask",
}


def test_places_said_unasked_and_asked_are_stored_without_the_words_around_them():
    dialogue = Dialogue(COACH_FLOW, stand_in_tools=True, clock=lambda: NOW)
    dialogue.turn("I want a coach to York, please")
    assert dialogue.slots == {"to_town": "York"}
    dialogue.turn("I'm leaving from Leeds on Friday")  # the asked origin, and the day said with it
    assert dialogue.slots["from_town"] == "Leeds"
    assert dialogue.slots["travel_date"] == "2026-11-27"


RENTAL = place_slots(
    [_text("pickup_city", "City to pick up the rental car"), _text("pickup_location", "Location of rental car pickup")]
)


@pytest.mark.parametrize(
    ("said", "read"),
    [
        ("I would need a large rental car on March 8th in Phoenix, AZ.", {"pickup_city": "Phoenix, AZ"}),
        ("I'd like to pick it up from Anaheim, CA next Wednesday", {"pickup_city": "Anaheim, CA"}),
    ],
)
def test_of_two_places_of_one_role_a_name_goes_to_the_town(said: str, read: dict[str, str]):
    # Where the flow's only places are where something starts, "in Phoenix" is one; of a pick-up city and a pick-up
    # location, a place written as a name is the city
    assert read_places(RENTAL, said, None) == read


CUISINE = Slot(name="category", type=SlotType.string, description="Type of cuisine served")


@pytest.mark.parametrize(
    ("said", "kind"),
    [
        ("I want some Korean food!", "Korean"),
        ("I can only eat Pizza and Pasta, I'm on a strict diet", "Pizza and Pasta"),
        ("I'd like somewhere with sushi.", "sushi"),
        ("Try the drama.", "drama"),
        ("Italian", "Italian"),
        ("honestly I don't mind what it is as long as it is open late tonight", None),  # more than a kind: as said
    ],
)
def test_the_answer_to_what_kind_is_the_kind_without_the_words_around_it(said: str, kind: str | None):
    assert kind_value(CUISINE, said) == kind


def test_only_a_slot_asking_what_kind_reads_a_kind():
    assert kind_value(_text("problem", "What is wrong with the boiler"), "I want some Korean food") is None


def test_the_kind_asked_is_stored_without_the_words_around_it():
    flow = {
        "name": "dinner",
        "description": "Find a restaurant.",
        "nodes": [
            {
                "id": "ask",
                "type": "request",
                "slots": [{"name": "category", "type": "string", "description": "Type of cuisine"}],
            },
            {"id": "bye", "type": "end", "message": "Done."},
        ],
        "edges": [{"source": "ask", "target": "bye"}],
        "start": "ask",
    }
    dialogue = Dialogue(flow, stand_in_tools=True, clock=lambda: NOW)
    dialogue.start()
    dialogue.turn("I want some Korean food!")
    assert dialogue.slots == {"category": "Korean"}


def test_a_text_slot_holding_more_than_where_is_no_place():
    """ "The design and where on the body it goes": "in cursive" in its answer is no place (it was read as one, and
    the design booked as "cursive"); a slot whose description is a where still is."""
    from fsmdial.flow import Slot, SlotType
    from fsmdial.understand.rules.places import place_role

    design = Slot(name="design", type=SlotType.text, description="The design and where on the body it goes")
    assert place_role(design) is None
    meeting = Slot(name="meeting_point", type=SlotType.text, description="Where the guide meets the group")
    assert place_role(meeting) is not None
