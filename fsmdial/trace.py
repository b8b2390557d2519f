"""What a turn produced: bot acts, tool calls, and the trace of how it got there."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

ActKind = Literal[
    "ask", "inform", "confirm", "global", "fallback", "invalid", "changed", "noted", "end", "ask_change", "greeting"
]
ToolStatus = Literal["success", "failure"]


@dataclass(frozen=True)
class Act:
    """One thing the bot did this turn.

    ``kind`` is one of ``ask`` (a slot question), ``inform``, ``confirm`` (a
    yes/no question), ``global`` (a global action's response), ``fallback``
    (goodbye, out_of_scope, anything_else), ``invalid`` (a rejected value),
    ``changed`` (a correction acknowledged), ``noted`` (values given beside an answer not given, acknowledged
    before the question is asked again), ``ask_change`` (what to change, after
    a "no" to a confirmation), ``greeting`` (an Assistant's opening) or ``end``. ``name`` is the act's
    label (a STAR action label for imported flows).
    """

    kind: ActKind
    name: str
    text: str
    node: str | None = None
    slot: str | None = None

    def to_dict(self) -> dict[str, Any]:
        out = {"kind": self.kind, "name": self.name, "text": self.text}
        if self.node is not None:
            out["node"] = self.node
        if self.slot is not None:
            out["slot"] = self.slot
        return out


@dataclass(frozen=True)
class ToolCall:
    tool: str
    node: str
    arguments: dict[str, Any]
    result: dict[str, Any] | None
    status: ToolStatus
    error: str | None = None

    def to_dict(self) -> dict[str, Any]:
        out = {"tool": self.tool, "node": self.node, "arguments": self.arguments, "status": self.status}
        if self.result is not None:
            out["result"] = self.result
        if self.error is not None:
            out["error"] = self.error
        return out


@dataclass
class TurnTrace:
    """How a turn went: the parse, slot changes, nodes entered, conditions, tool calls, timings."""

    turn: int
    text: str
    parse: dict[str, Any] | None = None
    path: str | None = None
    model_calls: int = 0
    understanding: dict[str, Any] = field(default_factory=dict)
    slot_changes: list[dict[str, Any]] = field(default_factory=list)
    invalid: list[dict[str, Any]] = field(default_factory=list)
    reset: list[str] = field(default_factory=list)
    nodes: list[str] = field(default_factory=list)
    conditions: list[dict[str, Any]] = field(default_factory=list)
    tool_calls: list[ToolCall] = field(default_factory=list)
    repeated_calls: list[ToolCall] = field(default_factory=list)
    """Tool calls not made again (the same arguments as the tool's last call): their earlier outcome was taken."""
    notes: list[str] = field(default_factory=list)
    timings: dict[str, float] = field(default_factory=dict)

    def to_dict(self, *, timings: bool = False) -> dict[str, Any]:
        out: dict[str, Any] = {"turn": self.turn, "text": self.text, "parse": self.parse, "path": self.path}
        if self.model_calls:
            out["model_calls"] = self.model_calls
        if self.understanding:
            out["understanding"] = self.understanding
        for key in ("slot_changes", "invalid", "reset", "nodes", "conditions", "notes"):
            value = getattr(self, key)
            if value:
                out[key] = value
        if self.tool_calls:
            out["tool_calls"] = [call.to_dict() for call in self.tool_calls]
        if self.repeated_calls:
            out["repeated_calls"] = [call.to_dict() for call in self.repeated_calls]
        if timings:
            out["timings_ms"] = {k: round(v * 1000, 3) for k, v in self.timings.items()}
        return out


@dataclass
class TurnResult:
    """The bot's reply to one user turn."""

    acts: list[Act]
    tool_calls: list[ToolCall]
    trace: TurnTrace
    node: str
    ended: bool = False
    route: str | None = None
    """Set when the user asked for another flow (an Assistant's route intent); nothing else happened."""
    flow: str | None = None
    """The flow that answered (set by an Assistant)."""

    @property
    def messages(self) -> list[str]:
        return [act.text for act in self.acts if act.text]

    @property
    def text(self) -> str:
        return "\n".join(self.messages)

    @property
    def act_names(self) -> list[str]:
        return [act.name for act in self.acts]
