"""``SessionState``: everything one conversation holds, in one place.

A :class:`~fsmdial.runtime.Dialogue` keeps exactly one :class:`SessionState`; the
compiled state machine reads and writes the same object. Because the state is
one dataclass:

* a turn's checkpoint is :meth:`SessionState.copy` and its rollback is putting
  the copy back (no field can be forgotten);
* a snapshot is :meth:`SessionState.to_dict` plus a header (format, version,
  flow fingerprint), and :func:`decode_snapshot` reads it back, each field checked
  by the type it declares (then :func:`fsmdial.restoring.read_session` checks it
  against the flow).

A field added to the dataclass is therefore saved, restored and rolled back
everywhere; ``tests/test_session.py`` checks this by walking the fields.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal, SupportsIndex

import orjson
from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr, ValidationError, create_model

from .errors import SnapshotError

SNAPSHOT_FORMAT = "fsmdial.session"
SNAPSHOT_VERSION = 3
"""Version 3: the state's fields at the top level. Version 2 (without ``came_through``) and version 1 (fields
split under ``machine``) are still read."""

_HEADER = frozenset(("format", "version", "flow", "fingerprint"))

MAX_COUNT = 2**53
"""Largest count (visits, retries, turns) a snapshot may hold: beyond it a hand-edited or damaged value."""

HISTORY_LIMIT = 40
"""Messages (user and bot, about 20 exchanges) a session keeps in its history (and snapshot); see :class:`History`."""


class History(list[tuple[str, str]]):
    """The last ``limit`` messages of the conversation, ``(role, text)``: what the understanders read (the model
    prompt keeps the latest lines that fit its context; the rules read the bot's last question). Bounded, so a
    turn and its snapshot cost the same at turn 10 and turn 10,000; the full transcript is in the store's traces.
    Each history has its own ``limit`` (kept by copies); a new one takes :data:`HISTORY_LIMIT` as it is at the
    time (``fsmdial.session.HISTORY_LIMIT = 100`` raises the bound of sessions started or restored after)."""

    __slots__ = ("limit",)
    limit: int

    def __init__(self, items: Iterable[tuple[str, str]] = (), limit: int | None = None):
        super().__init__(items)
        self.limit = HISTORY_LIMIT if limit is None else limit
        self._trim()

    def _trim(self) -> None:
        if len(self) > self.limit:
            del self[: len(self) - self.limit]

    def append(self, message: tuple[str, str]) -> None:
        super().append(message)
        if len(self) > self.limit:
            del self[0]

    def extend(self, messages: Iterable[tuple[str, str]]) -> None:
        super().extend(messages)
        self._trim()

    def insert(self, index: SupportsIndex, message: tuple[str, str]) -> None:
        super().insert(index, message)
        self._trim()

    def __iadd__(self, messages: Iterable[tuple[str, str]]) -> History:  # type: ignore[override,misc]
        self.extend(messages)
        return self

    def copy(self) -> History:
        return History(self, self.limit)


def _state(default: Callable[[], Any], schema: Any = Any) -> Any:
    """A field: its default factory and the pydantic type a snapshot's value must have (checked strictly by
    :func:`decode_snapshot`)."""
    return field(default_factory=default, metadata={"schema": schema})


Count = Annotated[StrictInt, Field(ge=0, le=MAX_COUNT)]
Name = StrictStr
"""A node or slot id (checked against the flow by :mod:`fsmdial.restoring`)."""
JsonObject = dict[StrictStr, Any]
Role = Literal["user", "bot"]


@dataclass(eq=True, slots=True)
class SessionState:
    """One session. Containers are replaced or updated, their values never mutated in place,
    so a shallow copy of each container is a full checkpoint."""

    node: str = field(default="", metadata={"schema": Name})
    """The current node (checked against the flow's nodes when the session is used)."""
    slots: dict[str, Any] = _state(dict, schema=dict[Name, Any])
    """Slot values collected so far."""
    results: dict[str, dict[str, Any]] = _state(dict, schema=dict[Name, JsonObject])
    """What each external action returned (this visit)."""
    status: dict[str, str] = _state(dict, schema=dict[Name, Literal["success", "failure"]])
    """``success`` / ``failure`` of each external action (this visit)."""
    calls: dict[str, dict[str, Any]] = _state(dict, schema=dict[Name, JsonObject])
    """The arguments each external action was last called with (a repeat with the same ones is skipped)."""
    informed: set[str] = _state(set, set[Name])
    """Nodes whose message was already told in the current visit."""
    answers: dict[str, str] = _state(dict, schema=dict[Name, StrictStr])
    """The user's answer (yes/no/choice) to each confirmation."""
    last_action: str | None = field(default=None, metadata={"schema": Name | None})
    """The external action whose result ``{result.x}`` reads."""
    visits: dict[str, int] = _state(dict, dict[Name, Count])
    """Times each node was entered."""
    declined: set[str] = _state(set, set[Name])
    """Slots the user declined to give."""
    confirmed: set[str] = _state(set, set[Name])
    """Slots whose value the user confirmed."""
    asked: str | None = field(default=None, metadata={"schema": Name | None})
    """The slot the bot's last question asked for."""
    came_through: str | None = field(default=None, metadata={"schema": Name | None})
    """The question node (request or ``inform_and_confirm``) the machine last left along an edge; None after a
    jump (a global action, an escalation). A committing action reached from a confirmation runs only after a
    plain yes to this one, the confirmation the session actually came through (``steps.check_commit``)."""
    retries: dict[str, int] = _state(dict, dict[Name, Count])
    """Invalid values in a row, per slot."""
    ended: bool = field(default=False, metadata={"schema": StrictBool})
    history: list[tuple[str, str]] = _state(History, list[tuple[Role, StrictStr]])
    """``(role, text)`` of the last messages, user and bot (a :class:`History`: the last ``limit``)."""
    turns: int = field(default=0, metadata={"schema": Count})

    @classmethod
    def at(cls, node: str) -> SessionState:
        """A fresh session at ``node`` (the start node, entered once)."""
        return cls(node=node, visits={node: 1})

    def copy(self) -> SessionState:
        """An independent checkpoint: every container copied (their values are never mutated in place).

        Taken every turn, so it runs a copy function written for the class's fields (see :func:`_copier`).
        """
        copier = _COPIERS.get(type(self))
        return (copier or _copier(type(self)))(self)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: sets as sorted lists (other containers are the state's own: copy before changing them)."""
        return _codec(type(self)).write(self, {})


_CONTAINERS = (dict, list, set)


class _Codec:
    """Functions written out once per class for its fields: :meth:`SessionState.copy` runs every turn and
    snapshots every stored turn, so they cost no more than the copies and conversions themselves."""

    def __init__(self, cls: type[SessionState]):
        fields = dataclasses.fields(cls)
        namespace: dict[str, Any] = {"new_instance": object.__new__, "cls": cls, "sorted": sorted}
        write = ["def write(state, out):"]
        adopt = ["def adopt(data):", "    new = new_instance(cls)"]
        for index, f in enumerate(fields):
            kind = f.default_factory if f.default_factory is not dataclasses.MISSING else None
            write.append(f"    out[{f.name!r}] = " + (f"sorted(state.{f.name})" if kind is set else f"state.{f.name}"))
            given = f"data[{f.name!r}]"
            made = f"made_{index}({given})" if kind is not None and kind not in _CONTAINERS else given
            namespace[f"made_{index}"] = kind
            adopt.append(f"    new.{f.name} = {made}")
        source = "\n".join([*write, "    return out", *adopt, "    return new", ""])
        exec(source, namespace)
        self.adopt: Callable[[Mapping[str, Any]], SessionState] = namespace["adopt"]
        """A session from values already of their field's type (checked by the snapshot model): containers of
        a class of their own (:class:`History`) made from them, everything else taken as it is."""
        self.write: Callable[[SessionState, dict[str, Any]], dict[str, Any]] = namespace["write"]


_CODECS: dict[type[SessionState], _Codec] = {}


def _codec(cls: type[SessionState]) -> _Codec:
    codec = _CODECS.get(cls)
    if codec is None:
        codec = _CODECS[cls] = _Codec(cls)
    return codec


_COPIERS: dict[type[SessionState], Callable[[SessionState], SessionState]] = {}


def _copier(cls: type[SessionState]) -> Callable[[SessionState], SessionState]:
    """A function copying an instance of ``cls``: each container field (dict, list or set by its default) copied,
    every other field taken as is; written out once per class, so a checkpoint costs no more than the copies."""
    copier = _COPIERS.get(cls)
    if copier is None:
        copier = _COPIERS[cls] = _write_copier(cls)
    return copier


def _write_copier(cls: type[SessionState]) -> Callable[[SessionState], SessionState]:
    lines = ["def copy(state):", "    new = new_instance(cls)"]
    for f in dataclasses.fields(cls):
        factory = f.default_factory
        container = isinstance(factory, type) and issubclass(factory, _CONTAINERS)  # History is a list
        lines.append(f"    new.{f.name} = state.{f.name}.copy()" if container else f"    new.{f.name} = state.{f.name}")
    source = "\n".join([*lines, "    return new", ""])
    namespace: dict[str, Any] = {"new_instance": object.__new__, "cls": cls}
    exec(source, namespace)
    return namespace["copy"]  # type: ignore[no-any-return]


# ------------------------------------------------------------------ snapshots


def encode_snapshot(state: SessionState, flow: str, fingerprint: str) -> bytes:
    """The session as versioned JSON bytes: a header, then the state's fields."""
    header = {"format": SNAPSHOT_FORMAT, "version": SNAPSHOT_VERSION, "flow": flow, "fingerprint": fingerprint}
    return orjson.dumps(_codec(type(state)).write(state, header))


def decode_snapshot(snapshot: bytes | str | Mapping[str, Any], flow: str, fingerprint: str) -> SessionState:
    """Read a snapshot of flow ``flow`` (content ``fingerprint``); any problem is a :class:`SnapshotError`.

    Every field is checked strictly by type (a count is a non-negative integer, never a boolean or a float;
    a set a list of names ...). A mapping is read as the JSON it would be written as. What only the flow
    can check (node and slot ids, slot values) is :func:`fsmdial.restoring.read_session`'s job.
    """
    if isinstance(snapshot, Mapping):
        try:
            snapshot = orjson.dumps(dict(snapshot))  # one reading for every input: a mapping's JSON
        except TypeError as exc:
            raise SnapshotError(f"snapshot is not JSON: {exc}") from None
    elif isinstance(snapshot, (bytearray, memoryview)):
        snapshot = bytes(snapshot)
    elif not isinstance(snapshot, (bytes, str)):
        raise SnapshotError(f"a snapshot is JSON bytes, text or a mapping, not {type(snapshot).__name__}")
    try:
        data = orjson.loads(snapshot)
    except orjson.JSONDecodeError as exc:
        raise SnapshotError(f"snapshot is not valid JSON: {exc}") from None
    if not isinstance(data, dict) or data.get("format") != SNAPSHOT_FORMAT:
        raise SnapshotError("not an fsmdial session snapshot")
    version = data.get("version")
    if type(version) is int and version == 1 and isinstance(data.get("machine"), dict):  # not True, not 1.0
        data = _from_version_2(_from_version_1(data))
    elif type(version) is int and version == 2:
        data = _from_version_2(data)
    elif type(version) is not int or version != SNAPSHOT_VERSION:
        raise SnapshotError(
            f"snapshot format version {version!r} is not supported (this fsmdial reads version {SNAPSHOT_VERSION})"
        )
    if data.get("fingerprint") != fingerprint:
        raise SnapshotError(f"snapshot belongs to flow {data.get('flow')!r} with different content, not {flow!r}")
    if not isinstance(data.get("flow"), str):
        raise SnapshotError(f"snapshot header 'flow' must be text, not {data.get('flow')!r:.80}")
    for key in _HEADER:
        data.pop(key, None)  # ``data`` is this function's own copy
    return check_state(SessionState, data)


def check_state(cls: type[SessionState], data: Mapping[str, Any]) -> SessionState:
    """A session read from a snapshot's fields, each checked strictly by the pydantic type its field declares."""
    try:
        document = _model(cls).model_validate(data)
    except ValidationError as exc:
        raise SnapshotError(describe(exc)) from None
    return _codec(cls).adopt(document.__dict__)


_MODELS: dict[type[SessionState], type[BaseModel]] = {}


def _model(cls: type[SessionState]) -> type[BaseModel]:
    """The pydantic model of a snapshot's fields (every one required, nothing else allowed), built once per class."""
    model = _MODELS.get(cls)
    if model is None:
        spec: dict[str, Any] = {f.name: (f.metadata.get("schema", Any), ...) for f in dataclasses.fields(cls)}
        model = _MODELS[cls] = create_model(
            "SessionSnapshot", __config__=ConfigDict(extra="forbid", hide_input_in_errors=False), **spec
        )
    return model


def describe(exc: ValidationError, limit: int = 5) -> str:
    """A snapshot's problems, each with where it is (``visits.greet``, ``history.3.0``): missing fields first."""
    missing, other = [], []
    for error in exc.errors(include_url=False):
        where = ".".join(map(str, error["loc"]))
        if error["type"] == "missing":
            missing.append(f"no {where!r}")
        elif error["type"] == "extra_forbidden":
            other.append(f"unknown field {where!r}")
        else:
            given = orjson.dumps(error["input"], default=repr)[:60].decode(errors="replace")
            other.append(f"{where}: {error['msg']} (got {given})")
    problems = missing + other
    more = f" (and {len(problems) - limit} more)" if len(problems) > limit else ""
    return "snapshot is incomplete or malformed: " + "; ".join(problems[:limit]) + more


def _from_version_2(data: dict[str, Any]) -> dict[str, Any]:
    """A version 2 snapshot in version 3's layout: the question the session came through was not recorded (a
    commit then checks every confirmation of it the session visited, as version 2 did)."""
    return {**data, "came_through": data.get("came_through")}


def _from_version_1(data: dict[str, Any]) -> dict[str, Any]:
    """A version 1 snapshot (machine fields nested under ``machine``; some optional) in version 2's layout."""
    out = {k: v for k, v in data.items() if k != "machine"}
    try:
        out.update(data["machine"])
        out.setdefault("asked", None)
        for name, default in (
            ("visits", {}),
            ("declined", []),
            ("confirmed", []),
            ("last_action", None),
            ("calls", {}),
        ):
            out.setdefault(name, default)
    except (TypeError, ValueError) as exc:
        raise SnapshotError(f"snapshot is incomplete or malformed: {exc!r}") from None
    return out
