"""``Dialogue``: one conversation on a compiled flow, turn by turn.

A turn, in order:

1. **understand**: the understander parses the text against what the current
   state can accept (:meth:`Dialogue.understanding_state`);
2. **global intents**: goodbye, or a global action's response (and jump);
3. **slot updates**: values coerced to their types and validated; a rejected
   value is told to the user and not stored; a changed slot resets every node
   that depends on it and, if the machine is past the node asking it, rewinds
   there so searches run again and confirmations are asked again;
4. **the answer** to a pending confirmation;
5. **advance**: fire the machine through every node that needs no user input
   (satisfied requests, tool calls, informs) until it needs the user: a missing
   slot (one question per turn), a confirmation, or an end;
6. **fallback** when nothing else applies.

A turn is a transaction: if anything fails, the session is exactly as it was
before and a typed :class:`~fsmdial.errors.TurnError` is raised.
"""

from __future__ import annotations

import datetime as dt
import time
import unicodedata
import uuid
from collections.abc import Callable, Mapping
from typing import Any, Protocol

import orjson

from .compiler import compile_flow, fingerprint
from .errors import (
    FlowLoopError,
    FsmdialError,
    SnapshotError,
    ToolArgumentError,
    ToolError,
    TurnError,
    UnderstandingError,
)
from .flow import (
    ConfirmNode,
    EndNode,
    ExternalActionNode,
    Flow,
    InformNode,
    RequestNode,
    ResultArg,
    SlotArg,
    StatusCondition,
    ValueArg,
    iter_conditions,
)
from .loader import load_flow
from .machine import FlowMachine
from .responses import render
from .tools import Tool, ToolRegistry, call_tool, check_result, stand_in
from .trace import Act, ToolCall, TurnResult, TurnTrace
from .understand.base import DECLINE, GOODBYE, Intent, Parse, Understander, UnderstandingState
from .values import InvalidValue, coerce

MAX_INPUT_CHARS = 2000
"""User text beyond this many characters is cut off (noted in the trace)."""
STEP_LIMIT = 200
"""Most nodes one turn may enter before the turn fails with FlowLoopError."""
SNAPSHOT_VERSION = 1

Clock = Callable[[], dt.datetime]


class SessionSink(Protocol):
    """Where a bound Dialogue saves each committed turn (see :class:`fsmdial.store.SessionStore`).

    ``save_turn`` must be atomic, and must raise :class:`~fsmdial.errors.ConflictError`
    when the stored session is not at turn ``turn - 1`` (another writer won).
    """

    def save_turn(self, session_id: str, turn: int, snapshot: bytes, trace: dict[str, Any]) -> None: ...

Predicate = Callable[[FlowMachine], bool]


class _Values(Mapping[str, Any]):
    """Template values: slots by name, ``result.field`` (latest action) and ``node.field``.

    ``optional`` names the slots (``name``) and result fields (``node.field``) the flow declares optional:
    when absent they read as empty instead of failing the turn.
    """

    __slots__ = ("machine", "optional")

    def __init__(self, machine: FlowMachine, optional: frozenset[str] = frozenset()):
        self.machine = machine
        self.optional = optional

    def __getitem__(self, name: str) -> Any:
        head, dot, field = name.partition(".")
        if not dot:
            if name not in self.machine.slots and name in self.optional:
                return ""  # an optional slot the user never gave reads as nothing
            return self.machine.slots[name]
        node = self.machine.last_action if head == "result" else head
        if node is None or node not in self.machine.results:
            raise KeyError(name)
        result = self.machine.results[node]
        if field not in result and f"{node}.{field}" in self.optional:
            return ""  # a result field the action declares optional, absent this time
        return result[field]

    def __iter__(self):  # pragma: no cover - Mapping protocol
        return iter(self.machine.slots)

    def __len__(self) -> int:  # pragma: no cover
        return len(self.machine.slots)


_CLASS_CACHE: dict[str, type[FlowMachine]] = {}


