"""What the user may say now, as a pydantic model, a JSON schema and a bounded grammar.

For an :class:`~fsmdial.understand.base.UnderstandingState` the model is::

    {"intent": <a global intent or "none">,
     "slots": {<slot>: <typed value>, ...},      # every key optional
     "answer": "yes" | "no" | "other",           # only when a confirmation is pending
     "choice": <one of the node's choices or "none">}   # only when the node has choices

Slot values are typed: categorical slots are enums, integers and numbers have
the flow's bounds (the grammar writes at most :data:`~.grammar.UNBOUNDED_INT`
where the flow gives none), strings a length of 1 to ``Slot.string_limit``, dates ``YYYY-MM-DD`` and times ``HH:MM``.
A slot's own ``pattern`` goes into the schema (and the grammar) when it is a
bounded regular expression :func:`~.grammar.pattern_contents` can translate
(``^[0-9]{4,6}$``); otherwise it is left to the flow's validators. The runtime
checks every value again either way and tells the user when one is invalid.

:func:`state_schema` builds all three once per state signature
(``state.key``); states with the same JSON schema share one grammar. It is
the *free* form of a state (any value of each slot's type).

:func:`turn_schema` is what a model is given for one message: the *grounded*
form (see :mod:`.grounding`). Text, date, time and number values are spans of
the message (typed ones an enum of the spans their parser reads, text ones a
chain of words), what the rules read is left out (the model only adds to
it), categorical values are those the message names, intents are those the
message says an example of, and with a confirmation pending the answer comes
first (``yes``/``no``/``other`` without a value, ``change`` with one). It
depends on the text, so it is built every turn (about a millisecond;
``benches/bench_grounding.py``); :meth:`TurnSchema.parse` returns typed values.
"""

from __future__ import annotations

import datetime as dt
import re
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

import orjson
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError, create_model

from ...errors import UnderstandingError
from ...flow import Slot, SlotType
from ...language import read_acts, split_negated, without_questions
from ...language.text import FUNCTION_WORDS, OPPOSITES
from ...slots import KINDS
from ..base import ANSWERS, DECLINE, GOODBYE, Parse, UnderstandingState
from ..rules.coverage import describing_words
from ..rules.worded_answers import two_sided
from .cues import cue, cue_starts
from .grammar import (
    NOT_AT_EDGES,
    NOT_INSIDE,
    ONE_CLAUSE,
    PERSON_NAME,
    SPAN_OF,
    SPAN_STARTS,
    WHOLE_CLAUSE,
    Grammar,
    grammar_from_schema,
    max_chars,
    pattern_contents,
    span_node,
)
from .grounding import (
    SpanRules,
    claimed_words,
    counts_another,
    is_typed,
    mentioned,
    message,
    named_beside,
    span_rules_for,
    text_span_ok,
    typed_candidates,
    words_of,
)
from .offer import misfit

if TYPE_CHECKING:
    from collections.abc import Sequence

    from ..rules import RulesUnderstander

NONE = "none"
"""The intent (and choice) that means "none of these"."""


def slot_type(slot: Slot) -> Any:
    """The bounded Python type of one slot's value, as the model may write it (its type's entry in the table)."""
    return KINDS[slot.type].model_type(slot, _enforced)


def _enforced(pattern: str, limit: int) -> bool:
    """Can the grammar enforce ``pattern`` exactly on values of at most ``limit`` characters?"""
    contents = pattern_contents(pattern)
    return contents is not None and max_chars(contents) <= limit


def understanding_model(state: UnderstandingState) -> type[BaseModel]:
    """The pydantic model of what the user may say at ``state`` (see the module docstring)."""
    forbid = ConfigDict(extra="forbid")
    # Slot fields default to None but are not nullable: a slot the user did not give is left
    # out, never written as null (shorter outputs; the JSON schema says "optional", not "null").
    slots = create_model(  # type: ignore[call-overload]
        f"Slots_{state.flow}",
        __config__=forbid,
        # Python-side names are positional: a slot may be called "_x", "json" or "model_config".
        **{
            f"slot_{i}": (slot_type(slot), Field(None, alias=slot.name, description=slot.description or None))
            for i, slot in enumerate(state.slots)
        },
    )
    fields: dict[str, Any] = {
        "intent": (Literal[tuple([i.name for i in state.intents] + [NONE])], ...),  # type: ignore[misc]
        "slots": (slots, ...),
    }
    if state.confirm is not None:
        fields["answer"] = (Literal[ANSWERS], ...)
    if state.choices:
        fields["choice"] = (Literal[tuple(list(state.choices) + [NONE])], ...)  # type: ignore[misc]
    # Named after the flow only: states that accept the same parses get the same schema text, so one grammar.
    return create_model(f"Understanding_{state.flow}", __config__=forbid, **fields)  # type: ignore[call-overload]


