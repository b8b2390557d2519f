"""Response templates: ``{slot}``, ``{result.field}`` and ``{node.field}`` placeholders.

Templates are parsed once (when a flow is compiled) into literal and field
parts. Values are inserted as data: a slot value such as ``{ride_id}`` or
``{0.__class__}`` typed by a user is shown verbatim, never formatted again,
and placeholders can only name values (no indexing, no attribute access).

Format specs are kept as STAR writes them (``{hotel_name:s}``,
``{average_rating:d}``); a spec that does not fit the value's type falls back
to the plain value rather than failing the turn.
"""

from __future__ import annotations

import re
import string
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from .errors import TemplateError

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


def _format_value(value: Any, spec: str) -> str:
    if value is None:
        return ""
    if not spec:
        return value if isinstance(value, str) else str(value)
    try:
        return format(value, spec)
    except (ValueError, TypeError):
        # STAR writes {x:d} for values that arrive as strings, and {x:s} for numbers.
        for convert in (int, float):
            try:
                return format(convert(value), spec)
            except (ValueError, TypeError):
                continue
        return str(value)


def render(template: str, values: Mapping[str, Any]) -> str:
    """Fill ``template`` from ``values`` (a flat mapping of placeholder names).

    Raises :class:`TemplateError` when a placeholder has no value.
    """
    try:
        parts = parse_template(template)
    except ValueError as exc:
        raise TemplateError(f"template {template!r}: {exc}") from None
    out: list[str] = []
    for literal, field, spec in parts:
        out.append(literal)
        if field is None:
            continue
        try:
            value = values[field]
        except KeyError:
            raise TemplateError(f"template {template!r}: no value for {{{field}}}") from None
        out.append(_format_value(value, spec))
    return "".join(out)
