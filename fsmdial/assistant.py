"""``Assistant``: several flows behind one conversation.

* The first utterance (or any later one) selects a flow by the flow's
  ``examples``: every flow is offered to the understander as a route intent
  (``switch_to_<flow>``), so a model-based understander classifies it in the
  same single call as everything else.
* Slots with the same name are shared across flows: a flow that starts (or
  resumes) is given the values other flows already collected, except the
  values that fed a committing action (``"commits": true``) of an earlier,
  finished run of the same flow: a new run asks for those again, so it never
  repeats what was done with them without the user saying so.
* Flows form a stack, as in Rasa CALM: a flow can be interrupted by another;
  when the interrupting flow ends, the interrupted one resumes and asks its
  pending question again. Saying goodbye ends the whole conversation.

Each flow runs in its own :class:`~fsmdial.runtime.Dialogue`, so every
promise of a dialogue (transactions, typed errors, traces) holds per turn.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Mapping, Sequence
from contextlib import ExitStack
from typing import Any, ClassVar, Literal

import orjson
from pydantic import BaseModel, ConfigDict, StrictBool, StrictInt, StrictStr, ValidationError

from .actions import committed_slots
from .errors import FsmdialError, SnapshotError, TurnError
from .flow import Flow
from .language import read_acts, sentences
from .language.choices import closest_value
from .responses import template_fields
from .restoring import read_session
from .runtime import MAX_INPUT_CHARS, AllOrNothing, Dialogue, checked_parse, clean_input
from .session import describe
from .tables import FlowSource, flow_class, tables_of
from .trace import Act, TurnResult, TurnTrace
from .understand.base import GOODBYE, Intent, Parse, UnderstandingState

ROUTE_PREFIX = "switch_to_"


def route_intent(flow_name: str) -> str:
    return ROUTE_PREFIX + re.sub(r"\W+", "_", flow_name).strip("_")


class Assistant:
    """Several flows in one conversation; keyword arguments are passed to every :class:`Dialogue`."""

    dialogue_class: ClassVar[type[Dialogue]] = Dialogue
    """The class each flow runs in (a subclass may name a :class:`Dialogue` subclass)."""

    def __init__(
        self, flows: Sequence[FlowSource], *, greeting: str = "Hello! How can I help you?", **dialogue_kwargs: Any
    ):
        classes = [flow_class(flow) for flow in flows]
        if not classes:
            raise FsmdialError("an Assistant needs at least one flow")
        self.greeting = greeting
        self._kwargs = dialogue_kwargs
        self.flows = {cls.FLOW.name: cls for cls in classes}
        self.route_of = {route_intent(name): name for name in self.flows}
        self.examples = {
            route_intent(name): tuple(cls.FLOW.examples) or (cls.FLOW.description,) for name, cls in self.flows.items()
        }
        self.cues = flow_cues({name: cls.FLOW for name, cls in self.flows.items()})
        self.max_input_chars: int = dialogue_kwargs.get("max_input_chars", MAX_INPUT_CHARS)
        self.dialogues: dict[str, Dialogue] = {}
        self.stack: list[str] = []
        self.shared: dict[str, Any] = {}
        self.spent: dict[str, dict[str, Any]] = {}
        """Per flow: the slot values (as JSON) that fed a committed action of one of its finished runs."""
        self.ended = False
        understander = dialogue_kwargs.get("understander")
        self.understander = self.dialogue_class.default_understander() if understander is None else understander
        self._router_state = UnderstandingState(
            flow="assistant",
            node="route",
            intents=tuple(Intent(intent, examples) for intent, examples in self.examples.items()) + (Intent(GOODBYE),),
            slots=(),
            description="Choose the task the user wants help with.",
        )

    @property
    def active(self) -> str | None:
        return self.stack[-1] if self.stack else None

    @property
    def node(self) -> str:
        """The active flow's node, or ``"route"`` while no flow is active (the next turn chooses one)."""
        return self.dialogues[self.stack[-1]].node if self.stack else "route"

    @property
    def slots(self) -> dict[str, Any]:
        """The active flow's slot values (none while no flow is active; every flow's values are in ``shared``)."""
        return self.dialogues[self.stack[-1]].slots if self.stack else {}

    def _dialogue(self, name: str) -> Dialogue:
        dialogue = self.dialogues.get(name)
        if dialogue is None or dialogue.ended:
            if dialogue is not None:  # a new run: what the last one committed is not given to it again
                spent = {slot: as_json(value) for slot, value in committed_values(dialogue).items()}
                self.spent = {**self.spent, name: {**self.spent.get(name, {}), **spent}}
            routes = {intent: ex for intent, ex in self.examples.items() if self.route_of[intent] != name}
            dialogue = self.dialogues[name] = self.dialogue_class(self.flows[name], routes=routes, **self._kwargs)
        return dialogue

    def _share_into(self, dialogue: Dialogue, trace_notes: list[str]) -> None:
        """Give a starting or resuming flow the slot values other flows collected."""
        spent = self.spent.get(dialogue.flow.name, {})
        offered = {slot: v for slot, v in self.shared.items() if slot not in spent or as_json(v) != spent[slot]}
        for name in dialogue.adopt_slots(offered):
            trace_notes.append(f"shared slot {name!r} = {self.shared[name]!r}")

    # ------------------------------------------------------------ turns
    def start(self) -> TurnResult:
        trace = TurnTrace(turn=0, text="")
        return TurnResult([Act("greeting", "greeting", self.greeting)], [], trace, "route", False)

    def turn(self, text: str) -> TurnResult:
        """One user turn: route, run the active flow, pop finished flows and resume the one below.

        A transaction, as a :class:`Dialogue` turn is: if anything fails (routing, the flow's turn, the resumed
        flow's opening), the stack, the shared slots and every flow's session are put back as they were before
        the turn, and a :class:`~fsmdial.errors.TurnError` (or the typed error) is raised.
        """
        if not isinstance(text, str):
            raise TurnError(f"user text must be a string, not {type(text).__name__}")
        with ExitStack() as transaction:
            transaction.enter_context(self._transaction())
            for dialogue in list(self.dialogues.values()):  # flows started during the turn are dropped with the dict
                transaction.enter_context(dialogue.transaction())
            return self._turn(text)

    def _transaction(self) -> AllOrNothing:
        """The assistant's own part of a turn's transaction (each flow's session is in its dialogue's)."""
        stack, shared, ended, dialogues = list(self.stack), dict(self.shared), self.ended, dict(self.dialogues)
        spent = self.spent  # replaced, never changed in place

        def put_back() -> None:
            self.stack, self.shared, self.ended, self.dialogues, self.spent = stack, shared, ended, dialogues, spent

        return AllOrNothing(put_back)

    def _route(self, text: str) -> Parse:
        """Understand ``text`` (cut and cleaned as a Dialogue does) against the choice of flows."""
        return checked_parse(self.understander, self._router_state, text)

    def _turn(self, text: str) -> TurnResult:
        if self.ended:  # after goodbye the conversation stays over
            cleaned, _ = clean_input(text, self.max_input_chars)
            act = Act("fallback", "ended", sentences.conversation_ended())
            return TurnResult([act], [], TurnTrace(0, cleaned), "route", True)
        if self.active is None:
            cleaned, note = clean_input(text, self.max_input_chars)
            trace = TurnTrace(0, cleaned, notes=[note] if note else [])
            parse = self._route(cleaned)
            trace.parse, trace.path, trace.model_calls = parse.to_dict(), parse.path, parse.model_calls
            said = read_acts(cleaned)
            # A hello (or, before any task was done, thanks: no goodbye yet) is answered in kind, not as out of scope.
            social = (said.greet or (said.thank and not self.dialogues)) and not said.bye
            if parse.intent == GOODBYE and not social:
                self.ended = True
                return TurnResult([Act("fallback", "goodbye", "Goodbye!")], [], trace, "route", True)
            if parse.intent in self.route_of:
                return self._switch(self.route_of[parse.intent], text, [], routing=parse)
            # A message of greetings only names no task ("good morning" is no choice of a "morning" value).
            chosen = None if social and said.only_social else route_by_cues(self.cues, cleaned)
            if chosen is not None:  # "a British restaurant, in the expensive price range": the task's own words
                trace.notes.append(f"routed by the task's own words: {chosen}")
                return self._switch(chosen, text, [], routing=parse)
            if social and (said.only_social or said.question):  # "hi there", "thanks!", "hi, can you help?"
                trace.notes.append("a greeting before any task: answered with what this assistant does")
                return TurnResult([self._social_reply(said.greet)], [], trace, "route", False)
            act = Act("fallback", "out_of_scope", sentences.can_help_with(task_words(name) for name in self.flows))
            return TurnResult([act], [], trace, "route", False)
        name = self.active
        result = self._dialogue(name).turn(text)
        if result.route is not None:  # interrupted by another flow
            routing = Parse(
                intent=result.route, path=result.trace.path or "rules", model_calls=result.trace.model_calls
            )
            return self._switch(self.route_of[result.route], text, [], routing=routing)
        return self._after(name, result, [])

    def _social_reply(self, hello: bool) -> Act:
        """The answer to a greeting (``hello``) or thanks before any task: the first flow's own greeting (else the
        engine's hello), or the engine's welcome, then what the assistant does in short words."""
        tasks = [task_words(name) for name in self.flows]
        if not hello:
            return Act("greeting", "welcome", f"{sentences.welcome()} {sentences.offer(tasks)}")
        opener = next(filter(None, (flow_greeting(cls.FLOW) for cls in self.flows.values())), sentences.hello())
        # A flow's greeting that asks already ("Hello, how can I help?") is not followed by a second question.
        return Act("greeting", "greeting", f"{opener} {sentences.offer(tasks, ask=not opener.endswith('?'))}")

    def _switch(self, name: str, text: str, acts: list[Act], routing: Parse) -> TurnResult:
        if name in self.stack:
            self.stack.remove(name)  # back to a flow already under way
        self.stack.append(name)
        dialogue = self._dialogue(name)
        notes: list[str] = []
        self._share_into(dialogue, notes)
        # The parse that chose this flow: its model call is this turn's one (the flow then reads with the rules).
        result = dialogue.turn(text, routing=routing)
        result.trace.notes.extend(notes)
        return self._after(name, result, acts)

    def _after(self, name: str, result: TurnResult, acts: list[Act]) -> TurnResult:
        dialogue = self.dialogues[name]
        self.shared.update(dialogue.session.slots)
        acts = acts + result.acts
        calls = list(result.tool_calls)
        said_goodbye = any(a.kind == "fallback" and a.name == "goodbye" for a in result.acts)
        if said_goodbye:
            self.stack.clear()
            self.ended = True
        elif dialogue.ended:
            self.stack.pop()
            if self.stack:  # resume the interrupted flow: it asks its pending question again
                below = self._dialogue(self.stack[-1])
                self._share_into(below, result.trace.notes)
                resumed = below.start()
                acts += resumed.acts
                calls += resumed.tool_calls
        out = TurnResult(acts, calls, result.trace, result.node, self.ended, flow=name)
        return out

    # ------------------------------------------------------- persistence
    def snapshot(self) -> bytes:
        return orjson.dumps(
            {
                "format": "fsmdial.assistant",
                "version": 1,
                "stack": self.stack,
                "shared": self.shared,
                "spent": self.spent,
                "ended": self.ended,
                "dialogues": {name: orjson.loads(d.snapshot()) for name, d in self.dialogues.items()},
            }
        )

    @classmethod
    def restore(
        cls, flows: Sequence[FlowSource], snapshot: bytes | str | Mapping[str, Any], **kwargs: Any
    ) -> Assistant:
        """An assistant continuing from ``snapshot`` (keyword arguments as for the constructor), as
        :meth:`Dialogue.restore <fsmdial.runtime.Dialogue.restore>` is for one flow: a damaged or foreign
        snapshot is a :class:`~fsmdial.errors.SnapshotError`."""
        assistant = cls(flows, **kwargs)
        assistant.load_snapshot(snapshot)
        return assistant

    def load_snapshot(self, snapshot: bytes | str | Mapping[str, Any]) -> None:
        """Continue from ``snapshot`` (JSON bytes or text, or the document already parsed): all or nothing. Every
        part is checked (each flow's session against its flow) before anything changes; any problem is a
        :class:`SnapshotError` and the assistant is as it was."""
        if isinstance(snapshot, Mapping):
            data: Any = dict(snapshot)
        else:
            try:
                data = orjson.loads(snapshot)
            except (orjson.JSONDecodeError, TypeError) as exc:
                raise SnapshotError(f"assistant snapshot is not valid JSON: {exc}") from None
        if not isinstance(data, dict) or data.get("format") != "fsmdial.assistant":
            raise SnapshotError("not an fsmdial assistant snapshot")
        try:
            saved = AssistantSnapshot.model_validate(data)
        except ValidationError as exc:
            raise SnapshotError("assistant " + describe(exc)) from None
        if saved.version != 1:
            raise SnapshotError(f"assistant snapshot format version {saved.version!r} is not supported (this reads 1)")
        unknown = (set(saved.dialogues) | set(saved.stack) | set(saved.spent)) - set(self.flows)
        if unknown:
            raise SnapshotError(f"snapshot has flows this assistant does not: {', '.join(sorted(unknown))}")
        clock = self._kwargs.get("clock") or dt.datetime.now
        sessions = {}
        for name, document in saved.dialogues.items():
            try:
                sessions[name] = read_session(tables_of(self.flows[name]), document, clock())
            except SnapshotError as exc:
                raise SnapshotError(f"flow {name!r}: {exc}") from None
        before = dict(self.dialogues)
        try:
            for name, session in sessions.items():
                self._dialogue(name).load_session(session)  # checked above: cannot fail on the session
        except BaseException:
            self.dialogues = before
            raise
        self.stack = list(saved.stack)
        self.shared = dict(saved.shared)
        self.spent = {name: dict(values) for name, values in saved.spent.items()}
        self.ended = saved.ended