@dataclass(frozen=True)
class StateSchema:
    """The model, JSON schema and grammar of one state, and how to read the model's output."""

    model: type[BaseModel]
    json_schema: dict[str, Any]
    schema_text: str
    """The JSON schema as canonical JSON: backends cache compiled grammars by it."""
    grammar: Grammar
    slot_names: frozenset[str]

    def parse(self, raw: str | bytes) -> Parse:
        """The model's JSON output as a :class:`Parse` (values as written); UnderstandingError if invalid."""
        shown = raw if isinstance(raw, str) else raw.decode("utf-8", "replace")
        try:
            self.model.model_validate_json(raw)
            data = orjson.loads(raw)
        except (ValidationError, orjson.JSONDecodeError) as exc:
            raise UnderstandingError(f"model output does not fit the state's schema: {shown[:200]!r}: {exc}") from None
        # pydantic ignores a key spelled like an aliased field's Python name ("slot_0"): check keys too.
        unknown = set(data["slots"]) - self.slot_names
        if unknown:
            raise UnderstandingError(
                f"model output does not fit the state's schema: {shown[:200]!r}: unknown slots {sorted(unknown)}"
            )
        intent = data["intent"]
        choice = data.get("choice")
        return Parse(
            intent=None if intent == NONE else intent,
            slots=dict(data["slots"]),
            answer=data.get("answer"),
            choice=None if choice in (None, NONE) else choice,
            path="model",
        )


_BY_KEY: dict[tuple[Any, ...], tuple[tuple[Slot, ...], StateSchema]] = {}
_GRAMMARS: dict[str, Grammar] = {}
stats: dict[str, Any] = {"models": 0, "grammars": 0, "turn_schemas": 0, "turn_seconds": 0.0}
"""How many models and grammars were built (a state reached again builds neither)."""


def state_schema(state: UnderstandingState) -> StateSchema:
    """The :class:`StateSchema` of ``state``, built once per state signature."""
    cached = _BY_KEY.get(state.key)
    # The key names slots but not their types: check they are the same slots (identity first: cheap).
    if cached is not None and (cached[0] is state.slots or cached[0] == state.slots):
        return cached[1]
    model = understanding_model(state)
    schema = model.model_json_schema()
    text = orjson.dumps(schema, option=orjson.OPT_SORT_KEYS).decode()
    grammar = _GRAMMARS.get(text)
    if grammar is None:
        grammar = _GRAMMARS[text] = grammar_from_schema(schema)
        stats["grammars"] += 1
    stats["models"] += 1
    built = StateSchema(model, schema, text, grammar, frozenset(slot.name for slot in state.slots))
    _BY_KEY[state.key] = (state.slots, built)
    return built


# ------------------------------------------------------------------ grounded turns

CHANGE = "change"
"""The answer to a pending confirmation that gives a new value instead: never taken as "yes"."""


