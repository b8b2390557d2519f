"""The pytest plugin and the testing helpers: fixtures, scripted conversations, failure messages, benchmarks.

Plugin behaviour is checked in throw-away projects run by pytest's ``pytester``, the way an
application's own suite would use it.
"""

from __future__ import annotations

import datetime as dt
import importlib.metadata
import json
import os
import subprocess
import sys

import pytest

from fsmdial.errors import ToolError, ToolFailure
from fsmdial.runtime import Dialogue
from fsmdial.testing import (
    ABSENT,
    ANY,
    ConversationMismatch,
    ExpectedTurn,
    FrozenClock,
    ScriptedConversation,
    act,
    call,
    pattern,
    turn_costs,
)

pytest_plugins = ["pytester"]

COFFEE = {
    "name": "coffee",
    "description": "Order coffee at the counter.",
    "nodes": [
        {
            "id": "order",
            "type": "request",
            "slots": [
                {
                    "name": "drink",
                    "type": "categorical",
                    "values": ["espresso", "latte", "tea"],
                    "ask": "What would you like?",
                    "act": "ask_drink",
                },
                {
                    "name": "cups",
                    "type": "integer",
                    "minimum": 1,
                    "maximum": 4,
                    "description": "number of cups",
                    "ask": "How many cups of {drink}?",
                    "act": "ask_cups",
                },
                {"name": "day", "type": "date", "ask": "For which day?", "act": "ask_day"},
            ],
        },
        {"id": "confirm", "type": "inform_and_confirm", "message": "{cups} {drink} on {day}.", "question": "Shall I?"},
        {
            "id": "brew",
            "type": "external_action",
            "tool": "brew",
            "arguments": {"drink": "drink", "cups": "cups"},
            "result": {"ticket": "integer"},
        },
        {"id": "ready", "type": "inform", "message": "Your ticket is {brew.ticket}."},
        {"id": "broken", "type": "inform", "message": "The machine is broken."},
        {"id": "bye", "type": "end", "message": "Bye."},
    ],
    "edges": [
        {"source": "order", "target": "confirm"},
        {"source": "confirm", "target": "brew", "when": {"answer": "yes"}},
        {"source": "confirm", "target": "bye", "when": {"answer": "no"}},
        {"source": "brew", "target": "ready", "when": {"status": "success"}},
        {"source": "brew", "target": "broken", "when": {"status": "failure"}},
        {"source": "ready", "target": "bye"},
        {"source": "broken", "target": "bye"},
    ],
    "fallbacks": {"goodbye": "Goodbye!"},
}

CHIEF_TEA = {
    "nodes": [
        {"id": 1, "type": "request", "slots": {"cups": {"description": "number of cups", "type": "integer"}}},
        {"id": 2, "type": "external_action", "action": "query", "query": "brew"},
        {"id": 3, "type": "inform", "message": "Tea is coming."},
        {"id": 4, "type": "inform", "message": "No tea today."},
    ],
    "edges": [
        {"source": 1, "target": 2},
        {"source": 2, "target": 3, "condition": "Success"},
        {"source": 2, "target": 4, "condition": "Failure"},
    ],
}

ORDER_SCRIPT = [
    ExpectedTurn.start(acts=["ask_drink"], node="order"),
    ExpectedTurn("two cups of latte please", acts=["ask_day"], slots={"drink": "latte", "cups": 2, "day": ABSENT}),
    ExpectedTurn("tomorrow", acts=[act("confirm", kind="confirm", text=pattern(r"^2 latte on Saturday 14 June\."))]),
    ExpectedTurn(
        "yes",
        acts=["ready", "bye"],
        messages=[pattern(r"ticket is \d+"), "Bye."],
        tool_calls=[call("brew", {"drink": "latte", "cups": 2}, status="success", result={"ticket": ANY})],
        ended=True,
    ),
]


class Counter:
    """The coffee machine: counts brews; ``broken`` makes it raise."""

    def __init__(self, broken: bool = False):
        self.calls: list[dict] = []
        self.broken = broken

    def brew(self, drink: str, cups: int) -> dict:
        self.calls.append({"drink": drink, "cups": cups})
        if self.broken:
            raise ToolFailure("no water")
        return {"ticket": len(self.calls)}


