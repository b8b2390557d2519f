"""Issue 36: the open part of a turn goes to the model, which chooses among grounded candidates.

1. coverage: the rules' reading says which words it accounted for; the rest is open, and only a turn with nothing
   open is answered by the fast path or without a model call;
2. at a confirmation, a value the rules did not read is a candidate change of a held slot of its type, for each
   slot its type and bounds allow;
3. with words open, a chooser that can abstain is offered the asked categorical slot's values and the state's
   intents, words or not; the model still never writes a value;
4. the machine keeps the guard: a model's change at a confirmation is applied and the whole summary confirmed again.
"""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest

from fsmdial.flow import Slot
from fsmdial.loader import load_flow
from fsmdial.runtime import Dialogue
from fsmdial.understand.base import Intent, Parse, UnderstandingState
from fsmdial.understand.constraint.schema import NONE, standing, turn_schema
from fsmdial.understand.model.understander import ModelUnderstander
from fsmdial.understand.rules import RulesUnderstander
from fsmdial.understand.rules.coverage import open_words
from tests import example_tools
from tests.flows import bike_repair_flow, request_flow

REPO = Path(__file__).resolve().parents[2]
NOW = dt.datetime(2026, 11, 23, 12, 0)  # a Monday
RULES = RulesUnderstander()


def at_confirmation(understander=None) -> Dialogue:
    """The restaurant booking at "Shall I book it?": Jane Doe, 4 people, 2026-11-24 at 19:00."""
    example_tools.calls.clear()
    options = {"understander": understander} if understander is not None else {}
    flow = load_flow(REPO / "flows" / "restaurant_booking.json")
    dialogue = Dialogue(flow, tools=example_tools.registry, clock=lambda: NOW, **options)
    dialogue.start()
    dialogue.turn("hi, I'd like to book a table for 4 people tomorrow at 7pm")
    assert dialogue.turn("Jane Doe").text.endswith("Shall I book it?")
    return dialogue


def at_bike_type() -> UnderstandingState:
    dialogue = Dialogue(bike_repair_flow(), stand_in_tools=True, clock=lambda: NOW)
    dialogue.start()
    dialogue.turn("Sam Hill")
    state = dialogue.understanding_state()
    assert state.asked == "bike_type", state
    return state


def schema_for(state: UnderstandingState, text: str, *, history=(), without_words: bool = False):
    settled = standing(RULES, state, text, history, NOW)
    return settled, turn_schema(
        state, text, NOW, settled=settled, open_part=settled.info.get("open", ()), without_words=without_words
    )


# ------------------------------------------------------------------ 1. coverage


def test_the_open_part_is_what_the_reading_did_not_account_for():
    dialogue = at_confirmation()
    state = dialogue.understanding_state()
    assert open_words(state, "yes please, go ahead", RULES.understand(state, "yes please, go ahead", now=NOW)) == ()
    for text, left in [
        ("oh, one more person is joining us, so make that 5", ("more", "person", "joining", "5")),
        ("my sister is coming as well", ("sister", "coming")),
    ]:
        reading = RULES.understand(state, text, now=NOW)
        assert not reading.slots
        assert open_words(state, text, reading) == left
        assert reading.info["open"] == list(left)  # the trace shows it (TurnTrace.understanding)
    # Values read account for their words: nothing open in a whole booking request.
    text = "a table for 4 people tomorrow at 7pm"
    fresh = Dialogue(load_flow(REPO / "flows" / "restaurant_booking.json"), stand_in_tools=True, clock=lambda: NOW)
    fresh.start()
    reading = RULES.understand(fresh.understanding_state(), text, now=NOW)
    assert reading.slots and "open" not in reading.info


def test_its_an_electric_one_is_read_and_a_battery_left_open():
    state = at_bike_type()
    # "electric bike" is a synonym of e-bike in the slot's description; its "bike" is the slot's own word
    assert RULES.understand(state, "its an electric one", now=NOW).slots == {"bike_type": "e-bike"}
    reading = RULES.understand(state, "it has a big battery", now=NOW)
    assert not reading.slots and reading.info["open"] == ["big", "battery"]


def test_a_turn_with_words_open_is_not_closed_without_the_model():
    dialogue = at_confirmation()
    state = dialogue.understanding_state()
    history = dialogue.session.history
    settled, schema = schema_for(state, "oh, one more person is joining us, so make that 5", history=history)
    assert not settled.slots and not schema.empty  # before: no option but "other", so no model call
    # Without open words the schema stays as narrow as before (no call for a plain, fully read reply).
    settled, schema = schema_for(state, "no", history=history)
    assert settled.info.get("open") is None


