"""Issue 34, items 1, 2 and 6: days, times and addresses as customers say them, read as said or not at all.

Generated values said in the forms people use ("tues", "Thurs.", "fri afternoon", "christmas eve", "this weekend",
"around 9 on tues", "2ish", "between 9 and 10", "so 11 is fine", "44 Greenside, Pudsey LS28 8PU") must come back
exactly, or nothing (asked again, or asked which: never a guess). Shortened weekdays are held to ``dateparser``.
"""

from __future__ import annotations

import datetime as dt

import dateparser
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fsmdial.flow import Slot
from fsmdial.language import WEEKDAYS, read_clock, read_date
from fsmdial.language.addresses import address_value, find_addresses
from fsmdial.understand.rules import RulesUnderstander
from fsmdial.values import InvalidValue, coerce

from .said import NOTHING, NOW, read, state_asking

SETTINGS = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
DAYS = st.dates(min_value=dt.date(2026, 1, 1), max_value=dt.date(2030, 12, 31))
DAY = Slot(name="day", type="date")
SHORT = {
    0: ["mon"],
    1: ["tue", "tues", "Tues."],
    2: ["wed", "weds", "Weds."],
    3: ["thu", "thur", "thurs", "Thurs."],
    4: ["fri", "Fri.", "FRI"],
    5: ["sat", "Sat."],
    6: ["sun", "Sun."],
}
"""The ways people shorten each weekday in writing."""
DAY_FRAMES = ["{}", "{}?", "on {}", "how about {}", "{} morning", "{} afternoon please", "this {}", "ok {} then"]


def _coming_or_today(today: dt.date, weekday: int) -> dt.date:
    return today + dt.timedelta(days=(weekday - today.weekday()) % 7)


# ------------------------------------------------------------------ shortened weekdays


@SETTINGS
@given(today=DAYS, weekday=st.integers(0, 6), pick=st.integers(0, 3), frame=st.sampled_from(DAY_FRAMES))
def test_a_shortened_weekday_is_that_day(today: dt.date, weekday: int, pick: int, frame: str) -> None:
    now = dt.datetime.combine(today, dt.time(9))
    forms = SHORT[weekday]
    said = frame.format(forms[pick % len(forms)])
    assert read(DAY, said, now=now) == _coming_or_today(today, weekday).isoformat(), said


@SETTINGS
@given(today=DAYS, weekday=st.integers(0, 6), pick=st.integers(0, 3))
def test_shortened_weekdays_agree_with_dateparser(today: dt.date, weekday: int, pick: int) -> None:
    """dateparser reads a weekday said on that day as a week ahead; the slot's bounds read it as today (the first
    reading inside them), so that one day of the week is left to the bounds."""
    now = dt.datetime.combine(today, dt.time(9))
    said = [form for form in SHORT[weekday] if form.lower().rstrip(".") not in ("thur", "thurs", "weds")]
    said_form = said[pick % len(said)]
    theirs = dateparser.parse(said_form, settings={"RELATIVE_BASE": now, "PREFER_DATES_FROM": "future"})
    assert theirs is not None
    if weekday != today.weekday():
        assert read(DAY, said_form, now=now) == theirs.date().isoformat()


@pytest.mark.parametrize(
    "said",
    [
        "I sat down and the boiler went bang",
        "the sun's been out all day",
        "c'mon, it's been a week",
        "they wed in the summer",
        "the sat nav took me the wrong way",
        "mon ami",
    ],
)
def test_a_short_weekday_that_is_also_a_word_is_no_day_in_a_sentence(said: str) -> None:
    assert read_date(said, NOW) is None


@pytest.mark.parametrize(
    ("said", "day"), [("wendesday", "2026-12-02"), ("thrus", "2026-12-03"), ("teus", "2026-12-01")]
)
def test_a_weekday_with_letters_swapped_is_read(said: str, day: str) -> None:
    assert read(DAY, said) == day


