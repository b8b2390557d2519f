"""fsmdial as an SGD dialogue state tracker: one session per service, driven by the corpus' turns.

Protocol (``fsmdial eval sgd``):

* every service of the split's schema is imported (:mod:`fsmdial_eval.importers.sgd`) and compiled once;
* a dialogue is read turn by turn. A system turn is the bot's side: its text goes into each
  session's history, and the slot its acts ``REQUEST`` becomes the slot the user is answering
  (:class:`~fsmdial_eval.oracle.AskedByWizard`, as the STAR harness tells what the wizard asked);
* the values a system turn ``OFFER``s or ``CONFIRM``s are held; they become the session's when fsmdial
  understands the user's next turn as a "yes" or as asking for one of the service's tasks (the user
  takes the restaurant offered, or books it). A ``CONFIRM`` also puts the session at the confirmation
  of its task (the one fsmdial is in), an ``OFFER`` at the question after the task's outcome, as the STAR
  harness puts the machine where the wizard's action leaves it;
* a user turn is understood by the session of every service its frames name (the frames' services
  are the dataset's input, as for the official baseline; their ``state`` is what is scored), in
  ``Dialogue.turn``. A service met for the first time in the dialogue, or again after another one,
  first takes the values of same-named slots the other services hold (``Dialogue.adopt_slots``:
  the user who gave a city for a hotel is not asked it again for a restaurant);
* the state reported for the frame is the session's own: its slots (as the user said them, see
  :meth:`Tracker.state`), the task its node belongs to as the active intent, no requested slots
  (fsmdial's flows do not track questions the user asks);
* ``teacher_forced`` (a diagnostic, never compared with published figures): before each user
  turn, the session's slots are set to the service's previous gold state, so each turn is
  understood without the errors of the turns before.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fsmdial.errors import FsmdialError
from fsmdial.flow import Slot, SlotType
from fsmdial.language import find_numbers, read_acts
from fsmdial.language.dates import MONTHS, WEEKDAYS, parse_time
from fsmdial.machine import FlowMachine
from fsmdial.runtime import Dialogue
from fsmdial.tables import flow_class
from fsmdial.testing.forcing import checkpoint, reopen, seek
from fsmdial.understand.base import Understander
from fsmdial.understand.constraint.grounding import message, read_spans
from fsmdial.understand.rules.places import DESTINATION, ORIGIN, place_slots
from fsmdial.userfiles import MAX_CORPUS_BYTES, read_json
from fsmdial.values import InvalidValue, coerce

from ..importers.sgd import service_to_flow_dict, slot_kind
from ..oracle import AskedByWizard

CLOCK = dt.datetime(2019, 3, 1, 12, 0)
"""A fixed "now" (SGD's calendar: "today" is 2019-03-01 in its canonical values); relative dates resolve
the same on every run. Values are reported as said, so the date only matters to the parsers."""
NO_INTENT = "NONE"


@dataclass
class Service:
    """One service of the schema: its compiled flow and what scoring needs."""

    name: str
    schema: dict[str, Any]
    cls: type[FlowMachine]
    kinds: dict[str, str]
    """Slot -> categorical, number, date, time or free text."""
    seen: bool
    node_task: dict[str, str]
    """Node id -> the intent whose task the node belongs to."""
    categorical: frozenset[str] = frozenset()
    """The slots SGD lists possible values for (their values are compared exactly, as written in the schema)."""

    @property
    def slots(self) -> dict[str, Slot]:
        return self.cls.FLOW.slots()

    @property
    def tasks(self) -> set[str]:
        return set(self.node_task.values())


def build_services(schema: Iterable[dict[str, Any]], seen: set[str]) -> dict[str, Service]:
    out = {}
    for service in schema:
        cls = flow_class(service_to_flow_dict(service, f"service {service.get('service_name')}"))
        intents = {intent["name"] for intent in service["intents"]}
        node_task = {node.id: node.id.split("__")[0] for node in cls.FLOW.nodes if node.id.split("__")[0] in intents}
        kinds = {slot["name"]: slot_kind(slot) for slot in service["slots"]}
        categorical = frozenset(slot["name"] for slot in service["slots"] if slot.get("is_categorical"))
        out[service["service_name"]] = Service(
            service["service_name"], service, cls, kinds, service["service_name"] in seen, node_task, categorical
        )
    return out


class Tracker:
    """One service's fsmdial session within one dialogue."""

    def __init__(self, service: Service, understander: Understander):
        self.service = service
        self.asked = AskedByWizard(understander)
        self.dialogue = Dialogue(service.cls, understander=self.asked, stand_in_tools=True, clock=lambda: CLOCK)
        self.said: dict[str, tuple[Any, str]] = {}
        """Slot -> (its value, the words the value was read from)."""
        self.intent = NO_INTENT
        self.offered: dict[str, str] = {}
        """Slot -> value (the bot's words) the bot's last turn offered or confirmed."""
        self.errors = 0
        self.model_calls = 0
        self.turns = 0
        """User turns heard (one per user frame of this service)."""
        self.model_turns = 0
        """Of those, the turns whose understanding made a model call."""

    @property
    def slots(self) -> dict[str, Any]:
        return self.dialogue.slots

    def hear_system(self, text: str, frame: Mapping[str, Any] | None) -> None:
        """The bot's turn: its words into the history, the slot it requests as the one being answered, the
        values it offers or confirms held for the user's answer; a confirmation puts the session at the
        confirmation of its task, an offer at the question after its task's outcome (the bot asked them)."""
        actions = (frame or {}).get("actions", ())
        slots = self.service.slots
        self.asked.asked = next((a["slot"] for a in actions if a.get("act") == "REQUEST" and a["slot"] in slots), None)
        offered = {  # "Pick up from San Diego?": a question with its value offers it too
            a["slot"]: a["values"][0]
            for a in actions
            if a.get("act") in ("OFFER", "CONFIRM", "REQUEST") and a["slot"] in slots and a.get("values")
        }
        if offered or not actions or any(a.get("act") not in _ABOUT_THE_OFFER for a in actions):
            self.offered = offered  # a turn that only tells more of what was offered leaves it on offer
        session = checkpoint(self.dialogue)
        session.history.append(("bot", text))
        self.dialogue.load_session(session)
        acts = {a.get("act") for a in actions}
        question = f"{self.intent}__confirm" if "CONFIRM" in acts else f"{self.intent}__done" if "OFFER" in acts else ""
        if question in self.service.node_task:
            if self.dialogue.ended:
                reopen(self.dialogue)
            seek(self.dialogue, question, told=True)

    def adopt(self, others: Iterable[Tracker]) -> None:
        """Values the user gave another service, for slots of the same name this one has not filled; and for this
        service's one place where something is or ends (a hotel's location, a ride's destination), the place
        where the user will be by the latest other service (its destination, else its place: the city of the
        event the user books a bus to)."""
        others = [other for other in others if other is not self]
        for other in others:
            for name in self.dialogue.adopt_slots(other.slots):
                value, words = other.said.get(name, (None, ""))
                self.said[name] = (self.slots[name], words if value == self.slots[name] else "")
        mine = [
            slot.name
            for slot, role in place_slots(tuple(self.service.slots.values()))
            if role != ORIGIN
            and _TOWN_WORDS.intersection(re.findall(r"[a-z]+", f"{slot.name} {slot.description}".lower()))
        ]
        if len(mine) != 1 or mine[0] in self.slots:
            return
        for other in reversed(others):
            held = [
                (role != DESTINATION, other.slots[slot.name])
                for slot, role in place_slots(tuple(other.service.slots.values()))
                if role != ORIGIN and slot.name in other.slots
            ]
            if held:
                self.dialogue.adopt_slots({mine[0]: min(held, key=lambda item: item[0])[1]})
                return

    def force(self, gold: Mapping[str, list[str]]) -> None:
        """Teacher forcing: the session's slots become ``gold`` (a frame's ``slot_values``), coerced."""
        session = checkpoint(self.dialogue)
        session.slots.clear()
        self.said = {}
        for name, values in gold.items():
            slot = self.service.slots.get(name)
            if slot is None or not values:
                continue
            try:
                session.slots[name] = coerce(slot, values[0], CLOCK)
            except InvalidValue:
                continue
            self.said[name] = (session.slots[name], values[0])
        self.dialogue.load_session(session)

    def hear_user(self, text: str) -> None:
        before = dict(self.slots)
        if self.dialogue.ended:
            reopen(self.dialogue)  # the transcript goes on after a goodbye the engine heard
        self.turns += 1
        try:
            result = self.dialogue.turn(text)
        except FsmdialError:
            self.errors += 1
            return
        self.model_calls += result.trace.model_calls
        self.model_turns += result.trace.model_calls > 0
        changed = {name for name, value in self.slots.items() if before.get(name, _ABSENT) != value}
        for name in changed:
            categorical = name in self.service.categorical
            self.said[name] = (
                self.slots[name],
                _words_for(self.service.slots[name], self.slots[name], text, categorical),
            )
        parse = result.trace.parse or {}
        if parse.get("answer") == "yes" or parse.get("intent") in self.service.tasks or _accepts(text):
            self._take({k: v for k, v in self.offered.items() if k not in changed})
            self.offered = {}
        elif read_acts(text).deny:
            self.offered = {}  # refused; a question about it ("what's the address?") keeps it on offer
        self.intent = self.service.node_task.get(self.dialogue.node, self.intent)

    def _take(self, offered: Mapping[str, str]) -> None:
        """The user accepted what the bot offered: those values (in the bot's words) become the slots'."""
        if not offered:
            return
        session = checkpoint(self.dialogue)
        for name, words in offered.items():
            try:
                session.slots[name] = coerce(self.service.slots[name], words, CLOCK)
            except InvalidValue:
                continue
            self.said[name] = (session.slots[name], words)
        self.dialogue.load_session(session)

    def state(self) -> dict[str, Any]:
        """The session's state in SGD's form: each slot's value as the user said it (the words a date or a
        time was read from), numbers in digits, categorical values as they are."""
        values = {}
        for name, value in self.slots.items():
            if name not in self.service.kinds:
                continue
            held, words = self.said.get(name, (None, ""))
            values[name] = [words if words and held == value else _as_text(value)]
        return {"active_intent": self.intent, "requested_slots": [], "slot_values": values}


_ABSENT = object()
_ABOUT_THE_OFFER = frozenset({"INFORM", "OFFER", "CONFIRM", "REQUEST"})
"""The bot's acts that keep the offer before the user (telling the venue's address after offering the event)."""
_TOWN_WORDS = frozenset("city town location area".split())
"""The words of a place slot that holds a town (a hotel's location), not an address (a taxi's destination)."""


def _accepts(text: str) -> bool:
    """Does the user take what the bot offered ("That one sounds good.", "That works for me. Book me this car.")?
    An affirmation with no denial, wherever the confirmation question stands (the bot's offer asked none)."""
    acts = read_acts(text)
    return acts.affirm and not acts.deny


def _as_text(value: Any) -> str:
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


_DATE_WORDS = (
    frozenset("of the in next this coming week weekend month day".split())
    | frozenset(WEEKDAYS)
    | frozenset(MONTHS)
    | frozenset(m[:3] for m in MONTHS)
)
"""Words a date is said with around its core ("March 9th", "Wednesday next week"); a year too ("March 1st 2019")."""
_TIME_WORDS = frozenset(
    "of the in morning afternoon evening night noon midnight am pm o'clock half past quarter".split()
)
"""Words a time is said with around its core ("half past 11 in the morning"); never a date's ("am this Sunday")."""
_EDGE_WORDS = frozenset("of the in this".split())
"""... but that do not start or end the words reported ("on the 9th of March" is reported as "9th of March")..."""
_ORDINAL_DAY = re.compile(r"\d{1,2}(?:st|nd|rd|th)")
"""... except the "the" of a day said alone ("the 12th"), as SGD writes it."""


def _phrase_word(kind: SlotType, word: str) -> bool:
    if kind is SlotType.date:
        return word in _DATE_WORDS or (len(word) == 4 and word.isdigit())
    return word in _TIME_WORDS


def _coerced(slot: Slot, words: str) -> Any:
    """The value ``slot`` makes of ``words`` on the harness's clock, or None."""
    try:
        return coerce(slot, words, CLOCK)
    except InvalidValue:
        return None


def _words_for(slot: Slot, value: Any, text: str, categorical: bool = True) -> str:
    """The words of ``text`` a date or a time was read from, else the value as text (a number as digits,
    as SGD's numeric values are written).

    The shortest span that reads the value (fsmdial's own reading,
    :func:`~fsmdial.understand.constraint.grounding.read_spans`),
    widened over the words such values are said with as long as it still reads the same ("9th" -> "March 9th",
    "Wednesday" -> "Wednesday next week").
    """
    kind = slot.type
    if kind is SlotType.integer and not categorical:  # "for seven days": SGD writes a free count as it was said
        return next((word for word in re.findall(r"[\w-]+", text) if find_numbers(word) == [value]), _as_text(value))
    if kind not in (SlotType.date, SlotType.time):
        return _as_text(value)
    msg = message(text)
    # A date span is compared by the value the slot makes of it: a day without its month ("the 13th") is read as
    # written and resolved by the slot's type, as the turn did.
    reads = (lambda span: _coerced(slot, span)) if kind is SlotType.date else parse_time
    found = next(
        (
            (first, last)
            for read, first, last in read_spans(text, kind, CLOCK.date()).values()
            if read == value or (kind is SlotType.date and reads(msg.span(first, last)) == value)
        ),
        None,
    )
    if found is None:
        return _as_text(value)
    first, last = found
    while first > 0 and _phrase_word(kind, msg.folded(first - 1)) and reads(msg.span(first - 1, last)) == value:
        first -= 1
    while (
        last + 1 < len(msg.words)
        and _phrase_word(kind, msg.folded(last + 1))
        and reads(msg.span(first, last + 1)) == value
    ):
        last += 1
    while first < last and msg.folded(first) in _EDGE_WORDS:
        first += 1
    while last > first and msg.folded(last) in _EDGE_WORDS:
        last -= 1
    if first > 0 and first == last and msg.folded(first - 1) == "the" and _ORDINAL_DAY.fullmatch(msg.folded(first)):
        first -= 1
    return msg.span(first, last)


# ------------------------------------------------------------------ one dialogue


@dataclass
class Tracked:
    """A dialogue with each user frame's ``state`` replaced by fsmdial's."""

    dialogue: dict[str, Any]
    errors: int
    model_calls: int
    turns: int = 0
    """User turns heard, one per user frame."""
    model_turns: int = 0
    """Of those, the turns with a model call."""


def track_dialogue(
    dialogue: Mapping[str, Any],
    services: Mapping[str, Service],
    understander: Understander,
    *,
    teacher_forced: bool = False,
) -> Tracked:
    """Run one SGD dialogue through fsmdial; the gold states are read only under ``teacher_forced``."""
    trackers: dict[str, Tracker] = {}
    gold: dict[str, dict[str, list[str]]] = {}
    active: set[str] = set()
    turns = []
    for turn in dialogue["turns"]:
        frames = [f for f in turn["frames"] if f["service"] in services]
        if turn["speaker"] != "USER":
            by_service = {f["service"]: f for f in frames}
            for name, tracker in trackers.items():
                tracker.hear_system(turn["utterance"], by_service.get(name))
            turns.append(turn)
            continue
        predicted = []
        for frame in frames:
            name = frame["service"]
            if name not in trackers:
                trackers[name] = Tracker(services[name], understander)
            tracker = trackers[name]
            if teacher_forced:
                tracker.force(gold.get(name, {}))
            if name not in active:
                tracker.adopt(trackers.values())
            tracker.hear_user(turn["utterance"])
            predicted.append({**frame, "state": tracker.state()})
            if teacher_forced:
                gold[name] = frame.get("state", {}).get("slot_values", {})
        active = {f["service"] for f in frames}
        turns.append({**turn, "frames": predicted})
    out = {**dialogue, "turns": turns}
    every = trackers.values()
    return Tracked(
        out,
        sum(t.errors for t in every),
        sum(t.model_calls for t in every),
        sum(t.turns for t in every),
        sum(t.model_turns for t in every),
    )


def read_dialogues(paths: Iterable[Path]) -> list[tuple[str, dict[str, Any]]]:
    """(file name, dialogue) for every dialogue of the files, in order."""
    return [(path.name, d) for path in paths for d in read_json(path, limit=MAX_CORPUS_BYTES)]