# ------------------------------------------------------------------ 2. candidates for held slots


def test_at_a_confirmation_a_number_the_rules_did_not_read_is_a_candidate_change():
    dialogue = at_confirmation()
    state = dialogue.understanding_state()
    history = dialogue.session.history
    _, schema = schema_for(state, "oh, one more person is joining us, so make that 5", history=history)
    assert schema.answers
    # "one more person" is no value: only the words the rules left open are candidates ("5", not "one"); 5 people
    # or 5 pm (the restaurant seats from 12:00 to 22:30): each is an option, the model says which, or none.
    assert schema.values == {"party_size": {"5": 5}, "time": {"5": "5:00 (12-hour clock)"}}
    # "6 not 4": the rules read that change themselves (rules/changes.py), so it is not the model's to choose.
    settled, schema = schema_for(state, "oh, make that 6 not 4", history=history)
    assert settled.slots == {"party_size": 6} and "party_size" not in schema.values
    # Without the open part (before issue 36), nothing was offered.
    text = "oh, one more person is joining us, so make that 5"
    plain = turn_schema(state, text, NOW, settled=standing(RULES, state, text, history, NOW))
    assert not plain.values and not plain.categorical


def test_a_value_that_fits_several_held_slots_is_an_option_for_each_its_bounds_allow():
    state = UnderstandingState(
        flow="hotel",
        node="confirm",
        intents=(),
        slots=(
            Slot(name="rooms", type="integer", minimum=1, maximum=5),
            Slot(name="nights", type="integer", minimum=1, maximum=14),
        ),
        confirm="confirm",
    )
    _, schema = schema_for(state, "hmm, can we do 4 instead")
    assert schema.values == {"rooms": {"4": 4}, "nights": {"4": 4}}  # the model says which, or none
    _, schema = schema_for(state, "oh wait, make that 11")
    assert schema.values == {"nights": {"11": 11}}  # 11 is no number of rooms here


# ------------------------------------------------------------------ 3. meaning without words


def test_the_asked_categorical_slot_is_offered_all_its_values_to_a_chooser_that_can_abstain():
    state = at_bike_type()
    _, narrow = schema_for(state, "it has a big battery")
    assert "bike_type" not in narrow.categorical  # JSON writes the first value offered: not offered
    _, wide = schema_for(state, "it has a big battery", without_words=True)
    assert wide.categorical["bike_type"] == ("e-bike", "road", "other")
    # A name, a question or thanks holds no value: still nothing offered.
    _, asked = schema_for(state, "thanks!", without_words=True)
    assert "bike_type" not in asked.categorical
    # Beside another slot's value the rules read, a word left open answers another question: nothing offered;
    # a description (two describing words) still says the asked one.
    settled, other = schema_for(state, "it's electric, my name is Sam Hill", without_words=True)
    assert settled.slots and "bike_type" not in other.categorical
    settled, described = schema_for(state, "it has a big battery, my name is Sam Hill", without_words=True)
    assert settled.slots and described.categorical["bike_type"] == ("e-bike", "road", "other")


def test_with_nothing_asked_every_intent_is_offered_when_words_are_open():
    state = UnderstandingState(
        flow="garage",
        node="start",
        intents=(
            Intent("repair", ("I need a repair", "something is broken")),
            Intent("mot", ("book an MOT",)),
            Intent("goodbye"),
        ),
        slots=(),
    )
    _, narrow = schema_for(state, "need my brakes looked at")
    assert narrow.intents is not None and "repair" not in narrow.intents
    settled, wide = schema_for(state, "need my brakes looked at", without_words=True)
    assert settled.info["open"] == ["brakes", "looked"]
    assert wide.intents == (NONE, "repair", "mot")  # the built-in goodbye is the rules' to read


# ------------------------------------------------------------------ 4. the machine keeps the guard


class ChangesPartySize:
    """A model understander's choice at a confirmation: the rules' reading, plus a change the model chose."""

    def understand(self, state, text, *, history=(), now=None):
        parse = RULES.understand(state, text, history=history, now=now)
        if state.confirm and "make that" in text:
            parse = Parse(slots={"party_size": 5}, path="model", model_calls=1)
        return parse


