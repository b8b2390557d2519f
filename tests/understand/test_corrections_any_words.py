"""Issue 34 item 4: corrections in any words, anywhere. A change cue and a new value replace the held value of the slot
the value fits; a held value named in an old form ("8 instead of 7" at a held 19:00); the last value said inside one
message wins; a part of a name; and, without a model, a committing confirmation never answered with a bare "yes or
no?" to a reply the rules cannot account for."""

from __future__ import annotations

import datetime as dt

import pytest

from fsmdial.loader import load_flow
from fsmdial.runtime import Dialogue
from fsmdial.understand.rules.changes import read_change
from tests import example_tools
from tests.conftest import FLOWS

HELDOUT = FLOWS.parent / "tests" / "data" / "heldout_r2" / "flows"
NOW = dt.datetime(2026, 11, 23, 10, 0)
HELD = {"name": "Jane Clarke", "party_size": 4, "date": "2026-11-27", "time": "19:00"}


def restaurant(*turns: str) -> Dialogue:
    example_tools.calls.clear()
    dialogue = Dialogue(load_flow(FLOWS / "restaurant_booking.json"), tools=example_tools.registry, clock=lambda: NOW)
    dialogue.start()
    for said in turns:
        dialogue.turn(said)
    return dialogue


def at_confirmation() -> Dialogue:
    dialogue = restaurant("Jane Clarke", "4 people", "Friday the 27th", "7pm")
    assert dict(dialogue.slots) == HELD and dialogue.node == "confirm_booking"
    return dialogue


def booked() -> list[dict]:
    return [args for tool, args in example_tools.calls if tool == "book_table"]


# ------------------------------------------------------------------ the reading


def test_a_change_reads_the_new_words_after_the_cue_and_the_old_ones_apart():
    change = read_change("actually can we make it 8 instead of 7?")
    assert change is not None and change.new == "8" and change.olds == ("7",)
    change = read_change("could you change that to an interim service instead, the full one's too pricey")
    assert change is not None and change.new == "an interim service"
    change = read_change("can we do 11 instead?")
    assert change is not None and change.new == "11"
    assert read_change("a table for 4 on Friday") is None


@pytest.mark.parametrize(
    "said", ["I can't wait to see everyone Friday", "we cannot wait for Saturday!", "I cant wait, Friday at 7 then"]
)
def test_cant_wait_is_eagerness_and_no_change_cue(said):
    # STAR: "I can't wait to see everyone Friday" after the party was booked re-opened the booking
    assert read_change(said) is None
    assert read_change("no wait, Friday") is not None and read_change("wait, make it Saturday") is not None


# ------------------------------------------------------------------ 1. a new value with a change cue


@pytest.mark.parametrize(
    ("said", "changed"),
    [
        ("oh, one more person is joining us, so make that 5", {"party_size": 5}),
        ("make that 5", {"party_size": 5}),
        ("let's say 6 people", {"party_size": 6}),
        ("can we do 8pm instead", {"time": "20:00"}),
        ("change it to 8:30pm", {"time": "20:30"}),
        ("no wait, Saturday", {"date": "2026-11-28"}),
    ],
)
def test_a_new_value_with_a_change_cue_at_the_confirmation_is_what_the_tool_gets(said, changed):
    dialogue = at_confirmation()
    result = dialogue.turn(said)
    assert not booked() and dict(dialogue.slots) == {**HELD, **changed}
    assert result.text.endswith("Shall I book it?")
    dialogue.turn("yes")
    (call,) = booked()
    assert {key: call[key] for key in HELD} == {**HELD, **changed}


def test_a_change_at_a_question_replaces_the_held_value_its_words_name():
    dialogue = restaurant("Jane Clarke", "4 people", "Friday", "oh, one more person is joining us, so make that 5")
    assert dialogue.slots["party_size"] == 5 and "time" not in dialogue.slots
    dialogue.turn("7pm")
    dialogue.turn("yes")
    assert booked()[0]["party_size"] == 5


