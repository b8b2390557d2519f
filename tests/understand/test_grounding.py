"""Grounded turns: the grammar admits only what the user's message says (no model needed here)."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

import orjson
import pytest

from fsmdial.errors import UnderstandingError
from fsmdial.flow import Slot
from fsmdial.loader import load_flow
from fsmdial.runtime import Dialogue
from fsmdial.testing.forcing import seek
from fsmdial.understand.base import Parse
from fsmdial.understand.constraint.grammar import Grammar, span_node
from fsmdial.understand.constraint.grounding import SpanRules, message, text_span_ok, typed_candidates
from fsmdial.understand.constraint.schema import possible_answers, turn_schema
from fsmdial.understand.model.prompt import static_prefix

REPO = Path(__file__).resolve().parents[2]
NOW = dt.datetime(2026, 11, 23, 12, 0)  # a Monday


def booking_state(node: str = "ask_booking", asked: str | None = "name", held: dict | None = None, confirm=False):
    dialogue = Dialogue(REPO / "flows" / "restaurant_booking.json", stand_in_tools=True, clock=lambda: NOW)
    dialogue.adopt_slots(held or {})
    seek(dialogue, node, told=confirm, asked=asked)
    return dialogue.understanding_state()


def fits(schema, output: str) -> bool:
    return re.fullmatch(schema.grammar.regex, output) is not None


def test_typed_slots_are_offered_only_the_spans_their_parser_reads():
    state = booking_state()
    schema = turn_schema(state, "for 4 people tomorrow at 7pm", NOW)
    assert schema.values == {"party_size": {"4": 4}, "date": {"tomorrow": "2026-11-24"}, "time": {"7pm": "19:00"}}
    assert fits(schema, '{"intent":"none","slots":{"party_size":"4","date":"tomorrow","time":"7pm"}}')
    # A value nobody said, a paraphrase, or a computed date cannot be written.
    for invented in ('"time":"17:30"', '"date":"2026-11-24"', '"party_size":"2"', '"seating":"terrace"'):
        assert not fits(schema, '{"intent":"none","slots":{' + invented + "}}"), invented
    parse = schema.parse('{"intent":"none","slots":{"party_size":"4","date":"tomorrow","time":"7pm"}}')
    assert parse.slots == {"party_size": 4, "date": "2026-11-24", "time": "19:00"}


def test_a_message_without_a_date_offers_no_date_and_words_become_numbers():
    state = booking_state()
    assert "date" not in turn_schema(state, "four of us please", NOW).values
    slot = state.slot("party_size")
    assert typed_candidates(slot, "four of us please", NOW) == {"four": 4}
    assert typed_candidates(state.slot("date"), "on the 3rd of March, 1980", NOW) == {
        "3rd": "the 3rd (the next one)",  # a day without a month: the slot's bounds pick the month
        "3rd of March": "2027-03-03",
        "3rd of March, 1980": "1980-03-03",
    }


def test_free_text_is_a_span_of_the_message_never_starting_or_ending_with_a_function_word():
    state = booking_state()
    schema = turn_schema(state, "it's under Jane Doe", NOW)
    assert schema.text_slots == {"name"}
    assert fits(schema, '{"intent":"none","slots":{"name":"Jane Doe"}}')
    assert fits(schema, '{"intent":"none","slots":{"name":"Jane"}}')
    for bad in ("Alex", "under Jane Doe", "Jane Doe.", "jane doe", "Doe Jane"):
        assert not fits(schema, '{"intent":"none","slots":{"name":' + orjson.dumps(bad).decode() + "}}"), bad
    with pytest.raises(UnderstandingError, match="not a span"):
        schema.parse('{"intent":"none","slots":{"name":"Alex"}}')


def test_the_flows_own_words_and_numbers_are_no_name():
    # "book a table" is the flow's vocabulary, "4" a number: nothing in these messages can be a name.
    state = booking_state()
    assert turn_schema(state, "hi, I'd like to book a table", NOW).text_slots == frozenset()
    assert turn_schema(state, "for 4 people tomorrow at 7pm", NOW).text_slots == frozenset()


def test_the_asked_text_value_is_required_when_nothing_else_was_read():
    state = booking_state()
    schema = turn_schema(state, "Priya Natarajan", NOW)  # rules_first=False: the model reads the answer
    assert not fits(schema, '{"intent":"none","slots":{}}')
    assert fits(schema, '{"intent":"none","slots":{"name":"Priya Natarajan"}}')


def test_what_the_rules_settled_is_not_offered_to_the_model():
    state = booking_state()
    settled = Parse(intent=None, slots={"party_size": 4, "date": "2026-11-24", "time": "19:00"}, path="rules")
    schema = turn_schema(state, "for 4 people tomorrow at 7pm", NOW, settled=settled)
    assert schema.values == {} and schema.empty


def test_a_correction_during_a_confirmation_can_never_be_a_yes():
    held = {"name": "Jane Doe", "party_size": 4, "date": "2026-11-24", "time": "19:00"}
    state = booking_state("confirm_booking", None, held, confirm=True)
    schema = turn_schema(state, "sure, but at 8pm instead", NOW)
    assert fits(schema, '{"intent":"none","answer":"change","slots":{"time":"8pm"}}')
    assert not fits(schema, '{"intent":"none","answer":"yes","slots":{"time":"8pm"}}')
    assert not fits(schema, '{"intent":"none","answer":"change","slots":{}}')
    assert schema.parse('{"intent":"none","answer":"change","slots":{"time":"8pm"}}').answer is None
    # With a question or a negation in the message, a plain "yes" is not on offer either.
    assert possible_answers("wait, are you open on sundays?") == ["other"]
    assert possible_answers("not right now, maybe later") == ["no", "other"]
    assert possible_answers("that's perfect") == ["yes", "other"]
    assert possible_answers("Alex") == ["other"]  # no yes word: no "yes" (issue 20)


def test_a_free_slot_takes_any_value_of_its_type():
    flow = load_flow(REPO / "flows" / "ride_change.json")
    data = flow.model_dump(mode="json", by_alias=True, exclude_none=True)
    for slot in data["nodes"][0]["slots"]:
        if slot["name"] == "change_description":
            slot["extract"] = "free"
    dialogue = Dialogue(load_flow(data), stand_in_tools=True, clock=lambda: NOW)
    seek(dialogue, dialogue.node, asked="change_description")
    state = dialogue.understanding_state()
    schema = turn_schema(state, "could you move it", NOW)
    assert "change_description" in schema.free
    parse = schema.parse('{"intent":"none","slots":{"change_description":"Move the pickup to a later time"}}')
    assert parse.slots == {"change_description": "Move the pickup to a later time"}


def test_the_prompt_has_no_example_values_and_describes_patterns():
    text = static_prefix(booking_state())
    assert "Alex" not in text and "2026-12-24" not in text and "YYYY" not in text
    dialogue = Dialogue(REPO / "flows" / "card_activation.json", stand_in_tools=True)
    assert "- card_last4: a reference of exactly 4 digits, the words that say it." in static_prefix(
        dialogue.understanding_state()
    )


def test_long_messages_keep_the_span_grammar_shallow():
    node = span_node("word " * 500)
    assert node is not None and node.max_bytes < 64 * 6 + 4


def test_a_name_span_ends_at_its_clause_and_never_holds_what_the_rules_read_for_another_slot():
    # STAR dialogue shape: the name asked, the guest count said in the same breath.
    state = booking_state()
    text = "Yes, I'm Angela, and please note, I expect a whopping 4 people to show up!"
    schema = turn_schema(state, text, NOW)
    assert fits(schema, '{"intent":"none","slots":{"name":"Angela"}}')
    for run_on in ("Angela, and please note", "note, I expect a whopping 4 people"):
        assert not fits(schema, '{"intent":"none","slots":{"name":' + orjson.dumps(run_on).decode() + "}}"), run_on
        with pytest.raises(UnderstandingError, match="not a span"):
            schema.parse('{"intent":"none","slots":{"name":' + orjson.dumps(run_on).decode() + "}}")
    # Beside the rules, the asked name is theirs to read: with the 4 people read, it is not offered at all.
    assert "name" not in turn_schema(state, text, NOW, settled=Parse(slots={"party_size": 4}, path="rules")).text_slots
    # A person's name is a span of a name's shape (words only, as the rules read one): "Doe, Jane" is not
    # offered whole, its words are; a title's period is no sentence end ("Dr. Alexis"); a sentence end always is.
    plain = turn_schema(state, "Doe, Jane", NOW)
    assert fits(plain, '{"intent":"none","slots":{"name":"Jane"}}')
    assert not fits(plain, '{"intent":"none","slots":{"name":"Doe, Jane"}}')
    titled = turn_schema(state, "Dr. Alexis Moore. Thanks a lot", NOW)
    assert fits(titled, '{"intent":"none","slots":{"name":"Dr. Alexis Moore"}}')
    assert not fits(titled, '{"intent":"none","slots":{"name":"Alexis Moore. Thanks"}}')


def test_a_long_text_value_may_hold_clauses_but_not_run_across_sentences():
    text = "cough, and a sore throat for two days. Dr. Alexis saw me in June"
    long_value, short_value = SpanRules(one_clause=False), SpanRules(one_clause=True)
    assert text_span_ok(text, "cough, and a sore throat for two days", long_value)
    assert not text_span_ok(text, "cough, and a sore throat for two days", short_value)
    assert text_span_ok(text, "Dr. Alexis", long_value)
    assert not text_span_ok(text, "sore throat for two days. Dr. Alexis", long_value)
    assert not text_span_ok(text, "sore throat for two days", SpanRules(barred=frozenset({"two"})))
    # The grammar and the check agree on every span of the message.
    msg = message(text)
    for rules in (long_value, short_value, SpanRules(barred=frozenset({"two"}))):
        grammar_spans = span_node(text, rules=rules)
        assert grammar_spans is not None
        pattern = Grammar(grammar_spans).regex
        for first in range(len(msg.words)):
            for last in range(first, len(msg.words)):
                span = msg.span(first, last)
                assert (re.fullmatch(pattern, orjson.dumps(span).decode()) is not None) == text_span_ok(
                    text, span, rules
                ), (rules, span)


@pytest.mark.parametrize(
    "text",
    [
        "he's bleeding badly",
        "hi there",
        "Good evening",
        "hey, do you guys have vegan options?",
        "Priya, I'd like to make a reservation",
        "it's under Okafor",
        "um, Jane Doe please, we are 4 of us",
        "my dog Rex is limping badly since Monday",
        "Dr. Alexis Moore. Thanks a lot",
        "the booking's for Mary-Jane O'Neil",
        "I am looking for a table for Anna and Bob tonight",
        "call me Ishmael",
    ],
)
def test_a_person_name_slot_is_offered_only_spans_the_rules_would_read_as_a_name(text):
    from fsmdial.language.names import is_name

    state = booking_state()
    assert state.person_name is state.slot("name")
    schema = turn_schema(state, text, NOW)
    msg = message(text)
    offered = set()
    for first in range(len(msg.words)):
        for last in range(first, len(msg.words)):
            span = msg.span(first, last)
            output = '{"intent":"none","slots":{"name":' + orjson.dumps(span).decode() + "}}"
            if fits(schema, output):
                offered.add(span)
                assert is_name(span.split()), span  # the grammar makes a non-name impossible
                assert schema.parse(output).slots == {"name": span}
            elif "name" in schema.text_slots:
                with pytest.raises(UnderstandingError, match="not a span"):
                    schema.parse(output)
    names = {
        "he's bleeding badly": set(),
        "hi there": set(),
        "Good evening": set(),
        "hey, do you guys have vegan options?": set(),
    }
    if text in names:
        assert offered == names[text] and "name" not in schema.text_slots
    if text == "Priya, I'd like to make a reservation":
        assert offered == {"Priya"}


def test_the_rules_certain_reading_is_one_method_for_the_model_path_and_fsmdial_prompt():
    from fsmdial.understand.rules import RulesUnderstander

    rules = RulesUnderstander()
    asking = booking_state()
    # A name read "as the whole text" is a guess left to the model; numbers, dates and times are certain.
    found = rules.certain(asking, "Jane Doe", now=NOW)
    assert found.slots == {} and rules.understand(asking, "Jane Doe", now=NOW).slots == {"name": "Jane Doe"}
    assert rules.certain(asking, "for 4 people tomorrow", now=NOW).slots == {"party_size": 4, "date": "2026-11-24"}
    # With a confirmation pending, a value the bot's question names is a restatement, not a change.
    held = {"name": "Jane Doe", "party_size": 4, "date": "2026-11-24", "time": "19:00"}
    confirming = booking_state("confirm_booking", None, held, confirm=True)
    history = [("bot", "A table for 4 on 2026-11-24 at 19:00. Shall I book it?")]
    assert rules.certain(confirming, "yes, 4 people", history=history, now=NOW).slots == {}
    assert rules.certain(confirming, "make it 5 people", history=history, now=NOW).slots == {"party_size": 5}


@pytest.mark.parametrize(
    "text",
    [
        "hi there",
        "thanks!",
        "what do you need to know?",
        "can you tell me what happens next",
        "I don't know yet",
        "hmm let me think",
        "no idea, sorry",
    ],
)
def test_a_greeting_question_or_dont_know_offers_no_text_span_to_any_text_slot(text):
    dialogue = Dialogue(REPO / "flows" / "bank_fraud_report.json", stand_in_tools=True, clock=lambda: NOW)
    seek(dialogue, "ask_fraud_details", asked="fraud_report")
    state = dialogue.understanding_state()
    assert state.asked == "fraud_report"
    assert turn_schema(state, text, NOW).text_slots == frozenset()
    told = turn_schema(state, "someone took 300 dollars from my account", NOW)
    assert told.text_slots == {"fraud_report"}  # a report is offered as any span (rules_first=False)
    # Beside the rules, the answer to the asked report is theirs: the whole of it, never offered to the model.
    assert turn_schema(state, "someone took 300 dollars from my account", NOW, settled=Parse()).text_slots == set()


def test_a_number_for_a_slot_not_asked_is_offered_only_beside_the_words_naming_that_slot():
    """As the rules read it: "a 5 lever mortice lock" names a lock, but its 5 counts levers, not locks (both real
    models took it for the number of locks, a wrong commit); "2 locks" and "locks: 2" count locks."""
    flow = REPO / "tests" / "data" / "heldout_r4" / "flows" / "locksmith_visit.json"
    dialogue = Dialogue(flow, stand_in_tools=True, clock=lambda: NOW)
    dialogue.start()
    state = dialogue.understanding_state()
    assert state.asked == "job"
    settled = Parse(path="rules")
    said = "I'd like an extra lock on the front door, my insurance says I need a 5 lever mortice lock"
    assert "locks" not in turn_schema(state, said, NOW, settled=settled, open_part=("5", "lever")).values
    for said in ("an extra lock, 2 locks in fact", "the locks: 2 of them, on the back door"):
        schema = turn_schema(state, said, NOW, settled=settled, open_part=("2",))
        assert schema.values.get("locks") == {"2": 2}, said


def test_a_change_the_rules_read_is_not_offered_to_the_model_again():
    """ "sorry I said indoor but it's actually the terrace": the rules read the change (``info["change"]``); offered
    the slot, SmolLM2 chose the old value named in the message and the held one was booked (heldout_r4 h4-15)."""
    held = {"name": "Jane Doe", "party_size": 4, "date": "2026-11-24", "time": "19:00", "seating": "indoor"}
    state = booking_state("confirm_booking", None, held, confirm=True)
    said = "sorry I said indoor but it's actually the terrace"
    open_part = ("said", "indoor", "terrace")
    old_value = '{"intent":"none","answer":"change","slots":{"seating":"indoor"}}'
    assert fits(turn_schema(state, said, NOW, settled=Parse(path="rules"), open_part=open_part), old_value)
    settled = Parse(path="rules", info={"change": {"new": {"seating": "terrace"}, "old": {}, "named": ["seating"]}})
    assert not fits(turn_schema(state, said, NOW, settled=settled, open_part=open_part), old_value)


@pytest.mark.parametrize(
    ("value", "text", "said"),
    [
        ("lockout", "composite, and there's just the one lock", False),  # a word's start alone names nothing
        ("lock change", "I want the locks changed", True),  # stems
        ("regular clean", "a regular cleaning", True),
        ("full service", "a full servcie please", True),  # a typo: four letters, two more or fewer
        ("dog", "two dogs", True),
        ("checking", "I'd need to check my balance first", False),  # a stem with the value's ending taken off
        ("checking", "I need my balance checked", False),  # another form of the stem: no typo of it either
    ],
)
def test_a_value_is_mentioned_by_its_words_stems_or_typos_never_by_a_words_start(value, text, said):
    from fsmdial.understand.constraint.grounding import mentioned

    assert mentioned(value, text) is said


def test_no_date_span_is_offered_from_a_message_whose_words_refuse_a_date():
    """ "oh right, the saturday after then" counts from a day said before: its "saturday" is no next Saturday (SmolLM2
    chose it, round 5 h5-10); "saturday would be great" still offers it."""
    state = booking_state(asked="date")
    assert typed_candidates(state.slot("date"), "oh right, the saturday after then", NOW) == {}
    assert list(typed_candidates(state.slot("date"), "saturday would be great", NOW)) == ["saturday"]


@pytest.mark.parametrize(
    ("said", "span", "other"),
    [
        ("Thanks for your help. I need two rooms.", "two", True),  # asked the travellers: it counts rooms (SGD)
        ("two people", "two", False),
        ("2 of us", "2", False),
        ("three please", "three", False),
    ],
)
def test_an_asked_count_is_not_offered_a_number_that_counts_another_thing(said, span, other):
    from fsmdial.flow import Slot
    from fsmdial.understand.constraint.grounding import counts_another

    travellers = Slot(name="travelers", type="integer", description="Number of travelers for journey")
    assert counts_another(travellers, said, span) is other


def test_a_length_naming_the_thing_after_it_is_no_number_beside_the_slot():
    """ "yes, we bought the 5 year extended warranty with it": the 5 was offered to the appliance's age (its words
    'years'), and both models took it: round 6, h6-06, booked."""
    from fsmdial.flow import Slot
    from fsmdial.understand.constraint.grounding import named_beside

    age = Slot(name="appliance_age", type="integer", label="age in years")
    assert not named_beside(age, "yes, we bought the 5 year extended warranty with it", "5")
    assert named_beside(age, "it's 5 years old", "5")


@pytest.mark.parametrize(
    ("said", "offered"),
    [
        ("put it down as the wood burner, that's the one we use most", {}),  # a thing, no count
        ("just the one", {"one": 1}),
        ("one please", {"one": 1}),
        ("the one at the front and one at the back", {"one": 1}),  # the second "one" may count
    ],
)
def test_a_one_after_a_determiner_is_offered_to_no_number_slot(said, offered):
    """Round 8: at "how many flues?", a model took the "one" of "that's the one we use most" for 1 flue, and it was
    booked (the rules read no number there)."""
    slot = Slot(name="flues", type="integer", minimum=1, maximum=4)
    assert typed_candidates(slot, said, dt.datetime(2027, 1, 4, 9, 0)) == offered
