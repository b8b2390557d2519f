"""The model chooses by scoring sentences: each grounded option of a turn, said in plain English, is scored.

The JSON path asks a small model to *write* its reading under a grammar; such
models mostly write the first option they are offered. Here the model only
*reads*: every option of the turn's grounded schema
(:func:`~fsmdial.understand.constraint.schema.turn_schema`: per slot each
candidate value, the answer at a confirmation, the intents, the choices) is
written as a short sentence ("The user wants to change the number of people
to six.", "The user agrees.") and scored as the assistant's reply to the
conversation: the mean log-probability of its tokens (:class:`Option`,
:func:`options_for`).

Scores are **calibrated** against the same conversation with an empty user
message: an option's score is how much the message raises it
(``score(option | message) - score(option | "")``), so a sentence the model
likes whatever was said ("The user agrees.") does not win by default.

Per field (:func:`choose`):

* a slot takes its best candidate when that candidate's calibrated score is at
  least ``margin``; otherwise it stays unchanged;
* an intent or a choice likewise, else ``none``;
* at a confirmation, a slot taken makes the answer ``change`` (when the schema
  allows one); otherwise the answer is the best of those the schema offers
  (``yes``/``no``/``other``), by calibrated score;
* an asked text slot the schema requires (:func:`~fsmdial.understand.constraint.schema.must_answer`)
  takes its best span when no intent is taken.

The choice is written as the JSON the grammar would accept and read back by
:meth:`TurnSchema.parse`, so the Parse, the merge with the rules and the
machine's guards are those of the JSON path: the model never writes a value,
it only picks one the readers proposed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import orjson

from ...flow import Slot
from ..base import Parse, UnderstandingState
from ..constraint.grounding import message, name_spans
from ..constraint.schema import CHANGE, NONE, TurnSchema

if TYPE_CHECKING:
    from ..decoding.kv_cache import DiskCache
    from ..decoding.llama_model import LlamaModel
    from .prompt import PromptBuilder

DEFAULT_MARGIN = 0.2
"""How much (mean log-probability per token) the message must raise a value, intent or choice to be taken."""
MAX_TEXT_SPANS = 24
"""Text-slot spans scored per slot (longest first): a long message has many, and each costs a batch."""
MAX_TEXT_WORDS = 12
"""Longest text span (in words) offered as an option."""

ANSWER_SENTENCES = {
    "yes": "The user agrees.",
    "no": "The user does not agree.",
    "other": "The user asks about something else.",
}


@dataclass(frozen=True)
class Option:
    """One thing the model may choose: ``field`` (``answer``, ``intent``, ``choice`` or ``slot:<name>``) takes
    ``written`` (as the turn's JSON would write it), said as ``sentence``."""

    field: str
    written: Any
    sentence: str


def system_text(state: UnderstandingState) -> str:
    """The scoring prompt's system text: the flow's context and the task, said once per flow."""
    lines = ["You are the language-understanding step of a dialogue system."]
    if state.context:
        lines.append(state.context.strip())
    if state.description:
        lines.append(f"The dialogue: {state.description.strip()}")
    lines.append("Read the user's last message in the conversation and say in one sentence what the user means.")
    return "\n".join(lines)


def note_text(state: UnderstandingState) -> str:
    """What the agent just did, in words (after the new message)."""
    if state.confirm is not None:
        return "\nThe agent asked the user to confirm."
    if state.asked:
        slot = state.slot(state.asked)
        return f"\nThe agent asked for the {noun(slot) if slot else state.asked}."
    return ""


def noun(slot: Slot) -> str:
    """The slot in a sentence: its description when short ("number of people"), else its label or name."""
    if slot.description and len(slot.description.split()) <= 5:
        return slot.readable
    return slot.noun


def options_for(state: UnderstandingState, schema: TurnSchema) -> list[Option]:
    """Every grounded option of the turn, each as a sentence (see the module docstring)."""
    found: list[Option] = []
    confirming = state.confirm is not None

    def value_sentence(slot: Slot, said: str) -> str:
        if confirming:
            return f"The user wants to change the {noun(slot)} to {said}."
        return f"The user says the {noun(slot)} is {said}."

    for answer in answer_enum(schema):
        found.append(Option("answer", answer, ANSWER_SENTENCES[answer]))
    for name, spans in schema.values.items():
        slot = state.slot(name)
        if slot is None:
            continue
        by_value: dict[bytes, str] = {}
        for span, value in spans.items():  # one option per value, said with its longest span
            key = orjson.dumps(value)
            if key not in by_value or len(span) > len(by_value[key]):
                by_value[key] = span
        for span in by_value.values():
            found.append(Option(f"slot:{name}", span, value_sentence(slot, span)))
    for name, allowed in schema.categorical.items():
        slot = state.slot(name)
        if slot is None:
            continue
        for value in allowed:
            if isinstance(value, bool):
                sentence = f"The user says {'yes' if value else 'no'} to the {noun(slot)}."
            else:
                sentence = value_sentence(slot, str(value))
            found.append(Option(f"slot:{name}", value, sentence))
    for name in sorted(schema.text_slots):
        slot = state.slot(name)
        if slot is None:
            continue
        for span in text_spans(schema, name):
            found.append(Option(f"slot:{name}", span, value_sentence(slot, span)))
    if schema.intents:
        examples = {intent.name: intent.examples for intent in state.intents}
        for intent in schema.intents:
            if intent == NONE:
                continue
            shown = examples.get(intent) or (intent.replace("_", " "),)
            found.append(Option("intent", intent, f'The user says something like "{shown[0]}".'))
    if schema.choices:
        described = {c.name: c.examples for c in state.choice_examples}
        for choice in schema.choices:
            if choice == NONE:
                continue
            shown = described.get(choice) or (choice.replace("_", " "),)
            found.append(Option("choice", choice, f'The user means "{shown[0]}".'))
    return found


def answer_enum(schema: TurnSchema) -> list[str]:
    """The plain answers the schema offers at a confirmation (none when no answer is asked for)."""
    if not schema.answers:
        return []
    first = schema.json_schema.get("anyOf", [schema.json_schema])[0]
    return list(first["properties"]["answer"]["enum"])


def change_allowed(schema: TurnSchema) -> bool:
    return schema.answers and len(schema.json_schema.get("anyOf", ())) == 2


def required_slot(schema: TurnSchema) -> str | None:
    """The asked text slot the schema requires when no intent is taken (:func:`~.schema.must_answer`)."""
    for part in schema.json_schema.get("anyOf", [schema.json_schema]):
        slots = part.get("properties", {}).get("slots", {})
        required = slots.get("required")
        if required:
            return str(required[0])
    return None


def text_spans(schema: TurnSchema, name: str) -> list[str]:
    """The spans of the message a text slot may take (its grammar's rules), longest first, at most a few."""
    rules = schema.span_rules[name]
    if rules.person_name:
        spans = list(name_spans(schema.text, rules))
    else:
        msg = message(schema.text)
        count = len(msg.words)
        found: dict[str, None] = {}
        for first in range(count):
            if not rules.can_start(msg, first):
                continue
            for last in range(first, min(count, first + MAX_TEXT_WORDS)):
                if rules.can_end(msg, last):
                    found[msg.span(first, last)] = None
                if not rules.runs_on(msg, last):
                    break
        spans = list(found)
    spans.sort(key=lambda span: (-len(span), span))
    return spans[:MAX_TEXT_SPANS]


@dataclass
class Scored:
    option: Option
    score: float
    """Mean log-probability per token after the message."""
    baseline: float
    """The same after an empty message."""

    @property
    def gain(self) -> float:
        return self.score - self.baseline


def choose(
    state: UnderstandingState, schema: TurnSchema, scored: Sequence[Scored], *, margin: float = DEFAULT_MARGIN
) -> dict[str, Any]:
    """The turn's JSON output, as the grammar would accept it, picked from ``scored`` (see the module docstring)."""
    best: dict[str, Scored] = {}
    for item in scored:
        held = best.get(item.option.field)
        if held is None or item.gain > held.gain:
            best[item.option.field] = item
    required = required_slot(schema)
    intent = NONE
    if "intent" in best and best["intent"].gain >= margin:
        intent = best["intent"].option.written
    slots: dict[str, Any] = {}
    for field, item in best.items():
        if not field.startswith("slot:"):
            continue
        name = field[len("slot:") :]
        if item.gain >= margin or (name == required and intent == NONE):
            slots[name] = item.option.written
    out: dict[str, Any] = {}
    if schema.intents is not None:
        out["intent"] = intent
    if schema.answers:
        if slots and change_allowed(schema):
            out["answer"] = CHANGE
        else:
            slots = {}
            answers = [item for item in scored if item.option.field == "answer"]
            out["answer"] = max(answers, key=lambda item: item.gain).option.written if answers else "other"
    if not schema.answers or out["answer"] == CHANGE:  # a plain answer at a confirmation is offered no slots
        out["slots"] = slots
    if schema.choices is not None:
        chosen = best.get("choice")
        out["choice"] = chosen.option.written if chosen is not None and chosen.gain >= margin else NONE
    return out


def score_parse(
    model: LlamaModel,
    prompts: PromptBuilder,
    state: UnderstandingState,
    schema: TurnSchema,
    text: str,
    history: Sequence[tuple[str, str]],
    *,
    margin: float = DEFAULT_MARGIN,
    kv_cache: DiskCache | None = None,
) -> Parse:
    """One model call that scores every option after the message and after an empty one, then :func:`choose`."""
    from ..decoding.suffix_scores import suffix_log_probs

    options = options_for(state, schema)
    suffixes = [list(prompts.tokens(option.sentence)) for option in options]
    with model.lock:  # understanders of other backends may share the model
        reserve = max((len(s) for s in suffixes), default=0) + 1
        empty = prompts.build(state, history, "", budget=model.n_ctx - reserve)
        prompt = prompts.build(state, history, text, budget=model.n_ctx - reserve)
        before = model.evaluated
        model.hold_prefix(prompt.tokens[: prompt.static_tokens], kv_cache)
        # The empty message first: the cache then ends holding this turn's prompt, which the next turn extends.
        baseline = suffix_log_probs(model, empty.tokens, suffixes) if suffixes else []
        found = suffix_log_probs(model, prompt.tokens, suffixes) if suffixes else []
        evaluated = model.evaluated - before
    scored = [
        Scored(option, _mean(said), _mean(base)) for option, said, base in zip(options, found, baseline, strict=True)
    ]
    data = choose(state, schema, scored, margin=margin)
    output = orjson.dumps(data)
    parse = schema.parse(output)
    parse.path, parse.model_calls = "model", 1
    parse.info = {
        "backend": "score",
        "prompt_tokens": len(prompt.tokens),
        "evaluated_tokens": evaluated,
        "options": len(options),
        "output": output.decode(),
        "gains": {f"{item.option.field}={item.option.written}": round(item.gain, 3) for item in scored},
    }
    if prompt.dropped:
        parse.info["dropped_lines"] = prompt.dropped
    return parse


def _mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else 0.0
