"""Issue 33 #5 and #6: ``fsmdial import sgd`` and ``fsmdial import star`` on hostile input.

5. A file named from the data (an SGD ``service_name``, a STAR task) never leaves ``--out``: a name that is not a
   plain file name is an error naming it and the input file, never cleaned silently; an existing file is kept
   unless ``--force``; two items of one name are an error, not one file written twice.
6. A hostile input file (nested 100,000 deep, a Latin-1 byte, ``/dev/zero``, not JSON, a wrong shape) is a typed
   error naming the file: the command exits 1 with a message, never with a traceback.
"""

from __future__ import annotations

import copy
import json
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_sgd import HOTELS, RESTAURANTS
from test_star_importer import write_grooming_task

from fsmdial.cli import main
from fsmdial.errors import FlowError, FsmdialError
from fsmdial_eval.importers.sgd import import_schema, read_schema, service_to_flow_dict
from fsmdial_eval.importers.star import import_star_task, task_names
from fsmdial_eval.importers.star_format import StarFormatError

HOSTILE_NAMES = [
    "../x",
    "../../escaped",
    "{root}/absolute",
    "a/b",
    "a\\b",
    "..",
    ".",
    "",
    "x\x00y",
    ".hidden",
    "-rf",
    "a:b",
    "line\nbreak",
    "x" * 300,
]


def tree(root: Path) -> set[Path]:
    return {path for path in root.rglob("*")}


def service(name: Any) -> dict[str, Any]:
    return {**copy.deepcopy(RESTAURANTS), "service_name": name}


def write_schema(path: Path, services: Any) -> Path:
    path.write_text(json.dumps(services), encoding="utf-8")
    return path


def run(*argv: str) -> int:
    return main(list(argv))


# ------------------------------------------------------------------ 5. names from the data stay inside --out


@pytest.mark.parametrize("name", HOSTILE_NAMES)
def test_an_sgd_service_name_never_names_a_file_outside_out(tmp_path: Path, capsys, name: str) -> None:
    name = name.replace("{root}", str(tmp_path))
    schema = write_schema(tmp_path / "schema.json", [service(name), HOTELS])
    out = tmp_path / "work" / "flows"
    out.parent.mkdir()
    (out.parent / "x.json").write_text("keep me")  # what '../x' would overwrite
    before = tree(tmp_path)
    assert run("import", "sgd", str(schema), "--out", str(out)) == 1
    err = capsys.readouterr().err
    assert repr(name) in err and str(schema) in err
    assert "Traceback" not in err
    assert (out.parent / "x.json").read_text() == "keep me"
    assert tree(tmp_path) - before <= {out, out / "Hotels_9.json"}  # the good service is still written


def test_an_existing_file_is_kept_without_force(tmp_path: Path, capsys) -> None:
    schema = write_schema(tmp_path / "schema.json", [HOTELS, RESTAURANTS])
    out = tmp_path / "flows"
    out.mkdir()
    (out / "Hotels_9.json").write_text("my own edits")
    assert run("import", "sgd", str(schema), "--out", str(out)) == 1
    err = capsys.readouterr().err
    assert "Hotels_9.json" in err and "--force" in err
    assert (out / "Hotels_9.json").read_text() == "my own edits"
    assert json.loads((out / "Restaurants_9.json").read_text())["name"] == "Restaurants_9"
    assert run("import", "sgd", str(schema), "--out", str(out), "--force") == 0
    assert json.loads((out / "Hotels_9.json").read_text())["name"] == "Hotels_9"


def test_a_symlink_in_out_is_replaced_with_force_never_followed(tmp_path: Path, capsys) -> None:
    schema = write_schema(tmp_path / "schema.json", [HOTELS])
    out = tmp_path / "flows"
    out.mkdir()
    target = tmp_path / "elsewhere.txt"
    target.write_text("not yours")
    (out / "Hotels_9.json").symlink_to(target)
    assert run("import", "sgd", str(schema), "--out", str(out)) == 1
    assert target.read_text() == "not yours"
    assert run("import", "sgd", str(schema), "--out", str(out), "--force") == 0
    assert target.read_text() == "not yours" and not (out / "Hotels_9.json").is_symlink()
    capsys.readouterr()


def test_two_services_of_one_name_are_an_error_even_with_force(tmp_path: Path, capsys) -> None:
    other = {**copy.deepcopy(HOTELS), "description": "the second one"}
    schema = write_schema(tmp_path / "schema.json", [HOTELS, other])
    out = tmp_path / "flows"
    assert run("import", "sgd", str(schema), "--out", str(out), "--force") == 1
    assert "'Hotels_9'" in capsys.readouterr().err
    assert json.loads((out / "Hotels_9.json").read_text())["description"] == HOTELS["description"]


