"""fsmdial.language: English numbers, dates, times, yes/no and the phrase lists, on their own.

Dates are resolved against Sunday 22 November 2026, noon (the tests' frozen clock).
"""

from __future__ import annotations

import datetime as dt
import gc
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fsmdial import language, values
from fsmdial.language import (
    CERTAIN_ANSWERS,
    CLOSING_PATTERN,
    CLOSING_WORDS,
    DECLINE_PATTERN,
    DECLINE_WORDS,
    find_numbers,
    may_have_word,
    normalize,
    parse_date,
    parse_time,
    parse_yes_no,
    remove_dates_and_times,
)
from fsmdial.understand.base import DECLINE, GOODBYE, Intent, UnderstandingState
from fsmdial.understand.rules import categories, state_tables
from fsmdial.understand.rules import understander as rules

NOW = dt.datetime(2026, 11, 22, 12, 0)


@pytest.mark.parametrize(
    ("text", "date"),
    [
        ("2026-12-01", "2026-12-01"),
        ("2026-02-30", None),  # no such day
        ("tomorrow", "2026-11-23"),
        ("the day after tomorrow", "2026-11-24"),
        ("tonight", "2026-11-22"),
        ("yesterday", "2026-11-21"),
        ("12/25/2026", "2026-12-25"),  # month first...
        ("25/12/26", "2026-12-25"),  # ...unless the first number cannot be a month
        ("3/4/27", "2027-03-04"),
        ("March 3", "2027-03-03"),  # already past this year: the next one
        ("march 3, 2027", "2027-03-03"),
        ("Nov 30", "2026-11-30"),
        ("3rd of January", "2027-01-03"),
        ("on the 9th", "2026-12-09"),  # the next 9th
        ("31st", "2026-12-31"),  # November has no 31st
        ("next sunday", "2026-11-29"),
        ("this sunday", "2026-11-22"),
        ("friday", "2026-11-27"),
        ("Feb 30", None),
        ("nothing here", None),
    ],
)
def test_parse_date(text, date):
    assert parse_date(text, NOW) == date


@pytest.mark.parametrize(
    ("text", "time"),
    [
        ("7pm", "19:00"),
        ("7:30 am", "07:30"),
        ("19:00", "19:00"),
        ("7 p.m.", "19:00"),
        ("at 12am", "00:00"),
        ("noon", "12:00"),
        ("midnight", "00:00"),
        ("13pm", None),
        ("24:00", None),
        ("no time", None),
        ("at 8.30pm please", "20:30"),
        ("9.30 am", "09:30"),
        ("it costs 8.30", None),
    ],
)
def test_parse_time(text, time):
    assert parse_time(text) == time


@pytest.mark.parametrize(
    ("text", "numbers"),
    [
        ("two people and 3 kids", [2, 3]),
        ("1,200.50 dollars", [1200.5]),
        ("a dozen eggs", [12]),
        ("-4 and +5", [-4, 5]),
        ("twenty one", [21]),
        ("none at all", []),
    ],
)
def test_find_numbers(text, numbers):
    assert find_numbers(text) == numbers


def test_dates_and_times_are_removed_before_numbers_are_read():
    text = "table for 2 at 7pm on March 3, 2027, or 12/25/2026, or the 9th"
    assert find_numbers(remove_dates_and_times(text)) == [2]
    assert remove_dates_and_times("friday for 4") == "friday for 4"  # no digits of its own: kept


@pytest.mark.parametrize(
    ("text", "answer"),
    [
        ("yes", "yes"),
        ("Yeah, at 7pm", "yes"),
        ("that's right", "yes"),
        ("no, make it 4", "no"),
        ("nope", "no"),
        ("don't", "no"),
        ("none at all", "no"),  # to "are there any pets?"
        ("yess", "yes"),
        ("ok fine, no I've not been before", "no"),  # an acknowledgement, then the answer (round 11)
        ("right, no", "no"),
        ("ok, no problem", "yes"),
        ("not that I can see, no", "no"),  # to "is there any swelling?" (round 11)
        ("not that i'm aware of", "no"),
        ("yes none", "yes"),
        ("maybe", None),
        ("I know", None),
    ],
)
def test_parse_yes_no(text, answer):
    assert parse_yes_no(text) == answer


@pytest.mark.parametrize(
    ("text", "answer"),
    [
        ("she doesn't, no", "no"),  # round 9: "does the patient get a free test?"
        ("he does, he's under 16", "yes"),
        ("we haven't.", "no"),
        ("I do", "yes"),
        ("oh it isn't", "no"),
        ("they do not", "no"),
        ("she does, no", None),  # the two disagree
        ("it is 7pm", None),  # no clause ends after the auxiliary: no short answer
        ("that is what I want", None),
    ],
)
def test_a_short_answer_of_a_subject_and_its_auxiliary_answers_yes_or_no(text, answer):
    assert parse_yes_no(text) == answer


def test_every_certain_answer_is_normalised_and_read_the_same_way_by_parse_yes_no():
    for text, answer in CERTAIN_ANSWERS.items():
        assert normalize(text) == text
        assert parse_yes_no(text) == answer, text


