"""Read flow documents (fsmdial's own format, or CHIEF) into validated :class:`Flow` objects."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from .errors import FlowError, FlowIssue, InputFileError
from .flow import Flow, check_document, read_flow
from .userfiles import MAX_FILE_BYTES, parse_json, read_bytes

FlowFormat = Literal["auto", "fsmdial", "chief", "sop"]

MAX_FLOW_BYTES = MAX_FILE_BYTES
"""Largest flow file read (16 MiB): ``/dev/zero`` or a runaway file is refused, not read into memory."""


def load_flow(source: str | Path | dict[str, Any] | bytes | Flow, *, format: FlowFormat = "auto") -> Flow:
    """Load and validate a flow from a path, JSON bytes, or an already parsed dict.

    ``format="auto"`` recognises CHIEF documents and SOP adjacency lists by their shape. Any problem
    raises :class:`FlowError` whose issues name the path of the bad value. A file is read by
    :mod:`fsmdial.userfiles` (bounded, UTF-8, JSON); its nesting is :func:`~fsmdial.flow.check_document`'s.
    """
    if isinstance(source, Flow):
        return source
    origin: str | None = None
    try:
        if isinstance(source, (str, Path)):
            path = Path(source)
            origin = str(path)
            doc = parse_json(read_bytes(path, limit=MAX_FLOW_BYTES, what="flow file"), origin=origin, max_nesting=None)
            default_name = path.stem
        elif isinstance(source, (bytes, bytearray)):
            if len(source) > MAX_FLOW_BYTES:
                raise InputFileError(None, f"flow document is larger than {MAX_FLOW_BYTES // (1024 * 1024)} MiB")
            doc = parse_json(bytes(source), origin=None, max_nesting=None)
            default_name = "flow"
        else:
            doc = source
            default_name = "flow"
    except InputFileError as exc:
        raise FlowError(FlowIssue("", exc.problem), source=origin) from None
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
