"""The base class of compiled flows: a ``transitions`` state machine plus CoDial's per-node bookkeeping.

A compiled flow class (see :mod:`fsmdial.compiler`) subclasses
:class:`FlowMachine` and adds data only: its states, its transitions (edge
conditions are generated methods), and for every slot the nodes that depend
on it. An instance holds one conversation's state:

* ``state``: the current node id (managed by ``transitions``);
* ``slots``: slot values collected so far;
* ``results`` / ``status``: what each external action returned, and whether
  it succeeded;
* ``informed``: nodes whose message was already told in the current visit;
* ``answers``: the user's answer to each confirmation.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, ClassVar

from transitions import Machine

from .flow import Flow
from .loader import flow_from_document


class _Missing:
    __slots__ = ()

    def __repr__(self) -> str:
        return "MISSING"

    def __bool__(self) -> bool:
        return False


MISSING: Any = _Missing()
"""Stands for a slot or result field that has no value."""


# Comparison helpers used by generated condition methods. A missing value, or
# values that cannot be compared, make a condition false instead of raising.
def eq(left: Any, right: Any) -> bool:
    return left is not MISSING and _norm(left) == _norm(right)


def ne(left: Any, right: Any) -> bool:
    return left is not MISSING and _norm(left) != _norm(right)


def isin(left: Any, right: list[Any]) -> bool:
    return left is not MISSING and _norm(left) in [_norm(r) for r in right]


def notin(left: Any, right: list[Any]) -> bool:
    return left is not MISSING and _norm(left) not in [_norm(r) for r in right]


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


def _norm(value: Any) -> Any:
    # Categorical values compare case-insensitively, as users and STAR type them.
    return value.casefold() if isinstance(value, str) else value


class FlowMachine:
    """Base of every compiled flow class. Subclasses set the class attributes."""

    FLOW: ClassVar[Flow]
    STATES: ClassVar[tuple[str, ...]]
    INITIAL: ClassVar[str]
    TRANSITIONS: ClassVar[tuple[dict[str, Any], ...]]
    DEPENDENTS: ClassVar[Mapping[str, tuple[str, ...]]]
    SLOT_OWNER: ClassVar[Mapping[str, str]]
    SUCCESS_WHEN: ClassVar[Mapping[str, str]] = {}

    state: str

    def __init__(self, predicates: Mapping[str, Callable[[FlowMachine], bool]] | None = None):
        self.slots: dict[str, Any] = {}
        self.results: dict[str, dict[str, Any]] = {}
        self.status: dict[str, str] = {}
        self.informed: dict[str, bool] = {}
        self.answers: dict[str, str] = {}
        self.last_action: str | None = None
        self.visits: dict[str, int] = {self.INITIAL: 1}
        self.declined: dict[str, bool] = {}
        self.confirmed: dict[str, bool] = {}
        self.predicates: Mapping[str, Callable[[FlowMachine], bool]] = predicates or {}
        self.evaluated: list[tuple[str, bool]] = []
        self.machine = Machine(
            model=self,
            states=list(self.STATES),
            transitions=[dict(t) for t in self.TRANSITIONS],
            initial=self.INITIAL,
            auto_transitions=False,
            ignore_invalid_triggers=True,
        )

    # ------------------------------------------------------- condition reads
    def noted(self, method: str, outcome: bool) -> bool:
        """Record an edge condition's outcome for the turn's trace."""
        self.evaluated.append((method, outcome))
        return outcome

    def slot(self, name: str) -> Any:
        return self.slots.get(name, MISSING)

    def result_field(self, node: str, field: str) -> Any:
        result = self.results.get(node)
        if result is None:
            return MISSING
        return result.get(field, MISSING)

    def is_declined(self, name: str) -> bool:
        return self.declined.get(name, False)

    def call(self, name: str) -> bool:
        try:
            predicate = self.predicates[name]
        except KeyError:
            from .errors import TurnError

            raise TurnError(f"no predicate registered under the name {name!r}") from None
        return bool(predicate(self))

    def succeeded(self, node: str) -> bool:
        """Evaluate the node's ``success_when`` condition (true when it has none)."""
        method = self.SUCCESS_WHEN.get(node)
        return True if method is None else bool(getattr(self, method)())

    # ------------------------------------------------------------ bookkeeping
    def enter(self, node: str) -> None:
        """Start a fresh visit of ``node``, which the machine has just moved to."""
        self.forget((node,))
        self.visits[node] = self.visits.get(node, 0) + 1

    def jump(self, node: str) -> None:
        """Put the machine at ``node`` for a fresh visit."""
        self.machine.set_state(node, model=self)
        self.enter(node)

    def clear_current_slots(self) -> None:
        """Clear the slots of the request node just entered (an edge with ``reset_slots``)."""
        for slot, owner in self.SLOT_OWNER.items():
            if owner == self.state:
                self.slots.pop(slot, None)
                self.declined.pop(slot, None)
                self.confirmed.pop(slot, None)
                self.forget(self.DEPENDENTS.get(slot, ()))

    def forget(self, nodes: tuple[str, ...] | list[str]) -> None:
        """Reset the bookkeeping of ``nodes`` (results, status, informed flags, answers)."""
        for table in (self.results, self.status, self.informed, self.answers):
            if table:  # most are empty, or hold few nodes
                for node in nodes:
                    table.pop(node, None)
        if self.last_action in nodes:  # {result.x} now reads the latest result still held
            self.last_action = next(reversed(self.results), None)

    def bookkeeping(self) -> dict[str, Any]:
        """The machine's part of a session snapshot (JSON-ready)."""
        return {
            "node": self.state,
            "slots": dict(self.slots),
            "results": dict(self.results),
            "status": dict(self.status),
            "informed": sorted(self.informed),
            "answers": dict(self.answers),
            "last_action": self.last_action,
            "visits": dict(self.visits),
            "declined": sorted(self.declined),
            "confirmed": sorted(self.confirmed),
        }

    def load_bookkeeping(self, data: Mapping[str, Any]) -> None:
        if data["node"] not in self.STATES:
            from .errors import SnapshotError

            raise SnapshotError(f"snapshot is at node {data['node']!r}, which flow {self.FLOW.name!r} does not have")
        self.slots = dict(data["slots"])
        self.results = dict(data["results"])
        self.status = dict(data["status"])
        self.informed = dict.fromkeys(data["informed"], True)
        self.answers = dict(data["answers"])
        self.last_action = data.get("last_action")
        self.visits = {str(k): int(v) for k, v in data.get("visits", {}).items()}
        self.declined = dict.fromkeys(data.get("declined", []), True)
        self.confirmed = dict.fromkeys(data.get("confirmed", []), True)
        self.machine.set_state(data["node"], model=self)

    def checkpoint(self) -> tuple[Any, ...]:
        """A cheap copy of everything a turn may change (values are never mutated in place)."""
        return (
            self.state,
            self.slots.copy(),
            self.results.copy(),
            self.status.copy(),
            self.informed.copy(),
            self.answers.copy(),
            self.last_action,
            self.visits.copy(),
            self.declined.copy(),
            self.confirmed.copy(),
        )

    def rollback(self, checkpoint: tuple[Any, ...]) -> None:
        (state, self.slots, self.results, self.status, self.informed, self.answers, self.last_action,
         self.visits, self.declined, self.confirmed) = checkpoint
        if self.state != state:
            self.machine.set_state(state, model=self)


def flow_from_data(data: Mapping[str, Any]) -> Flow:
    """Rebuild (and re-validate) the flow embedded in compiled source."""
    return flow_from_document(dict(data))