def test_a_value_two_held_slots_could_take_with_nothing_to_tell_them_apart_changes_nothing():
    # The garage's drop-off time and its courtesy car aside, a bare "10" fits the hours of a clean (2 to 10) and its
    # start time (8:00 to 16:00): nothing tells them apart.
    dialogue = cleaning("make it 10")
    assert dialogue.slots["hours"] == 3 and dialogue.slots["start_time"] == "09:00"


@pytest.mark.parametrize(
    ("before", "changed"),
    [
        (("a table for 4 on Friday the 27th please", "7pm"), {"time": "20:00"}),
        (("Friday the 27th at 7pm please", "4 people"), {"party_size": 8}),
    ],
)
def test_a_bare_value_two_held_slots_fit_at_a_question_puts_right_the_one_the_message_before_gave(before, changed):
    # "7pm", then "make it 8 instead" while the name is asked: the time said last is put right, not the party; "4
    # people", then the same: the party. (At the confirmation the summary has shown every value again: see above.)
    dialogue = restaurant(*before)
    assert dialogue.session.asked == "name"
    dialogue.turn("sorry, can we make it 8 instead? the name's Jane Clarke")
    assert dict(dialogue.slots) == {**HELD, **changed}


# ------------------------------------------------------------------ 2. a held value named in an old form


@pytest.mark.parametrize(
    ("said", "changed"),
    [
        ("actually can we make it 8 instead of 7?", {"time": "20:00"}),  # "7" names the held 19:00
        ("5 people not 4", {"party_size": 5}),
        ("sorry, the 28th not the 27th", {"date": "2026-11-28"}),
        # "I said X but ...": X names the held value; what follows is the new one
        ("sorry, I said 4 people but my brother's coming too, so 5", {"party_size": 5}),
        ("oh I said friday but I'm away, could we do the 28th", {"date": "2026-11-28"}),
    ],
)
def test_a_held_value_named_in_an_old_form(said, changed):
    dialogue = at_confirmation()
    dialogue.turn(said)
    assert dict(dialogue.slots) == {**HELD, **changed}


def test_a_bare_hour_instead_of_the_held_one_keeps_its_half_of_the_day_and_its_bounds():
    dialogue = at_confirmation()
    dialogue.turn("can we do 9 instead of 7?")
    assert dialogue.slots["time"] == "21:00"
    result = dialogue.turn("11 instead of 9")  # 23:00 is after closing (22:30): refused and asked, never 11:00
    # The held 21:00 is the one the customer replaced: it goes, and the time is asked again (kept, a "yes" to the
    # summary booked it)
    assert "time" not in dialogue.slots and not booked()
    assert result.text.endswith("What time would suit you?")  # the refusal asks: the only question
    dialogue.turn("8pm")
    assert dialogue.slots["time"] == "20:00"


def test_a_refused_value_the_message_gives_no_held_slot_leaves_the_held_value():
    """ "sorry, it's 24 Kings Road not 22" names the house number, not a quantity: the quantity the number reader
    also took (24, above the maximum) is refused, and the held quantity stays."""
    dialogue = Dialogue(FLOWS / "grocery_delivery.json", tools=example_tools.registry, clock=lambda: NOW)
    dialogue.start()
    for said in ("vegetable box", "1", "22 Kings Road, Reading", "tomorrow", "10am", "Mark Dale", "07700900777"):
        dialogue.turn(said)
    dialogue.turn("sorry, it's 24 Kings Road not 22")
    assert dialogue.slots["quantity"] == 1 and dialogue.slots["address"].startswith("24 Kings Road")


