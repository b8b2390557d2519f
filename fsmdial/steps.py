"""Node steps: one handler per node type, each returning what happens next.

:func:`advance` runs the machine until it needs the user. At each node the
node type's handler does the node's work (ask, call the tool, tell, confirm,
end) and returns an explicit result, as Rasa's flow executor does:

* :class:`Follow`: the node is done, fire ``trigger`` (``advance``, or ``decline``
  for a request node's alternative branch); when no edge is open, the handler's
  ``stuck`` says what then;
* :class:`Goto`: move to another node, keeping its bookkeeping (an action reached
  without a value its tool requires goes back to the node asking it);
* :data:`PAUSE`: wait for the user; :data:`END`: the conversation is over.

Entering a node through a trigger starts its fresh visit (``FlowMachine.fire``),
so a handler never has to.
"""

from __future__ import annotations

from collections import ChainMap
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from .actions import Actions
from .errors import CommitGuardError, FlowLoopError
from .flow import (
    AnyNode,
    ConfirmNode,
    EndNode,
    ExternalActionNode,
    InformNode,
    RequestNode,
    Slot,
    SlotArg,
    is_question,
)
from .language import sentences
from .machine import FlowMachine
from .responses import TemplateValues, message_style, render
from .tables import FlowTables
from .trace import Act, ActKind, TurnTrace

STEP_LIMIT = 200
"""Most nodes one turn may enter before the turn fails with FlowLoopError."""


@dataclass(frozen=True, slots=True)
class Follow:
    """The node is done: fire ``trigger``."""

    trigger: Literal["advance", "decline"] = "advance"


@dataclass(frozen=True, slots=True)
class Goto:
    """Move to ``node`` without a fresh visit."""

    node: str


@dataclass(frozen=True, slots=True)
class Pause:
    """Wait for the user."""


@dataclass(frozen=True, slots=True)
class End:
    """The conversation is over."""


FOLLOW = Follow()
PAUSE = Pause()
END = End()
StepResult = Follow | Goto | Pause | End


class TurnContext:
    """What one turn works on: the machine and its session, the flow's tables, the acts said so far.

    A dialogue keeps one and :meth:`begin` resets it for each turn (a turn is on the hot path).
    """

    __slots__ = (
        "machine",
        "session",
        "tables",
        "actions",
        "trace",
        "acts",
        "values",
        "lenient",
        "reask",
        "missed_change",
        "asked_back",
        "asked_before",
    )

    def __init__(self, machine: FlowMachine, tables: FlowTables, actions: Actions, trace: TurnTrace | None = None):
        self.machine = machine
        self.tables = tables
        self.actions = actions
        flow = tables.flow
        kinds = {name: slot.type.value for name, slot in tables.slots.items()}
        self.values = TemplateValues(machine.session, tables.optional, kinds, message_style(flow.locale, flow.clock))
        self.lenient = tables.flow.options.lenient_format_specs
        self.begin(trace or TurnTrace(turn=0, text=""))

    def begin(self, trace: TurnTrace) -> TurnContext:
        """Start a turn on the machine's current session, recorded in ``trace``."""
        self.session = self.values.session = self.machine.session
        self.machine.given_now.clear()
        self.trace = trace
        self.acts: list[Act] = []
        self.reask = False
        """The pending confirmation got no plain yes or no: it is asked again as "...: yes or no?"."""
        self.missed_change = False
        """The same, at a committing confirmation with no model: the summary is shown again, asking what to change."""
        self.asked_before: str | None = None
        """The slot asked when this turn's message came (it is asked again if still missing)."""
        self.asked_back = False
        """The same, the reply being a question ("does that include the retest?"): the summary is shown again with
        its own question once the question is answered (or said to be out of scope)."""
        return self

    def render(self, template: str, where: str | None = None, extra: Mapping[str, Any] | None = None) -> str:
        """``template`` filled from the session (and ``extra`` names first: a slot's bounds in its invalid
        message); ``where`` (``node 'x'``, ...) is named in a TemplateError."""
        values = ChainMap(dict(extra), self.values) if extra else self.values  # type: ignore[arg-type]  # read only
        return render(template, values, lenient=self.lenient, where=where)

    def say(self, kind: ActKind, name: str, text: str, node: str | None = None, slot: str | None = None) -> None:
        self.acts.append(Act(kind, name, text, node, slot))

    def question(self, text: str) -> str:
        """A confirmation's question, as "...: yes or no?" when the reply to it was no plain yes or no."""
        return sentences.yes_or_no(text) if self.reask and not (self.missed_change or self.asked_back) else text

    def fallback(self, name: str) -> Act:
        """The flow's fallback sentence ``name`` (goodbye, out_of_scope, anything_else, cannot_continue)."""
        template = getattr(self.tables.flow.fallbacks, name) or ""
        return Act("fallback", name, self.render(template, f"fallbacks.{name}") if template else "")

    def cannot_continue(self) -> End:
        fallbacks = self.tables.flow.fallbacks
        self.acts.append(self.fallback("cannot_continue" if fallbacks.cannot_continue else "goodbye"))
        return END

    def field_to_confirm(self, node: RequestNode) -> Slot | None:
        """The first slot of ``node`` given but not yet confirmed, when its field asks for confirmation."""
        session = self.session
        for slot in self.tables.confirm_fields[node.id]:
            if slot.name in session.slots and slot.name not in session.confirmed:
                return slot
        return None