def _dialogue(counter: Counter | None = None, flow=COFFEE) -> Dialogue:
    counter = counter or Counter()
    return Dialogue(flow, tools={"brew": counter.brew}, clock=FrozenClock())


# ------------------------------------------------------------- the library


def test_frozen_clock_is_fixed_and_settable():
    clock = FrozenClock()
    assert clock() == clock() == dt.datetime(2025, 6, 13, 12, 0)
    assert clock.set("2024-02-28T23:30") == dt.datetime(2024, 2, 28, 23, 30)
    assert clock.advance(hours=1) == dt.datetime(2024, 2, 29, 0, 30)
    assert clock.advance(dt.timedelta(days=1), minutes=30) == dt.datetime(2024, 3, 1, 1, 0)
    assert clock.set(dt.date(2030, 1, 2)) == dt.datetime(2030, 1, 2)
    with pytest.raises(TypeError):
        clock.set(42)  # type: ignore[arg-type]


def test_a_script_that_holds_passes_and_returns_every_reply():
    counter = Counter()
    results = ScriptedConversation(_dialogue(counter)).run(ORDER_SCRIPT)
    assert [r.act_names for r in results] == [["ask_drink"], ["ask_day"], ["confirm"], ["ready", "bye"]]
    assert counter.calls == [{"drink": "latte", "cups": 2}]


def test_relative_dates_follow_the_clock():
    dialogue = _dialogue()
    dialogue.clock.set("2025-12-31T10:00")
    talk = ScriptedConversation(dialogue)
    talk.start()
    talk.say("one tea", acts=["ask_day"])
    talk.say("tomorrow", slots={"day": "2026-01-01"})


def test_a_wrong_expectation_names_the_turn_the_difference_and_the_trace():
    script = ORDER_SCRIPT[:2] + [
        ExpectedTurn("tomorrow", acts=["ask_cups"], slots={"day": "2025-06-15"}, tool_calls=["brew"])
    ]
    with pytest.raises(ConversationMismatch) as caught:
        ScriptedConversation(_dialogue()).run(script)
    error = caught.value
    assert error.index == 3 and error.result is not None and error.result.act_names == ["confirm"]
    message = str(error)
    lines = message.splitlines()
    assert lines[0] == "turn 3 of 3: user said 'tomorrow'"
    assert "  acts differ (act 1: name 'confirm' is not 'ask_cups')" in lines
    assert "    expected: ask_cups" in lines
    assert "    actual:   confirm:confirm" in lines
    assert "  slot day: expected '2025-06-15', got '2025-06-14'" in lines
    assert "  tool calls differ (expected 1, got 0)" in lines
    assert "  understood (rules): slots day='2025-06-14'" in lines
    assert "  slots changed: day: unset -> '2025-06-14'" in lines
    assert "  nodes entered: confirm" in lines
    assert "  2. 'two cups of latte please' -> ask_day" in lines
    for wall in ("Act(", "TurnTrace(", "ToolCall(", "TurnResult("):
        assert wall not in message


def test_pattern_and_field_mismatches_are_spelled_out():
    talk = ScriptedConversation(_dialogue())
    talk.start()
    with pytest.raises(ConversationMismatch) as caught:
        talk.say(
            "two cups of latte",
            acts=[act("ask_day", kind="ask", text=pattern("Which day"))],
            messages=[pattern("^For which")],
            slots={"cups": 3, "drink": ANY},
        )
    message = str(caught.value)
    assert "  acts differ (act 1: text 'For which day?' does not match pattern 'Which day')" in message
    assert "    expected: ask:ask_day pattern 'Which day'" in message
    assert "slot cups: expected 3, got 2" in message
    assert "drink" not in message.split("bot replied")[0]  # ANY matched
    assert "messages differ" not in message  # the pattern matched


