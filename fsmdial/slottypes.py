"""The built-in slot types, one table keyed by type: what each type reads, stores and offers a model.

Each :class:`Kind` owns, for its type:

* ``coerce``: a value (what the user said, or a stored value) to the normal form the session stores, checked by
  the slot's validators; or :class:`InvalidValue`. A value is never changed silently: it is normalised (the
  spaces of a phone number dropped, an email's domain in lower case) or refused.
* ``find``: the values a message says, as ``{span: value}`` (the span is the exact text that says it). The rules
  understander reads values with it, and a model asked for the slot may copy only one of these spans
  (:mod:`fsmdial.understand.grounding`). Kinds whose values grow and shrink with their words (dates, times,
  numbers) have a ``read`` of one span instead: grounding offers the *minimal* spans it reads a value from.
* ``model_type``: the Python type (pydantic) of a value the model writes: its JSON schema and grammar.
* ``prompt``: the words that describe a value in the model's prompt.

What a flow may *declare* per type (options, the JSON form of a stored value) is the flow format's:
:data:`fsmdial.flow.nodes.SLOT_OPTIONS`, below this module.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable
from typing import Annotated, Any, Literal

import orjson
from pydantic import Field, StringConstraints

from .bounds import date_bound, has_hours, hours_words, in_hours, passed, which_reading
from .flow import Slot, SlotType, value_key
from .language import (
    clock_readings,
    date_readings,
    find_numbers,
    impossible_date,
    parse_yes_no,
    read_clock,
    read_date,
    said_as_written,
)
from .language.amounts import NUMBER, currency_fits, find_durations, find_money, in_unit
from .language.contacts import (
    email_value,
    find_emails,
    find_phones,
    find_references,
    phone_value,
    reference_value,
)

__all__ = [
    "contact_spans",
    "CANONICAL_DATE",
    "KINDS",
    "DATE_PATTERN",
    "inside_dates",
    "TIME_PATTERN",
    "InvalidValue",
    "Kind",
    "LARGEST",
    "describe_pattern",
    "kind_of",
]

DATE_PATTERN = r"^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])$"
"""The stored form of a date (what a model writes for a date slot)."""
TIME_PATTERN = r"^([01][0-9]|2[0-3]):[0-5][0-9]$"
"""The stored form of a time of day."""
LARGEST = 2**63 - 1
"""Numbers beyond this (and inf/nan) are refused, and a ``count`` edge stops here: a session snapshot must
store them exactly."""

Exact = Callable[[str, int], bool]
"""Can the model's grammar enforce this regular expression on values of at most this many characters?"""


class InvalidValue(ValueError):
    """A value the slot's type or validators reject; ``message`` is fit to show the user.

    ``question``: not refused but ambiguous (two readings of a clock time fit): ``message`` asks which.
    """

    def __init__(self, slot: str, value: Any, message: str, question: bool = False):
        self.slot = slot
        self.value = value
        self.message = message
        self.question = question
        super().__init__(f"{slot}: {message}")


class Kind:
    """One slot type: see the module docstring. The base is free text (``text`` and its alias ``string``)."""

    read: Callable[[str, dt.datetime], Any] | None = None
    """A reader of one span (dates, times, numbers): grounding offers the minimal spans it reads a value from."""
    outside_dates = False
    """A value of this kind is never read out of a date or a time ("1990" of "12/05/1990", "7" of "7:30")."""
    whole_text = True
    """An asked slot of this kind may take the reply's own words as its value (free text)."""
    finds = False
    """:meth:`find` reads this kind's values out of a message (the rules take them from there)."""
    distinctive = False
    """A value found in a message is this kind's even when its slot was not asked (a phone number, an email):
    it goes to the flow's only slot of the type, if the span :meth:`says_itself`."""

    def says_itself(self, span: str) -> bool:
        """Does ``span`` say what kind of value it is ("£25", "4 nights"; not a bare "25")?"""
        return True

    def coerce(self, slot: Slot, value: Any, now: dt.datetime, day: dt.date | None, bounds: bool) -> Any:
        return _text(slot, value)

    def find(self, slot: Slot, text: str, now: dt.datetime) -> dict[str, Any] | None:
        """The values ``text`` says for ``slot``, ``{span: value}``; None: this kind takes any span (free text)."""
        return None

    def refused(self, slot: Slot, text: str) -> str | None:
        """The one value of this kind ``text`` says that the slot refuses ("20 dollars" for pounds), for the rules
        to pass on to be refused and asked again, rather than pass over; None: there is none."""
        return None

    def fits(self, slot: Slot, word: str) -> bool:
        """Is ``word`` (one word of a message, digit groups joined) of this slot's form (its ``pattern``)?"""
        return slot.pattern is not None and re.fullmatch(slot.pattern, word) is not None

    def typed(self, slot: Slot) -> bool:
        """Does a model take this slot's value from an enum of grounded spans (rather than any span)?"""
        return self.read is not None or slot.pattern is not None

    def model_type(self, slot: Slot, exact: Exact) -> Any:
        limit = slot.string_limit
        if slot.pattern is not None and exact(slot.pattern, limit):
            return Annotated[str, StringConstraints(pattern=slot.pattern, max_length=limit)]
        return Annotated[str, StringConstraints(min_length=1, max_length=limit)]

    def prompt(self, slot: Slot) -> str:
        if slot.pattern is not None:
            return f"text {describe_pattern(slot.pattern)}"
        return "text, the user's own words"


