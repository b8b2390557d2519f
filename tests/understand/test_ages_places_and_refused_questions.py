"""Round 29's classes, each a general mechanism, tested on wordings of their own on a small pottery-class flow and a
mobile sharpening flow:

- a value said in passing and refused with a question of its own ("The van comes 9 am to 5 pm. What time would suit
  you?") makes that slot the one asked: "4 then" answers it;
- a self-correction at a question ("4 pm, no sorry, make that 5") gives its one number to the slot asked, not also
  to another count beside it;
- a word of a compound ("a drop-down ladder") takes nothing away;
- a number in a yes/no slot's name is part of its subject ("under my wife's name" says nothing of ``under_16``), and
  the bound a yes/no question says ("under 16"), said again, is no count;
- "yes, my two lads will be there" to another question is a part of the party: the count held stays;
- "ok great. no, no kids": the sentence acknowledging what the bot said goes; the no answers;
- ages said beside the children's word ("two of them are kids, 9 and 10") or by decade ("we're all in our twenties");
- "two places on your class": places, spaces and seats count people;
- "for my wife and I as a treat": a party of two;
- "great stuff, yes" and "yes thankyou" at a confirmation are a plain yes;
- a statement, then a question, to a question asking what the host should know: the statement describes;
- a house number said in words ("twenty one Westbourne Road, Sheffield S10 2QQ") is kept, in digits;
- a weekday said alone right after a date was refused ("Monday the 28th?", closed; "the Tuesday then") is the one
  nearest the refused date.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.flows import booking_flow, played, request_flow

POTTERY = booking_flow(
    {
        "name": "session",
        "type": "categorical",
        "values": ["wheel class", "hand building", "private party"],
        "ask": "A wheel class, hand building or a private party?",
    },
    {
        "name": "people",
        "type": "integer",
        "minimum": 1,
        "maximum": 20,
        "ask": "How many of you will be coming?",
    },
    {
        "name": "clay",
        "type": "integer",
        "minimum": 1,
        "maximum": 20,
        "label": "bags of clay",
        "ask": "How many bags of clay to take home?",
    },
    {
        "name": "under_16",
        "type": "boolean",
        "label": "under-16s",
        "description": "Whether anyone coming is under 16",
        "ask": "Will anyone under 16 be coming along?",
    },
    {"name": "day", "type": "date", "earliest": "today", "ask": "Which day?"},
    {"name": "customer_name", "type": "person_name", "ask": "Who shall I put the booking under?"},
    name="pottery_class",
    summary="{people} for a {session} on {day}, under {customer_name}.",
    argument="day",
)
NOW = "2027-06-01T10:00"


@pytest.mark.parametrize(
    ("said", "under_16"),
    [
        ("ok great. no, no kids", False),
        ("thanks. yes, one of them is 12", True),
        ("two of them are kids, 9 and 10", True),
        ("my lads, aged 16 and 17", False),
        ("we're all in our twenties", False),
        ("Yes, there's a drop-down seat for the little one", True),
    ],
)
def test_yes_no_answers_after_thanks_by_ages_and_in_compounds(said, under_16):
    dialogue = played(POTTERY, NOW, "a wheel class for 4", "2 bags")
    dialogue.turn(said)
    assert dialogue.slots["under_16"] is under_16 and dialogue.slots["people"] == 4


def test_a_compound_word_takes_nothing_away():
    from fsmdial.flow import Slot
    from fsmdial.understand.rules.worded_answers import boolean_reply

    ladder = Slot(name="loft_ladder", type="boolean", label="loft ladder", ask="Is there a ladder up into the loft?")
    assert boolean_reply(ladder, "Yes, there's a drop-down ladder.") is True
    assert boolean_reply(ladder, "no, we'd have to drop a ladder up there") is False


def test_a_number_in_a_yes_no_slots_name_is_part_of_its_subject():
    dialogue = played(POTTERY, NOW, "a wheel class for 4", "2 bags", "no", "tomorrow", "Paul Ingham")
    dialogue.turn("can you put it under my wife's name actually, Karen Ingham")
    assert dialogue.slots["under_16"] is False and dialogue.slots["customer_name"] == "Karen Ingham"


@pytest.mark.parametrize("said", ["my daughter is under 16", "is anyone under 16 allowed?"])
def test_a_yes_no_questions_bound_said_again_is_no_count(said):
    dialogue = played(POTTERY, NOW, "a wheel class")
    dialogue.turn(said)
    assert "people" not in dialogue.slots


def test_the_children_of_the_party_said_to_another_question_replace_no_count():
    dialogue = played(POTTERY, NOW, "a private party for ten", "one bag")
    dialogue.turn("yes, my two lads will be there, they're 8 and 11")
    assert dialogue.slots["people"] == 10 and dialogue.slots["under_16"] is True


@pytest.mark.parametrize(
    ("said", "people"),
    [
        ("I'd like to book two places on your wheel class please", 2),
        ("have you got 3 spaces on hand building", 3),
        ("a wheel class for my wife and I as an anniversary treat", 2),
        ("my son and I would like the wheel class", 2),
    ],
)
def test_places_and_a_party_ending_in_i_count_people(said, people):
    dialogue = played(POTTERY, NOW)
    dialogue.turn(said)
    assert dialogue.slots["people"] == people


@pytest.mark.parametrize("said", ["great stuff, yes", "yes thankyou", "good stuff"])
def test_a_british_yes_at_the_confirmation_books(said):
    dialogue = played(POTTERY, NOW, "a wheel class for 2 tomorrow", "1 bag", "no", "Amy Hart")
    result = dialogue.turn(said)
    assert [call.tool for call in result.tool_calls] == ["book"]


SHARPEN: dict[str, Any] = {
    "name": "sharpening",
    "description": "Book the sharpening van.",
    "nodes": [
        {
            "id": "ask",
            "type": "request",
            "slots": [
                {
                    "name": "items",
                    "type": "integer",
                    "minimum": 1,
                    "maximum": 30,
                    "label": "number of items",
                    "ask": "How many items?",
                },
                {"name": "day", "type": "date", "earliest": "today", "ask": "Which day?"},
                {
                    "name": "wait",
                    "type": "boolean",
                    "description": "Whether the customer waits while it is done (yes) or we take them away (no)",
                    "ask": "Would you like to wait, or shall we take them away?",
                },
            ],
        },
        {
            "id": "when",
            "type": "request",
            "slots": [
                {
                    "name": "visit_time",
                    "type": "time",
                    "earliest": "09:00",
                    "latest": "17:00",
                    "ask": "What time would you like the van?",
                    "invalid": "The van comes between 9 am and 5 pm. What time would suit you?",
                },
                {
                    "name": "occasion",
                    "type": "text",
                    "ask": "Anything the sharpener should know?",
                    "description": "Anything the sharpener should know about the blades",
                },
            ],
        },
        {"id": "done", "type": "end", "message": "Booked."},
    ],
    "edges": [{"source": "ask", "target": "when"}, {"source": "when", "target": "done"}],
}


def test_a_refusals_own_question_makes_its_slot_the_one_asked():
    dialogue = played(SHARPEN, NOW)
    reply = dialogue.turn("can the van come tomorrow at 6pm? I've got 4 knives")
    assert reply.text.rstrip().endswith("What time would suit you?") and dialogue.slots["items"] == 4
    dialogue.turn("oh ok, 4 then")
    assert dialogue.slots["visit_time"] == "16:00"


def test_a_self_correction_gives_its_number_to_the_slot_asked_only():
    dialogue = played(SHARPEN, NOW, "3 knives tomorrow", "I'll wait")
    dialogue.turn("4 pm, no sorry, make that 5")
    assert dialogue.slots["visit_time"] == "17:00" and dialogue.slots["items"] == 3


def test_a_statement_then_a_question_describes():
    dialogue = played(SHARPEN, NOW, "3 knives tomorrow", "I'll wait", "11am")
    dialogue.turn("one of them is a Japanese knife with a chipped tip. can you fix chips?")
    assert "chipped tip" in dialogue.slots["occasion"]


@pytest.mark.parametrize(
    ("said", "address"),
    [
        ("twenty one Westbourne Road, Sheffield S10 2QQ", "21 Westbourne Road, Sheffield S10 2QQ"),
        ("forty-two Mill Lane, Leeds", "42 Mill Lane, Leeds"),
        ("Flat 2, seven Albion Street, Leeds LS1 5AA", "Flat 2, 7 Albion Street, Leeds LS1 5AA"),
    ],
)
def test_a_house_number_said_in_words_is_kept_in_digits(said, address):
    from fsmdial.language.addresses import find_addresses

    assert find_addresses(said)[0][1] == address


@pytest.mark.parametrize("said", ["two High Street", "at two, Church Lane, Leeds", "one Church Lane"])
def test_a_number_word_before_a_street_alone_is_no_house_number(said):
    from fsmdial.language.addresses import find_addresses

    assert find_addresses(said) == ()


SURVEY = request_flow(
    {
        "name": "day",
        "type": "date",
        "earliest": "today",
        "latest": "today+42",
        "open_days": ["monday", "tuesday", "wednesday", "thursday", "friday"],
        "closed_dates": ["2026-12-28"],
        "ask": "Which day?",
    },
    {"name": "customer_name", "type": "person_name", "ask": "What name is it under?"},
    name="survey",
)


@pytest.mark.parametrize(
    ("said", "day"),
    [
        ("oh right, the Tuesday then", "2026-12-29"),
        ("Wednesday", "2026-12-30"),
        ("Wednesday the 23rd", "2026-12-23"),  # more than a weekday: read as said
    ],
)
def test_a_weekday_said_alone_after_a_refused_date_is_the_one_nearest_it(said, day):
    dialogue = played(SURVEY, "2026-12-21T10:00", "Monday the 28th?")  # a Monday; the 28th is closed
    assert "day" not in dialogue.slots
    dialogue.turn(said)
    assert dialogue.slots["day"] == day


def test_a_weekday_said_alone_with_nothing_refused_is_the_coming_one():
    dialogue = played(SURVEY, "2026-12-21T10:00")
    dialogue.turn("the Tuesday then")
    assert dialogue.slots["day"] == "2026-12-22"


def _items_flow(list_slot: bool) -> dict[str, Any]:
    slots: list[dict[str, Any]] = [
        {
            "name": "kind",
            "type": "categorical",
            "values": ["kitchen knives", "garden tools"],
            "ask": "Kitchen knives or garden tools?",
        },
        {"name": "quantity", "type": "integer", "minimum": 1, "maximum": 30, "label": "number of items"},
    ]
    if list_slot:
        slots.append({"name": "items_list", "type": "text", "label": "the items", "ask": "What are the items?"})
    return request_flow(*slots, name="items")


@pytest.mark.parametrize(
    ("said", "count"),
    [
        ("garden tools, a spade, a hoe and a pair of secateurs", 3),
        ("can you sharpen my chef's knife and my santoku", 2),
        ("my axe and billhook are blunt as anything", 2),
        ("the kitchen knives and some scissors", None),
    ],
)
def test_a_count_of_items_counts_every_thing_listed(said, count):
    dialogue = played(_items_flow(False), NOW)
    dialogue.turn(said)
    assert dialogue.slots.get("quantity") == count


def test_a_flow_that_lists_its_items_counts_them_by_its_own_reader():
    dialogue = played(_items_flow(True), NOW)
    dialogue.turn("my axe and billhook are blunt as anything")
    assert "quantity" not in dialogue.slots