def test_tool_call_arguments_must_match_exactly():
    script = ORDER_SCRIPT[:3] + [ExpectedTurn("yes", tool_calls=[call("brew", {"drink": "latte"})])]
    with pytest.raises(ConversationMismatch) as caught:
        ScriptedConversation(_dialogue()).run(script)
    message = str(caught.value)
    assert "tool calls differ (call 1: unexpected argument cups=2)" in message
    assert "actual:   brew(drink='latte', cups=2) -> success {ticket=1}" in message
    assert "tool calls: brew(drink='latte', cups=2) -> success {ticket=1}" in message  # the trace


def test_a_failing_turn_is_a_mismatch_unless_expected():
    # No failure edge after the tool: a tool that raises fails the turn.
    edges = [e for e in COFFEE["edges"] if (e["source"], e["target"]) != ("brew", "broken")]
    flow = {**COFFEE, "edges": edges + [{"source": "confirm", "target": "broken", "when": {"answer": "other"}}]}
    counter = Counter(broken=True)
    dialogue = _dialogue(counter, flow)
    talk = ScriptedConversation(dialogue)
    talk.run(ORDER_SCRIPT[:3])
    before = dialogue.snapshot()
    with pytest.raises(ConversationMismatch) as caught:
        talk.say("yes", acts=["ready", "bye"])
    assert "the turn raised ToolError: tool 'brew': raised ToolFailure: no water" in str(caught.value)
    assert isinstance(caught.value.__cause__, ToolError)
    assert talk.say("yes", raises=ToolError) is None
    assert dialogue.snapshot() == before  # a failed turn leaves the session as it was
    with pytest.raises(ConversationMismatch, match="expected the turn to raise ToolError, but it returned"):
        talk.say("no", raises=ToolError)


def test_the_failure_edge_is_checked_by_status():
    counter = Counter(broken=True)
    script = ORDER_SCRIPT[:3] + [
        {
            "user": "yes",
            "acts": ["broken", "bye"],
            "tool_calls": [{"tool": "brew", "arguments": {"drink": "latte", "cups": 2}, "status": "failure"}],
        }
    ]
    ScriptedConversation(_dialogue(counter)).run(script)
    assert counter.calls == [{"drink": "latte", "cups": 2}]


def test_scripted_turns_from_data_are_checked_for_typos():
    assert ExpectedTurn.of("hello") == ExpectedTurn("hello") and ExpectedTurn.of(None) == ExpectedTurn.start()
    assert ExpectedTurn.of({"user": None, "acts": ["a"]}) == ExpectedTurn(None, acts=["a"])
    with pytest.raises(TypeError, match="unknown key\\(s\\) 'act'"):
        ExpectedTurn.of({"user": "hi", "act": ["hello"]})
    with pytest.raises(TypeError, match="needs 'user'"):
        ExpectedTurn.of({"acts": ["hello"]})


def test_turn_costs_read_the_understanders_counts():
    trace = ScriptedConversation(_dialogue()).run(ORDER_SCRIPT[:2])[1].trace
    nothing = {"path": "rules", "model_calls": 0, "evaluated_tokens": 0, "prompt_tokens": 0, "output_tokens": 0}
    assert turn_costs(trace) == nothing
    trace.model_calls, trace.path = 1, "model"
    trace.understanding = {"prompt_tokens": 370, "evaluated_tokens": 21, "output_tokens": 9}
    assert turn_costs(trace) == {
        "path": "model",
        "model_calls": 1,
        "evaluated_tokens": 21,
        "prompt_tokens": 370,
        "output_tokens": 9,
    }
    trace.understanding = {"prompt_tokens": 370, "output_tokens": 9}  # no KV cache: every prompt token evaluated
    assert turn_costs(trace)["evaluated_tokens"] == 370
    trace.understanding = {}
    assert turn_costs(trace)["evaluated_tokens"] is None  # a model call whose cost is not reported


# ------------------------------------------------------------ the plugin


def _plugin_args() -> list[str]:
    """Load the plugin explicitly only when its entry point is not installed (fsmdial not pip-installed)."""
    if os.environ.get("PYTEST_DISABLE_PLUGIN_AUTOLOAD"):
        return ["-p", "fsmdial.testing.pytest_plugin", "-p", "pytest_benchmark.plugin"]
    installed = any(
        ep.value == "fsmdial.testing.pytest_plugin" for ep in importlib.metadata.entry_points(group="pytest11")
    )
    return [] if installed else ["-p", "fsmdial.testing.pytest_plugin"]


