"""The ``Understander`` protocol: what can be said now, and what the user said.

The runtime describes the current machine state as an
:class:`UnderstandingState` (the intents, slots and answer that make sense
now) and hands it with the user's text to an understander, which returns a
:class:`Parse`. The runtime knows nothing about models; understanders know
nothing about the flow's business logic.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Literal, Protocol, get_args, runtime_checkable

from ..flow import Slot, SlotType
from ..language import normalize

Answer = Literal["yes", "no", "other"]
ANSWERS: tuple[Answer, ...] = get_args(Answer)
"""Every answer to a pending yes/no question, in order."""
GOODBYE = "goodbye"
"""Built-in intent of flows that have a ``goodbye`` fallback."""
CONTINUE = "continue"
"""Built-in intent inside a flow that has ``examples``: the user asks for what the flow does ("can I book a table"
in the booking flow): it carries on, never "out of scope"."""
DECLINE = "decline"
"""Built-in intent while a slot is asked: the user cannot or will not give it ("I don't know")."""


@dataclass(frozen=True)
class Intent:
    name: str
    examples: tuple[str, ...] = ()


@dataclass(frozen=True)
class UnderstandingState:
    """What the user may say at one machine state.

    ``slots`` are every slot that may be filled now (corrections and values
    given before they are asked included); ``expected`` the slots the current
    node still needs, in order; ``asked`` the slot the bot has just asked for;
    ``confirm`` the node whose yes/no question is pending.
    """

    flow: str
    node: str
    intents: tuple[Intent, ...]
    slots: tuple[Slot, ...]
    expected: tuple[str, ...] = ()
    asked: str | None = None
    confirm: str | None = None
    confirm_slot: str | None = None
    """Set with ``confirm`` when the pending yes/no question confirms this one slot's value."""
    context: str = ""
    description: str = ""
    choices: tuple[str, ...] = ()
    """Labels the reply is classified into (SOP user states), when the node branches on them."""
    choice_examples: tuple[Intent, ...] = ()
    """The same choices with their example replies and descriptions (as Intent(name, examples))."""
    details: tuple[tuple[str, Any, str], ...] = ()
    """(slot, value, the free-text slot that value leads to asking): a yes to "any allergies?", then "what should the
    chef know?" (a reply that tells what, "one of us is coeliac", is the yes and that text); a repair, then "what's it
    doing?" (the message that chose the repair by describing it may have told that text)."""

    def detail_of(self, name: str, value: Any) -> str | None:
        """The free-text slot ``value`` of slot ``name`` leads to asking (:attr:`details`), if any."""
        return next((detail for slot, said, detail in self.details if slot == name and said == value), None)

    @cached_property
    def key(self) -> tuple[Any, ...]:
        """Signature of this state: equal keys accept exactly the same parses."""
        return (
            self.flow,
            tuple(i.name for i in self.intents),
            tuple(s.name for s in self.slots),
            self.expected,
            self.asked,
            self.confirm,
            self.confirm_slot,
            self.choices,
        )

    @cached_property
    def example_index(self) -> dict[str, str]:
        """Normalised example utterance -> intent name (first intent wins)."""
        index: dict[str, str] = {}
        for intent in self.intents:
            for example in intent.examples:
                index.setdefault(normalize(example), intent.name)
        return index

    @cached_property
    def slot_types(self) -> frozenset[Any]:
        return frozenset(slot.type for slot in self.slots)

    @cached_property
    def _slot_index(self) -> dict[str, Slot]:
        return {slot.name: slot for slot in self.slots}

    def slot(self, name: str) -> Slot | None:
        return self._slot_index.get(name)

    @cached_property
    def person_name(self) -> Slot | None:
        """The slot for a person's name: a ``person_name`` slot, or a ``string`` slot without a pattern whose name
        says "name" and nothing but whose ("customer_name", "full_name", not "pet_name"); of several, the asked or
        confirmed one. The rules read it after cue words and the model may write only spans of a name's shape into
        it."""
        found = [
            slot
            for slot in self.slots
            if slot.type is SlotType.person_name
            or slot.type is SlotType.string
            and slot.pattern is None
            and "name" in (words := set(re.split(r"[_\W]+", slot.name.lower())))
            and words <= _PERSON_WORDS
        ]
        if len(found) > 1:
            found = [slot for slot in found if slot.name in (self.asked, self.confirm_slot)] or found
        return found[0] if len(found) == 1 else None


_PERSON_WORDS = frozenset(
    {
        "name",
        "customer",
        "full",
        "owner",
        "user",
        "guest",
        "contact",
        "caller",
        "person",
        "first",
        "last",
        "your",
        "client",
        "booking",
        "reservation",
        "holder",
        "account",
    }
)


@dataclass
class Parse:
    """What the user said: an intent, slot values, an answer to a pending confirmation.

    ``path`` says which path produced it (``rules``, ``model``, ``oracle``,
    ...); ``model_calls`` and ``info`` carry the costs (prompt tokens
    evaluated, output tokens) for the trace.
    """

    intent: str | None = None
    slots: dict[str, Any] = field(default_factory=dict)
    answer: Answer | None = None
    choice: str | None = None
    negated: dict[str, Any] = field(default_factory=dict)
    """Values the user ruled out ("not at 7pm"): a slot holding one is cleared and asked again."""
    path: str = "rules"
    model_calls: int = 0
    info: dict[str, Any] = field(default_factory=dict)

    @property
    def empty(self) -> bool:
        return (
            self.intent is None and not self.slots and self.answer is None and self.choice is None and not self.negated
        )

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"intent": self.intent, "slots": dict(self.slots), "answer": self.answer}
        if self.choice is not None:
            out["choice"] = self.choice
        if self.negated:
            out["negated"] = dict(self.negated)
        return out


@runtime_checkable
class Understander(Protocol):
    """Turns user text into a :class:`Parse` that fits ``state``."""

    def understand(
        self,
        state: UnderstandingState,
        text: str,
        *,
        history: Sequence[tuple[str, str]] = (),
        now: dt.datetime | None = None,
    ) -> Parse: ...