def flow_class(flow: Flow | type[FlowMachine] | str | Any) -> type[FlowMachine]:
    """The compiled class for a flow (compiled once per distinct flow content)."""
    if isinstance(flow, type) and issubclass(flow, FlowMachine):
        return flow
    flow = load_flow(flow)
    key = fingerprint(flow)
    cls = _CLASS_CACHE.get(key)
    if cls is None:
        cls = _CLASS_CACHE[key] = compile_flow(flow)
    return cls


def _class_fingerprint(cls: type[FlowMachine]) -> str:
    """The flow's fingerprint, computed once per compiled class (snapshots carry it every turn)."""
    value = cls.__dict__.get("_fingerprint")
    if value is None:
        value = fingerprint(cls.FLOW)
        type.__setattr__(cls, "_fingerprint", value)
    return value


class Dialogue:
    """A conversation on a flow.

    ``flow`` is a compiled class, a :class:`Flow`, or anything :func:`load_flow`
    reads. ``tools`` maps each action's tool name to a callable (or is a
    :class:`ToolRegistry`); every tool the flow names must be there, unless
    ``stand_in_tools`` (for ``fsmdial chat``) replaces missing ones with
    stand-ins. ``predicates`` provides the named conditions (``{"call": ...}``).
    ``clock`` returns "now" for relative dates.
    """

    def __init__(
        self,
        flow: Flow | type[FlowMachine] | Any,
        *,
        understander: Understander | None = None,
        tools: ToolRegistry | Mapping[str, Callable[..., Any]] | None = None,
        predicates: Mapping[str, Predicate] | None = None,
        clock: Clock | None = None,
        stand_in_tools: bool = False,
        max_input_chars: int = MAX_INPUT_CHARS,
        store: SessionSink | None = None,
        session_id: str | None = None,
        routes: Mapping[str, tuple[str, ...]] | None = None,
    ):
        from .understand.rules import RulesUnderstander

        self.flow_class = flow_class(flow)
        self.flow: Flow = self.flow_class.FLOW
        self.understander: Understander = understander or RulesUnderstander()
        self.clock: Clock = clock or dt.datetime.now
        self.max_input_chars = max_input_chars
        self._nodes = {node.id: node for node in self.flow.nodes}
        requests = [node for node in self.flow.nodes if isinstance(node, RequestNode)]
        # Per request node, worked out once: the slots whose value is confirmed, and (when every
        # required slot must be given) the required slots, which is all `missing` then needs.
        self._confirm_fields = {node.id: tuple(slot for slot in node.slots if slot.confirm) for node in requests}
        self._required = {
            node.id: tuple(slot for slot in node.slots if slot.required) for node in requests if node.rule.kind == "all"
        }
        self._slots = self.flow.slots()
        self._optional = frozenset(name for name, slot in self._slots.items() if not slot.required) | {
            f"{node.id}.{field}"
            for node in self.flow.nodes
            if isinstance(node, ExternalActionNode)
            for field, spec in node.result.items()
            if not spec.required
        }
        self._fingerprint = _class_fingerprint(self.flow_class)
        self._decline_nodes = {edge.source for edge in self.flow.edges if edge.on_decline}
        self._has_way_on = {edge.source for edge in self.flow.edges if not edge.on_decline}
        self._tools = self._resolve_tools(ToolRegistry.of(tools), stand_in_tools)
        actions = [node for node in self.flow.nodes if isinstance(node, ExternalActionNode)]
        self._argument_map = {node.id: self.flow.action_arguments(node) for node in actions}
        self._required_slots = {node.id: self._required_argument_slots(node) for node in actions}
        self._check_predicates(predicates or {})
        self.machine = self.flow_class(predicates)
        self.history: list[tuple[str, str]] = []
        self.turns = 0
        self.retries: dict[str, int] = {}
        self.ended = False
        self.asked: str | None = None  # the slot the bot's last question asked for
        self._routed = False
        self.last_trace: TurnTrace | None = None
        self.store = store
        self.session_id = session_id or uuid.uuid4().hex
        # Other flows the user may switch to (an Assistant's routing): intent name -> example utterances.
        self.routes = {intent: tuple(examples) for intent, examples in (routes or {}).items()}
        self._route_intents = tuple(Intent(name, examples) for name, examples in self.routes.items())
        self._route_names = tuple(self.routes)
        cache = self.flow_class.__dict__.get("_understanding_cache")
        if cache is None:  # one per compiled class: every dialogue on the flow shares the states
            cache = {}
            type.__setattr__(self.flow_class, "_understanding_cache", cache)
        self._understanding_cache: dict[tuple[Any, ...], UnderstandingState] = cache

    # ----------------------------------------------------------- set-up
    def _resolve_tools(self, registry: ToolRegistry, stand_in_tools: bool) -> dict[str, Tool]:
        tools: dict[str, Tool] = {}
        for node in self.flow.nodes:
            if not isinstance(node, ExternalActionNode):
                continue
            if node.tool in registry:
                tools[node.id] = registry[node.tool]
            elif stand_in_tools:
                tools[node.id] = stand_in(self.flow, node)
            else:
                known = ", ".join(registry.names()) or "none"
                raise ToolError(node.tool, f"node {node.id!r} calls it but it is not registered (registered: {known})")
        return tools

    def _check_predicates(self, predicates: Mapping[str, Predicate]) -> None:
        from .flow import CallCondition

        conditions = [e.when for e in self.flow.edges if e.when is not None]
        conditions += [n.success_when for n in self.flow.nodes if isinstance(n, ExternalActionNode) and n.success_when]
        for cond in conditions:
            for sub in iter_conditions(cond):
                if isinstance(sub, CallCondition) and sub.call not in predicates:
                    raise TurnError(f"the flow uses predicate {sub.call!r} but no predicate of that name was given")

    @property
    def stand_ins(self) -> list[str]:
        """Tools replaced by stand-ins (``fsmdial chat`` only)."""
        return sorted({tool.name for tool in self._tools.values() if tool.stand_in})

    # ----------------------------------------------------------- reading
    @property
    def node(self) -> str:
        return self.machine.state

    @property
    def slots(self) -> dict[str, Any]:
        return dict(self.machine.slots)

    def _field_to_confirm(self, node: RequestNode) -> Any:
        """The first slot of ``node`` given but not yet confirmed, when its field asks for confirmation."""
        machine = self.machine
        for slot in self._confirm_fields[node.id]:
            if slot.name in machine.slots and not machine.confirmed.get(slot.name):
                return slot
        return None

    def _missing(self, node: RequestNode) -> list[Any]:
        """``node.missing(slots)``, without re-reading the node's rule when every required slot is needed."""
        required = self._required.get(node.id)
        if required is None:
            return node.missing(self.machine.slots)
        filled = self.machine.slots
        return [slot for slot in required if slot.name not in filled]

    def understanding_state(self) -> UnderstandingState:
        """What the user may say now (cached per machine state signature)."""
        machine = self.machine
        node = self._nodes[machine.state]
        expected: tuple[str, ...] = ()
        confirm = confirm_slot = None
        choices: tuple[Intent, ...] = ()
        if isinstance(node, RequestNode):
            field = self._field_to_confirm(node)
            if field is not None:
                confirm, confirm_slot = node.id, field.name
            else:
                expected = tuple(slot.name for slot in self._missing(node))
        elif isinstance(node, ConfirmNode) and machine.informed.get(node.id) and node.id not in machine.answers:
            confirm = node.id
            choices = tuple(Intent(c.name, tuple(c.examples) + ((c.description,) if c.description else ())) for c in node.choices or ())
        # "The text is the value" only for a slot the bot has asked for (or is confirming).
        asked = confirm_slot or (self.asked if self.asked in expected else None)
        key = (node.id, expected, asked, confirm, confirm_slot, self._route_names)
        cache = self._understanding_cache
        state = cache.get(key)
        if state is None:
            intents = tuple(Intent(ga.intent, tuple(ga.examples)) for ga in self.flow.global_actions)
            if self.flow.fallbacks.goodbye and GOODBYE not in {i.name for i in intents}:
                intents += (Intent(GOODBYE),)
            if expected and DECLINE not in {i.name for i in intents}:
                intents += (Intent(DECLINE),)
            intents += self._route_intents
            state = cache[key] = UnderstandingState(
                flow=self.flow.name,
                node=node.id,
                intents=intents,
                slots=tuple(self._slots.values()),
                expected=expected,
                asked=asked,
                confirm=confirm,
                confirm_slot=confirm_slot,
                context=self.flow.context,
                description=self.flow.description,
                choices=tuple(choice.name for choice in choices),
                choice_examples=choices,
            )
        return state

    def adopt_slots(self, values: Mapping[str, Any]) -> list[str]:
        """Take values another flow collected for slots of the same name that this one has not filled
        (coerced to this flow's types; values it would reject are left out). Returns the names taken."""
        now = self.clock()
        taken = []
        for name, value in values.items():
            slot = self._slots.get(name)
            if slot is None or name in self.machine.slots:
                continue
            try:
                self.machine.slots[name] = coerce(slot, value, now)
            except InvalidValue:
                continue
            taken.append(name)
        return taken

    # ------------------------------------------------------------ turns
    def start(self) -> TurnResult:
        """The bot's opening: advance from the start node until it needs the user."""
        self._routed = False
        return self._transaction(lambda trace, text: self._respond(trace, Parse(path="start"), text, None), "")

    def turn(self, text: str, *, routed: bool = False) -> TurnResult:
        """Process one user utterance. Raises :class:`TurnError` (session unchanged) on failure.

        ``routed``: the text is what made an Assistant open this flow, so an
        empty parse is not out of scope.
        """
        if not isinstance(text, str):
            raise TurnError(f"user text must be a string, not {type(text).__name__}")
        self._routed = routed
        return self._transaction(self._understand_and_respond, text)

    def _transaction(self, body: Callable[..., TurnResult], text: str) -> TurnResult:
        saved = (self.machine.checkpoint(), len(self.history), self.turns, self.retries.copy(), self.ended,
                 self.last_trace, self.asked)  # fmt: skip
        try:
            self.turns += 1
            trace = TurnTrace(turn=self.turns, text=text)
            self.machine.evaluated = []
            started = time.perf_counter()
            result = body(trace, text)
            trace.timings["total"] = time.perf_counter() - started
            if self.store is not None:  # saved before turn() returns; a store failure rolls the turn back
                self.store.save_turn(self.session_id, self.turns, self.snapshot(), trace.to_dict(timings=True))
            self.last_trace = trace
            return result
        except BaseException as exc:
            machine_cp, history_len, self.turns, self.retries, self.ended, self.last_trace, self.asked = saved
            self.machine.rollback(machine_cp)
            del self.history[history_len:]
            if isinstance(exc, FsmdialError) or not isinstance(exc, Exception):
                raise
            raise TurnError(f"turn failed: {type(exc).__name__}: {exc}") from exc

    def _understand_and_respond(self, trace: TurnTrace, text: str) -> TurnResult:
        text = trace.text = self._clean(text, trace)  # the trace (and the store) keep the cut, cleaned text
        state = self.understanding_state()
        started = time.perf_counter()
        try:
            parse = self.understander.understand(state, text, history=self.history, now=self.clock())
        except FsmdialError:
            raise
        except Exception as exc:
            raise UnderstandingError(f"understander failed: {type(exc).__name__}: {exc}") from exc
        trace.timings["understand"] = time.perf_counter() - started
        _check_parse(parse, state)
        trace.parse, trace.path, trace.model_calls = parse.to_dict(), parse.path, parse.model_calls
        trace.understanding = dict(parse.info)
        self.history.append(("user", text))
        return self._respond(trace, parse, text, state)

    def _respond(self, trace: TurnTrace, parse: Parse, text: str, state: UnderstandingState | None) -> TurnResult:
        machine = self.machine
        acts: list[Act] = []
        started = time.perf_counter()
        if parse.intent in self.routes:  # the user wants another flow: nothing happens here
            trace.notes.append(f"routed away: {parse.intent}")
            return TurnResult([], [], trace, machine.state, self.ended, route=parse.intent)
        if parse.intent == GOODBYE:
            acts.append(self._fallback("goodbye"))
            self.ended = True
        else:
            if parse.intent == DECLINE:
                self._decline(acts, trace)
            elif parse.intent is not None:
                self._global_action(parse.intent, acts, trace)
            proceed = self._update_slots(parse.slots, acts, trace)
            if state is not None and (parse.answer is not None or parse.choice is not None):
                self._apply_answer(parse, state, trace)
            trace.timings["update"] = time.perf_counter() - started
            started = time.perf_counter()
            if proceed:
                self.asked = None
                self._advance(acts, trace)
            trace.timings["advance"] = time.perf_counter() - started
            if parse.empty and text.strip() and self.flow.fallbacks.out_of_scope and not self._routed:
                acts.insert(0, self._fallback("out_of_scope"))
            elif not acts:
                name = "anything_else" if self.flow.fallbacks.anything_else else "out_of_scope"
                if getattr(self.flow.fallbacks, name):
                    acts.append(self._fallback(name))
        trace.conditions = [{"edge": name, "outcome": bool(outcome)} for name, outcome in machine.evaluated]
        for act in acts:
            if act.text:
                self.history.append(("bot", act.text))
        return TurnResult(acts, list(trace.tool_calls), trace, machine.state, self.ended)

    # ------------------------------------------------------------ steps
    def _clean(self, text: str, trace: TurnTrace) -> str:
        if len(text) > self.max_input_chars:
            trace.notes.append(f"input cut from {len(text)} to {self.max_input_chars} characters")
            text = text[: self.max_input_chars]
        if not text.isprintable():
            text = "".join(" " if unicodedata.category(ch) in ("Cc", "Cs") else ch for ch in text)
        return text

    def _fallback(self, name: str) -> Act:
        template = getattr(self.flow.fallbacks, name) or ""
        return Act("fallback", name, render(template, _Values(self.machine, self._optional)) if template else "")

    def _decline(self, acts: list[Act], trace: TurnTrace) -> None:
        node = self._nodes[self.machine.state]
        if isinstance(node, RequestNode):
            missing = self._missing(node)
            if missing:
                self.machine.declined[missing[0].name] = True
                trace.notes.append(f"slot {missing[0].name!r} declined")

    def _global_action(self, intent: str, acts: list[Act], trace: TurnTrace) -> None:
        action = next(ga for ga in self.flow.global_actions if ga.intent == intent)
        if action.response:
            acts.append(Act("global", intent, render(action.response, _Values(self.machine, self._optional))))
        if action.target is not None:
            self.machine.jump(action.target)
            trace.nodes.append(action.target)

    def _update_slots(self, values: Mapping[str, Any], acts: list[Act], trace: TurnTrace) -> bool:
        """Store valid values (telling the user about corrections); False when the turn must not go on."""
        machine = self.machine
        slots = self._slots
        changed: list[str] = []
        corrections: list[tuple[Any, Any]] = []
        escalate = False
        now = self.clock()
        for name, raw in values.items():
            slot = slots[name]
            try:
                value = coerce(slot, raw, now)
            except InvalidValue as exc:
                self.retries[name] = self.retries.get(name, 0) + 1
                trace.invalid.append({"slot": name, "value": _jsonable(raw), "reason": exc.message})
                acts.append(Act("invalid", f"invalid_{name}", f"Sorry, that is not a valid {slot.readable}: {exc.message}.", slot=name))
                escalate = escalate or self.retries[name] >= self.flow.max_attempts
                continue
            self.retries.pop(name, None)
            old = machine.slots.get(name)
            if name in machine.slots and old == value:
                continue
            if name in machine.slots:
                corrections.append((slot, value))
            machine.slots[name] = value
            machine.declined.pop(name, None)
            machine.confirmed.pop(name, None)
            trace.slot_changes.append({"slot": name, "old": old, "new": value})
            changed.append(name)
        if corrections:
            said = " and ".join(f"the {slot.readable} to {value}" for slot, value in corrections)
            acts.append(Act("changed", "changed", f"OK, I changed {said}.", slot=corrections[0][0].name))
        if changed:
            self._invalidate(changed, trace)
        if escalate:
            trace.notes.append(f"{self.flow.max_attempts} invalid values in a row: escalating")
            if self.flow.escalate_to is not None:
                self.machine.jump(self.flow.escalate_to)
                trace.nodes.append(self.flow.escalate_to)
                return True
            acts.append(self._fallback("cannot_continue" if self.flow.fallbacks.cannot_continue else "goodbye"))
            self.ended = True
            return False
        return True

    def _apply_answer(self, parse: Parse, state: UnderstandingState, trace: TurnTrace) -> None:
        """Record the answer to the question pending when the turn began (if the machine is still there)."""
        machine = self.machine
        if state.confirm is None or machine.state != state.confirm:
            return  # a correction moved the machine: the question will be asked again
        if state.confirm_slot is not None:
            name = state.confirm_slot
            if any(change["slot"] == name for change in trace.slot_changes):
                return  # "no, 7 people": the new value is confirmed next
            if parse.answer == "yes":
                machine.confirmed[name] = True
            elif parse.answer == "no":
                machine.slots.pop(name, None)
                self._invalidate([name], trace)
            return
        node = self._nodes[state.confirm]
        if isinstance(node, ConfirmNode) and node.choices:
            if parse.choice is not None:
                machine.answers[node.id] = parse.choice
        elif parse.answer is not None:
            machine.answers[node.id] = parse.answer

    def _invalidate(self, changed: list[str], trace: TurnTrace) -> None:
        machine = self.machine
        dependents = self.flow_class.DEPENDENTS
        reset: set[str] = set()
        rewind_to: str | None = None
        for name in changed:
            nodes = dependents.get(name, ())
            reset.update(nodes)
            if machine.state not in nodes:
                continue  # the machine has not passed the node asking this slot
            owner = self.flow_class.SLOT_OWNER[name]
            if rewind_to is None or rewind_to in dependents_of_node(self.flow_class, owner):
                rewind_to = owner  # the most upstream owner wins
        had_state = sorted(reset & (machine.status.keys() | machine.informed.keys() | machine.answers.keys()))
        machine.forget(tuple(reset))
        trace.reset.extend(had_state)
        if rewind_to is not None:
            machine.machine.set_state(rewind_to, model=machine)
            trace.nodes.append(rewind_to)

    def _advance(self, acts: list[Act], trace: TurnTrace) -> None:
        machine = self.machine
        values = _Values(machine, self._optional)
        for _ in range(STEP_LIMIT):
            node = self._nodes[machine.state]
            if isinstance(node, RequestNode):
                field = self._field_to_confirm(node)
                if field is not None:
                    question = render(field.confirm, values) if isinstance(field.confirm, str) else (
                        f"Just to confirm: the {field.readable} is {machine.slots[field.name]}, right?"
                    )
                    acts.append(Act("confirm", f"confirm_{field.name}", question, node.id, field.name))
                    return
                missing = self._missing(node)
                if missing and any(machine.declined.get(slot.name) for slot in missing):
                    if node.id in self._decline_nodes and machine.trigger("decline"):
                        trace.nodes.append(machine.state)
                        machine.enter(machine.state)
                        continue
                    acts.append(self._fallback("cannot_continue" if self.flow.fallbacks.cannot_continue else "goodbye"))
                    self.ended = True
                    return
                if missing:
                    slot = missing[0]
                    question = render(slot.ask, values) if slot.ask else _default_question(slot)
                    acts.append(Act("ask", slot.ask_act, question, node.id, slot.name))
                    self.asked = slot.name
                    return
            elif isinstance(node, ExternalActionNode):
                if node.id not in machine.status:
                    owner = self._owner_of_missing_argument(node)
                    if owner is not None:  # reached without a value its tool requires (after a jump): ask first
                        machine.machine.set_state(owner, model=machine)
                        trace.nodes.append(owner)
                        continue
                    self._run_action(node, trace)
            elif isinstance(node, InformNode):
                if not machine.informed.get(node.id):
                    acts.append(Act("inform", node.act, render(node.message, values), node.id))
                    machine.informed[node.id] = True
            elif isinstance(node, ConfirmNode):
                if node.id not in machine.answers:
                    first = not machine.informed.get(node.id)
                    parts = [node.message, node.question] if first and node.message else [node.question]
                    acts.append(Act("confirm", node.act, " ".join(render(p, values) for p in parts), node.id))
                    machine.informed[node.id] = True
                    return
            elif isinstance(node, EndNode):
                if not machine.informed.get(node.id):
                    text = render(node.message, values) if node.message else ""
                    acts.append(Act("end", node.act, text, node.id))
                    machine.informed[node.id] = True
                self.ended = True
                return
            # A node with no way on (no `advance` edge) is where the machine waits: triggering there would
            # only make transitions log a warning.
            if node.id not in self._has_way_on or not machine.advance():
                if isinstance(node, ConfirmNode):  # an answer no edge expects
                    if machine.answers.pop(node.id, None) == "no":  # ask what to change, not start over
                        acts.append(Act("ask_change", "ask_change", render(node.change_question, values), node.id))
                    else:
                        acts.append(Act("confirm", node.act, render(node.question, values), node.id))
                return
            trace.nodes.append(machine.state)
            machine.enter(machine.state)
        raise FlowLoopError(f"more than {STEP_LIMIT} nodes entered in one turn (at node {machine.state!r})")

    def _run_action(self, node: ExternalActionNode, trace: TurnTrace) -> None:
        machine = self.machine
        arguments = self._arguments(node)
        tool = self._tools[node.id]
        try:
            raw = call_tool(tool, arguments, node.timeout)
        except ToolArgumentError:
            raise  # the flow mapped arguments the tool cannot take: an error, not an outcome
        except ToolError as exc:  # the tool raised or timed out
            if not _has_failure_edge(self.flow, node):
                raise
            machine.status[node.id] = "failure"
            trace.tool_calls.append(ToolCall(node.tool, node.id, arguments, None, "failure", str(exc)))
            return
        result = check_result(node, raw)  # a result of the wrong shape always fails the turn
        machine.results[node.id] = result
        machine.last_action = node.id
        status = "success" if machine.succeeded(node.id) else "failure"
        machine.status[node.id] = status
        trace.tool_calls.append(ToolCall(node.tool, node.id, arguments, result, status))

    def _owner_of_missing_argument(self, node: ExternalActionNode) -> str | None:
        """The request node of a slot that a required tool argument reads and that has no value.

        A declined slot counts only when its node has no way around it (then that node says it cannot continue).
        """
        machine = self.machine
        for name, owner in self._required_slots[node.id]:
            if name not in machine.slots and not (machine.declined.get(name) and owner in self._decline_nodes):
                return owner
        return None

    def _required_argument_slots(self, node: ExternalActionNode) -> tuple[tuple[str, str], ...]:
        """(slot, owner node) of each required slot that a required argument of the node's tool reads."""
        model = self._tools[node.id].arguments
        if model is None:
            return ()
        mapping = self._argument_map[node.id]
        out = []
        for arg, spec in model.model_fields.items():
            source = mapping.get(arg)
            name = source if isinstance(source, str) else source.slot if isinstance(source, SlotArg) else None
            if spec.is_required() and name in self._slots and self._slots[name].required:
                out.append((name, self.flow_class.SLOT_OWNER[name]))
        return tuple(out)

    def _arguments(self, node: ExternalActionNode) -> dict[str, Any]:
        machine = self.machine
        out: dict[str, Any] = {}
        for arg, source in self._argument_map[node.id].items():
            if isinstance(source, (str, SlotArg)):
                name = source if isinstance(source, str) else source.slot
                if name in machine.slots:
                    out[arg] = machine.slots[name]
            elif isinstance(source, ResultArg):
                value = machine.result_field(source.node, source.result)
                if value is not None and value.__class__.__name__ != "_Missing":
                    out[arg] = value
            elif isinstance(source, ValueArg):
                out[arg] = source.value
        return out

    # ------------------------------------------------------- persistence
    def snapshot(self) -> bytes:
        """The whole session as versioned JSON bytes (see :meth:`restore`)."""
        return orjson.dumps(
            {
                "format": "fsmdial.session",
                "version": SNAPSHOT_VERSION,
                "flow": self.flow.name,
                "fingerprint": self._fingerprint,
                "machine": self.machine.bookkeeping(),
                "history": self.history,
                "turns": self.turns,
                "retries": self.retries,
                "ended": self.ended,
                "asked": self.asked,
            }
        )

    @classmethod
    def restore(cls, flow: Any, snapshot: bytes | str | Mapping[str, Any], **kwargs: Any) -> Dialogue:
        """A dialogue continuing from ``snapshot`` (keyword arguments as for the constructor)."""
        dialogue = cls(flow, **kwargs)
        dialogue.load_snapshot(snapshot)
        return dialogue

    def load_snapshot(self, snapshot: bytes | str | Mapping[str, Any]) -> None:
        try:
            data = orjson.loads(snapshot) if isinstance(snapshot, (bytes, str)) else dict(snapshot)
        except orjson.JSONDecodeError as exc:
            raise SnapshotError(f"snapshot is not valid JSON: {exc}") from None
        if not isinstance(data, dict) or data.get("format") != "fsmdial.session":
            raise SnapshotError("not an fsmdial session snapshot")
        if data.get("version") != SNAPSHOT_VERSION:
            raise SnapshotError(
                f"snapshot format version {data.get('version')!r} is not supported (this fsmdial reads version {SNAPSHOT_VERSION})"
            )
        if data.get("fingerprint") != self._fingerprint:
            raise SnapshotError(f"snapshot belongs to flow {data.get('flow')!r} with different content, not {self.flow.name!r}")
        try:
            self.machine.load_bookkeeping(data["machine"])
            self.history = [(str(role), str(text)) for role, text in data["history"]]
            self.turns = int(data["turns"])
            self.retries = {str(k): int(v) for k, v in data["retries"].items()}
            self.ended = bool(data["ended"])
            self.asked = data.get("asked")
        except (KeyError, TypeError, ValueError) as exc:
            raise SnapshotError(f"snapshot is incomplete or malformed: {exc!r}") from None


