"""Hardening round 2 (issue 13), the runtime's part: commits, ended conversations, Assistant transactions,
input cleaning, invalid-value and correction messages, bounded messages."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from fsmdial.flow import Flow
from fsmdial.loader import load_flow
from fsmdial.runtime import Dialogue
from fsmdial.tools import ToolRegistry

from . import example_tools
from .conftest import FLOWS, REPO

# ----------------------------------------------------------------- item 0: commits

pizza_orders: list[dict[str, Any]] = []
pizza_tools = ToolRegistry()


@pizza_tools.tool()
def place_order(**arguments: Any) -> dict[str, Any]:
    pizza_orders.append(arguments)
    return {"order_id": 100 + len(pizza_orders), "total": 18.0}


PIZZA = REPO / "examples" / "pizza_shop" / "flow.json"

# flow, tools, what the user says up to the commit, the committing tool, a correction of a slot the commit
# depends on (read by it, or asked before it), the slot that correction changes
EXAMPLES: dict[str, tuple[Path, ToolRegistry, list[str], str, str, str]] = {
    "ride_change": (FLOWS / "ride_change.json", example_tools.registry,
                    ["Jane Doe", "102", "please move the pickup to 7pm"], "change_ride", "ride 500", "ride_id"),
    "ride_change_chief": (FLOWS / "ride_change.chief.json", example_tools.registry,
                          ["John", "500", "change pickup time"], "RideChange", "ride 102", "ride_id"),
    "bank_fraud_report": (FLOWS / "bank_fraud_report.json", example_tools.registry,
                          ["Jane Smith", "12345678", "4321", "two card payments in Paris I did not make"],
                          "bank_fraud_report", "12 March 1980", "date_of_birth"),
    "restaurant_booking": (FLOWS / "restaurant_booking.json", example_tools.registry,
                           ["a table for 4 tomorrow at 7pm", "Alex", "yes"], "book_table", "on friday", "date"),
    # date_of_birth is read by verify_identity (a lookup), asked before activate_card (committed)
    "card_activation": (FLOWS / "card_activation.json", example_tools.registry,
                        ["1234", "1990-03-12", "yes", "4321", "yes"], "activate_card", "12 March 1980", "date_of_birth"),
    "pizza_shop": (PIZZA, pizza_tools, ["margherita", "large", "2", "tomorrow at 7pm", "Ada", "yes"],
                   "place_order", "3 pizzas", "quantity"),
}


def test_every_example_flow_with_an_external_action_is_covered():
    with_actions = {
        load_flow(path).name
        for path in [*FLOWS.glob("*.json"), PIZZA]
        if any(node.type == "external_action" for node in load_flow(path).nodes)
    }
    assert with_actions == {load_flow(case[0]).name for case in EXAMPLES.values()}


def effects(tool: str) -> int:
    """Times ``tool`` really ran (the tools record their calls)."""
    if tool == "place_order":
        return len(pizza_orders)
    return sum(1 for name, _ in example_tools.calls if name == tool)


def variant(path: Path, *, commits: bool, ends_as_informs: bool) -> Flow:
    """The example flow, optionally without ``commits``, optionally going on after it would end (every end
    node an inform with no way on: the dialogue waits there, so a correction reaches the commit check)."""
    data = copy.deepcopy(load_flow(path).model_dump(mode="json", by_alias=True, exclude_defaults=True))
    for node in data["nodes"]:
        if node["type"] == "external_action" and not commits:
            node.pop("commits", None)
        if node["type"] == "end" and ends_as_informs:
            node["type"] = "inform"
            node["message"] = node.get("message") or "Done."
    return load_flow(data)


def committed_dialogue(name: str, flow: Flow, clock) -> Dialogue:
    path, tools, script, tool, _, _ = EXAMPLES[name]
    example_tools.calls.clear()
    pizza_orders.clear()
    dialogue = Dialogue(flow, tools=tools, clock=clock)
    dialogue.start()
    for text in script:
        dialogue.turn(text)
    assert effects(tool) == 1, f"{name}: the script should run {tool} once"
    return dialogue


def state_of(dialogue: Dialogue) -> dict[str, Any]:
    """What a turn after the commit must not change (history and the turn count may grow)."""
    session = dialogue.session
    return {"node": session.node, "slots": dict(session.slots), "status": dict(session.status),
            "results": copy.deepcopy(session.results), "calls": copy.deepcopy(session.calls)}  # fmt: skip


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_after_the_commit_a_correction_never_runs_the_tool_again(name, clock):
    """Every example flow, as shipped: a correction of a slot the commit depends on, then "yes", then the
    correction again: the committing tool has still run once, and the session is where the commit left it."""
    path, _, _, tool, correction, _ = EXAMPLES[name]
    dialogue = committed_dialogue(name, load_flow(path), clock)
    before, ended = state_of(dialogue), dialogue.ended
    for text in (correction, "yes", correction, "yes please, do it again"):
        result = dialogue.turn(text)
        assert result.tool_calls == [] and result.trace.repeated_calls == []
        assert result.node == before["node"] and result.ended == ended
        assert result.act_names in (["ended"], ["committed"], ["committed", "anything_else"], ["anything_else"],
                                    ["out_of_scope"]), result.act_names  # fmt: skip
    assert effects(tool) == 1
    assert state_of(dialogue) == before


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_a_correction_after_a_commit_is_refused_when_the_dialogue_goes_on(name, clock):
    """The same flows going on after the commit (ends turned into waiting informs): the correction is refused,
    said and traced, the slot keeps its committed value, and the tool does not run again."""
    path, _, _, tool, correction, slot = EXAMPLES[name]
    dialogue = committed_dialogue(name, variant(path, commits=True, ends_as_informs=True), clock)
    before = state_of(dialogue)
    result = dialogue.turn(correction)
    assert "committed" in result.act_names
    said = next(act for act in result.acts if act.name == "committed")
    assert said.slot == slot and "can no longer change" in said.text
    assert [entry["slot"] for entry in result.trace.invalid] == [slot]
    assert result.trace.invalid[0]["reason"].startswith("committed by")
    assert result.trace.slot_changes == [] and result.trace.reset == []
    dialogue.turn("yes")
    assert effects(tool) == 1
    assert state_of(dialogue) == before


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_without_commits_the_same_correction_reopens_the_flow(name, clock):
    """The control: the corrections above are real ones. Without ``commits`` the slot changes and the machine
    goes back before the action (and, for most flows, the tool runs again): the bug issue 13 found."""
    path, _, _, tool, correction, slot = EXAMPLES[name]
    dialogue = committed_dialogue(name, variant(path, commits=False, ends_as_informs=True), clock)
    result = dialogue.turn(correction)
    assert [change["slot"] for change in result.trace.slot_changes] == [slot]
    assert result.trace.nodes, "the machine went back to the node asking the slot"
    dialogue.turn("yes")
    if name == "bank_fraud_report":  # a date of birth sends it down the other way to authenticate
        assert result.act_names == ["bank_ask_mothers_maiden_name"]
    elif name == "card_activation":  # another date of birth: the identity check now fails
        assert result.act_names == ["changed", "identity_mismatch", "ask_card_last4"]
    else:
        assert effects(tool) == 2


def test_the_sop_flow_stays_ended(clock):
    dialogue = Dialogue(load_flow(FLOWS / "card_activation.sop.json"), clock=clock)
    dialogue.start()
    for text in ("yes, I am the cardholder", "go ahead", "the password is blue sky"):
        dialogue.turn(text)
    assert dialogue.ended
    node = dialogue.node
    for text in ("yes, I am the cardholder", "go ahead", "the password is blue sky"):
        result = dialogue.turn(text)
        assert result.node == node and result.ended and result.act_names == ["ended"]
        assert result.text == "This conversation has ended."


PHARMACY: dict[str, Any] = {
    "name": "pharmacy_refill",
    "nodes": [
        {"id": "ask_refill", "type": "request", "slots": [
            {"name": "prescription", "type": "string", "pattern": "^RX-[0-9]{4}$", "ask": "Which prescription?"},
            {"name": "store", "type": "categorical", "values": ["Main Street", "Airport"], "label": "pick-up store",
             "description": "Which of our stores the refill is picked up at", "ask": "Which store?"}]},
        {"id": "confirm_refill", "type": "inform_and_confirm", "message": "{prescription} at {store}.",
         "question": "Shall I place the order?"},
        {"id": "place_refill", "type": "external_action", "tool": "place_refill", "commits": True,
         "arguments": {"prescription": "prescription", "store": "store"}, "result": {"order": "string"}},
        {"id": "done", "type": "end", "message": "Done! Your refill order is {place_refill.order}. Goodbye!"},
    ],
    "edges": [
        {"source": "ask_refill", "target": "confirm_refill"},
        {"source": "confirm_refill", "target": "place_refill", "when": {"answer": "yes"}},
        {"source": "place_refill", "target": "done"},
    ],
    "fallbacks": {"goodbye": "Bye!"},
}


def pharmacy(clock, data: dict[str, Any] | None = None) -> tuple[Dialogue, list[dict[str, Any]]]:
    orders: list[dict[str, Any]] = []
    tools = ToolRegistry()

    @tools.tool("place_refill")
    def place_refill(prescription: str, store: str) -> dict[str, Any]:
        orders.append({"prescription": prescription, "store": store})
        return {"order": f"RF-{1000 + len(orders)}"}

    dialogue = Dialogue(load_flow(data or PHARMACY), tools=tools, clock=clock)
    dialogue.start()
    for text in ("RX-1234", "Main Street", "yes"):
        dialogue.turn(text)
    assert orders == [{"prescription": "RX-1234", "store": "Main Street"}]
    return dialogue, orders


def test_the_issue_13_refill_is_placed_once(clock):
    """Issue 13, item 0: after the end, "actually make it the Airport store" and "yes" placed a second order."""
    dialogue, orders = pharmacy(clock)
    assert dialogue.ended and dialogue.node == "done"
    first = dialogue.turn("actually make it the Airport store")
    second = dialogue.turn("yes")
    assert len(orders) == 1
    for result in (first, second):
        assert (result.node, result.ended, result.act_names) == ("done", True, ["ended"])
    assert dialogue.slots["store"] == "Main Street"
    assert dialogue.turn("bye").act_names == ["goodbye"]  # a goodbye is still answered, nothing else
    assert dialogue.start().act_names == ["ended"]
    assert dialogue.history[-1] == ("bot", "This conversation has ended.")


def test_a_flow_words_its_own_committed_and_ended_messages(clock):
    data = copy.deepcopy(PHARMACY)
    data["nodes"][3] = {"id": "done", "type": "inform", "message": "Done! Your order is {place_refill.order}."}
    data["nodes"].append({"id": "rate", "type": "request", "slots": [
        {"name": "rating", "type": "integer", "minimum": 1, "maximum": 5, "ask": "How would you rate us, 1 to 5?"}]})
    data["nodes"].append({"id": "thanks", "type": "end", "message": "Thank you!"})
    data["edges"] += [{"source": "done", "target": "rate"}, {"source": "rate", "target": "thanks"}]
    data["fallbacks"] = {"committed": "Order {place_refill.order} is placed and cannot be changed; please call us.",
                         "ended": "We are done here; start a new chat for another refill."}
    dialogue, orders = pharmacy(clock, data)
    assert dialogue.node == "rate"
    result = dialogue.turn("actually make it the Airport store")
    assert result.messages == ["Order RF-1001 is placed and cannot be changed; please call us.",
                               "How would you rate us, 1 to 5?"]
    assert result.node == "rate" and dialogue.slots["store"] == "Main Street"
    assert "correction of 'store' refused: action 'place_refill' has committed" in result.trace.notes
    assert dialogue.turn("5").messages == ["Thank you!"]
    assert dialogue.turn("Airport please").messages == ["We are done here; start a new chat for another refill."]
    assert len(orders) == 1


def test_the_default_committed_message_names_the_slot_by_its_noun(clock):
    data = copy.deepcopy(PHARMACY)
    data["nodes"][3] = {"id": "done", "type": "inform", "message": "Done!"}
    dialogue, orders = pharmacy(clock, data)
    result = dialogue.turn("actually make it the Airport store")
    assert result.acts[0].text == ("Sorry, I can no longer change the pick-up store: it has already been used, "
                                   "and that cannot be undone.")  # fmt: skip
    assert len(orders) == 1


def test_an_action_that_does_not_commit_runs_again_after_a_correction(clock):
    """The default (``commits`` false): a search or lookup is simply run again with the corrected value."""
    data = copy.deepcopy(PHARMACY)
    data["nodes"][2]["commits"] = False
    data["nodes"][3] = {"id": "done", "type": "inform", "message": "Found {place_refill.order}."}
    dialogue, orders = pharmacy(clock, data)
    result = dialogue.turn("actually make it the Airport store")
    assert result.act_names[0] == "changed"
    dialogue.turn("yes")
    assert orders[-1] == {"prescription": "RX-1234", "store": "Airport"} and len(orders) == 2


def test_a_failed_committing_action_is_not_committed(clock):
    """Only a success commits: restaurant_booking's "no table" outcome can still be corrected and booked."""
    example_tools.calls.clear()
    dialogue = Dialogue(load_flow(FLOWS / "restaurant_booking.json"), tools=example_tools.registry, clock=clock)
    dialogue.start()
    for text in ("Sam", "12", "next friday", "8pm", "yes please"):
        dialogue.turn(text)
    assert dialogue.node == "no_table"
    assert dialogue.turn("ok then 8 people").act_names == ["changed", "confirm_booking"]
    assert dialogue.turn("yes").act_names == ["booked", "goodbye"]
    assert [call[1]["party_size"] for call in example_tools.calls] == [12, 8]


