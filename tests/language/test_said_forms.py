"""Issue 34, item 1: every reader returns the value as said, or nothing.

For each built-in type whose reader this covers (phone, email, reference, money, duration, date, time), values are
generated, said in the written and spoken forms people use, inside a reply, and read by the rules understander for the
slot just asked: what is stored must be exactly that value, or nothing (asked again). A value that was never said,
committed after "yes", is the worst outcome there is. Phones are checked against :mod:`phonenumbers` (the number it
parses, and the number its own matcher finds in the reply); relative dates against ``dateparser`` where it reads them.
"""

from __future__ import annotations

import datetime as dt
import string

import dateparser
import phonenumbers
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from phonenumbers import PhoneNumberFormat, PhoneNumberType

from fsmdial.flow import Slot
from fsmdial.language import WEEKDAYS
from fsmdial.language.references import COMMON_WORDS
from fsmdial.understand.rules import RulesUnderstander
from fsmdial.values import coerce_given

from .said import DIGIT_WORDS, NOTHING, NOW, in_words, offered, read, state_asking

SETTINGS = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
FRAMES = st.sampled_from(["{}", "it's {}", "my {what} is {}", "sure, it's {} thanks", "ok so {} please"])


def said_in(frame: str, value: str, what: str) -> str:
    return frame.replace("{what}", what).format(value)


# ------------------------------------------------------------------ phones

REGIONS = ["GB", "US", "FR", "DE", "AU", "IN", "IE", "ES", "IT", "NL", "NZ", "JP"]


@st.composite
def phone_numbers(draw: st.DrawFn) -> tuple[str, phonenumbers.PhoneNumber]:
    """A number of a region: an example number of the region with its last four digits drawn."""
    region = draw(st.sampled_from(REGIONS))
    kind = draw(st.sampled_from([PhoneNumberType.MOBILE, PhoneNumberType.FIXED_LINE]))
    example = phonenumbers.example_number_for_type(region, kind)
    national = str(example.national_number)
    national = national[:-4] + "".join(draw(st.lists(st.sampled_from(string.digits), min_size=4, max_size=4)))
    number = phonenumbers.parse("+" + str(example.country_code) + national)
    number.italian_leading_zero = example.italian_leading_zero
    return region, number


def _spoken(digits: str, draw: st.DrawFn) -> str:
    """Digits said one by one in groups, "oh" or "zero" for 0, "double"/"triple" for repeats."""
    groups, words = [], []
    i = 0
    while i < len(digits):
        run = len(digits[i:]) - len(digits[i:].lstrip(digits[i]))
        repeat = min(run, 3) if run > 1 and draw(st.booleans()) else 1
        word = DIGIT_WORDS[int(digits[i])] if digits[i] != "0" else draw(st.sampled_from(["oh", "zero"]))
        words.append({1: "", 2: "double ", 3: "triple "}[repeat] + word)
        i += repeat
        if draw(st.integers(0, 3)) == 0 and i < len(digits):
            groups.append(" ".join(words))
            words = []
    groups.append(" ".join(words))
    return ", ".join(groups)


def _digits(text: str) -> str:
    return "".join(ch for ch in text if ch.isdigit())


@SETTINGS
@given(
    number=phone_numbers(),
    form=st.sampled_from(["national", "international", "e164", "spoken", "in front"]),
    frame=FRAMES,
    data=st.data(),
)
def test_a_phone_number_is_read_with_every_digit_said(number, form: str, frame: str, data) -> None:
    region, parsed = number
    national = phonenumbers.format_number(parsed, PhoneNumberFormat.NATIONAL)
    said = {
        "national": national,
        "international": phonenumbers.format_number(parsed, PhoneNumberFormat.INTERNATIONAL),
        "e164": phonenumbers.format_number(parsed, PhoneNumberFormat.E164),
        "spoken": _spoken(_digits(national), data.draw),
        "in front": _spoken(_digits(national)[1:], data.draw) + ", with oh in front",
    }[form]
    assume(form != "in front" or _digits(national).startswith("0"))
    text = said_in(frame, said, "number")
    slot = Slot(name="phone", type="phone", region=region)
    value = read(slot, text, Slot(name="boxes", type="integer"))
    assert value is not NOTHING, f"{text!r} is not read"
    # Every digit said, a "+" only when said; and the number phonenumbers parses from the words.
    digits = _digits(national) if form in ("spoken", "in front") else _digits(said)
    assert value == ("+" if said.startswith("+") else "") + digits, text
    assert phonenumbers.parse(value, region) == phonenumbers.parse(
        said if form not in ("spoken", "in front") else national, region
    )
    assert offered(slot, text) <= {value}
    if form in ("national", "international", "e164"):  # what phonenumbers' own matcher finds in the reply
        matched = [m.number for m in phonenumbers.PhoneNumberMatcher(text, region)]
        assert all(phonenumbers.parse(value, region) == found for found in matched), (text, matched)


