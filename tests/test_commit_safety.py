"""Issue 20: customers' own words, and never acting on a misunderstanding (commit safety, acts before values,
corrections, staying on task). The sentences are the issue's, verbatim."""

from __future__ import annotations

import json
from typing import Any

import orjson
import pytest

from fsmdial.errors import CommitGuardError, TurnError
from fsmdial.language import find_name, read_acts, split_negated
from fsmdial.loader import load_flow
from fsmdial.runtime import Dialogue
from fsmdial.serve.errors import UndoRefused
from fsmdial.serve.sessions import Playground
from fsmdial.stores import SQLiteStore
from fsmdial.tools import ToolRegistry
from fsmdial.understand.base import Parse
from fsmdial.understand.constraint.schema import possible_answers, turn_schema
from fsmdial.understand.rules import RulesUnderstander
from tests import example_tools
from tests.conftest import FLOWS
from tests.flows import bike_repair_flow
from tests.serve_support import at_once

BOOKED = {"name": "Jane Doe", "party_size": 4, "date": "2026-11-23", "time": "19:00"}


def at_confirmation(clock, understander=None, flow=None):
    """A restaurant booking waiting at "Shall I book it?" for Jane Doe, 4 people, tomorrow at 7pm."""
    example_tools.calls.clear()
    kwargs = {"understander": understander} if understander is not None else {}
    dialogue = Dialogue(
        flow or load_flow(FLOWS / "restaurant_booking.json"), tools=example_tools.registry, clock=clock, **kwargs
    )
    dialogue.start()
    dialogue.turn("hi, I'd like to book a table for 4 people tomorrow at 7pm")
    result = dialogue.turn("Jane Doe")
    assert result.text.endswith("Shall I book it?") and dialogue.slots == BOOKED
    return dialogue


def booked(dialogue):
    return [args for tool, args in example_tools.calls if tool == "book_table"]


# ------------------------------------------------------------------ 1. commit safety


@pytest.mark.parametrize(
    ("reply", "changed"),
    [
        ("yes, but the name should be Bob Smith", {"name": "Bob Smith"}),
        ("ok, though book it under the name Maria", {"name": "Maria"}),
        ("under Dana Lee", {"name": "Dana Lee"}),
        ("yes but make it 11 people", {"party_size": 11}),
        ("actually we will be five people", {"party_size": 5}),
        ("no, for five people, sorry", {"party_size": 5}),
    ],
)
def test_a_yes_with_a_change_is_a_change_confirmed_again(clock, reply, changed):
    dialogue = at_confirmation(clock)
    result = dialogue.turn(reply)
    assert not result.tool_calls and not booked(dialogue)
    assert dialogue.slots == {**BOOKED, **changed}
    assert result.text.endswith("Shall I book it?")
    dialogue.turn("yes")
    (call,) = booked(dialogue)
    assert {key: call[key] for key in BOOKED} == {**BOOKED, **changed}


@pytest.mark.parametrize(
    ("reply", "cleared", "asked"),
    [
        ("sure, just not at 7pm", "time", "At what time?"),
        ("fine but not for 4 people", "party_size", "For how many people?"),
    ],
)
def test_a_value_ruled_out_is_cleared_and_asked_again(clock, reply, cleared, asked):
    dialogue = at_confirmation(clock)
    result = dialogue.turn(reply)
    assert not booked(dialogue) and cleared not in dialogue.slots
    assert result.text.endswith(asked)


@pytest.mark.parametrize("reply", ["Alex", "maybe", "ok?", "yes, I think so, but let me check"])
def test_anything_but_a_plain_yes_is_asked_again_with_the_summary(clock, reply):
    # Without a model, what the rules cannot account for may be a change they missed (issue 34 item 4): the summary
    # again and what to change, never a bare "yes or no?". A yes to "what would you like to change?" books nothing
    # (a customer's "yes" there confirmed the email they had just corrected, and the old one was booked: heldout_r4
    # h4-45): the summary is asked again, and a yes to it commits.
    dialogue = at_confirmation(clock)
    result = dialogue.turn(reply)
    assert not booked(dialogue) and dialogue.slots == BOOKED
    assert result.text == (
        "Sorry, I didn't catch what to change. I have: A table for 4 on Monday 23 November at 7 pm, under the name "
        "Jane Doe. What would you like to change?"
    )
    result = dialogue.turn("yes please, go ahead")
    assert not booked(dialogue)
    assert result.text == "A table for 4 on Monday 23 November at 7 pm, under the name Jane Doe. Shall I book it?"
    dialogue.turn("yes")
    assert len(booked(dialogue)) == 1


