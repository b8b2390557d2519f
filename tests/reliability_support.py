"""Shared by the reliability tests (store, crash, faults, fuzzing, hostile input) and tests/store_child.py.

* the example flows (``flows/*.json``) and, for each, spy tools whose argument
  models come from the flow's slot types, and a generic driver that answers
  whatever the bot asks with a valid value;
* the counts: small by default (CI), the full counts with ``FSMDIAL_FULL=1``;
* ``record()``: with ``FSMDIAL_FIGURES=<file>`` the tests append the figures
  they measured (cases tried, crashes, committed turns lost) as JSON lines,
  which is where the numbers in RELIABILITY.md come from.
"""

from __future__ import annotations

import datetime as dt
import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson
from hypothesis import HealthCheck
from pydantic import ConfigDict, Field, create_model

from fsmdial.flow import (
    ExternalActionNode,
    FieldType,
    Flow,
    RequestNode,
    SlotArg,
    SlotType,
    ValueArg,
)
from fsmdial.loader import load_flow
from fsmdial.slots import NUMBER_TYPES, TEXT_TYPES
from fsmdial.testing import FrozenClock
from fsmdial.tools import ToolRegistry
from fsmdial.understand.rules import RulesUnderstander
from fsmdial.values import coerce

ROOT = Path(__file__).resolve().parents[1]
FLOW_PATHS = sorted((ROOT / "flows").glob("*.json"))
FULL = os.environ.get("FSMDIAL_FULL") == "1"
CLOCK_NOW = dt.datetime(2024, 5, 14, 12, 0)

# hypothesis settings of the fuzz tests: no deadline (shared cores), no health checks, fresh examples each run
FUZZ_SETTINGS: dict[str, Any] = {"deadline": None, "suppress_health_check": list(HealthCheck), "derandomize": False}


clock = FrozenClock(CLOCK_NOW)
"""The reliability tests' clock (module level: store_child.py runs it in a child process); nothing sets it."""


class AskedTextVerbatim(RulesUnderstander):
    """The rules, but a text or name slot asked for takes the text as typed when the rules read nothing from it.

    Since issue 20 the rules refuse "{ride_id}", escape codes or markup as a person's name; the tests using this
    are about what happens to such a value once it is stored (kept as data, never formatted, never markup).
    """

    def understand(self, state: Any, text: str, **kwargs: Any) -> Any:
        parse = super().understand(state, text, **kwargs)
        asked = state.slot(state.asked) if state.asked else None
        if (
            asked is not None
            and asked.type in (SlotType.string, SlotType.text, SlotType.person_name)
            and not parse.slots
        ):
            parse.slots[asked.name] = text
        return parse


def count(ci: int, full: int) -> int:
    """``full`` under ``FSMDIAL_FULL=1``, else ``ci``."""
    return full if FULL else ci


def record(test: str, **figures: Any) -> None:
    """Append measured figures to ``$FSMDIAL_FIGURES`` (a JSON-lines file), if set."""
    target = os.environ.get("FSMDIAL_FIGURES")
    if not target:
        return
    line = {"test": test, "full": FULL, "at": time.strftime("%Y-%m-%d %H:%M:%S"), **figures}
    with open(target, "ab") as out:
        out.write(orjson.dumps(line) + b"\n")


# ------------------------------------------------------------------ tools

DANGEROUS_TOOLS = ("refund", "delete_account", "transfer_money", "system")
"""Registered next to the flow's tools; no flow reaches them, so they must never run."""

_PY_TYPES = {
    **{kind: str for kind in TEXT_TYPES},
    SlotType.integer: int,
    SlotType.number: float,
    SlotType.money: float,
    SlotType.duration: float,
    SlotType.boolean: bool,
    SlotType.categorical: str,
    SlotType.date: str,
    SlotType.time: str,
}
_PLACEHOLDER = {
    FieldType.string: "ok",
    FieldType.integer: 1,
    FieldType.number: 1.0,
    FieldType.boolean: True,
    FieldType.list: [],
    FieldType.object: {},
    FieldType.any: "ok",
}


class SpyTools:
    """Tools for every action of ``flow`` that record each call, plus :data:`DANGEROUS_TOOLS`.

    Each tool's argument model is strict and built from the flow's slot types
    and bounds, so a recorded call is one whose arguments passed that model.
    """

    def __init__(self, flow: Flow, result: dict[str, dict[str, Any]] | None = None):
        self.flow = flow
        self.calls: list[tuple[str, dict[str, Any]]] = []
        self.forbidden: list[tuple[str, dict[str, Any]]] = []
        self.models: dict[str, Any] = {}
        self.registry = ToolRegistry()
        slots = flow.slots()
        for node in flow.nodes:
            if not isinstance(node, ExternalActionNode) or node.tool in self.models:
                continue
            fields: dict[str, Any] = {}
            for arg, source in flow.action_arguments(node).items():
                if isinstance(source, (str, SlotArg)):
                    slot = slots[source if isinstance(source, str) else source.slot]
                    bounds = {"ge": slot.minimum, "le": slot.maximum} if slot.type in NUMBER_TYPES else {}
                    limit = {"max_length": slot.string_limit} if slot.type in TEXT_TYPES else {}
                    # Optional: a slot asked on another branch (or not required) is not passed at all.
                    constraints = {k: v for k, v in {**bounds, **limit}.items() if v is not None}
                    fields[arg] = (_PY_TYPES[slot.type] | None, Field(None, strict=True, **constraints))
                elif isinstance(source, ValueArg):
                    fields[arg] = (Any, source.value)
                else:
                    fields[arg] = (Any, None)
            model = create_model(f"{node.tool}_args", __config__=ConfigDict(extra="forbid"), **fields)
            self.models[node.tool] = model
            value = (result or {}).get(node.tool) or {name: _PLACEHOLDER[f.type] for name, f in node.result.items()}
            self.registry.register(node.tool, self._spy(node.tool, value), arguments=model)
        for name in DANGEROUS_TOOLS:
            if name not in self.models:
                self.registry.register(name, self._forbidden(name))

    def _spy(self, name: str, value: dict[str, Any]):
        def tool(**arguments: Any) -> dict[str, Any]:
            self.calls.append((name, dict(arguments)))
            return dict(value)

        return tool

    def _forbidden(self, name: str):
        def tool(**arguments: Any) -> dict[str, Any]:
            self.forbidden.append((name, dict(arguments)))
            return {}

        return tool


