"""Meaning without words (issue 36 item 3): the embedder's choice where the rules read nothing and words are open.

Mechanisms, each with a fake encoder (a bag of concept axes: no model needed): the chooser takes its best option
only above a floor and a margin, else abstains; it is offered nothing where the rules read the value, at a
confirmation, for a question or a bare number; its pick stands like a reading of the rules, counts as the turn's
one model call (``path="meaning"``, ``info["meaning"]``), closes the turn before any GGUF call, and the committing
confirmation shows the value chosen. The real encoder's numerics are checked in test_meaning_encoder.py.
"""

from __future__ import annotations

import datetime as dt
import math
import re
from pathlib import Path

import pytest

from fsmdial.errors import ModelError
from fsmdial.flow import Slot
from fsmdial.runtime import Dialogue
from fsmdial.understand import factory
from fsmdial.understand.base import Intent, Parse, UnderstandingState
from fsmdial.understand.factory import make_understander
from fsmdial.understand.meaning import understander as meaning_understander
from fsmdial.understand.meaning.chooser import MeaningChooser
from fsmdial.understand.meaning.options import (
    Option,
    has_words,
    intent_options,
    open_clauses,
    options_for,
    side_options,
    value_options,
)
from fsmdial.understand.meaning.understander import MeaningUnderstander, with_meaning
from fsmdial.understand.rules import RulesUnderstander

REPO = Path(__file__).resolve().parents[2]
HEATING = REPO / "tests" / "data" / "heldout_r3" / "flows" / "heating_callout.json"
NOW = dt.datetime(2026, 12, 3, 8, 0)  # a Thursday
AXES = {
    "leak": "leak leaking dripping drip water burst ceiling",
    "boiler": "boiler heating hot",
    "repair": "broken fault repair bang banging",
    "service": "service annual yearly check checkup",
    "drain": "drain blocked blockage sink toilet shower",
    "hair": "hair haircut colour highlights trim",
}
AXIS_OF = {word: axis for axis, (name, words) in enumerate(AXES.items()) for word in words.split()}


class FakeEncoder:
    """Unit vectors over concept axes (other words count only in a text with no concept word): enough to test
    the choosing."""

    width = len(AXES) + 1

    def __init__(self) -> None:
        self.encoded: list[str] = []

    def encode(self, text: str):
        import numpy as np

        self.encoded.append(text)
        vector = np.zeros(self.width, dtype=np.float32)
        for word in re.findall(r"[a-z]+", text.lower()):
            vector[AXIS_OF.get(word, len(AXES))] += 1
        if vector[: len(AXES)].any():
            vector[len(AXES)] = 0
        norm = float(np.linalg.norm(vector))
        return vector / norm if norm else vector


def chooser(**thresholds: float) -> MeaningChooser:
    return MeaningChooser(FakeEncoder(), **thresholds)  # type: ignore[arg-type]


def asked_job() -> UnderstandingState:
    job = Slot(
        name="job",
        type="categorical",
        values=["boiler repair", "boiler service", "leak", "blocked drain"],
        description="What the engineer is booked for (leak: dripping tap, burst pipe; blocked drain: blocked sink)",
    )
    return UnderstandingState("heating", "ask_job", (), (job,), expected=("job",), asked="job")


def reading(state: UnderstandingState, text: str) -> Parse:
    return RulesUnderstander().understand(state, text, now=NOW)


# ------------------------------------------------------------------ the chooser


def test_the_best_option_is_taken_only_above_the_floor_and_the_margin():
    options = (Option("value", "leak", ("water leak",), "job"), Option("value", "blocked drain", ("blocked drain",)))
    picked = chooser(floor=0.4, margin=0.08).choose("water dripping everywhere", options)
    assert picked is not None and picked.option.name == "leak"
    assert picked.cosine > 0.4 and math.isclose(picked.margin, picked.cosine)  # the drain shares no axis: cosine 0
    # Two options the message fits equally: no margin, no choice.
    tied = (Option("value", "boiler repair", ("boiler",)), Option("value", "boiler service", ("boiler",)))
    assert chooser(floor=0.1, margin=0.01).choose("my boiler", tied) is None
    # Below the floor: nothing, however far ahead.
    assert chooser(floor=0.9, margin=0.0).choose("water and a boiler", options) is None  # cosine 0.71
    assert chooser(floor=0.6, margin=0.0).choose("water and a boiler", options) is not None


