"""fsmdial.patterns: slot patterns that could backtrack exponentially are refused;
accepted ones are found inside a reply."""

from __future__ import annotations

import re
import time
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fsmdial.errors import FlowError
from fsmdial.flow import pattern_problem, search_regex
from fsmdial.loader import load_flow
from tests.flows import issues_of, small_flow
from tests.reliability_support import FUZZ_SETTINGS, count, record


@pytest.mark.parametrize("pattern", ["^(a+)+$", "(a|ab)*c", "^(\\w+\\s?)+$", "(x+x+)+y", "((ab)*)*"])
def test_patterns_with_exponential_backtracking_are_refused_naming_the_slot(pattern: str) -> None:
    doc = small_flow()
    doc["nodes"][0]["slots"] = [{"name": "code", "pattern": pattern}]
    doc["nodes"][1]["message"] = "{code}"
    message = issues_of(doc)
    assert "code" in message and "exponential" in message


@pytest.mark.parametrize(
    ("pattern", "reply", "found"),
    [
        ("[0-9]+\\$", "it costs 12$ now", "12$"),
        ("(?i)^[a-z]{3}$", "it is ABC", "ABC"),
        ("^[0-9]{4}$", "pin 1234", "1234"),
    ],
)
def test_patterns_are_decided_at_validation_and_found_inside_a_reply(pattern: str, reply: str, found: str) -> None:
    assert pattern_problem(pattern) is None
    match = search_regex(pattern).search(reply)
    assert match is not None and match.group() == found


@pytest.mark.parametrize(("pattern", "reply"), [("[0-9]+\\$", "it is 12$ please"), ("(?i)^[a-z]{3}$", "it is ABC")])
def test_a_valid_pattern_never_fails_a_turn(pattern: str, reply: str) -> None:
    from fsmdial.runtime import Dialogue

    doc = small_flow()
    doc["nodes"][0]["slots"] = [{"name": "code", "pattern": pattern}]
    doc["nodes"][1]["message"] = "Got {code}."
    dialogue = Dialogue(load_flow(doc))
    dialogue.start()
    assert dialogue.turn(reply).messages == [f"Got {search_regex(pattern).search(reply).group()}."]  # type: ignore[union-attr]


ATOMS = ["a", "b", "ab", "[ab]", "\\d", "\\w", ".", "[a-z]", "\\s", "x", "-", "\\$"]


QUANTIFIERS = ["", "", "+", "*", "?", "{2}", "{1,3}", "{0,40}", "+?"]


@st.composite
def pattern(draw: st.DrawFn, depth: int = 0) -> str:
    parts = []
    for _ in range(draw(st.integers(1, 4))):
        if depth < 2 and draw(st.integers(0, 3)) == 0:
            inner = [draw(pattern(depth + 1)) for _ in range(draw(st.integers(1, 3)))]
            atom = "(" + "|".join(inner) + ")"
        else:
            atom = draw(st.sampled_from(ATOMS))
        parts.append(atom + draw(st.sampled_from(QUANTIFIERS)))
    body = "".join(parts)
    if depth == 0:
        body = draw(st.sampled_from(["", "^", "(?i)"])) + body + draw(st.sampled_from(["", "$"]))
    return body


def hostile_replies(regex: str) -> list[str]:
    """Replies made to backtrack: long runs of what the pattern matches, ending in what it does not."""
    chars = sorted(set(re.findall(r"[a-z0-9]", regex))) or ["a"]
    replies = []
    for ch in chars[:3] + ["a", "1", " "]:
        replies += [ch * 2000, ch * 1999 + "!", (ch + " ") * 1000, "a" + ch * 1998 + "\x00"]
    replies.append("ab" * 1000)
    return replies


def test_slot_patterns_are_refused_or_run_in_bounded_time() -> None:
    stats: Counter[str] = Counter()
    slowest = [0.0]

    @settings(max_examples=count(150, 2000), **FUZZ_SETTINGS)
    @given(regex=pattern())
    def fuzz(regex: str) -> None:
        doc = {
            "name": "p",
            "nodes": [
                {"id": "ask", "type": "request", "slots": [{"name": "code", "pattern": regex}]},
                {"id": "done", "type": "end", "message": "{code}"},
            ],
            "edges": [{"source": "ask", "target": "done"}],
        }
        try:
            load_flow(doc)
        except FlowError as exc:
            stats["refused"] += 1
            assert "code" in str(exc)
            return
        stats["accepted"] += 1
        whole, inside = re.compile(regex), search_regex(regex)
        for reply in hostile_replies(regex):
            started = time.perf_counter()
            whole.fullmatch(reply)
            inside.search(reply)
            elapsed = time.perf_counter() - started
            slowest[0] = max(slowest[0], elapsed)
            assert elapsed < 2.0, f"{regex!r} took {elapsed:.2f} s on a {len(reply)}-character reply"

    fuzz()
    record("slot_patterns", refused=stats["refused"], accepted=stats["accepted"], slowest_seconds=round(slowest[0], 4))