@pytest.mark.parametrize("name", ["../pet_grooming", "/etc/passwd", "a/b", "..", ""])
def test_a_star_task_name_never_leaves_the_copy_or_out(tmp_path: Path, capsys, name: str) -> None:
    root = write_grooming_task(tmp_path / "star")
    out = tmp_path / "flows"
    before = tree(tmp_path)
    assert run("import", "star", str(root), "--out", str(out), "--no-overlays", "--tasks", name) == 1
    err = capsys.readouterr().err
    assert repr(name) in err and "Traceback" not in err
    assert tree(tmp_path) - before <= {out}


def test_star_keeps_an_existing_flow_without_force(tmp_path: Path, capsys) -> None:
    root = write_grooming_task(tmp_path / "star")
    out = tmp_path / "flows"
    out.mkdir()
    (out / "pet_grooming.json").write_text("mine")
    assert run("import", "star", str(root), "--out", str(out), "--no-overlays") == 1
    assert "--force" in capsys.readouterr().err and (out / "pet_grooming.json").read_text() == "mine"
    assert run("import", "star", str(root), "--out", str(out), "--no-overlays", "--force") == 0
    assert json.loads((out / "pet_grooming.json").read_text())["name"]
    capsys.readouterr()


def test_a_star_task_folder_with_an_odd_name_is_refused_by_name(tmp_path: Path, capsys) -> None:
    root = write_grooming_task(tmp_path / "star")
    odd = root / "tasks" / ".sneaky"
    odd.mkdir()
    (odd / ".sneaky.json").write_text((root / "tasks" / "pet_grooming" / "pet_grooming.json").read_text())
    out = tmp_path / "flows"
    assert run("import", "star", str(root), "--out", str(out), "--no-overlays") == 1
    assert "'.sneaky'" in capsys.readouterr().err
    assert {p.name for p in out.iterdir()} == {"pet_grooming.json"}


# ------------------------------------------------------------------ 6. hostile files: typed errors naming the file

DEEP = b"[" * 100_000 + b"]" * 100_000
HOSTILE_FILES = {
    "deep": DEEP,
    "deep-objects": b'{"a":' * 100_000 + b"1" + b"}" * 100_000,
    "latin-1": b'[{"service_name": "caf\xe9"}]',
    "not-json": b"[{,]",
    "empty": b"",
    "a-number": b"12",
    "nul": b"\x00\x00",
}


@pytest.mark.parametrize("kind", sorted(HOSTILE_FILES))
def test_a_hostile_sgd_schema_is_a_typed_error_naming_the_file(tmp_path: Path, capsys, kind: str) -> None:
    schema = tmp_path / "schema.json"
    schema.write_bytes(HOSTILE_FILES[kind])
    with pytest.raises(FsmdialError, match="schema.json"):
        read_schema(schema)
    with pytest.raises(FsmdialError, match="schema.json"):
        import_schema(schema)
    assert run("import", "sgd", str(schema), "--out", str(tmp_path / "flows")) == 1
    err = capsys.readouterr().err
    assert str(schema) in err and "Traceback" not in err


def test_an_endless_sgd_schema_is_refused_by_size(tmp_path: Path, capsys) -> None:
    assert run("import", "sgd", "/dev/zero", "--out", str(tmp_path / "flows")) == 1
    err = capsys.readouterr().err
    assert "/dev/zero" in err and "MiB" in err
    with pytest.raises(FsmdialError, match="larger than"):
        read_schema("/dev/zero")


def test_a_missing_or_unreadable_schema_is_a_typed_error(tmp_path: Path, capsys) -> None:
    for path in (tmp_path / "missing.json", tmp_path):
        with pytest.raises(FsmdialError, match=str(path)):
            read_schema(path)
        assert run("import", "sgd", str(path), "--out", str(tmp_path / "flows")) == 1
        assert str(path) in capsys.readouterr().err


def first_slot(**fields: Any) -> dict[str, Any]:
    shaped = copy.deepcopy(RESTAURANTS)
    shaped["slots"][0].update(fields)
    return shaped


SHAPES: list[Any] = [
    {**copy.deepcopy(RESTAURANTS), "slots": "city"},
    {**copy.deepcopy(RESTAURANTS), "description": ["not", "text"]},
    {**copy.deepcopy(RESTAURANTS), "intents": [{**RESTAURANTS["intents"][0], "required_slots": 5}]},
    {**copy.deepcopy(RESTAURANTS), "intents": [{**RESTAURANTS["intents"][0], "required_slots": [["city"]]}]},
    {**copy.deepcopy(RESTAURANTS), "intents": [{**RESTAURANTS["intents"][0], "optional_slots": ["cuisine", 3]}]},
    {**copy.deepcopy(RESTAURANTS), "intents": [{**RESTAURANTS["intents"][0], "description": 7}]},
    first_slot(is_categorical=True, possible_values=["1", "9" * 5000]),
    first_slot(is_categorical=True, possible_values="abc"),
    first_slot(is_categorical=1, possible_values=[{"a": 1}]),
    first_slot(description=None),
    {**copy.deepcopy(RESTAURANTS), "slots": [{"name": "", "description": "empty name"}]},
]


