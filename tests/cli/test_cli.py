"""The command line, run as a user would (a subprocess reading stdin)."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest

from fsmdial.compiler import check_source
from fsmdial.errors import FlowError
from fsmdial.loader import MAX_FLOW_BYTES
from tests.conftest import FIXTURES, FLOWS, run_cli
from tests.conversations import SCRIPTS
from tests.flows import small_flow

fsmdial = run_cli


def test_validate_all_example_flows():
    result = fsmdial("validate", *sorted(str(p) for p in FLOWS.glob("*.json")))
    assert result.returncode == 0, result.stderr
    assert result.stdout.count(": ok (") == len(list(FLOWS.glob("*.json")))


@pytest.mark.parametrize("path", sorted((FIXTURES / "broken").glob("*.json")), ids=lambda p: p.name)
def test_validate_broken_flow_prints_one_error_line(path):
    result = fsmdial("validate", str(path))
    assert result.returncode == 1
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"{path}: error: ")


def test_validate_with_forced_format():
    assert fsmdial("validate", "--format", "chief", str(FLOWS / "ride_change.chief.json")).returncode == 0
    assert fsmdial("validate", "--format", "fsmdial", str(FLOWS / "ride_change.chief.json")).returncode == 1


@pytest.mark.parametrize("name", sorted(SCRIPTS))
def test_scripted_chat_reaches_tool_calls_and_final_messages(name):
    path, script = SCRIPTS[name]
    turns = script[1:]
    stdin = "".join(turn.user + "\n" for turn in turns)
    result = fsmdial("chat", str(FLOWS / path), "--trace", "--tools", "tests.example_tools:registry", stdin=stdin)
    assert result.returncode == 0, result.stderr
    traces = [orjson.loads(line[len("trace: ") :]) for line in result.stdout.splitlines() if line.startswith("trace: ")]
    assert len(traces) == len(turns) + 1
    made = [(call["tool"], call["arguments"]) for trace in traces for call in trace.get("tool_calls", [])]
    assert [tool for tool, _ in made] == [call.tool for turn in turns for call in turn.tool_calls]
    bot_lines = [line for line in result.stdout.splitlines() if line.startswith("bot: ")]
    assert bot_lines, result.stdout


def test_chat_trace_is_byte_identical_across_runs():
    stdin = "hi\nJane\n102\nchange the pickup time\nbye\n"
    first = fsmdial("chat", str(FLOWS / "ride_change.json"), "--trace", stdin=stdin)
    second = fsmdial("chat", str(FLOWS / "ride_change.json"), "--trace", stdin=stdin)
    assert first.returncode == 0 and first.stdout == second.stdout
    assert "timings_ms" not in first.stdout
    assert "[note] tool 'change_ride' is not registered" in first.stdout
    assert "bot: Goodbye. Enjoy your ride!" in first.stdout
    timed = fsmdial("chat", str(FLOWS / "ride_change.json"), "--timings", stdin=stdin)
    assert "timings_ms" in timed.stdout


def test_chat_chief_flow_runs():
    result = fsmdial("chat", str(FLOWS / "ride_change.chief.json"), stdin="John\n102\nchange pickup time\n")
    assert result.returncode == 0
    assert "bot: Alright, thats all changes done for you!" in result.stdout


def test_compile_writes_importable_source(tmp_path):
    target = tmp_path / "ride.py"
    result = fsmdial("compile", str(FLOWS / "ride_change.json"), "-o", str(target))
    assert result.returncode == 0, result.stderr
    again = fsmdial("compile", str(FLOWS / "ride_change.json"))
    assert target.read_text() == again.stdout
    namespace: dict = {}
    exec(compile(target.read_text(), str(target), "exec"), namespace)
    assert namespace["RideChangeFlow"].INITIAL == "ask_details"


def test_graph_prints_mermaid():
    result = fsmdial("graph", str(FLOWS / "restaurant_booking.json"))
    assert result.returncode == 0
    assert "stateDiagram-v2" in result.stdout
    assert "confirm_booking --> book_table" in result.stdout


def test_schema_is_the_flow_json_schema():
    result = fsmdial("schema")
    schema = orjson.loads(result.stdout)
    assert schema["title"] == "Flow"
    assert {"nodes", "edges", "global_actions", "fallbacks"} <= set(schema["properties"])


def test_help_lists_every_command():
    result = fsmdial("--help")
    for command in ("validate", "compile", "graph", "chat", "schema", "tiny-model"):
        assert command in result.stdout


def test_missing_flow_file_is_a_clear_error():
    result = fsmdial("validate", "no/such/flow.json")
    assert result.returncode == 1
    assert "cannot read flow file" in result.stderr


def test_import_sop_writes_a_flow_that_validates(tmp_path):
    target = tmp_path / "card.json"
    result = fsmdial("import", "sop", str(FLOWS / "card_activation.sop.json"), "--out", str(target))
    assert result.returncode == 0, result.stderr
    assert "4 inform_and_confirm" in result.stdout
    assert fsmdial("validate", str(target)).returncode == 0
    flow = orjson.loads(target.read_bytes())
    assert flow["start"] == "VerifyIdentity"


def test_import_and_eval_are_listed():
    result = fsmdial("--help")
    assert "import" in result.stdout and "eval" in result.stdout
    assert "sop" in fsmdial("import", "--help").stdout


def test_compile_command_checks_the_source_before_writing() -> None:
    with pytest.raises(FlowError, match="does not compile"):
        check_source("x = (" * 300 + ")" * 300)
    check_source("x = 1\n")


def test_validate_refuses_an_endless_file_quickly() -> None:
    result = fsmdial("validate", "/dev/zero")  # the helper's subprocess timeout bounds the time
    assert result.returncode == 1
    assert f"larger than {MAX_FLOW_BYTES // (1024 * 1024)} MiB" in result.stderr
    assert "Traceback" not in result.stderr


def test_validate_prints_warnings_and_still_succeeds(tmp_path: Path) -> None:
    path = tmp_path / "flow.json"
    doc = small_flow()
    doc["nodes"].insert(1, {"id": "told", "type": "inform", "message": "Noted."})
    doc["edges"].append({"source": "ask", "target": "told", "when": {"slot": "size", "op": "gt", "value": 3}})
    path.write_bytes(orjson.dumps(doc))
    result = fsmdial("validate", str(path))
    assert result.returncode == 0
    assert "warning: node told" in result.stderr
