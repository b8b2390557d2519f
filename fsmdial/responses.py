"""Response templates: ``{slot}``, ``{result.field}`` and ``{node.field}`` placeholders.

Templates are parsed once (when a flow is compiled) into literal and field
parts. Values are inserted as data: a slot value such as ``{ride_id}`` or
``{0.__class__}`` typed by a user is shown verbatim, never formatted again,
and placeholders can only name values (no indexing, no attribute access).

Values read as people write them (:class:`MessageStyle`, from the flow's
``locale`` and ``clock``): a boolean as yes or no, a date slot's value as
"Saturday 28 November" (the year added when it is not the session's current
year), a time slot's as "5:30 pm" or "17:30". A date or time takes a pattern as
its format spec (``{day:%A %-d %B}``, ``{time:%H:%M}``), with the locale's names
(:mod:`fsmdial.language.locales`). The session keeps the normal forms
(``2026-11-28``, ``17:30``, ``true``): tools and conditions read those.

Other format specs apply as Python's ``format`` does; a spec that does not fit the
value's type (``{n:d}`` for the text ``"3"``) fails the turn with a
:class:`~fsmdial.errors.TemplateError`, unless the flow sets the option
``lenient_format_specs`` (STAR writes ``{hotel_name:s}`` for numbers and
``{average_rating:d}`` for strings): then the value is formatted converted to a
number, or else shown plain.
"""

from __future__ import annotations

import datetime as dt
import re
import string
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from .errors import TemplateError
from .language.locales import Clock, Locale, locale, pattern_problem
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


@dataclass(frozen=True, slots=True)
class MessageStyle:
    """How values read in a flow's messages: its locale's words and the clock its times are on."""

    words: Locale
    clock: Clock


def message_style(locale_code: str = "en", clock: Clock | None = None) -> MessageStyle:
    """The style of a flow's ``locale`` and ``clock`` (None: the locale's usual clock; English: 12-hour)."""
    words = locale(locale_code)
    return MessageStyle(words, clock or words.clock)


DEFAULT_STYLE = message_style()


def spec_problem(spec: str, kind: str) -> str | None:
    """Why the format spec ``spec`` cannot apply to a slot value of type ``kind``: a date or time takes a
    pattern (:func:`~fsmdial.language.locales.pattern_problem`); None for other kinds (checked elsewhere)."""
    if kind in ("date", "time"):
        return pattern_problem(spec, "date" if kind == "date" else "time")
    return None


class Shown:
    """A value as a message shows it: ``str()`` gives its words, ``format(shown, spec)`` applies a spec."""

    __slots__ = ("value", "style", "today")

    def __init__(self, value: Any, style: MessageStyle, today: dt.date):
        self.value = value
        self.style = style
        self.today = today

    def __str__(self) -> str:  # pragma: no cover - each kind has its own
        return str(self.value)


class ShownBool(Shown):
    """A boolean: the locale's yes or no; a numeric spec (``{flag:d}``) formats the number."""

    __slots__ = ()

    def __str__(self) -> str:
        return self.style.words.yes_no(self.value)

    def __format__(self, spec: str) -> str:
        try:
            return format(str(self), spec)
        except ValueError:
            return format(self.value, spec)


class ShownDate(Shown):
    """A date slot's ``YYYY-MM-DD``: "Saturday 28 November" (and the year, when not this one), or a pattern."""

    __slots__ = ()

    def __str__(self) -> str:
        return self.style.words.date_words(self.value, self.today)

    def __format__(self, spec: str) -> str:
        return self.style.words.strftime(self.value, spec) if spec else str(self)


class ShownTime(Shown):
    """A time slot's ``HH:MM`` on the flow's clock ("5:30 pm", "17:30"), or a pattern."""

    __slots__ = ()

    def __str__(self) -> str:
        return self.style.words.time_words(self.value, self.style.clock)

    def __format__(self, spec: str) -> str:
        return self.style.words.strftime(self.value, spec) if spec else str(self)


def _parsed(value: str, kind: str) -> dt.date | dt.time | None:
    try:
        return dt.date.fromisoformat(value) if kind == "date" else dt.time.fromisoformat(value)
    except ValueError:
        return None


class TemplateValues(Mapping[str, Any]):
    """A session's template values: slots by name, ``result.field`` (latest action) and ``node.field``,
    each as a message shows it (see the module docstring): booleans, and the values of the slots ``kinds``
    types as ``date`` or ``time``, in ``style``; ``today`` (the turn's date) says which year is this one.

    ``optional`` names the slots (``name``) and result fields (``node.field``) the flow declares optional:
    when absent they read as empty instead of failing the turn.
    """

    __slots__ = ("session", "optional", "kinds", "style", "today")

    def __init__(
        self,
        session: SessionState,
        optional: frozenset[str] = frozenset(),
        kinds: Mapping[str, str] | None = None,
        style: MessageStyle = DEFAULT_STYLE,
    ):
        self.session = session
        self.optional = optional
        self.kinds = {name: kind for name, kind in (kinds or {}).items() if kind in ("date", "time")}
        self.style = style
        self.today: dt.date | None = None
        """The turn's date (the dialogue's clock); None: the machine's."""

    def __getitem__(self, name: str) -> Any:
        session = self.session
        head, dot, field = name.partition(".")
        if not dot:
            if name not in session.slots and name in self.optional:
                return ""  # an optional slot the user never gave reads as nothing
            return self.shown(name, session.slots[name])
        node = session.last_action if head == "result" else head
        if node is None or node not in session.results:
            raise KeyError(name)
        result = session.results[node]
        if field not in result and f"{node}.{field}" in self.optional:
            return ""  # a result field the action declares optional, absent this time
        return self.shown(None, result[field])

    def shown(self, slot: str | None, value: Any) -> Any:
        """``value`` (of ``slot``, when it is one) as a message shows it: a :class:`Shown` for a boolean, a date
        or a time, else the value itself. ``str()`` of the answer is its words."""
        if isinstance(value, bool):
            return ShownBool(value, self.style, self.today or dt.date.today())
        kind = self.kinds.get(slot) if slot is not None else None
        if kind is not None and isinstance(value, str):
            parsed = _parsed(value, kind)
            if parsed is not None:
                return (ShownDate if kind == "date" else ShownTime)(parsed, self.style, self.today or dt.date.today())
        return value

    def __iter__(self) -> Iterator[str]:  # pragma: no cover - Mapping protocol
        return iter(self.session.slots)

    def __len__(self) -> int:  # pragma: no cover
        return len(self.session.slots)