@dataclass(frozen=True)
class TurnSchema:
    """What the model may write for one message at one state (see :mod:`.grounding`).

    ``values`` maps each typed slot offered to its spans and their values;
    ``text_slots`` take any span of the message; ``free`` slots are written
    as values of their type (``extract: "free"``). Slots, the intent and the
    answer the rules settled are not in it: the model cannot contradict them.
    """

    json_schema: dict[str, Any]
    schema_text: str
    grammar: Grammar
    text: str
    values: dict[str, dict[str, Any]]
    text_slots: frozenset[str]
    free: dict[str, Any]
    categorical: dict[str, tuple[Any, ...]]
    """Categorical and boolean slots offered, with their allowed values."""
    intents: tuple[str, ...] | None
    answers: bool
    choices: tuple[str, ...] | None
    priority: tuple[str, ...] = ()
    """Slots in the order they may claim a span: the asked one, the expected ones, the rest."""
    span_rules: dict[str, SpanRules] = field(default_factory=dict)
    """Per text slot: where its span may start, end and run (the grammar's own rules, checked again)."""

    @property
    def empty(self) -> bool:
        """Nothing left to ask: no intent, slot, answer or choice to decide."""
        # An intent or a choice with one option left ("none") is no decision either.
        return not (
            (self.intents and len(self.intents) > 1)
            or self.values
            or self.text_slots
            or self.free
            or self.categorical
            or self.answers
            or (self.choices and len(self.choices) > 1)
        )

    def parse(self, raw: str | bytes) -> Parse:
        """The model's output as a :class:`Parse` with typed values; UnderstandingError if it does not fit.

        It fits when it is an instance of exactly what :attr:`json_schema` offered (:func:`.offer.misfit`: a
        required key written, no other key, each value one the turn offered) and its spans keep their rules.
        """
        shown = raw if isinstance(raw, str) else raw.decode("utf-8", "replace")

        def refuse(why: str) -> UnderstandingError:
            return UnderstandingError(f"model output does not fit the turn's schema: {shown[:200]!r}: {why}")

        try:
            data = orjson.loads(raw)
        except orjson.JSONDecodeError as exc:
            raise refuse(str(exc)) from None
        if not isinstance(data, dict):
            raise refuse("not an object")
        problem = misfit(self.json_schema, data)
        if problem is not None:
            raise refuse(problem)
        parse = Parse(path="model")
        intent = data.get("intent")
        if intent is not None:
            if self.intents is None or intent not in self.intents:
                raise refuse(f"intent {intent!r}")
            parse.intent = None if intent == NONE else intent
        answer = data.get("answer")
        if answer is not None:
            if not self.answers or answer not in (*ANSWERS, CHANGE):
                raise refuse(f"answer {answer!r}")
            parse.answer = None if answer == CHANGE else answer
        choice = data.get("choice")
        if choice is not None:
            if self.choices is None or choice not in self.choices:
                raise refuse(f"choice {choice!r}")
            parse.choice = None if choice == NONE else choice
        slots = data.get("slots") or {}
        if not isinstance(slots, dict):
            raise refuse("slots is not an object")
        if answer in ANSWERS and slots:
            raise refuse(f"answer {answer!r} with slot values")
        if answer == CHANGE and not slots:
            raise refuse("a change without a value")
        values = {name: self._value(name, written, refuse) for name, written in slots.items()}
        # One stretch of the message is one value: a span written for several slots (a small model
        # fills every slot it is offered) goes to the first of them in priority order only.
        claimed: list[str] = []
        rank = {name: i for i, name in enumerate(self.priority)}
        for name in sorted(values, key=lambda n: rank.get(n, len(rank))):
            written = slots[name]
            if name in self.values or name in self.text_slots:
                if any(written in other or other in written for other in claimed):
                    continue
                claimed.append(written)
            parse.slots[name] = values[name]
        return parse

    def _value(self, name: str, written: Any, refuse: Any) -> Any:
        if name in self.values:
            if not isinstance(written, str) or written not in self.values[name]:
                raise refuse(f"{name}: {written!r} is not one of the spans offered")
            return self.values[name][written]
        if name in self.text_slots:
            if not isinstance(written, str) or not text_span_ok(self.text, written, self.span_rules[name]):
                raise refuse(f"{name}: {written!r} is not a span of the message")
            return written
        if name in self.categorical:
            if written not in self.categorical[name] or isinstance(written, bool) is not isinstance(
                self.categorical[name][0], bool
            ):
                raise refuse(f"{name}: {written!r}")
            return written
        if name in self.free:
            try:
                return self.free[name].validate_python(written)
            except ValidationError as exc:
                raise refuse(f"{name}: {exc}") from None
        raise refuse(f"unknown slot {name!r}")


_FREE: dict[int, tuple[Slot, Any, dict[str, Any]]] = {}


def _free_slot(slot: Slot) -> tuple[Any, dict[str, Any]]:
    """The pydantic adapter and JSON schema of a slot written freely (cached per slot object)."""
    found = _FREE.get(id(slot))
    if found is None or found[0] is not slot:
        adapter = TypeAdapter(slot_type(slot))
        found = _FREE[id(slot)] = (slot, adapter, adapter.json_schema())
    return found[1], found[2]