def test_a_part_of_the_day_with_a_shortened_weekday_settles_am_or_pm() -> None:
    """ "fri afternoon at 2": Friday, 14:00 (the afternoon settles it, with no opening hours to)."""
    at = Slot(name="at", type="time")
    found = RulesUnderstander().understand(state_asking(DAY, at), "fri afternoon at 2", now=NOW).slots
    assert coerce(DAY, found["day"], NOW) == "2026-12-04"
    assert coerce(at, found["at"], NOW) == "14:00"


# ------------------------------------------------------------------ days with a name, the weekend

NAMED = {"christmas eve": (12, 24), "Christmas Day": (12, 25), "boxing day": (12, 26), "New Year's Eve": (12, 31)}
NAMED |= {"new years day": (1, 1), "new year's day": (1, 1), "Valentine's Day": (2, 14), "halloween": (10, 31)}


@SETTINGS
@given(today=DAYS, name=st.sampled_from(sorted(NAMED)), frame=st.sampled_from(["{}", "on {}", "can we do {}?"]))
def test_a_day_with_a_name_is_its_next_date(today: dt.date, name: str, frame: str) -> None:
    now = dt.datetime.combine(today, dt.time(9))
    month, day = NAMED[name]
    date = dt.date(today.year, month, day)
    if date < today:
        date = dt.date(today.year + 1, month, day)
    assert read(DAY, frame.format(name), now=now) == date.isoformat()


@pytest.mark.parametrize(
    "said",
    [
        "after boxing day",
        "sometime before christmas day",
        "can you come over christmas",
        "for christmas",
        "the bank holiday",
        "bank holiday monday",
        "easter monday",
        "good friday",
        "it's too close to new year",
    ],
)
def test_a_named_day_said_as_a_limit_or_that_moves_is_no_date(said: str) -> None:
    assert read(DAY, said) is NOTHING, said


@SETTINGS
@given(today=DAYS, which=st.sampled_from(["this weekend", "at the weekend", "next weekend"]))
def test_the_weekend_is_asked_which_day_unless_one_is_open(today: dt.date, which: str) -> None:
    now = dt.datetime.combine(today, dt.time(9))
    saturday = today + dt.timedelta(days=(5 - today.weekday()) % 7)
    if today.weekday() == 6:
        saturday = today - dt.timedelta(days=1)
    if which == "next weekend":
        saturday += dt.timedelta(weeks=1)
    days = [day for day in (saturday, saturday + dt.timedelta(days=1)) if day >= today]
    said = read_date(which, now)
    if len(days) == 2:
        with pytest.raises(InvalidValue) as asked:
            coerce(DAY, said, now)
        assert asked.value.question
        saturdays_only = Slot(name="day", type="date", open_days=["saturday"])
        assert coerce(saturdays_only, said, now) == days[0].isoformat()
    else:
        assert coerce(DAY, said, now) == days[0].isoformat()


# ------------------------------------------------------------------ times said roughly, inside a long message

HOURS = Slot(name="at", type="time", earliest="08:00", latest="18:00")
"""Opening hours that settle am or pm of every hour from 8 to 6."""


def _in_hours(hour: int) -> str:
    return f"{hour if hour >= 8 else hour + 12:02d}:00"


@SETTINGS
@given(
    hour=st.sampled_from([1, 2, 3, 4, 5, 6, 8, 9, 10, 11, 12]),
    form=st.sampled_from(
        [
            "{h}ish",
            "around {h}",
            "about {h}",
            "{h} or so",
            "say {h}",
            "between {h} and {h1}",
            "so {h} is fine",
            "early as possible, {h}?",
            "any time really, I'm in all day, so {h} works",
            "can you come around {h} on tues",
            "Tuesday the 8th around {h} if you have it",
            "could someone come tomorrow between {h} and {h1}?",
            "tues {h}ish",
            "after work {h}ish?",  # round 10: "6ish" beside other words was no hour
            "{h}-ish after lunch",
        ]
    ),
)
def test_an_hour_said_roughly_is_that_hour_inside_the_hours(hour: int, form: str) -> None:
    said = form.format(h=hour, h1=hour % 12 + 1)
    assert read(HOURS, said) == _in_hours(hour), said


