"""Reading a snapshot back into a session of one flow: what only the flow can check.

:func:`fsmdial.session.decode_snapshot` checks a snapshot's shape strictly (types, counts, no missing or
unknown field); :func:`read_session` then checks it against the flow it is loaded into: the node and every
node id it names exist, every slot id is one of the flow's, every slot value is valid for its slot
(coerced with the slot's type and validators, as a value the user gave would be, except a date's
``earliest``/``latest``: those held on the clock of the moment it was given), and every tool result and
remembered call has the shape its action node declares (a live result would). Both run before anything
is changed, so a damaged or hand-edited snapshot is a :class:`~fsmdial.errors.SnapshotError` naming what
and where, and the dialogue it was loaded into is left as it was.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping
from typing import Any

from .errors import SnapshotError, ToolResultError
from .flow import ExternalActionNode
from .session import SessionState, decode_snapshot
from .slots import kind_of
from .tables import FlowTables
from .tools import check_result
from .values import InvalidValue, coerce

__all__ = ["read_session"]


def read_session(tables: FlowTables, snapshot: bytes | str | Mapping[str, Any], now: dt.datetime) -> SessionState:
    """The session a snapshot holds, checked against the flow of ``tables``. Raises :class:`SnapshotError`."""
    session = decode_snapshot(snapshot, tables.flow.name, tables.fingerprint)
    flow = tables.flow.name
    if session.node not in tables.nodes:
        raise SnapshotError(f"snapshot is at node {session.node!r}, which flow {flow!r} does not have")
    for field, names in (
        ("visits", session.visits),
        ("informed", session.informed),
        ("results", session.results),
        ("status", session.status),
        ("calls", session.calls),
        ("answers", session.answers),
        ("last_action", _given(session.last_action)),
        ("came_through", _given(session.came_through)),
    ):
        _known(field, names, tables.nodes, f"node(s) flow {flow!r} does not have")
    for field, names in (
        ("retries", session.retries),
        ("declined", session.declined),
        ("confirmed", session.confirmed),
        ("asked", _given(session.asked)),
    ):
        _known(field, names, tables.slots, f"slot(s) flow {flow!r} does not have")
    _known("slots", session.slots, tables.slots, f"slot(s) flow {flow!r} does not have")
    for node_id, result in session.results.items():
        _result(_action(tables, "results", node_id), result, f"results[{node_id!r}]")
    for node_id, memory in session.calls.items():
        _call(_action(tables, "calls", node_id), memory, f"calls[{node_id!r}]", latest=True)
    session.slots = {name: _slot_value(tables, name, value, now) for name, value in session.slots.items()}
    return session


_CALL = frozenset({"arguments", "result", "error"})


def _action(tables: FlowTables, field: str, node_id: str) -> ExternalActionNode:
    node = tables.nodes[node_id]  # known: checked above
    if not isinstance(node, ExternalActionNode):
        raise SnapshotError(f"snapshot field {field!r} names node {node_id!r}, which calls no tool")
    return node


def _result(node: ExternalActionNode, value: Any, where: str) -> None:
    """A tool result held in the snapshot fits the shape its node declares (as a live result must)."""
    try:
        check_result(node, value)
    except ToolResultError as exc:
        raise SnapshotError(f"snapshot field {where} does not fit node {node.id!r}'s result: {exc}") from None


def _call(node: ExternalActionNode, memory: Any, where: str, *, latest: bool = False) -> None:
    """A node's remembered call (:func:`fsmdial.actions.remember`): arguments, result or error, earlier calls."""
    fields = _CALL | {"earlier"} if latest else _CALL
    if not isinstance(memory, Mapping) or not _CALL <= memory.keys() <= fields:
        got = sorted(memory) if isinstance(memory, Mapping) else type(memory).__name__
        raise SnapshotError(
            f"snapshot field {where} is not a remembered call: it needs the fields "
            f"{', '.join(sorted(_CALL))}{' (and earlier)' if latest else ''}, not {got}"
        )
    if not isinstance(memory["arguments"], Mapping):
        raise SnapshotError(f"snapshot field {where}.arguments must be an object")
    if memory["error"] is not None and not isinstance(memory["error"], str):
        raise SnapshotError(f"snapshot field {where}.error must be text or null")
    if memory["result"] is not None:
        _result(node, memory["result"], f"{where}.result")
    earlier = memory.get("earlier", [])
    if not isinstance(earlier, list):
        raise SnapshotError(f"snapshot field {where}.earlier must be a list")
    for index, call in enumerate(earlier):
        _call(node, call, f"{where}.earlier[{index}]")


def _given(name: str | None) -> tuple[str, ...]:
    return () if name is None else (name,)


def _known(field: str, names: Iterable[str], known: Mapping[str, Any], what: str) -> None:
    for name in names:  # the common case, every name known, costs one lookup each
        if name not in known:
            break
    else:
        return
    unknown = sorted(name for name in names if name not in known)
    if unknown:
        shown = ", ".join(repr(name) for name in unknown[:5]) + (" ..." if len(unknown) > 5 else "")
        raise SnapshotError(f"snapshot field {field!r} names {what}: {shown}")


def _slot_value(tables: FlowTables, name: str, value: Any, now: dt.datetime) -> Any:
    """``value`` as slot ``name`` stores it: of the JSON kind its type stores, and valid for the slot."""
    slot = tables.slots[name]
    if not kind_of(slot).stores(value):
        raise SnapshotError(f"snapshot slot {name!r} holds {value!r:.80}, not a {slot.type.value} value")
    try:
        return coerce(slot, value, now, bounds=False)  # bounds held when the value was given (on that clock)
    except InvalidValue as exc:
        raise SnapshotError(f"snapshot slot {name!r} holds a value the flow does not accept: {exc.message}") from None
