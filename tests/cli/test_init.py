"""``fsmdial init DIR``: a starter project that validates, chats and passes its own tests as written."""

from __future__ import annotations

import datetime as dt
import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from fsmdial.cli import main
from fsmdial.errors import FsmdialError
from fsmdial.scaffold import STARTER_FILES, DirectoryNotEmpty, write_project

FILES = {"README.md", "flow.json", "tools.py", "conftest.py", "test_flow.py", "pyproject.toml"}
ROOT = Path(__file__).resolve().parents[2]


def fsmdial(*args: str, cwd: Path, stdin: str = "") -> subprocess.CompletedProcess[str]:
    """``fsmdial ARGS`` in a fresh interpreter, run from ``cwd`` (as the starter's README says to)."""
    return subprocess.run(
        [sys.executable, "-m", "fsmdial.cli", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=120,
    )


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("starter") / "bike_shop"
    done = fsmdial("init", str(folder), cwd=folder.parent)
    assert done.returncode == 0, done.stderr
    assert str(folder) in done.stdout and "fsmdial chat flow.json --tools tools:tools" in done.stdout
    return folder


def test_init_writes_the_starter_files(project):
    assert {path.name for path in project.iterdir()} == FILES == set(STARTER_FILES)
    readme = (project / "README.md").read_text()
    for command in ("fsmdial validate flow.json", "fsmdial chat flow.json --tools tools:tools", "pytest"):
        assert command in readme


def test_the_starter_flow_validates_without_warnings(project):
    done = fsmdial("validate", "flow.json", cwd=project)
    assert done.returncode == 0 and done.stdout.startswith("flow.json: ok"), done.stderr
    assert done.stderr == ""


def test_the_starter_flow_uses_built_in_types_opening_days_and_hours_and_a_committing_confirmation(project):
    from fsmdial.flow import ConfirmNode, ExternalActionNode, RequestNode
    from fsmdial.loader import load_flow

    flow = load_flow(project / "flow.json")
    slots = flow.slots()
    assert {"person_name", "phone", "categorical", "text", "date", "time"} <= {s.type.value for s in slots.values()}
    hours = [s for s in slots.values() if s.type.value == "time"]
    assert hours and all(s.earliest and s.latest and s.not_past_with for s in hours)
    days = [s for s in slots.values() if s.type.value == "date"]
    assert days and all(s.open_days == ["tuesday", "wednesday", "thursday", "friday", "saturday"] for s in days)
    assert any(isinstance(node, ConfirmNode) for node in flow.nodes)
    assert any(isinstance(node, ExternalActionNode) and node.commits for node in flow.nodes)
    assert any(isinstance(node, RequestNode) for node in flow.nodes)


def test_the_starter_chats_with_its_python_tool(project):
    said = "\n".join(
        [
            "hi, I'd like to book a repair",
            "I'm Sam Jones, my number is 07700 900123",
            "a road bike",
            "the gears are slipping",
            "Wednesday next week at 10am",  # the machine's clock: always ahead, always an open day's hours
            "yes",
            "bye",
        ]
    )
    done = fsmdial("chat", "flow.json", "--tools", "tools:tools", cwd=project, stdin=said + "\n")
    assert done.returncode == 0, done.stderr
    assert "not registered" not in done.stdout + done.stderr  # the tool is the project's own, no stand-in
    assert "Your reference is R1001" in done.stdout


def test_the_starter_passes_its_own_tests_and_benchmark(project):
    env = {key: value for key, value in os.environ.items() if not key.startswith(("PYTEST_", "FSMDIAL_MODEL"))}
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"],
        capture_output=True,
        text=True,
        cwd=project,
        env=env,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert " passed" in done.stdout and "failed" not in done.stdout
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--benchmark-only"],
        capture_output=True,
        text=True,
        cwd=project,
        env=env,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "benchmark" in done.stdout and "skipped" in done.stdout  # the conversation tests are not benchmarks


def test_init_refuses_a_directory_that_is_not_empty(tmp_path, capsys):
    (tmp_path / "notes.txt").write_text("mine")
    assert main(["init", str(tmp_path)]) == 1
    error = capsys.readouterr().err
    assert error.startswith("error: ") and str(tmp_path) in error and "--force" in error
    assert [path.name for path in tmp_path.iterdir()] == ["notes.txt"]
    with pytest.raises(DirectoryNotEmpty) as caught:
        write_project(tmp_path)
    assert isinstance(caught.value, FsmdialError) and caught.value.path == tmp_path


def test_force_writes_the_starter_over_what_is_there(tmp_path):
    (tmp_path / "notes.txt").write_text("mine")
    (tmp_path / "flow.json").write_text("{}")
    assert main(["init", str(tmp_path), "--force"]) == 0
    assert (tmp_path / "notes.txt").read_text() == "mine"
    assert (tmp_path / "flow.json").read_text() == STARTER_FILES["flow.json"]


def test_init_makes_the_directory_and_refuses_a_file(tmp_path, capsys):
    target = tmp_path / "a" / "b"
    assert write_project(target) == sorted(target / name for name in STARTER_FILES)
    (tmp_path / "file").write_text("x")
    assert main(["init", str(tmp_path / "file")]) == 1
    assert "is a file" in capsys.readouterr().err


# ------------------------------------------------------------------ a value's words in a sentence with its noun


def _texts(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for inner in value.values():
            yield from _texts(inner)
    elif isinstance(value, list):
        for inner in value:
            yield from _texts(inner)


def doubled_nouns(document: dict[str, Any]) -> list[str]:
    """Templates where a categorical slot is followed by the noun one of its values ends with: "your {bike} bike"
    reads "your e-bike bike" for the value "e-bike" (and "{box} boxes" "fruit box boxes")."""
    nouns = {
        slot["name"]: {re.split(r"[\s-]+", str(value).casefold())[-1] for value in slot["values"]}
        for node in document.get("nodes", [])
        if isinstance(node.get("slots"), list)
        for slot in node["slots"]
        if slot.get("type") == "categorical" and slot.get("values")
    }
    found = []
    for text in _texts(document.get("nodes", [])) if nouns else ():
        for placeholder in re.finditer(r"\{(\w+)(?::[^}]*)?\}\s+(\w+)", text):
            slot, word = placeholder.group(1), placeholder.group(2).casefold()
            if slot in nouns and {word, word.removesuffix("s"), word.removesuffix("es")} & nouns[slot]:
                found.append(text)
    return found


def test_the_doubled_noun_check_finds_the_starters_old_sentence():
    bike = {"name": "bike", "type": "categorical", "values": ["road", "e-bike"]}
    old = {"nodes": [{"id": "ask", "type": "request", "slots": [bike]}, {"id": "ok", "message": "your {bike} bike"}]}
    assert doubled_nouns(old) == ["your {bike} bike"]
    boxes = {**bike, "name": "box", "values": ["fruit box"]}
    assert doubled_nouns({"nodes": [{"slots": [boxes], "message": "two {box} boxes"}]}) == ["two {box} boxes"]
    assert doubled_nouns({"nodes": [{"slots": [bike], "message": "your {bike} (a bike)"}]}) == []


def test_no_message_of_the_starter_or_the_shipped_flows_doubles_a_values_noun():
    documents = {"starter flow.json": json.loads(STARTER_FILES["flow.json"])}
    for path in [*ROOT.glob("flows/**/*.json"), *ROOT.glob("examples/**/*.json")]:
        document = json.loads(path.read_text(encoding="utf-8"))
        if isinstance(document, dict) and isinstance(document.get("nodes"), list):
            documents[str(path.relative_to(ROOT))] = document
    assert len(documents) > 5
    assert {name: found for name, document in documents.items() if (found := doubled_nouns(document))} == {}


def test_the_starter_says_an_e_bike_is_an_electric_bike():
    from fsmdial.runtime import Dialogue
    from fsmdial.understand.rules import RulesUnderstander

    flow = json.loads(STARTER_FILES["flow.json"])
    dialogue = Dialogue(
        flow, stand_in_tools=True, understander=RulesUnderstander(), clock=lambda: dt.datetime(2025, 6, 13, 12)
    )
    dialogue.start()
    for said in ("I'm Sam Jones, my number is 07700 900123", "an e-bike", "the brakes squeak"):
        dialogue.turn(said)
    assert dialogue.slots["bike"] == "electric"
    (confirmation,) = dialogue.turn("tomorrow at 10am").messages
    assert "your electric bike (the brakes squeak)" in confirmation and "e-bike bike" not in confirmation
