"""KV states of prompt prefixes saved on disk, so that a new process evaluates no prefix twice.

A flow's prompt starts with the same tokens on every turn of every session
(the chat template's head, the flow's static text: :meth:`~fsmdial.understand.model.prompt.PromptBuilder.prefix`).
:class:`~.llama_model.LlamaModel` evaluates such a prefix once and keeps llama.cpp's
KV state after it in memory; this module keeps the same state on disk, one file
per (model file, prefix tokens, settings), so the next process restores it in
milliseconds instead of evaluating hundreds of tokens.

Where: ``$FSMDIAL_KV_CACHE`` (a folder; ``off`` disables the disk cache), else
``$XDG_CACHE_HOME/fsmdial/kv``, else ``~/.cache/fsmdial/kv``. How large: one file
per flow and model, about 23 KB per prefix token for SmolLM2-135M and 12 KB for
Qwen2.5-0.5B (10-12 MB and 5-6 MB for a 500-token prefix); the folder is kept under
``max_bytes`` (default 1 GB, ``$FSMDIAL_KV_CACHE_MB``) by deleting the files used
least recently. ``fsmdial models cache`` lists it, ``fsmdial models cache --clear``
empties it.

A file is a fixed magic, a JSON header and llama.cpp's sequence state. The header
names the model's SHA-256, the settings (llama-cpp-python version, context size),
the prefix's tokens (their SHA-256 and count) and the state's length and SHA-256.
A file that is truncated, damaged, or made for another model, prefix or setting
is detected on reading, deleted and rebuilt by the caller; it is never used.
The model's SHA-256 is computed once per file version (path, size, modification
time) and remembered in ``models.json`` beside the states.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import struct
import tempfile
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

MAGIC = b"FSMDIAL-KV\x00\x01"
SUFFIX = ".kv"
DEFAULT_MAX_BYTES = 1 << 30
_OFF = {"off", "0", "no", "false", "none"}


def default_folder() -> Path | None:
    """The disk cache's folder from the environment (see the module docstring); None when it is turned off."""
    configured = os.environ.get("FSMDIAL_KV_CACHE")
    if configured is not None:
        return None if configured.strip().lower() in _OFF or not configured.strip() else Path(configured).expanduser()
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "fsmdial" / "kv"


def default_max_bytes() -> int:
    megabytes = os.environ.get("FSMDIAL_KV_CACHE_MB")
    return int(float(megabytes) * (1 << 20)) if megabytes else DEFAULT_MAX_BYTES


def tokens_digest(tokens: Sequence[int]) -> str:
    return hashlib.sha256(struct.pack(f"<{len(tokens)}i", *tokens)).hexdigest()


@dataclass(frozen=True)
class Entry:
    """A state file, as ``fsmdial models cache`` lists it."""

    path: Path
    size: int
    header: dict[str, Any] | None
    """None when the file is not a readable state file."""


