"""The boolean slot type: a yes or a no, stored as ``true``/``false``."""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING, Any

from ..language import parse_yes_no
from .registry import Exact, InvalidValue, SlotKind, SlotType

if TYPE_CHECKING:
    from ..flow import Slot

__all__ = ["Boolean"]


class Boolean(SlotKind):
    """A yes or a no ("yeah", "no thanks", ``true``); the rules read it from the reply to the slot's question."""

    type_name = SlotType.boolean
    json_kind = "boolean"
    value_words = "true or false"

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
