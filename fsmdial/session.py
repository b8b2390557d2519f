"""``SessionState``: everything one conversation holds, in one place.

A :class:`~fsmdial.runtime.Dialogue` keeps exactly one :class:`SessionState`; the
compiled state machine reads and writes the same object. Because the state is
one dataclass:

* a turn's checkpoint is :meth:`SessionState.copy` and its rollback is putting
  the copy back (no field can be forgotten);
* a snapshot is :meth:`SessionState.to_dict` plus a header (format, version,
  flow fingerprint), and :meth:`SessionState.from_dict` reads it back.

A field added to the dataclass is therefore saved, restored and rolled back
everywhere; ``tests/test_session.py`` checks this by walking the fields.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import orjson

from .errors import SnapshotError

SNAPSHOT_FORMAT = "fsmdial.session"
SNAPSHOT_VERSION = 2
"""Version 2: the state's fields at the top level. Version 1 (fields split under ``machine``) is still read."""

_HEADER = frozenset(("format", "version", "flow", "fingerprint"))


def _counts(raw: Any) -> dict[str, int]:
    return {str(key): int(value) for key, value in raw.items()}


def _history(raw: Any) -> list[tuple[str, str]]:
    return [(str(role), str(text)) for role, text in raw]


def _optional_str(raw: Any) -> str | None:
    return None if raw is None else str(raw)


def _keep(raw: Any) -> Any:
    return raw


def _state(default: Callable[[], Any], read: Callable[[Any], Any] = dict) -> Any:
    """A field: its default factory, and how a snapshot's JSON value is read back (and checked)."""
    return field(default_factory=default, metadata={"read": read})


@dataclass(eq=True, slots=True)
class SessionState:
    """One session. Containers are replaced or updated, their values never mutated in place,
    so a shallow copy of each container is a full checkpoint."""

    node: str = field(default="", metadata={"read": _keep})
    """The current node (checked against the flow's nodes when the session is used)."""
    slots: dict[str, Any] = _state(dict)
    """Slot values collected so far."""
    results: dict[str, dict[str, Any]] = _state(dict)
    """What each external action returned (this visit)."""
    status: dict[str, str] = _state(dict)
    """``success`` / ``failure`` of each external action (this visit)."""
    calls: dict[str, dict[str, Any]] = _state(dict)
    """The arguments each external action was last called with (a repeat with the same ones is skipped)."""
    informed: set[str] = _state(set, set)
    """Nodes whose message was already told in the current visit."""
    answers: dict[str, str] = _state(dict)
    """The user's answer (yes/no/choice) to each confirmation."""
    last_action: str | None = field(default=None, metadata={"read": _optional_str})
    """The external action whose result ``{result.x}`` reads."""
    visits: dict[str, int] = _state(dict, _counts)
    """Times each node was entered."""
    declined: set[str] = _state(set, set)
    """Slots the user declined to give."""
    confirmed: set[str] = _state(set, set)
    """Slots whose value the user confirmed."""
    asked: str | None = field(default=None, metadata={"read": _optional_str})
    """The slot the bot's last question asked for."""
    retries: dict[str, int] = _state(dict, _counts)
    """Invalid values in a row, per slot."""
    ended: bool = field(default=False, metadata={"read": bool})
    history: list[tuple[str, str]] = _state(list, _history)
    """``(role, text)`` of every message, user and bot."""
    turns: int = field(default=0, metadata={"read": int})

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

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> SessionState:
        """Read :meth:`to_dict`'s output back. Raises :class:`SnapshotError` for a missing, unknown or malformed field."""
        readers = _readers(cls)
        names = _NAMES[cls]
        try:
            new = _codec(cls).read(data)  # every field read (a KeyError if one is missing) ...
            if len(data) == len(names):  # ... and nothing else there
                return new
        except (KeyError, TypeError, ValueError, AttributeError):
            pass
        unknown = sorted(data.keys() - names)
        if unknown:
            raise SnapshotError(f"snapshot is incomplete or malformed: unknown field(s) {', '.join(unknown)}")
        missing = [name for name, _ in readers if name not in data]
        if missing:
            raise SnapshotError(f"snapshot is incomplete or malformed: no {missing[0]!r}")
        for name, read in readers:  # find the field at fault, to name it
            try:
                read(data[name])
            except (TypeError, ValueError, AttributeError) as exc:
                raise SnapshotError(f"snapshot is incomplete or malformed: {name!r}: {exc!r}") from None
        raise SnapshotError("snapshot is incomplete or malformed")  # pragma: no cover - a reader failed only once


_CONTAINERS = (dict, list, set)


