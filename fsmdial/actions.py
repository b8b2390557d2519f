"""External actions of one dialogue: which tool each action node calls, with what, and what came back."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .errors import ToolArgumentError, ToolCrashed, ToolError
from .flow import ArgSource, ExternalActionNode, ResultArg, SlotArg, ValueArg
from .machine import MISSING, FlowMachine
from .session import SessionState
from .tables import FlowTables
from .tools import Tool, ToolRegistry, call_tool, check_result, stand_in
from .trace import ToolCall, ToolStatus, TurnTrace


class Actions:
    """The tools bound to a flow's action nodes (per dialogue: tools are given per dialogue).

    ``stand_in_tools`` (for ``fsmdial chat``) replaces tools missing from the registry with
    stand-ins that return the first outcome the flow expects.
    """

    def __init__(self, tables: FlowTables, registry: ToolRegistry, *, stand_in_tools: bool = False):
        self.tables = tables
        self.tools: dict[str, Tool] = {}
        for node in tables.flow.nodes:
            if not isinstance(node, ExternalActionNode):
                continue
            if node.tool in registry:
                self.tools[node.id] = registry[node.tool]
            elif stand_in_tools:
                self.tools[node.id] = stand_in(tables.flow, node)
            else:
                known = ", ".join(registry.names()) or "none"
                raise ToolError(node.tool, f"node {node.id!r} calls it but it is not registered (registered: {known})")
        self.required_slots = {node_id: self._required_argument_slots(node_id) for node_id in self.tools}

    @property
    def stand_ins(self) -> list[str]:
        """Tools replaced by stand-ins (``fsmdial chat`` only)."""
        return sorted({tool.name for tool in self.tools.values() if tool.stand_in})

    def owner_of_missing_argument(
        self, node: ExternalActionNode, machine: FlowMachine, withheld: frozenset[str] = frozenset()
    ) -> str | None:
        """The request node of a slot that a required tool argument reads and that has no value (or one
        ``withheld`` from the call, see :meth:`run`).

        A declined slot counts only when its node has no way around it (then that node says it cannot continue).
        """
        session = machine.session
        for name, owner in self.required_slots[node.id]:
            missing = name not in session.slots or name in withheld
            if missing and not (name in session.declined and owner in self.tables.decline_nodes):
                return owner
        return None

    def arguments(
        self, node: ExternalActionNode, machine: FlowMachine, withheld: frozenset[str] = frozenset()
    ) -> dict[str, Any]:
        """The tool's arguments, read from slots, earlier results and constants (absent values left out, and
        the slots ``withheld``)."""
        slots = machine.session.slots
        out: dict[str, Any] = {}
        for arg, source in self.tables.arguments[node.id].items():
            name = slot_of(source)
            if name is not None:
                if name in slots and name not in withheld:
                    out[arg] = slots[name]
            elif isinstance(source, ResultArg):
                value = machine.result_field(source.node, source.result)
                if value is not None and value is not MISSING:
                    out[arg] = value
            elif isinstance(source, ValueArg):
                out[arg] = source.value
        return out

    def run(
        self, node: ExternalActionNode, machine: FlowMachine, trace: TurnTrace, withheld: frozenset[str] = frozenset()
    ) -> None:
        """Call the node's tool and record its result and status (success / failure) in the session.

        The slots ``withheld`` are left out of the call: values a committing action's confirmation does not
        vouch for (``fsmdial.flow.CommitWays.withheld``).

        A tool is not called again with the arguments of an earlier call of the node (its last call, or
        one of the last :data:`REMEMBERED_CALLS` that returned a result): that call's outcome is taken
        again, and the skipped repeat is recorded in the trace. A user who changes a value and then
        changes it back gets the first answer again, without a second call.
        """
        session = machine.session
        arguments = self.arguments(node, machine, withheld)
        earlier = same_call(session.calls.get(node.id), arguments)
        if earlier is not None:
            self._repeat(node, machine, trace, earlier)
            return
        try:
            raw = call_tool(self.tools[node.id], arguments, node.timeout)
        except (ToolArgumentError, ToolCrashed):
            raise  # arguments the tool cannot take, or a bug in the tool (logged): an error, not an outcome
        except ToolError as exc:  # a declared business failure, or a timeout
            if node.id not in self.tables.failure_edge:
                raise
            session.status[node.id] = "failure"
            session.calls[node.id] = remember(session.calls.get(node.id), arguments, None, str(exc))
            trace.tool_calls.append(ToolCall(node.tool, node.id, arguments, None, "failure", str(exc)))
            return
        result = check_result(node, raw)  # a result of the wrong shape always fails the turn
        session.calls[node.id] = remember(session.calls.get(node.id), arguments, result, None)
        trace.tool_calls.append(self._record(node, machine, arguments, result))

    def _record(
        self, node: ExternalActionNode, machine: FlowMachine, arguments: dict[str, Any], result: dict[str, Any]
    ) -> ToolCall:
        session = machine.session
        session.results[node.id] = result
        session.last_action = node.id
        status: ToolStatus = "success" if machine.succeeded(node.id) else "failure"
        session.status[node.id] = status
        return ToolCall(node.tool, node.id, arguments, result, status)

    def _repeat(
        self, node: ExternalActionNode, machine: FlowMachine, trace: TurnTrace, last: Mapping[str, Any]
    ) -> None:
        """The arguments are those of an earlier call (``last``): its outcome again, without calling it."""
        arguments = dict(last["arguments"])
        if last["result"] is None:
            machine.session.status[node.id] = "failure"
            call = ToolCall(node.tool, node.id, arguments, None, "failure", last["error"])
        else:
            call = self._record(node, machine, arguments, dict(last["result"]))
        trace.repeated_calls.append(call)  # not in tool_calls: those are the calls made
        trace.notes.append(f"tool {node.tool!r} not called again: same arguments as an earlier call")

    def _required_argument_slots(self, node_id: str) -> tuple[tuple[str, str], ...]:
        """(slot, owner node) of each required slot that a required argument of the node's tool reads."""
        model = self.tools[node_id].arguments
        if model is None:
            return ()
        mapping: Mapping[str, Any] = self.tables.arguments[node_id]
        slots = self.tables.slots
        out = []
        for arg, spec in model.model_fields.items():
            source = mapping.get(arg)
            name = slot_of(source) if source is not None else None
            if name is not None and spec.is_required() and name in slots and slots[name].required:
                out.append((name, self.tables.slot_owner[name]))
        return tuple(out)