# ------------------------------------------------------------ conversations


def answer_for(slot: Any) -> str:
    """A user utterance giving a valid value for ``slot``."""
    for example in slot.examples:
        try:
            coerce(slot, example, CLOCK_NOW)
        except ValueError:
            continue
        return str(example)
    if slot.type is SlotType.categorical:
        return slot.values[0]
    if slot.type in NUMBER_TYPES:
        low = slot.minimum if slot.minimum is not None else 1
        return str(int(low) if float(low).is_integer() else low)
    if slot.type in TEXT_TYPES:
        for candidate in ("something", "1234", "ABC123", "jane@example.com", "07700 900123"):
            try:
                coerce(slot, candidate, CLOCK_NOW)
            except ValueError:
                continue
            return candidate
    return {
        SlotType.boolean: "yes",
        SlotType.date: "tomorrow",
        SlotType.time: "7pm",
    }.get(slot.type, "something")


def next_utterance(dialogue: Any, result: Any) -> str:
    """What a cooperative user says to the bot's last acts."""
    for act in reversed(result.acts if result is not None else ()):
        if act.kind == "ask" and act.slot:
            return answer_for(dialogue.flow.slots()[act.slot])
        if act.kind == "confirm":
            return "yes"
    node = dialogue.flow.node(dialogue.node)
    if isinstance(node, RequestNode):
        missing = node.missing(dialogue.machine.slots)
        if missing:
            return answer_for(missing[0])
    return "yes"


def drive(dialogue: Any, turns: int = 12) -> Iterator[tuple[str, Any]]:
    """Start ``dialogue`` and answer cooperatively: yields ``(text, result)``, ``text=None`` for the start."""
    result = dialogue.start() if dialogue.turns == 0 else None
    if result is not None:
        yield None, result
    for _ in range(turns):
        if dialogue.ended:
            return
        text = next_utterance(dialogue, result)
        result = dialogue.turn(text)
        yield text, result


def flow(path: Path | str) -> Flow:
    return load_flow(path)


# ------------------------------------------------------------------ figures

_SUMMARY = {
    "crash": (
        "SIGKILL crash test",
        "kills",
        ["commits_reported", "sessions", "committed_unreported_at_kill", "integrity_failures", "lost"],
    ),
    "fuzz_flows_mutated": (
        "flow loader: mutated example flows",
        "cases",
        ["valid", "flow_error", "turn_ok", "unexpected_exceptions"],
    ),
    "fuzz_flows_generated": (
        "flow loader: generated flows",
        "cases",
        ["valid", "flow_error", "turn_ok", "turn_error", "unexpected_exceptions"],
    ),
    "fuzz_flows_random": ("flow loader: arbitrary JSON and bytes", "cases", ["flow_error", "unexpected_exceptions"]),
    "fuzz_snapshots": ("snapshot documents: mutated", "cases", ["refused", "loaded", "turn_ok", "turn_error"]),
    "fuzz_input": ("user input", "cases", ["turns", "cut", "unhandled_exceptions", "slowest_turn_ms"]),
    "hostile_rules": (
        "prompt injection, rules understander",
        "conversations",
        ["turns", "tool_calls", "gated_checked", "violations"],
    ),
    "hostile_gguf": (
        "prompt injection, tiny GGUF understander",
        "conversations",
        ["turns", "tool_calls", "gated_checked", "violations"],
    ),
}


def summarize(path: str) -> str:
    """A markdown table of the figures in a ``FSMDIAL_FIGURES`` file (per-flow lines added up)."""
    totals: dict[str, dict[str, Any]] = {}
    for raw in Path(path).read_bytes().splitlines():
        line = orjson.loads(raw)
        into = totals.setdefault(line["test"], {"full": line["full"], "at": line["at"]})
        into["at"] = max(into["at"], line["at"])
        for key, value in line.items():
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                into[key] = max(into.get(key, 0), value) if key.startswith("slowest") else into.get(key, 0) + value
    rows = ["| check | tried | figures |", "|---|---:|---|"]
    for test, (title, tried, keys) in _SUMMARY.items():
        if test in totals:
            got = totals[test]
            figures = ", ".join(f"{key.replace('_', ' ')} {got.get(key, 0):,}" for key in keys)
            rows.append(f"| {title} | {got.get(tried, 0):,} {tried} | {figures} |")
    stamp = max(t["at"] for t in totals.values()) if totals else "?"
    mode = "full counts" if all(t["full"] for t in totals.values()) else "CI counts"
    return f"Run of {stamp} ({mode}):\n\n" + "\n".join(rows)


if __name__ == "__main__":
    import sys

    print(summarize(sys.argv[1]))
