"""A value of the asked categorical slot told by most of one of its described forms (held-out round 8's class: a van
size told as the home being moved out of, a sweep's job told as the trouble), proposed and said back; and the "or"
of a listed synonym read as alternatives. Each test uses its own business and wordings, none of the round's."""

from __future__ import annotations

from typing import Any

import pytest

from fsmdial.flow import Slot
from fsmdial.language.choices import described_synonyms
from fsmdial.loader import load_flow
from fsmdial.runtime import Dialogue
from fsmdial.testing import FrozenClock
from fsmdial.understand.rules.described import partly_said, told_across
from tests.flows import request_flow

STORAGE = Slot(
    name="unit",
    type="categorical",
    label="storage unit",
    values=["locker", "small room", "large room"],
    description=(
        "Which storage unit suits (locker: a few suitcases or bags, a bike; small room: the contents of a studio or "
        "one-bedroom flat, a sofa and a wardrobe; large room: the contents of a three-bedroom house or bungalow, "
        "a whole office)"
    ),
)

ROOFER = Slot(
    name="job",
    type="categorical",
    values=["roof repair", "gutter clean", "chimney repoint"],
    description=(
        "What the roofer is needed for (roof repair: roof tiles slipped, water coming through the ceiling, "
        "roof leaking; gutter clean: gutters overflowing, moss in the gutter; chimney repoint: chimney "
        "mortar crumbling, bricks coming loose on the chimney)"
    ),
)


@pytest.mark.parametrize(
    ("said", "value"),
    [
        ("we're emptying a 3 bed semi", "large room"),  # a number said in digits, "bed" of "bedroom"
        ("just clearing out a one bed flat for a few months", "small room"),
        ("just a few suitcases, that's all", "locker"),
        ("it's a sofa, and a big old wardrobe", "small room"),  # the form's words across a comma
        ("rain's been coming through into the bedroom ceiling", "roof repair"),  # most of a form's words
        ("the mortar on the chimney is all crumbling away", "chimney repoint"),
    ],
)
def test_most_of_one_values_form_proposes_it(said: str, value: str) -> None:
    slot = ROOFER if value in ROOFER.values else STORAGE
    assert (partly_said(slot, said) or ("",))[0] == value


@pytest.mark.parametrize(
    ("slot", "said"),
    [
        (STORAGE, "we're emptying a 2 bed semi"),  # "three-bedroom" is not told by another number
        (STORAGE, "I'm moving house next month"),  # "house" alone: the form is "three-bedroom house"
        (STORAGE, "just the bike"),  # one word of a form: a written synonym's, not a proposal
        (ROOFER, "water coming loose"),  # two values' forms told as far: a tie proposes nothing
    ],
)
def test_a_form_told_too_little_or_a_tie_proposes_nothing(slot: Slot, said: str) -> None:
    assert partly_said(slot, said) is None


def test_a_word_in_every_values_forms_tells_none_of_them() -> None:
    locks = Slot(
        name="job",
        type="categorical",
        values=["lock change", "lock repair"],
        description="(lock change: new locks, replace the lock; lock repair: key snapped in the lock, jammed lock)",
    )
    assert partly_said(locks, "my locks are the cheap kind burglars snap") is None  # "lock" tells neither
    assert partly_said(locks, "the key snapped off") == ("lock repair", frozenset())


def test_an_or_in_a_listed_synonym_is_two_forms() -> None:
    synonyms = dict(described_synonyms(tuple(STORAGE.values or ()), STORAGE.description))
    assert {"few suitcases", "few bags"} <= set(synonyms["locker"])  # a last side of one word shares the words before
    assert {"contents of a studio", "one-bedroom flat"} <= set(synonyms["small room"])
    assert "contents of a three-bedroom bungalow" in synonyms["large room"] and "bungalow" not in synonyms["large room"]


