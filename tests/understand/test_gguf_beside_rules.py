"""The model path beside the rules (issue 20, mechanisms 1 and 7): never less than the rules alone.

What the rules read stands whole; the model may only add, and only values grounded in the message: a
categorical value the message has words for, a boolean the message names, a typed value of a slot asked or
named and read one way only, text after the words naming its slot. At a committing confirmation only the rules'
plain yes commits. Most checks need no model (the turn's grammar is the guarantee); the rest use the tiny
random model, steered or fed noise, since a guarantee must hold whatever a model writes.
"""

from __future__ import annotations

import datetime as dt
import json
import random
from pathlib import Path

import pytest

pytest.importorskip("llama_cpp", reason="needs the gguf extra (llama-cpp-python)")

from fsmdial.flow import Slot
from fsmdial.loader import load_flow
from fsmdial.runtime import Dialogue
from fsmdial.testing import FrozenClock
from fsmdial.testing.forcing import seek
from fsmdial.testing.tiny_model import ensure_tiny_model
from fsmdial.understand.base import Parse, UnderstandingState
from fsmdial.understand.constraint.grounding import text_span_ok
from fsmdial.understand.constraint.schema import settled_words, standing, turn_schema
from fsmdial.understand.model.gguf import GGUFUnderstander
from fsmdial.understand.model.understander import merge
from fsmdial.understand.rules import RulesUnderstander
from tests import example_tools
from tests.model_support import noisy_logits
from tests.understand.test_gguf import steered

pytestmark = pytest.mark.model

REPO = Path(__file__).resolve().parents[2]
NOW = dt.datetime(2026, 11, 23, 12, 0)  # a Monday
SUITE = REPO / "tests" / "data" / "customer_conversations" / "suite.jsonl"
RULES = RulesUnderstander()


@pytest.fixture(scope="module")
def beside() -> GGUFUnderstander:
    """The tiny model as shipped: fast path on, the rules' reading first."""
    return GGUFUnderstander(ensure_tiny_model(), n_threads=1)


def asking(flow: str, slot: str, held: dict | None = None) -> UnderstandingState:
    """The state of ``flow`` with ``slot`` just asked."""
    loaded = load_flow(REPO / "flows" / f"{flow}.json")
    node = next(n.id for n in loaded.nodes if any(s.name == slot for s in getattr(n, "slots", None) or ()))
    dialogue = Dialogue(loaded, stand_in_tools=True, clock=lambda: NOW)
    dialogue.adopt_slots(held or {})
    seek(dialogue, node, asked=slot)
    state = dialogue.understanding_state()
    assert state.asked == slot
    return state


def offered(state: UnderstandingState, text: str) -> set[str]:
    """The slots the model is offered for ``text`` beside the rules' reading of it."""
    schema = turn_schema(state, text, NOW, settled=standing(RULES, state, text, (), NOW))
    return set(schema.values) | set(schema.categorical) | set(schema.text_slots) | set(schema.free)


# ------------------------------------------------------------------ what the rules read stands


@pytest.mark.parametrize(
    ("flow", "slot", "text"),
    [
        ("vet_appointment", "reason", "first vaccinations"),  # SmolLM2 wrote "first"
        ("ride_change", "change_description", "change pickup to 5pm"),  # "5pm"
        ("bank_fraud_report", "fraud_report", "There are two card payments in Paris I did not make"),  # "two"
    ],
)
def test_a_free_text_answer_stands_whole_and_the_model_cannot_shorten_it(beside, flow, slot, text):
    state = asking(flow, slot)
    assert standing(RULES, state, text, (), NOW).slots == {slot: text}
    assert slot not in offered(state, text)
    # Pushed to write a fragment, the model is not even asked: nothing is left open.
    fragment = text.split()[-1]
    with steered(beside.model, '{"intent":"none","slots":{"' + slot + '":"' + fragment + '"}}'):
        found = beside.understand(state, text, now=NOW)
    assert found.slots == {slot: text} and found.model_calls == 0


@pytest.mark.parametrize(
    ("flow", "slot", "text", "rules_read"),
    [
        ("vet_appointment", "reason", "sorry, Oreo is a rabbit, not a cat", {"species": "rabbit"}),  # reason "Oreo"
        ("ride_change", "change_description", "sorry, wrong number, it's 251", {"ride_id": 251}),  # "wrong number"
    ],
)
def test_an_asked_text_slot_the_rules_read_something_else_from_is_asked_again_not_guessed(flow, slot, text, rules_read):
    state = asking(flow, slot)
    assert standing(RULES, state, text, (), NOW).slots == rules_read
    assert slot not in offered(state, text)