# ------------------------------------------------- item 5: Assistant turns are transactions


def banking(clock, transfer_tool) -> Any:
    from fsmdial.assistant import Assistant

    def flow(name: str, example: str, slots: list[dict[str, Any]], tool: str) -> Flow:
        return load_flow({
            "name": name, "examples": [example], "description": name,
            "nodes": [{"id": "ask", "type": "request", "slots": slots},
                      {"id": "act", "type": "external_action", "tool": tool},
                      {"id": "done", "type": "end", "message": f"{name} done"}],
            "edges": [{"source": "ask", "target": "act"}, {"source": "act", "target": "done"}],
            "fallbacks": {"goodbye": "bye"},
        })  # fmt: skip

    account = {"name": "account_number", "pattern": "^[0-9]{4,}$", "ask": "Your account number?"}
    flows = [
        flow("balance", "check my balance", [account, {"name": "pin", "pattern": "^[0-9]{3}$", "ask": "PIN?"}], "balance"),
        flow("transfer", "make a transfer", [account, {"name": "amount", "type": "number", "ask": "How much?"}], "transfer"),
    ]
    return Assistant(flows, tools={"balance": lambda **kw: {}, "transfer": transfer_tool}, clock=clock)


def assistant_state(bot: Any) -> Any:
    return (list(bot.stack), dict(bot.shared), bot.ended, sorted(bot.dialogues),
            {name: d.snapshot() for name, d in bot.dialogues.items()})  # fmt: skip


