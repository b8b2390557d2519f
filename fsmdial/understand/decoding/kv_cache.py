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

What is read: only regular files of this user's, never through a symbolic link, at most
``max_bytes`` (a state) or :data:`MEMO_LIMIT` (``models.json``): a file is opened with
``O_NOFOLLOW | O_NONBLOCK`` (a link is refused, a FIFO does not block the open) and checked with
``fstat`` before a byte is read. Anything else in a state file's place (a link, a FIFO, a socket, a
device, a folder, a file of another user, one larger than the cache, a header whose fields have the wrong
types) is refused like a damaged file: noted in ``rejected``, removed (a link itself, never what it
points to; a folder is left) and rebuilt. ``fsmdial models cache`` lists such files by name and kind
without opening them, and ``--clear`` unlinks them (folders are left, and named).

The folder is created private (0700), and :class:`CacheFolderWarning` is issued when an existing one is
writable by group or others: the checksum finds damage, not a hostile writer (anyone who may write a
state may write its checksum too), so the folder must not be writable by others.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import stat
import struct
import tempfile
import threading
import time
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

MAGIC = b"FSMDIAL-KV\x00\x01"
SUFFIX = ".kv"
DEFAULT_MAX_BYTES = 1 << 30
HEADER_LIMIT = 1 << 16
"""Bytes a state file's JSON header may have (it is a few hundred)."""
MEMO_LIMIT = 1 << 20
"""Bytes ``models.json`` may have (about 150 per model file version)."""
MEMO_NAME = "models.json"
HEADER_FIELDS: dict[str, type] = {
    "format": int,
    "model_sha256": str,
    "settings": dict,
    "n_tokens": int,
    "tokens_sha256": str,
    "payload_bytes": int,
    "payload_sha256": str,
    "model": str,
    "created": str,
}
"""What a state file's header holds, and the JSON type of each field (:meth:`DiskCache.save` writes them all)."""


class CacheFolderWarning(UserWarning):
    """The KV cache's folder may be written by other users (a checksum cannot stop a hostile writer)."""


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
    """A file of the cache's folder, as ``fsmdial models cache`` lists it."""

    path: Path
    size: int
    header: dict[str, Any] | None
    """None when the file is not a readable state file (:attr:`problem` says why)."""
    problem: str | None = None
    """Why the file is no state file the cache would use (None: it is one, as far as its header goes)."""
    regular: bool = True
    """False for a link, a FIFO, a socket, a device or a folder (listed by name, never opened)."""


@dataclass(frozen=True)
class Cleared:
    """What :func:`clear` did: files and bytes deleted, entries left (folders, files it could not delete)."""

    files: int
    size: int
    left: list[Entry]


class Refused(Exception):
    """A file the cache does not read (see the module docstring); the message says why."""


class DiskCache:
    """Prefix states of one model in a folder (see the module docstring)."""

    def __init__(self, folder: str | os.PathLike[str], *, max_bytes: int | None = None):
        self.folder = Path(folder)
        self.max_bytes = default_max_bytes() if max_bytes is None else max_bytes
        self.rejected: list[str] = []
        """Why files were refused (damaged, truncated, mismatched, not regular), most recent last."""
        self._lock = threading.Lock()
        problem = folder_problem(self.folder)
        if problem is not None:
            warnings.warn(problem, CacheFolderWarning, stacklevel=2)

    # ------------------------------------------------------------ keys
    def model_sha256(self, model: Path) -> str:
        """The model file's SHA-256, computed once per file version and remembered in ``models.json``."""
        info = model.stat()
        version = f"{model.resolve()}|{info.st_size}|{info.st_mtime_ns}"
        memo_path = self.folder / MEMO_NAME
        with self._lock:
            memo: dict[str, str] = {}
            try:
                loaded = orjson.loads(read_own_file(memo_path, MEMO_LIMIT))
            except FileNotFoundError:
                loaded = {}
            except (OSError, Refused, orjson.JSONDecodeError) as exc:
                self.rejected.append(f"{MEMO_NAME}: {exc}")
                loaded = {}
            if isinstance(loaded, dict):
                memo = {k: v for k, v in loaded.items() if isinstance(v, str)}
            found = memo.get(version)
            if found is not None and len(found) == 64:
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
            header, payload = read_state(path, self.max_bytes)
        except FileNotFoundError:
            return None
        except PermissionError:
            return None  # not this process's to read (nor, then, to delete)
        except (OSError, Refused) as exc:
            problem = str(exc) or type(exc).__name__
        else:
            if {k: header.get(k) for k in expected} == expected:
                with contextlib.suppress(OSError):
                    os.utime(path, follow_symlinks=False)  # least recently used goes first when over the size
                return payload
            problem = "made for another model, prefix or setting"
        self.rejected.append(f"{path.name}: {problem}")
        with contextlib.suppress(OSError):
            os.unlink(path)  # a link itself, never what it points to; a folder stays (unlink refuses it)
        return None

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
        entries = sorted((e for e in self.entries() if e.regular), key=lambda e: _mtime(e.path))
        total = sum(e.size for e in entries)
        for entry in entries:
            if total <= self.max_bytes:
                break
            with contextlib.suppress(OSError):
                entry.path.unlink()
                total -= entry.size


