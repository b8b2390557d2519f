"""Testing an Assistant as a Dialogue is tested: ABSENT (a slot not set), slots by flow, the answering flow, the
``fsmdial_assistant`` fixture, and conversation files (``test_*.conversations.json``) naming several flows.

The plugin is checked in throw-away projects run by ``pytester`` (as ``test_pytest_plugin.py`` does), on the
bike shop of ``examples/bike_shop``: a repair booking and a cancellation by reference behind one Assistant.
"""

from __future__ import annotations

import datetime as dt
import json
import shutil
from pathlib import Path

import pytest

from fsmdial.assistant import Assistant
from fsmdial.runtime import Dialogue
from fsmdial.testing import (
    ABSENT,
    UNSET,
    ConversationMismatch,
    ExpectedTurn,
    FrozenClock,
    ScriptedConversation,
    expected_from_data,
    pattern,
)
from fsmdial.testing.conversation_files import ConversationFileError, load_conversation_file
from fsmdial.understand.rules import RulesUnderstander

from .test_pytest_plugin import run

pytest_plugins = ["pytester"]

SHOP = Path(__file__).resolve().parents[2] / "examples" / "bike_shop"
FLOWS = [SHOP / "repair.json", SHOP / "cancel.json"]


def _assistant() -> Assistant:
    stand_ins = {"book_repair": lambda name, bike, day: {"reference": "R1001"}, "cancel_repair": lambda reference: {}}
    return Assistant(
        [str(flow) for flow in FLOWS],
        tools=stand_ins,
        understander=RulesUnderstander(),
        clock=FrozenClock(dt.datetime(2025, 6, 13, 12)),
    )


# ------------------------------------------------------------------ ABSENT, in Python and in data


def test_absent_holds_for_a_slot_not_set_and_fails_for_one_set_on_an_assistant():
    talk = ScriptedConversation(_assistant())
    talk.start()
    talk.say("my bike needs fixing", acts=["ask_name"], slots={"name": ABSENT, "repair_booking.bike": UNSET})
    with pytest.raises(ConversationMismatch) as failure:
        talk.say("Sam Jones", slots={"name": ABSENT})
    assert failure.value.problems == ["slot name: expected not set, got 'Sam Jones'"]


def test_expecting_none_names_absent_instead():
    dialogue = Dialogue(str(FLOWS[0]), stand_in_tools=True, understander=RulesUnderstander(), clock=FrozenClock())
    talk = ScriptedConversation(dialogue)
    talk.start()
    with pytest.raises(ConversationMismatch) as failure:
        talk.say("Sam Jones", slots={"bike": None})
    (problem,) = failure.value.problems
    assert problem.startswith("slot bike: expected None, but it is not set (")
    assert "fsmdial.testing.ABSENT" in problem and '{"$absent": true}' in problem


def test_data_spells_absent_any_and_patterns_and_refuses_a_wrong_spelling():
    turn = ExpectedTurn.of(
        {
            "user": "hi",
            "slots": {"a": {"$absent": True}, "b": {"$pattern": "^x"}, "c": {"$any": True}, "d": {"keep": 1}},
            "messages": [{"$pattern": "ok"}, "plain"],
            "acts": [{"name": "ask", "text": {"$pattern": "name"}}],
            "tool_calls": [{"tool": "t", "arguments": {"ref": {"$pattern": "^R"}}, "result": {"n": {"$any": True}}}],
        }
    )
    assert turn.slots is not None and turn.slots["a"] is ABSENT and turn.slots["d"] == {"keep": 1}
    assert turn.slots["b"] == pattern("^x") and turn.messages == [pattern("ok"), "plain"]
    assert turn.acts == [{"name": "ask", "text": pattern("name")}]
    assert turn.tool_calls is not None and turn.tool_calls[0]["arguments"]["ref"] == pattern("^R")
    with pytest.raises(TypeError, match=r'write \{"\$absent": true\}'):
        expected_from_data({"$absent": "yes"})


# ------------------------------------------------------------------ slots by flow, the answering flow


def test_slots_are_checked_in_the_flow_named_and_the_answering_flow_is_checked():
    talk = ScriptedConversation(_assistant())
    talk.start()
    talk.say("I'd like to book a repair", flow="repair_booking")
    talk.say("Sam Jones")
    talk.say("cancel my repair", flow="cancel_booking", slots={"repair_booking.name": "Sam Jones", "name": ABSENT})
    with pytest.raises(ConversationMismatch) as failure:
        talk.say(
            "R1001",
            flow="repair_booking",
            slots={"repair_booking.reference": "R1001", "no_such_flow.x": 1, "cancel_booking.reference": "R1002"},
        )
    assert failure.value.problems == [
        "slot repair_booking.reference: expected 'R1001', but it is not set",
        "slots of flow 'no_such_flow': the assistant has no such flow (it has cancel_booking, repair_booking)",
        "slot cancel_booking.reference: expected 'R1002', got 'R1001'",
        "flow: expected 'repair_booking', 'cancel_booking' answered",
    ]
    assert "bot replied (now at flow cancel_booking, node confirm_cancel)" in str(failure.value)


# ------------------------------------------------------------------ the plugin: fixture and conversation files


@pytest.fixture
def shop(pytester: pytest.Pytester) -> pytest.Pytester:
    """The bike shop as an application of its own: its flows, tools and conftest (imports made absolute)."""
    for name in ("repair.json", "cancel.json", "tools.py", "test_bike_shop.conversations.json"):
        shutil.copy(SHOP / name, pytester.path / name)
    conftest = (SHOP / "conftest.py").read_text(encoding="utf-8").replace("from .tools", "from tools")
    pytester.makeconftest(conftest)
    pytester.syspathinsert()
    return pytester