def _text(slot: Slot, value: Any, normal: str | None = None) -> str:
    """A text value (``normal``: its normal form, when the kind has one) checked by the slot's length and pattern."""
    text = str(value).strip() if normal is None else normal
    if len(text) > slot.string_limit:
        raise InvalidValue(slot.name, value, f"is longer than {slot.string_limit} characters")
    if slot.pattern is not None and not re.fullmatch(slot.pattern, text):
        raise InvalidValue(slot.name, value, f"{text!r} does not have the expected form")
    return text


class PersonName(Kind):
    """A person's name ("Dana Lee", "O'Brien", "Dr. Alexis"), its spaces collapsed.

    What can be a name is the recognizers' job: the rules read only words of a name's shape after cue words, and
    a model may copy only such spans (:func:`fsmdial.language.names.is_name`), so "he's bleeding badly" or
    "hi there" never reaches a name slot. A value given otherwise (an application, a snapshot) is kept as given,
    as data: coercion refuses only what has no letter at all.
    """

    def coerce(self, slot: Slot, value: Any, now: dt.datetime, day: dt.date | None, bounds: bool) -> Any:
        name = " ".join(str(value).split())
        if not any(char.isalpha() for char in name):
            raise InvalidValue(slot.name, value, f"{name!r} is not a name")
        return _text(slot, value, name)

    def prompt(self, slot: Slot) -> str:
        return "a person's name, as the user writes it"


class _Found(Kind):
    """A kind whose values a finder reads out of a message (phone numbers, emails, references)."""

    whole_text = False
    outside_dates = True
    finds = True
    distinctive = True

    def normal(self, slot: Slot, text: str) -> str | None:  # pragma: no cover - every subclass has one
        raise NotImplementedError

    def found(self, slot: Slot, text: str) -> tuple[tuple[str, str], ...]:  # pragma: no cover
        raise NotImplementedError

    what = ""
    """The value in words, for a refusal ("a phone number")."""

    def coerce(self, slot: Slot, value: Any, now: dt.datetime, day: dt.date | None, bounds: bool) -> Any:
        written = str(value).strip()
        normal = self.normal(slot, written) if len(written) <= 4 * slot.string_limit else None
        if normal is None:
            raise InvalidValue(slot.name, value, f"{written!r} is not {self.what}")
        return _text(slot, value, normal)

    def find(self, slot: Slot, text: str, now: dt.datetime) -> dict[str, Any]:
        found: dict[str, Any] = {}
        for span, value in self.found(slot, text):
            try:
                found.setdefault(span, self.coerce(slot, value, now, None, False))
            except InvalidValue:
                continue  # not of the slot's form (a pattern, a length): not offered
        return found

    def typed(self, slot: Slot) -> bool:
        return True

    def fits(self, slot: Slot, word: str) -> bool:
        try:
            self.coerce(slot, word, dt.datetime.min, None, False)
        except InvalidValue:
            return False
        return True

    def model_type(self, slot: Slot, exact: Exact) -> Any:
        return Annotated[str, StringConstraints(min_length=1, max_length=4 * slot.string_limit)]


