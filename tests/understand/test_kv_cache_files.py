"""The KV cache's folder holding what it did not write: links, FIFOs, devices, sockets, folders, huge or odd headers.

The cache reads only regular files it created (no symbolic link followed, no FIFO, device or socket opened
for reading, nothing owned by another user), bounded in size; a file it refuses is noted in ``rejected`` and
removed, as a damaged one is. ``fsmdial models cache`` lists such files without reading them and ``--clear``
unlinks them (a link is unlinked, never what it points to; a folder is left and named). Every call here is
bounded in time: one that blocks fails the test (and the FIFO it waits on is then opened to release it).
No model is needed: the cache stores bytes.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import os
import socket
import stat
import threading
import warnings
from collections.abc import Callable
from contextlib import redirect_stdout
from pathlib import Path
from typing import Any

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fsmdial.cli import main
from fsmdial.understand.decoding.kv_cache import MAGIC, CacheFolderWarning, DiskCache, clear, list_entries

PAYLOAD = b"the KV state of a prefix" * 10
BOUND = 5.0
"""Seconds any one cache call may take here (they take milliseconds): past it, the call is blocked."""


def bounded(call: Callable[[], Any], folder: Path) -> Any:
    """``call()``'s result; the test fails if it raises anything or has not returned after :data:`BOUND` s."""
    outcome: dict[str, Any] = {}

    def run() -> None:
        try:
            outcome["value"] = call()
        except BaseException as exc:  # noqa: BLE001 - reported below
            outcome["error"] = exc

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(BOUND)
    if worker.is_alive():
        release_fifos(folder)
        worker.join(BOUND)
        pytest.fail(f"{call} was still blocked after {BOUND} s")
    if "error" in outcome:
        raise outcome["error"]
    return outcome.get("value")


def release_fifos(folder: Path) -> None:
    for path in folder.rglob("*"):
        if stat.S_ISFIFO(path.lstat().st_mode):
            with contextlib.suppress(OSError):
                os.close(os.open(path, os.O_WRONLY | os.O_NONBLOCK))


def expected() -> dict[str, Any]:
    return DiskCache.header("a" * 64, {"llama_cpp": "0.3", "n_ctx": 256}, [1, 2, 3])


def saved(folder: Path) -> tuple[DiskCache, Path]:
    cache = DiskCache(folder)
    path = cache.save(expected(), PAYLOAD, model="tiny.gguf")
    assert path is not None and cache.load(expected()) == PAYLOAD
    return cache, path


def unix_socket(path: Path) -> None:
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(str(path))
    server.close()  # the socket file stays


def device(path: Path) -> None:
    try:
        os.mknod(path, 0o600 | stat.S_IFCHR, os.makedev(1, 5))  # /dev/zero's numbers
    except OSError as exc:
        pytest.skip(f"cannot make a device node here: {exc}")


SPECIAL = {
    "a link to /dev/zero": lambda path: path.symlink_to("/dev/zero"),
    "a link to nowhere": lambda path: path.symlink_to(path.parent / "nowhere"),
    "a FIFO": lambda path: os.mkfifo(path),
    "a socket": unix_socket,
    "a device": device,
}


def special(kind: str, path: Path) -> None:
    SPECIAL[kind](path)


# ------------------------------------------------------------ loading


@pytest.mark.parametrize("kind", list(SPECIAL))
def test_a_special_file_in_a_state_files_place_is_refused_without_reading_it(tmp_path, kind):
    cache, path = saved(tmp_path)
    path.unlink()
    special(kind, path)
    assert bounded(lambda: cache.load(expected()), tmp_path) is None
    assert "not a regular file" in cache.rejected[-1]
    assert not os.path.lexists(path)  # removed (a link itself, never what it points to), as damage is
    assert Path("/dev/zero").exists()
    assert cache.save(expected(), PAYLOAD) == path and cache.load(expected()) == PAYLOAD  # rebuilt


def test_a_link_to_a_whole_state_file_elsewhere_is_not_followed(tmp_path):
    cache, path = saved(tmp_path / "kv")
    elsewhere = tmp_path / "elsewhere.kv"
    path.rename(elsewhere)
    path.symlink_to(elsewhere)
    assert cache.load(expected()) is None and "not a regular file" in cache.rejected[-1]
    assert elsewhere.read_bytes().startswith(MAGIC)  # the file linked to is left alone