@pytest.mark.parametrize("index", range(len(SHAPES)))
def test_a_service_of_the_wrong_shape_is_a_flow_error(index: int) -> None:
    try:
        service_to_flow_dict(SHAPES[index], "schema.json[0]")
    except FlowError as exc:
        assert all(issue.message for issue in exc.issues)


@pytest.mark.parametrize("part", ["task", "api", "responses", "nlu"])
@pytest.mark.parametrize("kind", ["deep", "latin-1", "not-json", "dev-zero"])
def test_a_hostile_star_file_is_a_typed_error_naming_the_file(tmp_path: Path, capsys, part: str, kind: str) -> None:
    root = write_grooming_task(tmp_path / "star")
    folder = root / "tasks" / "pet_grooming"
    path = {
        "task": folder / "pet_grooming.json",
        "api": root / "apis" / "pet_grooming.json",
        "responses": folder / "responses.json",
        "nlu": folder / "wizard_nlu_training_data.md",
    }[part]
    if kind == "dev-zero":
        path.unlink()
        path.symlink_to("/dev/zero")
    else:
        path.write_bytes({"deep": DEEP, "latin-1": b'{"hello": "caf\xe9"}', "not-json": b"{"}[kind])
    if part == "nlu" and kind in ("deep", "not-json"):
        import_star_task(root, "pet_grooming", overlays=False)  # markdown: any UTF-8 text is read
        return
    with pytest.raises(StarFormatError, match=path.name):
        import_star_task(root, "pet_grooming", overlays=False)
    assert run("import", "star", str(root), "--out", str(tmp_path / "flows"), "--no-overlays") == 1
    err = capsys.readouterr().err
    assert path.name in err and "Traceback" not in err


def test_a_folder_that_is_not_a_star_copy_is_a_typed_error(tmp_path: Path, capsys) -> None:
    with pytest.raises(StarFormatError, match="tasks"):
        task_names(tmp_path)
    assert run("import", "star", str(tmp_path / "nowhere"), "--out", str(tmp_path / "flows")) == 1
    assert "nowhere" in capsys.readouterr().err


# ------------------------------------------------------------------ fuzz: names, nesting, bytes

NAMES = st.one_of(
    st.sampled_from(HOSTILE_NAMES + ["Hotels_9", "Restaurants_9", "Café_1", "a b", "con", "x.json", "~"]),
    st.text(st.characters(blacklist_characters="/", blacklist_categories=("Cs",)), max_size=30),
)
"""Names from the data ("{root}": the fuzz run's own folder, so that an absolute name that escaped stays in it)."""
JSON_LEAVES = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False), st.text(max_size=10))
JSON = st.recursive(
    JSON_LEAVES,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)),
    max_leaves=20,
)


def nested(depth: int, inner: Any) -> Any:
    for index in range(depth):
        inner = [inner] if index % 2 else {"slots": inner}
    return inner


@st.composite
def sgd_services(draw: st.DrawFn) -> Any:
    base = copy.deepcopy(draw(st.sampled_from([HOTELS, RESTAURANTS])))
    base["service_name"] = draw(NAMES)
    targets = {"service": base, "slot": base["slots"][0], "intent": base["intents"][0]}  # before any is replaced
    for _ in range(draw(st.integers(0, 3))):
        where = draw(st.sampled_from(["service", "slot", "intent"]))
        key = draw(
            st.sampled_from(
                [
                    "name",
                    "description",
                    "slots",
                    "intents",
                    "possible_values",
                    "is_categorical",
                    "required_slots",
                    "optional_slots",
                    "is_transactional",
                    "service_name",
                ]
            )
        )
        value = draw(st.one_of(JSON, st.integers(0, 300).map(lambda d: nested(d, 1))))
        targets[where][key] = value
    return base