class Phone(_Found):
    what = "a phone number"

    def normal(self, slot: Slot, text: str) -> str | None:
        return phone_value(text, slot.region)

    def found(self, slot: Slot, text: str) -> tuple[tuple[str, str], ...]:
        return find_phones(text, slot.region)

    def says_itself(self, span: str) -> bool:
        # "+44 ...", "07700 ...", "(555) ...", or ten digits and more; "12345678" may be an account number.
        return span.lstrip()[:1] in ("+", "0", "(") or sum(ch.isdigit() for ch in span) >= 10

    def prompt(self, slot: Slot) -> str:
        return "a phone number, the words that say it"


class Email(_Found):
    what = "an email address"
    outside_dates = False

    def normal(self, slot: Slot, text: str) -> str | None:
        return email_value(text)

    def found(self, slot: Slot, text: str) -> tuple[tuple[str, str], ...]:
        return find_emails(text)

    def prompt(self, slot: Slot) -> str:
        return "an email address, the words that say it"


class Reference(_Found):
    what = "a reference of letters and digits"
    distinctive = False

    def normal(self, slot: Slot, text: str) -> str | None:
        return reference_value(text)

    def found(self, slot: Slot, text: str) -> tuple[tuple[str, str], ...]:
        return find_references(text)

    def prompt(self, slot: Slot) -> str:
        what = f"a reference {describe_pattern(slot.pattern)}" if slot.pattern else "a reference (letters and digits)"
        return what + ", the words that say it"


class Categorical(Kind):
    whole_text = False

    def coerce(self, slot: Slot, value: Any, now: dt.datetime, day: dt.date | None, bounds: bool) -> Any:
        # Compared by value_key, as flow validation is: no two values of a slot share a key, so
        # at most one matches ("O-" is never taken for "O+", "-" never for anything else).
        key = value_key(str(value))
        for allowed in slot.values or ():
            if value_key(allowed) == key:
                return allowed
        options = ", ".join(slot.values or ())
        raise InvalidValue(slot.name, value, f"{value!r} is not one of: {options}")

    def typed(self, slot: Slot) -> bool:
        return False

    def model_type(self, slot: Slot, exact: Exact) -> Any:
        return Literal[tuple(slot.values or ())]

    def prompt(self, slot: Slot) -> str:
        return "one of " + ", ".join(_quote(v) for v in slot.values or ())


class Boolean(Kind):
    whole_text = False

    def coerce(self, slot: Slot, value: Any, now: dt.datetime, day: dt.date | None, bounds: bool) -> Any:
        if isinstance(value, bool):
            return value
        answer = parse_yes_no(str(value)) or {"true": "yes", "false": "no"}.get(str(value).strip().lower())
        if answer is None:
            raise InvalidValue(slot.name, value, f"{value!r} is not yes or no")
        return answer == "yes"

    def typed(self, slot: Slot) -> bool:
        return False

    def model_type(self, slot: Slot, exact: Exact) -> Any:
        return bool

    def prompt(self, slot: Slot) -> str:
        return "true or false"


def _read_number(span: str, now: dt.datetime) -> Any:
    numbers = find_numbers(span)
    return numbers[0] if len(numbers) == 1 else None


def _read_whole_number(span: str, now: dt.datetime) -> Any:
    number = _read_number(span, now)
    return number if number is not None and float(number).is_integer() else None


class Number(Kind):
    whole_text = False
    outside_dates = True
    read: Callable[[str, dt.datetime], Any] | None = staticmethod(_read_number)
    noun = "number"

    def coerce(self, slot: Slot, value: Any, now: dt.datetime, day: dt.date | None, bounds: bool) -> Any:
        number = self.checked(slot, value, _to_number(slot, value))
        if slot.minimum is not None and number < slot.minimum:
            raise InvalidValue(slot.name, value, f"{number} is below the minimum of {_fmt(slot.minimum)}")
        if slot.maximum is not None and number > slot.maximum:
            raise InvalidValue(slot.name, value, f"{number} is above the maximum of {_fmt(slot.maximum)}")
        return number

    def checked(self, slot: Slot, value: Any, number: int | float) -> int | float:
        return number

    def model_type(self, slot: Slot, exact: Exact) -> Any:
        return Annotated[float, Field(ge=_clamped(slot.minimum), le=_clamped(slot.maximum))]

    def noun_of(self, slot: Slot) -> str:
        return self.noun

    def prompt(self, slot: Slot) -> str:
        low, high, noun = slot.minimum, slot.maximum, self.noun_of(slot)
        if low is not None and high is not None:
            what = f"{noun} from {_fmt(low)} to {_fmt(high)}"
        elif low is not None:
            what = f"{noun}, at least {_fmt(low)}"
        elif high is not None:
            what = f"{noun}, at most {_fmt(high)}"
        else:
            what = noun
        return what + ", the words that say it"