@SETTINGS
@given(number=phone_numbers(), cut=st.integers(1, 4), frame=FRAMES)
def test_a_phone_number_with_digits_missing_or_more_said_is_never_another_number(number, cut: int, frame: str) -> None:
    region, parsed = number
    national = phonenumbers.format_number(parsed, PhoneNumberFormat.NATIONAL)
    slot = Slot(name="phone", type="phone", region=region)
    for said in (national[:-cut], national + " " + "9" * cut):
        value = read(slot, said_in(frame, said, "number"))
        assert value is NOTHING or value == _digits(said), said
    for said in (national + " double", national + " triple"):
        assert read(slot, said_in(frame, said, "number")) is NOTHING, said  # a repeat of a digit not said
    value = read(slot, said_in(frame, national + " eighteen", "number"))  # "four eighteen": 4, 1, 8
    assert value in (NOTHING, _digits(national) + "18")


# ------------------------------------------------------------------ emails

_NOT_NAMES = "at dot dash hyphen underscore oh i am is are me we be was were and or it he she they you".split()
_NOT_NAMES += "wait ok okay ah actually hold hang sorry oops scratch".split()  # second thoughts: "..., wait, it's ..."
# An address read out whose first word is a refusal ("nope at gmail dot com") is read as that act and stores nothing
# (safe, not a wrong value; a known gap). Typed whole, it is an address (test below).
_NOT_NAMES += "no nope nah not never negative wrong incorrect cancel stop".split()
_NAME = st.text(alphabet=string.ascii_lowercase, min_size=2, max_size=8).filter(lambda word: word not in _NOT_NAMES)
_MARKS = {".": "dot", "_": "underscore", "-": st.sampled_from(["dash", "hyphen"])}


@st.composite
def local_parts(draw: st.DrawFn) -> tuple[str, str]:
    """(the local part of an address, that part read out): words joined by marks, digits at the end."""
    words = draw(st.lists(_NAME, min_size=1, max_size=3))
    marks = [draw(st.sampled_from(list(_MARKS))) for _ in words[1:]]
    local, spoken = words[0], words[0]
    for mark, word in zip(marks, words[1:], strict=True):
        name = _MARKS[mark] if isinstance(_MARKS[mark], str) else draw(_MARKS[mark])
        local, spoken = f"{local}{mark}{word}", f"{spoken} {name} {word}"
    if draw(st.booleans()):
        digits = str(draw(st.integers(0, 999)))
        local, spoken = local + digits, spoken + " " + digits  # "jane 99" is jane99: no address has a space
    return local, spoken


@SETTINGS
@given(
    local=local_parts(),
    domain=st.sampled_from(["gmail.com", "outlook.co.uk", "web.de"]),
    spoken=st.booleans(),
    frame=FRAMES,
)
def test_an_email_address_keeps_every_part_of_its_local_part(local, domain: str, spoken: bool, frame: str) -> None:
    address = f"{local[0]}@{domain}"
    said = f"{local[1]} at {domain.replace('.', ' dot ')}" if spoken else address
    text = said_in(frame, said, "email")
    slot = Slot(name="email", type="email")
    value = read(slot, text)
    assert value == address, text
    assert offered(slot, text) == {address}


@SETTINGS
@given(first=st.sampled_from("no nope nah not never negative wrong incorrect cancel stop".split()), frame=FRAMES)
def test_a_typed_address_that_starts_with_a_refusal_word_is_the_address(first: str, frame: str) -> None:
    address = f"{first}.reply@example.com"
    slot = Slot(name="email", type="email")
    assert read(slot, said_in(frame, address, "email")) == address