def cleaning(*more: str) -> Dialogue:
    flow = load_flow(HELDOUT / "home_cleaning.json")
    dialogue = Dialogue(flow, stand_in_tools=True, clock=lambda: dt.datetime(2027, 1, 13, 10))
    dialogue.start()
    for said in ("regular clean", "monthly", "3 hours", "11 Grange Road, Darlington DL1 5NH", "Tuesday 19th", "9am"):
        dialogue.turn(said)
    for said in ("Joan Ashworth", "joan.ashworth@gmail.com", *more):
        dialogue.turn(said)
    return dialogue


def test_a_categorical_value_instead_of_the_held_one():
    dialogue = cleaning("can we do fortnightly instead of monthly?")
    assert dialogue.slots["frequency"] == "fortnightly"


def test_a_bare_hour_instead_goes_to_the_time_its_bounds_take():
    assert cleaning("can we do 11 instead?").slots["start_time"] == "11:00"


# ------------------------------------------------------------------ 3. the last value said inside one message


def test_inside_one_message_the_last_value_said_wins():
    dialogue = restaurant("Jane Clarke", "4, sorry I mean 5", "the 27th... no sorry, the 28th", "7pm, no wait, 8pm")
    assert dict(dialogue.slots) == {**HELD, "party_size": 5, "date": "2026-11-28", "time": "20:00"}
    dialogue = restaurant("Jane Clarke", "4 people", "Tuesday, sorry I mean Wednesday")
    assert dialogue.slots["date"] == "2026-11-25"


def test_a_yes_taken_back_inside_one_message_is_a_no():
    flow = load_flow(HELDOUT / "garage_service.json")
    dialogue = Dialogue(flow, stand_in_tools=True, clock=lambda: dt.datetime(2027, 1, 12, 14))
    dialogue.start()
    for said in ("Hi, I need an MOT. Two weeks today if you have space?", "VX68 HTA", "1pm"):
        dialogue.turn(said)
    dialogue.turn("yes... actually no, scrap that, I'll get the train")
    assert dialogue.slots["courtesy_car"] is False


# ------------------------------------------------------------------ 4. a part of a name


@pytest.mark.parametrize(
    ("said", "name"),
    [
        ("sorry, the surname is Clark, without an e", "Jane Clark"),
        ("first name is Jon, not Jane", "Jon Clarke"),
        ("the last name's spelled wrongly, it's Clark", "Jane Clark"),  # "wrongly" is no surname
        ("you've got my surname wrong: Clerk", "Jane Clerk"),
    ],
)
def test_a_part_of_a_name_edits_the_held_name(said, name):
    dialogue = at_confirmation()
    dialogue.turn(said)
    assert dict(dialogue.slots) == {**HELD, "name": name}
    dialogue.turn("yes")
    assert booked()[0]["name"] == name


def test_a_name_part_spelt_letter_by_letter_is_not_read_as_its_first_letter():
    dialogue = at_confirmation()
    dialogue.turn("surname spelt C L A R K")
    assert dict(dialogue.slots) == HELD and not booked()


def test_a_yes_or_no_that_ends_the_message_after_so_is_its_answer():
    flow = load_flow(HELDOUT / "garage_service.json")
    for said, meant in (
        ("no... hang on, my wife needs the car that day, so yes", True),
        ("I'd have said yes but the train's easy from there so no", False),
    ):
        dialogue = Dialogue(flow, stand_in_tools=True, clock=lambda: dt.datetime(2027, 1, 12, 14))
        dialogue.start()
        for before in ("Hi, I need an MOT. Two weeks today if you have space?", "VX68 HTA", "1pm"):
            dialogue.turn(before)
        dialogue.turn(said)
        assert dialogue.slots["courtesy_car"] is meant, said


# ------------------------------------------------------------------ 6. what the rules cannot account for


