"""The engine's own English sentences, used where a flow gives no text of its own.

A flow overrides each of them: a slot's ``ask`` replaces :func:`ask`, a field's
``confirm`` text replaces :func:`confirm_value`, a slot's ``invalid`` text replaces
:func:`invalid_value`, the fallbacks ``committed`` and ``ended`` replace
:func:`cannot_change` and :func:`conversation_ended`.

Sentences that name a slot take its short noun (``Slot.noun``: its label, else its
name in words), never its description, which is often not a noun phrase.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any


def ask(readable: str) -> str:
    """The question for a slot that has no ``ask`` text."""
    return f"Could you tell me the {readable}?"


def confirm_value(readable: str, value: Any) -> str:
    """The yes/no question for a slot value that must be confirmed."""
    return f"Just to confirm: the {readable} is {value}, right?"


def invalid_value(noun: str, reason: str) -> str:
    """A value the slot rejects (``noun``: the slot's short noun)."""
    return f"Sorry, that is not a valid {noun}: {reason}."


def _the(noun: str) -> str:
    """``noun`` with "the", unless a label already says whose or which ("your name", "the pickup address")."""
    return noun if _DETERMINED.match(noun) else f"the {noun}"


_DETERMINED = re.compile(r"(?:the|a|an|your|my|our|his|her|their|its)\s", re.I)


def _listed(items: Sequence[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def changed(corrections: Sequence[tuple[str, Any]]) -> str:
    """A correction acknowledged: ``(slot noun, new value)`` for each slot changed."""
    return f"OK, I changed {_listed([f'{_the(noun)} to {value}' for noun, value in corrections])}."


def noted(values: Sequence[tuple[str, Any]]) -> str:
    """Values taken from a message that did not answer the question asked: ``(slot noun, value)`` for each, said
    before the question is asked again (else the customer hears the same question and cannot tell what was kept)."""
    return f"Thanks, I have {_listed([f'{_the(noun)}: {value}' for noun, value in values])}."


def taken_as(noun: str, value: Any) -> str:
    """A value chosen for what the message meant, not for its words ("the key's stuck in the door": lock repair),
    said back at once so that a wrong choice is corrected before the summary (read back by :func:`taken_from`)."""
    return f"I take it the {noun} is {value}."  # read back by taken_from: always "the"


_TAKEN_AS = re.compile(r"I take it the (?P<noun>.+?) is (?P<value>.+?)\.(?=\s|$)")


def taken_from(said: str) -> tuple[str, str] | None:
    """The (slot noun, value) a bot message said back with :func:`taken_as`, or None."""
    found = _TAKEN_AS.search(said) if "I take it" in said else None
    return (found.group("noun"), found.group("value")) if found is not None else None


def cannot_change(nouns: Sequence[str]) -> str:
    """A correction refused: what it would change was already used by an action that cannot be undone."""
    names = _listed([_the(noun) for noun in nouns])
    used = "it has" if len(nouns) == 1 else "they have"
    return f"Sorry, I can no longer change {names}: {used} already been used, and that cannot be undone."


def conversation_ended() -> str:
    """Said to anything the user writes after the conversation has ended."""
    return "This conversation has ended."


def yes_or_no(question: str) -> str:
    """A confirmation asked again after a reply that was no plain yes or no ("Shall I book it: yes or no?")."""
    return f"{question.strip().rstrip('?.!').rstrip()}: yes or no?"


def ruled_out(nouns: Sequence[str]) -> str:
    """Values the user ruled out ("not at 7pm") are cleared and asked again."""
    return f"OK, I cleared {_listed([_the(noun) for noun in nouns])}."


def take_your_time() -> str:
    """Said to "I don't know (yet)" before the question is asked again."""
    return "No problem, take your time."


def can_help_with(tasks: Iterable[str]) -> str:
    """The out-of-scope reply of an assistant: what it can do, in short words."""
    return f"Sorry, {offer(tasks)}"


def offer(tasks: Iterable[str], *, ask: bool = True) -> str:
    """What an assistant can do, in short words, and (``ask``) the question which."""
    said = f"I can help with {_listed(list(tasks))}."
    return f"{said} What would you like to do?" if ask else said


def hello() -> str:
    """An assistant's answer to a greeting before any task, when no flow declares a greeting of its own."""
    return "Hello!"


def welcome() -> str:
    """An assistant's answer to thanks before any task was done."""
    return "You're welcome!"


def closed_on(closed: str, open_days: str | None) -> str:
    """A day refused because it is a closed one: ``closed`` ("Mondays", "Thursday 25 December 2026") and the
    opening days in words ("Tuesday to Saturday"; None for a closed date, whose weekday is an open one)."""
    if open_days is None:
        return f"We're closed on {closed}. Which other day suits you?"
    return f"We're closed on {closed}: we're open {open_days}. Which day suits you?"


# ------------------------------------------------------------ clarifying questions: two readings fit, ask which
# (the answer is read with the question: fsmdial.slots.registry.with_reading_asked)


def which_day(sooner: str, later: str) -> str:
    """A day that two fit ("next Saturday" said on a Friday): "Do you mean Saturday 28 November or Saturday
    5 December?"."""
    return f"Do you mean {sooner} or {later}?"


def which_count(number: str, first: str, second: str) -> str:
    """A number that two slots could take: "Is that 5 people or 5 nights?"."""
    return f"Is that {number} {first} or {number} {second}?"
