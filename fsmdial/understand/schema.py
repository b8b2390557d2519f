"""What the user may say now, as a pydantic model, a JSON schema and a bounded grammar.

For an :class:`~fsmdial.understand.base.UnderstandingState` the model is::

    {"intent": <a global intent or "none">,
     "slots": {<slot>: <typed value>, ...},      # every key optional
     "answer": "yes" | "no" | "other",           # only when a confirmation is pending
     "choice": <one of the node's choices or "none">}   # only when the node has choices

Slot values are typed: categorical slots are enums, integers and numbers have
the flow's bounds (the grammar writes at most :data:`~.grammar.UNBOUNDED_INT`
where the flow gives none), strings a
length of 1 to ``Slot.string_limit``, dates ``YYYY-MM-DD`` and times ``HH:MM``.
A slot's own ``pattern`` goes into the schema (and the grammar) when it is a
bounded regular expression :func:`~.grammar.pattern_contents` can translate
(``^[0-9]{4,6}$``); otherwise it is left to the flow's validators. The runtime
checks every value again either way and tells the user when one is invalid.

:func:`state_schema` builds all three once per state signature
(``state.key``); states with the same JSON schema share one grammar.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any, Literal

import orjson
from pydantic import BaseModel, ConfigDict, Field, StringConstraints, ValidationError, create_model

from ..errors import UnderstandingError
from ..flow import Slot, SlotType
from .base import Parse, UnderstandingState
from .grammar import DATE_PATTERN, TIME_PATTERN, Grammar, grammar_from_schema, max_chars, pattern_contents

NONE = "none"
"""The intent (and choice) that means "none of these"."""
ANSWERS = ("yes", "no", "other")


def slot_type(slot: Slot) -> Any:
    """The bounded Python type of one slot's value, as the model may write it."""
    kind = slot.type
    if kind is SlotType.categorical:
        return Literal[tuple(slot.values or ())]  # type: ignore[misc]
    # Bounds are the flow's own. Where it gives none, the grammar still writes at most
    # UNBOUNDED_INT (a subset of the schema), so that every output has a known length.
    if kind is SlotType.integer:
        return Annotated[int, Field(ge=_int(slot.minimum), le=_int(slot.maximum))]
    if kind is SlotType.number:
        return Annotated[float, Field(ge=slot.minimum, le=slot.maximum)]
    if kind is SlotType.boolean:
        return bool
    if kind is SlotType.date:
        return Annotated[str, StringConstraints(pattern=DATE_PATTERN)]
    if kind is SlotType.time:
        return Annotated[str, StringConstraints(pattern=TIME_PATTERN)]
    limit = slot.string_limit
    if slot.pattern is not None:
        contents = pattern_contents(slot.pattern)
        if contents is not None and max_chars(contents) <= limit:  # the grammar can enforce it exactly
            return Annotated[str, StringConstraints(pattern=slot.pattern, max_length=limit)]
    return Annotated[str, StringConstraints(min_length=1, max_length=limit)]


def _int(bound: float | None) -> int | None:
    return None if bound is None else int(bound)


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
stats = {"models": 0, "grammars": 0}
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