def test_a_state_file_of_another_user_is_refused(tmp_path):
    if os.geteuid() != 0:
        pytest.skip("giving a file to another user needs root")
    cache, path = saved(tmp_path)
    os.chown(path, 65534, 65534)
    assert cache.load(expected()) is None and "owned by" in cache.rejected[-1]


def test_a_state_file_larger_than_the_cache_is_refused_unread(tmp_path):
    cache, path = saved(tmp_path)
    cache.max_bytes = path.stat().st_size - 1
    assert cache.load(expected()) is None and "larger than" in cache.rejected[-1]


def test_a_header_length_past_the_file_or_the_bound_is_refused(tmp_path):
    cache, path = saved(tmp_path)
    path.write_bytes(MAGIC + (0xFFFFFFFF).to_bytes(4, "little") + b"{}")
    assert cache.load(expected()) is None and "header" in cache.rejected[-1]


def rewrite_header(path: Path, **changes: Any) -> None:
    data = path.read_bytes()
    start = len(MAGIC) + 4
    length = int.from_bytes(data[len(MAGIC) : start], "little")
    header = orjson.loads(data[start : start + length])
    header.update(changes)
    encoded = orjson.dumps(header)
    path.write_bytes(MAGIC + len(encoded).to_bytes(4, "little") + encoded + data[start + length :])


@pytest.mark.parametrize(
    "changes",
    [{"model": 5}, {"payload_bytes": "240"}, {"payload_bytes": -1}, {"created": ["x"]}, {"n_tokens": True}],
)
def test_a_header_with_a_field_of_the_wrong_type_is_refused_and_listed_as_such(tmp_path, changes):
    cache, path = saved(tmp_path)
    rewrite_header(path, **changes)
    (entry,) = list_entries(tmp_path)
    assert entry.header is None and "header" in (entry.problem or "")
    output = run_cli("models", "cache", "--dir", str(tmp_path))
    assert path.name in output and "header" in output
    assert cache.load(expected()) is None and "header" in cache.rejected[-1]


# ------------------------------------------------------------ the model digests (models.json)


@pytest.mark.parametrize("kind", list(SPECIAL))
def test_a_special_models_json_is_not_read_and_the_digest_is_computed(tmp_path, kind):
    model = tmp_path / "model.gguf"
    model.write_bytes(b"GGUF weights")
    folder = tmp_path / "kv"
    folder.mkdir(mode=0o700)
    special(kind, folder / "models.json")
    digest = bounded(lambda: DiskCache(folder).model_sha256(model), folder)
    assert digest == hashlib.sha256(b"GGUF weights").hexdigest()


def test_a_huge_models_json_is_not_read(tmp_path):
    model = tmp_path / "model.gguf"
    model.write_bytes(b"GGUF weights")
    folder = tmp_path / "kv"
    folder.mkdir(mode=0o700)
    with (folder / "models.json").open("wb") as out:
        out.truncate(200 << 20)  # sparse: 200 MB of zeros, no room taken
    digest = bounded(lambda: DiskCache(folder).model_sha256(model), folder)
    assert digest == hashlib.sha256(b"GGUF weights").hexdigest()


# ------------------------------------------------------------ fsmdial models cache, --clear


def run_cli(*argv: str) -> str:
    out = io.StringIO()
    with redirect_stdout(out):
        assert main(list(argv)) == 0
    return out.getvalue()


def test_models_cache_lists_and_clears_special_files_without_reading_them(tmp_path):
    folder = tmp_path / "kv"
    cache, path = saved(folder)
    for i, kind in enumerate(SPECIAL):
        if kind != "a device":
            SPECIAL[kind](folder / f"special-{i}.kv")
    (folder / "a-folder.kv").mkdir()
    os.mkfifo(folder / "models.json")
    listed = bounded(lambda: run_cli("models", "cache", "--dir", str(folder)), folder)
    assert path.name in listed and "tiny.gguf" in listed
    assert "special-2.kv" in listed and "not a regular file (a FIFO)" in listed
    assert "special-0.kv" in listed and "not a regular file (a symbolic link)" in listed
    cleared = bounded(lambda: run_cli("models", "cache", "--dir", str(folder), "--clear"), folder)
    assert "a-folder.kv" in cleared and "left" in cleared  # a folder is not the cache's to remove
    left = sorted(p.name for p in folder.iterdir())
    assert left == ["a-folder.kv"]
    assert Path("/dev/zero").exists()


