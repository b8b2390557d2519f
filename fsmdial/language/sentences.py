"""The engine's own English sentences, used where a flow gives no text of its own.

A flow overrides each of them: a slot's ``ask`` replaces :func:`ask`, a field's
``confirm`` text replaces :func:`confirm_value`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def ask(readable: str) -> str:
    """The question for a slot that has no ``ask`` text."""
    return f"Could you tell me the {readable}?"


def confirm_value(readable: str, value: Any) -> str:
    """The yes/no question for a slot value that must be confirmed."""
    return f"Just to confirm: the {readable} is {value}, right?"


def invalid_value(readable: str, reason: str) -> str:
    """A value the slot rejects."""
    return f"Sorry, that is not a valid {readable}: {reason}."


def changed(corrections: Sequence[tuple[str, Any]]) -> str:
    """A correction acknowledged: ``(readable slot name, new value)`` for each slot changed."""
    said = " and ".join(f"the {readable} to {value}" for readable, value in corrections)
    return f"OK, I changed {said}."