def test_the_assistant_fixture_gives_the_tools_clock_and_understander(shop: pytest.Pytester):
    shop.makepyfile(
        test_shop="""
        import pytest
        from fsmdial.assistant import Assistant
        from fsmdial.understand.rules import RulesUnderstander

        def test_book(fsmdial_assistant, fsmdial_conversation, fsmdial_clock, workshop):
            fsmdial_clock.set("2025-07-01T09:00")
            assistant = fsmdial_assistant(["repair.json", "cancel.json"], understander="rules", greeting="Hi!")
            assert isinstance(assistant, Assistant) and isinstance(assistant.understander, RulesUnderstander)
            talk = fsmdial_conversation(assistant)
            talk.start(messages=["Hi!"])
            talk.run(["book a repair", "Ada Lovelace", "a road bike"])
            talk.say("tomorrow", slots={"repair_booking.day": "2025-07-02"})
            talk.say("yes", tool_calls=["book_repair"])
            assert list(workshop.bookings) == ["R1001"]

        def test_one_flow_is_not_a_list(fsmdial_assistant):
            with pytest.raises(TypeError, match="a list of flows"):
                fsmdial_assistant("repair.json")
        """
    )
    run(shop, "-p", "no:randomly", "test_shop.py").assert_outcomes(passed=2)


def test_a_conversation_file_with_several_flows_plays_each_conversation_on_an_assistant(shop: pytest.Pytester):
    result = run(shop, "-p", "no:randomly", "-v")
    result.assert_outcomes(passed=3)
    result.stdout.fnmatch_lines(
        ["*test_bike_shop.conversations.json::a cancellation interrupts a booking, which then carries on PASSED*"]
    )


def test_a_wrong_expectation_in_a_conversation_file_fails_readably(shop: pytest.Pytester):
    path = shop.path / "test_bike_shop.conversations.json"
    spec = json.loads(path.read_text(encoding="utf-8"))
    talk = spec["conversations"]["a repair is booked, then cancelled"]
    talk[3]["slots"] = {"repair_booking.bike": {"$absent": True}, "cancel_booking.reference": {"$absent": True}}
    talk[4]["flow"] = "cancel_booking"
    path.write_text(json.dumps(spec), encoding="utf-8")
    result = run(shop, "-p", "no:randomly")
    result.assert_outcomes(passed=2, failed=1)
    result.stdout.fnmatch_lines(
        [
            "*test_bike_shop.conversations.json, conversation 'a repair is booked, then cancelled'",
            "turn 4 of 9: user said 'an e-bike'",
            "  slot repair_booking.bike: expected not set, got 'electric'",
            "bot replied (now at flow repair_booking, node ask_details):",
        ]
    )
    assert "fsmdial/testing/" not in result.stdout.str()  # the mismatch says it all: no traceback into the plugin


def test_a_conversation_file_with_one_flow_plays_on_a_dialogue(pytester: pytest.Pytester):
    shutil.copy(FLOWS[1], pytester.path / "cancel.json")
    pytester.makeconftest(
        """
        import pytest

        @pytest.fixture
        def fsmdial_tools():
            return {"cancel_repair": lambda reference: {}}
        """
    )
    conversation = [
        {"user": None, "acts": ["ask_reference"]},
        {"user": "it's R1001", "flow": "cancel_booking", "slots": {"reference": "R1001"}},
        {"user": "yes", "messages": ["Booking R1001 is cancelled."], "ended": True},
    ]
    spec = {"flow": "cancel.json", "conversations": {"cancel": conversation}}
    pytester.makefile(".conversations.json", test_cancel=json.dumps(spec))
    run(pytester, "-p", "no:randomly").assert_outcomes(passed=1)


def test_a_broken_conversation_file_is_a_collection_error_naming_it(pytester: pytest.Pytester):
    shutil.copy(FLOWS[1], pytester.path / "cancel.json")
    pytester.makefile(".conversations.json", test_bad=json.dumps({"flows": ["cancel.json"], "conversation": {}}))
    result = run(pytester, "-p", "no:randomly")
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(["*test_bad.conversations.json: unknown key(s) 'conversation'*"])


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"flow": "cancel.json"}, "either 'flow' (one flow) or 'flows'"),
        ({"flows": ["missing.json"]}, "flow file 'missing.json' not found"),
        ({"now": "noon"}, "'now' is a date and time"),
        ({"understander": "gguf"}, '\'understander\' is "rules" or "model"'),
        ({"conversations": {"x": [{"acts": []}]}}, "conversation 'x', turn 1: a scripted turn needs 'user'"),
        ({"conversations": {"x": [{"user": "hi", "raises": "TurnError"}]}}, "'raises' (an error type) is for Python"),
        ({"conversations": {"x": [{"user": "hi", "slots": {"a": {"$pattern": "("}}}]}}, "turn 1: missing ), unter"),
    ],
)
def test_what_is_wrong_in_a_conversation_file_is_named(tmp_path: Path, change: dict, message: str):
    shutil.copy(FLOWS[1], tmp_path / "cancel.json")
    path = tmp_path / "test_x.conversations.json"
    path.write_text(
        json.dumps({"flows": ["cancel.json"], "conversations": {"x": [{"user": None}]}, **change}), encoding="utf-8"
    )
    with pytest.raises(ConversationFileError) as failure:
        load_conversation_file(path)
    assert str(path) in str(failure.value) and message in str(failure.value)
