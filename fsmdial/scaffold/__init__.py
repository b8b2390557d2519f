"""``fsmdial init DIR``: a starter project to change into your own.

The files are package data (``starter/*.tmpl``, written without the suffix, unchanged): a flow with the built-in
slot types, a date slot on opening days, a time slot bounded by opening hours and a committing confirmation; its
tool in Python; a pytest file using fsmdial's pytest plugin (conversations and a pytest-benchmark benchmark); a
README with its commands.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import Any

from ..errors import FsmdialError

SUFFIX = ".tmpl"


class InitError(FsmdialError):
    """``fsmdial init`` cannot write the starter project where asked (``path``: where)."""

    def __init__(self, path: Any, message: str):
        self.path = path
        super().__init__(message)


class DirectoryNotEmpty(InitError):
    """The folder ``fsmdial init`` was given has files already: nothing is written without ``--force``."""


def _starter_files() -> dict[str, str]:
    folder = resources.files(__package__).joinpath("starter")
    return {
        entry.name.removesuffix(SUFFIX): entry.read_text(encoding="utf-8")
        for entry in sorted(folder.iterdir(), key=lambda entry: entry.name)
        if entry.name.endswith(SUFFIX)
    }


STARTER_FILES: dict[str, str] = _starter_files()
"""File name -> text of every file ``fsmdial init`` writes."""


def write_project(folder: str | Path, *, force: bool = False) -> list[Path]:
    """Write the starter project into ``folder`` (made when missing) and return the files written.

    Raises :class:`DirectoryNotEmpty` when ``folder`` holds anything and ``force`` is false (nothing is
    written), :class:`InitError` when it is a file. With ``force``, the starter's files replace files of the
    same name; other files are left alone.
    """
    path = Path(folder)
    if path.exists() and not path.is_dir():
        raise InitError(path, f"{path} is a file, not a folder")
    if path.is_dir() and not force and any(path.iterdir()):
        raise DirectoryNotEmpty(
            path, f"{path} is not empty: choose a new or empty folder, or add --force to write the starter over it"
        )
    path.mkdir(parents=True, exist_ok=True)
    written = []
    for name, text in STARTER_FILES.items():
        target = path / name
        target.write_text(text, encoding="utf-8")
        written.append(target)
    return sorted(written)
