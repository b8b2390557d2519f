"""Issue 20's sentences at the name question and at "Shall I book it?", through a real model (or the rules).

    python -m benches.commit_safety_models [MODEL.gguf]

Prints what each reply was parsed as, whether the table was booked in that turn, and, for a reply that changes a
detail, what a following plain "yes" books. The last line counts bookings with old or unconfirmed values (a
booking in the turn of any reply that is not a plain yes, or a later "yes" booking other values than the
change) and names not of a name's shape. Not collected by pytest (it needs a model file and minutes).
"""

from __future__ import annotations

import datetime as dt
import sys
from typing import Any

from fsmdial import Dialogue, load_flow
from fsmdial.language.names import is_name
from tests import example_tools
from tests.conftest import FLOWS

NAME_REPLIES = {  # reply to "What name should the booking be under?" -> the name it gives (None: none)
    "hi there": None,
    "Good evening": None,
    "hey, do you guys have vegan options?": None,
    "he's bleeding badly": None,
    "thanks!": None,
    "hmm, I don't know yet, let me check with the others": None,
    "it's under Okafor": "Okafor",
    "Priya, I'd like to make a reservation": "Priya",
    "under Dana Lee": "Dana Lee",
    "hi, I'm Jane": "Jane",
}
BOOKED = {"name": "Jane Doe", "party_size": 4, "date": "2026-11-23", "time": "19:00"}
CONFIRM_REPLIES: dict[str, dict[str, Any] | None] = {  # reply at "Shall I book it?" -> the change (None: re-ask)
    "yes, but the name should be Bob Smith": {"name": "Bob Smith"},
    "ok, though book it under the name Maria": {"name": "Maria"},
    "sure, just not at 7pm": {"time": None},
    "fine but not for 4 people": {"party_size": None},
    "yes but make it 11 people": {"party_size": 11},
    "actually we will be five people": {"party_size": 5},
    "no, for five people, sorry": {"party_size": 5},
    "under Dana Lee": {"name": "Dana Lee"},
    "Alex": None,
    "hmm let me think": None,
    "tell me about the menu first": None,
    "maybe": None,
    "ok?": None,
    "that would be lovely, go ahead": None,
}
PLAIN_YES = "yes please, go ahead"


def clock() -> dt.datetime:
    return dt.datetime(2026, 11, 22, 12)


def main(argv: list[str]) -> int:
    understander = None
    if argv:
        from fsmdial.understand.model.gguf import GGUFUnderstander

        understander = GGUFUnderstander(argv[0])
    flow = load_flow(FLOWS / "restaurant_booking.json")
    kwargs = {"understander": understander} if understander is not None else {}

    def new(snapshot: Any = None) -> Dialogue:
        if snapshot is None:
            dialogue = Dialogue(flow, tools=example_tools.registry, clock=clock, **kwargs)
            dialogue.start()
            return dialogue
        return Dialogue.restore(flow, snapshot, tools=example_tools.registry, clock=clock, **kwargs)

    def booked() -> list[dict[str, Any]]:
        return [dict(args) for tool, args in example_tools.calls if tool == "book_table"]

    wrong_names = wrong_bookings = missed = 0
    for reply, name in NAME_REPLIES.items():
        dialogue = new()
        result = dialogue.turn(reply)
        got = dialogue.slots.get("name")
        wrong_names += got is not None and not is_name(str(got).split())
        missed += got != name
        print(f"[name] {reply!r} -> {result.trace.path} {result.trace.parse} name={got!r} bot={result.text!r}")
    setup = new()
    setup.turn("hi, I'd like to book a table for 4 people tomorrow at 7pm")
    setup.turn("Jane Doe")
    assert setup.slots == BOOKED, setup.slots
    snapshot = setup.snapshot()
    for reply, change in [*CONFIRM_REPLIES.items(), (PLAIN_YES, {})]:
        dialogue = new(snapshot)
        example_tools.calls.clear()
        result = dialogue.turn(reply)
        now = booked()
        wrong_bookings += bool(now) and reply != PLAIN_YES
        missed += (not now) if reply == PLAIN_YES else False
        line = f"[confirm] {reply!r} -> {result.trace.path} {result.trace.parse} booked={now} bot={result.text!r}"
        if change:
            expected = {k: v for k, v in {**BOOKED, **change}.items() if v is not None}
            missed += {k: dialogue.slots.get(k) for k in BOOKED if k in expected} != expected
            if all(v is not None for v in change.values()):
                after = dialogue.turn("yes")
                later = booked()
                wrong_bookings += bool(later) and {k: later[-1].get(k) for k in BOOKED} != expected
                line += f" | then 'yes' -> booked={later} bot={after.text!r}"
        print(line)
    print(
        f"bookings with old or unconfirmed values: {wrong_bookings}; names not of a name's shape: {wrong_names}; "
        f"replies not read as the issue expects: {missed}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