def vocabulary(state: UnderstandingState) -> frozenset[str]:
    """The flow's own words: intent examples, descriptions, slot names and values (cached per state).

    A free-text value neither starts nor ends with one of them: "I'd like to
    book a table" names no one, though "table" is a word of the message.
    """
    found = state.__dict__.get("_vocabulary")
    if found is None:
        texts = [state.description, state.context]
        texts += [example for intent in state.intents for example in intent.examples]
        texts += [example for choice in state.choice_examples for example in choice.examples]
        for slot in state.slots:
            texts += [slot.name.replace("_", " "), slot.description, *(slot.values or ())]
        found = state.__dict__["_vocabulary"] = words_of(*texts)
    return found


_COMMON = frozenset("a an the i me my you your we to of for and or is are it it's be do can could would".split())
"""The commonest function words: an intent example made only of function words ("hello there") keeps the rest."""


def plausible_intents(state: UnderstandingState, text: str, *, built_in: bool = True) -> list[str]:
    """The intents the message may mean: those without examples, and those with an example whose every
    content word the message says ("are you open on sundays" for "when are you open").

    A message that says none of an intent's examples ("for 4 people") cannot be
    that intent ("hello"): the grammar does not offer it. ``built_in=False``
    leaves out goodbye and decline (the rules read those).
    """
    table = state.__dict__.get("_intent_words")
    if table is None:
        # Per example, its content words: all of them must be in the message. An example of one or two
        # words ("hi", "hello there") is what a short message says as a whole; a long message that starts
        # "hello!" is about something else.
        table = state.__dict__["_intent_words"] = [
            (
                intent.name,
                [(_content(e), len(e.split())) for e in intent.examples] if intent.examples else None,
                greets(intent.examples),
            )
            for intent in state.intents
        ]
    said = words_of(text)
    short = len(message(text).words) <= 4
    social = read_acts(text).only_social
    return [
        name
        for name, examples, greeting in table
        if (examples is None and (built_in or name not in (GOODBYE, DECLINE)))
        or (
            examples
            and (social or not greeting)
            and any(words <= said and (short or size >= 3) for words, size in examples)
        )
    ]


def greets(examples: Sequence[str]) -> bool:
    """Is an intent a greeting: a third of its examples or more nothing but one ("hello", "Hi!")? Then a message that
    says more than a greeting is not it (STAR's `hello` lists twelve greetings and fifteen openings, "I need to change
    my ride": SmolLM2 took "I need to get a ride. Can you help me?" for a hello)."""
    acts = [read_acts(example) for example in examples]
    return bool(acts) and 3 * sum(a.greet and a.only_social for a in acts) >= len(acts)


_SOCIAL_WORDS = frozenset("hi hello hey thanks thank bye goodbye yes no ok okay yeah sure".split())
"""Function words that are an example's act: "hello, can I help you?" is a greeting, said only with its "hello"."""


def _content(example: str) -> frozenset[str]:
    words = words_of(example)
    return (words - (FUNCTION_WORDS - _SOCIAL_WORDS) - _COMMON) or (words - _COMMON) or words


def claimed(state: UnderstandingState, text: str, now: dt.datetime, settled: Parse) -> set[str]:
    """Spans of the message that a typed slot the node asks for now could take."""
    return {
        span
        for slot in state.slots
        if is_typed(slot) and offered(state, slot) and slot.name not in settled.slots
        for span in typed_candidates(slot, text, now)
    }


def standing(
    rules: RulesUnderstander,
    state: UnderstandingState,
    text: str,
    history: Sequence[tuple[str, str]],
    now: dt.datetime,
) -> Parse:
    """The rules' whole reading of ``text``, which the model may add to but never change.

    That is :meth:`RulesUnderstander.understand` (intent, answer, choice, values ruled out, every slot it
    fills, the text it takes as the answer to an asked text slot), exactly as the rules path applies it.
    A free-text answer stands whole: a model may not shorten "12 Mill Lane, Oxford" to "Oxford".
    """
    reading = rules.understand(state, text, history=history, now=now)
    # Every value the rules read stands, text values too (the runtime applies them with the rules alone: the model
    # path reads no less, "starring Dimiter Marinov" at an offer). None is dropped as a restatement of the summary:
    # "an hour would do" at a summary showing "for 1" is the coaching's first hour, which the rules path books (the
    # model's own values are checked so: ModelUnderstander.without_restatements).
    return Parse(
        intent=reading.intent,
        slots=dict(reading.slots),
        answer=reading.answer,
        choice=reading.choice,
        negated=dict(reading.negated),
        path="rules",
        info=dict(reading.info),  # what the runtime acts on too ("14, not 12": the swap it applies)
    )