def slot_of(source: ArgSource) -> str | None:
    """The slot a tool argument reads (``None`` for an earlier result or a constant)."""
    return source if isinstance(source, str) else source.slot if isinstance(source, SlotArg) else None


def committed_slots(tables: FlowTables, session: SessionState) -> list[str]:
    """The slots whose values fed a committing action (``"commits": true``) that succeeded in ``session``."""
    out = []
    for action in sorted(tables.commits):
        if session.status.get(action) == "success":
            for source in tables.arguments[action].values():
                name = slot_of(source)
                if name is not None and name in session.slots and name not in out:
                    out.append(name)
    return out


REMEMBERED_CALLS = 8
"""How many earlier calls with a result each action node remembers besides its last (snapshots stay small)."""


def same_call(memory: Mapping[str, Any] | None, arguments: dict[str, Any]) -> Mapping[str, Any] | None:
    """The remembered call of a node whose arguments equal ``arguments`` (its last call first), if any."""
    if memory is None:
        return None
    if memory["arguments"] == arguments:
        return memory
    call: Mapping[str, Any]
    for call in memory.get("earlier", ()):
        if call["arguments"] == arguments:
            return call
    return None


def remember(
    memory: Mapping[str, Any] | None, arguments: dict[str, Any], result: dict[str, Any] | None, error: str | None
) -> dict[str, Any]:
    """A node's call memory after a new call: the new call is the last; earlier calls that returned a result
    are kept (newest first, at most :data:`REMEMBERED_CALLS`) so an unchanged call is never made twice."""
    earlier: list[dict[str, Any]] = []
    if memory is not None:
        previous = {"arguments": memory["arguments"], "result": memory["result"], "error": memory["error"]}
        candidates = [previous, *memory.get("earlier", ())]
        for call in candidates:
            if call["result"] is not None and call["arguments"] != arguments and len(earlier) < REMEMBERED_CALLS:
                earlier.append(dict(call))
    entry: dict[str, Any] = {"arguments": arguments, "result": result, "error": error}
    if earlier:
        entry["earlier"] = earlier
    return entry
