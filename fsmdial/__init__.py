"""fsmdial: an embedded dialogue engine. Flows compile to state machines; a local model only understands."""

from __future__ import annotations

__version__ = "0.1.0"

from typing import TYPE_CHECKING, Any

__all__ = ["Dialogue", "Flow", "ToolRegistry", "TurnResult", "compile_flow", "emit_source", "load_flow", "__version__"]

_EXPORTS = {
    "Dialogue": "fsmdial.runtime",
    "Flow": "fsmdial.flow",
    "ToolRegistry": "fsmdial.tools",
    "TurnResult": "fsmdial.trace",
    "compile_flow": "fsmdial.compiler",
    "emit_source": "fsmdial.compiler",
    "load_flow": "fsmdial.loader",
}


def __getattr__(name: str) -> Any:
    # Lazy: `import fsmdial` stays fast; the engine loads on first use.
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'fsmdial' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


if TYPE_CHECKING:
    from .compiler import compile_flow, emit_source
    from .flow import Flow
    from .loader import load_flow
    from .runtime import Dialogue
    from .tools import ToolRegistry
    from .trace import TurnResult