@SETTINGS
@given(
    local=local_parts(),
    before=st.sampled_from(["john", "mary", "big", "kev", "smith", "nine"]),
    domain=st.sampled_from(["gmail.com", "web.de"]),
)
def test_an_address_whose_start_is_in_doubt_is_not_read(local, before: str, domain: str) -> None:
    """ "john smith at gmail dot com": johnsmith, john.smith or smith? A word before the local part that may be
    part of it leaves the address unread, never cut."""
    said = f"{before} {local[1]} at {domain.replace('.', ' dot ')}"
    assert read(Slot(name="email", type="email"), said) is NOTHING, said


# -------------------------------------------------------------- references

_CONSONANTS = "BCDFGHJKLMNPRSTVWXZ"
"""Letters of codes (plates, booking codes); a group that is also a common word ("DR", "PM") is left out: whether it
is a word or part of the reference is in doubt, and such a reference is not read."""


@st.composite
def references(draw: st.DrawFn) -> list[str]:
    """A reference as the groups it is said in: letters and digits ("KM19", "ZTR"; "BA", "2490"; "AB", "12")."""
    shape = draw(st.sampled_from(["plate", "flight", "pairs", "digits", "code"]))
    letters = lambda n: draw(  # noqa: E731
        st.text(alphabet=_CONSONANTS, min_size=n, max_size=n).filter(lambda group: group.lower() not in COMMON_WORDS)
    )
    digits = lambda n: "".join(draw(st.lists(st.sampled_from(string.digits), min_size=n, max_size=n)))  # noqa: E731
    if shape == "plate":
        return [letters(2) + digits(2), letters(3)]
    if shape == "flight":
        return [letters(2), digits(draw(st.integers(3, 4)))]
    if shape == "pairs":
        return [letters(2), digits(2), letters(2), digits(2)]
    if shape == "digits":
        return [digits(4), digits(4)]
    return [letters(1) + digits(3) + letters(1)]


def _spelled(groups: list[str]) -> str:
    return " ".join(DIGIT_WORDS[int(ch)] if ch.isdigit() else ch.lower() for ch in "".join(groups))


@SETTINGS
@given(
    groups=references(),
    form=st.sampled_from(["spaced", "joined", "lower", "hyphens", "spelled", "letters"]),
    frame=st.sampled_from(["{}", "it's {}", "the reg is {}", "{} thanks", "yes, booking {} please"]),
)
def test_a_reference_keeps_every_letter_and_digit(groups: list[str], form: str, frame: str) -> None:
    said = {
        "spaced": " ".join(groups),
        "joined": "".join(groups),
        "lower": " ".join(groups).lower(),
        "hyphens": "-".join(groups),
        "spelled": _spelled(groups),  # "b r zero zero four two"
        "letters": " ".join("".join(groups)),  # "H R 1 3 V C X"
    }[form]
    text = frame.format(said)
    for slot in (
        Slot(name="booking_reference", type="reference"),
        Slot(name="registration", type="reference", pattern="^[A-Z0-9]{2,10}$"),
    ):
        value = read(slot, text)
        assert value in ("".join(groups), NOTHING), text
        assert offered(slot, text) <= {"".join(groups)}, text
        lone = sum(group.isalpha() for group in groups) == 1 and not any(
            g.isalnum() and not g.isalpha() and not g.isdigit() for g in groups
        )
        in_doubt = (form == "spelled" and any(ch.isalpha() for ch in "".join(groups))) or (form == "lower" and lone)
        if not in_doubt:  # "ba 2490" in small letters: "ba" may be a word ("20 min"); spelled letters may be words
            assert value == "".join(groups), f"{text!r} is not read"


# ------------------------------------------------------------------ money


@st.composite
def amounts(draw: st.DrawFn) -> tuple[float, str]:
    """(an amount of pounds, as said): symbols, words, pence, thousands."""
    pounds, pence = draw(st.integers(1, 99_999)), draw(st.integers(0, 99))
    form = draw(st.sampled_from(["symbol", "pence", "words", "pounds and pence", "thousands", "grand", "p"]))
    if form == "symbol":
        return pounds, f"£{pounds:,}" if draw(st.booleans()) else f"£{pounds}"
    if form == "pence":
        return round(pounds + pence / 100, 2), f"£{pounds}.{pence:02d}"  # the amount in pence, as a reader gives it
    if form == "words":
        return pounds, f"{in_words(pounds)} {draw(st.sampled_from(['pounds', 'quid']))}"
    if form == "pounds and pence":
        pence = max(pence, 1)
        joiner = draw(st.sampled_from([" ", " and "]))
        return round(pounds + pence / 100, 2), f"{in_words(pounds)} pounds{joiner}{in_words(pence)}" + draw(
            st.sampled_from(["", " pence", " p"])
        )
    thousands = draw(st.integers(1, 99))
    if form == "thousands":
        return thousands * 1000, f"£{thousands}k"
    if form == "grand":
        return thousands * 1000, f"{in_words(thousands)} grand"
    return round(max(pence, 1) / 100, 2), f"{max(pence, 1)}p"


