"""Understanders for evaluation: the gold-slot ``oracle`` and the teacher-forced view of what was asked.

:class:`OracleUnderstander` gives slot values taken from the dialogue's gold
query constraints (the harness decides when each is revealed: at the first
user turn whose text contains it, otherwise right before the wizard's query).
Intents and yes/no answers still come from the inner (rules) understander; it
is an oracle for the *state*, not for the policy.

:class:`AskedByWizard` tells the inner understander which slot the wizard
actually asked last (teacher forcing), instead of the one the machine would
ask next: a user answering "hello" with "I want to book a table" must not
have that sentence taken as their name.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Sequence
from typing import Any

from fsmdial.understand.base import Parse, Understander, UnderstandingState


class AskedByWizard:
    """Wraps an understander; ``asked`` is set by the harness after each wizard message."""

    def __init__(self, inner: Understander):
        self.inner = inner
        self.asked: str | None = None

    def understand(
        self,
        state: UnderstandingState,
        text: str,
        *,
        history: Sequence[tuple[str, str]] = (),
        now: dt.datetime | None = None,
    ) -> Parse:
        asked = self.asked if self.asked is not None and state.slot(self.asked) is not None else None
        if asked != state.asked:
            state = dataclasses.replace(state, asked=asked)
        return self.inner.understand(state, text, history=history, now=now)


class OracleUnderstander:
    """Gold slot values for the slots that feed API inputs; everything else from ``inner``."""

    path = "oracle"

    def __init__(self, inner: Understander, gold_slots: set[str]):
        self.inner = inner
        self.gold_slots = gold_slots
        self.pending: dict[str, Any] = {}

    def understand(
        self,
        state: UnderstandingState,
        text: str,
        *,
        history: Sequence[tuple[str, str]] = (),
        now: dt.datetime | None = None,
    ) -> Parse:
        parse = self.inner.understand(state, text, history=history, now=now) if text.strip() else Parse()
        slots = {k: v for k, v in parse.slots.items() if k not in self.gold_slots}
        slots.update({k: v for k, v in self.pending.items() if state.slot(k) is not None})
        self.pending = {}
        return dataclasses.replace(parse, slots=slots, path=self.path)
