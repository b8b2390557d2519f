"""Issue 22, item 20: the installed package holds every data file it reads.

The wheel itself is built and run from a fresh venv by ``.ci/run`` (the wheel check); these tests pin
what decides its contents: every non-Python file under ``fsmdial/`` is package data (pyproject's
``package-data`` or MANIFEST.in) and no package-data entry is dead. The evaluation harness's data (STAR
overlays, clem:todd flows) is fsmdial-eval's: eval/tests/test_wheel_data.py.
"""

from __future__ import annotations

import fnmatch
import tomllib
from pathlib import Path

import fsmdial
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