class NodeHandler:
    """The behaviour of one node type."""

    def step(self, turn: TurnContext, node: Any) -> StepResult:
        return FOLLOW

    def stuck(self, turn: TurnContext, node: Any, trigger: str) -> Pause | End:
        """No edge of ``trigger`` is open (or the node has none): the machine waits here."""
        return PAUSE


class RequestStep(NodeHandler):
    def step(self, turn: TurnContext, node: RequestNode) -> StepResult:
        session = turn.session
        confirm = turn.field_to_confirm(node)
        if confirm is not None:
            question = turn.question(
                turn.render(confirm.confirm, f"node {node.id!r}")
                if isinstance(confirm.confirm, str)
                else sentences.confirm_value(
                    confirm.readable, turn.values.shown(confirm.name, session.slots[confirm.name])
                )
            )
            turn.acts.append(Act("confirm", f"confirm_{confirm.name}", question, node.id, confirm.name))
            return PAUSE
        missing = turn.tables.missing(node, session.slots)
        if not missing:
            return FOLLOW
        if session.declined and any(slot.name in session.declined for slot in missing):
            return Follow("decline") if node.id in turn.tables.decline_nodes else turn.cannot_continue()
        slot = missing[0]
        if turn.asked_before == slot.name:
            _note_given(turn)
        session.asked = slot.name
        refused = _refused_asking(turn)
        if asked_which(turn) or refused is not None:
            # "Do you mean Saturday 28 November or Saturday 5 December?", "We go out Tuesday to Saturday. Which day
            # suits you?" (a day said in passing): this turn's question; the node's own comes when it is answered.
            # The refused slot is the one asked: "4 then" answers "The van comes 9 am to 5 pm. What time would suit?"
            session.asked = refused or session.asked
            return PAUSE
        question = turn.render(slot.ask, f"node {node.id!r}") if slot.ask else sentences.ask(slot.readable)
        turn.acts.append(Act("ask", slot.ask_act, question, node.id, slot.name))
        return PAUSE

    def stuck(self, turn: TurnContext, node: RequestNode, trigger: str) -> Pause | End:
        return turn.cannot_continue() if trigger == "decline" else PAUSE


def _note_given(turn: TurnContext) -> None:
    """The question asked last turn is asked again: the values this turn gave (new ones; a correction has its own
    sentence) are acknowledged first ("Thanks, I have the date: ..., the time: ...")."""
    given = turn.machine.given_now - {act.slot for act in turn.acts if act.kind == "noted"}  # said back already
    new = [change for change in turn.trace.slot_changes if change["slot"] in given and change["old"] is None]
    if new:
        slots = turn.tables.slots
        order = {name: i for i, name in enumerate(slots)}  # as the flow lists them
        new.sort(key=lambda change: order[change["slot"]])
        values = [(slots[change["slot"]].noun, turn.values.shown(change["slot"], change["new"])) for change in new]
        turn.say("noted", "noted", sentences.noted(values), slot=new[0]["slot"])


