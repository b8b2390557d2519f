"""``Conversation``: what a caller (the playground's sessions, an application) talks to.

Both a :class:`~fsmdial.runtime.Dialogue` (one flow) and an :class:`~fsmdial.assistant.Assistant` (several
flows, one active at a time) are one: type a conversation that may be either with this protocol, and ask
``isinstance(conversation, Dialogue)`` only for what a single flow has (its ``flow``, its ``session``).
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from .trace import TurnResult

__all__ = ["Conversation"]


@runtime_checkable
class Conversation(Protocol):
    """Turns in, replies out, and the whole state as snapshot bytes."""

    @property
    def ended(self) -> bool:
        """Whether the conversation is over (a later turn only says so)."""
        ...

    @property
    def node(self) -> str:
        """Where the conversation is: the (active flow's) node."""
        ...

    @property
    def slots(self) -> dict[str, Any]:
        """The (active flow's) slot values, a copy."""
        ...

    def start(self) -> TurnResult:
        """The bot's opening."""
        ...

    def turn(self, text: str) -> TurnResult:
        """One user turn: all or nothing (a failed turn raises a typed error and changes nothing)."""
        ...

    def snapshot(self) -> bytes:
        """Everything the conversation holds, as bytes :meth:`load_snapshot` takes back."""
        ...

    def load_snapshot(self, snapshot: bytes | str) -> None:
        """Continue from ``snapshot``: all or nothing (a bad snapshot is a SnapshotError and nothing changes)."""
        ...