def test_at_a_committing_confirmation_a_reply_not_accounted_for_shows_the_summary_and_asks_what_to_change():
    dialogue = at_confirmation()
    result = dialogue.turn("hmm, can you do something about the window seat")
    assert not booked() and dict(dialogue.slots) == HELD
    assert "yes or no" not in result.text
    assert result.text == (
        "Sorry, I didn't catch what to change. I have: A table for 4 on Friday 27 November at 7 pm, under the name "
        "Jane Clarke. What would you like to change?"
    )
    # A "yes" to "what would you like to change?" commits nothing: the summary is asked again, and a yes to it commits.
    assert dialogue.turn("yes").text.endswith("Shall I book it?") and not booked()
    dialogue.turn("yes")
    assert len(booked()) == 1


# ------------------------------------------------------------------ corrections inside the answer to another question


def _mid_flow_dialogue() -> Dialogue:
    flow = {
        "name": "callout",
        "nodes": [
            {
                "id": "ask",
                "type": "request",
                "slots": [
                    {"name": "address", "type": "address", "ask": "What's the address?"},
                    {"name": "visit_date", "type": "date", "ask": "Which day?"},
                    {"name": "visit_time", "type": "time", "ask": "What time?", "earliest": "08:00", "latest": "18:00"},
                    {"name": "parking", "type": "boolean", "ask": "Is there parking?"},
                ],
            },
            {"id": "done", "type": "end", "message": "Booked."},
        ],
        "edges": [{"source": "ask", "target": "done"}],
    }
    now = dt.datetime(2026, 12, 14, 9, 0)  # a Monday
    dialogue = Dialogue(load_flow(flow), stand_in_tools=True, clock=lambda: now)
    dialogue.start()
    return dialogue


def test_a_house_number_put_right_while_another_question_is_asked_edits_the_held_address() -> None:
    dialogue = _mid_flow_dialogue()
    for said in ("14 Ashgrove Road, Leeds LS6 2AB", "wednesday", "half 10"):
        dialogue.turn(said)
    dialogue.turn("sorry, wrong house number, it's 41 Ashgrove Road, not 14. and yes, there's space to park")
    assert dialogue.slots["address"] == "41 Ashgrove Road, Leeds LS6 2AB"
    assert dialogue.slots["parking"] is True


def test_the_last_day_said_before_instead_is_the_new_day() -> None:
    dialogue = _mid_flow_dialogue()
    for said in ("6 Mill Hill, Leeds LS1 5DQ", "wednesday"):
        dialogue.turn(said)
    dialogue.turn("no wait, I'm away wednesday, thursday instead please")
    assert dialogue.slots["visit_date"] == "2026-12-17"  # Thursday, not the Wednesday said first


def test_a_change_said_to_a_description_question_changes_the_value_and_describes_nothing() -> None:
    flow = {
        "name": "repairs",
        "nodes": [
            {
                "id": "ask",
                "type": "request",
                "slots": [
                    {
                        "name": "dropoff_time",
                        "type": "time",
                        "ask": "What time?",
                        "earliest": "08:00",
                        "latest": "18:00",
                    },
                    {"name": "problem", "type": "text", "ask": "What seems to be the problem?"},
                ],
            },
            {"id": "done", "type": "end", "message": "Booked."},
        ],
        "edges": [{"source": "ask", "target": "done"}],
    }
    dialogue = Dialogue(load_flow(flow), stand_in_tools=True, clock=lambda: dt.datetime(2026, 11, 30, 9, 0))
    dialogue.start()
    dialogue.turn("10am")
    result = dialogue.turn("oh actually can we do 11 instead")
    assert "problem" not in dialogue.slots and dialogue.slots["dropoff_time"] == "11:00"
    assert result.messages[-1] == "What seems to be the problem?"
    dialogue.turn("the brakes squeal")
    assert dialogue.slots["problem"] == "the brakes squeal"


BOATS = FLOWS.parent / "tests" / "data" / "heldout_r5" / "flows" / "boat_hire.json"


def boat_hire(*said: str) -> Dialogue:
    dialogue = Dialogue(BOATS, stand_in_tools=True, clock=lambda: dt.datetime(2027, 6, 23, 10, 0))
    dialogue.start()
    for text in said:
        dialogue.turn(text)
    return dialogue


