"""Conversation files: scripted conversations written as data, played by the pytest plugin.

A file named ``test_*.conversations.json`` is collected by the plugin (:mod:`.pytest_plugin`), one test per
conversation. It names the flow (a :class:`~fsmdial.runtime.Dialogue`) or several flows (an
:class:`~fsmdial.assistant.Assistant`, routing between them) and holds the conversations, each a list of
:class:`~fsmdial.testing.ExpectedTurn` mappings::

    {
      "flows": ["repair.json", "cancel.json"],
      "greeting": "Hello! I can book a repair or cancel a booking.",
      "now": "2025-06-13T12:00",
      "understander": "rules",
      "conversations": {
        "cancel, then nothing is held": [
          {"user": null, "acts": ["greeting"]},
          {"user": "I want to cancel my booking", "flow": "cancel_booking", "acts": ["ask_reference"]},
          {"user": "R1001", "slots": {"cancel_booking.reference": "R1001", "repair_booking.day": {"$absent": true}}}
        ]
      }
    }

* ``flow`` (one file) or ``flows`` (a list): relative to the conversation file;
* ``greeting``: an Assistant's opening (default the Assistant's own);
* ``now``: the frozen clock's time for every conversation of the file (default the plugin's clock);
* ``understander``: ``"rules"`` pins the rules whatever model the run is given (as ``fsmdial_dialogue``'s
  ``understander="rules"``); left out, the run's understander;
* ``conversations``: name -> turns. A turn's ``slots`` may name a flow (``"cancel_booking.reference"``); a
  value may be ``{"$pattern": regex}``, ``{"$any": true}`` or ``{"$absent": true}`` (not set);
  ``flow`` is the flow that answered.

Tools are the ``fsmdial_tools`` fixture's (override it in a ``conftest.py`` beside the file).
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import FsmdialError, InputFileError
from ..userfiles import read_json
from .expectations import ExpectedTurn

__all__ = ["CONVERSATION_FILE", "ConversationFile", "ConversationFileError", "load_conversation_file"]

CONVERSATION_FILE = re.compile(r"^test_.*\.conversations\.json$")
"""The names of the files the pytest plugin collects."""

_KEYS = {"flow", "flows", "greeting", "now", "understander", "conversations", "description"}


class ConversationFileError(FsmdialError, ValueError):
    """A conversation file that cannot be read: names the file, the key or conversation and what is wrong."""


@dataclass(frozen=True)
class ConversationFile:
    """A conversation file read: its flows (absolute paths) and its conversations' turns by name."""

    path: Path
    flows: tuple[Path, ...]
    assistant: bool
    """Several flows (``flows``): the conversations are played on an Assistant."""
    conversations: dict[str, tuple[ExpectedTurn, ...]]
    greeting: str | None = None
    now: dt.datetime | None = None
    understander: str | None = None


def load_conversation_file(path: str | Path) -> ConversationFile:
    """Read and check a conversation file (see the module's docstring); anything wrong is a
    :class:`ConversationFileError` naming the file and where."""
    path = Path(path)
    try:
        raw = read_json(path, what="the conversation file")
    except InputFileError as exc:
        raise ConversationFileError(str(exc)) from None
    if not isinstance(raw, dict):
        raise ConversationFileError(f"{path}: a conversation file is a JSON object, not {type(raw).__name__}")
    unknown = sorted(set(raw) - _KEYS)
    if unknown:
        raise ConversationFileError(
            f"{path}: unknown key(s) {', '.join(map(repr, unknown))} (known: {', '.join(sorted(_KEYS))})"
        )
    flows, assistant = _flows(raw, path)
    greeting = raw.get("greeting")
    if greeting is not None and (not isinstance(greeting, str) or not assistant):
        raise ConversationFileError(f"{path}: 'greeting' is a text, and only an assistant's ('flows') has one")
    understander = raw.get("understander")
    if understander not in (None, "rules", "model"):
        raise ConversationFileError(f'{path}: \'understander\' is "rules" or "model", not {understander!r}')
    now = None
    if raw.get("now") is not None:
        try:
            now = dt.datetime.fromisoformat(raw["now"])
        except (TypeError, ValueError):
            raise ConversationFileError(
                f"{path}: 'now' is a date and time (2025-06-13T12:00), not {raw['now']!r}"
            ) from None
    conversations = raw.get("conversations")
    if not isinstance(conversations, dict) or not conversations:
        raise ConversationFileError(f"{path}: 'conversations' is an object of name -> turns, with at least one")
    played = {name: _turns(turns, f"{path}: conversation {name!r}") for name, turns in conversations.items()}
    return ConversationFile(path, flows, assistant, played, greeting, now, understander)


def _flows(raw: dict[str, Any], path: Path) -> tuple[tuple[Path, ...], bool]:
    if ("flow" in raw) == ("flows" in raw):
        raise ConversationFileError(f"{path}: name either 'flow' (one flow) or 'flows' (an assistant), not both")
    names = [raw["flow"]] if "flow" in raw else raw["flows"]
    if not isinstance(names, list) or not names or not all(isinstance(name, str) and name for name in names):
        raise ConversationFileError(f"{path}: 'flow' is a file name, 'flows' a list of them")
    found = []
    for name in names:
        flow = path.parent / name
        if not flow.is_file():
            raise ConversationFileError(f"{path}: flow file {name!r} not found next to the conversation file")
        found.append(flow.resolve())
    return tuple(found), "flows" in raw


def _turns(turns: Any, where: str) -> tuple[ExpectedTurn, ...]:
    if not isinstance(turns, list) or not turns:
        raise ConversationFileError(f"{where}: the turns are a list, with at least one")
    read = []
    for number, spec in enumerate(turns, start=1):
        if not isinstance(spec, dict):
            raise ConversationFileError(f"{where}, turn {number}: a turn is an object, not {type(spec).__name__}")
        if "raises" in spec:
            raise ConversationFileError(f"{where}, turn {number}: 'raises' (an error type) is for Python scripts")
        try:
            read.append(ExpectedTurn.of(spec))
        except (TypeError, ValueError, re.error) as exc:
            raise ConversationFileError(f"{where}, turn {number}: {exc}") from None
    return tuple(read)
