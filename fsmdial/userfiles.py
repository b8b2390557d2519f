"""The one reader of the files users give fsmdial: flows, SOP and corpus schemas, conversation suites.

Every such file is read the same bounded, typed way, so a hostile one (``/dev/zero``, one Latin-1 byte, JSON nested
100,000 deep, a folder, a path with a NUL) is an :class:`~fsmdial.errors.InputFileError` naming the file and what is
wrong, never a ``MemoryError``, ``UnicodeDecodeError`` or ``RecursionError`` from somewhere inside a reader:

* at most ``limit`` bytes are read (:data:`MAX_FILE_BYTES` unless the caller says more), so a device or a runaway
  file never fills memory;
* the text must be UTF-8 (a byte that is not says where it is; a leading byte order mark is dropped);
* JSON is parsed by orjson (no NaN, no infinity, no unpaired surrogate) and may nest at most ``max_nesting``
  levels (:data:`MAX_NESTING`), checked without recursion, so the code walking the data never recurses that deep.

A flow's own nesting is :func:`fsmdial.flow.check_document`'s (stricter, with the document's paths): the loader
reads flows with ``max_nesting=None`` (orjson stops at 1,024 levels by itself).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import orjson

from .errors import InputFileError

__all__ = [
    "MAX_CORPUS_BYTES",
    "MAX_FILE_BYTES",
    "MAX_NESTING",
    "nesting_exceeds",
    "parse_json",
    "read_bytes",
    "read_json",
    "read_text",
]

MAX_FILE_BYTES = 16 * 1024 * 1024
"""Largest file read by default (16 MiB): far above any flow, schema or suite, far below the memory of a laptop."""

MAX_CORPUS_BYTES = 128 * 1024 * 1024
"""Largest benchmark corpus file the evaluation harness reads (128 MiB; SGD's are under 5 MiB each)."""

MAX_NESTING = 64
"""Deepest nesting of objects and lists in a user's JSON file (SGD, STAR and suites nest under 12 levels)."""


def read_bytes(path: str | os.PathLike[str], *, limit: int = MAX_FILE_BYTES, what: str = "the file") -> bytes:
    """The bytes of the file at ``path``: :class:`InputFileError` when it cannot be read or is over ``limit``
    (``what`` names the file in the message: "flow file", "SGD schema")."""
    where = str(path)
    try:
        with Path(path).open("rb") as handle:  # bounded read: a device or a huge file never fills memory
            raw = handle.read(limit + 1)
    except (OSError, ValueError) as exc:  # ValueError: a NUL character in the path
        raise InputFileError(where, f"cannot read {what}: {getattr(exc, 'strerror', None) or exc}") from None
    if len(raw) > limit:
        raise InputFileError(where, f"{what} is larger than {_size(limit)}")
    return raw


def read_text(path: str | os.PathLike[str], *, limit: int = MAX_FILE_BYTES, what: str = "the file") -> str:
    """The UTF-8 text of the file at ``path`` (see :func:`read_bytes`); a byte order mark is dropped."""
    return _decode(read_bytes(path, limit=limit, what=what), str(path))


def read_json(
    path: str | os.PathLike[str],
    *,
    limit: int = MAX_FILE_BYTES,
    max_nesting: int | None = MAX_NESTING,
    what: str = "the file",
) -> Any:
    """The JSON document in the file at ``path``, read by :func:`read_text` and checked by :func:`parse_json`."""
    return parse_json(read_text(path, limit=limit, what=what), origin=str(path), max_nesting=max_nesting)


def parse_json(text: str | bytes, *, origin: str | None, max_nesting: int | None = MAX_NESTING) -> Any:
    """``text`` as a JSON value: :class:`InputFileError` (``origin``: the file, or a line of it) when it is not
    JSON or nests deeper than ``max_nesting`` (None: orjson's own limit, 1,024 levels)."""
    if isinstance(text, (bytes, bytearray)):
        text = _decode(bytes(text), origin)
    try:
        value = orjson.loads(text)
    except (orjson.JSONDecodeError, RecursionError) as exc:
        raise InputFileError(origin, f"not valid JSON: {exc}") from None
    if max_nesting is not None and nesting_exceeds(value, max_nesting):
        raise InputFileError(origin, f"nested more than {max_nesting} levels deep")
    return value


def nesting_exceeds(value: Any, limit: int) -> bool:
    """Whether ``value`` holds more than ``limit`` lists and objects one inside another; no recursion."""
    if not isinstance(value, (dict, list)):
        return False
    if limit < 1:
        return True
    stack: list[tuple[Any, int]] = [(value, 1)]  # a container and its level
    while stack:
        item, level = stack.pop()
        for inner in item.values() if isinstance(item, dict) else item:
            if isinstance(inner, (dict, list)):
                if level >= limit:
                    return True
                stack.append((inner, level + 1))
    return False


def _decode(raw: bytes, origin: str | None) -> str:
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        column = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        raise InputFileError(
            origin, f"not UTF-8 text: byte 0x{raw[exc.start]:02x} at line {line}, column {column}"
        ) from None
    return text.removeprefix("\ufeff")


def _size(limit: int) -> str:
    for unit, size in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if limit >= size and limit % size == 0:
            return f"{limit // size} {unit}"
    return f"{limit} bytes"
