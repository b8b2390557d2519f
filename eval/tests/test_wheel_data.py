"""Issue 22, item 20, for the evaluation harness (fsmdial-eval): the installed package holds every data file it
reads, and a missing one fails loudly.

The harness's wheel is built, installed beside the engine's and run by ``.ci/wheel_check``; these tests pin what
decides its contents: every non-Python file under ``eval/fsmdial_eval/`` is package data (eval/pyproject.toml's
``package-data``), no entry is dead, the data the evaluations read is found from the package (not through the
repository layout), and an install without it is an error.
"""

from __future__ import annotations

import datetime as dt
import fnmatch
import tomllib
from pathlib import Path

import pytest

import fsmdial_eval
from fsmdial_eval.importers import star_format
from fsmdial_eval.importers.star_format import StarFormatError, load_overlay

PACKAGE = Path(fsmdial_eval.__file__).resolve().parent
REPO = Path(__file__).resolve().parents[2]


def package_data_patterns() -> list[str]:
    """eval/pyproject.toml's package-data globs, relative to ``fsmdial_eval/``."""
    config = tomllib.loads((REPO / "eval" / "pyproject.toml").read_text(encoding="utf-8"))
    return list(config["tool"]["setuptools"]["package-data"]["fsmdial_eval"])


def data_files() -> list[str]:
    return sorted(
        str(path.relative_to(PACKAGE))
        for path in PACKAGE.rglob("*")
        if path.is_file() and path.suffix not in {".py", ".pyc"} and "__pycache__" not in path.parts
    )


def test_every_data_file_of_the_harness_is_package_data() -> None:
    patterns = package_data_patterns()
    assert data_files() and [name for name in data_files() if not any(fnmatch.fnmatch(name, p) for p in patterns)] == []


def test_every_package_data_entry_of_the_harness_matches_a_file() -> None:
    files = data_files()
    assert [p for p in package_data_patterns() if not any(fnmatch.fnmatch(name, p) for name in files)] == []


def test_the_clemtodd_flows_are_found_from_the_package() -> None:
    from fsmdial_eval.clemtodd.runner import FLOW_NAMES, flows_dir

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
    from fsmdial_eval.clemtodd import runner

    monkeypatch.setattr(runner, "FLOWS_DIR", tmp_path)
    with pytest.raises(FsmdialError, match="restaurant.json"):
        runner.bundled_flows()


def test_an_evaluation_with_overlays_checks_them_before_it_starts(tmp_path: Path, monkeypatch) -> None:
    from fsmdial_eval.star import evaluate

    monkeypatch.setattr(star_format, "OVERLAY_DIR", tmp_path)
    with pytest.raises(StarFormatError, match="no STAR overlays"):
        evaluate(tmp_path, [], workers=2)  # before any pool worker starts (its initializer would fail in each)


def test_eval_messy_outside_a_checkout_names_what_it_needs(tmp_path: Path) -> None:
    from fsmdial.errors import SetupError
    from fsmdial_eval.messy import Case, case_state, load_cases

    with pytest.raises(SetupError, match="the labelled cases not found at .*run it from a checkout"):
        load_cases(tmp_path / "messy_utterances.json")
    case = Case("c", "restaurant_booking", "ask", "hi", {})
    with pytest.raises(SetupError, match="the example flows not found"):
        case_state(case, dt.datetime(2026, 11, 22), tmp_path / "flows")