def test_a_tool_failing_in_a_routed_flow_leaves_the_assistant_as_it_was(clock):
    from fsmdial.errors import TurnError

    def broken(**arguments: Any) -> Any:
        raise RuntimeError("bank is down")

    bot = banking(clock, broken)
    bot.turn("check my balance")
    assert bot.turn("12345").act_names == ["ask_pin"]
    before = assistant_state(bot)
    with pytest.raises(TurnError):
        bot.turn("make a transfer of 250")  # routed: the transfer flow takes the account number, calls the tool
    assert assistant_state(bot) == before
    result = bot.turn("123")  # the balance flow goes on as if the failed turn never happened
    assert result.flow == "balance" and result.act_names == ["done"]
    assert bot.stack == []


def test_a_huge_first_message_is_cut_before_routing(clock):
    bot = banking(clock, lambda **kw: {})
    result = bot.turn("9" * 5000)
    assert result.act_names == ["out_of_scope"] and bot.active is None
    assert result.trace.notes == ["input cut from 5000 to 2000 characters"]
    assert len(result.trace.text) == 2000
    result = bot.turn("make a transfer\u202e of 250")
    assert result.flow == "transfer" and bot.dialogues["transfer"].slots == {"amount": 250}


def test_an_assistant_stays_ended_after_goodbye(clock):
    bot = banking(clock, lambda **kw: {})
    bot.turn("check my balance")
    assert bot.turn("bye").ended
    result = bot.turn("make a transfer")
    assert result.ended and result.act_names == ["ended"] and bot.dialogues.keys() == {"balance"}
    assert bot.stack == []


