"""Files named from the data an importer reads (an SGD ``service_name``, a STAR task), written inside one folder.

A name comes from someone else's file, so it is checked, never cleaned: a name that is not a plain file name
(``../x``, ``/etc/x``, ``a/b``, ``.hidden``, a control character, too long) is an :class:`OutputNameError` naming
it and the input file, and nothing is written for it. A file already there is kept unless ``force``
(:class:`OutputExistsError`); with ``force`` it is replaced whole (written beside it, then renamed over it), so a
symbolic link in the folder is replaced, never followed. Two items of one name in one run are an error, even with
``force``: the second would silently replace the first.
"""

from __future__ import annotations

import os
import re
import secrets
from pathlib import Path

from ..errors import FsmdialError

__all__ = ["MAX_NAME_BYTES", "NamedFiles", "OutputError", "OutputExistsError", "OutputNameError", "check_name"]

MAX_NAME_BYTES = 200
"""Longest name (UTF-8 bytes, before the suffix): file systems take 255."""

_PLAIN_NAME = re.compile(r"\w(?:[\w .-]*[\w-])?")
"""Letters, digits and ``_`` (any script), with ``-``, ``.`` and spaces inside; never a path, never hidden."""

NAME_RULE = "letters, digits, '_', and '-', '.' or spaces inside"


class OutputError(FsmdialError):
    """A file named from the input data was not written (see the module's docstring); the message says why."""


class OutputNameError(OutputError, ValueError):
    """A name from the input data cannot name a file in the output folder: it is not a plain file name, or it is
    used twice. ``name`` is the offending name, ``source`` the input file it came from."""

    def __init__(self, source: str, what: str, name: str, problem: str):
        self.source = source
        self.name = name
        super().__init__(f"{source}: {what} {name!r} {problem}")


class OutputExistsError(OutputError, FileExistsError):
    """The file an importer would write is already there, and ``--force`` was not given: it is kept."""


def check_name(name: object, *, source: str, what: str) -> str:
    """``name`` when it is a plain file name (see the module's docstring), else :class:`OutputNameError`."""
    if not isinstance(name, str):
        raise OutputNameError(source, what, str(name), f"is not text ({type(name).__name__}): it names no file")
    if not _PLAIN_NAME.fullmatch(name):
        raise OutputNameError(source, what, name, f"cannot name a file: a name is {NAME_RULE}")
    if len(name.encode("utf-8", "surrogatepass")) > MAX_NAME_BYTES:
        raise OutputNameError(source, what, name, f"cannot name a file: it is longer than {MAX_NAME_BYTES} bytes")
    return name


class NamedFiles:
    """Files ``<name><suffix>`` written into ``folder`` for the items of one input file ``source``."""

    def __init__(self, folder: str | os.PathLike[str], *, source: str, what: str, force: bool, suffix: str = ".json"):
        self.folder = Path(folder)
        self.source = source
        self.what = what
        self.force = force
        self.suffix = suffix
        self._taken: dict[str, str] = {}  # casefolded name -> the name (one file on a case-insensitive disk)

    def path_for(self, name: object) -> Path:
        """Where item ``name`` goes: the name checked (:func:`check_name`), and not used before in this run."""
        checked = check_name(name, source=self.source, what=self.what)
        earlier = self._taken.get(checked.casefold())
        if earlier is not None:
            same = "is" if earlier == checked else f"is the same file name as {earlier!r}, which is"
            raise OutputNameError(self.source, self.what, checked, f"{same} already written in this run")
        return self.folder / f"{checked}{self.suffix}"

    def write(self, name: object, text: str) -> Path:
        """Write ``text`` (UTF-8) as the file of item ``name``; returns its path.

        :class:`OutputNameError` for a bad or repeated name, :class:`OutputExistsError` for a file already there
        without ``force``, :class:`OutputError` when the disk refuses (the folder cannot be made, no space...).
        """
        path = self.path_for(name)
        data = text.encode("utf-8")
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            if self.force:
                _replace(path, data)
            else:
                handle = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)  # never follows a link
                try:
                    with os.fdopen(handle, "wb") as out:
                        out.write(data)
                except BaseException:
                    path.unlink(missing_ok=True)  # no half file left behind
                    raise
        except FileExistsError:
            if path.exists() or path.is_symlink():
                raise OutputExistsError(
                    f"{path} already exists (from {self.what} {name!r} of {self.source}): it is kept; "
                    "add --force to replace it"
                ) from None
            raise OutputError(f"cannot make the output folder {self.folder}: a file is in the way") from None
        except OSError as exc:
            raise OutputError(f"cannot write {path}: {exc.strerror or exc}") from None
        self._taken[str(name).casefold()] = str(name)
        return path


def _replace(path: Path, data: bytes) -> None:
    """Write ``data`` beside ``path`` and rename it over ``path``: a link there is replaced, not followed, and a
    reader never sees half a file."""
    temporary = path.with_name(f".{path.name}.{secrets.token_hex(4)}.tmp")
    handle = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
        os.replace(temporary, path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
