"""``fsmdial chat``: trace lines as JSON whatever the values."""

from __future__ import annotations

from pathlib import Path

import orjson

from fsmdial.cli.chat import json_line
from tests.conftest import FLOWS, REPO, run_cli
from tests.flows import small_flow

fsmdial = run_cli


def test_trace_lines_take_integers_beyond_64_bits() -> None:
    assert json_line({"n": 2**70, "s": "x"}) == '{"n":' + str(2**70) + ',"s":"x"}'
    assert json_line({"n": 1}) == '{"n":1}'


def test_chat_trace_shows_a_huge_tool_argument(tmp_path: Path) -> None:
    doc = small_flow()
    doc["nodes"].insert(1, {"id": "act", "type": "external_action", "tool": "t", "arguments": {"n": {"slot": "size"}}})
    doc["edges"] = [{"source": "ask", "target": "act"}, {"source": "act", "target": "done"}]
    path = tmp_path / "flow.json"
    path.write_bytes(orjson.dumps(doc))
    result = fsmdial("chat", "--trace", str(path), stdin="it is 123456789012345678901234567890\n")
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stdout + result.stderr


def test_chat_with_several_flows_never_exits_with_a_traceback():
    import subprocess
    import sys

    lines = [
        "9" * 5000,
        "\u202e\u2028\u2029\x00\ufeff",
        "{0.__class__}",
        "book a table" + "!" * 3000,
        "Alex",
        "\udcff".encode("utf-8", "surrogatepass").decode("utf-8", "replace"),
        "bye",
        "still there?",
    ]
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "fsmdial.cli",
            "chat",
            str(FLOWS / "restaurant_booking.json"),
            str(FLOWS / "ride_change.json"),
        ],
        input="".join(line + "\n" for line in lines),
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=120,
    )
    assert result.returncode == 0 and "Traceback" not in result.stderr, result.stderr
    assert "error:" not in result.stdout
    bot = [line for line in result.stdout.splitlines() if line.startswith("bot: ")]
    assert bot[0] == "bot: Hello! How can I help you?"
    assert "bot: Sure! What name should the booking be under?" in bot
    assert bot[-1] == "bot: Goodbye, hope to see you soon!"  # chat stops after the goodbye
