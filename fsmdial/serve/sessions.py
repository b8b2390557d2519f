"""Playground sessions: each conversation is a log of events in a session store (:mod:`fsmdial.stores`).

An event is one committed step: ``start`` (the bot's opening), ``turn`` (a user
utterance and the bot's answer) or ``undo`` (back to the state before the last
visible turn). Every event is saved with ``save_turn`` (event
number as the store's turn number), so the store's row of a session always
holds the snapshot to continue from, and its list of traces is the whole log::

    {"event": "turn", "target": "restaurant_booking", "text": "7pm",
     "result": {acts, tool_calls, node, flow, ended}, "trace": {...}, "snapshot": {...}}

Undo appends an event instead of deleting one, so each step stays a single
atomic write, a crash never leaves a session between two states, and the
download shows what happened, undone turns included. A turn in which a
committing action (``"commits": true``: a booking, a payment) succeeded is part
of history: undo stops there (:class:`~fsmdial.serve.errors.UndoRefused`), since
going back would let the same "yes" run the action a second time.

A request restores the conversation from the store, runs it, and saves the
new event; nothing lives only in memory, so a restarted server (or another
process on the same store: ``fsmdial serve --workers N``) carries on where the
last committed event left off. A turn or undo holds the session's claim from
before it reads the session until its view is read, so its answer shows that
turn, whichever process serves the next.
A turn that fails saves nothing: the session stays as it was.
"""

from __future__ import annotations

import threading
import uuid
from collections.abc import Mapping, Sequence
from typing import Any

import orjson

from ..assistant import Assistant
from ..conversation import Conversation
from ..errors import SnapshotError, TurnError, UnknownSession
from ..flow import ExternalActionNode
from ..jsonvalues import jsonable
from ..runtime import Dialogue, flow_class
from ..stores import Store, storable_text
from ..trace import TurnResult
from .diagram import Diagram, flow_diagram
from .errors import NothingToUndo, ServeError, SessionFull, UndoRefused, UnknownFlow

FORMAT = "fsmdial.serve.session"
"""``format`` of a downloaded session."""
__all__ = [
    "FORMAT",
    "MAX_EVENTS",
    "NothingToUndo",
    "Playground",
    "ServeError",
    "SessionFull",
    "UnknownFlow",
    "visible_events",
]
MAX_EVENTS = 500
"""Most events one session may hold (a runaway client cannot grow a session without bound)."""