def test_abstaining_on_a_low_margin_notes_the_best_option_and_counts_no_model_call():
    state = asked_job()
    text = "the boiler is banging and there is water"  # repair and leak both fit
    first = reading(state, text)
    assert first.info.get("open") and "job" not in first.slots
    assert with_meaning(chooser(floor=0.2, margin=0.3, value_lead=0.3), state, text, first) is None
    assert first.info["meaning"]["chosen"] is False and first.model_calls == 0


def test_option_texts_are_encoded_once():
    choose = chooser()
    options = value_options(asked_job())
    choose.choose("water everywhere", options)
    encoded = len(choose.encoder.encoded)  # type: ignore[attr-defined]
    choose.choose("a burst pipe", options)
    assert len(choose.encoder.encoded) == encoded + 1  # type: ignore[attr-defined]  # the message alone


# ------------------------------------------------------------------ the options


def test_a_value_is_said_by_itself_its_described_synonyms_and_what_the_slot_is():
    leak = next(o for o in value_options(asked_job()) if o.name == "leak")
    assert leak.texts == ("leak", "dripping tap", "burst pipe", "What the engineer is booked for: leak")
    assert leak.kind == "value" and leak.slot == "job"


def test_nothing_is_offered_where_the_rules_read_the_value_or_nothing_is_open():
    state = asked_job()
    assert "job" in reading(state, "it's a leak").slots
    assert options_for(state, "it's a leak", reading(state, "it's a leak")) == ()
    assert options_for(state, "water everywhere", reading(state, "water everywhere"))  # read nothing: offered


def test_one_word_left_beside_another_slots_value_is_offered_nothing():
    """ "it's a wooden door, quite old" at the job question answers the door question: the chooser picked "extra
    lock" for it, and it was booked (round 4, h4-29)."""
    door = Slot(name="door", type="categorical", values=["wooden", "uPVC", "composite"])
    state = asked_job()
    state = UnderstandingState("heating", "ask_job", (), (*state.slots, door), expected=("job",), asked="job")
    text = "it's a wooden door, quite old"
    assert reading(state, text).slots == {"door": "wooden"}
    assert options_for(state, text, reading(state, text)) == ()


def test_a_description_beside_another_slots_value_is_offered_and_read_from_its_own_clauses():
    """ "the key's stuck in the door, it's 7 Rustlings Road": the address is read, the description still says the
    job; its vector is the open clauses' (the address would pull it away)."""
    state = asked_job()
    address = Slot(name="address", type="address")
    state = UnderstandingState("heating", "ask_job", (), (*state.slots, address), expected=("job",), asked="job")
    text = "water is dripping through the ceiling, it's 9 Wharf Street, Otley LS21 1AB"
    first = reading(state, text)
    assert first.slots == {"address": "9 Wharf Street, Otley LS21 1AB"}
    assert [o.name for o in options_for(state, text, first)] == [
        "boiler repair",
        "boiler service",
        "leak",
        "blocked drain",
    ]
    assert open_clauses(text, first.info["open"]) == "water is dripping through the ceiling"
    choose = chooser()
    picked = with_meaning(choose, state, text, first)
    assert picked is not None and picked.slots == {"address": "9 Wharf Street, Otley LS21 1AB", "job": "leak"}
    encoded = choose.encoder.encoded  # type: ignore[attr-defined]
    assert "water is dripping through the ceiling" in encoded and text in encoded  # the open clause, and the whole


def test_a_value_ruled_out_leaves_the_others_to_choose_from():
    state = asked_job()
    text = "it's not a leak, the boiler keeps banging"
    first = reading(state, text)
    assert first.negated == {"job": "leak"} and "job" not in first.slots
    assert [o.name for o in options_for(state, text, first)] == ["boiler repair", "boiler service", "blocked drain"]