# The words every match contains are a pre-test in front of the patterns: it must never rule out a match.
PHRASE_WORDS = [
    "i",
    "don't",
    "do",
    "not",
    "know",
    "have",
    "no",
    "idea",
    "sure",
    "forgot",
    "can't",
    "remember",
    "rather",
    "prefer",
    "won't",
    "say",
    "going",
    "to",
    "that's",
    "all",
    "bye",
    "good",
    "night",
    "we're",
    "set",
    "done",
    "nothing",
    "else",
    "it",
    "for",
    "now",
    "have",
    "a",
    "nice",
    "day",
    "thanks",
    "my",
    "lost",
    "find",
]


@given(st.lists(st.sampled_from(PHRASE_WORDS), min_size=1, max_size=8))
def test_the_word_pre_tests_never_rule_out_a_match(words):
    text = " ".join(words)
    if DECLINE_PATTERN.search(text):
        assert may_have_word(text, DECLINE_WORDS), text
    if CLOSING_PATTERN.search(text):
        assert may_have_word(text, CLOSING_WORDS), text


@given(st.text(max_size=40))
def test_parsers_take_any_text(text):
    date = parse_date(text, NOW)
    assert date is None or dt.date.fromisoformat(date)
    time = parse_time(text)
    assert time is None or re.fullmatch(r"(?:[01]\d|2[0-3]):[0-5]\d", time)
    assert all(isinstance(n, (int, float)) for n in find_numbers(text))


def test_values_and_rules_re_export_the_language_functions():
    # Kept for code that imported them from their old homes.
    assert values.parse_date is language.parse_date and values.find_numbers is language.find_numbers
    assert values.parse_time is language.parse_time and values.parse_yes_no is language.parse_yes_no
    assert rules.normalize is language.normalize


def test_the_rules_keep_their_tables_per_state_and_drop_them_with_it():
    understander = rules.RulesUnderstander()
    state = UnderstandingState("f", "n", (Intent(GOODBYE, ("bye now",)), Intent(DECLINE)), (), asked=None)
    before = len(state_tables.TABLES)
    assert understander.understand(state, "bye now").intent == GOODBYE
    assert understander.understand(state, "ok bye now").intent == GOODBYE
    assert len(state_tables.TABLES) == before + 1  # built once for the state
    assert "_rules_tables" not in vars(state)  # and kept in the rules' own cache, not on the frozen state
    del state
    gc.collect()
    assert len(state_tables.TABLES) == before


def test_a_categorical_value_is_read_by_its_own_words_when_no_other_value_has_them():
    from fsmdial.flow import Slot

    hotels = Slot(
        name="hotel", type="categorical", values=["Shadyside Inn", "Hilton Hotel", "Hyatt Hotel", "Old Town Inn"]
    )
    state = UnderstandingState("f", "n", (), (hotels,), expected=("hotel",))
    understander = rules.RulesUnderstander()
    read = lambda text: understander.understand(state, text).slots.get("hotel")  # noqa: E731
    assert read("what is the rating of the hilton in center") == "Hilton Hotel"
    assert read("is the Old Town one any good?") == "Old Town Inn"
    assert read("is the shadyside inn in north a good option?") == "Shadyside Inn"
    # Words other values share ("hotel", "inn"), a part of a value's own words ("town"), and two values
    # named at once leave it unread.
    for unread in ("a hotel in town", "any inn will do", "the hyatt or the hilton", "hiltons are awful"):
        assert read(unread) is None, unread
    # Punctuation does not make a word a value's own: "york" belongs to none of these (found by fuzzing).
    punctuated = ("+new york+", "_new york+", "+new york_")
    assert categories.short_names(punctuated) == ()
    assert categories.found_value(punctuated, "_new york+ please") != "+new york_"


# ------------------------------------------------------------------
# issue 22 #8: a month and day never raise, whatever the clock

from fsmdial.language.dates import MONTHS, impossible_date  # noqa: E402


@settings(max_examples=400, deadline=None)
@given(
    month=st.integers(1, 12),
    day=st.integers(1, 31),
    clock=st.dates(dt.date(1990, 1, 1), dt.date(2200, 12, 31)),
    form=st.sampled_from(["{m} {d}", "{d} {m}", "{m} {d}th", "the {d}th of {m}", "{m3} {d}"]),
)
def test_a_month_and_day_are_read_or_refused_on_any_clock(month, day, clock, form):
    name = MONTHS[month - 1]
    text = form.format(m=name.title(), m3=name[:3], d=day)
    now = dt.datetime.combine(clock, dt.time(12, 0))
    found = parse_date(text, now)  # never raises
    said = impossible_date(text, now)
    if found is None:
        assert said is not None, text  # the user is told the date does not exist, never silence
    else:
        date = dt.date.fromisoformat(found)
        assert (date.month, date.day) == (month, day) and date >= clock and said is None


def test_february_29_after_a_leap_day_is_not_an_error():
    now = dt.datetime(2028, 3, 1, 9, 0)  # after 2028-02-29: the next "February 29" would be in 2029, which has none
    assert parse_date("February 29", now) is None
    assert impossible_date("February 29", now) == "February 29"
    assert parse_date("February 28", now) == "2029-02-28"