@SETTINGS
@given(hour=st.sampled_from([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]), form=st.sampled_from(["{h}ish", "so {h} is fine"]))
def test_an_hour_said_roughly_with_no_hours_to_settle_it_is_asked(hour: int, form: str) -> None:
    found = RulesUnderstander().understand(state_asking(Slot(name="at", type="time")), form.format(h=hour), now=NOW)
    with pytest.raises(InvalidValue) as asked:
        coerce(Slot(name="at", type="time"), found.slots["at"], NOW)
    assert asked.value.question


@pytest.mark.parametrize(
    "said",
    ["between 2 and 3 people", "about 9 of us", "2ish people", "not 9, I'm out", "I can't do 10", "we're 4"]
    + ["ten past"],
)
def test_a_number_that_is_no_hour_answers_no_time_question(said: str) -> None:
    assert read(HOURS, said) is NOTHING, said


@pytest.mark.parametrize(
    ("said", "time"),
    [
        ("half two", "14:30"),
        ("about half 10", "10:30"),
        ("quarter to six", "17:45"),
        ("ten past 4", "16:10"),
        ("late morning, 11?", "11:00"),
        ("3 in the afternon", "15:00"),
        ("9 in the evenning", NOTHING),  # 21:00, outside the hours: refused, never 09:00
        ("ten past", NOTHING),  # no hour: asked again
    ],
)
def test_british_and_misspelt_times(said: str, time: object) -> None:
    assert read(HOURS, said) == time, said


def test_a_time_and_a_day_are_read_where_they_are_in_a_long_message() -> None:
    at = Slot(name="at", type="time")
    said = "hiya, the boiler's been playing up again, can you come around 9 on tues, I'm in all morning"
    found = RulesUnderstander().understand(state_asking(DAY, at), said, now=NOW).slots
    assert coerce(DAY, found["day"], NOW) == "2026-12-01"
    assert coerce(at, found["at"], NOW) == "09:00"
    assert read_clock("the 2 of us sat there for ages") is None


# ------------------------------------------------------------------ addresses without a street word

STREETS = ["Greenside", "Kingsley", "Highfield", "Moorfield Rise", "Oak Tree", "Beechwood"]
TOWNS = ["Pudsey", "Leeds", "Otley", "Newcastle upon Tyne"]
POSTCODES = ["LS28 8PU", "LS1 5AA", "NE1 4ST", "HP6 5AA"]


@SETTINGS
@given(
    number=st.integers(1, 299),
    street=st.sampled_from(STREETS),
    town=st.sampled_from([None, *TOWNS]),
    postcode=st.sampled_from([None, *POSTCODES]),
    frame=st.sampled_from(["{}", "it's {}", "{} thanks"]),
)
def test_an_address_without_a_street_word_said_alone_is_the_address(number, street, town, postcode, frame) -> None:
    address = f"{number} {street}" + (f", {town}" if town else "") + (f" {postcode}" if postcode else "")
    at, people = Slot(name="at", type="time"), Slot(name="people", type="integer")
    slot = Slot(name="address", type="address")
    assert read(slot, frame.format(address), at, people) == address
    found = RulesUnderstander().understand(state_asking(slot, at, people), frame.format(address), now=NOW).slots
    assert "at" not in found and "people" not in found  # the house number is no time, no count


@pytest.mark.parametrize(
    "said", ["a table for 4 Tom", "12 Kingsley at 9am, 2 of us", "I need 3 Large pizzas", "book 2 Friday"]
)
def test_a_number_and_a_name_inside_a_sentence_is_no_address(said: str) -> None:
    assert find_addresses(said) == () and address_value(said) is None