def _storage_flow() -> dict[str, Any]:
    return {
        "name": "self_storage",
        "nodes": [
            {
                "id": "ask",
                "type": "request",
                "slots": [
                    {**STORAGE.model_dump(exclude_none=True), "ask": "What are you storing?"},
                    {"name": "weeks", "type": "integer", "minimum": 1, "maximum": 52, "ask": "For how many weeks?"},
                ],
            },
            {
                "id": "confirm",
                "type": "inform_and_confirm",
                "message": "A {unit} for {weeks} weeks.",
                "question": "OK?",
            },
            {
                "id": "book",
                "type": "external_action",
                "tool": "book",
                "commits": True,
                "arguments": {"unit": "unit", "weeks": "weeks"},
            },
            {"id": "done", "type": "end", "message": "Booked."},
        ],
        "edges": [
            {"source": "ask", "target": "confirm"},
            {"source": "confirm", "target": "book", "when": {"answer": "yes"}},
            {"source": "book", "target": "done"},
        ],
    }


def test_a_proposed_value_is_said_back_and_shown_before_the_commit() -> None:
    dialogue = Dialogue(load_flow(_storage_flow()), stand_in_tools=True, clock=FrozenClock("2026-12-01T10:00"))
    dialogue.start()
    reply = dialogue.turn("we're emptying a 3 bed semi")
    assert dialogue.slots["unit"] == "large room" and "weeks" not in dialogue.slots  # the 3 is the form's
    assert "large room" in reply.text.split("For how many weeks?")[0]  # said back before the next question
    assert "A large room for 4 weeks." in dialogue.turn("4").text  # and shown in the summary before any yes


def _fires_flow() -> dict[str, Any]:
    fires = {
        "name": "appliance",
        "type": "categorical",
        "label": "fire",
        "values": ["open fire", "wood burner", "multi-fuel stove"],
        "description": "What burns (open fire: coal fire; wood burner: wood burning stove; "
        "multi-fuel stove: stove for wood and coal)",
        "ask": "What kind of fire is it?",
    }
    return request_flow(fires, name="sweep")


def test_two_values_told_as_well_are_a_doubt_no_model_or_embedder_is_offered() -> None:
    """ "it's a stove, it burns both wood and coal" says all of "wood burning stove" and of "stove for wood and
    coal": the rules note the doubt, the model's grammar and the embedder's options leave the slot out, the flow asks
    (a model chose the wood burner, and it was booked: round 8)."""
    import datetime as dt

    from fsmdial.understand.constraint.schema import standing, turn_schema
    from fsmdial.understand.meaning.options import options_for
    from fsmdial.understand.rules import RulesUnderstander

    dialogue = Dialogue(load_flow(_fires_flow()), stand_in_tools=True)
    dialogue.start()
    state, text, now = dialogue.understanding_state(), "it's a stove, it burns both wood and coal", dt.datetime.now()
    settled = standing(RulesUnderstander(), state, text, (), now)
    assert settled.info["doubt"] == ["appliance"] and "appliance" not in settled.slots
    schema = turn_schema(state, text, now, settled=settled, open_part=settled.info["open"], without_words=True)
    assert "appliance" not in schema.categorical
    assert options_for(state, text, settled) == ()


def test_a_value_read_from_one_word_is_in_doubt_when_more_words_tell_another() -> None:
    """ "coal" alone reads "coal fire" (its "fire" names the slot), but "it's a stove, it burns both wood and coal"
    says all three words of a multi-fuel stove's form (and of a wood burner's): nothing is read, the flow asks
    again (an open fire was booked, round 8)."""
    dialogue = Dialogue(load_flow(_fires_flow()), stand_in_tools=True)
    dialogue.start()
    dialogue.turn("it's a stove, it burns both wood and coal")
    assert "appliance" not in dialogue.slots
    dialogue.turn("a coal fire")
    assert dialogue.slots["appliance"] == "open fire"


def test_a_one_word_value_said_in_another_form_is_that_value() -> None:
    from fsmdial.understand.rules.described import stemmed_value

    gardener = Slot(name="job", type="categorical", values=["mowing", "hedge trim", "weeding"])
    assert stemmed_value(gardener, "the lawn needs mowed badly") == "mowing"  # "mowed" and "mowing": one stem
    assert stemmed_value(gardener, "the beds are full of weeds") == "weeding"
    assert stemmed_value(gardener, "it wants mowed and weeded") is None  # two values: nothing


