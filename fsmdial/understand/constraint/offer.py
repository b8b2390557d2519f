"""Does a model's output fit exactly what a turn offered? The turn's JSON schema read as a check, not a grammar.

The grammar (:func:`~.grammar.grammar_from_schema`) makes a decoder write only what the turn's schema offers;
a model server's grammar is not trusted, and even in process a check costs microseconds. :func:`misfit` walks
the same subset of JSON Schema the grammar compiles (``anyOf``, ``$ref`` into ``$defs``, ``enum``/``const``,
objects with ``properties``, ``required``, ``additionalProperties: false`` and ``minProperties``, bounded
strings and their ``pattern``, integer and number ranges, booleans, null; a span of the message,
``x-span-of``, as a string in that text) and says where a value leaves it. Which words a span may start,
end or run over is :meth:`~.schema.TurnSchema.parse`'s check of the span rules, after this one.
"""

from __future__ import annotations

import math
import re
from functools import lru_cache
from typing import Any

from .grammar import LARGEST_INT, MAX_STRING_CHARS, SPAN_OF, UNBOUNDED_INT, pattern_contents, to_regex


def misfit(schema: dict[str, Any], value: Any) -> str | None:
    """Why ``value`` (decoded JSON) is not an instance of ``schema``, or None when it is one."""
    return _Check(schema.get("$defs", {})).misfit(schema, value, "")


class _Check:
    def __init__(self, defs: dict[str, Any]):
        self.defs = defs

    def resolve(self, schema: dict[str, Any]) -> dict[str, Any]:
        ref = schema.get("$ref")
        if ref is None:
            return schema
        name = ref.removeprefix("#/$defs/")
        if name == ref or name not in self.defs:
            return {"not": "resolvable"}  # the grammar refuses it too: nothing fits
        resolved: dict[str, Any] = self.defs[name]
        return resolved

    def misfit(self, schema: dict[str, Any], value: Any, where: str) -> str | None:
        schema = self.resolve(schema)
        at = where or "the output"
        if "anyOf" in schema:
            reasons = [self.misfit(option, value, where) for option in schema["anyOf"]]
            if all(reasons):
                return "; or ".join(str(reason) for reason in reasons)
            return None
        if SPAN_OF in schema:
            if not isinstance(value, str) or not value or value not in schema[SPAN_OF]:
                return f"{at}: {_shown(value)} is not a span of the message"
            return _length(schema, value, at, cap=None)  # a span is as long as the message lets it be
        if "enum" in schema or "const" in schema:
            allowed = schema["enum"] if "enum" in schema else [schema["const"]]
            if not any(_same(value, option) for option in allowed):
                return f"{at}: {_shown(value)} is not one of {_shown(allowed)}"
            return None
        kind = schema.get("type")
        if kind == "object":
            return self.object(schema, value, where, at)
        if kind == "string":
            if not isinstance(value, str):
                return f"{at}: {_shown(value)} is not a string"
            pattern = schema.get("pattern")
            if pattern is not None and not _matches(pattern, value):
                return f"{at}: {_shown(value)} does not match {pattern!r}"
            return _length(schema, value, at, cap=MAX_STRING_CHARS)
        if kind == "integer":
            if not isinstance(value, int) or isinstance(value, bool):
                return f"{at}: {_shown(value)} is not an integer"
            return _range(schema, value, at)
        if kind == "number":
            if not isinstance(value, int | float) or isinstance(value, bool) or not math.isfinite(value):
                return f"{at}: {_shown(value)} is not a number"
            return _range(schema, value, at)
        if kind == "boolean":
            return None if isinstance(value, bool) else f"{at}: {_shown(value)} is not true or false"
        if kind == "null":
            return None if value is None else f"{at}: {_shown(value)} is not null"
        return f"{at}: the turn offers nothing here"

    def object(self, schema: dict[str, Any], value: Any, where: str, at: str) -> str | None:
        if not isinstance(value, dict):
            return f"{at}: {_shown(value)} is not an object"
        properties: dict[str, Any] = schema.get("properties", {})
        extra = sorted(set(value) - set(properties))
        if extra:
            return f"{at}: {extra[0]!r} was not offered"
        missing = [name for name in schema.get("required", ()) if name not in value]
        if missing:
            return f"{at}: {missing[0]!r} is required"
        if len(value) < schema.get("minProperties", 0):
            return f"{at}: at least {schema['minProperties']} of {sorted(properties)} required"
        for name, item in value.items():
            problem = self.misfit(properties[name], item, f"{where}.{name}" if where else name)
            if problem:
                return problem
        return None


def _same(value: Any, option: Any) -> bool:
    """JSON equality: ``true`` is not ``1``, ``1`` is ``1.0``."""
    if isinstance(value, bool) or isinstance(option, bool):
        return value is option
    if isinstance(value, int | float) and isinstance(option, int | float):
        return value == option
    return type(value) is type(option) and value == option


def _length(schema: dict[str, Any], value: str, at: str, *, cap: int | None) -> str | None:
    """``value``'s length within the schema's bounds (and ``cap``, the longest free string a grammar writes)."""
    low, high = schema.get("minLength", 0), schema.get("maxLength", cap if cap is not None else len(value))
    if cap is not None:
        high = min(high, cap)
    if not low <= len(value) <= high:
        return f"{at}: {len(value)} characters, not {low} to {high}"
    return None


def _range(schema: dict[str, Any], value: float, at: str) -> str | None:
    low = max(schema.get("minimum", -UNBOUNDED_INT), -LARGEST_INT)
    high = min(schema.get("maximum", UNBOUNDED_INT), LARGEST_INT)
    if not low <= value <= high:
        return f"{at}: {value!r} is not within {low} to {high}"
    if "exclusiveMinimum" in schema and not value > schema["exclusiveMinimum"]:
        return f"{at}: {value!r} is not above {schema['exclusiveMinimum']}"
    if "exclusiveMaximum" in schema and not value < schema["exclusiveMaximum"]:
        return f"{at}: {value!r} is not below {schema['exclusiveMaximum']}"
    return None


@lru_cache(maxsize=256)
def _pattern(pattern: str) -> re.Pattern[str] | None:
    """The strings the grammar writes for ``pattern`` (its contents, as :func:`~.grammar.pattern_contents` reads
    them), or None when the grammar could not bound it (then nothing fits: no grammar offered it)."""
    contents = pattern_contents(pattern)
    return None if contents is None else re.compile(to_regex(contents))


def _matches(pattern: str, value: str) -> bool:
    compiled = _pattern(pattern)
    return compiled is not None and compiled.fullmatch(value) is not None


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."
