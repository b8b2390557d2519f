"""Numbers as customers say them: digits, number words (text2num), quantities, digits said one by one."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fsmdial.language import WORD_NUMBERS, find_numbers, join_spaced_digits, words_to_digits


@pytest.mark.parametrize(
    ("text", "numbers"),
    [
        # the suite's and the phrasings
        ("a table for six", [6]),
        ("six of us", [6]),
        ("ride number four hundred and five", [405]),
        ("twenty-one", [21]),
        ("a dozen", [12]),
        ("a couple", [2]),
        ("we are ten", [10]),
        ("eleven of us", [11]),
        ("one hundred and twelve", [112]),
        # phrasings not tuned to
        ("Twenty-One guests", [21]),
        ("we'll be twelve", [12]),
        ("a couple of us", [2]),
        ("a couple dozen rolls", [24]),
        ("half a dozen", [6]),
        ("three hundred", [300]),
        ("two thousand and five", [2005]),
        ("forty two", [42]),
        ("ninety-nine please", [99]),
        ("two people and 3 kids", [2, 3]),
        ("SEVEN", [7]),
        ("make it fifteen, not twelve", [15, 12]),
        ("two point five kilos", [2.5]),
        # digits
        ("1,200.50 dollars", [1200.5]),
        ("-4 and +5", [-4, 5]),
        ("it's 251", [251]),
        # digits said one by one
        ("It's booking number 5 0 3", [503]),
        ("4 0 5", [405]),
        ("five five five one two three four", [5551234]),
        ("1 2", [1, 2]),  # two digits: two numbers
        # no number
        ("none at all", []),
        ("tell me about the menu first", []),
        ("just a second", []),
        ("someone else", []),
        ("", []),
    ],
)
def test_find_numbers(text: str, numbers: list[float]) -> None:
    assert find_numbers(text) == numbers


@pytest.mark.parametrize(
    ("text", "digits"),
    [
        ("a table for six tomorrow", "a table for 6 tomorrow"),
        ("half past seven", "half past 7"),
        ("the twenty-first", "the 21st"),
        ("on the first", "on the 1st"),
        ("the second of May", "the 2nd of May"),
        ("December first", "December 1st"),
        ("the first option", "the first option"),
        ("second thoughts", "second thoughts"),
        ("no numbers here", "no numbers here"),
    ],
)
def test_words_to_digits_keeps_the_rest_of_the_text(text: str, digits: str) -> None:
    assert words_to_digits(text) == digits


def test_spaced_digits_are_joined_only_when_three_or_more() -> None:
    assert join_spaced_digits("number 5 0 3 please") == "number 503 please"
    assert join_spaced_digits("for 2 at 7") == "for 2 at 7"
    assert join_spaced_digits("07700 900123") == "07700 900123"  # groups of digits are not one digit each


def test_the_word_list_names_what_words_alone_are_worth() -> None:
    for word, value in WORD_NUMBERS.items():
        assert find_numbers(word) == [value], word


@given(st.integers(min_value=0, max_value=999_999))
def test_every_number_said_in_words_reads_back(number: int) -> None:
    assert find_numbers(_say(number)) == [number]


@given(st.text(max_size=60))
def test_any_text_gives_numbers(text: str) -> None:
    assert all(isinstance(n, (int, float)) for n in find_numbers(text))


_ONES = (
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
    "seventeen eighteen nineteen".split()
)
_TENS = "_ _ twenty thirty forty fifty sixty seventy eighty ninety".split()


def _say(number: int) -> str:
    """``number`` in English words, written independently of text2num (British "and")."""
    if number < 20:
        return _ONES[number]
    if number < 100:
        return _TENS[number // 10] + ("-" + _ONES[number % 10] if number % 10 else "")
    if number < 1000:
        rest = number % 100
        return _ONES[number // 100] + " hundred" + (" and " + _say(rest) if rest else "")
    rest = number % 1000
    joined = " and " if rest and rest < 100 else " "
    return _say(number // 1000) + " thousand" + (joined + _say(rest) if rest else "")


@pytest.mark.parametrize(
    ("said", "numbers"),
    [
        ("booking number is four oh two", [402]),
        ("four zero two", [402]),
        ("it ends in six six two zero", [6620]),
        ("two or three of us", [2, 3]),
        ("two three", [2, 3]),  # two digits said apart are two numbers
    ],
)
def test_digits_said_one_by_one_are_one_number(said: str, numbers: list[int]) -> None:
    assert find_numbers(said) == numbers
