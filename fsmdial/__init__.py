"""fsmdial: an embedded dialogue engine. Flows compile to state machines; a local model only understands.

The public API is importable from here; each name loads its module on first
use, so ``import fsmdial`` stays fast and loads no model library::

    from fsmdial import Dialogue, load_flow, RulesUnderstander

``GGUFUnderstander`` needs the ``gguf`` extra (``pip install 'fsmdial[gguf]'``);
without it, using the name raises :class:`MissingExtraError`. It is importable by
name but left out of ``__all__``, so that ``from fsmdial import *`` works on any install.
"""

from __future__ import annotations

__version__ = "0.1.0"

from typing import TYPE_CHECKING, Any

OPTIONAL = frozenset({"GGUFUnderstander"})
"""Public names that need an extra: importable by name, not by ``from fsmdial import *``."""

_EXPORTS = {
    # the engine
    "Dialogue": "fsmdial.runtime",
    "Assistant": "fsmdial.assistant",
    "Conversation": "fsmdial.conversation",
    "SessionStore": "fsmdial.store",
    "TurnResult": "fsmdial.trace",
    # flows
    "Flow": "fsmdial.flow",
    "load_flow": "fsmdial.loader",
    "compile_flow": "fsmdial.compiler",
    "emit_source": "fsmdial.compiler",
    "ToolRegistry": "fsmdial.tools",
    # understanding
    "Understander": "fsmdial.understand.base",
    "UnderstandingState": "fsmdial.understand.base",
    "Parse": "fsmdial.understand.base",
    "RulesUnderstander": "fsmdial.understand.rules",
    "GGUFUnderstander": "fsmdial.understand.gguf",
    # errors
    "FsmdialError": "fsmdial.errors",
    "FlowError": "fsmdial.errors",
    "FlowIssue": "fsmdial.errors",
    "TurnError": "fsmdial.errors",
    "UnderstandingError": "fsmdial.errors",
    "ToolError": "fsmdial.errors",
    "ToolArgumentError": "fsmdial.errors",
    "ToolResultError": "fsmdial.errors",
    "ToolTimeout": "fsmdial.errors",
    "TemplateError": "fsmdial.errors",
    "FlowLoopError": "fsmdial.errors",
    "SnapshotError": "fsmdial.errors",
    "StoreError": "fsmdial.errors",
    "ConflictError": "fsmdial.errors",
    "UnknownSession": "fsmdial.store",
    "ModelError": "fsmdial.errors",
    "MissingExtraError": "fsmdial.errors",
}

__all__ = [
    "Dialogue",
    "Assistant",
    "Conversation",
    "SessionStore",
    "TurnResult",
    "Flow",
    "load_flow",
    "compile_flow",
    "emit_source",
    "ToolRegistry",
    "Understander",
    "UnderstandingState",
    "Parse",
    "RulesUnderstander",
    "FsmdialError",
    "FlowError",
    "FlowIssue",
    "TurnError",
    "UnderstandingError",
    "ToolError",
    "ToolArgumentError",
    "ToolResultError",
    "ToolTimeout",
    "TemplateError",
    "FlowLoopError",
    "SnapshotError",
    "StoreError",
    "ConflictError",
    "UnknownSession",
    "ModelError",
    "MissingExtraError",
    "__version__",
]


def __getattr__(name: str) -> Any:
    # Lazy (PEP 562): `import fsmdial` stays fast; each part loads on first use.
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'fsmdial' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_EXPORTS})


if TYPE_CHECKING:
    from .assistant import Assistant
    from .compiler import compile_flow, emit_source
    from .conversation import Conversation
    from .errors import (
        ConflictError,
        FlowError,
        FlowIssue,
        FlowLoopError,
        FsmdialError,
        MissingExtraError,
        ModelError,
        SnapshotError,
        StoreError,
        TemplateError,
        ToolArgumentError,
        ToolError,
        ToolResultError,
        ToolTimeout,
        TurnError,
        UnderstandingError,
    )
    from .flow import Flow
    from .loader import load_flow
    from .runtime import Dialogue
    from .store import SessionStore, UnknownSession
    from .tools import ToolRegistry
    from .trace import TurnResult
    from .understand.base import Parse, Understander, UnderstandingState
    from .understand.gguf import GGUFUnderstander as GGUFUnderstander  # not in __all__: needs an extra
    from .understand.rules import RulesUnderstander
