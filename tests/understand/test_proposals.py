"""A value chosen by meaning is said back ("I take it the ... is ..."), and the reply may put it right in other words
(round 11's h11b-08: "I need to see someone about my tooth" was taken as an emergency; "it's not hurting or anything,
the dentist said I need to come back for my routine exam" was read as nothing, and the emergency was booked)."""

from __future__ import annotations

import datetime as dt

from fsmdial.flow import Slot
from fsmdial.understand.base import UnderstandingState
from fsmdial.understand.rules import RulesUnderstander
from fsmdial.understand.rules.proposals import disputed_proposal

KIND = Slot(
    name="job",
    type="categorical",
    label="job",
    values=["boiler repair", "annual service"],
    description=(
        "The visit (boiler repair: no hot water, boiler leaking; annual service: yearly check, routine service)"
    ),
)
PARKING = Slot(name="parking", type="boolean", ask="Is there parking?")
SAID_BACK = [("user", "my boiler"), ("bot", "I take it the job is boiler repair."), ("bot", "Is there parking?")]


def test_the_reply_after_a_proposal_may_tell_another_value_of_it() -> None:
    said = "no, it's working fine, it's just due its yearly check"
    assert disputed_proposal([KIND, PARKING], SAID_BACK, said) == {"job": "annual service"}
    state = UnderstandingState(
        flow="t", node="ask", intents=(), slots=(KIND, PARKING), expected=("parking",), asked="parking"
    )
    parse = RulesUnderstander().understand(state, said, history=SAID_BACK, now=dt.datetime(2027, 3, 1, 9))
    assert parse.slots["job"] == "annual service"


def test_only_a_proposal_said_back_just_before_and_another_value_tell_anything() -> None:
    said = "it's just due its yearly check"
    assert disputed_proposal([KIND], [("bot", "Is there parking?")], said) == {}  # no proposal said back
    assert disputed_proposal([KIND], SAID_BACK[:2] + [("user", "yes"), ("bot", "When?")], said) == {}  # not the last
    assert disputed_proposal([KIND], SAID_BACK, "there's no hot water and the boiler is leaking") == {}  # the same one
    assert disputed_proposal([KIND], SAID_BACK, "yes there's a drive") == {}  # no words of another value


def test_a_value_denied_in_the_reply_tells_nothing() -> None:
    """Round 3's h3-30: "no leaks that I can see" after "I take it the job is boiler repair" changed it to a leak."""
    leak = Slot(
        name="job",
        type="categorical",
        values=["boiler repair", "leak"],
        description="The visit (boiler repair: boiler losing pressure, no heating; leak: dripping pipe, water leak)",
    )
    said_back = [("bot", "I take it the job is boiler repair."), ("bot", "Tell me more?")]
    assert disputed_proposal([leak], said_back, "it drops overnight, no water leak or dripping pipe I can see") == {}


def test_the_sentence_a_proposal_is_said_back_with_is_read_back() -> None:
    from fsmdial.language.sentences import taken_as, taken_from

    assert taken_from(taken_as("type of appointment", "check-up")) == ("type of appointment", "check-up")
    assert taken_from(taken_as("job", "lock repair") + "\nWhat's the address?") == ("job", "lock repair")
    assert taken_from("Thanks, I have the job: lock repair.") is None
