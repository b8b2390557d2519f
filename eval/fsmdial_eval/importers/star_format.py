"""STAR's files as typed models: task schemas, API definitions, and our hand-correction overlays.

A STAR copy holds ``tasks/<task>/<task>.json`` (``task``: the schema's name,
``replies``: label -> wizard text, ``graph``: label -> next label),
``tasks/<task>/responses.json`` (the wizard's own replies),
``tasks/<task>/wizard_nlu_training_data.md`` (example utterances per label)
and ``apis/<task>.json`` (typed ``input``/``output`` fields, ``required``).
:func:`read_task` reads one task into a :class:`StarTask`; overlays
(``star_overlays/<task>.json``) are read into an :class:`Overlay` and applied
with :func:`apply_overlay`. STAR's own files are third-party data: keys this
module does not use are ignored. Overlays are ours: an unknown key is an error.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError, field_validator, model_validator

from fsmdial.errors import FsmdialError, InputFileError
from fsmdial.flow import Choice, Condition
from fsmdial.userfiles import read_json, read_text

OVERLAY_DIR = Path(__file__).with_name("star_overlays")
REQUEST_TYPE = "RequestType"
"""The API input type whose categories name the kinds of query (``Check``, ``Book``)."""


class StarFormatError(FsmdialError, ValueError):
    """A STAR task or overlay file does not follow the format; the message names the file and the problem."""


class _StarModel(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True, populate_by_name=True)


# ---------------------------------------------------------------- API definitions


class ApiField(_StarModel):
    """One input or output of a STAR API (``{"Name": "StartDate", "Type": "Categorical", ...}``)."""

    name: str = Field(alias="Name")
    type: str = Field("", alias="Type")
    readable_name: str = Field("", alias="ReadableName")
    categories: list[Any] | None = Field(None, alias="Categories")
    minimum: int | float | None = Field(None, alias="Min")
    maximum: int | float | None = Field(None, alias="Max")

    @property
    def string_categories(self) -> list[str] | None:
        """The categories when they are a non-empty list of strings (some STAR fields list lists)."""
        cats = self.categories
        return list(cats) if cats and all(isinstance(c, str) for c in cats) else None


class ApiSpec(_StarModel):
    """A STAR API definition (``apis/<task>.json``)."""

    input: list[ApiField] = Field(default_factory=list)
    output: list[ApiField] = Field(default_factory=list)
    required: list[str] = Field(default_factory=list)

    @property
    def inputs(self) -> list[ApiField]:
        """The inputs a user gives (all but the request type)."""
        return [spec for spec in self.input if spec.type != REQUEST_TYPE]

    @property
    def request_types(self) -> list[str] | None:
        """The kinds of query (``["Check", "Book"]``), when the API takes a request type."""
        return next((list(spec.categories or []) for spec in self.input if spec.type == REQUEST_TYPE), None)


# ---------------------------------------------------------------- tasks


class StarTask(_StarModel):
    """One STAR task as read from disk (or after an overlay)."""

    name: str
    replies: dict[str, str]
    graph: dict[str, str]
    responses: dict[str, str] | None = None
    api: ApiSpec | None = None
    examples: dict[str, list[str]] = Field(default_factory=dict)
    schema_name: str = ""


def task_names(star_dir: str | Path) -> list[str]:
    """Tasks of a STAR copy: directories ``tasks/<t>/`` holding ``<t>.json`` (:class:`StarFormatError` when there is
    no ``tasks/`` folder to list)."""
    root = Path(star_dir) / "tasks"
    try:
        return sorted(entry.name for entry in root.iterdir() if _exists(entry / f"{entry.name}.json"))
    except OSError as exc:
        raise StarFormatError(f"{root}: cannot list the tasks of a STAR copy: {exc.strerror or exc}") from None


def _exists(path: Path) -> bool:
    """Whether there is something at ``path`` to read (a device or a folder is read, and refused, as it is)."""
    try:
        return path.exists() or path.is_symlink()
    except OSError:  # a name too long for the file system
        return False


def read_task(star_dir: str | Path, name: str) -> StarTask:
    """Read task ``name`` of a STAR copy (its API and NLU examples when present)."""
    star_dir = Path(star_dir)
    folder = star_dir / "tasks" / name
    schema = _read_json(folder / f"{name}.json")
    if not isinstance(schema, dict):
        raise StarFormatError(f"{folder / f'{name}.json'}: a STAR task is a JSON object, not {type(schema).__name__}")
    responses_path = folder / "responses.json"
    api_path = star_dir / "apis" / f"{name}.json"
    nlu_path = folder / "wizard_nlu_training_data.md"
    document = {
        "name": name,
        "replies": schema.get("replies") or {},
        "graph": schema.get("graph") or {},
        "responses": _read_json(responses_path) if _exists(responses_path) else None,
        "api": _read_json(api_path) if _exists(api_path) else None,
        "examples": parse_nlu(_read_text(nlu_path)) if _exists(nlu_path) else {},
        "schema_name": schema.get("task", name),
    }
    return _validate(StarTask, document, f"STAR task {name} ({folder})")


def parse_nlu(text: str) -> dict[str, list[str]]:
    """``## intent:label`` sections of Rasa-style markdown -> examples per label."""
    out: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in text.splitlines():
        header = re.match(r"^##\s*intent:\s*(\S+)", line)
        if header:
            current = out.setdefault(header.group(1), [])
        elif current is not None and line.lstrip().startswith("- "):
            example = line.strip()[2:].strip()
            if example:
                current.append(example)
    return out


