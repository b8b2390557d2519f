"""fsmdial.responses: the messages a flow words itself or gets by default, and bounded rendering."""

from __future__ import annotations

import pytest

from fsmdial.loader import load_flow
from fsmdial.runtime import Dialogue
from tests import example_tools
from tests.conftest import FLOWS


def test_an_invalid_value_is_answered_with_the_slot_s_own_message(clock):
    data = load_flow(FLOWS / "restaurant_booking.json").model_dump(mode="json", by_alias=True, exclude_defaults=True)
    data["nodes"][0]["slots"][1]["invalid"] = "We take bookings for 1 to 20 people, {name}."
    dialogue = Dialogue(load_flow(data), tools=example_tools.registry, clock=clock)
    dialogue.start()
    dialogue.turn("Alex")
    result = dialogue.turn("50")
    assert result.messages == ["We take bookings for 1 to 20 people, Alex.", "For how many people?"]
    assert result.trace.invalid == [{"slot": "party_size", "value": 50, "reason": "50 is above the maximum of 20"}]


def test_the_default_invalid_and_correction_messages_name_the_slot_by_its_noun(clock):
    dialogue = Dialogue(load_flow(FLOWS / "restaurant_booking.json"), tools=example_tools.registry, clock=clock)
    dialogue.start()
    for text in ("Alex", "2", "tomorrow", "7pm"):
        dialogue.turn(text)
    # the description "Number of people" is not spliced in; the slot's noun (label, else name in words) is
    assert dialogue.turn("make it 50 people").messages[0] == (
        "Sorry, that is not a valid party size: 50 is above the maximum of 20."
    )
    assert dialogue.turn("make it 5 people").messages[0] == "OK, I changed the party size to 5."
    assert (
        dialogue.turn("no, at 8pm on friday").messages[0]
        == "OK, I changed the date to Friday 27 November and the time to 8 pm."
    )


def test_a_description_that_is_no_noun_phrase_never_reaches_the_correction_message(clock):
    """Issue 12: "OK, I changed the what should be changed about the ride to ..."."""
    dialogue = Dialogue(load_flow(FLOWS / "ride_change.json"), tools=example_tools.registry, clock=clock)
    slot = dialogue.tables.slots["change_description"]
    from fsmdial.language import sentences

    assert sentences.changed([(slot.noun, "x")]) == "OK, I changed the change description to x."


def test_render_caps_the_message_it_builds():
    from fsmdial.errors import TemplateError
    from fsmdial.responses import MAX_MESSAGE_CHARS, render

    assert render("{a}{b}", {"a": "x" * (MAX_MESSAGE_CHARS - 1), "b": "y"}) == "x" * (MAX_MESSAGE_CHARS - 1) + "y"
    with pytest.raises(TemplateError, match=r"fallbacks.goodbye: .*\{b\} is 2 characters"):
        render("{a}{b}", {"a": "x" * (MAX_MESSAGE_CHARS - 1), "b": "yy"}, where="fallbacks.goodbye")


def test_values_given_beside_an_unanswered_question_are_acknowledged_before_it_is_asked_again(clock):
    """Over-informing at the first question: the customer hears what was kept (in the flow's order of slots), not the
    same question alone, as if nothing had been read."""
    dialogue = Dialogue(load_flow(FLOWS / "vet_appointment.json"), tools=example_tools.registry, clock=clock)
    dialogue.start()
    result = dialogue.turn("hi, I'd like to book my dog Rex in tomorrow at 10am")
    assert [act.kind for act in result.acts] == ["noted", "ask"]
    assert result.messages[0] == (
        "Thanks, I have the pet's name: Rex, the species: dog, the date: Monday 23 November and the time: 10 am."
    )
    assert result.acts[1].slot == "owner_name"


def test_nothing_is_acknowledged_when_the_question_moves_on_or_a_value_is_corrected(clock):
    dialogue = Dialogue(load_flow(FLOWS / "restaurant_booking.json"), tools=example_tools.registry, clock=clock)
    dialogue.start()
    assert [act.kind for act in dialogue.turn("Alex, for 4 people").acts] == ["ask"]  # answered: the next question
    assert [act.kind for act in dialogue.turn("tomorrow").acts] == ["ask"]
    corrected = dialogue.turn("actually make it 5 people")  # a correction has its own sentence, not "Thanks, I have"
    assert [act.kind for act in corrected.acts] == ["changed", "ask"]


def test_a_statement_of_the_flows_own_task_at_its_first_question_is_no_request_out_of_scope(clock):
    """ "hi, I want to activate my new card" at the card flow's first question had "Sorry, I can only help with
    activating your card"; another task still has it."""
    dialogue = Dialogue(load_flow(FLOWS / "card_activation.json"), tools=example_tools.registry, clock=clock)
    dialogue.start()
    assert [act.kind for act in dialogue.turn("hi, I want to activate my new card").acts] == ["ask"]
    assert [act.name for act in dialogue.turn("I want to book a flight").acts][0] == "out_of_scope"
