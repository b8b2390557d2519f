"""Round 28's classes, each a general mechanism, tested on wordings of their own on a small mobile bike-wash flow and
a climbing-wall flow:

- "I'll wait", "I'd prefer to wait": waiting said as what one will do is a side of "wait, or shall we take it
  away?", no change cue; a moment in a side ("the next working day") names neither side ("he's in all day");
- "a couple of us will need ..." says what a part of the party does: no new head count;
- "a bay tonight? just a standard one": a "one" standing for a thing counts nothing, though the date's removal
  wrote it in digits;
- "can I book my son in": a party of one;
- "some will bring their own but most will need them": a need beside one's own is the hire side.
"""

from __future__ import annotations

import pytest

from tests.flows import played, request_flow

WASH = request_flow(
    {
        "name": "bikes",
        "type": "integer",
        "minimum": 1,
        "maximum": 9,
        "label": "number of bikes",
        "ask": "How many bikes?",
    },
    {
        "name": "wait",
        "type": "boolean",
        "label": "waiting",
        "description": "Whether the customer waits while it is done (yes) or we take the bikes away and "
        "bring them back the next working day (no)",
        "ask": "Would you like to wait while we wash them, or shall we take them away and bring them back "
        "the next working day?",
    },
    {"name": "customer_name", "type": "person_name", "ask": "What name is it under?"},
    name="bike_wash",
)
NOW = "2027-06-01T10:00"


@pytest.mark.parametrize(
    ("said", "wait"),
    [
        ("I'll wait, no problem", True),
        ("we'd rather wait, we need them tomorrow", True),
        ("he'll wait, he's in all day", True),
        ("take them away please", False),
    ],
)
def test_waiting_said_as_what_one_will_do_is_a_side_not_a_change(said, wait):
    dialogue = played(WASH, NOW, "3")
    dialogue.turn(said)
    assert dialogue.slots["wait"] is wait and dialogue.slots["bikes"] == 3


CLIMB = request_flow(
    {
        "name": "session",
        "type": "categorical",
        "values": ["standard session", "kids session"],
        "ask": "A standard session or a kids session?",
    },
    {"name": "day", "type": "date", "earliest": "today", "ask": "Which day?"},
    {
        "name": "climbers",
        "type": "integer",
        "minimum": 1,
        "maximum": 10,
        "description": "How many people are climbing",
        "ask": "How many of you?",
    },
    {
        "name": "shoes",
        "type": "boolean",
        "label": "shoe hire",
        "description": "Whether climbing shoes are hired from us (yes) or they bring their own (no)",
        "ask": "Do you need to hire shoes, or are you bringing your own?",
    },
    {"name": "customer_name", "type": "person_name", "ask": "What name is it under?"},
    name="climbing_wall",
)


def test_a_part_of_the_party_replaces_no_head_count():
    dialogue = played(CLIMB, NOW, "a standard session tomorrow for 5 people")
    dialogue.turn("yeah a couple of us will need to borrow some")
    assert dialogue.slots["climbers"] == 5 and dialogue.slots["shoes"] is True


def test_a_pronoun_one_beside_a_date_counts_nothing():
    dialogue = played(CLIMB, NOW)
    dialogue.turn("any chance of a session tomorrow? just a standard one")
    assert dialogue.slots["session"] == "standard session" and "climbers" not in dialogue.slots


def test_booking_someone_in_is_a_party_of_one():
    dialogue = played(CLIMB, NOW)
    dialogue.turn("can I book my daughter in for the kids one on saturday")
    assert dialogue.slots["climbers"] == 1 and dialogue.slots["session"] == "kids session"


@pytest.mark.parametrize(
    ("said", "address"),
    [
        ("7 Brincliffe Edge Road, S11 9BW, Sheffield", "7 Brincliffe Edge Road, S11 9BW, Sheffield"),
        ("22 Mill Lane, LS6 2AB, Leeds.", "22 Mill Lane, LS6 2AB, Leeds"),
        ("22 Mill Lane, LS6 2AB, friday please", "22 Mill Lane, LS6 2AB"),
    ],
)
def test_a_town_said_after_the_postcode_is_part_of_the_address(said, address):
    from fsmdial.language.addresses import find_addresses

    assert find_addresses(said)[0][1] == address


@pytest.mark.parametrize(
    ("said", "shoes"),
    [
        ("some will bring their own but most will need them", True),
        ("we've got our own, we won't need them", False),
        ("we'll bring our own", False),
    ],
)
def test_a_need_said_beside_ones_own_is_the_hire_side(said, shoes):
    dialogue = played(CLIMB, NOW, "a standard session tomorrow for 5 people")
    dialogue.turn(said)
    assert dialogue.slots["shoes"] is shoes


def test_bringing_people_names_no_side_of_bringing_ones_own():
    dialogue = played(CLIMB, NOW, "a standard session tomorrow")
    dialogue.turn("there'll be 3 of us, actually make that 5, my brother's bringing his lads")
    assert dialogue.slots["climbers"] == 5 and "shoes" not in dialogue.slots