class Integer(Number):
    read = staticmethod(_read_whole_number)
    noun = "whole number"

    def checked(self, slot: Slot, value: Any, number: int | float) -> int | float:
        if isinstance(number, float) and not number.is_integer():
            raise InvalidValue(slot.name, value, f"{value!r} is not a whole number")
        return int(number)

    def model_type(self, slot: Slot, exact: Exact) -> Any:
        # Bounds are the flow's own; beyond 64 bits they are clamped (the engine stores no larger value).
        return Annotated[int, Field(ge=_int(slot.minimum), le=_int(slot.maximum))]


class _Amount(Number):
    """A number said with its unit (money, a length of time): found in a message with the unit, or bare."""

    read = None
    finds = True
    distinctive = True
    what = ""

    def says_itself(self, span: str) -> bool:
        return re.fullmatch(NUMBER, span.strip(), re.I) is None

    def found(self, slot: Slot, text: str) -> tuple[tuple[int, int, float, str | None], ...]:  # pragma: no cover
        raise NotImplementedError

    def converted(self, slot: Slot, value: Any, amount: float, unit: str | None) -> float:  # pragma: no cover
        raise NotImplementedError

    def coerce(self, slot: Slot, value: Any, now: dt.datetime, day: dt.date | None, bounds: bool) -> Any:
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return super().coerce(slot, value, now, day, bounds)
        written = str(value).strip()
        found = self.found(slot, written) if len(written) <= 200 else ()
        if len(found) != 1 or found[0][:2] != (0, len(written)):
            raise InvalidValue(slot.name, value, f"{written!r} is not {self.what}")
        _, _, amount, unit = found[0]
        return super().coerce(slot, _whole(self.converted(slot, value, amount, unit)), now, day, bounds)

    def find(self, slot: Slot, text: str, now: dt.datetime) -> dict[str, Any]:
        found: dict[str, Any] = {}
        for start, end, _, _ in self.found(slot, text):
            try:
                found.setdefault(text[start:end], self.coerce(slot, text[start:end], now, None, False))
            except InvalidValue:
                continue
        return found

    def refused(self, slot: Slot, text: str) -> str | None:
        found = self.found(slot, text)
        if len(found) != 1:
            return None
        span = text[found[0][0] : found[0][1]]
        try:
            self.coerce(slot, span, dt.datetime.min, None, False)
        except InvalidValue:
            return span
        return None

    def typed(self, slot: Slot) -> bool:
        return True

    def model_type(self, slot: Slot, exact: Exact) -> Any:
        return Annotated[str, StringConstraints(min_length=1, max_length=200)]


def _whole(number: float) -> int | float:
    return int(number) if float(number).is_integer() else number


class Money(_Amount):
    """An amount of money in the slot's ``currency`` ("£25", "25 quid", "twenty euros", "4.50"); stored as a number."""

    what = "an amount of money"
    noun = "amount of money"

    def found(self, slot: Slot, text: str) -> tuple[tuple[int, int, float, str | None], ...]:
        return find_money(text)

    def converted(self, slot: Slot, value: Any, amount: float, unit: str | None) -> float:
        if not currency_fits(unit, slot.currency):  # "20 dollars", "50 cents" for pounds
            raise InvalidValue(slot.name, value, f"{value!r} is not in {slot.currency}")
        if round(amount, 2) != amount:
            raise InvalidValue(slot.name, value, f"{value!r} has more than two decimals")
        return amount

    def noun_of(self, slot: Slot) -> str:
        return f"amount in {slot.currency}" if slot.currency else self.noun


