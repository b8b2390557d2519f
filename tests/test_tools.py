"""fsmdial.tools: timeouts that do not starve other calls, and tools that get and give copies."""

from __future__ import annotations

import copy
import datetime as dt
import math
import subprocess
import sys
import textwrap
import threading
from typing import Any

import pytest

from fsmdial.errors import ToolError, ToolTimeout, TurnError
from fsmdial.flow import ExternalActionNode
from fsmdial.loader import load_flow
from fsmdial.runtime import Dialogue
from fsmdial.tools import Tool, ToolRegistry, call_tool, check_result
from tests.flows import small_flow
from tests.reliability_support import ROOT, clock, drive, flow


def test_hung_tools_do_not_starve_other_calls() -> None:
    release = threading.Event()
    hung = Tool("hung", lambda: release.wait(30))
    quick = Tool("quick", lambda: {"ok": True})
    try:
        for _ in range(12):
            with pytest.raises(ToolTimeout):
                call_tool(hung, {}, timeout=0.05)
        # A quick tool still runs (it would time out if the hung calls had taken every worker).
        assert call_tool(quick, {}, timeout=5) == {"ok": True}
    finally:
        release.set()


def test_a_hung_tool_does_not_keep_the_process_alive() -> None:
    script = textwrap.dedent(
        """
        import time
        from fsmdial.errors import ToolTimeout
        from fsmdial.tools import Tool, call_tool
        try:
            call_tool(Tool("sleepy", lambda: time.sleep(120)), {}, timeout=0.1)
        except ToolTimeout:
            print("timed out")
        """
    )
    # The process exits well before the tool's 120 s sleep ends (subprocess's timeout fails the test otherwise).
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert run.stdout.strip() == "timed out"


@pytest.mark.parametrize("timeout", [None, 5.0])
def test_tools_get_copies_of_their_arguments(timeout: float | None) -> None:
    def greedy(**kwargs: Any) -> dict[str, Any]:
        kwargs["items"].append("stolen")
        kwargs["nested"]["inner"].clear()
        return {"items": kwargs["items"]}

    arguments = {"items": ["a"], "nested": {"inner": [1, 2]}}
    snapshot = copy.deepcopy(arguments)
    result = call_tool(Tool("greedy", greedy), arguments, timeout=timeout)
    assert arguments == snapshot
    assert result == {"items": ["a", "stolen"]}


def test_flow_constants_are_never_changed_by_a_tool() -> None:
    from fsmdial.runtime import Dialogue

    def greedy(**kwargs: Any) -> dict[str, Any]:
        kwargs["tags"].append("stolen")
        return {}

    doc = small_flow()
    doc["nodes"].insert(
        1, {"id": "act", "type": "external_action", "tool": "greedy", "arguments": {"tags": {"value": ["x"]}}}
    )
    doc["edges"] = [{"source": "ask", "target": "act"}, {"source": "act", "target": "done"}]
    flow = load_flow(doc)
    for _ in range(2):
        dialogue = Dialogue(flow, tools={"greedy": greedy})
        dialogue.start()
        dialogue.turn("3")
    action = flow.node("act")
    assert isinstance(action, ExternalActionNode) and action.arguments is not None
    assert action.arguments["tags"].value == ["x"]  # type: ignore[union-attr]


def test_results_are_copied_from_the_tool() -> None:
    node = ExternalActionNode(id="act", type="external_action", tool="t", result={"items": "list"})
    kept = {"items": [1]}
    result = check_result(node, kept)
    kept["items"].append(2)
    assert result == {"items": [1]}


RIDE = flow(ROOT / "flows" / "ride_change.json")


@pytest.mark.parametrize("bad", [math.nan, math.inf, -math.inf])
def test_a_non_finite_tool_result_is_a_tool_error(bad: float) -> None:
    node = next(n for n in RIDE.nodes if n.id == "change_ride")
    with pytest.raises(ToolError, match=r"message|nested\[1\]"):
        check_result(node, {"changed": True, "message": "ok", "nested": [1.0, bad]} | {"message": bad})
    registry = ToolRegistry()
    registry.register("change_ride", lambda **_: {"changed": True, "message": bad})
    dialogue = Dialogue(RIDE, tools=registry, clock=clock)
    shown: list[str] = []
    try:
        for _, result in drive(dialogue, 6):
            shown += [act.text for act in result.acts]
    except TurnError as exc:
        assert isinstance(exc, ToolError) and "finite" in str(exc)
    assert not any(("nan" in text or "inf" in text) for text in shown)
    resumed = Dialogue.restore(RIDE, dialogue.snapshot(), tools=registry, clock=clock)
    assert resumed.session == dialogue.session  # what was said live is what a resumed session holds


# ------------------------------------------------------------------
# issue 22 #16: only a declared failure takes the failure edge


class NoFreeSlot(Exception):
    """A business failure the test tool declares."""


def _ride_with(tool, **register):
    from fsmdial.loader import load_flow
    from fsmdial.runtime import Dialogue
    from fsmdial.tools import ToolRegistry
    from tests.serve_support import RIDE

    registry = ToolRegistry()
    registry.register("change_ride", tool, **register)
    dialogue = Dialogue(load_flow(RIDE), tools=registry, clock=lambda: dt.datetime(2026, 11, 22, 12, 0))
    dialogue.start()
    for text in ("Ann", "17"):
        dialogue.turn(text)
    return dialogue


def test_a_programming_error_inside_a_tool_fails_the_turn_and_is_logged(caplog):
    from fsmdial.errors import ToolCrashed, TurnError

    def change_ride(ride_id: int, change_description: str) -> dict:
        return {"changed": ride_id.startswith("1")}  # a bug: ride_id is an int

    dialogue = _ride_with(change_ride)
    before = dialogue.snapshot()
    with pytest.raises(ToolCrashed, match="AttributeError") as caught:
        dialogue.turn("new time")
    assert isinstance(caught.value, TurnError) and isinstance(caught.value.__cause__, AttributeError)
    assert dialogue.snapshot() == before  # not the flow's failure edge: the session is as it was
    assert "change_ride" in caplog.text and "AttributeError" in caplog.text


@pytest.mark.parametrize("declared", ["ToolFailure", "failures="])
def test_a_declared_business_failure_takes_the_failure_edge(declared):
    from fsmdial.errors import ToolFailure

    if declared == "ToolFailure":

        def change_ride(ride_id: int, change_description: str) -> dict:
            raise ToolFailure("no free driver at that time")

        dialogue = _ride_with(change_ride)
    else:

        def change_ride(ride_id: int, change_description: str) -> dict:
            raise NoFreeSlot("no free driver at that time")

        dialogue = _ride_with(change_ride, failures=(NoFreeSlot,))
    result = dialogue.turn("new time")
    assert result.act_names == ["ride_inform_changes_failed", "anything_else"]
    assert result.tool_calls[0].status == "failure" and "no free driver" in result.tool_calls[0].error
