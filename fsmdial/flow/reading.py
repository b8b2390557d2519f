"""A parsed document as a :class:`Flow`, or a :class:`FlowError` whose issues name the document's own paths.

Shared by everything that builds a flow from data (the loader, compiled sources re-reading their own flow),
so pydantic's errors never reach a user raw.
"""

from __future__ import annotations

import re
from typing import Any

import orjson
from pydantic import ValidationError

from ..errors import FlowError, FlowIssue
from .document import Flow, GraphIssues


def read_flow(doc: Any, *, origin: str | None = None) -> Flow:
    """``doc`` (fsmdial's own format) validated as a :class:`Flow`; :class:`FlowError` with paths if it is not one."""
    try:
        return Flow.model_validate(doc)
    except ValidationError as exc:
        raise FlowError(_issues_from_validation(exc, doc), source=origin) from None


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