@pytest.mark.parametrize("reply", ["tell me about the menu first", "is there parking near you?"])
def test_a_question_at_the_confirmation_is_no_change_the_summary_is_asked_again_whole(clock, reply):
    dialogue = at_confirmation(clock)
    result = dialogue.turn(reply)
    assert not booked(dialogue) and dialogue.slots == BOOKED
    assert "didn't catch" not in result.text and not result.text.endswith("yes or no?")
    assert result.text.endswith(
        "A table for 4 on Monday 23 November at 7 pm, under the name Jane Doe. Shall I book it?"
    )
    dialogue.turn("ok, yes book it")
    assert len(booked(dialogue)) == 1


@pytest.mark.parametrize("reply", ["Jane Doe", "7pm", "for 4"])
def test_a_reply_that_says_the_summary_again_is_asked_yes_or_no(clock, reply):
    dialogue = at_confirmation(clock)
    result = dialogue.turn(reply)
    assert not booked(dialogue) and dialogue.slots == BOOKED
    assert result.text == "Shall I book it: yes or no?"
    dialogue.turn("yes")
    assert len(booked(dialogue)) == 1


class SaysYes:
    """A model that answers every confirmation yes (what SmolLM2 did to "Alex")."""

    def understand(self, state, text, *, history=(), now=None):
        parse = RulesUnderstander().understand(state, text, history=history, now=now)
        if state.confirm:
            parse.answer, parse.path = "yes", "model"
        return parse


def test_a_models_yes_that_is_no_plain_yes_does_not_commit(clock):
    for reply in ("Alex", "hmm let me think", "tell me about the menu first"):
        dialogue = at_confirmation(clock, understander=SaysYes())
        result = dialogue.turn(reply)
        assert not booked(dialogue), reply
        assert any("not a plain one" in note for note in result.trace.notes)
        # asked again, with the whole summary: words are open (a name not the one held may be a change)
        assert "Jane Doe" in result.text and result.text.endswith("?"), reply
    dialogue = at_confirmation(clock, understander=SaysYes())
    dialogue.turn("yes")
    assert len(booked(dialogue)) == 1


def test_a_change_no_model_read_at_a_committing_confirmation_gets_the_whole_summary(clock):
    """Round 8's van hire on the model path: "can you put the name as Stephanie Clegg, and I'll take the cover after
    all" was read as a yes that is no plain yes, asked again as a bare "yes or no?", and the next "yes" booked the old
    name. Words left open after any reading get the summary and "what would you like to change?"."""
    dialogue = at_confirmation(clock, understander=SaysYes())
    result = dialogue.turn("could you put it under my married name instead, and we'll have the window table after all")
    assert not booked(dialogue)
    assert result.text.startswith("Sorry, I didn't catch what to change.") and "Jane Doe" in result.text


def test_the_grammar_offers_yes_only_to_a_yes():
    for reply in (
        "Alex",
        "hmm let me think",
        "tell me about the menu first",
        "sure, just not at 7pm",
        "yes, but the name should be Bob Smith",
    ):
        assert "yes" not in possible_answers(reply), reply
    assert "yes" in possible_answers("that would be lovely, go ahead")


def test_a_restated_number_is_not_read_inside_the_date_of_the_question(clock):
    # The question writes the date in digits ({date:%Y-%m-%d}), so it holds the 11 the user says again.
    doc = json.loads((FLOWS / "restaurant_booking.json").read_text())
    confirm = next(node for node in doc["nodes"] if node["id"] == "confirm_booking")
    confirm["message"] = confirm["message"].replace("{date}", "{date:%Y-%m-%d}")
    dialogue = at_confirmation(clock, flow=load_flow(doc))
    state = dialogue.understanding_state()
    certain = RulesUnderstander().certain(
        state, "yes but make it 11 people", history=dialogue.session.history, now=clock()
    )
    assert "2026-11-23" in dialogue.session.history[-1][1]
    assert certain.slots == {"party_size": 11}
    schema = turn_schema(state, "yes but make it 11 people", clock(), settled=certain)
    assert not schema.answers  # a value read: no answer at all, so no "yes"