class Duration(_Amount):
    """A length of time ("4 nights", "an hour and a half", "90 minutes"), stored as a number of the slot's ``unit``
    (minutes by default); a bare number is in that unit."""

    what = "a length of time"

    def found(self, slot: Slot, text: str) -> tuple[tuple[int, int, float, str | None], ...]:
        return find_durations(text)

    def converted(self, slot: Slot, value: Any, amount: float, unit: str | None) -> float:
        wanted = (slot.unit or "minutes").rstrip("s")
        return amount if unit is None else in_unit(amount, unit, wanted)

    def noun_of(self, slot: Slot) -> str:
        return f"length of time in {slot.unit or 'minutes'}"


class Date(Kind):
    whole_text = False
    read = staticmethod(read_date)  # "Friday", "the 21st" as written: the slot's bounds resolve them, never the model

    def coerce(self, slot: Slot, value: Any, now: dt.datetime, day: dt.date | None, bounds: bool) -> Any:
        if isinstance(value, dt.datetime):
            value = value.date()
        if isinstance(value, dt.date):
            return _within_bounds(slot, value, now, bounds)
        if type(value) is str and CANONICAL_DATE.fullmatch(value) and _valid_date(value):
            return _within_bounds(slot, dt.date.fromisoformat(value), now, bounds)  # the stored form
        dates = date_readings(str(value), now)  # "Friday", "the 21st": the next one inside the bounds
        if not dates:
            written = impossible_date(str(value))
            if written is not None:  # "February 29" in 2025, "April 31", "13/45": a date that does not exist
                raise InvalidValue(slot.name, value, f"{written!r} is not a real date")
            raise InvalidValue(slot.name, value, f"{value!r} is not a date I understand")
        days = [dt.date.fromisoformat(reading) for reading in dates]
        fitting = [day for day in days if inside_dates(slot, day, now)] if bounds else days
        return _within_bounds(slot, (fitting or days)[0], now, bounds)

    def model_type(self, slot: Slot, exact: Exact) -> Any:
        return Annotated[str, StringConstraints(pattern=DATE_PATTERN)]

    def prompt(self, slot: Slot) -> str:
        return "a day, the words that say it"


def _read_time(span: str, now: dt.datetime) -> Any:
    return read_clock(span)  # a bare "7:45" as written: the slot's hours resolve it, never the model


class Time(Kind):
    whole_text = False
    read = staticmethod(_read_time)

    def coerce(self, slot: Slot, value: Any, now: dt.datetime, day: dt.date | None, bounds: bool) -> Any:
        if isinstance(value, dt.time):
            readings: tuple[str, ...] = (value.strftime("%H:%M"),)
        elif type(value) is str and _CANONICAL_TIME.fullmatch(value):
            readings = (value,)  # already the stored form
        else:
            readings = clock_readings(str(value))
            if not readings:
                raise InvalidValue(slot.name, value, f"{value!r} is not a time I understand")
        return _resolve_time(slot, value, readings, now, day) if bounds else readings[0]

    def model_type(self, slot: Slot, exact: Exact) -> Any:
        return Annotated[str, StringConstraints(pattern=TIME_PATTERN)]

    def prompt(self, slot: Slot) -> str:
        return "a time of day, the words that say it"


def contact_spans(text: str) -> tuple[str, ...]:
    """The spans of ``text`` that are a phone number that says it is one, or an email address, whatever the flow's
    slots: no number is read out of them ("07700900151" is no number of boxes)."""
    phone = KINDS[SlotType.phone]
    return tuple(span for span, _ in find_phones(text, None) if phone.says_itself(span)) + tuple(
        span for span, _ in find_emails(text)
    )


KINDS: dict[SlotType, Kind] = {
    SlotType.string: Kind(),
    SlotType.text: Kind(),
    SlotType.person_name: PersonName(),
    SlotType.phone: Phone(),
    SlotType.email: Email(),
    SlotType.reference: Reference(),
    SlotType.integer: Integer(),
    SlotType.number: Number(),
    SlotType.money: Money(),
    SlotType.duration: Duration(),
    SlotType.boolean: Boolean(),
    SlotType.categorical: Categorical(),
    SlotType.date: Date(),
    SlotType.time: Time(),
}
"""Every built-in slot type and what it does (a test checks that no type is missing)."""


def kind_of(slot: Slot) -> Kind:
    return KINDS[slot.type]


# ------------------------------------------------------------------ helpers of the kinds


