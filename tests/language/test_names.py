"""fsmdial.language.names: people's names said inside sentences."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fsmdial.language import find_name, introduced_name, name_at


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("my name is Daniel Kim and I want a table for five", "Daniel Kim"),
        ("my name's Carla Reyes", "Carla Reyes"),
        ("yes, but the name should be Bob Smith", "Bob Smith"),
        ("ok, though book it under the name Maria", "Maria"),
        ("under Dana Lee", "Dana Lee"),
        ("it's under Okafor", "Okafor"),
        ("ok, I want to change my ride then. I'm Ahmed", "Ahmed"),
        ("Hello, can you help me change my ride? The booking ID is 350 and my name is Omar", "Omar"),
        ("it's Julia, I want to order a pizza", "Julia"),  # greetings in front are stripped first (acts.rest)
        ("2 medium margherita tomorrow at 6pm for Ben", "Ben"),
    ],
)
def test_a_name_after_words_that_introduce_one_is_read_anywhere(text, name):
    assert find_name(text, False) == name


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("Priya, I'd like to make a reservation", "Priya"),
        ("this is Maya Patel speaking", "Maya Patel"),
        ("Lucy Gray here", "Lucy Gray"),
        ("it's for Ines Moreau", "Ines Moreau"),
        ("jane smith", "jane smith"),
        ("I'm Jane", "Jane"),
    ],
)
def test_a_name_just_asked_for_is_read_from_the_first_clause(text, name):
    assert find_name(text, True) == name


@pytest.mark.parametrize(
    "text",
    [
        "hi there",
        "Good evening",
        "hey, do you guys have vegan options?",
        "he's bleeding badly",
        "for 2 at 12.30 tomorrow",
        "a table for two please",
        "2 pizzas for Friday",
        "her name is Daisy",  # someone else's name (the pet's)
    ],
)
def test_words_of_a_sentence_are_no_name(text):
    assert find_name(text, True) is None or text == "her name is Daisy" and find_name(text, False) is None


def test_a_self_introduction_not_asked_for_must_be_capitalised():
    assert find_name("hi, I'm Tom Hardy", False) == "Tom Hardy"
    assert find_name("hi, I'm starving", False) is None
    assert find_name("i'm good thanks", False) is None


def test_name_at_reads_the_name_at_the_start_of_a_text():
    assert name_at("Buddy, he was a beagle") == "Buddy"
    assert name_at("he was a beagle") is None


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("Okay good. Sophie Lindqvist", "Sophie Lindqvist"),  # h5-09: the name is the last sentence
        ("great, thanks. Sophie Lindqvist", "Sophie Lindqvist"),
        ("put it under her name, Margaret Cole", "Margaret Cole"),  # h5-27
        ("you can put it under my wife's name, Claire Mitchell", "Claire Mitchell"),
        ("it's for my dad, Tom Reilly", "Tom Reilly"),
        ("book it in my husband's name - Dev Mistry", "Dev Mistry"),
        ("it's Mr Patel, Vikram Patel", "Vikram Patel"),  # h5-02: the fuller name said again
        ("Jane, Jane Smith", "Jane Smith"),
        ("under Mrs Cole, Margaret Cole", "Margaret Cole"),
        ("Mrs Jones", "Mrs Jones"),  # a title alone stays as said
        ("Patel, Vikram", "Patel"),  # no fuller name of the same person: the first
        ("Priya, I'd like to make a reservation", "Priya"),
        ("Dr. Alexis Moore. Thanks a lot", "Dr. Alexis Moore"),
        ("Courtney Love", "Courtney Love"),  # a word people call each other is a surname after a first name
    ],
)
def test_a_name_said_after_an_acknowledgement_or_whose_name_it_is_is_read(text, name):
    assert find_name(text, True) == name


@pytest.mark.parametrize(
    "text",
    [
        "Okay good",
        "sounds good",
        "mate",  # "cheers mate" without its thanks (acts.rest)
        "love",
        "cheers mate",
        "thanks love",
        "12 Elm Street",
        "Elm Street",
        "it's Fulwood Road",
        "friday",
        "it's for my dad",
        "put it under her name",
        "yes we have a rabbit. Sophie",  # a clause before the name says something else: asked again
    ],
)
def test_an_acknowledgement_a_street_or_a_lead_in_alone_is_no_name(text):
    assert find_name(text, True) is None


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("hi, this is Lisa Gray, I need a locksmith", "Lisa Gray"),
        ("Hi, I'm Hollie Price, I'd like to book a motorway lesson", "Hollie Price"),
        ("we've got mice. I'm Dev Mistry, can someone come", "Dev Mistry"),
        ("this is Mr Patel, Vikram Patel, we have wasps", "Vikram Patel"),
        ("hello, this is Mrs Cole, the wasps are back", "Mrs Cole"),
    ],
)
def test_a_full_name_introduced_before_it_is_asked_is_read(text, name):
    assert introduced_name(text) == name


@pytest.mark.parametrize(
    "text",
    [
        "hi, I'm Tom, we have rats",  # one word: "I'm English" would be as good a name
        "Hi, I'm English, I've got mice",
        "it's Oxford Street, we have rats",  # "it's" introduces places as often as people
        "Hello, this is Sheffield Council, we have rats",
        "I'm Fulwood Road",
        "this is my mum's house",
        "i'm locked out",
    ],
)
def test_no_name_is_introduced_by_a_place_an_organisation_or_one_word(text):
    assert introduced_name(text) is None


NAMES = [
    "Sophie Lindqvist",
    "Vikram Patel",
    "Margaret Cole",
    "Tom Reilly",
    "Dev Mistry",
    "Mary O'Connor",
    "Jo",
    "Ian McAllister",
    "Mary-Jane Okoro",
    "Keith Barraclough",
    "Femi Adeyemi",
]
NOT_NAMES = [
    "okay good",
    "sounds good",
    "cheers mate",
    "thanks love",
    "12 Elm Street",
    "Fulwood Road",
    "friday",
    "next Tuesday",
    "tomorrow morning",
    "the kitchen",
    "half past two",
    "yes please",
    "not sure",
]
FRAMES = [
    "{}",
    "it's {}",
    "{} here",
    "Okay. {}",
    "Okay good. {}",
    "under {}",
    "for my mum, {}",
    "put it under my name, {}",
    "the name's {}",
    "it's for my husband - {}",
]


@settings(max_examples=200, deadline=None)
@given(name=st.sampled_from(NAMES), frame=st.sampled_from(FRAMES))
def test_a_name_in_any_frame_is_read_exactly(name, frame):
    assert find_name(frame.format(name), True) == name


@settings(max_examples=200, deadline=None)
@given(words=st.sampled_from(NOT_NAMES), frame=st.sampled_from(FRAMES))
def test_words_that_are_no_name_in_any_frame_give_no_name(words, frame):
    assert find_name(frame.format(words), True) is None


@pytest.mark.parametrize(
    ("said", "name"), [("shaz kelly", "shaz kelly"), ("emily stone", "emily stone"), ("badly", None)]
)
def test_a_name_ending_in_ly_written_in_lower_case_is_a_name_and_an_adverb_is_not(said, name):
    assert find_name(said, True) == name


@pytest.mark.parametrize(
    ("said", "name"),
    [("joan pickering", "joan pickering"), ("mrs dawn fleming", "mrs dawn fleming"), ("sam browning", "sam browning")],
)
def test_a_lower_case_surname_ending_in_ing_is_read_when_no_customer_says_the_word(said: str, name: str) -> None:
    """Lower-case "-ing" words are a sentence's ("just looking") unless customers never say them (a surname)."""
    assert find_name(said, asked=True) == name


def test_an_ing_word_customers_say_is_no_surname_and_a_word_with_digits_no_name() -> None:
    assert find_name("still waiting", asked=True) is None
    assert find_name("jo booking", asked=True) is None  # "booking" is a word customers say
    assert find_name("joanpickering48", asked=True) is None  # an email's local part, not a name