def test_the_invariant_before_a_committing_tool(clock, monkeypatch):
    """Were a change and a yes ever applied together (a bug elsewhere), the committing tool is not called."""
    import fsmdial.turn as turn_module

    dialogue = at_confirmation(clock)
    monkeypatch.setattr(turn_module, "invalidate", lambda turn, changed: None)  # the bug: a change resets nothing

    class YesAndChange:
        def understand(self, state, text, *, history=(), now=None):
            return Parse(answer="yes", slots={"name": "Eve"}, path="model")

    dialogue.understander = YesAndChange()
    before = dialogue.snapshot()
    with pytest.raises(CommitGuardError, match="name changed in the turn it would commit"):
        dialogue.turn("yes")
    assert not booked(dialogue) and dialogue.snapshot() == before
    assert issubclass(CommitGuardError, TurnError)


# ------------------------------------------------------------------ 2. dialogue acts before values


@pytest.mark.parametrize(
    "reply", ["hi there", "Good evening", "hey, do you guys have vegan options?", "thanks!", "he's bleeding badly"]
)
def test_a_greeting_thanks_or_question_is_never_a_name(clock, reply):
    dialogue = Dialogue(load_flow(FLOWS / "restaurant_booking.json"), tools=example_tools.registry, clock=clock)
    dialogue.start()
    dialogue.turn(reply)
    assert "name" not in dialogue.slots


@pytest.mark.parametrize(
    ("reply", "name"),
    [
        ("hi, I'm Jane", "Jane"),
        ("it's under Okafor", "Okafor"),
        ("Priya, I'd like to make a reservation", "Priya"),
        ("my name is dana lee", "dana lee"),
        ("this is Tom", "Tom"),
        ("the name should be Bob Smith", "Bob Smith"),
        ("under the name Maria please", "Maria"),
        ("Jane Doe", "Jane Doe"),
    ],
)
def test_names_in_sentences(clock, reply, name):
    dialogue = Dialogue(load_flow(FLOWS / "restaurant_booking.json"), tools=example_tools.registry, clock=clock)
    dialogue.start()
    dialogue.turn(reply)
    assert dialogue.slots.get("name") == name


@pytest.mark.parametrize("pause", ["hang on a sec", "um, one sec", "let me check", "hold on"])
def test_a_pause_at_a_question_is_waited_for_not_out_of_scope(clock, pause):
    dialogue = Dialogue(load_flow(FLOWS / "ride_change.json"), tools=example_tools.registry, clock=clock)
    dialogue.start()
    dialogue.turn("Jane")
    result = dialogue.turn(pause)
    assert result.act_names == ["take_your_time", "ride_ask_booking_number"]
    assert dialogue.slots == {"customer_name": "Jane"}


@pytest.mark.parametrize("code", ["RX4829", "my booking is BK-1234"])
def test_a_code_given_for_a_number_is_refused_and_asked_again(clock, code):
    dialogue = Dialogue(load_flow(FLOWS / "ride_change.json"), tools=example_tools.registry, clock=clock)
    dialogue.start()
    dialogue.turn("Jane")
    result = dialogue.turn(code)
    assert result.acts[0].kind == "invalid" and result.act_names[-1] == "ride_ask_booking_number"
    assert "ride_id" not in dialogue.slots
    dialogue.turn("123")
    assert dialogue.slots["ride_id"] == 123


def test_i_dont_know_yet_asks_again_and_never_ends_the_conversation(clock):
    dialogue = Dialogue(load_flow(FLOWS / "ride_change.json"), tools=example_tools.registry, clock=clock)
    dialogue.start()
    dialogue.turn("Jane")
    result = dialogue.turn("hmm, I don't know yet, let me check with the others")
    assert not dialogue.ended and result.act_names == ["take_your_time", "ride_ask_booking_number"]
    dialogue.turn("it's 102")
    assert dialogue.slots["ride_id"] == 102


