"""``Dialogue``: one conversation on a compiled flow, turn by turn.

A turn, in order (see ARCHITECTURE.md):

1. **understand**: the understander parses the text against what the current
   node can accept (:meth:`Dialogue.understanding_state`);
2. **respond** (:func:`fsmdial.turn.respond`): goodbye, a decline or a global
   action; slot updates (a changed slot resets the nodes depending on it);
   the answer to a pending confirmation;
3. **advance** (:func:`fsmdial.steps.advance`): node steps, one handler per node
   type, until the machine needs the user or the conversation ends;
4. a fallback when nothing else was said.

A turn is a transaction: the session (one :class:`~fsmdial.session.SessionState`)
is copied before it, and if anything fails the copy is put back and a typed
:class:`~fsmdial.errors.TurnError` is raised.
"""

from __future__ import annotations

import datetime as dt
import time
import unicodedata
import uuid
from collections.abc import Callable, Mapping, Sequence
from contextlib import suppress
from types import TracebackType
from typing import Any, ClassVar, Protocol

from .actions import Actions
from .errors import FsmdialError, MissingPredicateError, TurnError, UnderstandingError
from .flow import CallCondition, ExternalActionNode, Slot, iter_conditions
from .machine import FlowMachine
from .restoring import read_session
from .session import SNAPSHOT_VERSION, SessionState, encode_snapshot
from .slots import with_reading_asked
from .steps import STEP_LIMIT, TurnContext
from .tables import FlowSource, flow_class, tables_of
from .tools import ToolRegistry
from .trace import TurnResult, TurnTrace
from .turn import Routes, check_parse, respond, understanding_state
from .understand.base import Parse, Understander, UnderstandingState
from .understand.rules import RulesUnderstander
from .values import InvalidValue, coerce

__all__ = [
    "MAX_INPUT_CHARS",
    "clean_input",
    "SNAPSHOT_VERSION",
    "STEP_LIMIT",
    "AllOrNothing",
    "Dialogue",
    "SessionSink",
    "checked_parse",
    "flow_class",
]

MAX_INPUT_CHARS = 2000
"""User text beyond this many characters is cut off (noted in the trace)."""

Clock = Callable[[], dt.datetime]
Predicate = Callable[[FlowMachine], bool]


class SessionSink(Protocol):
    """Where a bound Dialogue saves each committed turn (see :class:`fsmdial.stores.SQLiteStore`).

    ``save_turn`` must be atomic, and must raise :class:`~fsmdial.errors.ConflictError`
    when the stored session is not at turn ``turn - 1`` (another writer won).
    """

    def save_turn(self, session_id: str, turn: int, snapshot: bytes, trace: dict[str, Any]) -> None: ...


class AllOrNothing:
    """A context manager for a transaction: if its block fails, ``undo()`` runs, then the error is raised as it
    is when it is an fsmdial error (or no ``Exception``: an interrupt), else as a :class:`TurnError` naming it."""

    __slots__ = ("undo",)

    def __init__(self, undo: Callable[[], None]):
        self.undo = undo

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        if exc is not None:
            self.undo()
            if isinstance(exc, Exception) and not isinstance(exc, FsmdialError):
                raise TurnError(f"turn failed: {type(exc).__name__}: {exc}") from exc


