"""Issue 20, mechanism 3: the built-in slot types, one table keyed by type.

Each type's recognizer (what the rules and the model's grounded spans read from a message), its coercion
(normal form or refusal) and its flow-format options; phrasings below the ``# not tuned`` marks were written
after the recognizers, and were not used to shape them. The property test at the end is issue 27's item 4 over
every type: a stored value is the normal form of what was said, or nothing is stored.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fsmdial.errors import FlowError
from fsmdial.flow import Slot, SlotType
from fsmdial.loader import load_flow
from fsmdial.runtime import Dialogue
from fsmdial.slots import KINDS, SLOT_OPTIONS
from fsmdial.understand.base import UnderstandingState
from fsmdial.understand.constraint.grounding import is_typed, typed_candidates
from fsmdial.understand.constraint.schema import slot_type
from fsmdial.understand.model.prompt import static_prefix
from fsmdial.understand.rules import RulesUnderstander
from fsmdial.values import InvalidValue, coerce

NOW = dt.datetime(2026, 11, 23, 10, 0)


def slot(kind: str, **options: Any) -> Slot:
    return Slot(name="s", type=SlotType(kind), **options)


def flow(*slots: dict[str, Any]) -> dict[str, Any]:
    return {
        "name": "contact",
        "nodes": [
            {"id": "ask", "type": "request", "slots": list(slots)},
            {"id": "done", "type": "end", "message": "Done."},
        ],
        "edges": [{"source": "ask", "target": "done"}],
    }


def test_every_slot_type_has_one_entry_in_the_table() -> None:
    assert set(KINDS) == set(SlotType)
    for kind in SlotType:  # each entry answers for its type: a prompt line and a model type
        options: dict[str, Any] = {"values": ["a", "b"]} if kind is SlotType.categorical else {}
        s = Slot(name="s", type=kind, **options)
        assert KINDS[kind].prompt(s)
        assert slot_type(s) is not None


# ------------------------------------------------------------------ phone


@pytest.mark.parametrize(
    "said, region, stored",
    [
        ("07700 900 123", "GB", "07700900123"),
        ("+44 7700 900123", "GB", "+447700900123"),
        ("0770-090-0789", "GB", "07700900789"),
        ("020 7946 0000", "GB", "02079460000"),
        ("(555) 123-4567", "US", "5551234567"),
        ("oh seven seven double oh nine oh oh one two three", "GB", "07700900123"),
        # not tuned
        ("+1 415 555 0132", None, "+14155550132"),
        ("415.555.0132", "US", "4155550132"),
        ("0161 496 0000", "GB", "01614960000"),
        ("zero seven nine one one, one two three four five six", "GB", "07911123456"),
        ("+49 30 901820", None, "+4930901820"),
    ],
)
def test_a_phone_number_is_stored_as_dialled(said: str, region: str | None, stored: str) -> None:
    s = slot("phone", region=region)
    assert coerce(s, said, NOW) == stored
    assert list(typed_candidates(s, f"you can call me on {said} any time", NOW).values()) == [stored]


@pytest.mark.parametrize(
    "said, region",
    [("12345", "GB"), ("555 12", None), ("tomorrow at 7", "GB"), ("0770", "GB"), ("+44 12", None), ("call me", "GB")],
)
def test_what_is_no_phone_number_is_refused(said: str, region: str | None) -> None:
    with pytest.raises(InvalidValue):
        coerce(slot("phone", region=region), said, NOW)


def test_a_phone_number_is_not_read_out_of_a_date_or_a_time() -> None:
    assert typed_candidates(slot("phone"), "born on 12.05.1990 at 10:30", NOW) == {}


# ------------------------------------------------------------------ email


@pytest.mark.parametrize(
    "said, stored",
    [
        ("maria.lopez@gmail.com", "maria.lopez@gmail.com"),
        ("carol dot dunn at gmail dot com", "carol.dunn@gmail.com"),
        ("Tom.Becker@Web.DE", "Tom.Becker@web.de"),
        # not tuned
        ("john underscore smith at example dot co dot uk", "john_smith@example.co.uk"),
        ("j-cole+vet@mail.example.org", "j-cole+vet@mail.example.org"),
        ("lee dash ann at outlook dot com", "lee-ann@outlook.com"),
    ],
)
def test_an_email_address_is_stored_with_its_domain_in_lower_case(said: str, stored: str) -> None:
    s = slot("email")
    assert coerce(s, said, NOW) == stored
    assert list(typed_candidates(s, f"sure, it's {said}, thanks", NOW).values()) == [stored]


@pytest.mark.parametrize("said", ["maria at gmail", "@gmail.com", "maria@", "a@b", "I am at home dot com", "hello"])
def test_what_is_no_email_address_is_refused(said: str) -> None:
    with pytest.raises(InvalidValue):
        coerce(slot("email"), said, NOW)


# -------------------------------------------------------------- reference


@pytest.mark.parametrize(
    "said, stored",
    [
        ("4 5 1 2", "4512"),
        ("five oh three", "503"),
        ("1234 5678", "12345678"),
        ("AB-1234", "AB1234"),
        # not tuned
        ("xk42z", "XK42Z"),
        ("nine nine double seven", "9977"),
        ("0852", "0852"),
    ],
)
def test_a_reference_is_one_word_of_letters_and_digits(said: str, stored: str) -> None:
    s = slot("reference")
    assert coerce(s, said, NOW) == stored
    assert stored in typed_candidates(s, f"it's {said}", NOW).values()


def test_a_reference_pattern_holds_on_the_normal_form_and_dates_are_no_reference() -> None:
    s = slot("reference", pattern="^[0-9]{4}$")
    assert coerce(s, "1 2 3 4", NOW) == "1234"
    with pytest.raises(InvalidValue):
        coerce(s, "12345", NOW)
    said = "the last four digits are 5678 and I was born on the 3rd of May 1985"
    assert typed_candidates(s, said, NOW) == {"5678": "5678"}


@pytest.mark.parametrize("said", ["one", "the third", "3rd", "hello there", "4 people please"])
def test_what_is_no_reference_is_refused(said: str) -> None:
    with pytest.raises(InvalidValue):
        coerce(slot("reference"), said, NOW)


# ---------------------------------------------------------------- address


@pytest.mark.parametrize(
    "said, stored",
    [
        ("8 Meadow Lane, Amersham", "8 Meadow Lane, Amersham"),
        ("it's flat 3, 17 albion street, leeds ls15aa thanks", "flat 3, 17 albion street, leeds LS1 5AA"),
        ("my address is 12a  Elm Road ,Leeds", "12a Elm Road, Leeds"),
        ("the address is 12 Elm Street, not 21", "12 Elm Street"),
        ("350 Fifth Avenue, New York, ny 10118", "350 Fifth Avenue, New York, NY 10118"),
        # not tuned
        ("The Old Barn, Church Lane, Little Milton, OX44 7QB", "The Old Barn, Church Lane, Little Milton, OX44 7QB"),
        ("I live at 221B Baker Street, London NW1 6XE", "221B Baker Street, London NW1 6XE"),
    ],
)
def test_an_address_is_stored_as_said_and_tidied(said: str, stored: str) -> None:
    s = slot("address")
    assert coerce(s, said, NOW) == stored
    assert coerce(s, stored, NOW) == stored
    assert stored in typed_candidates(s, f"well, {said}", NOW).values()


@pytest.mark.parametrize(
    "said", ["Leeds", "I'd like to book an airport transfer please", "12 Elm Street and 3 people", "SW1A 1AA", "8"]
)
def test_what_is_no_address_is_refused(said: str) -> None:
    with pytest.raises(InvalidValue):
        coerce(slot("address"), said, NOW)


def test_an_address_says_it_is_one_by_its_cue_words_or_its_postcode() -> None:
    address = KINDS[SlotType.address]
    assert address.claims and address.finds and not address.whole_text and not address.outside_dates
    assert address.says_itself("pick me up from 8 Meadow Lane") and address.says_itself("8 Meadow Lane, HP6 5AA")
    assert not address.says_itself("8 Meadow Lane")
    assert not address.fits(slot("address"), "8")  # one word is never an address


# ------------------------------------------------------------ person name


def test_a_person_name_is_read_only_where_a_name_is_said() -> None:
    s = slot("person_name", max_length=40)
    assert coerce(s, "  Dana   Lee ", NOW) == "Dana Lee"
    assert coerce(s, "O'Brien", NOW) == "O'Brien"
    with pytest.raises(InvalidValue):
        coerce(s, "1234", NOW)
    with pytest.raises(InvalidValue, match="longer than 40"):
        coerce(s, "Bartholomew Maximilian Fitzgerald-Worthington", NOW)
    asked = UnderstandingState(flow="f", node="n", intents=(), slots=(slot("person_name"),), asked="s")
    rules = RulesUnderstander()
    for said in ("he's bleeding badly", "hi there", "do you have vegan options?"):
        assert rules.understand(asked, said, now=NOW).slots == {}
    # not tuned
    assert rules.understand(asked, "yeah it's Ngozi Okafor", now=NOW).slots == {"s": "Ngozi Okafor"}


# ------------------------------------------------------------- money, duration


@pytest.mark.parametrize(
    "said, stored",
    [
        ("£25", 25),
        ("25 quid", 25),
        ("twenty-five pounds", 25),
        ("4.50", 4.5),
        ("50p", 0.5),
        # not tuned
        ("£1,200.99", 1200.99),
        ("forty pounds", 40),
        ("GBP 30", None),
        ("30 euros", None),
        ("12.345", None),
    ],
)
def test_money_is_a_number_in_the_slots_currency(said: str, stored: float | None) -> None:
    s = slot("money", currency="GBP")
    if stored is None:
        with pytest.raises(InvalidValue):
            coerce(s, said, NOW)
    else:
        assert coerce(s, said, NOW) == stored


@pytest.mark.parametrize(
    "unit, said, stored",
    [
        ("nights", "4 nights", 4),
        ("nights", "a week", 7),
        ("minutes", "an hour and a half", 90),
        ("minutes", "half an hour", 30),
        ("minutes", "45", 45),
        # not tuned
        ("hours", "90 minutes", 1.5),
        ("days", "two weeks", 14),
        ("minutes", "2 hrs", 120),
    ],
)
def test_a_duration_is_a_number_of_the_slots_unit(unit: str, said: str, stored: float) -> None:
    assert coerce(slot("duration", unit=unit), said, NOW) == stored


def test_a_bare_number_is_an_amount_only_when_no_amount_names_its_unit() -> None:
    nights = slot("duration", unit="nights")
    assert typed_candidates(nights, "5 people and 4 nights from friday", NOW) == {"4 nights": 4}
    assert typed_candidates(slot("money"), "about £25 for 2 people", NOW) == {"£25": 25}
    assert typed_candidates(slot("money"), "it's 25 I think", NOW) == {"25": 25}


# ------------------------------------------------------------------- text


def test_text_is_the_old_string_type_under_its_new_name() -> None:
    for kind in ("text", "string"):
        s = slot(kind, max_length=20, pattern="[a-z ]+")
        assert coerce(s, " a quiet table ", NOW) == "a quiet table"
        with pytest.raises(InvalidValue):
            coerce(s, "A quiet table", NOW)
        assert not is_typed(slot(kind))


# --------------------------------------------------------- the flow format


@pytest.mark.parametrize(
    "slot_doc, problem",
    [
        ({"name": "p", "type": "email", "region": "GB"}, "'region' only applies to phone slots"),
        ({"name": "p", "type": "phone", "region": "gb"}, "region"),
        (
            {"name": "p", "type": "reference", "minimum": 1},
            "'minimum'/'maximum' only apply to integer, number, money and duration",
        ),
        ({"name": "p", "type": "date", "max_length": 3}, "'pattern'/'max_length' only apply to string, text"),
        ({"name": "p", "type": "postcode"}, "Input should be 'string', 'text', 'person_name', 'phone'"),
    ],
)
def test_the_flow_format_refuses_options_a_type_does_not_have(slot_doc: dict[str, Any], problem: str) -> None:
    with pytest.raises(FlowError, match=re.escape(problem)):
        load_flow(flow(slot_doc))
    assert SLOT_OPTIONS["region"] == frozenset({SlotType.phone})


# ------------------------------------------------------------ both paths


CONTACT = flow(
    {"name": "owner", "type": "person_name", "max_length": 60},
    {"name": "phone", "type": "phone", "region": "GB"},
    {"name": "email", "type": "email"},
    {"name": "quantity", "type": "integer"},
)


def state(asked: str | None) -> UnderstandingState:
    slots = tuple(load_flow(CONTACT).slots().values())
    return UnderstandingState(
        flow="contact", node="ask", intents=(), slots=slots, asked=asked, expected=tuple(s.name for s in slots)
    )


@pytest.mark.parametrize(
    "asked, said, read",
    [
        ("phone", "my number is 07455 667788", {"phone": "07455667788"}),
        ("phone", "sorry, wrong number, it's 07700 222 334", {"phone": "07700222334"}),
        (
            "owner",
            "I'm Tom Becker, you can reach me on 07123456789 or tom.becker@web.de",
            {
                "owner": "Tom Becker",
                "phone": "07123456789",
                "email": "tom.becker@web.de",
            },
        ),
        ("email", "hold on... it's greg dot hill at yahoo dot com", {"email": "greg.hill@yahoo.com"}),
        # not tuned
        ("quantity", "3 boxes, and my mobile is +44 7911 123456", {"quantity": 3, "phone": "+447911123456"}),
        ("email", "no idea, sorry", {}),
    ],
)
def test_the_rules_read_each_value_for_its_own_slot(asked: str | None, said: str, read: dict[str, Any]) -> None:
    assert RulesUnderstander().understand(state(asked), said, now=NOW).slots == read


def test_the_model_is_offered_only_the_spans_the_recognizer_grounds() -> None:
    slots = load_flow(CONTACT).slots()
    said = "it's 07700 900 123, or mail me at jo.ray@mail.com, 2 boxes"
    assert typed_candidates(slots["phone"], said, NOW) == {"07700 900 123": "07700900123"}
    assert typed_candidates(slots["email"], said, NOW) == {"jo.ray@mail.com": "jo.ray@mail.com"}
    prompt = static_prefix(state("phone"))
    assert "- phone: a phone number, the words that say it." in prompt
    assert "- email: an email address, the words that say it." in prompt


def test_a_phone_number_says_it_is_one_or_waits_to_be_asked() -> None:
    phone = KINDS[SlotType.phone]
    assert phone.says_itself("07700 900123") and phone.says_itself("+44 7700 900123")
    assert not phone.says_itself("12345678")  # may be an account number


def test_no_number_is_offered_out_of_a_phone_number_or_an_email() -> None:
    quantity = load_flow(CONTACT).slots()["quantity"]
    assert typed_candidates(quantity, "07700900151", NOW) == {}
    assert typed_candidates(quantity, "no, the phone number is 07700 900 152", NOW) == {}
    assert typed_candidates(quantity, "2 boxes, mail jo42@mail.com", NOW) == {"2": 2}


def test_a_dialogue_stores_the_normal_form_and_refuses_the_rest() -> None:
    d = Dialogue(load_flow(CONTACT), clock=lambda: NOW)
    d.start()
    d.turn("Dana Lee")
    d.turn("it's oh seven seven double oh, nine oh oh, one two three")
    assert d.slots.get("phone") == "07700900123"
    d.turn("dana at example")
    assert "email" not in d.slots
    d.turn("dana dot lee at example dot com")
    assert d.slots["email"] == "dana.lee@example.com"


# ------------------------------------------------- issue 27 item 4: no silent change


DIGIT_WORDS = {"zero": "0", "oh": "0", "one": "1", "two": "2", "three": "3", "four": "4", "five": "5", "six": "6"}
DIGIT_WORDS |= {"seven": "7", "eight": "8", "nine": "9"}


def _digits_said(text: str) -> str:
    """The digits a phone number or a reference says, digit words read, "double"/"triple" repeating the next."""
    out, repeat = "", 1
    for token in re.findall(r"[A-Za-z]+|\d+", text):
        low = token.casefold()
        if low in ("double", "triple"):
            repeat = 2 if low == "double" else 3
            continue
        piece = token if token.isdigit() else DIGIT_WORDS.get(low, token.upper())
        out += piece * repeat if len(piece) == 1 else piece
        repeat = 1
    return out


def _normal_forms(kind: str, text: str) -> set[Any]:
    """Independent of the recognizers: what ``text`` may be stored as for a slot of type ``kind``."""
    stripped = text.strip()
    if kind in ("string", "text"):
        return {stripped}
    if kind == "person_name":
        return {" ".join(stripped.split())}
    if kind == "phone":
        return {("+" if stripped.startswith("+") else "") + _digits_said(stripped)}
    if kind == "reference":
        return {_digits_said(stripped)}
    if kind in ("money", "duration"):  # a number said in it, scaled by its unit (pence, hours...)
        return {n * scale for n in _numbers_said(stripped) for scale in (1, 0.01, 60, 1 / 60, 1440, 10080, 0.5)}
    if kind == "email":
        marks = {"dot": ".", "underscore": "_", "dash": "-", "hyphen": "-", "at": "@"}
        spoken = re.sub(
            r"\s+(dot|underscore|dash|hyphen|at)\s+", lambda m: marks[m[1].casefold()], stripped, flags=re.I
        )
        local, _, domain = spoken.rpartition("@")
        return {f"{local}@{domain.lower()}"}
    raise AssertionError(kind)


def _numbers_said(text: str) -> set[float]:
    from fsmdial.language import find_numbers

    words = {"a": 1, "an": 1, "half": 0.5}
    found = {float(n) for n in find_numbers(text.replace(",", ""))} | {v for w, v in words.items() if w in text.split()}
    found |= {float(n) for n in re.findall(r"\d+(?:\.\d+)?", text.replace(",", ""))}  # "2k": the 2
    found |= {a + b for a in found for b in found} | {a + 0.5 for a in found}  # "twenty-five", "an hour and a half"
    found |= {a + b / 100 for a in found for b in found}  # "twenty pounds fifty"
    if re.search(r"\d\s?[kKmM]\b|grand|thousand|million", text):  # "£2k", "£1.5m", "two grand"
        found |= {a * scale for a in found for scale in (1000, 1_000_000)}
    return found


NEW_KINDS = ["string", "text", "person_name", "phone", "email", "reference", "money", "duration"]
SAID = st.one_of(
    st.text(max_size=40),
    st.text(alphabet="0123456789 -+()", max_size=20),
    st.lists(st.sampled_from([*DIGIT_WORDS, "double", "4", "55", "x", "AB"]), max_size=12).map(" ".join),
    st.sampled_from(
        [
            "07700 900 123",
            "+44 7700 900123",
            "carol dot dunn at gmail dot com",
            "Maria.Lopez@GMAIL.com",
            "Dana  Lee",
            "he's bleeding badly",
            "AB-1234",
            "4 5 1 2",
            "five oh three",
            "x" * 70,
            "£25",
            "twenty pounds",
            "an hour and a half",
            "4 nights",
        ]
    ),
)


@pytest.mark.parametrize("kind", NEW_KINDS)
@settings(max_examples=150, deadline=None)
@given(text=SAID)
def test_a_stored_value_is_the_normal_form_of_what_was_said_or_nothing(kind: str, text: str) -> None:
    s = slot(kind, **({} if kind in ("money", "duration") else {"max_length": 60}))
    try:
        value = coerce(s, text, NOW)
    except InvalidValue:
        return
    forms = _normal_forms(kind, text)
    if isinstance(value, str):
        assert value in forms and len(value) <= 60
    else:
        assert any(abs(value - form) < 1e-9 for form in forms)
    assert coerce(s, value, NOW) == value  # the normal form is stable: a stored value reads back as itself


ADDRESS_SAID = st.one_of(
    SAID,
    st.tuples(
        st.sampled_from(["", "it's ", "the address is ", "at 7pm ", "not ", "Flat 3, ", "flat 2b "]),
        st.sampled_from(["12", "12a", "3 - 5", "21", "7pm", "", "twelve"]),
        st.sampled_from([" Elm", " elm", " Old Church", " the", ""]),
        st.sampled_from([" Street", " st", " St.", " Close", " close", " Way", ""]),
        st.sampled_from(["", ", Leeds", " leeds", ", ls15aa", " SW1A 1AA", ", New York, ny 10118", ", not 21"]),
        st.sampled_from(["", " thanks", ", 3 people", " at 7pm", " please", ".", " QX1 1AA"]),
    ).map("".join),
)


@settings(max_examples=300, deadline=None)
@given(text=ADDRESS_SAID)
def test_a_stored_address_is_words_that_were_said_or_nothing(text: str) -> None:
    """An address is never invented: the stored value is a stretch of what was said (case, spaces and commas aside,
    its postcode or state code upper-cased, a house number said in words in digits), and reads back as itself."""
    from fsmdial.language.numbers import words_to_digits

    s = slot("address", max_length=60)
    try:
        value = coerce(s, text, NOW)
    except InvalidValue:
        return

    def squashed(words: str) -> str:
        return re.sub(r"[\s,]+", "", words).casefold()

    assert squashed(value) in squashed(words_to_digits(text)) and len(value) <= 60
    assert coerce(s, value, NOW) == value