def test_a_value_is_taken_closer_than_an_intent():
    """A value of the asked slot is chosen with a smaller lead when its cosine is high (VALUE_FLOOR, VALUE_LEAD):
    the options are few and the flow's own, and the value is said back at once."""
    from fsmdial.understand.meaning.chooser import VALUE_FLOOR, VALUE_LEAD

    both = "boiler banging broken fault bang leak"  # repair 4 of 6 axes words, leak 1: cosines 0.97 and 0.24
    value = (
        Option("value", "boiler repair", ("repair",), "job"),
        Option("value", "boiler service", ("boiler",), "job"),
    )
    intent = tuple(Option("intent", o.name, o.texts) for o in value)
    close = chooser(floor=0.0, margin=0.99)  # the first rule's lead is never reached: only the closer rule clears
    scored = close.scores(both, value)
    assert scored.best is not None and scored.best[1] >= VALUE_FLOOR and scored.margin >= VALUE_LEAD
    assert close.choose(both, value) is not None
    assert close.choose(both, intent) is None


def test_nothing_is_offered_at_a_confirmation_for_a_question_or_a_bare_number():
    state = asked_job()
    confirming = UnderstandingState("heating", "confirm", (), state.slots, confirm="confirm")
    text = "the water is still dripping"
    assert options_for(confirming, text, reading(confirming, text)) == ()  # a choice is no yes, no or change
    question = "does water coming through the ceiling count?"
    assert options_for(state, question, reading(state, question)) == ()
    assert not has_words(("12",)) and not has_words(("twelve",)) and has_words(("electric",))


def test_intents_are_offered_when_nothing_is_asked_goodbye_and_decline_aside():
    state = UnderstandingState(
        "router",
        "start",
        (
            Intent("switch_to_heating", ("my boiler's broken", "I've got a leak")),
            Intent("switch_to_salon", ("I'd like to book a haircut",)),
            Intent("goodbye", ("bye",)),
            Intent("decline", ("I don't know",)),
            Intent("bare", ()),
        ),
        (),
    )
    assert [o.name for o in intent_options(state)] == ["switch_to_heating", "switch_to_salon"]
    text = "water is coming through the ceiling"
    picked = with_meaning(chooser(floor=0.3, margin=0.05), state, text, reading(state, text))
    assert picked is not None and picked.intent == "switch_to_heating" and picked.info["meaning"]["kind"] == "intent"
    # Inside the heating flow, its own "continue" competes with the routes away; winning, it is no choice.
    inside = UnderstandingState(
        "heating",
        "start",
        (Intent("continue", ("I've got a leak",)), Intent("switch_to_salon", ("I'd like to book a haircut",))),
        (),
    )
    first = reading(inside, text)
    assert [o.name for o in options_for(inside, text, first)] == ["continue", "switch_to_salon"]
    assert with_meaning(chooser(floor=0.3, margin=0.05), inside, text, first) is None
    assert first.info["meaning"] == {"chosen": False, "best": "continue", "cosine": 1.0, "margin": 1.0}


# ------------------------------------------------------------------ in a turn


def test_a_pick_stands_like_a_reading_counts_one_model_call_and_the_summary_shows_it():
    dialogue = Dialogue(HEATING, understander=MeaningUnderstander(chooser()), stand_in_tools=True, clock=lambda: NOW)
    dialogue.start()
    result = dialogue.turn("there's a drip from upstairs, it won't stop")  # one word of a form: no rules' proposal
    trace = result.trace
    assert trace.path == "meaning" and trace.model_calls == 1
    assert trace.understanding["meaning"]["option"] == "leak" and trace.understanding["meaning"]["slot"] == "job"
    assert {"cosine", "margin"} <= set(trace.understanding["meaning"]) and "open" not in trace.understanding
    assert dialogue.slots["job"] == "leak"
    assert result.messages[0] == "I take it the job is leak."  # said back at once, to be corrected if wrong
    assert result.acts[0].kind == "noted" and result.acts[0].slot == "job"
    for text in ("it's coming from the bathroom above", "9 Wharf Street, Otley LS21 1AB", "tomorrow", "10am"):
        result = dialogue.turn(text)
        assert result.trace.model_calls == 0  # values the rules read: no choice, no call
    for text in ("yes there's a drive", "Kev Marsh", "07700900514"):
        result = dialogue.turn(text)
    assert "leak" in result.text.lower() and "?" in result.text  # the committing confirmation shows the value


