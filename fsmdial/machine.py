"""The base class of compiled flows: a ``transitions`` state machine over one :class:`SessionState`.

A compiled flow class (see :mod:`fsmdial.compiler`) subclasses
:class:`FlowMachine` and adds data only: its states, its transitions (edge
conditions are generated methods), and for every slot the nodes that depend
on it. An instance is the ``transitions`` model of one session: its ``state``
is the session's node, and conditions read the session (slots, results,
status, answers, visits, declined slots) through it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, ClassVar

from transitions import Machine

from .errors import SnapshotError, TurnError
from .flow import Flow, read_flow
from .flow import fold as fold_text
from .session import SessionState
from .values import LARGEST


class Missing:
    __slots__ = ()

    def __repr__(self) -> str:
        return "MISSING"

    def __bool__(self) -> bool:
        return False


MISSING: Any = Missing()
"""Stands for a slot or result field that has no value."""


# Comparison helpers used by generated condition methods. A missing value, or
# values that cannot be compared, make a condition false instead of raising.
# Values compare exactly; a flow with the option ``case_insensitive_values`` has its
# compiled module import the ``*_folded`` variants under the same names instead.
def eq(left: Any, right: Any) -> bool:
    return left is not MISSING and left == right


def ne(left: Any, right: Any) -> bool:
    return left is not MISSING and left != right


def isin(left: Any, right: list[Any]) -> bool:
    return left is not MISSING and left in right


def notin(left: Any, right: list[Any]) -> bool:
    return left is not MISSING and left not in right


def fold(value: Any) -> Any:
    """``value`` case-folded when it is a string (the ``case_insensitive_values`` comparisons)."""
    return fold_text(value) if isinstance(value, str) else value


def eq_folded(left: Any, right: Any) -> bool:
    return left is not MISSING and fold(left) == fold(right)


def ne_folded(left: Any, right: Any) -> bool:
    return left is not MISSING and fold(left) != fold(right)


def isin_folded(left: Any, right: list[Any]) -> bool:
    return left is not MISSING and fold(left) in [fold(r) for r in right]


def notin_folded(left: Any, right: list[Any]) -> bool:
    return left is not MISSING and fold(left) not in [fold(r) for r in right]


def _order(left: Any, right: Any, test: Callable[[Any, Any], bool]) -> bool:
    if left is MISSING or left is None:
        return False
    try:
        return test(left, right)
    except TypeError:
        try:
            return test(float(left), float(right))
        except (TypeError, ValueError):
            return False


def lt(left: Any, right: Any) -> bool:
    return _order(left, right, lambda a, b: a < b)


def le(left: Any, right: Any) -> bool:
    return _order(left, right, lambda a, b: a <= b)


def gt(left: Any, right: Any) -> bool:
    return _order(left, right, lambda a, b: a > b)


def ge(left: Any, right: Any) -> bool:
    return _order(left, right, lambda a, b: a >= b)


def present(value: Any) -> bool:
    return value is not MISSING and value is not None and value != ""


def absent(value: Any) -> bool:
    return not present(value)


class FlowMachine:
    """Base of every compiled flow class. Subclasses set the class attributes.

    An instance is the ``transitions`` model of one session: every read goes to the same
    :class:`SessionState` (``session``), which the :class:`~fsmdial.runtime.Dialogue` owns and
    swaps on rollback. ``state`` is ``transitions``' working copy of ``session.node``: a plain
    attribute (``transitions`` reads it several times per trigger), written back to the session
    by every move (:meth:`fire`, :meth:`jump`, :meth:`place`, :meth:`use`). Entering a node
    through a trigger starts a fresh visit (:meth:`fire`; not a ``transitions`` callback, which
    costs about a microsecond per move in its dispatch and logging).
    """

    FLOW: ClassVar[Flow]
    STATES: ClassVar[tuple[str, ...]]
    INITIAL: ClassVar[str]
    TRANSITIONS: ClassVar[tuple[dict[str, Any], ...]]
    DEPENDENTS: ClassVar[Mapping[str, tuple[str, ...]]]
    SLOT_OWNER: ClassVar[Mapping[str, str]]
    SOURCE: ClassVar[str]
    """The Python source the class was compiled from (:func:`fsmdial.compiler.emit_source`)."""
    SUCCESS_WHEN: ClassVar[Mapping[str, str]] = {}
    trigger: Callable[[str], bool]
    """Fire a trigger by name (added by ``transitions``): True when an edge was taken."""
    state: str
    """The current node, as ``transitions`` sees it (see the class docstring)."""

    def __init__(
        self,
        predicates: Mapping[str, Callable[[FlowMachine], bool]] | None = None,
        session: SessionState | None = None,
    ):
        self.session = session if session is not None else SessionState.at(self.INITIAL)
        self.predicates: Mapping[str, Callable[[FlowMachine], bool]] = predicates or {}
        self.evaluated: list[tuple[str, bool]] = []
        self.given_now: set[str] = set()
        """Slots the user gave a new value this turn (a counting edge leaves them as given)."""
        self.machine = Machine(
            model=self,
            states=list(self.STATES),
            transitions=[dict(t) for t in self.TRANSITIONS],
            initial=self.session.node,
            auto_transitions=False,
            ignore_invalid_triggers=True,
        )

    # ---------------------------------------------- the session, as the model sees it
    @property
    def slots(self) -> dict[str, Any]:
        return self.session.slots

    @property
    def results(self) -> dict[str, dict[str, Any]]:
        return self.session.results

    @property
    def status(self) -> dict[str, str]:
        return self.session.status

    @property
    def answers(self) -> dict[str, str]:
        return self.session.answers

    @property
    def visits(self) -> dict[str, int]:
        return self.session.visits

    @property
    def last_action(self) -> str | None:
        return self.session.last_action

    # ------------------------------------------------------- condition reads
    def noted(self, method: str, outcome: bool) -> bool:
        """Record an edge condition's outcome for the turn's trace."""
        self.evaluated.append((method, outcome))
        return outcome

    def slot(self, name: str) -> Any:
        return self.session.slots.get(name, MISSING)

    def result_field(self, node: str, field: str) -> Any:
        result = self.session.results.get(node)
        if result is None:
            return MISSING
        return result.get(field, MISSING)

    def is_declined(self, name: str) -> bool:
        return name in self.session.declined

    def call(self, name: str) -> bool:
        try:
            predicate = self.predicates[name]
        except KeyError:
            raise TurnError(f"no predicate registered under the name {name!r}") from None
        return bool(predicate(self))

    def succeeded(self, node: str) -> bool:
        """Evaluate the node's ``success_when`` condition (true when it has none)."""
        method = self.SUCCESS_WHEN.get(node)
        return True if method is None else bool(getattr(self, method)())

    # ------------------------------------------------------------ moving
    def fire(self, trigger: str) -> bool:
        """Fire ``trigger`` (``advance`` or ``decline``, which the flow must have); when an edge is taken, the
        node entered starts a fresh visit."""
        # The event's own method (added by ``transitions``): ``trigger(name)`` would look the event up again.
        if getattr(self, trigger)():
            self.entered()
            return True
        return False

    def entered(self) -> None:
        """The machine has just moved to ``state``: the session is there, for a fresh visit."""
        node = self.session.node = self.state
        self.forget((node,))
        self.session.visits[node] = self.session.visits.get(node, 0) + 1

    def jump(self, node: str) -> None:
        """Put the machine at ``node`` for a fresh visit (a global action, an escalation): it came through no
        question on the way there."""
        self.machine.set_state(node, model=self)
        self.session.came_through = None
        self.entered()

    def place(self, node: str) -> None:
        """Put the machine at ``node`` keeping its bookkeeping (a rewind to a node whose slot changed)."""
        self.machine.set_state(node, model=self)
        self.session.node = node

    def use(self, session: SessionState) -> None:
        """Continue from ``session`` (a rollback or a restored snapshot); its node must be one of the flow's."""
        if session.node not in self.STATES:
            raise SnapshotError(f"snapshot is at node {session.node!r}, which flow {self.FLOW.name!r} does not have")
        self.session = session
        self.machine.set_state(session.node, model=self)

    def clear_current_slots(self) -> None:
        """Clear the slots of the request node just entered (an edge with ``reset_slots``)."""
        session = self.session
        for slot, owner in self.SLOT_OWNER.items():
            if owner == self.state:  # the node just entered (the session learns it right after)
                session.slots.pop(slot, None)
                session.declined.discard(slot)
                session.confirmed.discard(slot)
                self.forget(self.DEPENDENTS.get(slot, ()))

    def count_up(self, slot: str) -> None:
        """Add 1 to an integer slot (an edge with ``count``); a slot at its maximum, not held, or just given
        by the user ("yes, question 5 please"), stays."""
        session = self.session
        value = session.slots.get(slot)
        if not isinstance(value, int) or isinstance(value, bool) or slot in self.given_now:
            return
        maximum = self.FLOW.slots()[slot].maximum  # the flow check made sure the slot is asked for
        if value + 1 > (LARGEST if maximum is None else min(maximum, LARGEST)):  # snapshots hold 64-bit integers
            return
        session.slots[slot] = value + 1
        self.forget(self.DEPENDENTS.get(slot, ()))

    def forget(self, nodes: tuple[str, ...] | list[str]) -> None:
        """Reset the bookkeeping of ``nodes`` (results, status, informed flags, answers)."""
        session = self.session
        for table in (session.results, session.status, session.answers):
            if table:  # most are empty, or hold few nodes
                for node in nodes:
                    table.pop(node, None)
        if session.informed:
            session.informed.difference_update(nodes)
        if session.last_action in nodes:
            # With the flow option ``result_fallback``, {result.x} now reads the latest result still held.
            fallback = self.FLOW.options.result_fallback
            session.last_action = next(reversed(session.results), None) if fallback else None


def flow_from_data(data: Mapping[str, Any]) -> Flow:
    """Rebuild (and re-validate) the flow embedded in compiled source: fsmdial's own format, as it was written."""
    return read_flow(dict(data), origin="compiled flow source")
