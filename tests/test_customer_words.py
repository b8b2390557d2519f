"""Issue 20's customers' words suite (tests/data/customer_conversations/suite.jsonl) with the rules understander.

The suite was written before the parser work, as customers talk (see EVALUATION.md, "Customers' words
suite"). The quality targets (issue 20: no wrong commit, task success >= 85 %) are asserted; the baseline
measured on main's code before the parser work (rules) is kept in BASELINE so a change in either direction shows.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from fsmdial.flow import ExternalActionNode, SlotArg, SlotType
from fsmdial.loader import load_flow
from fsmdial.testing.suites import load_suite, run_conversations
from fsmdial.values import coerce
from tests.conftest import FLOWS, REPO

SUITE = Path(__file__).resolve().parent / "data" / "customer_conversations" / "suite.jsonl"
BASELINE = {"conversations": 130, "task_success": 37, "wrong_commits": 34, "no_commit": 59}
"""Rules on main at d68f581 (2026-11-25), before issue 20's parser work (the first 130 conversations)."""


@pytest.fixture(scope="module")
def report() -> dict[str, Any]:
    return run_conversations(SUITE)


def test_the_suite_covers_every_example_flow_with_enough_conversations():
    suite = load_suite(SUITE)
    assert len(suite.conversations) >= 120
    flows = {load_flow(c.flow).name for c in suite.conversations}
    natives = {load_flow(p).name for p in FLOWS.glob("*.json") if p.name.count(".") == 1}
    assert flows == natives | {load_flow(REPO / "examples" / "pizza_shop" / "flow.json").name}
    assert sum(1 for c in suite.conversations if not c.tool_calls) >= 10  # conversations that must commit nothing


def test_every_expected_call_is_a_committing_action_with_valid_values():
    """The expectations themselves are right: each value is what the flow's own coercion keeps, and valid."""
    for conv in load_suite(SUITE).conversations:
        flow = load_flow(conv.flow)
        actions = {n.tool: n for n in flow.nodes if isinstance(n, ExternalActionNode) and n.commits}
        slots = flow.slots()
        for call in conv.tool_calls:
            assert call.tool in actions, f"{conv.id}: {call.tool} is not a committing action of {flow.name}"
            mapping = flow.action_arguments(actions[call.tool])
            for argument, value in (call.arguments or {}).items():
                source = mapping[argument]
                slot = slots[source if isinstance(source, str) else source.slot if isinstance(source, SlotArg) else ""]
                if isinstance(value, re.Pattern):
                    assert slot.type in (SlotType.string, SlotType.text, SlotType.person_name), (
                        f"{conv.id}: a pattern for the {slot.type.value} slot {slot.name}"
                    )
                    continue
                assert coerce(slot, value, conv.now) == value, (
                    f"{conv.id}: {argument}={value!r} is not a kept {slot.type.value}"
                )
            required = {
                name
                for name, source in mapping.items()
                if slots[source if isinstance(source, str) else source.slot].required
            }
            missing = required - set(call.arguments or {}) - _other_branch(flow.name)
            assert not missing, f"{conv.id}: no expected value for {sorted(missing)}"


def _other_branch(flow: str) -> set[str]:
    """Arguments a conversation may leave out because their slots are asked on another branch."""
    if flow == "bank_fraud_report":
        return {"account_number", "pin", "date_of_birth", "mothers_maiden_name", "childhood_pet"}
    return set()


def test_the_suite_runs_without_a_failed_turn(report):
    assert report["n"] == len(load_suite(SUITE).conversations)
    assert report["overall"]["turn_errors"] == 0


def test_rules_never_commit_a_misunderstanding(report):
    wrong = [c["id"] for c in report["conversations"] if c["wrong_commits"]]
    assert wrong == []


def test_rules_task_success_is_at_least_85_percent(report):
    assert report["overall"]["task_success_rate"] >= 85.0


def test_nothing_is_committed_where_the_customer_did_not_agree(report):
    """Conversations that must commit nothing (a no, a goodbye, no way to authenticate) commit nothing (holds today)."""
    refused = [c for c in report["conversations"] if not c["expected"]]
    assert refused and all(c["success"] for c in refused)


def test_rules_hold_what_the_rules_round_reached(report):
    """Measured on main after the customers'-words round (2026-11-25, 42af82c): 165 of 169 (97.6 %), no wrong
    commit (see EVALUATION.md). A change that reads less, or commits a misunderstanding, fails here."""
    assert report["overall"]["task_success_rate"] >= 97.0
    assert report["overall"]["wrong_commits"] == 0


def test_the_rules_round_conversations_all_succeed(report):
    """The `ru-*` conversations, written for the classes the rules round reads, in new wordings."""
    ours = [c for c in report["conversations"] if c["id"].startswith("ru-")]
    assert len(ours) == 20 and [c["id"] for c in ours if not c["success"]] == []