def test_a_change_and_the_asked_value_in_one_answer_both_stand():
    """ "sorry, make it 3pm not 1. and 2 hours" asked the hours: the time changes and the hours are the answer (the
    change took the hours' words for its own and dropped them)."""
    dialogue = boat_hire("rowing boat", "two", "friday", "1pm", "sorry, make it 3pm not 1. and 2 hours")
    assert dialogue.slots["start_time"] == "15:00" and dialogue.slots["hours"] == 2


def test_a_one_standing_for_a_thing_is_no_length_of_time():
    """ "I want to hire one of your motorboats" names the boat; its "one" is no hour of hire (it was hours 1)."""
    dialogue = boat_hire("I want to hire one of your motorboats")
    assert dict(dialogue.slots) == {"boat": "motor boat"}


def test_a_house_number_put_right_inside_a_whole_street_address_edits_the_held_address():
    """ "wait, it's 38 Cemetery Road, not 33" at the confirmation: the address reader claims the street's words, and
    the swap is read from the whole message (it was read from what the address left: nothing changed, round 4)."""
    flow = FLOWS.parent / "tests" / "data" / "heldout_r4" / "flows" / "locksmith_visit.json"
    dialogue = Dialogue(flow, stand_in_tools=True, clock=lambda: dt.datetime(2027, 1, 6, 7, 15))
    dialogue.start()
    for said in (
        "I've locked my keys inside",
        "33 Cemetery Road, Sheffield S11 8FJ",
        "yes, there's a council tax letter in my car",
        "Jade Morris",
        "07700 900 280",
    ):
        dialogue.turn(said)
    dialogue.turn("wait, it's 38 Cemetery Road, not 33, sorry, I'm all over the place")
    assert dialogue.slots["address"] == "38 Cemetery Road, Sheffield S11 8FJ"


def test_a_change_that_names_its_slot_is_that_slots_however_the_number_was_read():
    """ "the start time, can we do 3 instead": the message names the time, so the 3 is a time (the rules' number
    reader gave it to the party, which changed instead: round 8's van hire booked the old time after "the time, can
    we do 3 instead" was read as a driver aged 3)."""
    dialogue = boat_hire("rowing boat", "two", "friday", "1pm", "2 hours", "the start time, can we do 3 instead")
    assert dialogue.slots["start_time"] == "15:00" and dialogue.slots["people"] == 2 and dialogue.slots["hours"] == 2


def test_a_bare_hour_instead_of_the_held_one_takes_the_other_half_when_only_it_is_open():
    """ "9 instead of 3" at a held 15:00, boats out 9 to 5: 21:00 is after closing, 09:00 is meant (round 8: the sweep
    refused 21:00 and asked again)."""
    dialogue = boat_hire(
        "rowing boat", "two", "friday", "3pm", "2 hours", "oh actually can we say 9 instead of 3, sorry"
    )
    assert dialogue.slots["start_time"] == "09:00"


def test_a_change_in_one_sentence_and_an_answer_in_the_next_both_stand():
    """ "can we make it 10 rather than 3? and just the two hours": the time is the first sentence's (the whole gave
    none), the hours the asked answer (round 8's van hire booked the old time)."""
    dialogue = boat_hire(
        "rowing boat", "two", "friday", "3pm", "sorry, can we make it 10 rather than 3? and just the two hours"
    )
    assert dialogue.slots["start_time"] == "10:00" and dialogue.slots["hours"] == 2