class ActionStep(NodeHandler):
    def step(self, turn: TurnContext, node: ExternalActionNode) -> StepResult:
        if node.id not in turn.session.status:
            withheld = withheld_values(turn, node) if node.commits else NOTHING
            owner = turn.actions.owner_of_missing_argument(node, turn.machine, withheld)
            if owner is not None:  # reached without a value its tool requires (after a jump): ask first
                return Goto(owner)
            if node.commits:
                check_commit(turn, node)
            held_back = sorted(name for name in withheld if name in turn.session.slots)
            if held_back:
                turn.trace.notes.append(
                    f"{', '.join(map(repr, held_back))} not passed to {node.tool!r}: neither asked on a way to "
                    f"{turn.session.came_through!r} nor shown there"
                )
            turn.actions.run(node, turn.machine, turn.trace, withheld)
        return FOLLOW


NOTHING: frozenset[str] = frozenset()


def guards_to_check(turn: TurnContext, node: ExternalActionNode) -> list[str]:
    """The confirmations of committing ``node`` whose yes its tool waits for: the one the session came through
    (the last question it left on an edge), whichever of several leads to the node; when it came through none of
    them (a jump, a way with no confirmation, a snapshot from before this was recorded), every one of them it
    visited."""
    session, ways = turn.session, turn.tables.commit_ways[node.id]
    if session.came_through in ways.guards:
        return [session.came_through]
    return [guard for guard in ways.guards if session.visits.get(guard)]


def withheld_values(turn: TurnContext, node: ExternalActionNode) -> frozenset[str]:
    """The slots committing ``node`` does not pass to its tool: those the confirmation the session came through
    neither shows nor could have asked on any way to it (a courtesy bike answered for a road bike, at the
    summary of a cargo bike's repair)."""
    through = turn.session.came_through
    return turn.tables.commit_ways[node.id].withheld.get(through, NOTHING) if through is not None else NOTHING


def check_commit(turn: TurnContext, node: ExternalActionNode) -> None:
    """The invariant in front of every committing tool: the confirmation the session came through was answered
    yes (confirmed fields included; see :func:`guards_to_check`), and none of the values it reads changed in this
    turn (a value given in the turn of the "yes" was never shown to the user). Broken, nothing is called and the
    turn fails (CommitGuardError, rolled back)."""
    session, tables = turn.session, turn.tables
    guards = guards_to_check(turn, node)
    if not guards:
        return
    for guard in guards:
        owner = tables.nodes[guard]
        if isinstance(owner, ConfirmNode):
            if session.answers.get(guard) != "yes":
                raise CommitGuardError(f"action {node.id!r}: confirmation {guard!r} was not answered yes")
        else:
            unconfirmed = [
                slot.name
                for slot in tables.confirm_fields.get(guard, ())
                if slot.name in session.slots and slot.name not in session.confirmed
            ]
            if unconfirmed:
                raise CommitGuardError(f"action {node.id!r}: {', '.join(unconfirmed)} not confirmed")
    read = {
        source if isinstance(source, str) else source.slot
        for source in tables.arguments.get(node.id, {}).values()
        if isinstance(source, (str, SlotArg))
    }
    changed = sorted({change["slot"] for change in turn.trace.slot_changes} & read)
    if changed:
        raise CommitGuardError(f"action {node.id!r}: {', '.join(changed)} changed in the turn it would commit")


def asked_which(turn: TurnContext) -> bool:
    """Did this turn ask a value's clarifying question ("7 in the morning or in the evening?", "Is that 5 people or
    5 nights?": two readings fit, :func:`fsmdial.turn.update_slots`)? It is the turn's one question (the turn ends on
    it: :func:`fsmdial.turn.respond`)."""
    return any(is_which(act) for act in turn.acts)


def is_which(act: Act) -> bool:
    """Is ``act`` a value's clarifying question (:func:`asked_which`)?"""
    return act.kind == "invalid" and act.name.startswith("which_")


def _refused_asking(turn: TurnContext) -> str | None:
    """The slot whose value this turn's last words refused with a question of their own (a flow's ``invalid`` text
    such as "We book visits Monday to Saturday. Which day suits you?"), or None. It is the turn's question: no other
    is asked after it, whichever slot it refused (one asked, or one said in passing)."""
    last = turn.acts[-1] if turn.acts else None
    if last is None or last.kind != "invalid" or is_which(last) or not last.text.rstrip().endswith("?"):
        return None  # ("Do you mean Saturday or Sunday?" is asked_which: the node's slot stays the one asked)
    return last.slot


class InformStep(NodeHandler):
    def step(self, turn: TurnContext, node: InformNode) -> StepResult:
        if node.id not in turn.session.informed:
            turn.acts.append(Act("inform", node.act, turn.render(node.message, f"node {node.id!r}"), node.id))
            turn.session.informed.add(node.id)
        return FOLLOW