_CUE_STOP = frozenset({"with", "from", "your", "this", "that", "other", "none", "any", "dontcare", "true", "false"})


def task_words(name: str) -> str:
    """A flow's name in short words ("restaurant_booking" -> "restaurant booking")."""
    return " ".join(re.split(r"[_\W]+", name)).strip()


def flow_greeting(flow: Flow) -> str | None:
    """The response of ``flow``'s greeting (a global action whose examples are all greetings, as the rules read
    them: ``"hello"`` with "hi", "hello"), when it names no value (none is held before the flow runs)."""
    for action in flow.global_actions:
        examples = [read_acts(example) for example in action.examples]
        if (
            action.response
            and examples
            and all(said.greet and said.only_social for said in examples)
            and not template_fields(action.response)
        ):
            return action.response.strip()
    return None


def flow_cues(flows: dict[str, Flow]) -> dict[str, tuple[frozenset[str], re.Pattern[str] | None]]:
    """Per flow, the words only it has: its name's words (four letters or more) and its categorical values, the
    latter as one whole-word pattern. A first message that gives a task's constraints without one of its example
    sentences ("I'm looking for a British restaurant, in the expensive price range") is routed by them."""
    names = {name: {w for w in re.split(r"[_\W]+", name.casefold()) if len(w) > 3} - _CUE_STOP for name in flows}
    values = {
        name: {str(v).casefold() for slot in flow.slots().values() for v in slot.values or () if len(str(v)) > 3}
        - _CUE_STOP
        for name, flow in flows.items()
    }
    cues: dict[str, tuple[frozenset[str], re.Pattern[str] | None]] = {}
    for name in flows:
        others = set().union(*(names[n] | values[n] for n in flows if n != name))
        own_names = frozenset(names[name] - others)
        own_values = sorted(values[name] - others - own_names, key=len, reverse=True)
        alternatives = "|".join(re.escape(w) + r"s?" for w in own_values)
        cues[name] = (own_names, re.compile(r"(?<!\w)(?:" + alternatives + r")(?!\w)", re.I) if own_values else None)
    return cues


