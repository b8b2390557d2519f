"""A bare number that two numeric slots could take ("5" with a party size and a number of nights both wanted): no
value is guessed; the number goes on to be asked about ("Is that 5 people or 5 nights?").

The rules pass it to the first of the two slots as :func:`fsmdial.slots.numbers.between` writes it, and that slot's
value check raises the question (:class:`fsmdial.slots.InvalidValue` with ``question``), as it does for a clock time
two readings fit; the reply ("nights", "the second") is completed with the number by
:meth:`fsmdial.slots.numbers.Number.answer_to` and read as "5 nights". A number with words naming its slot ("5
people"), or said to the slot just asked, never comes here.
"""

from __future__ import annotations

import datetime as dt
import re

from ...flow import Slot, SlotType
from ...slots import InvalidValue, kind_of
from ...slots.numbers import between, count_noun
from ..base import Parse, UnderstandingState

__all__ = ["ask_which_number"]

_ONLY_A_NUMBER = re.compile(
    r"\W*(?:(?:ok|okay|oh|so|um+|uh+|er+|no|yes|well|actually|sorry|wait|please|then|just|let's|lets|say|how|about|"
    r"make|change|it|that|to|can|we|do|instead|its|it's|is|for|i|meant|mean|the|number|should|be)\W+)*"
    r"(?P<number>\d+(?:\.\d+)?)"
    r"(?:\W+(?:please|thanks|then|instead|actually|ok|okay))*\W*",
    re.I,
)
"""A reply that is one number and filler or a change cue ("5", "make it 5", "actually 5 please"): no word says what
it counts."""


def ask_which_number(
    state: UnderstandingState, target: Slot | None, rest: str, numbers: list[int | float], parse: Parse
) -> None:
    """Put the number of a reply that is only a number, and that two numeric slots could take, to be asked about:
    two slots the node still needs (neither just asked), or two at a confirmation of more than one value. Nothing
    when the rules found the number's slot (``target``: the slot asked, named or corrected)."""
    if target is not None or len(numbers) != 1 or _ONLY_A_NUMBER.fullmatch(rest.strip()) is None:
        return
    number = numbers[0]
    numeric = [slot for slot in state.slots if slot.type in (SlotType.integer, SlotType.number)]
    if state.confirm is not None and state.confirm_slot is None:
        wanted = numeric
    else:
        wanted = [slot for slot in numeric if slot.name in state.expected]
    fitting = [slot for slot in wanted if slot.name not in parse.slots and _takes(slot, number)]
    if len(fitting) >= 2:
        first, second = fitting[:2]
        parse.slots[first.name] = between(number, count_noun(first, number), count_noun(second, number))


_ANY_MOMENT = dt.datetime(2000, 1, 1)
"""A number's check reads no clock."""


def _takes(slot: Slot, number: int | float) -> bool:
    try:
        kind_of(slot).coerce(slot, number, _ANY_MOMENT, None, True)
    except InvalidValue:
        return False
    return True