def test_the_rules_alone_read_nothing_there():
    dialogue = Dialogue(HEATING, stand_in_tools=True, clock=lambda: NOW)
    dialogue.start()
    dialogue.turn("there's a drip from upstairs, it won't stop")
    assert "job" not in dialogue.slots


class StubModel:
    """A ModelUnderstander whose model call is counted (no decoding)."""

    @staticmethod
    def make():
        from fsmdial.understand.model.understander import ModelUnderstander

        class Stub(ModelUnderstander):
            backend = "stub"

            def __init__(self) -> None:
                super().__init__()
                self.calls = 0

            def model_parse(self, state, schema, text, history):
                self.calls += 1
                return Parse(path="model", model_calls=1)

        return Stub()


def test_beside_a_model_a_pick_closes_the_turn_with_no_model_call():
    stub = StubModel.make()
    stub.meaning = chooser()
    found = stub.understand(asked_job(), "water is dripping through my kitchen ceiling", now=NOW)
    assert found.path == "meaning" and found.model_calls == 1 and found.slots == {"job": "leak"}
    assert stub.calls == 0
    # Abstaining, the turn goes on as without the chooser: the model is asked what its schema offers.
    stub.meaning = chooser(floor=1.01)
    stub.chooses_without_words = True  # a model that may choose among all the values (--choose score)
    abstained = stub.understand(asked_job(), "water is dripping through my kitchen ceiling", now=NOW)
    assert abstained.path == "model" and abstained.info["meaning"]["chosen"] is False
    assert stub.calls == 1 and "job" not in abstained.slots


# ------------------------------------------------------------------ loading


def test_a_missing_model_is_a_model_error_saying_how_to_fetch_it(tmp_path, monkeypatch):
    with pytest.raises(ModelError, match=r"model\.safetensors is missing .*fsmdial models fetch minilm"):
        make_understander("meaning", meaning=str(tmp_path))
    monkeypatch.setattr("fsmdial.model_catalogue.locate", lambda name: None)
    with pytest.raises(ModelError, match="'minilm' is not fetched: run 'fsmdial models fetch minilm'"):
        make_understander("meaning")
    with pytest.raises(ModelError, match="no embedding model folder"):
        meaning_understander.load_chooser(tmp_path / "nowhere")


def test_meaning_beside_a_model_that_reads_without_the_rules_is_refused():
    """Its pick stands like the rules' reading: a model told to read alone (``rules_first=False``) has none, and the
    option did nothing at all."""
    tiny = pytest.importorskip("fsmdial.testing.tiny_model")
    with pytest.raises(ValueError, match="--meaning needs the rules' reading"):
        make_understander("gguf", str(tiny.ensure_tiny_model()), rules_first=False, meaning="minilm")


def test_beside_a_model_the_embedder_is_the_default_when_it_is_here_and_off_leaves_it_out(monkeypatch):
    """The measured division of labour is the model path: ``--meaning auto`` (the default beside a model) loads the
    embedder when it is fetched and importable, goes without it otherwise, and ``off`` leaves it out; the rules
    alone never load it unless asked. A report names it (:func:`meaning_for`, :func:`meaning_of`)."""
    tiny = str(pytest.importorskip("fsmdial.testing.tiny_model").ensure_tiny_model())
    loaded = chooser()
    loaded.encoder.folder = Path("all-MiniLM-L6-v2")  # type: ignore[attr-defined]
    monkeypatch.setattr(meaning_understander, "load_chooser", lambda model=None: loaded)
    monkeypatch.setattr(factory, "_meaning_available", lambda: True)
    beside = make_understander("gguf", tiny)
    assert beside.meaning is loaded and factory.meaning_of(beside) == "all-MiniLM-L6-v2"  # type: ignore[union-attr]
    assert factory.meaning_for("gguf", None) == "minilm" and factory.meaning_for("gguf", "off") is None
    assert make_understander("gguf", tiny, meaning="off").meaning is None  # type: ignore[union-attr]
    assert make_understander("rules") is None and factory.meaning_for("rules", None) is None
    alone = make_understander("gguf", tiny, rules_first=False)  # auto: a model reading alone has no reading to join
    assert alone.meaning is None  # type: ignore[union-attr]
    monkeypatch.setattr(factory, "_meaning_available", lambda: False)  # not fetched: the model path goes without
    assert make_understander("gguf", tiny).meaning is None and factory.meaning_for("gguf", "auto") is None  # type: ignore[union-attr]
    assert factory.meaning_of(None) is None
    with pytest.raises(ValueError, match="--meaning off leaves none"):
        make_understander("meaning", meaning="off")
    with pytest.raises(ValueError, match="--meaning needs a model"):
        make_understander("gguf", tiny, meaning=" ")


