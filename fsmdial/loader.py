"""Read flow documents (fsmdial's own format, or CHIEF) into validated :class:`Flow` objects."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Literal

import orjson
from pydantic import ValidationError

from .errors import FlowError, FlowIssue
from .flow import Flow, GraphIssues, check_document

FlowFormat = Literal["auto", "fsmdial", "chief", "sop"]

MAX_FLOW_BYTES = 16 * 1024 * 1024
"""Largest flow file read (16 MiB): ``/dev/zero`` or a runaway file is refused, not read into memory."""


def load_flow(source: str | Path | dict[str, Any] | bytes | Flow, *, format: FlowFormat = "auto") -> Flow:
    """Load and validate a flow from a path, JSON bytes, or an already parsed dict.

    ``format="auto"`` recognises CHIEF documents and SOP adjacency lists by their shape. Any problem
    raises :class:`FlowError` whose issues name the path of the bad value.
    """
    if isinstance(source, Flow):
        return source
    origin: str | None = None
    if isinstance(source, (str, Path)):
        path = Path(source)
        origin = str(path)
        try:
            with path.open("rb") as handle:  # bounded read: a device or a huge file never fills memory
                raw = handle.read(MAX_FLOW_BYTES + 1)
        except (OSError, ValueError) as exc:  # ValueError: a NUL character in the path
            raise FlowError(FlowIssue("", f"cannot read flow file: {getattr(exc, 'strerror', None) or exc}"), source=origin) from None
        if len(raw) > MAX_FLOW_BYTES:
            raise FlowError(FlowIssue("", f"flow file is larger than {MAX_FLOW_BYTES // (1024 * 1024)} MiB"), source=origin)
        doc = _parse_json(raw, origin)
        default_name = path.stem
    elif isinstance(source, (bytes, bytearray)):
        if len(source) > MAX_FLOW_BYTES:
            raise FlowError(FlowIssue("", f"flow document is larger than {MAX_FLOW_BYTES // (1024 * 1024)} MiB"))
        doc = _parse_json(bytes(source), None)
        default_name = "flow"
    else:
        doc = source
        default_name = "flow"
    return flow_from_document(doc, format=format, origin=origin, default_name=default_name)


def flow_from_document(
    doc: Any, *, format: FlowFormat = "auto", origin: str | None = None, default_name: str = "flow"
) -> Flow:
    """Validate a parsed JSON document as a flow (see :func:`load_flow`)."""
    from .importers.chief import chief_to_flow_dict, looks_like_chief
    from .importers.sop import looks_like_sop, sop_to_flow_dict

    if not isinstance(doc, dict):
        raise FlowError(FlowIssue("", f"a flow must be a JSON object, not {type(doc).__name__}"), source=origin)
    issues = check_document(doc)  # before the importers walk it: depth, non-finite numbers, surrogates
    if issues:
        raise FlowError(issues, source=origin)
    converters = {"chief": (looks_like_chief, chief_to_flow_dict), "sop": (looks_like_sop, sop_to_flow_dict)}
    for name, (recognise, convert) in converters.items():
        if format == name or (format == "auto" and recognise(doc)):
            try:
                doc = convert(doc, name=default_name)
            except FlowError as exc:
                raise FlowError(exc.issues, source=origin) from None
            break
    try:
        return Flow.model_validate(doc)
    except ValidationError as exc:
        raise FlowError(_issues_from_validation(exc, doc), source=origin) from None


def _parse_json(raw: bytes, origin: str | None) -> Any:
    try:
        return orjson.loads(raw)
    except (orjson.JSONDecodeError, RecursionError) as exc:
        raise FlowError(FlowIssue("", f"not valid JSON: {exc}"), source=origin) from None


def _issues_from_validation(exc: ValidationError, doc: Any) -> list[FlowIssue]:
    issues: list[FlowIssue] = []
    for error in exc.errors(include_url=False):
        ctx_error = (error.get("ctx") or {}).get("error")
        if isinstance(ctx_error, GraphIssues):
            issues.extend(ctx_error.issues)
            continue
        path = format_location(error["loc"], doc, missing=error["type"] == "missing") or "(flow)"
        message = error["msg"].removeprefix("Value error, ")
        if issues and issues[-1].path == path:  # one value that fits no member of a union: one issue
            if message not in issues[-1].message:
                issues[-1] = FlowIssue(path, f"{issues[-1].message}; or {message[:1].lower()}{message[1:]}")
            continue
        issues.append(FlowIssue(path, message))
    return issues


_PLAIN_KEY = re.compile(r"^[A-Za-z_$][A-Za-z0-9_$]*$")


def format_location(loc: tuple[Any, ...], doc: Any, *, missing: bool = False) -> str:
    """``('nodes', 2, 'node:request', 'slots', 0, 'type')`` -> ``nodes[2](ask_name).slots[0].type``.

    Only keys the document has are shown (``missing``: and the last, absent one);
    other names in ``loc`` are pydantic's union members (``str``, ``int``...).
    """
    out = ""
    current = doc
    for index, part in enumerate(loc):
        if isinstance(part, str) and part.partition(":")[0] in ("node", "cond", "arg"):
            continue  # union tags, not document keys
        is_key = isinstance(current, dict) and part in current
        if isinstance(part, str) and not is_key and not (missing and index == len(loc) - 1):
            continue
        if isinstance(part, int):
            out += f"[{part}]"
            current = current[part] if isinstance(current, list) and -len(current) <= part < len(current) else None
            node_id = current.get("id") if isinstance(current, dict) else None
            if node_id is not None and isinstance(node_id, (str, int)):
                out += f"({node_id})"
        else:
            if not _PLAIN_KEY.match(str(part)):  # "a.b", "", control characters: quoted, so the path stays readable
                out += f"[{orjson.dumps(str(part)).decode()}]"
            else:
                out += f".{part}" if out else str(part)
            current = current.get(part) if isinstance(current, dict) else None
    return out
