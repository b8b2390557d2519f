"""Python values as JSON: the one place fsmdial decides how a value it shows, records or hashes is written.

* :func:`jsonable`: a value as plain JSON data, for what is shown or recorded (a trace entry, the playground's
  view, a benchmark report). What JSON has no kind for is written as readable text; with ``storable=True``
  so is what orjson cannot write (integers beyond 64 bits, lone surrogates). Never for what must round-trip:
  a snapshot is written exactly or refused.
* :func:`dumps`: JSON bytes, exactly: orjson, or the standard library for integers beyond 64 bits (legal JSON
  that orjson refuses to write).

It imports nothing else of fsmdial, so every module may use it.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable, Mapping
from typing import Any

import orjson

__all__ = ["dumps", "jsonable"]


def jsonable(value: Any, *, storable: bool = False) -> Any:
    """``value`` as plain JSON data: mappings as objects with text keys, lists and tuples as arrays, text,
    numbers, booleans and ``None`` as they are, dates and times as ISO text (as snapshots hold them),
    anything else as its ``repr``. With ``storable``, also integers beyond 64 bits as their digits and lone
    surrogates as ``\\udXXX`` escapes: then orjson writes the result, as valid UTF-8."""
    if value is None or isinstance(value, (bool, float)):
        return value
    if isinstance(value, str):
        return value.encode("utf-8", "backslashreplace").decode("utf-8") if storable else value
    if isinstance(value, int):
        return str(value) if storable and not -(2**63) <= value < 2**64 else value
    if isinstance(value, Mapping):
        return {
            jsonable(k if isinstance(k, str) else str(k), storable=storable): jsonable(v, storable=storable)
            for k, v in value.items()
        }
    if isinstance(value, (list, tuple)):
        return [jsonable(v, storable=storable) for v in value]
    if isinstance(value, (dt.date, dt.time)):  # a datetime is a date
        return value.isoformat()
    return repr(value)


def dumps(data: Any, *, sort_keys: bool = False, default: Callable[[Any], Any] | None = None) -> bytes:
    """``data`` as compact UTF-8 JSON bytes, every number exact: by orjson, or, for integers beyond 64 bits
    (legal JSON, which orjson refuses), by the standard library (lone surrogates then as ``\\udXXX`` escapes).
    ``default`` writes what JSON has no kind for; without it such a value raises :class:`TypeError`."""
    try:
        return orjson.dumps(data, default=default, option=orjson.OPT_SORT_KEYS if sort_keys else None)
    except TypeError:
        text = json.dumps(data, ensure_ascii=False, separators=(",", ":"), sort_keys=sort_keys, default=default)
        return text.encode("utf-8", "backslashreplace")