def test_the_assistant_refuses_text_that_is_not_a_string(clock):
    from fsmdial.errors import TurnError

    bot = banking(clock, lambda **kw: {})
    with pytest.raises(TurnError, match="must be a string"):
        bot.turn(None)  # type: ignore[arg-type]


def test_chat_with_several_flows_never_exits_with_a_traceback():
    import subprocess
    import sys

    lines = ["9" * 5000, "\u202e\u2028\u2029\x00\ufeff", "{0.__class__}", "book a table" + "!" * 3000, "Alex",
             "\udcff".encode("utf-8", "surrogatepass").decode("utf-8", "replace"), "bye", "still there?"]  # fmt: skip
    result = subprocess.run(
        [sys.executable, "-m", "fsmdial.cli", "chat", str(FLOWS / "restaurant_booking.json"), str(FLOWS / "ride_change.json")],
        input="".join(line + "\n" for line in lines), capture_output=True, text=True, cwd=REPO, timeout=120,
    )  # fmt: skip
    assert result.returncode == 0 and "Traceback" not in result.stderr, result.stderr
    assert "error:" not in result.stdout
    bot = [line for line in result.stdout.splitlines() if line.startswith("bot: ")]
    assert bot[0] == "bot: Hello! How can I help you?"
    assert "bot: Sure! What name should the booking be under?" in bot
    assert bot[-1] == "bot: Goodbye, hope to see you soon!"  # chat stops after the goodbye