def test_a_models_change_at_a_confirmation_is_applied_and_the_whole_summary_confirmed_again():
    dialogue = at_confirmation(ChangesPartySize())
    result = dialogue.turn("oh, one more person is joining us, so make that 5")
    assert dialogue.slots["party_size"] == 5
    assert not [args for tool, args in example_tools.calls if tool == "book_table"]
    assert "5" in result.text and "Jane Doe" in result.text and result.text.endswith("Shall I book it?")
    dialogue.turn("yes")
    assert [args["party_size"] for tool, args in example_tools.calls if tool == "book_table"] == [5]


@pytest.mark.model
def test_the_tiny_model_steered_to_a_change_books_only_after_the_new_summary_is_confirmed():
    pytest.importorskip("llama_cpp", reason="needs the gguf extra (llama-cpp-python)")
    from fsmdial.testing.tiny_model import ensure_tiny_model
    from fsmdial.understand.model.gguf import GGUFUnderstander
    from tests.understand.test_gguf import steered

    model = GGUFUnderstander(ensure_tiny_model(), n_threads=1)
    dialogue = at_confirmation(model)
    with steered(model.model, '{"intent":"none","answer":"change","slots":{"party_size":"5"}}'):
        result = dialogue.turn("oh, one more person is joining us, so make that 5")
    assert result.trace.path == "model" and result.trace.model_calls == 1
    assert result.trace.understanding["open"] == ["more", "person", "joining", "5"]
    assert dialogue.slots["party_size"] == 5 and not [a for t, a in example_tools.calls if t == "book_table"]
    assert result.text.endswith("Shall I book it?")  # the whole summary again, not "yes or no?"
    # A model's yes that the rules cannot read as a plain yes is no answer: with words open, the whole summary and
    # "what would you like to change?", as on the rules path; a yes then shows the summary, and a yes to it books.
    with steered(model.model, '{"intent":"none","answer":"yes"}'):
        again = dialogue.turn("hmm, fine I suppose")
    assert not [a for t, a in example_tools.calls if t == "book_table"], again.text
    assert again.text.startswith("Sorry, I didn't catch what to change.")
    assert dialogue.turn("yes").text.endswith("Shall I book it?")
    dialogue.turn("yes")
    assert [args["party_size"] for tool, args in example_tools.calls if tool == "book_table"] == [5]


class Picks(ModelUnderstander):
    """A model understander that chooses, among the intents its turn offers, the one named ``wanted``."""

    backend = "test"
    chooses_without_words = True

    def __init__(self, wanted: str):
        super().__init__()
        self.wanted = wanted
        self.offered: list[tuple[str, ...] | None] = []

    def model_parse(self, state, schema, text, history):
        self.offered.append(schema.intents)
        intent = self.wanted if schema.intents and self.wanted in schema.intents else NONE
        data = {"intent": intent, "slots": {}} if schema.intents is not None else {"slots": {}}
        found = schema.parse(json.dumps(data))
        found.model_calls = 1
        return found


def test_an_assistant_routes_a_task_said_in_other_words_to_the_flow_the_model_chooses():
    from fsmdial.assistant import Assistant, route_intent

    flows = [load_flow(REPO / "flows" / f"{name}.json") for name in ("restaurant_booking", "vet_appointment")]
    chooser = Picks(route_intent("vet_appointment"))
    bot = Assistant(flows, understander=chooser, stand_in_tools=True, clock=lambda: NOW)
    bot.start()
    result = bot.turn("my puppy keeps limping on his back leg")
    # No example's words were said: before, no route was offered and the assistant said what it does.
    assert chooser.offered[0] == (NONE, route_intent("restaurant_booking"), route_intent("vet_appointment"))
    assert bot.active == "vet_appointment", result.text


def test_the_fast_path_answers_only_when_its_reading_leaves_nothing_open(monkeypatch):
    state = at_bike_type()
    chooser = Picks("none")
    found = chooser.understand(state, "e-bike", now=NOW)
    assert found.path == "fast" and found.slots == {"bike_type": "e-bike"} and chooser.offered == []
    # Were settle ever to answer with words it did not read ("e-bike" for "the purple one"), the turn goes on
    # to the rules' whole reading and the model.
    monkeypatch.setattr(
        RulesUnderstander, "settle", lambda self, state, text, now=None: Parse(slots={"bike_type": "e-bike"})
    )
    found = chooser.understand(state, "its the purple one", now=NOW)
    assert found.path == "model" and chooser.offered and found.info["open"] == ["purple"]


