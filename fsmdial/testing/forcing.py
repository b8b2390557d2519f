"""Teacher forcing: moving a :class:`~fsmdial.runtime.Dialogue`'s session as a gold transcript says.

The STAR harness (:mod:`fsmdial_eval.star`) checkpoints the session before the engine's reply, then either
:func:`seek`\\ s the node the wizard's label names or :func:`rewind`\\ s to the checkpoint (keeping what the user
said); :func:`reopen` lets the transcript go on after the conversation ended. ``fsmdial eval messy`` and
``fsmdial prompt`` use :func:`seek` to put a dialogue at the node a case starts from. None of this is part of a
conversation's API: a real conversation only moves by its turns.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from ..runtime import Dialogue
from ..session import SessionState

__all__ = ["KEPT_ON_REWIND", "checkpoint", "reopen", "rewind", "seek"]

KEPT_ON_REWIND = ("slots", "asked", "retries", "ended", "history", "turns", "calls")
"""What :func:`rewind` keeps: what the user said, and the conversation's own count of it."""

_ABSENT = object()


def checkpoint(dialogue: Dialogue) -> SessionState:
    """A copy of the dialogue's session, for :func:`rewind`."""
    return dialogue.session.copy()


def rewind(dialogue: Dialogue, saved: SessionState) -> None:
    """Undo the engine's steps since ``saved`` (from :func:`checkpoint`), keeping what the user said:
    the slot values (nodes depending on a slot that changed since are reset) and the history."""
    session = saved.copy()
    current = dialogue.session
    for name in KEPT_ON_REWIND:
        setattr(session, name, getattr(current, name))
    changed = [name for name, value in current.slots.items() if saved.slots.get(name, _ABSENT) != value]
    dialogue.load_session(session)
    for name in changed:
        dialogue.machine.forget(dialogue.tables.dependents.get(name, ()))


def reopen(dialogue: Dialogue) -> None:
    """The gold transcript goes on after the conversation ended here, so the next turn is taken as usual (an ended
    conversation otherwise answers every turn with the ``ended`` fallback, and nothing moves). The machine stays
    where it is."""
    dialogue.session.ended = False


def seek(
    dialogue: Dialogue,
    node: str,
    *,
    clear: Iterable[str] = (),
    told: bool = False,
    result: Mapping[str, Any] | None = None,
    held: Mapping[str, Mapping[str, Any]] | None = None,
    asked: str | None = None,
) -> None:
    """Put the session at ``node`` as a gold transcript says it is, keeping its bookkeeping.

    ``held``: results to hold for actions that never ran (no status; ``{result.x}`` reads the last);
    ``clear``: slots to empty (to be asked again); ``told``: the node's message counts as said, its
    answer pending; ``result``: ``node`` is an external action that just returned ``result``;
    ``asked``: the slot the bot's last question asked for (what a bare reply answers).
    """
    session, machine = dialogue.session, dialogue.machine
    for action, value in (held or {}).items():
        session.results[action] = dict(value)
        session.last_action = action
    machine.place(node)
    for name in clear:
        session.slots.pop(name, None)
        session.declined.discard(name)
    if asked is not None:
        session.asked = asked
    if told:
        session.informed.add(node)
        session.answers.pop(node, None)
    if result is not None:
        machine.forget((node,))
        session.results[node] = dict(result)
        session.last_action = node
        session.status[node] = "success" if machine.succeeded(node) else "failure"
