"""A value chosen for what a message meant is a proposal, open to correction by the next reply.

A categorical value chosen by meaning (the embedder or a model) is said back at once ("I take it the type of
appointment is emergency.", :func:`~fsmdial.language.sentences.taken_as`) so that a wrong choice is corrected before
the summary. The reply may correct it in other words than a change cue: "it's not hurting or anything, the dentist
said I need to come back for my routine exam" (round 11) tells a check-up by two words of its forms. Read as a new
value of the proposed slot, it replaces the proposal as any change does, and the summary shows it before a commit.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ...flow import Slot, SlotType
from ...language.clauses import clauses
from ...language.sentences import taken_from
from .categories import THING_NEGATION, named_value
from .described import told_across

__all__ = ["disputed_proposal"]


def disputed_proposal(slots: Iterable[Slot], history: Sequence[tuple[str, str]], text: str) -> dict[str, str]:
    """The value ``text`` tells, by the words of its forms (:func:`~.described.told_across`), of the categorical slot
    whose value the bot's last turn proposed, when it is another value than the one proposed; else nothing."""
    last: list[str] = []  # the bot's messages since the user last spoke
    for role, said in reversed(history):
        if role == "user":
            break
        last.append(said)
    found = next((taken for said in last if (taken := taken_from(said)) is not None), None)
    if found is None:
        return {}
    noun, proposed = found
    slot = next((s for s in slots if s.type is SlotType.categorical and s.noun == noun), None)
    if slot is None:
        return {}
    if named_value(slot, text) == proposed:
        return {}  # "a king size bed, a double wardrobe and a chest of drawers" for several items: the proposal stands
    # "no leaks that I can see" tells no leak: only the clauses that deny nothing, of a thing or a verb; two words of
    # the other value's forms, its own name counting once ("the main run from the house to the tank" describes a
    # blockage, no septic tank to empty)
    kept = " ".join(clause for clause in clauses(text) if not THING_NEGATION.search(clause))
    told = told_across(slot, kept, own_twice=False)
    return {slot.name: told} if told is not None and told.casefold() != proposed.casefold() else {}
