"""The one vocabulary of units and bounds: amounts said with their unit, and what a bound holds (a categorical
value's listed range and a yes/no question that bounds a measure both read with it)."""

from __future__ import annotations

import math

import pytest

from fsmdial.language.measures import Bound, amounts_said, bound_said


def test_amounts_are_read_with_their_unit_in_digits_or_words():
    assert amounts_said("the tank's about forty metres from the drive, 5ft from the gate") == [(40.0, "m"), (5.0, "ft")]
    assert amounts_said("£20 pounds") == []  # money, no weight
    assert amounts_said("no amount here") == []


@pytest.mark.parametrize(
    ("text", "bound"),
    [
        ("Can the tanker get within about 30 metres of the tank?", Bound("m", -math.inf, 30.0)),
        ("under 10 kg", Bound("kg", -math.inf, 10.0, high_in=False)),
        ("over twenty kilos", Bound("kg", 20.0, math.inf, low_in=False)),
        ("at least 2 hours", Bound("hour", 2.0, math.inf)),
        ("10 to 25 kg", Bound("kg", 10.0, 25.0)),
    ],
)
def test_a_bounds_words_say_whether_its_limit_is_inside_it(text, bound):
    assert bound_said(text) == bound


def test_a_bound_holds_amounts_of_its_own_unit_only():
    within = bound_said("within 30 metres")
    under = bound_said("under 30 metres")
    assert within is not None and under is not None
    assert within.holds(30.0, "m") and not under.holds(30.0, "m") and under.holds(29.5, "m")
    assert not within.holds(10.0, "ft")


def test_a_whole_bound_is_all_of_the_text():
    assert bound_said("under 10 kg", whole=True) is not None
    assert bound_said("a dog under 10 kg", whole=True) is None
