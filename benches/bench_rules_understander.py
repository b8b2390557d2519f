"""The rules understander alone, per user turn of the example conversations (goal: <= 2 ms at p95).

Every user turn of ``tests/conversations.SCRIPTS`` is replayed at the state it was said in; the per-text caches
(every one of the language package and of the rules' modules) are cleared before each round, so a round costs what new
messages cost. The benchmark times one round (all turns); ``extra_info`` has the per-turn p50/p95/max over all rounds,
in milliseconds.

    pytest benches/bench_rules_understander.py --benchmark-only
"""

from __future__ import annotations

import sys
import time

from fsmdial.loader import load_flow
from fsmdial.runtime import Dialogue
from fsmdial.understand.rules import RulesUnderstander

from .conftest import FLOWS, REPO, frozen_clock

sys.path.insert(0, str(REPO))
from tests import example_tools  # noqa: E402
from tests.conversations import SCRIPTS  # noqa: E402

from .caches import clear_text_caches


class _Recorder(RulesUnderstander):
    def __init__(self) -> None:
        super().__init__()
        self.seen: list[tuple[object, str]] = []

    def understand(self, state, text, **kwargs):  # type: ignore[no-untyped-def]
        self.seen.append((state, text))
        return super().understand(state, text, **kwargs)


def _turns() -> list[tuple[object, str]]:
    recorder = _Recorder()
    for path, script in SCRIPTS.values():
        dialogue = Dialogue(
            load_flow(FLOWS / path), tools=example_tools.registry, clock=frozen_clock, understander=recorder
        )
        dialogue.start()
        for turn in script[1:]:
            dialogue.turn(turn.user)
    return recorder.seen


def test_rules_understander_per_turn(benchmark):
    turns = _turns()
    rules = RulesUnderstander()
    now = frozen_clock()
    per_turn: list[float] = []

    def run() -> None:
        clear_text_caches()
        for state, text in turns:
            started = time.perf_counter()
            rules.understand(state, text, now=now)  # type: ignore[arg-type]
            per_turn.append(time.perf_counter() - started)

    benchmark.group = "understand"
    benchmark.pedantic(run, rounds=30, warmup_rounds=2)
    ordered = sorted(per_turn)
    ms = [seconds * 1000 for seconds in ordered]
    benchmark.extra_info.update(
        turns=len(turns),
        p50_ms=round(ms[len(ms) // 2], 4),
        p95_ms=round(ms[int(len(ms) * 0.95)], 4),
        max_ms=round(ms[-1], 4),
    )
    assert len(turns) > 50