def test_the_value_a_message_replaces_is_no_candidate():
    frequency = Slot(name="frequency", type="categorical", values=["weekly", "fortnightly", "monthly"])
    state = UnderstandingState(flow="cleaning", node="ask", intents=(), slots=(frequency,), asked="hours")
    settled, schema = schema_for(state, "3 hours. actually, can we do fortnightly instead of monthly?")
    # The rules read the change themselves: it stands, and the slot is not offered to the model (SmolLM2 chose
    # "monthly" when it was offered both).
    assert settled.info["change"]["new"] == {"frequency": "fortnightly"} and "frequency" not in schema.categorical
    service = Slot(name="service", type="categorical", values=["MOT", "repair"])
    state = UnderstandingState(flow="garage", node="ask", intents=(), slots=(service,), asked="service")
    settled, schema = schema_for(state, "actually, forget the MOT. Can you book it in for a repair?")
    assert settled.info["change"]["new"] == {"service": "repair"} and "service" not in schema.categorical


def test_a_turn_with_nothing_open_calls_no_model():
    flow = load_flow(REPO / "flows" / "restaurant_booking.json")
    chooser = Picks("none")
    dialogue = Dialogue(flow, understander=chooser, stand_in_tools=True, clock=lambda: NOW)
    dialogue.start()
    result = dialogue.turn("a table for 4 people tomorrow at 7pm")
    assert result.trace.path == "rules" and result.trace.model_calls == 0 and chooser.offered == []
    assert "open" not in result.trace.understanding
    result = dialogue.turn("Jane Doe, it's for our anniversary")
    assert result.trace.understanding.get("open") and result.trace.model_calls <= 1


# ------------------------------------------------------------------ 5. the model path reads no less than the rules


def test_every_value_the_rules_read_stands_on_the_model_path_at_a_confirmation_too():
    """At an offer ("Green Book has a rating of 8.3 ... interested?"), "anything starring Dimiter Marinov?" is read by
    the rules (a credit, a text value no cue word names); the model path dropped it as a guess (SGD dev, Movies_2)."""
    starring = Slot(name="starring", type="string", description="an actor starring in the movie")
    state = UnderstandingState(flow="movies", node="offer", intents=(), slots=(starring,), confirm="offer")
    history = (("bot", "Breakthrough has an average rating of 5.6. Would you be interested in this?"),)
    said = "Do you have anything starring Dimiter Marinov?"
    read = RULES.understand(state, said, history=history, now=NOW)
    assert read.slots == {"starring": "Dimiter Marinov"}
    assert standing(RULES, state, said, history, NOW).slots == read.slots


def test_a_value_a_question_of_choices_names_is_the_users_choice_not_a_restatement():
    """ "Are you looking for a Psychiatrist or a Psychologist?" at a node that branches on choices names options, not
    values held: "a Psychologist in San Jose" chooses one (the model path had dropped it: SGD dev, Services_4)."""
    kind = Slot(name="type", type="categorical", values=["Psychiatrist", "Psychologist"])
    history = (("bot", "Are you looking for a Psychiatrist, a Psychologist, or a different professional?"),)
    chooses = UnderstandingState(
        flow="services", node="start", intents=(), slots=(kind,), asked="type", confirm="start", choices=("a", "b")
    )
    assert RULES.without_restated(chooses, {"type": "Psychologist"}, history) == {"type": "Psychologist"}
    # At a plain confirmation the same words restate its summary: no change.
    summary = UnderstandingState(flow="services", node="confirm", intents=(), slots=(kind,), confirm="confirm")
    told = (("bot", "A Psychologist in San Jose: shall I book it?"),)
    assert RULES.without_restated(summary, {"type": "Psychologist"}, told) == {}


@pytest.mark.parametrize(
    ("said", "slot", "start"),
    [
        ("Play a song for me while waiting", "song_name", None),  # "for me while waiting" opens a phrase: no title
        ("find me a restaurant to visit", "restaurant_name", None),
        ("the song is Bohemian Rhapsody", "song_name", "Bohemian"),
        ("my restaurant would be Nando's", "restaurant_name", "Nando's"),
        ("I want to check my account balance", "account_number", None),  # an identifier starts with a digit
        ("my account number is 12345678", "account_number", "12345678"),
        ("the account number is five six seven eight", "account_number", "five"),
        ("she's a small dog, a bichon", "dog_name", None),  # a name never follows "a": a breed (SmolLM2 took it)
        ("my dog is Lola", "dog_name", "Lola"),
    ],
)
def test_a_text_value_after_its_slots_name_is_never_a_phrase_the_name_does_not_introduce(said, slot, start):
    from fsmdial.understand.constraint.cues import cue_starts
    from fsmdial.understand.constraint.grounding import message

    starts = cue_starts(said, Slot(name=slot, type="string"))
    assert [message(said).word(i) for i in sorted(starts)] == ([start] if start else [])


