"""An intent named by the words of a short example with other words between them (rules):
:mod:`fsmdial.understand.rules.intent_words`, and the understander reading it from a flow's global actions."""

from __future__ import annotations

import pytest

from fsmdial.runtime import Dialogue
from fsmdial.understand.rules.intent_words import command_intent, intent_by_words, verb_examples, word_examples

EXAMPLES = word_examples(
    [
        ("find movies", "FindMovies"),
        ("search oneway flight", "SearchOnewayFlight"),
        ("search roundtrip flights", "SearchRoundtripFlights"),
        ("reserve hotel", "ReserveHotel"),
        ("i need to change my ride", "ChangeRide"),  # a sentence: found whole only
    ]
)


def test_only_short_examples_of_naming_words_are_read_by_their_words():
    assert {intent for _, intent in EXAMPLES} == {
        "FindMovies",
        "SearchOnewayFlight",
        "SearchRoundtripFlights",
        "ReserveHotel",
    }


@pytest.mark.parametrize(
    ("said", "intent"),
    [
        ("hi can you help me find a movie", "FindMovies"),  # the singular, a word between
        ("could you help me search for a one way flight", "SearchOnewayFlight"),  # "oneway" said as two words
        ("i want to search for round trip flights", "SearchRoundtripFlights"),
        ("please reserve the hotel", "ReserveHotel"),
        ("a movie to find", None),  # out of order
        ("find me something fun to do this weekend and a movie", None),  # too far apart
        ("i need to change my ride", None),  # the sentence example is not read by its words
    ],
)
def test_an_intent_is_said_by_its_example_words_in_order(said: str, intent: str | None):
    assert intent_by_words(EXAMPLES, said) == intent


def test_a_global_action_is_taken_by_its_example_words():
    flow = {
        "name": "cinema",
        "start": "hello",
        "nodes": [
            {"id": "hello", "type": "inform_and_confirm", "question": "How can I help?"},
            {"id": "films", "type": "external_action", "tool": "find_movies", "arguments": {}},
            {"id": "bye", "type": "end", "message": "Bye."},
        ],
        "edges": [
            {"source": "hello", "target": "bye", "when": {"answer": "no"}},
            {"source": "films", "target": "bye"},
        ],
        "global_actions": [{"intent": "FindMovies", "examples": ["find movies"], "target": "films"}],
    }
    dialogue = Dialogue(flow, stand_in_tools=True)
    result = dialogue.turn("Hi, can you help me find a movie?")
    assert result.trace.parse is not None and result.trace.parse["intent"] == "FindMovies"


def test_a_question_with_every_content_word_of_a_question_intents_example_asks_it():
    from fsmdial.understand.rules.intent_words import asked_by_content, content_examples

    examples = content_examples(
        [
            ("will it make a mess", "mess"),
            ("is it messy", "mess"),
            ("how much is a sweep", "prices"),
            ("forget it", "cancel"),  # no question intent: its examples ask nothing
            ("can i book a sweep", "book"),
            ("i need a sweep", "book"),  # a task said both ways is no question intent
        ]
    )
    assert {intent for _, intent in examples} == {"mess", "prices"}
    assert asked_by_content(examples, "will it make a lot of mess we've just had new carpets down") == "mess"
    assert asked_by_content(examples, "how much would a sweep be") == "prices"
    assert asked_by_content(examples, "forget it can you") is None


VERBS = verb_examples([("cancel", "cancel"), ("reschedule", "move"), ("hello", "hello"), ("never mind", "cancel")])


def test_one_word_examples_but_greetings_are_commands():
    assert VERBS == {"cancel": "cancel", "reschedule": "move"}


@pytest.mark.parametrize(
    ("said", "intent"),
    [
        ("actually cancel it, my landlord says no", "cancel"),
        ("please cancel the booking", "cancel"),
        ("oh, can you reschedule it", "move"),
        ("i was going to cancel my gym membership but it's fine", None),  # no command: the verb leads no clause
        ("don't cancel it", None),
    ],
)
def test_a_one_word_example_said_as_a_command_on_its_object(said, intent):
    assert command_intent(VERBS, said) == intent