def settled_words(state: UnderstandingState, text: str, now: dt.datetime, settled: Parse) -> frozenset[str]:
    """The words of ``text`` the rules read a value from: the spans of each typed slot's value, and the whole of
    a text value they took (function words aside: "my", "the" stay free)."""
    found: list[str] = []
    for name, value in settled.slots.items():
        slot = state.slot(name)
        if slot is None:
            continue
        if is_typed(slot):
            found += [span for span, read in typed_candidates(slot, text, now).items() if read == value]
        elif isinstance(value, str):
            found.append(value)
    return words_of(*found) - FUNCTION_WORDS


def offered(state: UnderstandingState, slot: Slot) -> bool:
    """Is ``slot`` one the user is being asked about (asked, expected, or being confirmed)?"""
    return slot.name == state.asked or slot.name in state.expected or slot.name == state.confirm_slot


def turn_schema(
    state: UnderstandingState,
    text: str,
    now: dt.datetime,
    *,
    settled: Parse | None = None,
    open_part: Sequence[str] = (),
    without_words: bool = False,
) -> TurnSchema:
    """The grounded schema and grammar for ``text`` at ``state``, leaving out what ``settled`` decided.

    Typed slots are offered only when the message reads one value for them
    (spans of different values are a reading no parser made), text slots only
    when it has a span that can be a value, categorical slots only the values
    the message has words for, an asked boolean slot only when the message
    names it (with the message's polarity). With a confirmation pending, the
    answer comes first: ``yes``, ``no`` or ``other`` with no slot value, or
    ``change`` with at least one.

    ``settled`` is what the rules read (:func:`standing`); given, the
    model is beside the rules and may only add to it: the asked text slot is
    theirs (their whole answer, or asked again), a typed slot neither asked
    nor named in the message is not offered, and no value is taken from the
    words they read a value from. ``None``: the model decides alone
    (``rules_first=False``).

    ``open_part`` is what the rules' reading left open (:mod:`fsmdial.understand.rules.coverage`). With words
    open, the model is offered meaning without words: the asked categorical slot all its values, the
    state's intents when nothing is asked and the rules read no intent nor value, and at a confirmation where
    the rules read no change, a change of any typed slot a value of the message fits (each such slot is
    an option; the bounds of its type decide which fit: a party size is no opening hour). The values and
    intents without words are offered only with ``without_words`` (a chooser that can abstain: a small model
    writing JSON writes the first value offered, measured; a confirmation's change is a span the message says).
    """
    rules_ran = settled is not None
    settled = settled or Parse()
    started = time.perf_counter()
    values: dict[str, dict[str, Any]] = {}
    text_slots: set[str] = set()
    free: dict[str, Any] = {}
    categorical: dict[str, tuple[Any, ...]] = {}
    properties: dict[str, Any] = {}
    span_rules: dict[str, SpanRules] = {}
    texts: list[Slot] = []
    taken: set[str] | None = None  # the spans typed slots asked for now could take (worked out when first needed)
    # What the rules read is that slot's value: no other slot takes any of its words (a number inside the
    # address the rules took, the digits of the phone number as a quantity). Free text may not start or end
    # with the flow's own words, nor with a value some typed slot takes now.
    barred = settled_words(state, text, now, settled)
    claims = claimed_words(state.slots, text, now)  # an address's words are no other slot's ("8 Meadow Lane": no 8:00)
    acts = read_acts(text)
    affirmed = split_negated(text)[0] if acts.deny else text
    affirmed = OPPOSITES.sub(" ", affirmed)  # "a space off the road" offers no road bike
    if acts.question and state.asked is not None:
        # As the rules read it: a question's words are no value ("how many does one box feed?" gives no 1)
        affirmed = without_questions(affirmed)
    widen = bool(open_part) and rules_ran
    # A change at a confirmation: the rules read none, and the message holds a value they did not read. A change the
    # rules read for one slot ("sorry I said upvc but it's actually composite") stands: that slot is not offered
    # (SmolLM2 chose the old "uPVC" named in it, and it was booked); "make that 5" (people or 5 pm) is the model's.
    new = (settled.info.get("change") or {}).get("new") or {}
    # A categorical value the change reads is its words, no doubt ("can we swap to a punt instead of the motor boat?
    # and 2pm": Qwen chose the old "motor boat" named in it beside the new time, and it was booked).
    changed = (
        new
        if len(new) == 1
        else {n: v for n, v in new.items() if (s := state.slot(n)) and s.type is SlotType.categorical}
    )
    changing = widen and state.confirm is not None and not settled.slots and not changed and settled.answer != "yes"
    still_open = words_of(*open_part)
    # The value a message names as the one it replaces: "11 instead of 8", "forget the MOT" (the held one).
    replaced = words_of(*_REPLACED.findall(text)) - FUNCTION_WORDS
    doubted = set(settled.info.get("doubt", ()))  # two values told as well: the flow asks, no model guesses
    for slot in state.slots:
        if slot.name in settled.slots or slot.name in changed or slot.name in doubted:
            continue
        kind = slot.type
        asked = slot.name in (state.asked, state.confirm_slot)
        if kind is SlotType.categorical:
            # Only the values the message has words for, outside what it rules out ("not the terrace"):
            # a name, a question or a "yes" has none ("Dana Lee" is no species). With words the rules read
            # nothing from, the asked slot is offered all its values ("it has a big battery": e-bike).
            allowed = tuple(
                v for v in slot.values or () if mentioned(v, affirmed) and not words_of(v) - FUNCTION_WORDS <= replaced
            )
            # When the rules read another slot's value, only when more than a word is open beside it: one left
            # is another question's answer ("its a transit, reg is FX63 OLK" at "what work?": Qwen chose "MOT",
            # measured); a description is more ("the key's stuck in the door, it's 7 Rustlings Road").
            if (
                not allowed
                and widen
                and without_words
                and slot.name == state.asked
                and (not settled.slots or len(describing_words(state, settled, open_part)) >= 2)
                and not acts.holds_no_value
            ):
                allowed = tuple(slot.values or ())
            if allowed:
                categorical[slot.name] = allowed
                properties[slot.name] = {"enum": list(allowed)}
        elif kind is SlotType.boolean:
            # Asked, and the message names it ("we have no insurance"): the polarity is the message's, the model only
            # says whether it answers; not where the question offers two sides ("we'll do our own packing").
            if asked and cue(slot, text, state.flow) and not acts.question and not two_sided(slot):
                polarity = (False,) if negative(text) else (True,)
                categorical[slot.name] = polarity
                properties[slot.name] = {"enum": list(polarity)}
        elif slot.extract == "free":
            adapter, sub = _free_slot(slot)
            free[slot.name] = adapter
            properties[slot.name] = sub
        elif is_typed(slot):
            spans = {
                span: value
                for span, value in typed_candidates(slot, affirmed, now).items()
                if not words_of(span) & (barred if KINDS[slot.type].claims else barred | claims)
            }
            # At a confirmation, a value the rules did not read may change a held slot of its type
            # ("make that 5", "can we do 11 instead"): named for the model, which says which, or none.
            named = asked or cue(slot, text, state.flow) > 0
            if named and not asked and not changing and kind in (SlotType.integer, SlotType.number):
                spans = {span: value for span, value in spans.items() if named_beside(slot, affirmed, span)}
                named = bool(spans)
            elif asked and kind is SlotType.integer:  # "I need two rooms" asked the travellers: it counts rooms
                spans = {span: value for span, value in spans.items() if not counts_another(slot, affirmed, span)}
            if changing and not named and kind in CHANGED_BY_NUMBER:
                # Only the spans of words the rules left open ("one more person ... make that 5": 5, not one),
                # inside the slot's bounds (11 is no number of rooms of a hotel with at most 5); a bare hour is
                # a time there ("can we do 11 instead of 8?" at a summary showing 8 am). A slot of a form (a
                # registration, a phone) is changed by its form, which the rules read: "11" is none.
                # The whole message: "make that 6 not 4" is a clause with a "not", the value replaced left out.
                spans = {
                    span: value
                    for span, value in typed_candidates(slot, text, now).items()
                    if not words_of(span) & (barred if KINDS[slot.type].claims else barred | claims)
                }
                if kind is SlotType.time:
                    spans |= bare_hours(slot, open_part, now)
                spans = {
                    span: value
                    for span, value in spans.items()
                    if words_of(span) & still_open
                    and not words_of(span) & replaced
                    and inside_bounds(slot, value)
                    and not (kind is SlotType.integer and counts_another(slot, text, span))  # "2 hotel rooms"
                }
                named = bool(spans)
            if rules_ran and not named:
                # Beside the rules, a slot not asked for takes a value only where the message names it ("the PIN
                # is 9503"): "8 Hill Road, Bath" is no number of boxes, "1234 5678" no account number and PIN.
                continue
            if not (named or offered(state, slot)):
                # A slot the node does not ask for now gets no span an asked slot can take ("4417" is the
                # card asked for, not the new PIN of a later step).
                if taken is None:
                    taken = claimed(state, text, now, settled)
                spans = {span: value for span, value in spans.items() if span not in taken}
            # Spans of different values are a reading the parsers could not make ("one hundred and twelve"
            # reads 1, 100 and 12; "one large margherita and... actually make that two"): none is offered.
            if spans and len({orjson.dumps(value) for value in spans.values()}) == 1:
                values[slot.name] = spans
                properties[slot.name] = {"type": "string", "enum": list(spans)}
        elif not acts.holds_no_value and not (rules_ran and slot.name == state.asked):
            # A greeting, thanks, a question or a don't-know is no text value. The answer to an asked text
            # slot is the rules' to read (the whole answer, never a fragment of it: :func:`standing`);
            # when they read something else from it ("sorry, wrong number, it's 251", "Oreo is a rabbit, not
            # a cat") or no name from it ("my dog Rex is sick"), it is asked again.
            texts.append(slot)
    barred |= claims  # text slots never claim
    blocked = vocabulary(state) | words_of(*(span for spans in values.values() for span in spans)) | barred
    for slot in texts:
        if slot.name == state.asked and settled.intent is None and slot.name not in settled.slots:
            starts = None  # the answer to the question: any span
        elif cue(slot, text, state.flow):
            starts = cue_starts(text, slot, state.flow)  # "my PIN is 1234": spans right after the slot's name
            if not starts:
                continue
        else:
            continue
        # Beside the rules, a text value the model adds is a whole clause, never a fragment of one.
        rules = span_rules_for(
            slot,
            blocked,
            starts,
            barred,
            person_name=slot is state.person_name or slot.type is SlotType.person_name,
            whole=rules_ran,
        )
        if span_node(text, rules=rules) is not None:
            text_slots.add(slot.name)
            span_rules[slot.name] = rules
            properties[slot.name] = {
                "type": "string",
                SPAN_OF: text,
                NOT_AT_EDGES: sorted(rules.blocked),
                "maxLength": len(text),
            }
            if rules.starts is not None:
                properties[slot.name][SPAN_STARTS] = sorted(rules.starts)
            if rules.barred:
                properties[slot.name][NOT_INSIDE] = sorted(rules.barred)
            if rules.one_clause:
                properties[slot.name][ONE_CLAUSE] = True
            if rules.person_name:
                properties[slot.name][PERSON_NAME] = True
            if rules.whole:
                properties[slot.name][WHOLE_CLAUSE] = True
    slots_schema: dict[str, Any] = {"type": "object", "properties": properties, "additionalProperties": False}
    intents = None if settled.intent is not None else (NONE, *plausible_intents(state, text, built_in=not rules_ran))
    if (
        intents is not None
        and widen
        and without_words
        and state.confirm is None
        and state.asked is None
        and not settled.slots
        and not acts.holds_no_value
    ):
        # Nothing asked (the user says what they want), words the rules read nothing from and no intent read:
        # any of the state's intents ("need my brakes looked at"), not only those whose example words are all
        # said. With a slot asked the reply answers it: a small model offered every intent there writes the
        # first ("hello"), measured.
        intents = (NONE, *(i.name for i in state.intents if i.name not in (GOODBYE, DECLINE)))
    head: dict[str, Any] = {}
    if intents is not None:
        head["intent"] = {"enum": list(intents)}
    choices = tuple(list(state.choices) + [NONE]) if state.choices and settled.choice is None else None
    tail: dict[str, Any] = {"choice": {"enum": list(choices)}} if choices else {}
    answers = state.confirm is not None and settled.answer is None and not settled.slots

    def obj(props: dict[str, Any]) -> dict[str, Any]:
        return {"type": "object", "properties": props, "required": list(props), "additionalProperties": False}

    if answers:
        options: list[dict[str, Any]] = [obj({**head, "answer": {"enum": possible_answers(text)}, **tail})]
        if properties:
            options.append(
                obj({**head, "answer": {"const": CHANGE}, "slots": {**slots_schema, "minProperties": 1}, **tail})
            )
        schema: dict[str, Any] = options[0] if len(options) == 1 else {"anyOf": options}
    elif must_answer(state, settled, text_slots) and intents is not None:
        # The user was asked for a text value and the rules read nothing else: a small model tends to
        # write nothing at all, so the asked value is required, unless the message is an intent.
        asked_schema = {**slots_schema, "required": [state.asked]}
        options = [obj({"intent": {"enum": [NONE]}, "slots": asked_schema, **tail})]
        if len(intents) > 1:
            options.append(obj({"intent": {"enum": list(intents[1:])}, "slots": slots_schema, **tail}))
        schema = options[0] if len(options) == 1 else {"anyOf": options}
    else:
        schema = obj({**head, "slots": slots_schema, **tail})
    schema_text = orjson.dumps(schema, option=orjson.OPT_SORT_KEYS).decode()
    grammar = grammar_from_schema(schema)
    stats["turn_schemas"] += 1
    stats["turn_seconds"] += time.perf_counter() - started
    return TurnSchema(
        schema,
        schema_text,
        grammar,
        text,
        values,
        frozenset(text_slots),
        free,
        categorical,
        intents,
        answers,
        choices,
        _priority(state, text),
        span_rules,
    )