class ConfirmStep(NodeHandler):
    def step(self, turn: TurnContext, node: ConfirmNode) -> StepResult:
        session = turn.session
        if node.id in session.answers:
            return FOLLOW
        if asked_which(turn):  # "Is that 4 people or 4 nights?": a "yes" to it confirms nothing
            session.informed.discard(node.id)  # the summary is shown whole again, with the answer in it
            return PAUSE
        text = _confirmation(turn, node, whole=node.id not in session.informed)
        turn.acts.append(Act("confirm", node.act, text, node.id))
        _asked_as(turn, node)
        return PAUSE

    def stuck(self, turn: TurnContext, node: ConfirmNode, trigger: str) -> Pause | End:
        # an answer no edge expects
        if turn.session.answers.pop(node.id, None) == "no":  # ask what to change, not start over
            # the summary is no longer the question on the table: a "yes" to "what would you like to change?"
            # answers nothing (no confirmation is pending), and the summary is shown whole again before a yes
            turn.session.informed.discard(node.id)
            turn.say("ask_change", "ask_change", turn.render(node.change_question, f"node {node.id!r}"), node.id)
        else:
            turn.say("confirm", node.act, _confirmation(turn, node, whole=False), node.id)
            _asked_as(turn, node)
        return PAUSE


def _confirmation(turn: TurnContext, node: ConfirmNode, *, whole: bool) -> str:
    """What the confirmation says: its question, after the summary when ``whole`` or when the turn shows it again (a
    change the rules did not catch: "Sorry, I didn't catch what to change. I have: <summary> What would you like to
    change?"; a question answered: the summary and its question), as "...: yes or no?" after a reply that was none."""
    whole = (whole or turn.missed_change or turn.asked_back) and bool(node.message)
    said = [
        turn.render(part, f"node {node.id!r}") for part in ([node.message, node.question] if whole else [node.question])
    ]
    if turn.missed_change and whole:
        said = [turn.values.style.words.missed_change.format(summary=said[0])]
    said[-1] = turn.question(said[-1])
    return " ".join(said)


def _asked_as(turn: TurnContext, node: ConfirmNode) -> None:
    """Note what the confirmation's last words asked. Its question: the summary is pending, a plain yes answers it.
    "What would you like to change?" (a change the rules did not catch): no summary is pending, so a "yes" to it
    confirms nothing and the summary is shown whole again before a yes can commit (as after a "no")."""
    if turn.missed_change:
        turn.session.informed.discard(node.id)
    else:
        turn.session.informed.add(node.id)


class EndStep(NodeHandler):
    def step(self, turn: TurnContext, node: EndNode) -> StepResult:
        if node.id not in turn.session.informed:
            message = turn.render(node.message, f"node {node.id!r}") if node.message else ""
            turn.acts.append(Act("end", node.act, message, node.id))
            turn.session.informed.add(node.id)
        return END


HANDLERS: dict[type, NodeHandler] = {
    RequestNode: RequestStep(),
    ExternalActionNode: ActionStep(),
    InformNode: InformStep(),
    ConfirmNode: ConfirmStep(),
    EndNode: EndStep(),
}


def advance(turn: TurnContext) -> None:
    """Run node steps from the current node until the machine needs the user (or the conversation ends)."""
    machine, session, tables = turn.machine, turn.session, turn.tables
    for _ in range(STEP_LIMIT):
        node: AnyNode = tables.nodes[session.node]
        handler = HANDLERS[type(node)]
        step = handler.step(turn, node)
        if isinstance(step, Follow):
            # A node with no way on is where the machine waits: triggering there would only make transitions warn.
            ways = tables.has_way_on if step.trigger == "advance" else tables.decline_nodes
            if node.id in ways and machine.fire(step.trigger):
                if is_question(node):  # the confirmation a commit ahead waits for (see check_commit)
                    session.came_through = node.id
                turn.trace.nodes.append(session.node)
                continue
            step = handler.stuck(turn, node, step.trigger)
        if isinstance(step, Goto):
            machine.place(step.node)
            turn.trace.nodes.append(step.node)
            continue
        if isinstance(step, End):
            session.ended = True
        return
    raise FlowLoopError(f"more than {STEP_LIMIT} nodes entered in one turn (at node {session.node!r})")
