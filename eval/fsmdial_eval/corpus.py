"""Reading STAR dialogues: events, gold API calls and their constraints, the dev split."""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fsmdial.userfiles import MAX_CORPUS_BYTES, read_json

TEST_EVERY = 5
"""Dialogues whose id is a multiple of this are the withheld test split."""


@dataclass(frozen=True)
class Constraint:
    """One gold query constraint: ``{"Name": 'api.is_equal_to("Dr. Johnson")'}``."""

    name: str
    op: str  # eq, one_of, at_least, at_most, less_than, greater_than, contains, contains_not, is_not
    value: Any

    @property
    def slot_value(self) -> Any:
        """The value a user would have said for it (None when it is not one value)."""
        value = self.value
        if isinstance(value, list):
            return value[0] if len(value) == 1 else None
        return None if self.op in ("contains_not", "is_not") else value


_CALL = re.compile(r"^\s*api\.(\w+)\((.*)\)\s*$", re.S)
_OPS = {
    "is_equal_to": "eq",
    "is_one_of": "one_of",
    "is_at_least": "at_least",
    "is_at_most": "at_most",
    "is_less_than": "less_than",
    "is_greater_than": "greater_than",
    "contains": "contains",
    "contains_not": "contains_not",
    "is_not": "is_not",
}


def parse_constraint(name: str, raw: Any) -> Constraint:
    """``'"Alexis"'`` -> eq "Alexis"; ``'api.is_at_least(15)'`` -> at_least 15; ``'639431'`` -> eq 639431."""
    if not isinstance(raw, str):
        return Constraint(name, "eq", raw)
    match = _CALL.match(raw)
    op, text = ("eq", raw) if match is None else (_OPS.get(match.group(1), match.group(1)), match.group(2))
    try:
        value = json.loads(text)
    except (ValueError, TypeError, RecursionError):
        value = text.strip().strip('"')
    return Constraint(name, op, value)


@dataclass
class GoldCall:
    api: str
    request_type: str | None
    constraints: list[Constraint]
    item: dict[str, Any] | None
    total: int | None
    position: int

    def arguments(self) -> dict[str, Any]:
        """Constraint name -> the single value it names (RequestType included)."""
        out: dict[str, Any] = {}
        for c in self.constraints:
            value = c.slot_value
            if value is not None:
                out[c.name] = value
        return out


@dataclass
class StarDialogue:
    id: int
    tasks: list[str]
    happy: bool
    multi: bool
    events: list[dict[str, Any]]
    calls: dict[int, GoldCall] = field(default_factory=dict)
    """Event index of each wizard query -> the call and its knowledge-base answer."""

    @property
    def split(self) -> str:
        return ("multi" if self.multi else "single") + "/" + ("happy" if self.happy else "unhappy")


def read_dialogue(path: str | Path) -> StarDialogue:
    data = read_json(path, limit=MAX_CORPUS_BYTES)
    scenario = data.get("Scenario") or {}
    tasks = list(dict.fromkeys(c["Task"] for c in scenario.get("WizardCapabilities") or [] if c.get("Task")))
    events = data.get("Events") or []
    dialogue = StarDialogue(
        int(data["DialogueID"]), tasks, bool(scenario.get("Happy")), bool(scenario.get("MultiTask")), events
    )
    for index, event in enumerate(events):
        if event.get("Action") != "query" or event.get("Agent") != "Wizard":
            continue
        constraints = [parse_constraint(k, v) for c in event.get("Constraints") or [] for k, v in c.items()]
        kinds = [c.value for c in constraints if c.name == "RequestType" and isinstance(c.value, str)]
        answer = events[index + 1] if index + 1 < len(events) else {}
        item = total = None
        if answer.get("Action") == "return_item":
            item = answer.get("Item")
            total = answer.get("TotalItems") if isinstance(answer.get("TotalItems"), int) else None
        dialogue.calls[index] = GoldCall(
            event.get("APIName", ""), kinds[0] if kinds else None, constraints, item, total, index
        )
    return dialogue


def dialogue_paths(star_dir: str | Path) -> list[Path]:
    """Every dialogue file, in id order."""
    folder = Path(star_dir) / "dialogues"
    return sorted(folder.glob("*.json"), key=lambda p: int(p.stem) if p.stem.isdigit() else 0)


def dev_split(star_dir: str | Path) -> list[Path]:
    """The dev split: every dialogue present whose id is not a multiple of 5 (those are the withheld test split)."""
    return [p for p in dialogue_paths(star_dir) if not (p.stem.isdigit() and int(p.stem) % TEST_EVERY == 0)]


SPLITS = ("dev", "test", "all")


def split_paths(star_dir: str | Path, split: str) -> list[Path]:
    """The dialogues of ``split``: ``dev`` (ids not a multiple of 5), ``test`` (multiples of 5) or ``all``."""
    if split not in SPLITS:
        raise ValueError(f"unknown split {split!r} (choose one of: {', '.join(SPLITS)})")
    paths = dialogue_paths(star_dir)
    if split == "all":
        return paths
    test = {p for p in paths if p.stem.isdigit() and int(p.stem) % TEST_EVERY == 0}
    return [p for p in paths if (p in test) == (split == "test")]


def sample_paths(paths: list[Path], size: int, seed: int) -> list[Path]:
    """A seeded random sample of ``size`` dialogues (all of them if fewer), in id order."""
    import random

    if size >= len(paths):
        return list(paths)
    chosen = set(random.Random(seed).sample(range(len(paths)), size))
    return [p for i, p in enumerate(paths) if i in chosen]


def is_user_turn(event: dict[str, Any]) -> bool:
    return event.get("Agent") == "User" and event.get("Action") == "utter" and isinstance(event.get("Text"), str)


def gold_label(event: dict[str, Any]) -> str | None:
    """The gold next-action label of a wizard message (None for custom messages)."""
    if event.get("Agent") == "Wizard" and event.get("Action") in ("pick_suggestion", "utter"):
        label = event.get("ActionLabel")
        return label if isinstance(label, str) and label else None
    return None


def default_star_dir() -> str | None:
    """``$FSMDIAL_STAR``, else ``../shared/data/star`` beside the working directory, if it exists."""
    env = os.environ.get("FSMDIAL_STAR")
    if env:
        return env
    candidate = Path.cwd().parent / "shared" / "data" / "star"
    return str(candidate) if candidate.is_dir() else None
