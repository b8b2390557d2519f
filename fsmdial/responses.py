"""Response templates: ``{slot}``, ``{result.field}`` and ``{node.field}`` placeholders.

Templates are parsed once (when a flow is compiled) into literal and field
parts. Values are inserted as data: a slot value such as ``{ride_id}`` or
``{0.__class__}`` typed by a user is shown verbatim, never formatted again,
and placeholders can only name values (no indexing, no attribute access).

Format specs apply as Python's ``format`` does; a spec that does not fit the
value's type (``{n:d}`` for the text ``"3"``) fails the turn with a
:class:`~fsmdial.errors.TemplateError`, unless the flow sets the option
``lenient_format_specs`` (STAR writes ``{hotel_name:s}`` for numbers and
``{average_rating:d}`` for strings): then the value is formatted converted to a
number, or else shown plain.
"""

from __future__ import annotations

import re
import string
from collections.abc import Iterator, Mapping
from functools import lru_cache
from typing import Any

from .errors import TemplateError
from .session import SessionState

_FIELD = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)?$")

Part = tuple[str, str | None, str]  # (literal text, field name or None, format spec)


@lru_cache(maxsize=4096)
def parse_template(template: str) -> tuple[Part, ...]:
    """Split a template into ``(literal, field, spec)`` parts.

    Raises ``ValueError`` for unbalanced braces, conversions (``!r``) and
    placeholders that are not a name or ``name.field``.
    """
    parts: list[Part] = []
    for literal, field, spec, conversion in string.Formatter().parse(template):
        if field is None:
            parts.append((literal, None, ""))
            continue
        if conversion:
            raise ValueError(f"placeholder {{{field}!{conversion}}}: conversions are not allowed")
        if not _FIELD.match(field):
            raise ValueError(f"placeholder {{{field}}} must be a name or name.field")
        if spec and "{" in spec:
            raise ValueError(f"placeholder {{{field}:{spec}}}: nested placeholders are not allowed")
        parts.append((literal, field, spec or ""))
    return tuple(parts)


def template_fields(template: str) -> list[str]:
    """The placeholder names a template uses, in order."""
    return [field for _, field, _ in parse_template(template) if field is not None]


def _format_value(value: Any, spec: str, lenient: bool) -> str:
    if value is None:
        return ""
    if not spec:
        return value if isinstance(value, str) else str(value)
    try:
        return format(value, spec)
    except (ValueError, TypeError):
        if not lenient:
            raise
        # STAR writes {x:d} for values that arrive as strings, and {x:s} for numbers.
        for convert in (int, float):
            try:
                return format(convert(value), spec)
            except (ValueError, TypeError):
                continue
        return str(value)


MAX_MESSAGE_CHARS = 20_000
"""Longest message a template may render to. Templates and format widths are bounded at validation, but the
values put in are not (a tool's result can be any size): a longer message fails the turn, naming where."""


def _shown(text: Any, limit: int = 120) -> str:
    shown = repr(text)
    return shown if len(shown) <= limit else shown[: limit - 3] + "..."


def render(template: str, values: Mapping[str, Any], *, lenient: bool = False, where: str | None = None) -> str:
    """Fill ``template`` from ``values`` (a flat mapping of placeholder names).

    Raises :class:`TemplateError` (naming ``where``, e.g. ``node 'booked'``, when given) when a placeholder
    has no value, when (unless ``lenient``, the flow option ``lenient_format_specs``) its format spec does not
    fit the value, or when the message would be longer than :data:`MAX_MESSAGE_CHARS`.
    """
    at = f"{where}: template {_shown(template)}" if where else f"template {_shown(template)}"
    try:
        parts = parse_template(template)
    except ValueError as exc:
        raise TemplateError(f"{at}: {exc}") from None
    out: list[str] = []
    size = 0
    for literal, field, spec in parts:
        out.append(literal)
        size += len(literal)
        if field is None:
            continue
        try:
            value = values[field]
        except KeyError:
            raise TemplateError(f"{at}: no value for {{{field}}}") from None
        try:
            text = _format_value(value, spec, lenient)
        except (ValueError, TypeError):
            raise TemplateError(f"{at}: format spec {spec!r} does not fit the value {_shown(value)}") from None
        size += len(text)
        if size > MAX_MESSAGE_CHARS:
            raise TemplateError(
                f"{at}: the message would be longer than {MAX_MESSAGE_CHARS} characters "
                f"({{{field}}} is {len(text)} characters)"
            )
        out.append(text)
    return "".join(out)


class TemplateValues(Mapping[str, Any]):
    """A session's template values: slots by name, ``result.field`` (latest action) and ``node.field``.

    ``optional`` names the slots (``name``) and result fields (``node.field``) the flow declares optional:
    when absent they read as empty instead of failing the turn.
    """

    __slots__ = ("session", "optional")

    def __init__(self, session: SessionState, optional: frozenset[str] = frozenset()):
        self.session = session
        self.optional = optional

    def __getitem__(self, name: str) -> Any:
        session = self.session
        head, dot, field = name.partition(".")
        if not dot:
            if name not in session.slots and name in self.optional:
                return ""  # an optional slot the user never gave reads as nothing
            return session.slots[name]
        node = session.last_action if head == "result" else head
        if node is None or node not in session.results:
            raise KeyError(name)
        result = session.results[node]
        if field not in result and f"{node}.{field}" in self.optional:
            return ""  # a result field the action declares optional, absent this time
        return result[field]

    def __iter__(self) -> Iterator[str]:  # pragma: no cover - Mapping protocol
        return iter(self.session.slots)

    def __len__(self) -> int:  # pragma: no cover
        return len(self.session.slots)