# ------------------------------------------------- item 17: invisible and separator characters


@pytest.mark.parametrize("mark", ["\u2028", "\u2029", "\u202e", "\u202d", "\u2066", "\u200b", "\ufeff", "\u200e"])
def test_separators_and_format_characters_never_reach_the_understander(mark, clock):
    seen: list[str] = []

    class Recording:
        def understand(self, state, text, *, history=(), now=None):
            from fsmdial.understand.rules import RulesUnderstander

            seen.append(text)
            return RulesUnderstander().understand(state, text, history=history, now=now)

    dialogue = Dialogue(load_flow(FLOWS / "restaurant_booking.json"), understander=Recording(), tools=example_tools.registry,
                        clock=clock)  # fmt: skip
    dialogue.start()
    result = dialogue.turn(f"Al{mark}ex")
    assert all(ch not in seen[0] for ch in "\u2028\u2029\u202e\u202d\u2066\u200b\ufeff\u200e")
    assert dialogue.slots["name"] in ("Alex", "Al ex")  # format characters go, separators become spaces
    assert result.trace.text == seen[0] and dialogue.history[-2] == ("user", seen[0])


def test_clean_input_spaces_separators_and_drops_format_characters():
    from fsmdial.runtime import clean_input

    assert clean_input("a\u2028b\u2029c\u202ed\u200be\x00f\ud800g") == ("a b cde f g", None)
    assert clean_input("ab" * 3, 4) == ("abab", "input cut from 6 to 4 characters")
    assert clean_input("Ünïcødé — ok ✓ 日本") == ("Ünïcødé — ok ✓ 日本", None)


# ------------------------------------------------- item 19 and issue 12 item 7: messages about a slot


def test_an_invalid_value_is_answered_with_the_slot_s_own_message(clock):
    data = load_flow(FLOWS / "restaurant_booking.json").model_dump(mode="json", by_alias=True, exclude_defaults=True)
    data["nodes"][0]["slots"][1]["invalid"] = "We take bookings for 1 to 20 people, {name}."
    dialogue = Dialogue(load_flow(data), tools=example_tools.registry, clock=clock)
    dialogue.start()
    dialogue.turn("Alex")
    result = dialogue.turn("50")
    assert result.messages == ["We take bookings for 1 to 20 people, Alex.", "For how many people?"]
    assert result.trace.invalid == [{"slot": "party_size", "value": 50, "reason": "50 is above the maximum of 20"}]


def test_the_default_invalid_and_correction_messages_name_the_slot_by_its_noun(clock):
    dialogue = Dialogue(load_flow(FLOWS / "restaurant_booking.json"), tools=example_tools.registry, clock=clock)
    dialogue.start()
    for text in ("Alex", "2", "tomorrow", "7pm"):
        dialogue.turn(text)
    # the description "Number of people" is not spliced in; the slot's noun (label, else name in words) is
    assert dialogue.turn("make it 50 people").messages[0] == (
        "Sorry, that is not a valid party size: 50 is above the maximum of 20."
    )
    assert dialogue.turn("make it 5 people").messages[0] == "OK, I changed the party size to 5."
    assert dialogue.turn("no, at 8pm on friday").messages[0] == "OK, I changed the date to 2026-11-27 and the time to 20:00."


