"""Messy utterances with their expected parse: slot precision and recall of an understander, state by state.

The data (``eval/tests/data/messy_utterances.json``) puts each message at a
machine state of an example flow (node, values already held, the slot just
asked, a pending confirmation) and says what a good understander reads from
that message alone: the values it gives or changes (never held values
restated), the intent, and the answer to a pending yes/no question
(``null`` with a value: a correction, never "yes").

:func:`score` runs an understander over every case and counts slot values
(name and value, compared after the flow's own coercion) found, missed and
invented, and intents and answers right.

    fsmdial eval messy --understander gguf --model models/SmolLM2-135M-Instruct.Q4_1.gguf
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fsmdial.errors import SetupError
from fsmdial.flow import Slot, SlotType
from fsmdial.runtime import Dialogue
from fsmdial.testing.forcing import seek
from fsmdial.understand.base import Understander, UnderstandingState
from fsmdial.userfiles import read_json
from fsmdial.values import InvalidValue, coerce

DEFAULT_DATA = Path(__file__).resolve().parents[1] / "tests" / "data" / "messy_utterances.json"
"""In a checkout: ``eval/tests/data/`` (the harness's tests' data, not package data)."""
FLOWS = Path(__file__).resolve().parents[2] / "flows"
"""In a checkout: the engine's example flows (``flows/`` at the repository's root)."""


@dataclass
class Case:
    id: str
    flow: str
    node: str
    text: str
    slots: dict[str, Any]
    intent: str | None = None
    answer: str | None = None
    scores_answer: bool = False
    asked: str | None = None
    held: dict[str, Any] = field(default_factory=dict)
    confirm: bool = False
    bot: str | None = None


def checkout_file(path: str | Path, what: str) -> Path:
    """``path``, which must exist: the labelled cases and the example flows live in the repository (eval/tests/data/,
    flows/), not in the installed package, so outside a checkout this is an error naming them."""
    path = Path(path)
    if not path.exists():
        raise SetupError(
            f"{what} not found at {path}: `fsmdial eval messy` reads the repository's eval/tests/data/ and "
            "flows/, so run it from a checkout (or pass --data for the cases)"
        )
    return path


def load_cases(path: str | Path = DEFAULT_DATA) -> tuple[dt.datetime, list[Case]]:
    data = read_json(checkout_file(path, "the labelled cases"))
    cases = []
    for raw in data["cases"]:
        cases.append(
            Case(
                raw["id"],
                raw["flow"],
                raw["node"],
                raw["text"],
                dict(raw.get("slots") or {}),
                raw.get("intent"),
                raw.get("answer"),
                "answer" in raw,
                raw.get("asked"),
                dict(raw.get("held") or {}),
                bool(raw.get("confirm")),
                raw.get("bot"),
            )
        )
    return dt.datetime.fromisoformat(data["now"]), cases


def case_state(case: Case, now: dt.datetime, flows: Path = FLOWS) -> tuple[UnderstandingState, list[tuple[str, str]]]:
    """The understanding state the case's message is read at, and the conversation before it."""
    dialogue = Dialogue(
        str(checkout_file(flows, "the example flows") / f"{case.flow}.json"), stand_in_tools=True, clock=lambda: now
    )
    dialogue.adopt_slots(case.held)
    seek(dialogue, case.node, told=case.confirm, asked=case.asked)
    history = [("bot", case.bot)] if case.bot else []
    return dialogue.understanding_state(), history


def _same(slot: Slot | None, got: Any, want: Any, now: dt.datetime) -> bool:
    if slot is None:
        return False
    try:
        got, want = coerce(slot, got, now), coerce(slot, want, now)
    except InvalidValue:
        return False
    if slot.type is SlotType.string:  # case, and a leading article, aside
        return _plain(got) == _plain(want)
    return bool(got == want)


def _plain(text: Any) -> str:
    words = str(text).strip().casefold().split()
    while words and words[0] in ("the", "a", "an", "my"):
        words = words[1:]
    return " ".join(words)


def score(understander: Understander, cases: list[Case], now: dt.datetime, *, flows: Path = FLOWS) -> dict[str, Any]:
    """Slot precision/recall/F1 (percent), intent and answer accuracy, and every case's parse."""
    found = invented = missed = 0
    intents_right = answers_right = answers = exact = 0
    details = []
    for case in cases:
        state, history = case_state(case, now, flows)
        parse = understander.understand(state, case.text, history=history, now=now)
        right = {
            name
            for name, value in parse.slots.items()
            if name in case.slots and _same(state.slot(name), value, case.slots[name], now)
        }
        found += len(right)
        invented += len(parse.slots) - len(right)
        missed += len(case.slots) - len(right)
        intent_ok = parse.intent == case.intent
        intents_right += intent_ok
        answer_ok = True
        if case.scores_answer:
            answers += 1
            answer_ok = parse.answer == case.answer
            answers_right += answer_ok
        ok = intent_ok and answer_ok and len(right) == len(case.slots) == len(parse.slots)
        exact += ok
        details.append({"id": case.id, "ok": ok, "text": case.text, "parse": parse.to_dict(), "path": parse.path})
    pct = lambda a, b: round(100 * a / b, 1) if b else None  # noqa: E731
    precision, recall = pct(found, found + invented), pct(found, found + missed)
    f1 = round(2 * precision * recall / (precision + recall), 1) if precision and recall else 0.0
    return {
        "cases": len(cases),
        "slot_precision": precision,
        "slot_recall": recall,
        "slot_f1": f1,
        "intent_accuracy": pct(intents_right, len(cases)),
        "answer_accuracy": pct(answers_right, answers),
        "cases_exactly_right": pct(exact, len(cases)),
        "details": details,
    }