def test_a_negated_form_is_said_by_its_words_in_a_clause_with_any_negation() -> None:
    """ "not getting hot" is said by "it just doesn't get hot any more", "not heating up" by "it isn't heating
    properly": the negation is the clause's, its word another ("won't", "doesn't", "isn't"), and the particle goes;
    a form of nothing but a negation and light words ("can't get in") is read from no clause."""
    from fsmdial.understand.rules.categories import worded_value

    fault = Slot(
        name="fault",
        type="categorical",
        values=["cold", "leak", "locked"],
        description="(cold: not getting hot, not heating up; leak: dripping; locked: can't get in)",
    )
    assert worded_value(fault, "it's fine otherwise, it just doesn't get hot any more") == "cold"
    assert worded_value(fault, "the radiator isn't heating properly") == "cold"
    assert worded_value(fault, "she can't lock it at night") is None


def test_beside_the_answer_another_slot_of_the_node_is_told_by_a_whole_form_or_proposed_by_two_of_its_words() -> None:
    """ "our oven isn't heating properly" at "which appliance?": the oven answers, and every word of the fault's form
    "not heating up" (its negation the clause's) tells the fault (round 6 asked the fault again). Two words of a
    value's forms beside the answer propose it, said back (round 9: "dirty water left in the bottom" beside the
    dishwasher); one word does not, and a word of the value's own name counts once there ("the wifi keeps dropping
    out" beside the laptop proposed a drop off while its own name counted twice)."""
    fault = {
        "name": "fault",
        "type": "categorical",
        "values": ["cold", "leak"],
        "description": "(cold: not heating up; leak: water coming out of the bottom of it)",
        "ask": "What's wrong with it?",
    }
    appliance = {"name": "appliance", "type": "categorical", "values": ["oven", "fridge"], "ask": "Which one?"}
    flow = request_flow(appliance, fault, name="repairs")
    heating = Dialogue(load_flow(flow), stand_in_tools=True)
    heating.start()
    heating.turn("our oven isn't heating properly")
    assert heating.slots == {"appliance": "oven", "fault": "cold"}
    leaking = Dialogue(load_flow(flow), stand_in_tools=True)
    leaking.start()
    result = leaking.turn("the fridge has water coming out")  # three of the leak form's words: a proposal
    assert leaking.slots == {"appliance": "fridge", "fault": "leak"} and "leak" in result.text
    one_word = Dialogue(load_flow(flow), stand_in_tools=True)
    one_word.start()
    one_word.turn("the fridge is leaking")  # one word, of the value's own name (counting once beside an answer)
    assert one_word.slots == {"appliance": "fridge"}


@pytest.mark.parametrize(
    ("said", "value"),
    [
        # "tiles" of "roof tiles slipped" and "leaking" of "roof leaking": two forms of one value, one word each
        ("some tiles blew off and now it's leaking", "roof repair"),
        ("the gutter's full of moss", "gutter clean"),  # "moss in the gutter" and the value's own "gutter"
        ("there's moss and some tiles", None),  # one word of each of two values: a tie
        ("the ceiling is stained", None),  # one word: no proposal
    ],
)
def test_a_value_told_by_the_words_of_several_of_its_forms_is_proposed(said: str, value: str | None) -> None:
    """Round 9: "the arm's snapped off my glasses" where a glasses repair lists "loose arm" and "broken glasses" and an
    eye test "new glasses": no form is said by most of its words, but two of the value's words are, and one of any
    other's."""
    assert told_across(ROOFER, said) == value


CLINIC = Slot(
    name="reason",
    type="categorical",
    values=["back pain", "sports injury"],
    description="Why the patient comes (back pain: bad back, lower back; sports injury: pulled calf, running injury)",
)


@pytest.mark.parametrize(
    ("said", "value"),
    [
        # round 10: "get back into running" told the back as much as the injury, and nothing was read
        ("I went back to running and my calf hurts", "sports injury"),
        ("since I came back from a run my calf has gone", "sports injury"),
        ("my lower back went when I got back from my run", "back pain"),  # the body's back said too
    ],
)
def test_back_after_a_verb_of_going_is_a_direction_and_tells_no_value(said: str, value: str) -> None:
    assert told_across(CLINIC, said) == value