@pytest.fixture
def app(pytester: pytest.Pytester) -> pytest.Pytester:
    """A throw-away application: a flow, a CHIEF flow, and a conftest giving its tools."""
    pytester.makefile(".json", coffee=json.dumps(COFFEE), tea_chief=json.dumps(CHIEF_TEA))
    pytester.makeconftest(
        """
        import pytest

        class Machine:
            def __init__(self):
                self.calls = []

            def brew(self, drink: str = "tea", cups: int = 1) -> dict:
                self.calls.append((drink, cups))
                return {"ticket": len(self.calls)}

        @pytest.fixture
        def machine():
            return Machine()

        @pytest.fixture
        def fsmdial_tools(machine):
            return {"brew": machine.brew}
        """
    )
    return pytester


# Unrelated plugins off: hypothesis' re-imports its engine in every in-process run (~1 s each).
QUIET = ("-p", "no:cacheprovider", "-p", "no:hypothesispytest", "-p", "no:anyio")


def run(pytester: pytest.Pytester, *args: str) -> pytest.RunResult:
    return pytester.runpytest(*QUIET, *_plugin_args(), *args)


def test_fixtures_load_flows_build_dialogues_and_check_a_conversation(app: pytest.Pytester):
    app.makepyfile(
        test_app="""
        import datetime as dt
        from fsmdial.understand.rules import RulesUnderstander

        def test_flow_is_compiled_once(fsmdial_flow):
            cls = fsmdial_flow("coffee.json")
            assert cls.FLOW.name == "coffee" and fsmdial_flow("coffee.json") is cls

        def test_chief_flow(fsmdial_flow, fsmdial_dialogue, fsmdial_conversation, machine):
            cls = fsmdial_flow("tea_chief.json", format="chief")
            assert [n.id for n in cls.FLOW.nodes] == ["1", "2", "3", "4"]
            talk = fsmdial_conversation(fsmdial_dialogue(cls))
            talk.start(acts=["ask_cups"])
            talk.say("3", tool_calls=[{"tool": "brew", "arguments": {"cups": 3}}], messages=["Tea is coming."])
            assert machine.calls == [("tea", 3)]

        def test_conversation(fsmdial_dialogue, fsmdial_conversation, fsmdial_clock, machine):
            fsmdial_clock.set("2025-03-01T09:00")
            dialogue = fsmdial_dialogue("coffee.json")
            assert isinstance(dialogue.understander, RulesUnderstander)
            assert dialogue.clock() == dt.datetime(2025, 3, 1, 9, 0)
            fsmdial_conversation(dialogue).run([
                {"user": None, "acts": ["ask_drink"]},
                {"user": "one espresso", "acts": ["ask_day"], "slots": {"drink": "espresso", "cups": 1}},
                {"user": "tomorrow", "acts": ["confirm"], "slots": {"day": "2025-03-02"}},
                {
                    "user": "yes",
                    "acts": ["ready", "bye"],
                    "tool_calls": [{"tool": "brew", "arguments": {"drink": "espresso", "cups": 1}}],
                    "ended": True,
                },
            ])
            assert machine.calls == [("espresso", 1)]

        def test_tools_can_be_given_per_dialogue(fsmdial_dialogue, fsmdial_conversation, machine):
            seen = []
            dialogue = fsmdial_dialogue(
                "coffee.json", tools={"brew": lambda drink, cups: seen.append(cups) or {"ticket": 7}}
            )
            fsmdial_conversation(dialogue).run(
                [{"user": None}, "two cups of tea", "today", {"user": "yes", "messages": ["Your ticket is 7.", "Bye."]}]
            )
            assert seen == [2] and machine.calls == []
        """
    )
    result = run(app)
    result.assert_outcomes(passed=4)
    result.stdout.fnmatch_lines(["fsmdial: understander rules"])