@SETTINGS
@given(amount=amounts(), frame=st.sampled_from(["{}", "it's {}", "about {} please", "{} I think"]))
def test_money_is_the_amount_said(amount: tuple[float, str], frame: str) -> None:
    value, said = amount
    text = frame.format(said)
    slot = Slot(name="amount", type="money", currency="GBP")
    assert read(slot, text) == value, text
    assert offered(slot, text) <= {value}


@SETTINGS
@given(
    amount=st.integers(1, 999),
    other=st.sampled_from(["dollars", "euros", "cents", "bucks"]),
    frame=st.sampled_from(["{}", "it's {}", "about {} please"]),
)
def test_an_amount_in_another_currency_is_refused_not_stored(amount: int, other: str, frame: str) -> None:
    slot = Slot(name="amount", type="money", currency="GBP")
    assert read(slot, frame.format(f"{amount} {other}")) is NOTHING


@SETTINGS
@given(low=st.integers(1, 500), high=st.integers(1, 500), joiner=st.sampled_from(["-", " to ", " or "]))
def test_a_range_of_amounts_is_no_amount(low: int, high: int, joiner: str) -> None:
    for said in (f"£{low}{joiner}£{high}", f"{low}{joiner}{high} pounds", f"{low}{joiner}{high}"):
        assert read(Slot(name="amount", type="money", currency="GBP"), said) is NOTHING, said


# --------------------------------------------------------------- durations


@st.composite
def lengths(draw: st.DrawFn) -> tuple[int, str]:
    """(minutes, as said): whole hours, fractions, hours and minutes."""
    hours, minutes = draw(st.integers(1, 9)), draw(st.integers(1, 59))
    hours_word = in_words(hours) if draw(st.booleans()) else str(hours)
    unit = "hour" if hours == 1 else "hours"
    return draw(
        st.sampled_from(
            [
                (hours * 60, f"{hours_word} {unit}"),
                (hours * 60 + 30, f"{hours_word} and a half hours"),
                (hours * 60 + 15, f"{hours_word} and a quarter hours"),
                (90, "an hour and a half"),
                (15, "a quarter of an hour"),
                (45, "three quarters of an hour"),
                (30, "half an hour"),
                (30, "a half hour"),
                (hours * 60 + minutes, f"{hours} {unit} {minutes} minutes"),
                (hours * 60 + minutes, f"{hours_word} {unit} and {in_words(minutes)} minutes"),
                (hours * 60 + max(minutes, 10), f"{hours}h{max(minutes, 10)}"),
                (minutes, f"{minutes} mins"),
                (hours * 60 + 30, f"{hours}.5 hours"),
            ]
        )
    )


@SETTINGS
@given(length=lengths(), frame=st.sampled_from(["{}", "about {}", "{} please", "it'll take {}"]))
def test_a_length_of_time_is_the_length_said(length: tuple[int, str], frame: str) -> None:
    minutes, said = length
    text = frame.format(said)
    slot = Slot(name="length", type="duration")
    assert read(slot, text) == minutes, text
    assert offered(slot, text) <= {minutes}


@SETTINGS
@given(
    low=st.integers(1, 9),
    high=st.integers(1, 9),
    joiner=st.sampled_from(["-", " to ", " or "]),
    unit=st.sampled_from(["hours", "minutes", "nights"]),
)
def test_a_range_of_lengths_is_no_length(low: int, high: int, joiner: str, unit: str) -> None:
    for said in (f"{low}{joiner}{high} {unit}", f"between {low} and {high} {unit}"):
        assert read(Slot(name="length", type="duration"), said) is NOTHING, said


# ------------------------------------------------------------------- dates

DAYS = st.dates(min_value=dt.date(2026, 1, 1), max_value=dt.date(2030, 12, 31))


