"""Replies at a restaurant booking's confirmation, read by a GGUF model that writes JSON or scores options.

The booking (Anna Fischer, 4 people, tomorrow, 19:30) is filled by the rules, then each reply below is read
at its confirmation (each on its own, after the same conversation), and its parse compared with what the
reply means: the answer (``None`` for a change), the slots it sets and the intent.

Two readings per model and way of choosing: the **pipeline** (fast path and the rules first, the model
only for what is left: what a user gets) and the **model alone** (``fast_path=False, rules_first=False``:
every candidate goes to the model, as in DESIGN.md's probe).

    python -m benches.choose_probe --model models/SmolLM2-135M-Instruct.Q4_1.gguf [--choose score] [--alone]
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import time
from pathlib import Path
from typing import Any

from fsmdial.loader import load_flow
from fsmdial.runtime import Dialogue

REPO = Path(__file__).resolve().parent.parent
NOW = dt.datetime(2026, 12, 2, 16, 0)  # a Wednesday: "tomorrow" is Thursday 3 December
BOOKING = ["I'd like to book a table", "Anna Fischer", "4 people", "tomorrow", "7:30pm"]

CHANGE: dict[str, Any] = {"answer": None}
ITEMS: list[tuple[str, dict[str, Any]]] = [
    ("we're now six people", {**CHANGE, "slots": {"party_size": 6}}),
    ("can we make it 9:30", {**CHANGE, "slots": {"time": "21:30"}}),
    ("sorry, it should be under Becker, not Fischer", {**CHANGE, "slots": {"name": "Becker"}}),
    ("is there parking nearby?", {"answer": "other"}),
    ("yes please", {"answer": "yes"}),
    ("no", {"answer": "no"}),
    ("actually make it Friday", {**CHANGE, "slots": {"date": "2026-12-04"}}),
    ("perfect, go ahead", {"answer": "yes"}),
    ("can we do 8 o'clock instead", {**CHANGE, "slots": {"time": "20:00"}}),
    ("there will be 3 of us", {**CHANGE, "slots": {"party_size": 3}}),
    ("make that 7 people at 8pm", {**CHANGE, "slots": {"party_size": 7, "time": "20:00"}}),
    ("that's wrong", {"answer": "no"}),
    ("do you have vegan options?", {"answer": "other"}),
    ("sounds good", {"answer": "yes"}),
    ("not quite, the name is Anna Schmidt", {**CHANGE, "slots": {"name": "Anna Schmidt"}}),
    ("could you move it to Saturday", {**CHANGE, "slots": {"date": "2026-12-05"}}),
    ("one more person is coming, so 5", {**CHANGE, "slots": {"party_size": 5}}),
    ("all correct thanks", {"answer": "yes"}),
    ("nope, wrong day", {"answer": "no"}),
    ("when do you open?", {"answer": "other", "intent": "opening_hours"}),
    ("lovely, book it", {"answer": "yes"}),
    ("put it under my husband's name, Tom Fischer", {**CHANGE, "slots": {"name": "Tom Fischer"}}),
    ("we'd rather come at 6pm", {**CHANGE, "slots": {"time": "18:00"}}),
    ("2 people only", {**CHANGE, "slots": {"party_size": 2}}),
    ("can we sit on the terrace instead", {**CHANGE, "slots": {"seating": "terrace"}}),
    ("no, make it the 12th", {**CHANGE, "slots": {"date": "2026-12-12"}}),
]


def at_confirmation() -> Dialogue:
    flow = load_flow(REPO / "flows" / "restaurant_booking.json")
    dialogue = Dialogue(flow, clock=lambda: NOW, stand_in_tools=True)
    dialogue.start()
    for said in BOOKING:
        dialogue.turn(said)
    assert dialogue.node == "confirm_booking", dialogue.node
    return dialogue


def shown(state: Any, name: str, value: Any) -> Any:
    """The value as the runtime would store it ("9:30 (12-hour clock)" -> 21:30 inside the opening hours)."""
    from fsmdial.values import InvalidValue, coerce

    slot = state.slot(name)
    try:
        value = coerce(slot, value, NOW) if slot is not None else value
    except InvalidValue:
        return f"invalid: {value}"
    if isinstance(value, dt.time):
        return value.strftime("%H:%M")
    if isinstance(value, dt.date):
        return value.isoformat()
    return value


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", required=True)
    parser.add_argument("--choose", default="json", choices=("json", "score"))
    parser.add_argument("--margin", type=float, default=None)
    parser.add_argument("--alone", action="store_true", help="the model alone: no fast path, no rules first")
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args()
    from fsmdial.understand.model.gguf import GGUFUnderstander

    options: dict[str, Any] = {"n_threads": 1, "kv_cache": False}
    if args.choose == "score":
        options.update(choose="score", margin=args.margin)
    if args.alone:
        options.update(fast_path=False, rules_first=False)
    understander = GGUFUnderstander(args.model, **options)
    dialogue = at_confirmation()
    state = dialogue.runtime.understanding_state() if hasattr(dialogue, "runtime") else dialogue.understanding_state()
    history = list(dialogue.history)
    right = acts_right = model_turns = 0
    seconds: list[float] = []
    for text, expected in ITEMS:
        started = time.perf_counter()
        parse = understander.understand(state, text, history=history, now=NOW)
        took = time.perf_counter() - started
        if parse.path == "model":
            model_turns += 1
            seconds.append(took)
        slots = {name: shown(state, name, value) for name, value in parse.slots.items()}
        got = {"answer": parse.answer, "slots": slots, "intent": parse.intent}
        want = {"answer": expected.get("answer"), "slots": expected.get("slots", {}), "intent": expected.get("intent")}
        ok = got == want
        act_ok = (parse.answer is None) == (want["answer"] is None) and (
            want["answer"] is None or parse.answer == want["answer"]
        )
        right += ok
        acts_right += act_ok
        if args.verbose or not ok:
            mark = "ok " if ok else "BAD"
            print(f"{mark} {parse.path:5} {text!r}: got {json.dumps(got)}  want {json.dumps(want)}")
            if args.verbose and parse.path == "model":
                print("      ", parse.info.get("output"), parse.info.get("gains", ""))
    seconds.sort()
    p50 = seconds[len(seconds) // 2] if seconds else 0.0
    print(
        f"{Path(args.model).name} choose={args.choose} alone={args.alone}: right {right}/{len(ITEMS)}, "
        f"acts {acts_right}/{len(ITEMS)}, model turns {model_turns}, p50 model turn {p50 * 1000:.0f} ms"
    )


if __name__ == "__main__":
    main()