# ---------------------------------------------------------------- overlays

_CONDITION: TypeAdapter[Any] = TypeAdapter(Condition)


def parse_condition(document: dict[str, Any]) -> Any:
    """An fsmdial condition document as its model (to read its structure; documents are written as given)."""
    return _CONDITION.validate_python(document)


class OverlayEdge(BaseModel):
    """An edge an overlay adds: ``when`` is a STAR condition token, an fsmdial condition, or absent (plain)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    source: str
    target: str
    when: str | dict[str, Any] | None = None
    count: str | None = None
    """An integer slot the edge adds 1 to (fsmdial's ``count``: the next question of a game)."""

    @field_validator("when")
    @classmethod
    def _check_condition(cls, value: Any) -> Any:
        if isinstance(value, dict):
            parse_condition(value)  # checked here; the document is kept as written
        return value


class Overlay(BaseModel):
    """Hand corrections to one task (``star_overlays/<task>.json``); ``why`` says what they fix."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    why: str
    """Required prose: why the schema needs the correction."""
    task: str | None = None
    rename: dict[str, str] = Field(default_factory=dict)
    """Label -> the label the dialogues use, everywhere in the schema."""
    replies: dict[str, str] = Field(default_factory=dict)
    """Replies to add or replace."""
    graph: dict[str, str | None] = Field(default_factory=dict)
    """Graph entries to add or replace; a null value deletes the key."""
    inputs: dict[str, str | None] = Field(default_factory=dict)
    """Ask label -> the API input it feeds (null: none)."""
    labels: dict[str, str] = Field(default_factory=dict)
    """Act name -> STAR label (e.g. the goodbye label the dialogues use)."""
    edges: list[OverlayEdge] = Field(default_factory=list)
    token_sources: dict[str, list[str]] = Field(default_factory=dict)
    """Condition token -> the labels it follows."""
    choices: dict[str, list[Choice]] = Field(default_factory=dict)
    """Question label -> the fsmdial choices its answer is classified into."""

    @model_validator(mode="before")
    @classmethod
    def _keys_and_why(cls, data: Any) -> Any:
        if isinstance(data, dict):
            unknown = set(data) - set(cls.model_fields)
            if unknown:
                raise ValueError(f"unknown keys {sorted(unknown)}")
            if not data.get("why"):
                raise ValueError("say 'why' the correction is needed")
        return data


def overlay_files(directory: Path | None = None) -> dict[str, Path]:
    """Task name -> its overlay file in ``directory`` (default: the package's ``star_overlays/``).

    The overlays are package data: finding none is a broken install, an error rather than an import
    (or an evaluation) silently without them.
    """
    directory = OVERLAY_DIR if directory is None else directory
    files = {path.stem: path for path in sorted(directory.glob("*.json"))}
    if not files:
        raise StarFormatError(
            f"no STAR overlays in {directory}: fsmdial-eval's data files are missing (reinstall it), "
            "or import without them (--no-overlays)"
        )
    return files


def load_overlay(name: str, directory: Path | None = None) -> Overlay | None:
    """The overlay of task ``name``, if there is one (see :func:`overlay_files`)."""
    path = overlay_files(directory).get(name)
    return _validate(Overlay, _read_json(path), f"overlay for {name} ({path})") if path is not None else None


def parse_overlay(document: dict[str, Any] | Overlay | None, task: str) -> Overlay | None:
    """An overlay given as a document (or already parsed), checked."""
    if document is None or isinstance(document, Overlay):
        return document
    return _validate(Overlay, document, f"overlay for {task}")


def apply_overlay(task: StarTask, overlay: Overlay | dict[str, Any] | None) -> StarTask:
    """The task with the overlay's renames, replies and graph entries applied (the rest is read by the conversion)."""
    overlay = parse_overlay(overlay, task.name)
    if overlay is None:
        return task
    new = lambda label: overlay.rename.get(label, label)  # noqa: E731
    replies = {new(k): v for k, v in task.replies.items()} | overlay.replies
    graph = {new(k): new(v) for k, v in task.graph.items()}
    for key, value in overlay.graph.items():
        if value is None:
            graph.pop(key, None)
        else:
            graph[key] = value
    responses = {new(k): v for k, v in task.responses.items()} if task.responses is not None else None
    examples = {new(k): v for k, v in task.examples.items()}
    return task.model_copy(update={"replies": replies, "graph": graph, "responses": responses, "examples": examples})


# ---------------------------------------------------------------- helpers


def _read_json(path: Path) -> Any:
    """A STAR or overlay JSON file, read by :mod:`fsmdial.userfiles` (bounded, UTF-8, JSON, nesting)."""
    try:
        return read_json(path)
    except InputFileError as exc:
        raise StarFormatError(str(exc)) from None


def _read_text(path: Path) -> str:
    try:
        return read_text(path)
    except InputFileError as exc:
        raise StarFormatError(str(exc)) from None


def _validate(model: type[Any], document: Any, where: str) -> Any:
    try:
        return model.model_validate(document)
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in err['loc']) or '(top)'}: {err['msg'].removeprefix('Value error, ')}"
            for err in exc.errors()
        )
        raise StarFormatError(f"{where}: {problems}") from None