@pytest.mark.parametrize(
    ("said", "address"),
    [
        ("flat 2, 40 The Crescent", "flat 2, 40 The Crescent"),
        ("Rose Cottage, Mill Lane", "Rose Cottage, Mill Lane"),
        ("4 Orchard Close", "4 Orchard Close"),
        ("44 Greenside, Pudsey LS28 8PU", "44 Greenside, Pudsey LS28 8PU"),
        ("could you come to 44 Greenside, Pudsey LS28 8PU tomorrow at 9", "44 Greenside, Pudsey LS28 8PU"),
        # a building named with "of", or a college, a hospital...: kept whole, never cut to the street after it
        (
            "his college, City of Bristol College, Anchor Road, Bristol BS1 5UA",
            "City of Bristol College, Anchor Road, Bristol BS1 5UA",
        ),
        ("University of Leeds, Woodhouse Lane, Leeds LS2 9JT", "University of Leeds, Woodhouse Lane, Leeds LS2 9JT"),
        ("St James's Hospital, Beckett Street, Leeds LS9 7TF", "St James's Hospital, Beckett Street, Leeds LS9 7TF"),
    ],
)
def test_addresses_with_and_without_a_street_word(said: str, address: str) -> None:
    assert [value for _, value in find_addresses(said)] == [address]


def test_weekdays_are_one_list() -> None:
    from fsmdial.language import dates, day_words

    assert WEEKDAYS is dates.WEEKDAYS is day_words.WEEKDAYS


# ------------------------------------------------------------------ months shortened

MONTH_SHORT = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sept", "oct", "nov", "dec"]


def _ordinal(day: int) -> str:
    return f"{day}" + ("th" if 10 <= day % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(day % 10, "th"))


@SETTINGS
@given(
    today=DAYS,
    ahead=st.integers(1, 300),
    form=st.sampled_from(["{d} {m}", "{m} {d}", "{o} {m}", "{m} {o}", "the {o} of {m}", "{M}. {d}", "{d} {M}"]),
)
def test_a_day_of_a_shortened_month_is_that_date(today: dt.date, ahead: int, form: str) -> None:
    now = dt.datetime.combine(today, dt.time(9))
    date = today + dt.timedelta(days=ahead)
    month = MONTH_SHORT[date.month - 1]
    said = form.format(d=date.day, o=_ordinal(date.day), m=month, M=month.capitalize())
    assert read(DAY, said, now=now) == date.isoformat(), said
    theirs = dateparser.parse(said, settings={"RELATIVE_BASE": now, "PREFER_DATES_FROM": "future"})
    if theirs is not None and ahead < 360:  # dateparser reads most of these forms; where it does, the same day
        assert theirs.date() == date, said


# ------------------------------------------------------------------ "first thing": the opening time


@SETTINGS
@given(
    opening=st.sampled_from(["07:30", "08:00", "09:00", "11:00"]),
    said=st.sampled_from(
        ["tomorrow first thing", "first thing", "first thing in the morning please", "fri first thing"]
    ),
)
def test_first_thing_is_the_opening_time(opening: str, said: str) -> None:
    assert read(Slot(name="at", type="time", earliest=opening, latest="18:00"), said) == opening


def test_first_thing_with_no_opening_time_is_asked() -> None:
    at = Slot(name="at", type="time")
    found = RulesUnderstander().understand(state_asking(at), "tomorrow first thing", now=NOW).slots
    with pytest.raises(InvalidValue) as asked:
        coerce(at, found["at"], NOW)
    assert asked.value.question


@pytest.mark.parametrize("said", ["first thing, my boiler's making a noise", "the first thing I noticed was the smell"])
def test_first_thing_in_a_sentence_is_no_time(said: str) -> None:
    assert read_clock(said) is None
