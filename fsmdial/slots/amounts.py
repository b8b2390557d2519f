"""Amount slot types: a number said with its unit, money ("£25") or a length of time ("4 nights"), found in a
message with the unit (or bare) and stored as a number in the slot's ``currency`` or ``unit``."""

from __future__ import annotations

import datetime as dt
import re
from typing import TYPE_CHECKING, Annotated, Any

from pydantic import StringConstraints

from ..language.amounts import NUMBER, currency_fits, find_durations, find_money, in_unit
from .numbers import Number
from .registry import Exact, InvalidValue, SlotType

if TYPE_CHECKING:
    from ..flow import Slot

__all__ = ["AmountKind", "Duration", "Money"]


class AmountKind(Number):
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
        refused: set[str] = set()
        for start, end, _, _ in self.found(slot, text):
            span = text[start:end]
            if span in found or span in refused:
                continue  # a reply of many numbers says each again: each said form is checked once
            try:
                found[span] = self.coerce(slot, span, now, None, False)
            except InvalidValue:
                refused.add(span)
        return found

    def refused(self, slot: Slot, text: str) -> str | None:
        found = self.found(slot, text)
        if len(found) != 1:
            return None
        span = text[found[0][0] : found[0][1]]
        if not self.says_itself(span) and (span.strip() != text.strip() or sum(c.isdigit() for c in span) > 4):
            # a bare number is refused only when said alone ("10" to "one to three hours?"), never inside other words
            # ("ten" of "quarter past ten") nor a run of digits (a phone number)
            return None
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


class Money(AmountKind):
    """An amount of money in the slot's ``currency`` ("£25", "25 quid", "twenty euros", "4.50"); stored as a number."""

    type_name = SlotType.money
    options = AmountKind.options | {"currency"}
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


class Duration(AmountKind):
    """A length of time ("4 nights", "an hour and a half", "90 minutes"), stored as a number of the slot's ``unit``
    (minutes by default); a bare number is in that unit."""

    type_name = SlotType.duration
    options = AmountKind.options | {"unit"}
    what = "a length of time"

    def found(self, slot: Slot, text: str) -> tuple[tuple[int, int, float, str | None], ...]:
        return find_durations(text)

    def converted(self, slot: Slot, value: Any, amount: float, unit: str | None) -> float:
        wanted = (slot.unit or "minutes").rstrip("s")
        return amount if unit is None else in_unit(amount, unit, wanted)

    def noun_of(self, slot: Slot) -> str:
        return f"length of time in {slot.unit or 'minutes'}"
