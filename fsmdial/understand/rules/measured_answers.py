"""A yes/no question that sets a bound on a measure, answered with the measure ("Can the tanker get within about 30
metres of the tank?" "the tank's about 10 metres from the drive": yes; "it's 40 metres down the garden": no).

The question (its ask, label or description) says the bound, the reply one amount in its unit, in digits or words
(:mod:`fsmdial.language.measures`, the units and bounds a categorical value's listed range is read with too); the
answer is whether that amount is inside the bound. A reply with two amounts of the unit, or none, answers nothing
here.
"""

from __future__ import annotations

from ...flow import Slot
from ...language.measures import amounts_said, bound_said

__all__ = ["measured_answer"]


def measured_answer(slot: Slot, text: str) -> bool | None:
    """Whether the one amount ``text`` says, in the unit of the bound the boolean ``slot``'s question sets, is inside
    that bound; None when the question sets no bound, or the reply says no amount of its unit, or several."""
    bound = bound_said(f"{slot.ask or ''} {slot.label or ''} {slot.description or ''}")
    if bound is None:
        return None
    said = [amount for amount, unit in amounts_said(text) if unit == bound.unit]
    return bound.holds(said[0], bound.unit) if len(said) == 1 else None
