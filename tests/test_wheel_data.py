"""Issue 22, item 20: the installed package holds every data file it reads, and a missing one fails loudly.

The wheel itself is built and run from a fresh venv by ``.ci/run`` (the wheel check); these tests pin
what decides its contents: every non-Python file under ``fsmdial/`` is package data (pyproject's
``package-data`` or MANIFEST.in), no package-data entry is dead, the data the evaluations read is found
from the package (not through the repository layout), and an install without it is an error.
"""

from __future__ import annotations

import datetime as dt
import fnmatch
import tomllib
from pathlib import Path

import pytest

import fsmdial
from fsmdial.importers import star_format
from fsmdial.importers.star_format import StarFormatError, load_overlay
from tests.conftest import REPO

PACKAGE = Path(fsmdial.__file__).resolve().parent


def package_data_patterns() -> list[str]:
    """pyproject's package-data globs and MANIFEST.in's recursive-includes, relative to ``fsmdial/``."""
    config = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = list(config["tool"]["setuptools"]["package-data"]["fsmdial"])
    for line in (REPO / "MANIFEST.in").read_text(encoding="utf-8").splitlines():
        words = line.split()
        if words[:1] == ["recursive-include"] and words[1].startswith("fsmdial/"):
            patterns += [f"{words[1].removeprefix('fsmdial/')}/{glob}" for glob in words[2:]]
    return patterns


def data_files() -> list[str]:
    skip = {".py", ".pyc"}
    return sorted(
        str(path.relative_to(PACKAGE))
        for path in PACKAGE.rglob("*")
        if path.is_file() and path.suffix not in skip and "__pycache__" not in path.parts
    )


def test_every_data_file_of_the_package_is_package_data() -> None:
    patterns = package_data_patterns()
    missing = [name for name in data_files() if not any(fnmatch.fnmatch(name, p) for p in patterns)]
    assert missing == []


def test_every_package_data_entry_matches_a_file() -> None:
    files = data_files()
    dead = [p for p in package_data_patterns() if not any(fnmatch.fnmatch(name, p) for name in files)]
    assert dead == []


def test_the_clemtodd_flows_are_found_from_the_package() -> None:
    from fsmdial.eval.clemtodd.runner import FLOW_NAMES, flows_dir

    folder = flows_dir().resolve()
    assert PACKAGE in folder.parents
    assert sorted(p.stem for p in folder.glob("*.json")) == sorted(FLOW_NAMES)


def test_missing_star_overlays_are_an_error_not_an_evaluation_without_them(tmp_path: Path, monkeypatch) -> None:
    assert load_overlay("weather") is not None and load_overlay("no_such_task") is None
    monkeypatch.setattr(star_format, "OVERLAY_DIR", tmp_path / "star_overlays")
    with pytest.raises(StarFormatError, match="no STAR overlays in .*star_overlays.*--no-overlays"):
        load_overlay("weather")


def test_missing_clemtodd_flows_are_an_error(tmp_path: Path, monkeypatch) -> None:
    from fsmdial.errors import FsmdialError
    from fsmdial.eval.clemtodd import runner

    monkeypatch.setattr(runner, "FLOWS_DIR", tmp_path)
    with pytest.raises(FsmdialError, match="restaurant.json"):
        runner.bundled_flows()


def test_an_evaluation_with_overlays_checks_them_before_it_starts(tmp_path: Path, monkeypatch) -> None:
    from fsmdial.eval.star import evaluate

    monkeypatch.setattr(star_format, "OVERLAY_DIR", tmp_path)
    with pytest.raises(StarFormatError, match="no STAR overlays"):
        evaluate(tmp_path, [], workers=2)  # before any pool worker starts (its initializer would fail in each)


def test_eval_messy_outside_a_checkout_names_what_it_needs(tmp_path: Path) -> None:
    from fsmdial.errors import SetupError
    from fsmdial.eval.messy import Case, case_state, load_cases

    with pytest.raises(SetupError, match="the labelled cases not found at .*run it from a checkout"):
        load_cases(tmp_path / "messy_utterances.json")
    case = Case("c", "restaurant_booking", "ask", "hi", {})
    with pytest.raises(SetupError, match="the example flows not found"):
        case_state(case, dt.datetime(2026, 11, 22), tmp_path / "flows")