def test_the_merge_keeps_every_reading_of_the_rules_and_adds_only_to_empty_slots():
    rules = Parse(slots={"party_size": 4}, answer="no", negated={"time": "19:00"}, path="rules")
    model = Parse(intent="hello", slots={"party_size": 5, "name": "Bob", "seating": 4}, answer="yes", path="model")
    merged = merge(rules, model)
    assert merged.slots == {"party_size": 4, "name": "Bob"}  # 4 is the party's: no other slot's value too
    assert (merged.answer, merged.intent, merged.negated) == ("no", "hello", {"time": "19:00"})
    assert merge(Parse(intent="opening_hours", path="rules"), model).intent == "opening_hours"


# ------------------------------------------------------------------ grounded additions


@pytest.mark.parametrize(
    ("text", "values"),
    [
        ("Dana Lee", None),  # SmolLM2: species dog
        ("a bearded dragon, so a lizard", None),  # dog
        ("he's a puppy", None),
        ("guinea pigs", ("guinea pig",)),  # a plural names its value
        ("no, not a cat, a rabbit", ("rabbit",)),  # what the message rules out is not offered
    ],
)
def test_a_categorical_slot_is_offered_only_the_values_the_message_names(text, values):
    state = asking("vet_appointment", "species")
    schema = turn_schema(state, text, NOW, settled=Parse(path="rules"))
    assert schema.categorical.get("species") == values


def test_an_asked_boolean_is_offered_only_when_the_message_names_it_and_with_its_polarity():
    slot = Slot(name="insurance", type="boolean", description="Whether the pet is insured")
    state = UnderstandingState(
        flow="vet", node="ask", intents=(), slots=(slot,), expected=("insurance",), asked=slot.name
    )
    for text in ("how much is it again?", "Dana Lee", "do you take insurance?"):  # SmolLM2: insurance=true
        assert "insurance" not in turn_schema(state, text, NOW, settled=Parse(path="rules")).categorical, text
    assert turn_schema(state, "we have pet insurance", NOW, settled=Parse()).categorical == {"insurance": (True,)}
    assert turn_schema(state, "we don't have insurance", NOW, settled=Parse()).categorical == {"insurance": (False,)}


@pytest.mark.parametrize(
    ("flow", "slot", "text", "not_offered"),
    [
        ("grocery_delivery", "delivery_day", "8 Hill Road, Bath", "quantity"),  # SmolLM2: 8 boxes
        ("bank_fraud_report", "account_number", "1234 5678", "pin"),  # SmolLM2: PIN 5678
        ("ride_change", "ride_id", "one hundred and twelve", "ride_id"),  # SmolLM2: ride 1 (reads 1, 100, 12)
        ("ride_change", "ride_id", "It's booking number 5 0 3", "ride_id"),  # ride 5
    ],
)
def test_a_typed_value_is_offered_only_to_a_slot_asked_or_named_and_only_when_read_one_way(
    flow, slot, text, not_offered
):
    state = asking(flow, slot)
    assert not_offered not in offered(state, text)


def test_a_slot_named_in_the_message_is_offered_its_value_beside_what_the_rules_read():
    state = asking("bank_fraud_report", "account_number")
    text = "my account number is 85731890 and the PIN is 9503"
    assert standing(RULES, state, text, (), NOW).slots == {"account_number": "85731890", "pin": "9503"}
    # Where the rules read only the asked slot, the slot the message names is offered to the model, its value grounded.
    read = Parse(slots={"account_number": "85731890"}, path="rules")
    assert turn_schema(state, text, NOW, settled=read).values == {"pin": {"9503": "9503"}}


def test_the_words_the_rules_read_a_value_from_are_no_other_slots_value():
    state = asking("grocery_delivery", "phone")
    read = Parse(slots={"phone": "07700900999", "address": "12 Mill Lane, Oxford"}, path="rules")
    barred = settled_words(state, "07700900999, and 12 Mill Lane, Oxford", NOW, read)
    assert {"07700900999", "12", "mill", "lane", "oxford"} <= barred


# ------------------------------------------------------------------ commit safety with a model


@pytest.mark.parametrize(
    ("reply", "asks"),
    [
        ("Alex", "What would you like to change?"),
        ("hmm let me think", "Shall I book it?"),  # a pause: the summary and its question again
        ("maybe", "What would you like to change?"),
        ("tell me about the menu first", "Shall I book it?"),  # a question: the summary again once it is answered
    ],
)
def test_a_model_pushed_to_say_yes_at_a_committing_confirmation_books_nothing(beside, reply, asks):
    example_tools.calls.clear()
    clock = FrozenClock("2026-11-22T12:00")
    dialogue = Dialogue(
        load_flow(REPO / "flows" / "restaurant_booking.json"),
        understander=beside,
        tools=example_tools.registry,
        clock=clock,
    )
    dialogue.start()
    dialogue.turn("hi, I'd like to book a table for 4 people tomorrow at 7pm")
    dialogue.turn("Jane Doe")
    assert dialogue.understanding_state().confirm is not None
    with steered(beside.model, '{"intent":"none","answer":"yes"}'):
        result = dialogue.turn(reply)
    assert not [args for tool, args in example_tools.calls if tool == "book_table"], reply
    # The grammar offered no yes: no model read the reply (path "rules"), so the rules' "I didn't catch what to
    # change" with the whole summary (or, to a question, the summary with its question), never a bare "yes or no?"
    # (issue 34 item 4)
    assert "A table for 4" in result.text and "yes or no" not in result.text
    assert result.text.endswith(asks)