def test_a_deliberately_wrong_expectation_fails_readably(app: pytest.Pytester):
    app.makepyfile(
        test_wrong="""
        def test_wrong_quantity(fsmdial_dialogue, fsmdial_conversation):
            talk = fsmdial_conversation(fsmdial_dialogue("coffee.json"))
            talk.run([
                {"user": None, "acts": ["ask_drink"]},
                {"user": "three cups of latte", "acts": ["ask_cups"], "slots": {"cups": 2}},
            ])
        """
    )
    result = run(app)
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        [
            "E *ConversationMismatch: turn 2 of 2: user said 'three cups of latte'",
            "E *  acts differ (act 1: name 'ask_day' is not 'ask_cups')",
            "E *    expected: ask_cups",
            "E *    actual:   ask:ask_day",
            "E *  slot cups: expected 2, got 3",
            "E *bot replied (now at node order):",
            "E *  ask      ask_day * 'For which day?'",
            "E *slots now: drink='latte', cups=3",
            "E *trace of turn 2:",
            "E *  understood (rules): slots drink='latte', cups=3",
            "E *  slots changed: drink: unset -> 'latte'; cups: unset -> 3",
            "E *  nodes entered: (none)",
            "E *earlier turns:",
            "E *  1. (opening) -> ask_drink",
            "FAILED test_wrong.py::test_wrong_quantity - *ConversationMis*",
        ]
    )
    output = result.stdout.str()
    assert "fsmdial/testing/" not in output  # the traceback stops at the test's own line
    for wall in ("Act(", "TurnTrace(", "ToolCall(", "TurnResult("):
        assert wall not in output


def test_command_line_options(app: pytest.Pytester):
    help_text = run(app, "--help")
    help_text.stdout.fnmatch_lines(
        ["fsmdial flow tests:", "*--fsmdial-model=PATH*", "*--fsmdial-backend=*llamacpp,outlines*"]
    )
    missing = run(app, "--fsmdial-model", "nowhere.gguf")
    assert missing.ret == pytest.ExitCode.USAGE_ERROR
    missing.stderr.fnmatch_lines(["*--fsmdial-model: no model file at *nowhere.gguf"])
    bogus = run(app, "--fsmdial-backend", "bogus")
    assert bogus.ret == pytest.ExitCode.USAGE_ERROR
    bogus.stderr.fnmatch_lines(["*--fsmdial-backend: invalid choice: 'bogus'*"])


FAKE_GGUF = """
import sys, types
import pytest
from fsmdial.understand.rules import RulesUnderstander

loaded = []

class FakeGGUF(RulesUnderstander):
    # Stands in for fsmdial.understand.model.gguf.GGUFUnderstander: rules, reporting model costs.
    def __init__(self, model_path, backend=None):
        if POISONED:
            raise AssertionError("the GGUF understander must not be built when no model is asked for")
        loaded.append((model_path, backend))
        self.backend = backend or "fake"

    def understand(self, state, text, **kwargs):
        parse = super().understand(state, text, **kwargs)
        parse.path, parse.model_calls = "model", 1
        parse.info = {
            "backend": "fake",
            "prompt_tokens": 400 + len(text),
            "evaluated_tokens": len(text),
            "output_tokens": 12,
        }
        return parse

module = types.ModuleType("fsmdial.understand.model.gguf")
module.GGUFUnderstander = FakeGGUF
module.loaded = loaded
sys.modules["fsmdial.understand.model.gguf"] = module

@pytest.fixture
def fsmdial_tools():
    return {"brew": lambda drink, cups: {"ticket": 1}}
"""