class DiskCache:
    """Prefix states of one model in a folder (see the module docstring)."""

    def __init__(self, folder: str | os.PathLike[str], *, max_bytes: int | None = None):
        self.folder = Path(folder)
        self.max_bytes = default_max_bytes() if max_bytes is None else max_bytes
        self.rejected: list[str] = []
        """Why files were refused (damaged, truncated, mismatched), most recent last."""
        self._lock = threading.Lock()

    # ------------------------------------------------------------ keys
    def model_sha256(self, model: Path) -> str:
        """The model file's SHA-256, computed once per file version and remembered in ``models.json``."""
        stat = model.stat()
        version = f"{model.resolve()}|{stat.st_size}|{stat.st_mtime_ns}"
        memo_path = self.folder / "models.json"
        with self._lock:
            memo: dict[str, str] = {}
            with contextlib.suppress(OSError, orjson.JSONDecodeError):
                loaded = orjson.loads(memo_path.read_bytes())
                memo = loaded if isinstance(loaded, dict) else {}
            found = memo.get(version)
            if isinstance(found, str) and len(found) == 64:
                return found
            digest = hashlib.sha256()
            with model.open("rb") as handle:
                while chunk := handle.read(1 << 22):
                    digest.update(chunk)
            memo[version] = found = digest.hexdigest()
            with contextlib.suppress(OSError):
                _write_atomically(memo_path, orjson.dumps(memo, option=orjson.OPT_INDENT_2))
            return found

    @staticmethod
    def header(model_sha256: str, settings: dict[str, Any], tokens: Sequence[int]) -> dict[str, Any]:
        """What a state file for these must say (its payload's length and digest besides)."""
        return {
            "format": 1,
            "model_sha256": model_sha256,
            "settings": settings,
            "n_tokens": len(tokens),
            "tokens_sha256": tokens_digest(tokens),
        }

    def path_for(self, expected: dict[str, Any]) -> Path:
        key = hashlib.sha256(orjson.dumps(expected, option=orjson.OPT_SORT_KEYS)).hexdigest()[:40]
        return self.folder / (key + SUFFIX)

    # ----------------------------------------------------- read, write
    def load(self, expected: dict[str, Any]) -> bytes | None:
        """The state saved under ``expected`` (see :meth:`header`), or None: missing, or refused and deleted."""
        path = self.path_for(expected)
        try:
            data = path.read_bytes()
        except OSError:
            return None
        problem, header, payload = _parse(data)
        if problem is None and header is not None:
            wanted = {k: header.get(k) for k in expected}
            if wanted != expected:
                problem = "made for another model, prefix or setting"
        if problem is not None or payload is None:
            self.rejected.append(f"{path.name}: {problem}")
            with contextlib.suppress(OSError):
                path.unlink()
            return None
        with contextlib.suppress(OSError):
            os.utime(path)  # least recently used goes first when the folder is over its size
        return payload

    def save(self, expected: dict[str, Any], payload: bytes, *, model: str = "") -> Path | None:
        """Write the state (atomically); None when the folder cannot be written (the cache is an optimisation).

        ``model`` (the file's name) is only shown by ``fsmdial models cache``."""
        header = dict(expected, payload_bytes=len(payload), payload_sha256=hashlib.sha256(payload).hexdigest())
        header["model"] = model
        header["created"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        encoded = orjson.dumps(header)
        path = self.path_for(expected)
        try:
            _write_atomically(path, MAGIC + struct.pack("<I", len(encoded)) + encoded + payload)
        except OSError:
            return None
        self.prune()
        return path

    # ------------------------------------------------------- housekeeping
    def entries(self) -> list[Entry]:
        return list_entries(self.folder)

    def prune(self) -> None:
        """Delete the least recently used files until the folder holds at most :attr:`max_bytes`."""
        entries = sorted(self.entries(), key=lambda e: _mtime(e.path))
        total = sum(e.size for e in entries)
        for entry in entries:
            if total <= self.max_bytes:
                break
            with contextlib.suppress(OSError):
                entry.path.unlink()
                total -= entry.size


def list_entries(folder: str | os.PathLike[str]) -> list[Entry]:
    """Every state file in ``folder`` with its header (read without reading the states)."""
    found = []
    for path in sorted(Path(folder).glob("*" + SUFFIX)):
        try:
            size = path.stat().st_size
            with path.open("rb") as handle:
                head = handle.read(len(MAGIC) + 4)
                header = None
                if head[: len(MAGIC)] == MAGIC and len(head) == len(MAGIC) + 4:
                    (length,) = struct.unpack("<I", head[len(MAGIC) :])
                    with contextlib.suppress(orjson.JSONDecodeError):
                        header = orjson.loads(handle.read(min(length, 1 << 16)))
        except OSError:
            continue
        found.append(Entry(path, size, header if isinstance(header, dict) else None))
    return found


def clear(folder: str | os.PathLike[str]) -> tuple[int, int]:
    """Delete every state file (and the model digests) in ``folder``: (files, bytes) deleted."""
    files = size = 0
    for entry in list_entries(folder):
        with contextlib.suppress(OSError):
            entry.path.unlink()
            files, size = files + 1, size + entry.size
    with contextlib.suppress(OSError):
        (Path(folder) / "models.json").unlink()
    return files, size


def _parse(data: bytes) -> tuple[str | None, dict[str, Any] | None, bytes | None]:
    """(problem, header, payload): problem is None for a whole, undamaged file."""
    if len(data) < len(MAGIC) + 4 or data[: len(MAGIC)] != MAGIC:
        return "not a state file of this format", None, None
    (length,) = struct.unpack("<I", data[len(MAGIC) : len(MAGIC) + 4])
    start = len(MAGIC) + 4
    if start + length > len(data):
        return "truncated header", None, None
    try:
        header = orjson.loads(data[start : start + length])
    except orjson.JSONDecodeError:
        return "damaged header", None, None
    if not isinstance(header, dict):
        return "damaged header", None, None
    payload = data[start + length :]
    if len(payload) != header.get("payload_bytes"):
        return f"truncated state ({len(payload)} of {header.get('payload_bytes')} bytes)", header, None
    if hashlib.sha256(payload).hexdigest() != header.get("payload_sha256"):
        return "damaged state (checksum)", header, None
    return None, header, payload


def _mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0


def _write_atomically(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=path.name + ".", suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