# ------------------------------------------------------------------ the property, over customers' words


def test_over_customers_conversations_the_model_path_keeps_the_rules_reading_whatever_the_model_writes(beside):
    """Every turn of 20 suite conversations through the tiny model fed noise: whatever it writes, each value,
    intent, answer and choice the rules read is in the final parse unchanged, and the model's additions are
    spans of the message (or a categorical value the message names)."""
    lines = [json.loads(line) for line in SUITE.read_text().splitlines() if line.strip()]
    conversations = [line for line in lines if "turns" in line]
    rng = random.Random(20)
    checked = added = 0
    real = beside.understand

    def watched(state, text, *, history=(), now=None):
        nonlocal checked, added
        found = real(state, text, history=history, now=now)
        rules = standing(RULES, state, text, history, now)
        if found.path == "fast":
            return found
        assert {k: found.slots.get(k) for k in rules.slots} == rules.slots, (text, rules.slots, found.slots)
        for attribute in ("intent", "answer", "choice"):
            if getattr(rules, attribute) is not None:
                assert getattr(found, attribute) == getattr(rules, attribute), (text, attribute)
        for name, value in found.slots.items():
            if name in rules.slots:
                continue
            added += 1
            slot = state.slot(name)
            assert slot is not None and (slot.values and value in slot.values or found.path == "model"), (text, name)
        checked += 1
        return found

    beside.understand = watched  # type: ignore[method-assign]
    try:
        for number, conversation in enumerate(rng.sample(conversations, 20)):
            flow = (REPO / conversation["flow"]).resolve()
            dialogue = Dialogue(
                load_flow(flow), understander=beside, stand_in_tools=True, clock=FrozenClock(conversation["now"])
            )
            dialogue.start()
            with noisy_logits(beside.model, seed=number):
                for turn in conversation["turns"]:
                    if dialogue.ended:
                        break
                    dialogue.turn(turn["user"])
    finally:
        del beside.understand
    assert checked >= 40


def test_a_text_value_the_model_adds_is_a_whole_clause_never_a_fragment():
    state = asking("vet_appointment", "species")
    text = "a cat, and the reason is a dental check for Ginger"
    schema = turn_schema(state, text, NOW, settled=Parse(slots={"species": "cat"}, path="rules"))
    rules = schema.span_rules["reason"]
    assert rules.whole
    assert text_span_ok(text, "dental check for Ginger", rules)
    for fragment in ("dental", "dental check", "check for Ginger"):  # SmolLM2 wrote "dental" for "dental check"
        assert not text_span_ok(text, fragment, rules), fragment
    # Alone (rules_first=False) the grammar still offers spans inside the clause.
    assert not turn_schema(state, text, NOW).span_rules["reason"].whole


# ------------------------------------------------------------------ the rules' mechanisms hold on the model path too


def test_a_question_offers_the_model_no_value_from_its_words():
    """ "How many does one box feed?" gives no quantity: the rules drop a question's words, so does the offer."""
    state = asking("grocery_delivery", "quantity")
    text = "not sure, how many does one box feed?"
    assert "quantity" not in standing(RULES, state, text, (), NOW).slots
    assert "quantity" not in offered(state, text)


def test_a_word_put_in_place_of_another_stands_on_the_model_path(beside):
    """ "The house number is 14, not 12" at the confirmation edits the address, with a model as with the rules."""
    clock = FrozenClock("2026-11-23T10:00")
    for understander in (None, beside):
        dialogue = Dialogue(
            load_flow(REPO / "flows" / "grocery_delivery.json"),
            understander=understander,
            stand_in_tools=True,
            clock=clock,
        )
        dialogue.start()
        for said in ["fruit box", "2", "12 Mill Lane, Oxford", "tomorrow", "11am", "Amy Lee", "07700900321"]:
            dialogue.turn(said)
        assert dialogue.understanding_state().confirm is not None
        reply = dialogue.turn("yes but the house number is 14, not 12").text
        assert "I changed the address to 14 Mill Lane, Oxford." in reply
        assert dialogue.slots["address"] == "14 Mill Lane, Oxford" and dialogue.slots["quantity"] == 2