_REPLACED = re.compile(
    r"\b(?:instead of|rather than|not|from|forget(?: about)?)\s+(?:the\s+|a\s+|an\s+)?([\w:.-]+(?:\s*(?:am|pm))?)", re.I
)
"""The held value a change names as the one it replaces ("11 instead of 8", "5 not 4")."""
CHANGED_BY_NUMBER = frozenset(
    {SlotType.integer, SlotType.number, SlotType.date, SlotType.time, SlotType.duration, SlotType.money}
)
"""Slot types a value said at a confirmation may change without naming the slot ("make that 5")."""


def bare_hours(slot: Slot, said: Sequence[str], now: dt.datetime) -> dict[str, Any]:
    """The time each bare hour of ``said`` is ("11" as "at 11"), as the slot's reader has it."""
    found: dict[str, Any] = {}
    for word in said:
        if word.isdigit() and 0 < int(word) <= 24:
            read = typed_candidates(slot, f"at {word}", now)
            if len(read) == 1:
                found[word] = next(iter(read.values()))
    return found


def inside_bounds(slot: Slot, value: Any) -> bool:
    """Is a number inside the slot's ``minimum`` and ``maximum`` (other values: the type's reader kept them)?"""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return True
    return not (
        (slot.minimum is not None and value < slot.minimum) or (slot.maximum is not None and value > slot.maximum)
    )