def _months_later(day: dt.date, months: int) -> dt.date:
    year, month = divmod(day.month - 1 + months, 12)
    for last in (31, 30, 29, 28):
        try:
            return dt.date(day.year + year, month + 1, min(day.day, last))
        except ValueError:
            continue
    raise AssertionError(day)


def _coming(today: dt.date, weekday: int) -> dt.date:
    return today + dt.timedelta(days=(weekday - today.weekday()) % 7 or 7)


@SETTINGS
@given(today=DAYS, count=st.integers(1, 11), weekday=st.integers(0, 6), form=st.integers(0, 9))
def test_a_relative_date_is_the_day_it_names_or_none(today: dt.date, count: int, weekday: int, form: int) -> None:
    now = dt.datetime.combine(today, dt.time(9))
    name = WEEKDAYS[weekday].capitalize()
    said, day = [
        (f"in {count} months", _months_later(today, count)),
        ("a month from today", _months_later(today, 1)),
        ("a year from today", _months_later(today, 12)),
        (f"{in_words(count)} weeks from today", today + dt.timedelta(weeks=count)),
        (f"the {name} after next", _coming(today, weekday) + dt.timedelta(weeks=1)),
        (f"a week on {name}", _coming(today, weekday) + dt.timedelta(weeks=1)),
        (f"{name} week", _coming(today, weekday) + dt.timedelta(weeks=1)),
        ("tomorrow week", today + dt.timedelta(days=8)),
        ("a week tomorrow", today + dt.timedelta(days=8)),
        (f"in {count} days", today + dt.timedelta(days=count)),
    ][form]
    value = read(Slot(name="day", type="date"), f"can we do {said}?", now=now)
    assert value in (day.isoformat(), NOTHING), said
    if not (form in (5, 6) and today.weekday() == weekday):  # "a week on Friday" said on a Friday: which Friday?
        assert value == day.isoformat(), said
    assert value != today.isoformat()


@SETTINGS
@given(today=DAYS, count=st.integers(1, 11), unit=st.sampled_from(["days", "weeks", "months", "years"]))
def test_relative_dates_agree_with_dateparser(today: dt.date, count: int, unit: str) -> None:
    now = dt.datetime.combine(today, dt.time(9))
    said = f"in {count} {unit}"
    theirs = dateparser.parse(said, settings={"RELATIVE_BASE": now, "PREFER_DATES_FROM": "future"})
    assert theirs is not None
    assert read(Slot(name="day", type="date"), said, now=now) == theirs.date().isoformat()


@SETTINGS
@given(
    today=DAYS,
    said=st.sampled_from(
        [
            "the day before yesterday",
            "a few days from now",
            "the week after next",
            "three days after my surgery",
            "2 weeks before Christmas",
        ]
    ),
)
def test_a_day_counted_in_a_way_not_read_is_no_date(today: dt.date, said: str) -> None:
    now = dt.datetime.combine(today, dt.time(9))
    assert read(Slot(name="day", type="date"), said, now=now) is NOTHING


# ------------------------------------------------------------------- times


@SETTINGS
@given(
    hour=st.integers(0, 23),
    minute=st.integers(0, 59),
    form=st.sampled_from(
        ["{h:02d}:{m:02d}", "at {h:02d}:{m:02d}", "{h:02d}{m:02d}", "at {h:02d}{m:02d}", "{h:02d}.{m:02d}"]
    ),
    hours=st.booleans(),
)
def test_a_24_hour_time_is_taken_as_written_never_asked_am_or_pm(hour: int, minute: int, form: str, hours: bool):
    """ "10:00" on a day still ahead, with no opening hours or all day open: 10:00, never "in the morning or in the
    evening?" (both readings fit)."""
    said = form.format(h=hour, m=minute)
    tomorrow = NOW.date() + dt.timedelta(days=1)
    day = Slot(name="day", type="date")
    bounds = {"earliest": "00:00", "latest": "23:59"} if hours else {}
    at = Slot(name="at", type="time", not_past_with="day", **bounds)
    found = RulesUnderstander().understand(state_asking(at, day), said, now=NOW).slots
    assert "at" in found, said
    stored = coerce_given({"at": at, "day": day}, "at", found["at"], {}, {"day": tomorrow.isoformat()}, NOW)
    assert stored == f"{hour:02d}:{minute:02d}", said