def _resolve_time(slot: Slot, value: Any, readings: tuple[str, ...], now: dt.datetime, day: dt.date | None) -> str:
    """The one reading of a clock time inside the slot's hours and not past on ``day``.

    A slot without hours or a day takes the reading as written (a bare "7:45" is 07:45). Two fitting
    readings are asked about (:class:`InvalidValue` with ``question``), none is refused.
    """
    if not has_hours(slot) and day is None:
        return readings[0]
    fitting = [reading for reading in readings if in_hours(slot, reading)]
    if not fitting:
        raise InvalidValue(slot.name, value, f"{readings[0]} is outside the hours, {hours_words(slot)}")
    if day is not None:
        ahead = [reading for reading in fitting if not passed(day, reading, now, slot.lead_minutes)]
        if not ahead:
            soon = f" or less than {slot.lead_minutes} minutes from now" if slot.lead_minutes else ""
            raise InvalidValue(slot.name, value, f"{day.isoformat()} at {fitting[-1]} is in the past{soon}")
        fitting = ahead
    if len(fitting) > 1 and said_as_written(str(value)):
        return fitting[0]  # "10:00": a 24-hour time, never asked "in the morning or in the evening?"
    if len(fitting) > 1:
        raise InvalidValue(slot.name, value, which_reading(str(value), tuple(fitting)), question=True)
    return fitting[0]


def inside_dates(slot: Slot, date: dt.date, now: dt.datetime) -> bool:
    """Is ``date`` inside a date slot's ``earliest``/``latest`` on the dialogue's clock?"""
    return (slot.earliest is None or date >= date_bound(slot.earliest, now)) and (
        slot.latest is None or date <= date_bound(slot.latest, now)
    )


def _within_bounds(slot: Slot, date: dt.date, now: dt.datetime, bounds: bool = True) -> str:
    """``date`` in ISO form, checked against the slot's bounds on the dialogue's clock (if ``bounds``)."""
    if not bounds:
        return date.isoformat()
    if slot.earliest is not None and date < (first := date_bound(slot.earliest, now)):
        raise InvalidValue(
            slot.name, date.isoformat(), f"{date.isoformat()} is before the earliest allowed date, {first}"
        )
    if slot.latest is not None and date > (last := date_bound(slot.latest, now)):
        raise InvalidValue(slot.name, date.isoformat(), f"{date.isoformat()} is after the latest allowed date, {last}")
    return date.isoformat()


CANONICAL_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
"""A date in its stored form (checked for being a real date apart)."""
_CANONICAL_TIME = re.compile(r"(?:[01][0-9]|2[0-3]):[0-5][0-9]")


def _valid_date(text: str) -> bool:
    try:
        dt.date.fromisoformat(text)
    except ValueError:
        return False
    return True


def _to_number(slot: Slot, value: Any) -> int | float:
    if isinstance(value, bool):
        raise InvalidValue(slot.name, value, f"{value!r} is not a number")
    if isinstance(value, (int, float)):
        number = value
    else:
        numbers = find_numbers(str(value))
        if len(numbers) != 1:
            raise InvalidValue(slot.name, value, f"{value!r} is not a number")
        number = numbers[0]
    if not -LARGEST <= number <= LARGEST:  # also false for nan
        raise InvalidValue(slot.name, value, "is too large a number" if number == number else "is not a number")
    return number


def _fmt(number: float) -> str:
    return str(int(number)) if float(number).is_integer() else str(number)


def _clamped(bound: float | None) -> float | None:
    return None if bound is None else max(-float(LARGEST), min(float(LARGEST), bound))


def _int(bound: float | None) -> int | None:
    return None if bound is None else max(-LARGEST, min(LARGEST, int(bound)))


def _quote(value: str) -> str:
    return orjson.dumps(value).decode()


_DIGITS = re.compile(r"^\^?(?:\[0-9\]|\\d)(?:\{(\d+)(?:,(\d+))?\}|(\+))\$?$")


def describe_pattern(pattern: str) -> str:
    """A slot's ``pattern`` in words where it is a plain run of digits, else the pattern itself."""
    found = _DIGITS.match(pattern)
    if found:
        low, high, plus = found.groups()
        if plus:
            return "of digits only"
        if high is None or high == low:
            return f"of exactly {low} digits"
        return f"of {low} to {high} digits"
    return f"matching the regular expression {pattern}"