def test_acts_of_a_message():
    assert read_acts("yes please, go ahead").plain_yes
    assert read_acts("sounds good, thanks!").plain_yes
    assert not read_acts("Good evening").plain_yes and read_acts("Good evening").only_social
    assert read_acts("hey, do you guys have vegan options?").question
    assert not read_acts("Will").question
    assert read_acts("It doesn't matter to me.").no_preference
    assert read_acts("hmm, I don't know yet, let me check with the others").dont_know
    assert split_negated("sure, just not at 7pm") == ("sure", "just not at 7pm")
    assert split_negated("not at 7pm but at 8pm") == ("but at 8pm", "not at 7pm")
    assert find_name("I'm looking for a table", True) is None
    assert find_name("Dr. Jane Smith", True) == "Dr. Jane Smith"


# ------------------------------------------------------------------ 5. corrections at any point


def test_wrong_number_corrected_mid_flow(clock):
    dialogue = Dialogue(load_flow(FLOWS / "ride_change.json"), tools=example_tools.registry, clock=clock)
    dialogue.start()
    dialogue.turn("Jane")
    dialogue.turn("102")
    result = dialogue.turn("sorry, wrong number, it's 251")
    assert dialogue.slots["ride_id"] == 251 and "change_description" not in dialogue.slots
    assert result.act_names[-1] == "ride_ask_change"


# ------------------------------------------------------------------ 6. staying on task


def test_asking_for_what_the_flow_does_carries_on(clock):
    dialogue = Dialogue(load_flow(FLOWS / "restaurant_booking.json"), tools=example_tools.registry, clock=clock)
    dialogue.start()
    dialogue.turn("Jane")
    result = dialogue.turn("can I book a table")
    assert "only help" not in result.text and result.act_names == ["ask_party_size"]


def test_a_yes_to_what_would_you_like_to_change_does_not_commit_before_the_summary_is_shown_again(clock):
    """After "no", the bot asks what to change: a "yes" then answers nothing; the summary comes back first."""
    dialogue = at_confirmation(clock)
    assert "What would you like to change" in dialogue.turn("no, the phone number is 123").text
    again = dialogue.turn("yes")
    assert booked(dialogue) == [] and again.text.endswith("Shall I book it?") and "Jane Doe" in again.text
    dialogue.turn("yes")
    assert booked(dialogue) == [BOOKED]


@pytest.mark.parametrize("reply", ["hi there", "Good evening", "thanks!"])
def test_a_bare_greeting_or_thanks_at_a_question_asks_it_again_without_calling_it_out_of_scope(clock, reply):
    dialogue = Dialogue(load_flow(FLOWS / "restaurant_booking.json"), tools=example_tools.registry, clock=clock)
    dialogue.start()
    result = dialogue.turn(reply)
    assert result.text.endswith("What name should the booking be under?") and "Sorry" not in result.text
    assert "name" not in dialogue.slots


# ------------------------------------------------------------------ issue 33 #1: a booking that can never be made
# Two confirmations lead to one committing action; a change at one takes the session to the other, whose plain
# "yes" must book (it failed with CommitGuardError naming the confirmation the session had left).


class Repairs:
    """The bike shop's book_repair, recording every call."""

    def __init__(self) -> None:
        self.calls: list[dict[str, Any]] = []
        self.registry = ToolRegistry()
        self.registry.register("book_repair", self.book_repair)

    def book_repair(self, name: str, bike_type: str, courtesy_bike: bool = False) -> dict[str, Any]:
        self.calls.append({"name": name, "bike_type": bike_type, "courtesy_bike": courtesy_bike})
        return {"reference": f"R-{len(self.calls)}"}


AT_PLAIN = ("I'm Sam", "a cargo bike")
"""Replies that take the bike shop to confirm_plain (an "other" bike: no courtesy bike asked)."""
AT_WITH_BIKE = ("I'm Sam", "a road bike", "yes please")
"""Replies that take the bike shop to confirm_with_bike (a road bike, a courtesy bike wanted)."""
TO_WITH_BIKE = (*AT_PLAIN, "yes but it's an e-bike", "yes")
"""The issue's conversation up to its last "yes": a change at confirm_plain, then confirm_with_bike."""


def bike_shop(clock, repairs: Repairs, replies=()) -> Dialogue:
    dialogue = Dialogue(load_flow(bike_repair_flow()), tools=repairs.registry, clock=clock)
    dialogue.start()
    for reply in replies:
        dialogue.turn(reply)
    return dialogue