def test_a_model_is_loaded_lazily_once_and_only_when_asked(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.delenv("FSMDIAL_MODEL", raising=False)
    monkeypatch.delenv("FSMDIAL_BACKEND", raising=False)
    pytester.makefile(".json", coffee=json.dumps(COFFEE))
    model = pytester.path / "models" / "tiny.gguf"
    model.parent.mkdir()
    model.write_bytes(b"GGUF stand-in")
    pytester.makeconftest("POISONED = True\n" + FAKE_GGUF)
    pytester.makepyfile(
        test_rules="""
        from fsmdial.understand.rules import RulesUnderstander

        import pytest

        def test_rules_without_a_model(fsmdial_dialogue, fsmdial_config):
            assert fsmdial_config.model is None
            assert type(fsmdial_dialogue("coffee.json").understander) is RulesUnderstander

        def test_asking_for_the_model_needs_one(fsmdial_dialogue):
            with pytest.raises(pytest.fail.Exception, match=r"needs --fsmdial-model PATH or \\$FSMDIAL_MODEL"):
                fsmdial_dialogue("coffee.json", understander="model")
        """
    )
    run(pytester).assert_outcomes(passed=2)

    pytester.makeconftest("POISONED = False\n" + FAKE_GGUF)
    pytester.makepyfile(
        test_rules=None,
        test_model="""
        import sys
        from pathlib import Path
        from fsmdial.understand.rules import RulesUnderstander

        def test_configured_model(fsmdial_dialogue, fsmdial_config, fsmdial_conversation):
            loaded = sys.modules["fsmdial.understand.model.gguf"].loaded
            first = fsmdial_dialogue("coffee.json")
            second = fsmdial_dialogue("coffee.json")
            assert first.understander is second.understander  # loaded once, shared
            assert [(Path(p).name, b) for p, b in loaded] == [("tiny.gguf", fsmdial_config.backend)]
            assert type(fsmdial_dialogue("coffee.json", understander="rules").understander) is RulesUnderstander
            assert fsmdial_dialogue("coffee.json", understander="model").understander is first.understander
            result = fsmdial_conversation(first).run([{"user": None}, "two cups of tea"])[-1]
            assert result.trace.path == "model" and result.trace.model_calls == 1

        def test_model_given_by_the_test(fsmdial_dialogue):
            loaded = sys.modules["fsmdial.understand.model.gguf"].loaded
            fsmdial_dialogue("coffee.json", model="models/tiny.gguf", backend="llamacpp")
            assert loaded[-1][1] == "llamacpp"
        """,
    )
    run(pytester, "--fsmdial-model", "models/tiny.gguf", "--fsmdial-backend", "outlines").assert_outcomes(passed=2)

    monkeypatch.setenv("FSMDIAL_MODEL", str(model))
    result = run(pytester, "-k", "configured")
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines([f"fsmdial: understander gguf model {model}"])

    monkeypatch.setenv("FSMDIAL_MODEL", str(pytester.path / "gone.gguf"))
    result = run(pytester, "-k", "configured")
    result.assert_outcomes(errors=0, failed=1)
    result.stdout.fnmatch_lines(["*fsmdial: no model file at *gone.gguf (given by $FSMDIAL_MODEL)*"])


def test_importing_the_plugin_loads_no_model_code():
    code = (
        "import sys, fsmdial.testing.pytest_plugin; "
        "print(sorted(m for m in sys.modules "
        "if m.startswith(('fsmdial.understand.model.gguf', 'llama_cpp', 'outlines'))))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_benchmarks_time_turns_from_a_restored_state_and_record_model_costs(pytester: pytest.Pytester):
    pytester.makefile(".json", coffee=json.dumps(COFFEE))
    pytester.makeconftest("POISONED = False\n" + FAKE_GGUF)
    pytester.makepyfile(
        test_bench="""
        import sys
        brews = []

        def tools():
            return {"brew": lambda drink, cups: brews.append((drink, cups)) or {"ticket": len(brews)}}

        SCRIPT = [
            {"user": None, "acts": ["ask_drink"]},
            {"user": "two cups of tea", "acts": ["ask_day"]},
            {"user": "tomorrow", "acts": ["confirm"]},
            {"user": "yes", "acts": ["ready", "bye"], "tool_calls": ["brew"], "ended": True},
        ]

        def test_one_turn(fsmdial_bench, fsmdial_dialogue, fsmdial_conversation):
            dialogue = fsmdial_dialogue("coffee.json", tools=tools(), understander="rules")
            fsmdial_conversation(dialogue).run(SCRIPT[:3])
            turns_before = dialogue.turns
            result = fsmdial_bench.turn(dialogue, "yes", expect={"acts": ["ready", "bye"]}, rounds=7, warmup_rounds=2)
            assert result.act_names == ["ready", "bye"] and result.trace.turn == turns_before + 1
            # every run starts from the same state: the check, then the warm-up and timed rounds (one run if disabled)
            runs = 1 + (1 if fsmdial_bench.benchmark.disabled else 2 + 7)
            assert brews == [("tea", 2)] * runs

        def test_whole_conversation(fsmdial_bench, fsmdial_dialogue):
            dialogue = fsmdial_dialogue("coffee.json", model="m.gguf", tools=tools())
            results = fsmdial_bench.conversation(dialogue, SCRIPT, rounds=3)
            assert [r.trace.turn for r in results] == [1, 2, 3, 4]

        def test_not_a_benchmark():
            pass
        """
    )
    (pytester.path / "m.gguf").write_bytes(b"GGUF stand-in")
    out = pytester.path / "bench.json"
    result = run(pytester, "--benchmark-only", f"--benchmark-json={out}")
    result.assert_outcomes(passed=2, skipped=1)
    benches = {b["name"]: b for b in json.loads(out.read_text())["benchmarks"]}
    turn = benches["test_one_turn"]
    assert turn["stats"]["rounds"] == 7
    assert turn["extra_info"]["fsmdial"] == "turn" and turn["extra_info"]["text"] == "yes"
    assert turn["extra_info"]["model_calls_per_turn"] == [0] and turn["extra_info"]["paths"] == ["rules"]
    whole = benches["test_whole_conversation"]["extra_info"]
    assert benches["test_whole_conversation"]["stats"]["rounds"] == 3
    assert (
        whole["understander"] == "FakeGGUF"
        and whole["backend"] == "fake"
        and whole["flow"] == "coffee"
        and whole["turns"] == 4
    )
    assert whole["paths"] == ["start", "model", "model", "model"]
    assert whole["model_calls_per_turn"] == [0, 1, 1, 1] and whole["model_calls"] == 3
    assert whole["evaluated_tokens_per_turn"] == [0, 15, 8, 3] and whole["evaluated_tokens"] == 26
    assert whole["prompt_tokens_per_turn"] == [0, 415, 408, 403] and whole["prompt_tokens"] == 1226
    assert whole["output_tokens_per_turn"] == [0, 12, 12, 12] and whole["output_tokens"] == 36

    run(pytester, "--benchmark-disable").assert_outcomes(passed=3)  # CI's quick mode: each benchmark once, untimed


@pytest.mark.model
def test_the_tiny_model_drives_a_benchmarked_conversation(pytester: pytest.Pytester):
    pytest.importorskip("fsmdial.understand.model.gguf", reason="the GGUF understander is not available")
    from fsmdial.testing.tiny_model import ensure_tiny_model

    model = ensure_tiny_model()
    pytester.makefile(".json", coffee=json.dumps(COFFEE))
    pytester.makepyfile(
        test_tiny="""
        def test_order(fsmdial_bench, fsmdial_dialogue):
            dialogue = fsmdial_dialogue("coffee.json", tools={"brew": lambda drink, cups: {"ticket": 1}})
            # The tiny model's weights are random: time the plumbing, do not check its replies.
            results = fsmdial_bench.conversation(
                dialogue, [None, "two cups, a lattino please", "tomorrow", "yes"], check=False, rounds=2
            )
            assert len(results) == 4 and type(dialogue.understander).__name__ == "GGUFUnderstander"
        """
    )
    out = pytester.path / "bench.json"
    result = run(pytester, "--fsmdial-model", str(model), f"--benchmark-json={out}")
    result.assert_outcomes(passed=1)
    info = json.loads(out.read_text())["benchmarks"][0]["extra_info"]
    assert info["understander"] == "GGUFUnderstander" and info["paths"][0] == "start"
    # The rules read "two" for sure; "a lattino" is no typo of a drink the rules read, but it starts as "latte" does
    # and is two letters longer (a typo the offer allows): the model is offered "latte" and may write it, one call
    # ("the milky one" names no drink at all: beside the rules no model is asked to guess one).
    assert info["model_calls_per_turn"][:2] == [0, 1]
    assert info["model_calls"] == sum(info["model_calls_per_turn"])
