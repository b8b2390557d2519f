"""Issue 33 #6: every reader of a user's file bounds its size and nesting and raises typed, naming the file.

One reader (:mod:`fsmdial.userfiles`) serves the flow loader (``fsmdial validate``), ``fsmdial import sop``, the
conversation suites (``fsmdial eval conversations``) and the harness's importers: a file nested 100,000 deep, one
Latin-1 byte, ``/dev/zero``, a missing file or a folder is an :class:`~fsmdial.errors.InputFileError` (or the
caller's own typed error) naming the file, never a ``RecursionError``, ``UnicodeDecodeError`` or ``MemoryError``.
The CHIEF and SOP converters, given a hostile document directly, raise :class:`~fsmdial.errors.FlowError`.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fsmdial.cli import main
from fsmdial.errors import FlowError, FsmdialError, InputFileError
from fsmdial.importers.chief import chief_to_flow_dict
from fsmdial.importers.sop import sop_to_flow_dict
from fsmdial.loader import flow_from_document, load_flow
from fsmdial.testing.suites import SuiteError, load_suite
from fsmdial.userfiles import MAX_FILE_BYTES, MAX_NESTING, read_json, read_text
from tests.conftest import FLOWS

DEEP = b"[" * 100_000 + b"]" * 100_000
HOSTILE = {
    "deep-lists": DEEP,
    "deep-objects": b'{"a":' * 100_000 + b"1" + b"}" * 100_000,
    "latin-1": b'{"name": "caf\xe9"}',
    "not-json": b"{",
    "empty": b"",
    "nul": b"\x00",
    "lone-surrogate": b'{"name": "\\ud800"}',
    "nan": b'{"x": NaN}',
}
SOP = {"graph": {"Agent.Start": ["Agent.Ask"], "Agent.Ask": ["User.Yes"], "User.Yes": ["Agent.End"], "Agent.End": []}}


def nested(depth: int, inner: Any = 1) -> Any:
    for index in range(depth):
        inner = [inner] if index % 2 else {"k": inner}
    return inner


# ------------------------------------------------------------------ the reader


@pytest.mark.parametrize("kind", sorted(HOSTILE))
def test_a_hostile_json_file_is_an_input_file_error_naming_it(tmp_path: Path, kind: str) -> None:
    path = tmp_path / f"{kind}.json"
    path.write_bytes(HOSTILE[kind])
    with pytest.raises(InputFileError) as caught:
        read_json(path)
    assert caught.value.path == str(path) and str(path) in str(caught.value)
    assert isinstance(caught.value, FsmdialError) and isinstance(caught.value, ValueError)


def test_the_reader_says_where_a_byte_is_not_utf_8(tmp_path: Path) -> None:
    path = tmp_path / "latin.json"
    path.write_bytes(b'{\n  "name": "caf\xe9"\n}')
    with pytest.raises(InputFileError, match=r"not UTF-8.*line 2"):
        read_text(path)


def test_an_endless_file_is_refused_by_its_size() -> None:
    with pytest.raises(InputFileError, match=f"larger than {MAX_FILE_BYTES // (1024 * 1024)} MiB"):
        read_json("/dev/zero")
    with pytest.raises(InputFileError, match="larger than 1 KiB|larger than 1024 bytes"):
        read_text("/dev/zero", limit=1024)


def test_missing_files_folders_and_bad_paths_are_typed(tmp_path: Path) -> None:
    for path in (tmp_path / "missing.json", tmp_path, "bad\x00path.json"):
        with pytest.raises(InputFileError, match="cannot read"):
            read_json(path)


def test_nesting_is_bounded_and_a_bom_is_read(tmp_path: Path) -> None:
    path = tmp_path / "ok.json"
    path.write_text(json.dumps(nested(MAX_NESTING)), encoding="utf-8")
    assert read_json(path) == nested(MAX_NESTING)
    path.write_text(json.dumps(nested(MAX_NESTING + 1)), encoding="utf-8")
    with pytest.raises(InputFileError, match=f"nested more than {MAX_NESTING} levels deep"):
        read_json(path)
    path.write_bytes(b'\xef\xbb\xbf{"a": 1}')
    assert read_json(path) == {"a": 1}


# ------------------------------------------------------------------ flows: fsmdial validate, load_flow


@pytest.mark.parametrize("kind", sorted(HOSTILE))
def test_a_hostile_flow_file_is_a_flow_error_naming_the_file(tmp_path: Path, capsys, kind: str) -> None:
    path = tmp_path / "flow.json"
    path.write_bytes(HOSTILE[kind])
    with pytest.raises(FlowError) as caught:
        load_flow(path)
    assert caught.value.source == str(path)
    assert main(["validate", str(path)]) == 1
    assert str(path) in capsys.readouterr().err


@pytest.mark.parametrize("fmt", ["chief", "sop", "auto"])
@pytest.mark.parametrize("depth", [60, 100, 5000, 100_000])
def test_deep_documents_are_flow_errors_in_every_format(fmt: str, depth: int) -> None:
    deep = nested(depth)
    documents = [
        {"nodes": [{"id": 1, "type": "request", "slots": {"x": {"type": "string", "examples": deep}}}], "edges": []},
        {"nodes": [], "edges": [{"source": 1, "target": 2, "condition": deep}]},
        {"graph": SOP["graph"], "messages": {"Agent.Ask": deep}},
        {"graph": SOP["graph"], "examples": {"User.Yes": [deep]}},
    ]
    for document in documents:
        with pytest.raises(FlowError):
            flow_from_document(document, format=fmt)
    with pytest.raises(FlowError):
        chief_to_flow_dict(documents[1])
    with pytest.raises(FlowError):
        sop_to_flow_dict(documents[2])


# ------------------------------------------------------------------ fsmdial import sop


@pytest.mark.parametrize("kind", sorted(HOSTILE))
def test_import_sop_on_a_hostile_file_exits_1_naming_it(tmp_path: Path, capsys, kind: str) -> None:
    path = tmp_path / "sop.json"
    path.write_bytes(HOSTILE[kind])
    assert main(["import", "sop", str(path), "--out", str(tmp_path / "flow.json")]) == 1
    assert str(path) in capsys.readouterr().err
    assert not (tmp_path / "flow.json").exists()


def test_import_sop_refuses_an_endless_file(tmp_path: Path, capsys) -> None:
    assert main(["import", "sop", "/dev/zero", "--out", str(tmp_path / "flow.json")]) == 1
    assert "/dev/zero" in capsys.readouterr().err


def test_import_sop_still_writes_a_good_flow(tmp_path: Path, capsys) -> None:
    path = tmp_path / "sop.json"
    path.write_text(json.dumps(SOP), encoding="utf-8")
    assert main(["import", "sop", str(path), "--out", str(tmp_path / "flow.json")]) == 0
    assert load_flow(tmp_path / "flow.json").name == "sop"
    capsys.readouterr()


# ------------------------------------------------------------------ conversation suites

GOOD = {"id": "a", "flow": str(FLOWS / "restaurant_booking.json"), "now": "2026-11-23T10:00", "turns": ["hi"]}
BAD_LINES: dict[str, bytes] = {
    "deep": DEEP,
    "latin-1": b'{"id": "caf\xe9"}',
    "bad-pattern": json.dumps(
        {**GOOD, "tool_calls": [{"tool": "book_table", "arguments": {"name": {"$pattern": "("}}}]}
    ).encode(),
    "arguments-list": json.dumps({**GOOD, "tool_calls": [{"tool": "t", "arguments": ["x"]}]}).encode(),
    "call-list": json.dumps({**GOOD, "tool_calls": [["t"]]}).encode(),
    "meta-list": json.dumps({"meta": ["x"]}).encode(),
    "meta-kinds-list": json.dumps({"meta": {"slot_kinds": ["x"]}}).encode(),
    "tags-number": json.dumps({**GOOD, "tool_calls": [], "tags": 5}).encode(),
    "turns-number": json.dumps({**GOOD, "tool_calls": [], "turns": 5}).encode(),
    "flow-too-long": json.dumps({**GOOD, "tool_calls": [], "flow": "x" * 5000}).encode(),
    "now-number": json.dumps({**GOOD, "tool_calls": [], "now": 5}).encode(),
}


@pytest.mark.parametrize("kind", sorted(BAD_LINES))
def test_a_hostile_suite_is_a_suite_error_naming_the_file(tmp_path: Path, capsys, kind: str) -> None:
    path = tmp_path / "suite.jsonl"
    path.write_bytes(json.dumps({**GOOD, "tool_calls": []}).encode() + b"\n" + BAD_LINES[kind] + b"\n")
    with pytest.raises(SuiteError, match="suite.jsonl"):
        load_suite(path)
    assert main(["eval", "conversations", str(path), "--no-progress"]) == 2
    assert str(path) in capsys.readouterr().err


def test_an_endless_suite_is_refused(capsys) -> None:
    with pytest.raises(SuiteError, match="/dev/zero.*larger than"):
        load_suite("/dev/zero")


# ------------------------------------------------------------------ fuzz

LEAVES = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False), st.text(max_size=12))
JSON = st.recursive(
    LEAVES,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=10), inner, max_size=4)),
    max_leaves=24,
)
PAYLOADS = st.one_of(
    st.binary(max_size=300),
    st.integers(0, 400).map(lambda d: json.dumps(nested(d)).encode()),
    st.integers(0, 5000).map(lambda d: b"[" * d + b"]" * d),
    JSON.map(lambda v: json.dumps(v).encode()),
)


@st.composite
def sop_documents(draw: st.DrawFn) -> Any:
    graph: dict[str, Any] = {key: list(value) for key, value in SOP["graph"].items()}
    document: dict[str, Any] = {"graph": graph}
    for _ in range(draw(st.integers(0, 3))):
        where = draw(st.sampled_from(["graph", "messages", "examples", "name", "vertex"]))
        value = draw(st.one_of(JSON, st.integers(0, 200).map(nested)))
        if where == "vertex":
            graph[draw(st.sampled_from(["Agent.", "User.", "Agent.X", "User.", "x"]) | st.text(max_size=8))] = value
        elif where == "graph":
            graph[draw(st.sampled_from(sorted(graph)))] = value
        else:
            document[where] = value
    return document


@st.composite
def chief_documents(draw: st.DrawFn) -> Any:
    node = {
        "id": draw(st.one_of(st.integers(), st.text(max_size=5))),
        "type": draw(
            st.sampled_from(["request", "external_action", "inform", "inform_and_confirm", "end", "other"]) | JSON
        ),
    }
    for key in draw(st.lists(st.sampled_from(["slots", "rule", "query", "action", "message", "question", "commits"]))):
        node[key] = draw(st.one_of(JSON, st.integers(0, 200).map(nested)))
    edge = {"source": 1, "target": draw(JSON), "condition": draw(st.one_of(JSON, st.integers(0, 200).map(nested)))}
    return {"nodes": [node, 1], "edges": [edge], "fallbacks": draw(JSON), "global_actions": draw(JSON)}


@settings(max_examples=120, deadline=None)
@given(document=st.one_of(sop_documents(), chief_documents()), fmt=st.sampled_from(["auto", "chief", "sop"]))
def test_fuzz_imported_formats_raise_only_flow_errors(document: Any, fmt: str) -> None:
    try:
        load_flow(json.dumps(document).encode(), format=fmt)
    except FlowError as exc:
        assert exc.issues
    for convert in (chief_to_flow_dict, sop_to_flow_dict):
        try:
            convert(document)
        except FlowError as exc:
            assert exc.issues


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(payload=PAYLOADS | sop_documents().map(lambda d: json.dumps(d).encode()))
def test_fuzz_import_sop_files_exit_0_or_1(payload: bytes, capsys) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "in.json"
        path.write_bytes(payload)
        code = main(["import", "sop", str(path), "--out", str(Path(folder) / "out.json")])
        assert code in (0, 1)
        if code == 0:
            load_flow(Path(folder) / "out.json")
    capsys.readouterr()


@settings(max_examples=80, deadline=None)
@given(lines=st.lists(PAYLOADS | JSON.map(lambda v: json.dumps({**GOOD, "tool_calls": v}).encode()), max_size=3))
def test_fuzz_suites_raise_only_suite_errors(lines: list[bytes]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "suite.jsonl"
        path.write_bytes(b"\n".join(lines))
        try:
            load_suite(path)
        except SuiteError as exc:
            assert str(path) in str(exc)
