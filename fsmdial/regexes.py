"""Slot patterns as the standard library parses them, for flow validation.

Kept apart from the grammar translator (``understand/grammar.py``) so that ``flow.py`` depends on
nothing that depends on it back.
"""

from __future__ import annotations

from typing import Any

try:  # Python 3.11+: the parser lives in re._parser
    from re import _parser as _sre_parse  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - older layouts
    import sre_parse as _sre_parse  # type: ignore[no-redef]


def regex_parse(pattern: str) -> tuple[Any, int]:
    """The standard library's own parse of ``pattern``: its items as ``(opcode, argument)``
    pairs (``str(opcode)`` names it, e.g. ``"MAX_REPEAT"``) and its global flags.

    Raises ``re.error`` for an invalid pattern. Flow validation reads the items to refuse
    patterns whose matching cost can explode.
    """
    tree = _sre_parse.parse(pattern)
    return list(tree), int(tree.state.flags)