def test_an_intent_is_offered_only_when_its_examples_act_words_are_said_too():
    """STAR's greeting examples are the wizard's "hello, can I help you?": without its "hello", a message asking for
    help is no greeting (SmolLM2 chose `hello` for "Could you help me book a doctor appointment?")."""
    from fsmdial.understand.constraint.schema import plausible_intents

    state = UnderstandingState(
        flow="doctor",
        node="start",
        intents=(Intent("hello", ("hello", "hello, can i help you?")), Intent("book", ("book an appointment",))),
        slots=(),
    )
    assert "hello" not in plausible_intents(state, "Could you help me book a doctor appointment?")
    assert "hello" not in plausible_intents(state, "thanks for your help")
    assert "hello" in plausible_intents(state, "hello there!")


def test_a_categorical_change_the_rules_read_beside_another_value_is_not_offered_to_the_model():
    """ "can we swap to a punt instead of the motor boat? and 2pm" at the time question: the change reads the punt
    and the time; offered the boat too, Qwen chose the old "motor boat" named in it, and it was booked (round 5)."""
    flow = REPO / "tests" / "data" / "heldout_r5" / "flows" / "boat_hire.json"
    dialogue = Dialogue(flow, stand_in_tools=True, clock=lambda: dt.datetime(2027, 6, 13, 15, 0))
    dialogue.start()
    for said in ("I want to hire one of your motorboats", "3 of us", "no thanks, we'll drive ourselves", "saturday"):
        dialogue.turn(said)
    state = dialogue.understanding_state()
    said = "actually, can we swap to a punt instead of the motor boat? and 2pm"
    now = dt.datetime(2027, 6, 13, 15, 0)
    settled = standing(RULES, state, said, (), now)
    assert settled.info["change"]["new"]["boat"] == "punt"
    schema = turn_schema(state, said, now, settled=settled, open_part=settled.info.get("open", ()))
    assert "boat" not in schema.categorical


def test_at_a_confirmation_a_number_that_counts_another_thing_is_no_change_of_a_count():
    """ "Can you please find me 2 hotel rooms" at a bus booking's offer is no change of its travellers (Qwen made it
    one on SGD dev)."""
    travellers = Slot(name="travelers", type="integer", minimum=1, maximum=6, description="Number of travelers")
    state = UnderstandingState(flow="bus", node="confirm", intents=(), slots=(travellers,), confirm="confirm")
    _, schema = schema_for(state, "Thank you. Can you please find me 2 hotel rooms at destination.")
    assert "travelers" not in schema.values


def test_a_greeting_intent_is_offered_only_to_a_message_that_only_greets():
    """STAR's `hello` lists openings besides greetings ("I would like to change my ride"): a message that says more
    than a greeting is no hello (SmolLM2 took "I need to get a ride. Can you help me?" for one)."""
    from fsmdial.understand.constraint.schema import plausible_intents

    examples = ("hello", "Hi!", "I would like to change my ride", "I need to change my ride", "Hello, can i help you?")
    state = UnderstandingState(flow="ride", node="start", intents=(Intent("hello", examples),), slots=())
    assert plausible_intents(state, "I need to get a ride.  Can you help me?") == []
    assert plausible_intents(state, "Hello! I need help with the life support system") == []
    assert plausible_intents(state, "hi there!") == ["hello"]


def test_the_words_of_a_free_text_answer_are_accounted_for_by_it_even_when_they_name_another_value():
    """Round 9: at "tell me more about the job", "it's the double socket by the bed" is the description asked, and
    "double socket" (a synonym of another job than the one held) is its words: nothing is open, so no model call
    changes the held job (the models booked sockets for a burning smell, a power fault)."""
    job = {
        "name": "job",
        "type": "categorical",
        "values": ["power fault", "sockets"],
        "description": "The job (power fault: burning smell; sockets: double socket, new socket)",
    }
    flow = request_flow(job, {"name": "details", "type": "text", "ask": "Tell me more about the job?"})
    dialogue = Dialogue(load_flow(flow), stand_in_tools=True, clock=lambda: NOW)
    dialogue.start()
    dialogue.turn("there's a burning smell from a socket")
    assert dialogue.slots == {"job": "power fault"}
    state = dialogue.understanding_state()
    text = "I've unplugged everything, it's the double socket by the bed"
    reading = RULES.understand(state, text, now=NOW)
    assert reading.slots == {"details": text} and "open" not in reading.info