def fuzz_sgd(payload: bytes, force: bool) -> None:
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        schema = root / "in" / "schema.json"
        schema.parent.mkdir()
        schema.write_bytes(payload.replace(b"{root}", folder.encode()))
        (root / "in" / "x.json").write_text("keep")
        out = root / "in" / "out"
        before = tree(root)
        code = run("import", "sgd", str(schema), "--out", str(out), *(["--force"] if force else []))
        assert code in (0, 1)
        assert (root / "in" / "x.json").read_text() == "keep"
        new = tree(root) - before
        assert all(path == out or path.parent == out for path in new), new
        assert all(path.suffix == ".json" and not path.name.startswith(".") for path in new - {out})
        for path in new - {out}:
            json.loads(path.read_text(encoding="utf-8"))  # whole, valid documents only


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(services=st.lists(sgd_services(), max_size=3), force=st.booleans())
def test_fuzz_sgd_schemas_never_escape_and_never_crash(services: list[Any], force: bool, capsys) -> None:
    fuzz_sgd(json.dumps(services).encode(), force)
    capsys.readouterr()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    payload=st.one_of(
        st.binary(max_size=200),
        st.integers(0, 5000).map(lambda d: b"[" * d + b"]" * d),
        st.integers(0, 5000).map(lambda d: b'{"a":' * d + b"0" + b"}" * d),
        st.integers(0, 400).map(lambda d: json.dumps(nested(d, service("x"))).encode()),
        JSON.map(lambda v: json.dumps(v).encode()),
    )
)
def test_fuzz_sgd_bytes_and_nesting_are_typed_errors(payload: bytes, capsys) -> None:
    fuzz_sgd(payload, force=False)
    capsys.readouterr()


@st.composite
def star_copies(draw: st.DrawFn) -> tuple[str, dict[str, bytes]]:
    """A task folder name and the files of one task (some replaced by hostile bytes or structures)."""
    from test_star_importer import GROOMING_API, GROOMING_GRAPH, GROOMING_REPLIES

    name = draw(
        st.one_of(
            st.sampled_from(["pet_grooming", "a b", "..x", "-x", "Café", ".hidden"]),
            st.text(st.characters(blacklist_characters="/\x00", blacklist_categories=("Cs",)), min_size=1, max_size=20),
        )
    )
    task: Any = {"task": "book_grooming", "replies": dict(GROOMING_REPLIES), "graph": dict(GROOMING_GRAPH)}
    api: Any = copy.deepcopy(GROOMING_API)
    parts = {"replies": task["replies"], "graph": task["graph"]}  # before the task is replaced
    for _ in range(draw(st.integers(0, 3))):
        which = draw(st.sampled_from(["replies", "graph", "api", "task"]))
        value = draw(st.one_of(JSON, st.integers(0, 300).map(lambda d: nested(d, "x"))))
        if which == "api":
            api[draw(st.sampled_from(["input", "output", "required"]))] = value
        elif which == "task":
            task = value
        else:
            parts[which][draw(st.sampled_from(sorted(parts[which]) + ["new"]))] = value
    files = {f"tasks/{name}/{name}.json": json.dumps(task).encode(), f"apis/{name}.json": json.dumps(api).encode()}
    if draw(st.booleans()):
        files[draw(st.sampled_from(sorted(files)))] = draw(st.binary(max_size=100))
    return name, files


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(copy_=star_copies(), force=st.booleans())
def test_fuzz_star_copies_never_escape_and_never_crash(copy_: tuple[str, dict[str, bytes]], force: bool, capsys):
    name, files = copy_
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        star = root / "star"
        try:
            for relative, payload in files.items():
                path = star / relative
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_bytes(payload)
        except OSError:
            return  # a name this file system does not take
        out = root / "out"
        before = tree(root)
        code = run("import", "star", str(star), "--out", str(out), "--no-overlays", *(["--force"] if force else []))
        assert code in (0, 1)
        new = tree(root) - before
        assert all(path == out or path.parent == out for path in new), new
    capsys.readouterr()


# ------------------------------------------------------------------ the harness's corpus readers, the same reader


@pytest.mark.parametrize("kind", ["deep", "latin-1", "not-json"])
def test_the_harness_reads_corpus_files_through_the_bounded_reader(tmp_path: Path, kind: str) -> None:
    from fsmdial.errors import InputFileError
    from fsmdial_eval.clemtodd.runner import load_tasks, report_from_logs
    from fsmdial_eval.corpus import read_dialogue
    from fsmdial_eval.messy import load_cases
    from fsmdial_eval.sgd.tracking import read_dialogues

    payload = HOSTILE_FILES[kind]
    path = tmp_path / "tasks" / "taskdata_dev.json"
    path.parent.mkdir()
    path.write_bytes(payload)
    readers = [
        lambda: read_dialogue(path),
        lambda: read_dialogues([path]),
        lambda: load_cases(path),
        lambda: load_tasks(tmp_path, "dev"),
        lambda: report_from_logs([path]),
    ]
    for read in readers:
        with pytest.raises(InputFileError, match="taskdata_dev.json"):
            read()