def test_a_greeting_beside_a_description_still_chooses_and_the_whole_message_is_scored_too():
    """ "Hi there, my dishwasher is full of water" read a greeting intent: the description still chooses. A clause
    the rules read words of may be the description ("my freezer's not freezing, everything's gone soft"): each
    option's best cosine with the open clauses or the whole message counts."""
    state = UnderstandingState(
        "heating",
        "ask_job",
        (Intent("hello", ("hello", "hi there", "good morning")),),
        asked_job().slots,
        expected=("job",),
        asked="job",
    )
    text = "hi there, water dripping through the ceiling"
    first = reading(state, text)
    assert first.intent == "hello"
    assert [o.name for o in options_for(state, text, first)] == [
        "boiler repair",
        "boiler service",
        "leak",
        "blocked drain",
    ]
    options = value_options(asked_job())
    choose = chooser()
    both = choose.scores_any(("the boiler", "water dripping"), options)
    assert both.best is not None and both.best[0].name == "leak"
    assert both.best[1] == pytest.approx(choose.scores("water dripping", options).best[1])


def asked_online() -> UnderstandingState:
    online = Slot(
        name="online",
        type="boolean",
        description="Whether the lessons are online (yes) or at the student's home (no)",
        ask="Would you like the lessons online? If not, the tutor comes to your home.",
    )
    return UnderstandingState("tutoring", "ask_online", (), (online,), expected=("online",), asked="online")


def test_an_asked_boolean_with_its_sides_described_offers_each_side_said_by_its_words():
    state = asked_online()
    yes, no = side_options(state)
    assert (yes.name, yes.value, yes.texts) == ("yes", True, ("the lessons are online",))
    assert (no.name, no.value, no.texts) == ("no", False, ("at the student's home", "the tutor comes to your home"))
    offered = options_for(state, "could the tutor come to us", reading(state, "could the tutor come to us"))
    assert [option.name for option in offered] == ["yes", "no"]
    # a side read by the rules is theirs: nothing offered
    assert options_for(state, "online please", reading(state, "online please")) == ()
    plain = Slot(name="parking", type="boolean", description="Whether there is parking")
    assert side_options(UnderstandingState("f", "n", (), (plain,), asked="parking")) == ()


def test_a_chosen_side_stores_its_boolean():
    state = asked_online()
    pick = with_meaning(chooser(floor=0.0, margin=0.0), state, "come to us", reading(state, "come to us"))
    assert pick is not None
    # the side chosen stores its boolean, never its name ("yes"/"no")
    assert pick.slots["online"] is (pick.info["meaning"]["option"] == "yes")


def test_at_a_confirmation_only_a_booleans_side_is_offered_and_only_with_a_change_cue():
    """Round 7: "actually could the tutor come to us instead?" at the summary of online lessons: the rules read no
    change, a "yes" booked online lessons. A side is offered with a change cue; a question or a bare reply gets
    nothing, nor any categorical value or intent."""
    online = asked_online().slots[0]
    state = UnderstandingState("tutoring", "confirm", (), (online,), confirm="confirm")
    said = "actually could the tutor come to us instead? he likes it face to face"
    assert [option.value for option in options_for(state, said, reading(state, said))] == [True, False]
    for said in ("he likes it face to face", "do the tutors come to us?"):
        assert options_for(state, said, reading(state, said)) == (), said
