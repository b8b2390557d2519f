"""A turn's acts and trace as short readable lines, for failure messages."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from .expectations import shortened, show_args, show_call

if TYPE_CHECKING:
    from ..trace import Act, TurnTrace

__all__ = ["format_acts", "format_trace"]


def format_acts(acts: Iterable[Act], indent: str = "  ") -> str:
    """The bot's acts, one a line: kind, name, and the text said."""
    lines = [
        f"{indent}{a.kind:<8} {a.name:<24} {a.text!r}" if a.text else f"{indent}{a.kind:<8} {a.name}" for a in acts
    ]
    return "\n".join(lines) or f"{indent}(no acts)"


def format_trace(trace: TurnTrace, indent: str = "  ") -> str:
    """A turn's trace as short readable lines (no timings: they differ from run to run)."""
    lines: list[str] = []
    if trace.parse is not None:
        lines.append(f"understood ({trace.path or '?'}): {_show_parse(trace.parse)}")
    if trace.model_calls or trace.understanding:
        costs = ", ".join(f"{k}={shortened(v, 40)}" for k, v in trace.understanding.items())
        lines.append(f"model calls: {trace.model_calls}" + (f" ({costs})" if costs else ""))
    if trace.invalid:
        rejected = "; ".join(
            f"{i.get('slot')}={shortened(i.get('value'), 40)} ({i.get('reason')})" for i in trace.invalid
        )
        lines.append(f"rejected: {rejected}")
    if trace.slot_changes:
        changes = "; ".join(
            f"{c.get('slot')}: {'unset' if c.get('old') is None else shortened(c.get('old'), 40)} "
            f"-> {shortened(c.get('new'), 40)}"
            for c in trace.slot_changes
        )
        lines.append(f"slots changed: {changes}")
    if trace.reset:
        lines.append(f"reset: {', '.join(trace.reset)}")
    lines.append(f"nodes entered: {' -> '.join(trace.nodes) if trace.nodes else '(none)'}")
    if trace.conditions:
        lines.append(
            "conditions: " + ", ".join(f"{c.get('edge')}={str(c.get('outcome')).lower()}" for c in trace.conditions)
        )
    lines.append("tool calls: " + ("; ".join(show_call(c) for c in trace.tool_calls) if trace.tool_calls else "(none)"))
    lines.extend(f"note: {note}" for note in trace.notes)
    return "\n".join(indent + line for line in lines)


def _show_parse(parse: Mapping[str, Any]) -> str:
    parts = []
    if parse.get("intent") is not None:
        parts.append(f"intent {parse['intent']}")
    if parse.get("slots"):
        parts.append("slots " + show_args(parse["slots"]))
    if parse.get("answer") is not None:
        parts.append(f"answer {parse['answer']}")
    for key, value in parse.items():
        if key not in ("intent", "slots", "answer") and value is not None:
            parts.append(f"{key} {shortened(value, 40)}")
    return "; ".join(parts) or "nothing"