# ------------------------------------------------------------ the folder


def test_the_folder_is_created_private(tmp_path):
    folder = tmp_path / "cache" / "kv"
    DiskCache(folder).save(expected(), PAYLOAD)
    assert stat.S_IMODE(folder.stat().st_mode) & 0o077 == 0


def test_a_folder_others_may_write_to_is_warned_about(tmp_path):
    folder = tmp_path / "kv"
    folder.mkdir()
    folder.chmod(0o777)
    with pytest.warns(CacheFolderWarning, match="writable by others"):
        DiskCache(folder)
    assert "writable by others" in run_cli("models", "cache", "--dir", str(folder))  # said, not warned twice
    folder.chmod(0o700)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        DiskCache(folder)


# ------------------------------------------------------------ anything in the folder


HEADER_KEYS = [
    "format",
    "model_sha256",
    "settings",
    "n_tokens",
    "tokens_sha256",
    "payload_bytes",
    "payload_sha256",
    "model",
    "created",
]
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**63), 2**64 - 1) | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=6,
)
headers = st.dictionaries(st.sampled_from(HEADER_KEYS) | st.text(max_size=8), json_values, max_size=10)


@st.composite
def state_files(draw: Any) -> bytes:
    """Bytes that look more or less like a state file: the magic, a header of odd fields, a payload."""
    payload = draw(st.binary(max_size=64))
    header = {**expected(), "payload_bytes": len(payload), "payload_sha256": hashlib.sha256(payload).hexdigest()}
    header.update(draw(headers))
    encoded = orjson.dumps(header)
    length = draw(st.sampled_from([len(encoded), 0, len(encoded) + 1, 0xFFFFFFFF, len(encoded) - 1]))
    raw = MAGIC + max(length, 0).to_bytes(4, "little") + encoded + payload
    return raw[: draw(st.integers(0, len(raw)))] if draw(st.booleans()) else raw


entries = st.one_of(
    st.tuples(st.just("file"), state_files()),
    st.tuples(st.just("file"), st.binary(max_size=40)),
    st.tuples(st.sampled_from(["a link to /dev/zero", "a link to nowhere", "a FIFO", "a socket", "folder"]), st.none()),
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(contents=st.lists(entries, min_size=1, max_size=5), as_state=st.booleans(), memo=entries)
def test_whatever_the_folder_holds_listing_loading_and_clearing_never_crash_or_block(
    tmp_path_factory, contents, as_state, memo
):
    folder = tmp_path_factory.mktemp("kv")
    folder.chmod(0o700)
    cache = DiskCache(folder)
    names = [cache.path_for(expected()).name if as_state and i == 0 else f"f{i}.kv" for i in range(len(contents))]
    for name, (kind, data) in zip(names, contents, strict=True):
        make(folder / name, kind, data)
    make(folder / "models.json", *memo)
    model = folder.parent / f"{folder.name}.gguf"
    model.write_bytes(b"weights")
    assert bounded(lambda: cache.model_sha256(model), folder) == hashlib.sha256(b"weights").hexdigest()
    loaded = bounded(lambda: cache.load(expected()), folder)
    assert loaded is None or loaded == (folder / names[0]).read_bytes()[-len(loaded) :]
    listed = bounded(lambda: list_entries(folder), folder)
    assert {entry.path.name for entry in listed} <= set(names)
    assert all(entry.header is None or isinstance(entry.header.get("model", ""), str) for entry in listed)
    bounded(lambda: run_cli("models", "cache", "--dir", str(folder)), folder)
    bounded(lambda: clear(folder), folder)
    assert all(path.is_dir() and not path.is_symlink() for path in folder.iterdir())


def make(path: Path, kind: str, data: bytes | None) -> None:
    if kind == "file":
        path.write_bytes(data or b"")
    elif kind == "folder":
        path.mkdir()
    else:
        SPECIAL[kind](path)
