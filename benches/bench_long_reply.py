"""Issue 34: a long reply costs the rules understander time linear in its length (goal: a 2,000-character reply in at
most 20 ms).

A reply of 2,000 characters of numbers (single digits, numbers, decimals, number words, times, amounts, lengths of
time, phone numbers, references, words of places, a sentence of values) is read by :class:`RulesUnderstander` at the
first question of each example flow (and of a flow with an address slot), the per-text caches cleared before each
reading, so each costs what a new message costs. Before issue 34 a reply of single digits took 1.2 s: the time
readers searched the whole text before each number, and the patterned-slot reader searched every word's text before
it for cue words (each quadratic); at stop 52 the reader of an address of places looked for its cue words before
every word (2 s for 8,000 characters of places), which the "places" kind now holds linear.

The benchmark times one reading (the flow where the reply costs most); ``test_a_reply_costs_time_linear_in_its_length``
runs in a plain ``pytest`` too: a reply eight times as long may cost at most twenty times as much (quadratic would be
64 times).

    pytest benches/bench_long_reply.py --benchmark-only
"""

from __future__ import annotations

import datetime as dt
import random
import time
from collections.abc import Callable

import pytest

from fsmdial.loader import load_flow
from fsmdial.runtime import Dialogue
from fsmdial.understand.base import UnderstandingState
from fsmdial.understand.rules import RulesUnderstander

from .caches import clear_text_caches
from .conftest import EXAMPLE_FLOWS, REPO, frozen_clock

_PIECES: dict[str, Callable[[random.Random], str]] = {
    "single digits": lambda rnd: str(rnd.randint(0, 9)),
    "numbers": lambda rnd: str(rnd.randint(0, 9999)),
    "decimals": lambda rnd: f"{rnd.randint(0, 99)}.{rnd.randint(0, 99):02d}",
    "number words": lambda rnd: rnd.choice(["one", "two", "twenty", "three hundred", "oh", "double", "and a half"]),
    "times": lambda rnd: rnd.choice(["at 7", "at 10:30", "7pm", "half past 8", "around 9", "by 5", "0930"]),
    "money": lambda rnd: rnd.choice(["£20", "20 pounds", "twenty pounds fifty", "2k", "50p", "or", "to", "-"]),
    "durations": lambda rnd: rnd.choice(["2 hours", "an hour and a half", "30 minutes", "and", "a quarter of an hour"]),
    "phones": lambda rnd: f"07700 900 {rnd.randint(0, 999):03d}",
    "references": lambda rnd: rnd.choice(["KM19 ZTR", "ab 12", "b r", "zero", "4512", "OK"]),
    "places": lambda rnd: rnd.choice(
        ["we park", "close to", "the green", "up the hill", "a nice view", "down the drive", "Clun SY7 8JB", "at 3"]
    ),
    "sentence": lambda rnd: rnd.choice(
        ["I'd like 2 boxes", "for 4 people", "at 7:30 tomorrow", "my number is 07700 900 123", "booking 4512", "£25"]
    ),
}
"""What a long reply of numbers is made of, one kind per reply."""


def reply(kind: str, length: int = 2000) -> str:
    """A reply of ``length`` characters of one kind of pieces, the same for the same arguments."""
    rnd, text = random.Random(kind), ""
    while len(text) < length:
        text += _PIECES[kind](rnd) + " "
    return text[:length]


def _states() -> list[UnderstandingState]:
    paths = [*EXAMPLE_FLOWS, REPO / "examples" / "pizza_shop" / "flow.json"]
    paths += sorted((REPO / "tests" / "data" / "heldout_r2" / "flows").glob("*.json"))
    paths.append(REPO / "tests" / "data" / "heldout_r31" / "flows" / "septic_emptying.json")  # an address slot
    states = []
    for path in paths:
        dialogue = Dialogue(load_flow(path), stand_in_tools=True, clock=frozen_clock)
        dialogue.start()
        states.append(dialogue.understanding_state())
    return states


def _cost(rules: RulesUnderstander, state: UnderstandingState, text: str, now: dt.datetime, rounds: int = 3) -> float:
    """The least processor time (seconds) of ``rounds`` readings of ``text``, each as a new message."""
    best = float("inf")
    for _ in range(rounds):
        clear_text_caches()
        started = time.process_time()
        rules.understand(state, text, now=now)
        best = min(best, time.process_time() - started)
    return best


@pytest.mark.parametrize("kind", list(_PIECES))
def test_a_long_reply_of_numbers(benchmark, kind: str) -> None:
    rules, now, text = RulesUnderstander(), frozen_clock(), reply(kind)
    states = _states()
    for state in states:
        rules.understand(state, "hello", now=now)  # the state's tables, built once per state, are not timed
    state = max(states, key=lambda state: _cost(rules, state, text, now, rounds=1))

    def run() -> None:
        clear_text_caches()
        rules.understand(state, text, now=now)

    benchmark.group = "long reply"
    benchmark.extra_info.update(kind=kind, characters=len(text), flow=state.flow)
    benchmark.pedantic(run, rounds=20, warmup_rounds=1)


@pytest.mark.parametrize("kind", list(_PIECES))
def test_a_reply_costs_time_linear_in_its_length(kind: str) -> None:
    rules, now = RulesUnderstander(), frozen_clock()
    for state in _states():
        rules.understand(state, "hello", now=now)
        short = _cost(rules, state, reply(kind, 1000), now)
        long = _cost(rules, state, reply(kind, 8000), now)
        assert long < 20 * max(short, 0.0005), f"{state.flow}: {kind}: {short * 1000:.1f} ms -> {long * 1000:.1f} ms"


def main(rounds: int = 5) -> None:
    """Print, per kind of 2,000-character reply, the processor time of the slowest flow (what load does not inflate),
    the least of ``rounds`` readings: ``python -m benches.bench_long_reply [ROUNDS]``."""
    rules, now, states = RulesUnderstander(), frozen_clock(), _states()
    for state in states:
        rules.understand(state, "hello", now=now)
    for kind in _PIECES:
        text = reply(kind)
        cost, flow = max((_cost(rules, state, text, now, rounds=rounds), state.flow) for state in states)
        print(f"{kind:14s} {cost * 1000:6.1f} ms  {flow}")


if __name__ == "__main__":
    import sys

    main(int(sys.argv[1]) if len(sys.argv) > 1 else 5)
