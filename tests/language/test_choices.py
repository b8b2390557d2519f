"""fsmdial.language.choices: categorical values as customers write them."""

from __future__ import annotations

import re

import pytest

from fsmdial.language.choices import closest_value, described_synonyms, plural_tolerant

SPECIES = ("dog", "cat", "rabbit", "guinea pig", "bird", "reptile", "other")
DESCRIPTION = "Kind of animal (dog: puppy, pup; cat: kitten, kitty; rabbit: bunny; bird: parrot, budgie)"


@pytest.mark.parametrize(
    ("word", "plural"),
    [("dog", "dogs"), ("box", "boxes"), ("puppy", "puppies"), ("margherita", "margheritas"), ("glass", "glasses")],
)
def test_a_value_pattern_matches_the_word_and_its_plural(word, plural):
    pattern = re.compile(plural_tolerant(word))
    assert pattern.fullmatch(word) and pattern.fullmatch(plural)


def test_short_or_non_alphabetic_words_have_no_plural():
    assert plural_tolerant("O+") == re.escape("O+")
    assert plural_tolerant("a") == "a"
    for small in ("it", "us", "no"):  # a small word of the language: "its" is no plural of an "IT" value
        assert re.fullmatch(plural_tolerant(small), small + "s") is None


def test_a_two_letter_abbreviation_has_a_plural():
    """Round 11: "two old TVs" named no appliance where the description lists "TV"."""
    for word in ("tv", "pc"):
        assert re.fullmatch(plural_tolerant(word), word + "s", re.I)


def test_synonyms_are_read_from_a_slot_description():
    found = dict(described_synonyms(SPECIES, DESCRIPTION))
    assert found["dog"] == ("puppy", "pup")
    assert found["bird"] == ("parrot", "budgie")
    assert "reptile" not in found
    boxes = ("fruit box", "vegetable box", "mixed box")
    found = dict(
        described_synonyms(
            boxes, "Which box (fruit box: fruit; vegetable box: veg, veggie box; mixed box: fruit and veg)"
        )
    )
    assert found["vegetable box"] == ("veg", "veggie box") and found["mixed box"] == ("fruit and veg",)


def test_a_description_without_synonym_lists_gives_none():
    assert described_synonyms(SPECIES, "Kind of animal: pick one") == ()


@pytest.mark.parametrize(
    ("words", "value"),
    [
        (["a", "rabit"], "rabbit"),
        (["guinae", "pig"], "guinea pig"),
        (["peperoni"], "pepperoni"),
        (["vegtable", "box"], "vegetable box"),
    ],
)
def test_a_typo_of_a_value_is_read_as_the_value(words, value):
    choices = {v: v for v in (*SPECIES, "pepperoni", "margherita", "vegetable box", "fruit box")}
    assert closest_value(words, choices) == value


@pytest.mark.parametrize("words", [["car"], ["cut"], ["birthday"], ["rabies"], ["bread"]])
def test_ordinary_words_are_no_typos_of_a_value(words):
    assert closest_value(words, {v: v for v in SPECIES}) is None


def test_a_word_equally_close_to_two_values_is_left_unread():
    assert closest_value(["marka"], {"marko": "marko", "marke": "marke"}) is None


def test_a_synonym_listed_as_an_example_is_the_synonym_itself():
    """ "large: big, over 25 kg, e.g. labrador, golden retriever": "labrador" is the synonym, not "e.g. labrador"."""
    from fsmdial.language.choices import described_synonyms

    listed = dict(
        described_synonyms(("small", "large"), "Size (small: tiny, e.g. pug; large: such as a labrador, husky)")
    )
    assert listed == {"small": ("tiny", "pug"), "large": ("labrador", "husky")}  # its article dropped too


def test_a_two_word_typo_needs_each_word_close() -> None:
    """ "blocked gurgles" is no typo of "blocked gutters" (one word the same, the other far off); "guinae pigg" is
    one of "guinea pig"."""
    forms = {"blocked gutters": "gutter clearing", "guinea pig": "guinea pig"}
    assert closest_value(["blocked", "gurgles"], forms) is None
    assert closest_value(["guinae", "pigg"], forms) == "guinea pig"