def dependents_of_node(cls: type[FlowMachine], node: str) -> tuple[str, ...]:
    """Nodes reachable from request node ``node`` (through any of its slots)."""
    for slot, owner in cls.SLOT_OWNER.items():
        if owner == node:
            return cls.DEPENDENTS.get(slot, ())
    return ()


def _has_failure_edge(flow: Flow, node: ExternalActionNode) -> bool:
    return any(
        isinstance(cond, StatusCondition) and cond.status == "failure"
        for edge in flow.outgoing(node.id)
        if edge.when is not None
        for cond in iter_conditions(edge.when)
    )


def _check_parse(parse: Parse, state: UnderstandingState) -> None:
    if not isinstance(parse, Parse):
        raise UnderstandingError(f"understander returned {type(parse).__name__}, not a Parse")
    if parse.intent is not None and parse.intent not in {i.name for i in state.intents}:
        raise UnderstandingError(f"understander returned intent {parse.intent!r}, not allowed at node {state.node!r}")
    for name in parse.slots:
        if state.slot(name) is None:
            raise UnderstandingError(f"understander returned unknown slot {name!r}")
    if parse.answer is not None and parse.answer not in ("yes", "no", "other"):
        raise UnderstandingError(f"understander returned answer {parse.answer!r}")


def _default_question(slot: Any) -> str:
    return f"Could you tell me the {slot.readable}?"


def _jsonable(value: Any) -> Any:
    return value if isinstance(value, (str, int, float, bool)) or value is None else repr(value)