def route_by_cues(cues: dict[str, tuple[frozenset[str], re.Pattern[str] | None]], text: str) -> str | None:
    """The one flow whose own words the text says most, or None when none or a tie. Its name's words count twice
    (also in the plural or with a typo: "restaurants", "restuarant"), each distinct value once."""
    words = re.findall(r"[a-z]+", text.casefold())
    scores = []
    for name, (own_names, values) in cues.items():
        named = sum(
            2 for own in own_names if any(w in (own, own + "s") or closest_value([w], {own: own}) for w in words)
        )
        scores.append((named + (len({m.casefold() for m in values.findall(text)}) if values else 0), name))
    scores.sort(reverse=True)
    if not scores or scores[0][0] == 0 or (len(scores) > 1 and scores[1][0] == scores[0][0]):
        return None
    return scores[0][1]


def as_json(value: Any) -> Any:
    """``value`` as a snapshot holds it (a date as its ISO text), so values compare the same after a restore."""
    return orjson.loads(orjson.dumps(value))


class AssistantSnapshot(BaseModel):
    """The shape of :meth:`Assistant.snapshot`'s document (each flow's session is checked by its flow)."""

    model_config = ConfigDict(extra="forbid", hide_input_in_errors=False)
    format: Literal["fsmdial.assistant"]
    version: StrictInt
    stack: list[StrictStr]
    shared: dict[StrictStr, Any]
    spent: dict[StrictStr, dict[StrictStr, Any]] = {}
    """Absent in snapshots written before it existed."""
    ended: StrictBool
    dialogues: dict[StrictStr, dict[StrictStr, Any]]


def committed_values(dialogue: Dialogue) -> dict[str, Any]:
    """The slot values that fed a committing action (``"commits": true``) of ``dialogue`` that succeeded: spent on
    what the action did, so a new run of the same flow is not given them."""
    return {name: dialogue.session.slots[name] for name in committed_slots(dialogue.tables, dialogue.session)}