def folder_problem(folder: Path) -> str | None:
    """Why ``folder`` is not private enough for the cache (writable by group or others), or None."""
    try:
        mode = folder.stat().st_mode
    except OSError:
        return None  # not there yet: it will be made private
    if mode & (stat.S_IWGRP | stat.S_IWOTH):
        return (
            f"the KV cache folder {folder} is writable by others (mode {stat.S_IMODE(mode):o}): a checksum finds "
            f"damage, not a hostile writer; make it private (chmod 700 {folder})"
        )
    return None


def list_entries(folder: str | os.PathLike[str]) -> list[Entry]:
    """Every ``*.kv`` file in ``folder`` with its header (read without reading the states; what is not a
    regular file of this user's is listed, never opened)."""
    found = []
    for path in sorted(Path(folder).glob("*" + SUFFIX)):
        try:
            info = path.lstat()
        except OSError:
            continue
        if not stat.S_ISREG(info.st_mode):
            found.append(Entry(path, 0, None, f"not a regular file ({kind_of(info.st_mode)})", regular=False))
            continue
        try:
            header = read_state(path, None, header_only=True)[0]
        except FileNotFoundError:
            continue
        except (OSError, Refused) as exc:
            found.append(Entry(path, info.st_size, None, str(exc) or type(exc).__name__))
            continue
        found.append(Entry(path, info.st_size, header))
    return found


def clear(folder: str | os.PathLike[str]) -> Cleared:
    """Delete every ``*.kv`` file and ``models.json`` in ``folder``, whatever they are (links and FIFOs are
    unlinked, never opened or followed); folders are left."""
    files = size = 0
    left: list[Entry] = []
    memo = Path(folder) / MEMO_NAME
    with contextlib.suppress(OSError):
        if not stat.S_ISDIR(memo.lstat().st_mode):
            memo.unlink()
    for entry in list_entries(folder):
        try:
            entry.path.unlink()
        except OSError as exc:
            left.append(Entry(entry.path, entry.size, None, entry.problem or str(exc), regular=entry.regular))
            continue
        files, size = files + 1, size + entry.size
    return Cleared(files, size, left)


def kind_of(mode: int) -> str:
    """What a file of this ``st_mode`` is, in words."""
    for test, name in (
        (stat.S_ISLNK, "a symbolic link"),
        (stat.S_ISFIFO, "a FIFO"),
        (stat.S_ISSOCK, "a socket"),
        (stat.S_ISDIR, "a folder"),
        (stat.S_ISCHR, "a device"),
        (stat.S_ISBLK, "a device"),
        (stat.S_ISREG, "a regular file"),
    ):
        if test(mode):
            return name
    return "not a file"


_OPEN_FLAGS = (
    os.O_RDONLY
    | getattr(os, "O_NOFOLLOW", 0)
    | getattr(os, "O_NONBLOCK", 0)
    | getattr(os, "O_CLOEXEC", 0)
    | getattr(os, "O_BINARY", 0)
)
"""No symbolic link followed, no FIFO waited on (a regular file reads the same either way)."""