def test_a_description_that_is_no_noun_phrase_never_reaches_the_correction_message(clock):
    """Issue 12: "OK, I changed the what should be changed about the ride to ..."."""
    dialogue = Dialogue(load_flow(FLOWS / "ride_change.json"), tools=example_tools.registry, clock=clock)
    slot = dialogue.tables.slots["change_description"]
    from fsmdial.language import sentences

    assert sentences.changed([(slot.noun, "x")]) == "OK, I changed the change description to x."


# ------------------------------------------------- item 8: bounded messages


def test_a_huge_tool_result_fails_the_turn_naming_the_node_and_changes_nothing(clock):
    from fsmdial.errors import TemplateError
    from fsmdial.responses import MAX_MESSAGE_CHARS

    flow = load_flow({
        "name": "echo",
        "nodes": [{"id": "ask", "type": "request", "slots": [{"name": "q", "ask": "What?"}]},
                  {"id": "look_up", "type": "external_action", "tool": "look_up", "result": {"text": "string"}},
                  {"id": "answer", "type": "inform", "message": "Got {result.text}"},
                  {"id": "again", "type": "end", "message": "Bye"}],
        "edges": [{"source": "ask", "target": "look_up"}, {"source": "look_up", "target": "answer"},
                  {"source": "answer", "target": "again"}],
    })  # fmt: skip
    sizes = iter([MAX_MESSAGE_CHARS * 50, 10])
    dialogue = Dialogue(flow, tools={"look_up": lambda q: {"text": "x" * next(sizes)}}, clock=clock)
    dialogue.start()
    before = dialogue.snapshot()
    # (a greeting is never a value since issue 20: the question is answered with a word that can be one)
    with pytest.raises(TemplateError, match=r"node 'answer'.*longer than 20000 characters"):
        dialogue.turn("the weather")
    assert dialogue.snapshot() == before
    assert dialogue.turn("the weather").messages == ["Got xxxxxxxxxx", "Bye"]


def test_render_caps_the_message_it_builds():
    from fsmdial.errors import TemplateError
    from fsmdial.responses import MAX_MESSAGE_CHARS, render

    assert render("{a}{b}", {"a": "x" * (MAX_MESSAGE_CHARS - 1), "b": "y"}) == "x" * (MAX_MESSAGE_CHARS - 1) + "y"
    with pytest.raises(TemplateError, match=r"fallbacks.goodbye: .*\{b\} is 2 characters"):
        render("{a}{b}", {"a": "x" * (MAX_MESSAGE_CHARS - 1), "b": "yy"}, where="fallbacks.goodbye")


# ------------------------------------------------- fuzz: Assistant turns

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from .reliability_support import count  # noqa: E402

_PIECES = st.one_of(
    st.text(max_size=40),
    st.sampled_from(["book a table", "change my ride", "bye", "yes", "no", "Alex", "102", "7pm", "tomorrow",
                     "9" * 5000, "\u202e\u2028", "{0.__class__}", "<|im_start|>system", "x" * 3000]),
)  # fmt: skip


@settings(max_examples=count(40, 400), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(texts=st.lists(_PIECES, min_size=1, max_size=8), fail_at=st.integers(0, 3))
def test_assistant_turns_either_answer_or_change_nothing(texts, fail_at, clock):
    """Any text through a two-flow Assistant whose tools break now and then: a turn returns, or raises a typed
    error and leaves the Assistant (stack, shared slots, flows, sessions) exactly as it was."""
    from fsmdial.assistant import Assistant
    from fsmdial.errors import FsmdialError

    calls = {"n": 0}

    def flaky(**arguments: Any) -> dict[str, Any]:
        calls["n"] += 1
        if calls["n"] % 4 == fail_at:
            return {"unexpected": 1}  # a result of the wrong shape always fails the turn (no failure edge catches it)
        return {"changed": True, "booked": True, "reference": "R-1"}

    bot = Assistant([load_flow(FLOWS / "restaurant_booking.json"), load_flow(FLOWS / "ride_change.json")],
                    tools={"book_table": flaky, "change_ride": flaky}, clock=clock)  # fmt: skip
    bot.start()
    for text in texts:
        before = assistant_state(bot)
        try:
            result = bot.turn(text)
        except FsmdialError:
            assert assistant_state(bot) == before
            continue
        assert len(result.trace.text) <= 2000
        assert all(ch not in result.trace.text for ch in "\u202e\u2028")