def test_a_value_told_across_its_forms_is_said_back_before_the_next_question() -> None:
    job = {"name": "job", **ROOFER.model_dump(exclude={"name"}, exclude_none=True), "ask": "What job?"}
    flow = request_flow(job, {"name": "customer", "type": "person_name", "ask": "Your name?"})
    dialogue = Dialogue(load_flow(flow), stand_in_tools=True)
    dialogue.start()
    result = dialogue.turn("the tiles are cracked and the ceiling is damp")  # no form told by most of its words
    assert dialogue.slots == {"job": "roof repair"}
    assert "roof repair" in result.text.split("Your name?")[0]  # said back before the next question


def test_a_word_of_a_values_own_name_counts_more_than_one_of_another_values_synonym() -> None:
    """Round 9: "replace a cracked socket" where sockets and switches is a value's own name and "burning smell from a
    socket" a power fault's synonym: the value named wins; the synonym said whole is still its value's."""
    job = Slot(
        name="job",
        type="categorical",
        values=["power fault", "sockets and switches", "fuse box upgrade"],
        description="The job (power fault: burning smell from a socket, lost power; sockets and switches: new "
        "socket, light switch; fuse box upgrade: replace fuse box)",
    )
    assert told_across(job, "I'm after someone to replace a cracked socket in the kitchen") == "sockets and switches"
    assert told_across(job, "it's the fuse") == "fuse box upgrade"  # one word of one value's own name: a proposal
    assert told_across(job, "the fuse or the socket") is None  # two values' names as far: a tie


def test_a_hyphenated_word_of_a_form_written_joined_is_the_same_form() -> None:
    """Round 8: "it's a multifuel stove" for "multi-fuel stove"."""
    dialogue = Dialogue(load_flow(_fires_flow()), stand_in_tools=True)
    dialogue.start()
    dialogue.turn("it's a multifuel stove")
    assert dialogue.slots == {"appliance": "multi-fuel stove"}


def test_every_word_of_a_form_said_beats_a_typo_of_another() -> None:
    """ "the pipe from the tank is blocked, it gurgles" says every word of "tank pipe" (an outlet repair); "blocked
    gurgles" is no typo of "blocked gutters" (a gutter clearing) either."""
    job = {
        "name": "job",
        "type": "categorical",
        "values": ["gutter clearing", "outlet repair"],
        "description": "The job (gutter clearing: blocked gutters; outlet repair: tank pipe)",
        "ask": "What's the job?",
    }
    dialogue = Dialogue(load_flow(request_flow(job, name="roofs")), stand_in_tools=True)
    dialogue.start()
    dialogue.turn("the pipe from the tank is blocked, it gurgles")
    assert dialogue.session.slots.get("job") == "outlet repair"


def test_a_form_is_said_without_the_last_word_two_values_end_with() -> None:
    """ "detached" says "detached house" where "house" ends two values' names; the form of most words said wins
    ("my downpipe's blocked": "blocked downpipe", not "blocked" of "blocked gutters"); a word two values begin with
    ("contact" of "contact lens check" and "contact lens fitting") is still needed."""
    home = {
        "name": "home",
        "type": "categorical",
        "values": ["bungalow", "two storey house", "three storey house"],
        "description": "The home (two storey house: detached house, semi; three storey house: townhouse)",
        "ask": "What kind of home is it?",
    }
    job = {
        "name": "job",
        "type": "categorical",
        "values": ["gutter clearing", "downpipe unblocking"],
        "description": "The job (gutter clearing: blocked gutters; downpipe unblocking: blocked downpipe)",
        "ask": "What's the job?",
    }
    for said, slot, value in [
        ("detached", home, "two storey house"),
        ("my downpipe's blocked", job, "downpipe unblocking"),
    ]:
        dialogue = Dialogue(load_flow(request_flow(slot, name="visit")), stand_in_tools=True)
        dialogue.start()
        dialogue.turn(said)
        assert dialogue.session.slots.get(slot["name"]) == value, said