class Playground:
    """The sessions of a set of flows, kept in ``store``.

    With one flow, sessions talk to it; with several, a session talks to all of
    them as one :class:`~fsmdial.assistant.Assistant` (as ``fsmdial chat``
    does) unless it is opened on one flow by name. ``tools`` and
    ``understander`` are shared by every session; the turns of all sessions
    run one at a time (one model, calls serialised). Missing tools get
    stand-ins, as in ``fsmdial chat``.
    """

    def __init__(
        self,
        flows: Sequence[Any],
        store: Store[Any],
        *,
        tools: Any = None,
        understander: Any = None,
        stand_in_tools: bool = True,
        max_events: int = MAX_EVENTS,
        **dialogue_options: Any,
    ):
        classes = [flow_class(flow) for flow in flows]
        if not classes:
            raise ServeError("fsmdial serve needs at least one flow")
        self.classes = {cls.FLOW.name: cls for cls in classes}
        if len(self.classes) != len(classes):
            raise ServeError("two of the flows have the same name; a session could not tell them apart")
        for name in self.classes:  # refused now, not at every session's first commit
            problem = storable_text(name)
            if problem is not None:
                raise ServeError(f"the flow name {name!r} {problem}, so no session store can keep its sessions")
        self.store = store
        self.max_events = max_events
        self._options = {
            "tools": tools,
            "understander": understander,
            "stand_in_tools": stand_in_tools,
            **dialogue_options,
        }
        self.diagrams: dict[str, Diagram] = {name: flow_diagram(cls) for name, cls in self.classes.items()}
        self._turns = threading.Lock()
        self._commits = {
            (node.id, node.tool)
            for cls in classes
            for node in cls.FLOW.nodes
            if isinstance(node, ExternalActionNode) and node.commits
        }
        for name in self.classes:
            self._conversation(name)  # a missing tool or predicate fails now, not at the first session

    # ------------------------------------------------------------ flows
    def flows(self) -> dict[str, Any]:
        """What the page needs to know about the flows served (names, descriptions, slots, diagrams)."""
        return {
            "flows": [
                {
                    "name": name,
                    "description": cls.FLOW.description,
                    "slots": list(cls.FLOW.slots()),
                    "diagram": self.diagrams[name].to_dict(),
                }
                for name, cls in self.classes.items()
            ],
            "assistant": len(self.classes) > 1,
        }

    def _conversation(self, target: str | None) -> Conversation:
        """A fresh conversation: one flow by name, or (``None``) the default one."""
        if target is None:
            if len(self.classes) == 1:
                target = next(iter(self.classes))
            else:
                return Assistant(list(self.classes.values()), **self._options)
        cls = self.classes.get(target)
        if cls is None:
            raise UnknownFlow(f"no flow named {target!r} is served here (served: {', '.join(self.classes)})")
        return Dialogue(cls, **self._options)

    def _restore(self, session_id: str, events: list[dict[str, Any]]) -> Conversation:
        """The session's conversation at its last committed event."""
        target = target_of(events)
        if target is not None and target not in self.classes:
            raise UnknownFlow(f"session {session_id!r} is on flow {target!r}, which this server does not serve")
        conversation = self._conversation(target)
        _, snapshot = self.store.load(session_id)
        try:
            conversation.load_snapshot(snapshot)
        except SnapshotError as exc:
            raise SnapshotError(f"session {session_id!r} cannot be continued here: {exc}") from None
        return conversation

    # ------------------------------------------------------------ steps
    def create(self, flow: str | None = None) -> dict[str, Any]:
        """A new session (on ``flow``, or the default conversation) with the bot's opening; returns its view."""
        conversation = self._conversation(flow)
        target = conversation.flow.name if isinstance(conversation, Dialogue) else None
        session_id = uuid.uuid4().hex
        with self._turns:
            result = conversation.start()
            self._save(session_id, 1, "start", target, conversation, result, "")
        return self.view(session_id)

    def turn(self, session_id: str, text: str) -> dict[str, Any]:
        """One user turn; returns the session's view. On any failure the stored session is unchanged."""
        if not isinstance(text, str):
            raise TurnError(f"user text must be a string, not {type(text).__name__}")
        with self._turns, self.store.claim(session_id):  # the claim first: another process's turn is done or waits
            events = self.events(session_id)
            self._check_room(session_id, events)
            conversation = self._restore(session_id, events)
            result = conversation.turn(text)
            self._save(session_id, len(events) + 1, "turn", target_of(events), conversation, result, text)
            return self.view(session_id)  # still claimed: the view of this turn, not of one another process ran since

    def undo(self, session_id: str) -> dict[str, Any]:
        """Back to the state before the last visible user turn (a new ``undo`` event); returns the view."""
        with self._turns, self.store.claim(session_id):
            events = self.events(session_id)
            self._check_room(session_id, events)
            visible = visible_events(events)
            if len(visible) < 2:
                raise NothingToUndo(f"session {session_id!r} has no turn to undo")
            committed = self._committed(visible[-1][1])
            if committed:
                raise UndoRefused(
                    f"turn {len(visible) - 1} of session {session_id!r} called {committed!r}, which commits: what it "
                    "did outside the conversation stays done, so that turn and the turns before it cannot be undone"
                )
            undone, (_, back_to) = visible[-1][0], visible[-2]
            record = {"event": "undo", "target": target_of(events), "undoes": undone, "snapshot": back_to["snapshot"]}
            self.store.save_turn(session_id, len(events) + 1, orjson.dumps(back_to["snapshot"]), record)
            return self.view(session_id)

    def _committed(self, event: Mapping[str, Any]) -> str | None:
        """The tool of a committing action (``"commits": true``) that succeeded in this event's turn, if any."""
        for call in event.get("result", {}).get("tool_calls", ()):
            if call.get("status") == "success" and (call.get("node"), call.get("tool")) in self._commits:
                return str(call["tool"])
        return None

    def _check_room(self, session_id: str, events: list[dict[str, Any]]) -> None:
        if len(events) >= self.max_events:
            raise SessionFull(
                f"session {session_id!r} has {len(events)} events, the most one session may hold; start a new one"
            )

    def _save(
        self,
        session_id: str,
        number: int,
        kind: str,
        target: str | None,
        conversation: Conversation,
        result: TurnResult,
        text: str,
    ) -> None:
        snapshot = conversation.snapshot()
        record = {
            "event": kind,
            "target": target,
            "text": result.trace.text if kind == "turn" else text,
            "result": {
                "acts": [act.to_dict() for act in result.acts],
                "tool_calls": [call.to_dict() for call in result.tool_calls],
                "node": result.node,
                "flow": result.flow or (conversation.flow.name if isinstance(conversation, Dialogue) else None),
                "ended": bool(result.ended),
            },
            "trace": result.trace.to_dict(timings=True),
            "snapshot": orjson.loads(snapshot),
        }
        self.store.save_turn(session_id, number, snapshot, record)

    # ------------------------------------------------------------ reading
    def events(self, session_id: str) -> list[dict[str, Any]]:
        """The session's event log. Raises :class:`UnknownSession`.

        A stored event that cannot be read (a damaged row) is ``{"event": "damaged", "turn": n, "damaged": why}``:
        it is left out of the visible turns, and the session goes on from its stored snapshot.
        """
        events = [
            {"event": "damaged", **event} if event.keys() == {"turn", "damaged"} else event
            for event in self.store.traces(session_id, damaged="mark")
        ]
        if not events or not all("event" in event for event in events):
            raise UnknownSession(session_id)  # a session of the store that no playground wrote
        if not visible_events(events):
            raise SnapshotError(f"session {session_id!r}: every event of its opening is damaged; start a new one")
        return events

    def view(self, session_id: str) -> dict[str, Any]:
        """What the page shows: the visible turns, the current node, the slots, what can be done next."""
        events = self.events(session_id)
        visible = visible_events(events)
        conversation = self._restore(session_id, events)
        last = visible[-1][1]["result"]
        flow = last.get("flow")
        if isinstance(conversation, Assistant) and conversation.active is not None:
            flow = conversation.active
        turns = [
            {
                "number": index,
                "user": event["text"] if event["event"] == "turn" else None,
                "acts": event["result"]["acts"],
                "tool_calls": event["result"]["tool_calls"],
                "node": event["result"]["node"],
                "flow": event["result"]["flow"],
                "trace": event["trace"],
            }
            for index, (_, event) in enumerate(visible)
        ]
        return {
            "id": session_id,
            "target": target_of(events),
            "flow": flow,
            "node": last["node"],
            "entered": visible[-1][1]["trace"].get("nodes", []),
            "ended": last["ended"],
            "turns": turns,
            "slots": self._slots(conversation, flow, turns),
            "can_undo": len(visible) > 1 and self._committed(visible[-1][1]) is None,
            "events": len(events),
        }

    def _slots(self, conversation: Conversation, flow: str | None, turns: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Each slot of the active flow: its value, the turn that set it, whether it was corrected."""
        if isinstance(conversation, Assistant):
            dialogue = conversation.dialogues.get(flow) if flow else None
            values = dialogue.slots if dialogue is not None else {}
        else:
            values = conversation.slots
        cls = self.classes.get(flow) if flow else None
        names = list(cls.FLOW.slots()) if cls is not None else list(values)
        set_at: dict[str, int] = {}
        seen: dict[str, list[bytes]] = {}
        for turn in turns:
            if turn["flow"] != flow:
                continue
            for change in turn["trace"].get("slot_changes", []):
                if change.get("new") is not None:
                    set_at[change["slot"]] = turn["number"]
                    encoded = orjson.dumps(change["new"])
                    if encoded not in seen.setdefault(change["slot"], []):
                        seen[change["slot"]].append(encoded)
        return [
            {
                "name": name,
                "value": jsonable(values[name]) if name in values else None,
                "set": name in values,
                "turn": set_at.get(name) if name in values else None,
                "corrected": name in values and len(seen.get(name, ())) > 1,
            }
            for name in names
        ]

    def export(self, session_id: str) -> dict[str, Any]:
        """The whole session as one JSON document: the current snapshot and every event with its trace."""
        events = self.events(session_id)
        _, snapshot = self.store.load(session_id)
        return {
            "format": FORMAT,
            "version": 1,
            "id": session_id,
            "target": target_of(events),
            "snapshot": orjson.loads(snapshot),
            "events": events,
        }


def target_of(events: Sequence[Mapping[str, Any]]) -> str | None:
    """The flow the session was opened on (``None``: the default conversation), as its readable events say."""
    return next((event.get("target") for event in events if event["event"] != "damaged"), None)


def visible_events(events: Sequence[Mapping[str, Any]]) -> list[tuple[int, Mapping[str, Any]]]:
    """(event number, event) of the start and the turns not undone, in order."""
    stack: list[tuple[int, Mapping[str, Any]]] = []
    for number, event in enumerate(events, 1):
        if event["event"] == "damaged":
            continue
        if event["event"] == "undo":
            if len(stack) > 1:
                stack.pop()
        else:
            stack.append((number, event))
    return stack