_NEGATION = frozenset("no not nope nah never don't doesn't isn't won't can't cannot later wait".split())


def possible_answers(text: str) -> list[str]:
    """The plain answers a message may be: "yes" only with a yes word in it and no negation, hedge or question
    ("Alex", "hmm let me think", "tell me about the menu first" cannot be a yes); "no" only with a no word.

    (A plain "yes" or "no" never gets here: the rules settle it.)
    """
    acts = read_acts(text)
    if acts.question:
        return ["other"]
    negated = negative(text)
    offered = [] if negated or acts.hedge or not acts.affirm else ["yes"]
    return offered + (["no"] if negated else []) + ["other"]


def negative(text: str) -> bool:
    """Does the message say no, not, never or later ("I don't have insurance", "not right now")?"""
    return not words_of(text).isdisjoint(_NEGATION) or read_acts(text).deny


def must_answer(state: UnderstandingState, settled: Parse, text_slots: set[str]) -> bool:
    """Is the asked slot a text slot that this message must fill (nothing else was read from it)?"""
    return (
        state.asked is not None
        and state.asked in text_slots
        and state.confirm is None
        and settled.intent is None
        and not settled.slots
    )


def _priority(state: UnderstandingState, text: str) -> tuple[str, ...]:
    """Slots named by the message first (most words first), then the asked one, the expected ones, the rest."""
    first = ([state.asked] if state.asked else []) + ([state.confirm_slot] if state.confirm_slot else [])
    ordered = list(dict.fromkeys([*first, *state.expected, *(slot.name for slot in state.slots)]))
    cues = {slot.name: cue(slot, text, state.flow) for slot in state.slots}
    return tuple(sorted(ordered, key=lambda name: -cues.get(name, 0)))
