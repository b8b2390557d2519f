"""Read flow documents (fsmdial's own format, or CHIEF) into validated :class:`Flow` objects."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

import orjson

from .errors import FlowError, FlowIssue
from .flow import Flow, check_document, read_flow

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
            raise FlowError(
                FlowIssue("", f"cannot read flow file: {getattr(exc, 'strerror', None) or exc}"), source=origin
            ) from None
        if len(raw) > MAX_FLOW_BYTES:
            raise FlowError(
                FlowIssue("", f"flow file is larger than {MAX_FLOW_BYTES // (1024 * 1024)} MiB"), source=origin
            )
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
    return read_flow(doc, origin=origin)


def _parse_json(raw: bytes, origin: str | None) -> Any:
    try:
        return orjson.loads(raw)
    except (orjson.JSONDecodeError, RecursionError) as exc:
        raise FlowError(FlowIssue("", f"not valid JSON: {exc}"), source=origin) from None
