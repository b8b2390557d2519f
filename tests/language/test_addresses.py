"""fsmdial.language.addresses: street addresses said in a message (issue 34, item 2).

The property test builds addresses from their parts (house number, street name, street word, flat, town, UK
postcode or US state and ZIP code), says them with words in front and after, and holds the reader to the normal
form exactly: the address as said, tidied, nothing added.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fsmdial.language.addresses import POSTCODE, address_value, find_addresses, postcode_value, says_address


def values(text: str) -> list[str]:
    return [value for _, value in find_addresses(text)]


# ------------------------------------------------------------------ postcodes (the Royal Mail's formats)

FIRST = "ABCDEFGHIJKLMNOPRSTUWYZ"  # no Q, V, X
SECOND = "ABCDEFGHKLMNOPQRSTUVWXY"  # no I, J, Z
THIRD = "ABCDEFGHJKPSTUW"  # A9A
FOURTH = "ABEHMNPRVWXY"  # AA9A
INWARD = "ABDEFGHJLNPQRSTUWXYZ"  # no C, I, K, M, O, V
DIGITS = "0123456789"


@st.composite
def postcodes(draw: st.DrawFn) -> str:
    """A valid UK postcode in its normal form ("SW1A 1AA")."""
    letter = lambda letters: draw(st.sampled_from(letters))  # noqa: E731
    digit = lambda: draw(st.sampled_from(DIGITS))  # noqa: E731
    form = draw(st.sampled_from(["A9", "A99", "AA9", "AA99", "A9A", "AA9A"]))
    outward = {
        "A9": lambda: letter(FIRST) + digit(),
        "A99": lambda: letter(FIRST) + digit() + digit(),
        "AA9": lambda: letter(FIRST) + letter(SECOND) + digit(),
        "AA99": lambda: letter(FIRST) + letter(SECOND) + digit() + digit(),
        "A9A": lambda: letter(FIRST) + digit() + letter(THIRD),
        "AA9A": lambda: letter(FIRST) + letter(SECOND) + digit() + letter(FOURTH),
    }[form]()
    return f"{outward} {digit()}{letter(INWARD)}{letter(INWARD)}"


@given(postcodes(), st.sampled_from([str.upper, str.lower, str.title]), st.booleans())
def test_every_uk_postcode_form_is_read_in_any_case_with_or_without_its_space(code, case, spaced):
    said = case(code if spaced else code.replace(" ", ""))
    assert postcode_value(said) == code


@pytest.mark.parametrize("code", ["SW1A 1AA", "M19 2LL", "OX44 7QB", "EC1A 1BB", "W1A 0AX", "B33 8TH", "GIR 0AA"])
def test_real_postcodes_are_postcodes(code):
    assert postcode_value(code) == code and postcode_value(code.lower().replace(" ", "")) == code


@pytest.mark.parametrize(
    "said",
    [
        "QA1 1AA",  # Q never starts a postcode
        "VX1 1AA",  # nor V
        "XA1 1AA",  # nor X
        "AI1 1AA",  # I is never second
        "AZ1 1AA",  # nor Z
        "W1L 1AA",  # A9A: L is no third letter
        "EC1C 1AA",  # AA9A: C is no fourth letter
        "SW1A 1CA",  # C is never in the inward code
        "SW1A 1AM",  # nor M
        "SW1A 11A",  # the inward code is a digit and two letters
        "SW123 1AA",  # three digits
        "12345",  # a ZIP code is no postcode
    ],
)
def test_what_breaks_the_formats_is_no_postcode(said):
    assert postcode_value(said) is None and POSTCODE.search(said) is None


# ------------------------------------------------------------------ the property: parts said, the normal form read

TITLE_NAMES = ["Meadow", "Elm", "Church", "Mill", "Station", "Victoria", "High", "Queen's", "Albion", "Castle", "Oak"]
TWO_WORD_NAMES = ["St John's", "Old Church", "North Hill", "Fifth", "5th", "Lady Margaret"]
PLAIN_WORDS = ["Street", "St", "Road", "Rd", "Lane", "Avenue", "Ave", "Crescent", "Terrace", "Grove", "Gardens", "Blvd"]
NAMED_WORDS = ["Drive", "Close", "Way", "Court", "Place", "Square", "Walk", "Rise", "View", "Green", "Parade", "Mews"]
TOWNS = [
    "Amersham",
    "Leeds",
    "Little Milton",
    "Newcastle upon Tyne",
    "Bishop's Stortford",
    "Stratford-upon-Avon",
    "Beverly Hills",
    "New York",
    "Kendal",
]
FLATS = ["Flat 3", "Flat 12", "Apt 4B", "Unit 7", "2nd floor", "Apartment 21", "Basement flat"]
STATES = [("CA", "CA"), ("ca", "CA"), ("NY", "NY"), ("California", "California"), ("Texas", "Texas")]
LEAD_INS = [
    "",
    "the address is ",
    "It's ",
    "it's ",
    "I live at ",
    "pick me up from ",
    "my address is ",
    "Sure, it's ",
    "Address: ",
    "ok so the pickup address is ",
    "we're at ",
]
TRAILING = ["", " please", ", thanks", " thanks!", ".", " please.", " thank you"]


@st.composite
def addresses(draw: st.DrawFn) -> tuple[str, str]:
    """(the address as written, its normal form): each part written, and as the normal form has it."""
    lower = draw(st.booleans())  # all in lower case: then only street words that are no ordinary words
    case = str.lower if lower else str
    number = str(draw(st.integers(1, 9999)))
    if draw(st.integers(0, 5)) == 0:
        number = f"{number}-{int(number) + 2}"
    else:
        number += draw(st.sampled_from(["", "", "a", "B"]))
    name = draw(st.sampled_from(TITLE_NAMES + TWO_WORD_NAMES))
    word = draw(st.sampled_from(PLAIN_WORDS if lower else PLAIN_WORDS + NAMED_WORDS))
    street = case(f"{number} {name} {word}")
    flat = draw(st.sampled_from([None, *FLATS]))
    if flat is not None:
        between = draw(st.sampled_from([", ", " "]))
        street = case(flat) + between + street if draw(st.booleans()) else street + between + case(flat)
    written = normal = street
    code_kind = draw(st.sampled_from(["none", "uk", "us"]))
    town = draw(st.sampled_from([None, *TOWNS])) if code_kind != "us" else draw(st.sampled_from(TOWNS))
    if town is not None:
        separator = ", " if lower else draw(st.sampled_from([", ", " "]))  # a town in lower case after a comma
        written, normal = written + separator + case(town), normal + separator + case(town)
    if code_kind == "uk":
        code = draw(postcodes())
        said = draw(st.sampled_from([code, code.lower(), code.replace(" ", "")]))
        separator = draw(st.sampled_from([", ", " "]))
        written, normal = written + separator + said, normal + separator + code
    elif code_kind == "us":
        state, state_normal = draw(st.sampled_from(STATES))
        state, state_normal = case(state), (state_normal if len(state_normal) == 2 else case(state_normal))
        zip_code = str(draw(st.integers(10000, 99999))) + draw(st.sampled_from(["", "-1234"]))
        written, normal = f"{written}, {state} {zip_code}", f"{normal}, {state_normal} {zip_code}"
    return written, normal


@settings(max_examples=300)
@given(addresses(), st.sampled_from(LEAD_INS), st.sampled_from(TRAILING))
def test_an_address_said_from_its_parts_is_read_as_its_normal_form(address, lead_in, trailing):
    written, normal = address
    said = lead_in + written + trailing
    assert values(said) == [normal], said
    assert address_value(said) == normal
    assert address_value(normal) == normal  # stable: a stored value reads back as itself


# ------------------------------------------------------------------ regressions and phrasings


@pytest.mark.parametrize(
    ("said", "address"),
    [
        ("8 Meadow Lane, Amersham", "8 Meadow Lane, Amersham"),
        ("actually the address is 12 Elm Street, not 21", "12 Elm Street"),
        ("12 Elm Street, not 21 Elm Street", "12 Elm Street"),
        ("not 21, 12 Elm Street", "12 Elm Street"),
        ("it's not 21 Elm Street but 12 Elm Street, Leeds", "12 Elm Street, Leeds"),
        (
            "Flat 12, Riverside Court, 3 Quay Street, Glasgow G1 4HR",
            "Flat 12, Riverside Court, 3 Quay Street, Glasgow G1 4HR",
        ),
        ("The Old Barn, Church Lane, Little Milton, OX44 7QB", "The Old Barn, Church Lane, Little Milton, OX44 7QB"),
        ("flat 1 32 victoria street liverpool l1 6bx", "flat 1 32 victoria street liverpool L1 6BX"),
        ("5 mill lane, york yo1 7hh", "5 mill lane, york YO1 7HH"),
        ("19 The Green, Tadcaster LS24 9AB", "19 The Green, Tadcaster LS24 9AB"),
        ("88 Kingsway, Manchester M19 2LL", "88 Kingsway, Manchester M19 2LL"),
        ("2nd floor, 10 Downing Street, London sw1a2aa", "2nd floor, 10 Downing Street, London SW1A 2AA"),
        ("12 - 14 High St., Oxford", "12-14 High St., Oxford"),
        ("12 Elm St.", "12 Elm St"),
        ("12   Elm Street ,Leeds", "12 Elm Street, Leeds"),
        ("1600 Pennsylvania Avenue NW, Washington, DC 20500", "1600 Pennsylvania Avenue NW, Washington, DC 20500"),
        ("350 Main St Apt 4B, Springfield, il 62704-1234", "350 Main St Apt 4B, Springfield, IL 62704-1234"),
        ("9595 Wilshire Blvd, Beverly Hills, California 90210", "9595 Wilshire Blvd, Beverly Hills, California 90210"),
        ("pick me up from 8 Meadow Lane, Amersham at 7pm tomorrow please", "8 Meadow Lane, Amersham"),
        ("it's 4 Meadow Way, Kendal, I'm not sure of the postcode", "4 Meadow Way, Kendal"),
        ("3 fruit boxes delivered to 5 Oak Road, Leeds on Friday", "5 Oak Road, Leeds"),
        ("the address is 12 Elm Street and there will be 3 of us at 8am", "12 Elm Street"),
        ("8 Meadow Lane, March 3rd", "8 Meadow Lane"),  # a date after it is no town
        ("12 Elm Street, QX1 1AA", "12 Elm Street"),  # no postcode: not taken in
        ("Holly Bank, 18 Stockton Lane, York YO31 1BQ", "Holly Bank, 18 Stockton Lane, York YO31 1BQ"),  # a house name
        ("Hi Sarah, 18 Stockton Lane, York YO31 1BQ", "18 Stockton Lane, York YO31 1BQ"),  # a greeting, no house
        # the rooms of a house are no street ("terrace" is a street word): round 9 lost the address beside them
        ("it's a 3 bedroom terrace at 54 Brook Road, Bristol BS5 7HA", "54 Brook Road, Bristol BS5 7HA"),
        ("a 2 bed terrace, 7 Mill Lane, Leeds", "7 Mill Lane, Leeds"),
        # a flat in a named building has no street: its postcode makes it an address (round 10 lost one)
        ("Apartment 12, Kelham Court, Leeds LS1 4AP", "Apartment 12, Kelham Court, Leeds LS1 4AP"),
        ("it's Rowan House, Bath BA1 2QT", "Rowan House, Bath BA1 2QT"),
    ],
)
def test_an_address_is_read_as_said_and_tidied(said, address):
    assert values(said) == [address]


@pytest.mark.parametrize(
    "said",
    [
        "I'd like to book an airport transfer please",
        "I don't know the address",
        "not sure of the postcode, sorry",
        "I'd rather not say",
        "at 8 please",
        "Flat 3, Tapton House",  # a building with no street nor postcode
        "8 people at the Grand Hotel",
        "table for 4 at 7:30 on Park Road",
        "I need 4 seats close to the front",
        "we need 3 rooms, way too many",
        "Meet me at 10, Main Street entrance",
        "I'll be 2 minutes away from the main road",
        "call me on 07700 900123",
        "Church Lane",  # a street without its number, building or postcode
        "4 the avenue",  # a street word that is an ordinary word, in lower case
        "no, not 21 Elm Street",  # only ruled out
        "the postcode is HP6 5AA",
    ],
)
def test_a_request_a_give_up_or_other_numbers_are_no_address(said):
    assert find_addresses(said) == ()


def test_the_span_holds_the_cue_words_and_the_correction_and_says_it_is_an_address():
    ((span, value),) = find_addresses("actually the address is 12 Elm Street, not 21")
    assert span == "the address is 12 Elm Street, not 21" and value == "12 Elm Street"
    assert says_address(span)
    assert says_address("8 Meadow Lane HP6 5AA") and says_address("350 Fifth Avenue, New York, NY 10118")
    assert says_address("8 Meadow Lane, Amersham") and says_address("Flat 2, 8 Meadow Lane")  # more than a street
    assert says_address("no, it's 8 Meadow Lane") and says_address("pick me up from 8 Meadow Lane")
    assert not says_address("8 Meadow Lane")  # may answer something else


def test_two_addresses_in_one_message_are_both_read():
    assert values("from 12 Elm Street to 8 Meadow Lane, Amersham") == ["12 Elm Street", "8 Meadow Lane, Amersham"]


@pytest.mark.parametrize("said", ["12 Elm Street please", "it's 12 Elm Street, thanks", "the address is 12 Elm Street"])
def test_a_value_with_words_in_front_and_thanks_after_is_the_address(said):
    assert address_value(said) == "12 Elm Street"


@pytest.mark.parametrize("said", ["12 Elm Street and 3 people", "Leeds", "from 12 Elm Street to 8 Meadow Lane", ""])
def test_a_value_that_is_more_or_less_than_one_address_is_none(said):
    assert address_value(said) is None


def test_a_house_name_of_one_word_opening_the_reply_is_part_of_the_address() -> None:
    assert address_value("Hollybank, 6 Ecclesall Road South, Sheffield S11 9PA") == (
        "Hollybank, 6 Ecclesall Road South, Sheffield S11 9PA"
    )
    # a word people open a reply with is no house's name
    for opener in ("Thanks", "Sorry", "Hello", "Morning"):
        assert find_addresses(f"{opener}, 6 Ecclesall Road South, Sheffield S11 9PA")[0][1].startswith("6 "), opener