def _bike_hire_at_confirmation() -> Dialogue:
    flow = {
        "name": "bike_hire",
        "nodes": [
            {
                "id": "ask",
                "type": "request",
                "slots": [
                    {"name": "customer_name", "type": "person_name", "ask": "What name is it under?"},
                    {"name": "extra_cover", "type": "boolean", "label": "damage cover", "ask": "Add damage cover?"},
                ],
            },
            {
                "id": "confirm",
                "type": "inform_and_confirm",
                "message": "A bike for {customer_name}, damage cover: {extra_cover}.",
                "question": "Shall I book it?",
            },
            {"id": "book", "type": "external_action", "tool": "book", "commits": True, "arguments": {}},
            {"id": "done", "type": "end", "message": "Booked."},
        ],
        "edges": [
            {"source": "ask", "target": "confirm"},
            {"source": "confirm", "target": "book", "when": {"answer": "yes"}},
            {"source": "book", "target": "done"},
        ],
    }
    dialogue = Dialogue(load_flow(flow), stand_in_tools=True)
    dialogue.start()
    dialogue.turn("Sam Fox")
    assert dialogue.turn("no").text.endswith("Shall I book it?")
    return dialogue


def test_two_changes_at_a_confirmation_a_name_put_as_and_a_boolean_by_its_noun():
    """Round 8: "can you put the name as Stephanie Clegg, ... and I'll take the cover after all" changed neither (the
    name's cue was not read, and "cover" alone named no slot: its name and label, "extra cover" and "excess cover",
    end with it)."""
    dialogue = _bike_hire_at_confirmation()
    result = dialogue.turn("can you put the name as Samantha Fox, and I'll take the cover after all")
    assert dialogue.slots["customer_name"] == "Samantha Fox" and dialogue.slots["extra_cover"] is True
    assert result.text.endswith("Shall I book it?")


def test_a_day_given_as_the_reason_is_no_new_value():
    """ "actually no, make that Thursday the 10th, I'm at work on the Wednesday": the last clause says when the
    customer cannot come; its day is no value (the Wednesday was kept, round 8)."""
    dialogue = boat_hire(
        "rowing boat", "two", "wednesday", "actually no, make that Friday, I'm at work on the Wednesday"
    )
    assert dialogue.slots["hire_date"] == "2027-06-25"  # the Friday


def test_a_value_said_then_put_right_in_one_answer_is_the_one_put_right():
    """ "a science tutor, well not science really, it's maths" at the subject question: the value said last, after the
    first one was negated (round 7 read neither)."""
    dialogue = boat_hire("I'd like a punt, well not a punt really, it's a canoe we need")
    assert dialogue.slots["boat"] == "canoe"


def test_two_words_of_one_value_after_a_not_are_no_swap():
    from fsmdial.understand.rules.corrections import replacement

    assert replacement("well not a rowing boat really") is None  # "rowing" and "boat" are one value's words
    assert replacement("it's not Pepper, it's Paprika") == ("Pepper", "Paprika")


def test_a_word_spelt_out_before_its_not_is_the_word_not_its_last_letter():
    """Round 11: "it should be Marc with a C, M A R C, not Mark" made the name "C Jones", and it was booked."""
    from fsmdial.understand.rules.corrections import replacement

    assert replacement("it should be Ann with no E, A N N, not Anne") == ("Anne", "Ann")
    assert replacement("Sean, S E A N, not Shaun") == ("Shaun", "Sean")


def test_a_change_that_names_the_held_value_as_its_reason_takes_the_value_said_after_instead():
    """Round 9: "I've got the dentist at ten, could they come after lunch instead, like 1?" at a summary of 10 am: the
    ten is why, the 1 what (the old time was booked after the customer's yes)."""
    dialogue = at_confirmation()
    result = dialogue.turn("oh actually we've got the theatre at 7, could we come later instead, like 9?")
    assert dialogue.slots["time"] == "21:00" and result.text.endswith("Shall I book it?")
    dialogue.turn("yes")
    assert booked()[0]["time"] == "21:00"