def test_a_change_at_one_confirmation_that_leads_to_the_other_books_after_its_plain_yes(clock):
    repairs = Repairs()
    dialogue = bike_shop(clock, repairs, AT_PLAIN)
    assert dialogue.node == "confirm_plain"
    assert dialogue.turn("yes but it's an e-bike").text.endswith("Would you like a courtesy bike while we repair it?")
    summary = dialogue.turn("yes")
    assert dialogue.node == "confirm_with_bike" and "e-bike" in summary.text and not repairs.calls
    result = dialogue.turn("yes")
    assert repairs.calls == [{"name": "Sam", "bike_type": "e-bike", "courtesy_bike": True}]
    assert dialogue.node == "booked" and "R-1" in result.text
    dialogue.turn("yes")
    assert len(repairs.calls) == 1


def test_a_change_that_leads_to_the_confirmation_without_the_courtesy_bike_books_what_it_showed(clock):
    """The courtesy bike was answered for a road bike and is not in the plain summary: it is not booked."""
    repairs = Repairs()
    dialogue = bike_shop(clock, repairs, AT_WITH_BIKE)
    assert dialogue.node == "confirm_with_bike"
    # "not a road bike" names the held value; the cargo bike is the other kind (issue 34: corrections in any words)
    summary = dialogue.turn("sorry, it's not a road bike, it's a cargo bike")
    assert summary.text.endswith("\nA repair of your other bike for Sam. Shall I book it?")
    booked = dialogue.turn("yes")
    assert repairs.calls == [{"name": "Sam", "bike_type": "other", "courtesy_bike": False}]
    assert dialogue.node == "booked" and dialogue.slots["courtesy_bike"] is True  # held, not booked
    assert "'courtesy_bike' not passed to 'book_repair'" in " ".join(booked.trace.notes)


@pytest.mark.parametrize(
    ("replies", "booked"),
    [
        (AT_WITH_BIKE, {"name": "Sam", "bike_type": "road", "courtesy_bike": True}),
        (AT_PLAIN, {"name": "Sam", "bike_type": "other", "courtesy_bike": False}),
    ],
)
def test_a_plain_yes_at_the_first_confirmation_books_once(clock, replies, booked):
    repairs = Repairs()
    dialogue = bike_shop(clock, repairs, replies)
    dialogue.turn("yes")
    dialogue.turn("yes")
    assert repairs.calls == [booked] and dialogue.node == "booked"


def test_a_no_or_a_change_at_the_second_confirmation_asks_again_and_never_books_the_old_values(clock):
    repairs = Repairs()
    dialogue = bike_shop(clock, repairs, TO_WITH_BIKE)
    assert dialogue.node == "confirm_with_bike"
    assert dialogue.turn("no").text == "What would you like to change?"
    again = dialogue.turn("yes")  # answers nothing: the summary is shown again first
    assert again.text.endswith("Shall I book it?") and not repairs.calls
    changed = dialogue.turn("it's a road bike actually")
    assert "road" in changed.text and changed.text.endswith("Shall I book it?") and not repairs.calls
    dialogue.turn("yes")
    assert repairs.calls == [{"name": "Sam", "bike_type": "road", "courtesy_bike": True}]


def test_a_change_back_to_the_first_confirmation_books_its_values_once(clock):
    repairs = Repairs()
    dialogue = bike_shop(clock, repairs, TO_WITH_BIKE)
    summary = dialogue.turn("sorry, it's not an e-bike, it's a cargo bike")  # "not an e-bike" names the held value
    assert summary.text.endswith("\nA repair of your other bike for Sam. Shall I book it?")
    dialogue.turn("yes")
    assert repairs.calls == [{"name": "Sam", "bike_type": "other", "courtesy_bike": False}]


def test_the_confirmation_the_session_came_through_must_have_said_yes(clock):
    """An edge that goes on after a "no" (a flow mistake) still meets the guard of the confirmation it left."""
    doc = bike_repair_flow()
    (edge,) = [edge for edge in doc["edges"] if edge["source"] == "confirm_plain"]
    del edge["when"]
    repairs = Repairs()
    dialogue = Dialogue(load_flow(doc), tools=repairs.registry, clock=clock)
    dialogue.start()
    for reply in AT_PLAIN:
        dialogue.turn(reply)
    before = dialogue.snapshot()
    with pytest.raises(CommitGuardError, match="confirmation 'confirm_plain' was not answered yes"):
        dialogue.turn("no")
    assert not repairs.calls and dialogue.snapshot() == before


