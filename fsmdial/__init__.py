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

_EXPORTS = {  # the one list of public names: __all__, __dir__ and the lazy imports come from it
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
    "CommitGuardError": "fsmdial.errors",
    "GrammarError": "fsmdial.errors",
    "UnderstandingError": "fsmdial.errors",
    "ModelServerError": "fsmdial.errors",
    "LoadTestError": "fsmdial.errors",
    "ToolError": "fsmdial.errors",
    "ToolArgumentError": "fsmdial.errors",
    "ToolResultError": "fsmdial.errors",
    "ToolTimeout": "fsmdial.errors",
    "TemplateError": "fsmdial.errors",
    "FlowLoopError": "fsmdial.errors",
    "SnapshotError": "fsmdial.errors",
    "StoreError": "fsmdial.errors",
    "ConflictError": "fsmdial.errors",
    "UnknownSession": "fsmdial.errors",
    "ModelError": "fsmdial.errors",
    "MissingExtraError": "fsmdial.errors",
    "ToolCrashed": "fsmdial.errors",
    "ToolFailure": "fsmdial.errors",
    "DamagedTrace": "fsmdial.errors",
    "SetupError": "fsmdial.errors",
    "MissingPredicateError": "fsmdial.errors",
    "ServeError": "fsmdial.errors",
    "UnknownFlow": "fsmdial.errors",
    "NothingToUndo": "fsmdial.errors",
    "UndoRefused": "fsmdial.errors",
    "SessionFull": "fsmdial.errors",
    "BadRequest": "fsmdial.errors",
    "RequestTooLarge": "fsmdial.errors",
    "UnsupportedMediaType": "fsmdial.errors",
    "NotFound": "fsmdial.errors",
    "SuiteError": "fsmdial.errors",
}


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
    # Type checkers and IDEs read the public names here (each `name as name` is an export); they read a
    # computed __all__ as empty, so they do not see it. tests/test_packaging.py checks these are _EXPORTS.
    from .assistant import Assistant as Assistant
    from .compiler import compile_flow as compile_flow
    from .compiler import emit_source as emit_source
    from .conversation import Conversation as Conversation
    from .errors import BadRequest as BadRequest
    from .errors import CommitGuardError as CommitGuardError
    from .errors import ConflictError as ConflictError
    from .errors import DamagedTrace as DamagedTrace
    from .errors import FlowError as FlowError
    from .errors import FlowIssue as FlowIssue
    from .errors import FlowLoopError as FlowLoopError
    from .errors import FsmdialError as FsmdialError
    from .errors import GrammarError as GrammarError
    from .errors import LoadTestError as LoadTestError
    from .errors import MissingExtraError as MissingExtraError
    from .errors import MissingPredicateError as MissingPredicateError
    from .errors import ModelError as ModelError
    from .errors import ModelServerError as ModelServerError
    from .errors import NotFound as NotFound
    from .errors import NothingToUndo as NothingToUndo
    from .errors import RequestTooLarge as RequestTooLarge
    from .errors import ServeError as ServeError
    from .errors import SessionFull as SessionFull
    from .errors import SetupError as SetupError
    from .errors import SnapshotError as SnapshotError
    from .errors import StoreError as StoreError
    from .errors import SuiteError as SuiteError
    from .errors import TemplateError as TemplateError
    from .errors import ToolArgumentError as ToolArgumentError
    from .errors import ToolCrashed as ToolCrashed
    from .errors import ToolError as ToolError
    from .errors import ToolFailure as ToolFailure
    from .errors import ToolResultError as ToolResultError
    from .errors import ToolTimeout as ToolTimeout
    from .errors import TurnError as TurnError
    from .errors import UnderstandingError as UnderstandingError
    from .errors import UndoRefused as UndoRefused
    from .errors import UnknownFlow as UnknownFlow
    from .errors import UnknownSession as UnknownSession
    from .errors import UnsupportedMediaType as UnsupportedMediaType
    from .flow import Flow as Flow
    from .loader import load_flow as load_flow
    from .runtime import Dialogue as Dialogue
    from .store import SessionStore as SessionStore
    from .tools import ToolRegistry as ToolRegistry
    from .trace import TurnResult as TurnResult
    from .understand.base import Parse as Parse
    from .understand.base import Understander as Understander
    from .understand.base import UnderstandingState as UnderstandingState
    from .understand.gguf import GGUFUnderstander as GGUFUnderstander
    from .understand.rules import RulesUnderstander as RulesUnderstander
else:
    __all__ = [name for name in (*_EXPORTS, "__version__") if name not in OPTIONAL]
