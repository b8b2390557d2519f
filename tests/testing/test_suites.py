"""The customers' words scorer (fsmdial/testing/suites.py) on tiny hand-made suites."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

import pytest

from fsmdial.testing.suites import SuiteError, add_arguments, format_table, load_suite, run, run_conversations
from fsmdial.understand.base import Parse, UnderstandingState
from fsmdial.understand.rules import RulesUnderstander
from tests.conftest import FLOWS

NOW = "2026-11-23T10:00"  # a Monday: "tomorrow" is 2026-11-24
BOOKING = {"name": "Alex", "party_size": 4, "date": "2026-11-24", "time": "19:00"}


def conversation(
    id: str, turns: list[str], calls: list[dict[str, Any]], flow: str = "restaurant_booking", **extra: Any
) -> dict[str, Any]:
    return {
        "id": id,
        "flow": str(FLOWS / f"{flow}.json"),
        "now": NOW,
        "turns": [{"user": t} for t in turns],
        "tool_calls": calls,
        **extra,
    }


def write(tmp_path: Path, *lines: dict[str, Any], meta: dict[str, Any] | None = None) -> Path:
    path = tmp_path / "suite.jsonl"
    rows = ([{"meta": meta}] if meta else []) + list(lines)
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    return path


def only(report: dict[str, Any]) -> dict[str, Any]:
    (conv,) = report["conversations"]
    return conv


def test_a_success_is_counted(tmp_path):
    path = write(
        tmp_path,
        conversation(
            "ok", ["table for 4 tomorrow at 7pm", "Alex", "yes"], [{"tool": "book_table", "arguments": BOOKING}]
        ),
    )
    report = run_conversations(path)
    assert report["overall"] == {
        "conversations": 1,
        "task_success": 1,
        "task_success_rate": 100.0,
        "wrong_commits": 0,
        "wrong_commit_calls": 0,
        "no_commit": 0,
        "turn_errors": 0,
    }
    conv = only(report)
    assert conv["outcome"] == "success" and conv["slot_errors"] == []
    assert conv["committed"] == [{"tool": "book_table", "arguments": BOOKING, "status": "success"}]
    assert report["slot_errors"]["integer"] == {"checked": 1, "right": 1, "wrong": 0, "missing": 0, "errors": 0}


def test_a_commit_with_a_wrong_argument_is_a_wrong_commit_and_a_slot_error_of_its_kind(tmp_path):
    want = {**BOOKING, "name": "Bob Smith"}
    path = write(
        tmp_path,
        conversation(
            "wrong", ["table for 4 tomorrow at 7pm", "Alex", "yes"], [{"tool": "book_table", "arguments": want}]
        ),
        meta={"slot_kinds": {"restaurant_booking.name": "person_name"}},
    )
    report = run_conversations(path)
    assert report["overall"]["task_success"] == 0
    assert report["overall"]["wrong_commits"] == 1
    conv = only(report)
    assert conv["outcome"] == "wrong_commit"
    assert conv["slot_errors"] == [
        {
            "slot": "restaurant_booking.name",
            "kind": "person_name",
            "expected": "Bob Smith",
            "got": "Alex",
            "committed": True,
            "status": "wrong",
        }
    ]
    assert report["slot_errors"]["person_name"]["wrong"] == 1
    assert report["slot_errors"]["date"]["right"] == 1


def test_a_commit_when_none_was_expected_is_a_wrong_commit(tmp_path):
    path = write(tmp_path, conversation("unwanted", ["table for 4 tomorrow at 7pm", "Alex", "yes"], []))
    report = run_conversations(path)
    assert only(report)["outcome"] == "wrong_commit"
    assert report["overall"]["wrong_commit_calls"] == 1 and report["overall"]["task_success"] == 0


def test_no_commit_is_neither_a_success_nor_a_wrong_commit_and_slots_are_checked_where_they_stand(tmp_path):
    path = write(
        tmp_path,
        conversation(
            "declined", ["table for 4 tomorrow", "Alex", "no"], [{"tool": "book_table", "arguments": BOOKING}]
        ),
    )
    report = run_conversations(path)
    conv = only(report)
    assert conv["outcome"] == "no_commit" and conv["wrong_commits"] == 0
    assert report["overall"]["no_commit"] == 1
    assert conv["slot_errors"] == [
        {
            "slot": "restaurant_booking.time",
            "kind": "time",
            "expected": "19:00",
            "got": None,
            "committed": False,
            "status": "missing",
        }
    ]


def test_expecting_nothing_committed_succeeds_when_nothing_is(tmp_path):
    report = run_conversations(
        write(tmp_path, conversation("none", ["table for 4 tomorrow at 7pm", "Alex", "no", "bye"], []))
    )
    assert only(report)["outcome"] == "success" and report["overall"]["task_success"] == 1


def test_a_pattern_checks_free_text_and_the_frozen_clock_reads_relative_dates(tmp_path):
    description = {"$pattern": "(?i)pick me up at 7 ?pm"}
    good = conversation(
        "ride",
        ["Jane", "102", "please pick me up at 7pm instead"],
        [
            {
                "tool": "change_ride",
                "arguments": {"ride_id": 102, "customer_name": "Jane", "change_description": description},
            }
        ],
        flow="ride_change",
    )
    bad = conversation(
        "ride-bad",
        ["Jane", "102", "drop me at the station"],
        [
            {
                "tool": "change_ride",
                "arguments": {"ride_id": 102, "customer_name": "Jane", "change_description": description},
            }
        ],
        flow="ride_change",
    )
    friday = conversation(
        "friday",
        ["table for 2 on friday at 8pm", "Alex", "yes"],
        [{"tool": "book_table", "arguments": {**BOOKING, "party_size": 2, "date": "2026-11-27", "time": "20:00"}}],
    )
    report = run_conversations(write(tmp_path, good, bad, friday))
    outcomes = {c["id"]: c["outcome"] for c in report["conversations"]}
    assert outcomes == {"ride": "success", "ride-bad": "wrong_commit", "friday": "success"}
    bad_report = next(c for c in report["conversations"] if c["id"] == "ride-bad")
    assert bad_report["slot_errors"][0]["expected"] == description  # shown back as JSON


def test_turn_expectations_are_reported_but_do_not_decide_success(tmp_path):
    line = conversation("acts", [], [{"tool": "book_table", "arguments": BOOKING}])
    line["turns"] = [
        {"user": "table for 4 tomorrow at 7pm", "acts": ["ask_party_size"]},
        {"user": "Alex"},
        {"user": "yes"},
    ]
    conv = only(run_conversations(write(tmp_path, line)))
    assert conv["success"] is True
    assert len(conv["turn_problems"]) == 1 and "acts differ" in conv["turn_problems"][0]


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("not json", "suite.jsonl:1: not valid JSON"),
        (
            '{"id": "x", "flow": "flows/restaurant_booking.json", "now": "2026-11-23", '
            '"turns": [], "tool_calls": [], "extra": 1}',
            "unknown key(s) 'extra'",
        ),
        (
            '{"id": "x", "flow": "flows/restaurant_booking.json", "now": "2026-11-23", "turns": [{"user": "hi"}]}',
            "missing key(s) 'tool_calls'",
        ),
        (
            '{"id": "x", "flow": "flows/nowhere.json", "now": "2026-11-23", '
            '"turns": [{"user": "hi"}], "tool_calls": []}',
            "flow file 'flows/nowhere.json' not found",
        ),
        (
            '{"id": "x", "flow": "flows/restaurant_booking.json", "now": "soon", '
            '"turns": [{"user": "hi"}], "tool_calls": []}',
            "(x): Invalid isoformat",
        ),
        (
            '{"id": "x", "flow": "flows/restaurant_booking.json", "now": "2026-11-23", '
            '"turns": [{"text": "hi"}], "tool_calls": []}',
            "unknown key(s) 'text' in a scripted turn",
        ),
    ],
)
def test_a_bad_suite_line_is_a_clear_error_naming_the_line(tmp_path, line, message):
    path = tmp_path / "suite.jsonl"
    path.write_text(line + "\n", encoding="utf-8")
    with pytest.raises(SuiteError) as error:
        load_suite(path)
    assert message in str(error.value)
    assert str(path) in str(error.value)


def test_flows_are_found_relative_to_the_suite_s_folders(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # the repository's flows/ is then found from the suite file, not the working directory
    suite = load_suite(Path(__file__).resolve().parents[1] / "data" / "customer_conversations" / "suite.jsonl")
    assert all(c.flow.is_file() for c in suite.conversations)


def test_the_command_prints_the_table_and_writes_the_report(tmp_path, capsys):
    path = write(
        tmp_path,
        conversation(
            "ok", ["table for 4 tomorrow at 7pm", "Alex", "yes"], [{"tool": "book_table", "arguments": BOOKING}]
        ),
        conversation(
            "wrong",
            ["table for 4 tomorrow at 7pm", "Alex", "yes"],
            [{"tool": "book_table", "arguments": {**BOOKING, "time": "20:00"}}],
        ),
    )
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    out = tmp_path / "report.json"
    assert run(parser.parse_args([str(path), "--out", str(out), "--show", "--no-progress"])) == 0
    printed = capsys.readouterr().out
    assert "--- wrong [wrong_commit] restaurant_booking" in printed
    assert "restaurant_booking.time (time): expected '20:00', got '19:00'" in printed
    report = json.loads(out.read_text())
    assert report["overall"]["task_success"] == 1 and report["overall"]["wrong_commits"] == 1
    assert format_table(report) in printed
    assert run(parser.parse_args([str(tmp_path / "missing.jsonl")])) == 2
    assert run(parser.parse_args([str(path), "--understander", "gguf"])) == 2
    assert "needs --model" in capsys.readouterr().err


class ModelOnNames(RulesUnderstander):
    """The rules' reading, reported as one model call when the message is a name (stands in for a model)."""

    def understand(self, state: UnderstandingState, text: str, **kwargs: Any) -> Parse:
        parse = super().understand(state, text, **kwargs)
        if text in ("Alex", "Sam"):
            parse.path, parse.model_calls = "model", 1
        return parse


def test_the_report_counts_the_user_turns_that_made_a_model_call(tmp_path):
    path = write(
        tmp_path,
        conversation(
            "ok", ["table for 4 tomorrow at 7pm", "Alex", "yes"], [{"tool": "book_table", "arguments": BOOKING}]
        ),
        conversation("short", ["table for 2 tomorrow at 7pm", "Sam"], []),
    )
    report = run_conversations(path, ModelOnNames())
    assert report["model_turns"] == {"turns": 5, "with_model_call": 2, "share": 40.0}
    assert [c["model_turns"]["with_model_call"] for c in report["conversations"]] == [1, 1]
    assert "user turns with a model call: 2 of 5 (40.0%)" in format_table(report)
    assert run_conversations(path)["model_turns"] == {"turns": 5, "with_model_call": 0, "share": 0.0}