def open_own_file(path: Path, limit: int | None) -> tuple[int, os.stat_result]:
    """An open descriptor of ``path`` and its ``fstat``: a regular file of this user's, of at most ``limit``
    bytes; :class:`Refused` for anything else (FileNotFoundError when there is nothing there)."""
    try:
        fd = os.open(path, _OPEN_FLAGS)
    except FileNotFoundError:
        raise
    except OSError as exc:  # ELOOP: a symbolic link; ENXIO: a socket
        try:
            what = kind_of(path.lstat().st_mode)
        except OSError:
            raise exc from None
        if what == "a regular file":
            raise
        raise Refused(f"not a regular file ({what})") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise Refused(f"not a regular file ({kind_of(info.st_mode)})")
        if hasattr(os, "geteuid") and info.st_uid != os.geteuid():
            raise Refused(f"owned by user {info.st_uid}, not by this one")
        if limit is not None and info.st_size > limit:
            raise Refused(f"larger than the cache allows ({info.st_size} > {limit} bytes)")
    except BaseException:
        os.close(fd)
        raise
    return fd, info


def read_own_file(path: Path, limit: int) -> bytes:
    """The bytes of ``path`` if it is a regular file of this user's of at most ``limit`` bytes (else Refused)."""
    fd, info = open_own_file(path, limit)
    try:
        return _read_exactly(fd, info.st_size)
    finally:
        os.close(fd)


def read_state(path: Path, limit: int | None, *, header_only: bool = False) -> tuple[dict[str, Any], bytes]:
    """A state file's (header, payload), checked (Refused for what is not a whole, undamaged state file).

    The header is read and checked first, then the payload only if the file's size is the one the header
    gives; ``header_only`` reads no payload (b"")."""
    fd, info = open_own_file(path, limit)
    try:
        head = _read_exactly(fd, len(MAGIC) + 4)
        if len(head) < len(MAGIC) + 4 or head[: len(MAGIC)] != MAGIC:
            raise Refused("not a state file of this format")
        (length,) = struct.unpack("<I", head[len(MAGIC) :])
        start = len(MAGIC) + 4
        if length > min(HEADER_LIMIT, info.st_size - start):
            raise Refused(f"truncated or damaged header ({length} bytes said)")
        try:
            header = orjson.loads(_read_exactly(fd, length))
        except orjson.JSONDecodeError:
            raise Refused("damaged header") from None
        problem = header_problem(header)
        if problem is not None:
            raise Refused(f"damaged header ({problem})")
        if header_only:
            return header, b""
        payload = _read_exactly(fd, info.st_size - start - length)
    finally:
        os.close(fd)
    if len(payload) != header["payload_bytes"]:
        raise Refused(f"truncated state ({len(payload)} of {header['payload_bytes']} bytes)")
    if hashlib.sha256(payload).hexdigest() != header["payload_sha256"]:
        raise Refused("damaged state (checksum)")
    return header, payload


def header_problem(header: Any) -> str | None:
    """What is wrong with a decoded header's shape (a field missing or of another type), or None."""
    if not isinstance(header, dict):
        return "not an object"
    for name, kind in HEADER_FIELDS.items():
        if name not in header:
            return f"{name} is missing"
        value = header[name]
        if kind is int:
            fits = isinstance(value, int) and not isinstance(value, bool) and value >= 0
        else:
            fits = isinstance(value, kind)
        if not fits:
            return f"{name} is not {'a count' if kind is int else kind.__name__}"
    return None


def _read_exactly(fd: int, size: int) -> bytes:
    """Up to ``size`` bytes from ``fd`` (fewer only at its end): never more, if the file grows meanwhile."""
    chunks: list[bytes] = []
    left = size
    while left > 0:
        chunk = os.read(fd, min(left, 1 << 22))
        if not chunk:
            break
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def _mtime(path: Path) -> float:
    try:
        return path.lstat().st_mtime
    except OSError:
        return 0.0


def _write_atomically(path: Path, data: bytes) -> None:
    _make_folder(path.parent)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=path.name + ".", suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def _make_folder(folder: Path) -> None:
    """The cache's folder, made private (0700) if it is not there; its parents as the umask says."""
    if folder.is_dir():
        return
    folder.parent.mkdir(parents=True, exist_ok=True)
    folder.mkdir(mode=0o700, exist_ok=True)
