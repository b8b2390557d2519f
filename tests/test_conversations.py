"""End-to-end scripted conversations on every example flow, in memory and from compiled source."""

from __future__ import annotations

import pytest

from fsmdial.compiler import compile_flow, emit_source, load_compiled
from fsmdial.loader import load_flow
from fsmdial.runtime import Dialogue
from tests import example_tools
from tests.conftest import FLOWS
from tests.conversations import SCRIPTS


def _flow_class(path, mode, tmp_path):
    flow = load_flow(path)
    if mode == "memory":
        return compile_flow(flow)
    module = tmp_path / f"{flow.name.replace('.', '_')}_compiled.py"
    module.write_text(emit_source(flow))
    return load_compiled(str(module))


def run_script(flow_class, script, clock):
    """Play ``script``: the acts of every turn in order, its tool calls in order with the arguments they name."""
    example_tools.calls.clear()
    dialogue = Dialogue(flow_class, tools=example_tools.registry, clock=clock)
    opening, *turns = script
    assert dialogue.start().act_names == list(opening.acts)
    for turn in turns:
        result = dialogue.turn(turn.user)
        assert result.act_names == list(turn.acts), f"after {turn.user!r}: {result.text}"
        made = [(call.tool, call.arguments) for call in result.tool_calls]
        assert len(made) == len(turn.tool_calls), f"after {turn.user!r}: tool calls {made}"
        for (tool, arguments), expected in zip(made, turn.tool_calls, strict=True):
            assert tool == expected.tool
            for key, value in expected.arguments.items():
                assert arguments.get(key) == value, f"{tool}.{key}"
    return dialogue


@pytest.mark.parametrize("mode", ["memory", "source"])
@pytest.mark.parametrize("name", sorted(SCRIPTS))
def test_scripted_conversation(name, mode, tmp_path, clock):
    path, script = SCRIPTS[name]
    run_script(_flow_class(FLOWS / path, mode, tmp_path), script, clock)


@pytest.mark.parametrize("name", sorted(SCRIPTS))
def test_compiled_source_gives_identical_traces(name, tmp_path, clock):
    path, script = SCRIPTS[name]
    traces = []
    for mode in ("memory", "source"):
        dialogue = Dialogue(_flow_class(FLOWS / path, mode, tmp_path), tools=example_tools.registry, clock=clock)
        dialogue.start()
        traces.append([dialogue.turn(turn.user).trace.to_dict() for turn in script[1:]])
        traces[-1].append(dialogue.snapshot())
    assert traces[0] == traces[1]


def test_every_example_flow_has_a_conversation():
    covered = {path for path, _ in SCRIPTS.values()}
    assert covered == {p.name for p in FLOWS.glob("*.json")}