class Dialogue:
    """A conversation on a flow.

    ``flow`` is a compiled class, a :class:`~fsmdial.flow.Flow`, or anything :func:`~fsmdial.loader.load_flow` reads.
    ``tools`` maps each action's tool name to a callable (or is a :class:`ToolRegistry`); every tool the flow names must
    be there, unless ``stand_in_tools`` (for ``fsmdial chat``) replaces missing ones with stand-ins. ``predicates``
    provides the named conditions (``{"call": ...}``). ``clock`` returns "now" for relative dates. ``store`` saves every
    committed turn under ``session_id``; ``routes`` names other flows the user may switch to (an Assistant's routing).
    Teacher forcing (moving the session as a gold transcript says) is :mod:`fsmdial.testing.forcing`.
    """

    default_understander: ClassVar[type[Understander]] = RulesUnderstander
    """The understander made (with no arguments) when none is given; a subclass may name another."""

    def __init__(
        self,
        flow: FlowSource,
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
        self.flow_class = flow_class(flow)
        self.tables = tables_of(self.flow_class)
        self.flow = self.tables.flow
        self.understander: Understander = understander or self.default_understander()
        self.clock: Clock = clock or dt.datetime.now
        self.max_input_chars = max_input_chars
        self.actions = Actions(self.tables, ToolRegistry.of(tools), stand_in_tools=stand_in_tools)
        _check_predicates(self.flow_class, predicates or {})
        self.machine = self.flow_class(predicates)
        self._turn = TurnContext(self.machine, self.tables, self.actions)
        self.routes = Routes(routes)
        self.last_trace: TurnTrace | None = None
        self.store = store
        self.session_id = session_id or uuid.uuid4().hex

    @property
    def session(self) -> SessionState:
        """Everything the conversation holds (read it; change it through the methods below)."""
        return self.machine.session

    @property
    def node(self) -> str:
        return self.session.node

    @property
    def slots(self) -> dict[str, Any]:
        return dict(self.session.slots)

    @property
    def ended(self) -> bool:
        return self.session.ended

    @property
    def history(self) -> list[tuple[str, str]]:
        return self.session.history

    @property
    def turns(self) -> int:
        return self.session.turns

    @property
    def retries(self) -> dict[str, int]:
        return self.session.retries

    @property
    def asked(self) -> str | None:
        return self.session.asked  # the slot the bot's last question asked for

    @property
    def stand_ins(self) -> list[str]:
        """Tools replaced by stand-ins (``fsmdial chat`` only)."""
        return self.actions.stand_ins

    def understanding_state(self) -> UnderstandingState:
        """What the user may say now (cached per flow and session signature)."""
        return understanding_state(self.tables, self.session, self.routes)

    def adopt_slots(self, values: Mapping[str, Any]) -> list[str]:
        """Take values another flow collected for slots of the same name that this one has not filled
        (coerced to this flow's types; values it would reject are left out). Returns the names taken."""
        return _adopt(self.tables.slots, self.session.slots, values, self.clock())

    # ------------------------------------------------------------ turns
    def start(self) -> TurnResult:
        """The bot's opening: advance from the current node until it needs the user."""
        return self._run("", opening=True)

    def turn(self, text: str, *, routing: Parse | None = None) -> TurnResult:
        """Process one user utterance. Raises :class:`TurnError` (session unchanged) on failure. ``routing``: the
        parse with which an Assistant chose this flow for ``text`` (an empty reading is then not out of scope, and
        its model call is this turn's one: see :func:`_reader`)."""
        if not isinstance(text, str):
            raise TurnError(f"user text must be a string, not {type(text).__name__}")
        return self._run(text, routing=routing)

    def _run(self, text: str, *, opening: bool = False, routing: Parse | None = None) -> TurnResult:
        with self.transaction():
            session = self.session
            session.turns += 1
            trace = TurnTrace(turn=session.turns, text=text)
            self.machine.evaluated = []
            started = time.perf_counter()
            turn = self._turn.begin(trace)
            if opening:
                result = respond(
                    turn, Parse(path="start"), "", None, routes=self.routes, routed=False, now=self.clock()
                )
            else:
                result = self._understand_and_respond(turn, routing)
            trace.timings["total"] = time.perf_counter() - started
            if self.store is not None:  # saved before turn() returns; a store failure rolls the turn back
                self.store.save_turn(self.session_id, session.turns, self.snapshot(), trace.to_dict(timings=True))
            self.last_trace = trace
            return result

    def transaction(self) -> AllOrNothing:
        """A context manager: the session is copied; if the block fails, the copy and the last trace are put back
        and the error raised typed (see :class:`AllOrNothing`). Each turn runs in one; an Assistant's, one per flow."""
        saved, trace = self.session.copy(), self.last_trace

        def put_back() -> None:
            self.machine.use(saved)
            self.last_trace = trace

        return AllOrNothing(put_back)

    def _understand_and_respond(self, turn: TurnContext, routing: Parse | None) -> TurnResult:
        trace, session = turn.trace, turn.session
        text, note = clean_input(trace.text, self.max_input_chars)
        trace.text = text  # the cut, cleaned text is what the trace and the store keep, too
        trace.notes.extend([note] if note else [])
        state = understanding_state(self.tables, session, self.routes)
        started = time.perf_counter()
        now = self.clock()  # one reading per turn: "tomorrow" means the same day to the understander and to coerce
        spent = routing.model_calls if routing is not None else 0
        parse = checked_parse(_reader(self.understander, spent), state, text, history=session.history, now=now)
        trace.timings["understand"] = time.perf_counter() - started
        trace.parse, trace.path, trace.model_calls = parse.to_dict(), parse.path, parse.model_calls + spent
        if routing is not None:
            trace.notes.append(f"routed here by the {routing.path} reading ({spent} model call(s))")
        trace.understanding = dict(parse.info)
        session.history.append(("user", text))
        return respond(turn, parse, text, state, routes=self.routes, routed=routing is not None, now=now)

    # ------------------------------------------------------- persistence
    def snapshot(self) -> bytes:
        """The whole session as versioned JSON bytes (see :meth:`restore`)."""
        return encode_snapshot(self.session, self.flow.name, self.tables.fingerprint)

    @classmethod
    def restore(cls, flow: FlowSource, snapshot: bytes | str | Mapping[str, Any], **kwargs: Any) -> Dialogue:
        """A dialogue continuing from ``snapshot`` (keyword arguments as for the constructor)."""
        dialogue = cls(flow, **kwargs)
        dialogue.load_snapshot(snapshot)
        return dialogue

    def load_snapshot(self, snapshot: bytes | str | Mapping[str, Any]) -> None:
        """Continue from ``snapshot``: all or nothing. A damaged, hand-edited or foreign snapshot is a
        :class:`~fsmdial.errors.SnapshotError` naming what and where, and the dialogue is left as it was."""
        self.load_session(self.read_snapshot(snapshot))

    def load_session(self, session: SessionState) -> None:
        """Continue from ``session``, as :meth:`read_snapshot` returned it (checked against this flow)."""
        self.machine.use(session)

    def read_snapshot(self, snapshot: bytes | str | Mapping[str, Any]) -> SessionState:
        """The session ``snapshot`` holds, checked against this dialogue's flow, without using it."""
        return read_session(self.tables, snapshot, self.clock())


_SPACED = frozenset(("Cc", "Cs", "Zl", "Zp"))
"""Categories that become a space: control characters, lone surrogates, line and paragraph separators."""
_DROPPED = frozenset(("Cf",))
"""Format characters (bidi overrides such as U+202E, zero-width spaces and joiners, BOM) are taken out: they
are invisible, and could make a reply read one way on screen and another way to the engine."""


def _adopt(slots: Mapping[str, Slot], held: dict[str, Any], values: Mapping[str, Any], now: dt.datetime) -> list[str]:
    """Put ``values`` of the ``slots`` not ``held`` yet into ``held``, coerced (see :meth:`Dialogue.adopt_slots`)."""
    taken = []
    for name, value in values.items():
        slot = slots.get(name)
        if slot is not None and name not in held:
            with suppress(InvalidValue):
                held[name] = coerce(slot, value, now)
                taken.append(name)
    return taken


def _reader(understander: Understander, spent: int) -> Understander:
    """Who reads a turn: ``understander``, or, when this turn's model call was spent already (an Assistant's model
    chose the flow), the rules alone (a model understander's own grounding rules, else new ones)."""
    if not spent or isinstance(understander, RulesUnderstander):
        return understander
    own = getattr(understander, "grounding", None)
    return own if isinstance(own, RulesUnderstander) else RulesUnderstander()


def clean_input(text: str, max_chars: int = MAX_INPUT_CHARS) -> tuple[str, str | None]:
    """User text as the engine reads it: cut to ``max_chars``, then controls, separators and lone surrogates
    turned into spaces and invisible format characters removed. Returns the text and a note when it was cut."""
    note = None
    if len(text) > max_chars:
        note = f"input cut from {len(text)} to {max_chars} characters"
        text = text[:max_chars]
    if not text.isprintable():
        out = []
        for ch in text:
            category = unicodedata.category(ch)
            if category in _SPACED:
                out.append(" ")
            elif category not in _DROPPED:
                out.append(ch)
        text = "".join(out)
    return text, note


def checked_parse(
    understander: Understander,
    state: UnderstandingState,
    text: str,
    *,
    history: Sequence[tuple[str, str]] = (),
    now: dt.datetime | None = None,
) -> Parse:
    """``understander``'s parse of ``text`` (completed when it answers which reading of a clock time was meant),
    checked against ``state``; a failure of the understander itself
    (anything but an fsmdial error) is an :class:`UnderstandingError`, a parse that does not fit a typed error."""
    heard = with_reading_asked(history, text)  # "in the evening", answering "7:45 in the morning or in the evening?"
    try:
        parse = understander.understand(state, heard, history=history, now=now)
    except FsmdialError:
        raise
    except Exception as exc:
        raise UnderstandingError(f"understander failed: {type(exc).__name__}: {exc}") from exc
    check_parse(parse, state)
    return parse


def _check_predicates(cls: type[FlowMachine], predicates: Mapping[str, Predicate]) -> None:
    flow = cls.FLOW
    conditions = [e.when for e in flow.edges if e.when is not None]
    conditions += [n.success_when for n in flow.nodes if isinstance(n, ExternalActionNode) and n.success_when]
    for cond in conditions:
        for sub in iter_conditions(cond):
            if isinstance(sub, CallCondition) and sub.call not in predicates:
                raise MissingPredicateError(
                    f"the flow uses predicate {sub.call!r} but no predicate of that name was given"
                )