class _Codec:
    """Functions written out once per class for its fields: :meth:`SessionState.copy` runs every turn and
    snapshots every stored turn, so they cost no more than the copies and conversions themselves."""

    def __init__(self, cls: type[SessionState]):
        fields = dataclasses.fields(cls)
        namespace: dict[str, Any] = {"new_instance": object.__new__, "cls": cls, "sorted": sorted}
        write = ["def write(state, out):"]
        read = ["def read(data):", "    new = new_instance(cls)"]
        for index, f in enumerate(fields):
            kind = f.default_factory if f.default_factory is not dataclasses.MISSING else None
            write.append(f"    out[{f.name!r}] = " + (f"sorted(state.{f.name})" if kind is set else f"state.{f.name}"))
            reader = f.metadata.get("read", _keep)
            namespace[f"read_{index}"] = reader
            value = f"data[{f.name!r}]" if reader is _keep else f"read_{index}(data[{f.name!r}])"
            read.append(f"    new.{f.name} = {value}")
        source = "\n".join([*write, "    return out", *read, "    return new", ""])
        exec(source, namespace)
        self.write: Callable[[SessionState, dict[str, Any]], dict[str, Any]] = namespace["write"]
        self.read: Callable[[Mapping[str, Any]], SessionState] = namespace["read"]


_CODECS: dict[type[SessionState], _Codec] = {}


def _codec(cls: type[SessionState]) -> _Codec:
    codec = _CODECS.get(cls)
    if codec is None:
        codec = _CODECS[cls] = _Codec(cls)
    return codec


_COPIERS: dict[type[SessionState], Callable[[SessionState], SessionState]] = {}
_READERS: dict[type[SessionState], tuple[tuple[str, Callable[[Any], Any]], ...]] = {}
_NAMES: dict[type[SessionState], frozenset[str]] = {}


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
        container = f.default_factory is not dataclasses.MISSING and f.default_factory in _CONTAINERS
        lines.append(f"    new.{f.name} = state.{f.name}.copy()" if container else f"    new.{f.name} = state.{f.name}")
    source = "\n".join([*lines, "    return new", ""])
    namespace: dict[str, Any] = {"new_instance": object.__new__, "cls": cls}
    exec(source, namespace)
    return namespace["copy"]  # type: ignore[no-any-return]


def _readers(cls: type[SessionState]) -> tuple[tuple[str, Callable[[Any], Any]], ...]:
    """Each field's name and how its JSON value is read back, in field order (worked out once per class)."""
    readers = _READERS.get(cls)
    if readers is None:
        readers = _READERS[cls] = tuple((f.name, f.metadata.get("read", _keep)) for f in dataclasses.fields(cls))
        _NAMES[cls] = frozenset(name for name, _ in readers)
    return readers


# ------------------------------------------------------------------ snapshots


def encode_snapshot(state: SessionState, flow: str, fingerprint: str) -> bytes:
    """The session as versioned JSON bytes: a header, then the state's fields."""
    header = {"format": SNAPSHOT_FORMAT, "version": SNAPSHOT_VERSION, "flow": flow, "fingerprint": fingerprint}
    return orjson.dumps(_codec(type(state)).write(state, header))


def decode_snapshot(snapshot: bytes | str | Mapping[str, Any], flow: str, fingerprint: str) -> SessionState:
    """Read a snapshot of flow ``flow`` (content ``fingerprint``); any problem is a :class:`SnapshotError`."""
    try:
        data = orjson.loads(snapshot) if isinstance(snapshot, (bytes, str)) else dict(snapshot)
    except orjson.JSONDecodeError as exc:
        raise SnapshotError(f"snapshot is not valid JSON: {exc}") from None
    if not isinstance(data, dict) or data.get("format") != SNAPSHOT_FORMAT:
        raise SnapshotError("not an fsmdial session snapshot")
    version = data.get("version")
    if version == 1 and isinstance(data.get("machine"), dict):
        data = _from_version_1(data)
    elif version != SNAPSHOT_VERSION or isinstance(version, bool):
        raise SnapshotError(
            f"snapshot format version {version!r} is not supported (this fsmdial reads version {SNAPSHOT_VERSION})"
        )
    if data.get("fingerprint") != fingerprint:
        raise SnapshotError(f"snapshot belongs to flow {data.get('flow')!r} with different content, not {flow!r}")
    for key in _HEADER:
        data.pop(key, None)  # ``data`` is this function's own copy
    return SessionState.from_dict(data)


def _from_version_1(data: dict[str, Any]) -> dict[str, Any]:
    """A version 1 snapshot (machine fields nested under ``machine``; some optional) in version 2's layout."""
    out = {k: v for k, v in data.items() if k != "machine"}
    try:
        out.update(data["machine"])
        out.setdefault("asked", None)
        for name, default in (("visits", {}), ("declined", []), ("confirmed", []), ("last_action", None), ("calls", {})):
            out.setdefault(name, default)
    except (TypeError, ValueError) as exc:
        raise SnapshotError(f"snapshot is incomplete or malformed: {exc!r}") from None
    return out