def test_a_jump_to_the_committing_action_still_needs_every_confirmation_visited_answered_yes(clock):
    """A jump comes through no confirmation: as before, each one of the action the session visited must have said
    yes (here neither confirm_plain, left by the change, nor confirm_with_bike, still waiting, did)."""
    doc = bike_repair_flow()
    doc["global_actions"] = [{"intent": "just_book", "examples": ["just book it now"], "target": "book_repair"}]
    repairs = Repairs()
    dialogue = Dialogue(load_flow(doc), tools=repairs.registry, clock=clock)
    dialogue.start()
    for reply in TO_WITH_BIKE:
        dialogue.turn(reply)
    with pytest.raises(CommitGuardError, match="was not answered yes"):
        dialogue.turn("just book it now")
    assert not repairs.calls
    dialogue.turn("yes")  # the confirmation it is at still books
    assert repairs.calls == [{"name": "Sam", "bike_type": "e-bike", "courtesy_bike": True}]


def test_a_session_restored_at_the_second_confirmation_books_once(clock):
    repairs = Repairs()
    dialogue = bike_shop(clock, repairs, TO_WITH_BIKE)
    snapshot = dialogue.snapshot()
    restored = Dialogue.restore(load_flow(bike_repair_flow()), snapshot, tools=repairs.registry, clock=clock)
    assert restored.node == "confirm_with_bike"
    restored.turn("yes")
    assert repairs.calls == [{"name": "Sam", "bike_type": "e-bike", "courtesy_bike": True}]
    booked = Dialogue.restore(load_flow(bike_repair_flow()), restored.snapshot(), tools=repairs.registry, clock=clock)
    booked.turn("yes")
    assert len(repairs.calls) == 1


def test_a_snapshot_from_before_the_way_was_recorded_books_once_at_the_second_confirmation(clock):
    """A version 2 snapshot (no ``came_through``) taken at confirm_with_bike after the change: its yes books."""
    repairs = Repairs()
    data = orjson.loads(bike_shop(clock, repairs, TO_WITH_BIKE).snapshot())
    assert data.pop("came_through") == "ask_courtesy"
    old = orjson.dumps({**data, "version": 2})
    restored = Dialogue.restore(load_flow(bike_repair_flow()), old, tools=repairs.registry, clock=clock)
    assert restored.node == "confirm_with_bike" and restored.session.came_through is None
    restored.turn("yes")
    assert repairs.calls == [{"name": "Sam", "bike_type": "e-bike", "courtesy_bike": True}]


def test_two_servers_on_one_store_book_the_second_confirmation_once_and_never_undo_it(tmp_path, clock):
    """As tests/serve/test_app.py's race for the restaurant: both "yes" at once, from two stores on one file."""
    db, repairs = tmp_path / "s.db", Repairs()
    flow = bike_repair_flow()
    first = Playground([flow], SQLiteStore(db), tools=repairs.registry, clock=clock)
    second = Playground([flow], SQLiteStore(db), tools=repairs.registry, clock=clock)
    sid = first.create()["id"]
    for text in TO_WITH_BIKE:
        view = first.turn(sid, text)
    assert view["node"] == "confirm_with_bike"
    outcomes = at_once(sid, "yes", first, second)
    assert repairs.calls == [{"name": "Sam", "bike_type": "e-bike", "courtesy_bike": True}], outcomes
    assert sorted(outcomes) in (["booked", "booked"], ["ConflictError", "booked"])
    with pytest.raises(UndoRefused, match="book_repair"):  # the turn that booked cannot be undone
        for _ in outcomes:  # the later "yes" (if it ran) booked nothing: undoing it stays booked
            assert second.undo(sid)["node"] == "booked"
    assert first.turn(sid, "yes")["node"] == "booked" and len(repairs.calls) == 1


@pytest.mark.parametrize("reply", ["hmm let me think", "hang on, let me check with my wife", "one sec"])
def test_a_pause_gets_the_summary_and_its_question_again(clock, reply):
    # a pause says nothing to change: the summary and its question again, and a plain yes to it commits
    dialogue = at_confirmation(clock)
    result = dialogue.turn(reply)
    assert not booked(dialogue) and dialogue.slots == BOOKED
    assert result.text == "A table for 4 on Monday 23 November at 7 pm, under the name Jane Doe. Shall I book it?"
    dialogue.turn("yes")
    assert len(booked(dialogue)) == 1