def test_a_change_of_a_held_value_and_the_answer_asked_in_one_message_both_stand():
    """Round 9: "sorry, not friday, saturday would be better, about 11" at the time question changed the day and
    dropped the time asked."""
    dialogue = restaurant("Jane Clarke", "4 people", "Friday the 27th")
    assert dialogue.session.asked == "time"
    dialogue.turn("sorry, not friday, saturday would be better, about 8")  # no "pm": nothing names the time
    assert dialogue.slots["date"] == "2026-11-28" and dialogue.slots["time"] == "20:00"


def test_an_old_time_said_in_a_word_and_a_digit_names_the_held_one():
    """Round 4: "can you make it 11 instead of half 8" at a summary of 8:30 am and 1 lock: "half 8" is the time
    replaced, and the 11 no count of locks (refused, and the old time booked after a yes)."""
    dialogue = restaurant("Jane Clarke", "4 people", "Friday the 27th", "7:30pm")
    dialogue.turn("can you make it 9 instead of half 7, I forgot I've got something on")
    assert dialogue.slots["time"] == "21:00" and dialogue.slots["party_size"] == 4


@pytest.mark.parametrize(
    "said",
    [
        "actually can we have the quieter one",  # a "one" standing for a thing: no 1 o'clock, no party of 1
        "sorry, make it the bigger one",
        "actually one more thing, is there parking?",  # "one more thing" opens a question, it counts nothing
    ],
)
def test_a_one_that_counts_nothing_changes_no_held_number_or_time_at_the_confirmation(said):
    """Found reading round 8's h8a-16 ("it's a multifuel one" read as a time of 1:00): these changed the held time to
    13:00, or the party to 1, and the summary showing it stood to be confirmed."""
    dialogue = at_confirmation()
    dialogue.turn(said)
    assert dict(dialogue.slots) == HELD


def test_a_one_that_counts_still_changes_the_count():
    dialogue = at_confirmation()
    dialogue.turn("sorry, just one person")
    assert dialogue.slots["party_size"] == 1


def test_a_value_wanted_by_one_form_and_not_by_another_of_its_forms_stands():
    """Round 11: "I'm interested in veneers, I'm not after whitening" read nothing: both are forms of a cosmetic
    consultation, so the "not" put the value right into itself and the reader dropped it."""
    from fsmdial.flow import Slot
    from tests.language.said import read

    kind = Slot(
        name="visit",
        type="categorical",
        values=["cosmetic", "check-up"],
        description="The visit (cosmetic: veneers, whitening, aligners; check-up: routine exam)",
    )
    assert read(kind, "I'm interested in veneers, I'm not after whitening") == "cosmetic"
    assert read(kind, "not a check-up, whitening please") == "cosmetic"


def test_a_dotted_part_of_a_held_email_put_right():
    """ "the email should be jane.clarke, not j.clarke" edits the held email's local part (the new email is checked
    like any value)."""
    from tests.flows import request_flow

    email = {"name": "email", "type": "email", "description": "Email address", "ask": "Your email?"}
    dialogue = Dialogue(load_flow(request_flow(email, {"name": "note", "type": "text", "ask": "Any note?"})))
    dialogue.start()
    dialogue.turn("j.clarke@example.com")
    dialogue.turn("wait, the email should be jane.clarke, not j.clarke")
    assert dialogue.slots["email"] == "jane.clarke@example.com"


def test_a_reason_clause_gives_no_value():
    """ "can we make it 8 instead of 7, I finish work at half 6": 20:00, not 18:30 (when someone is free is the
    reason, as when someone cannot)."""
    dialogue = at_confirmation()
    dialogue.turn("can we make it 8 instead of 7, I finish work at half 6")
    assert dialogue.slots["time"] == "20:00"


def test_a_full_name_said_again_after_sorry_at_the_confirmation():
    """ "my name's Jane, not J, sorry - Jane Clarke": the full name said last, not its first word."""
    dialogue = restaurant("J Clarke", "4 people", "Friday the 27th", "7pm")
    dialogue.turn("my name's Janet, not J, sorry - Janet Clarke")
    assert dialogue.slots["name"] == "Janet Clarke"
