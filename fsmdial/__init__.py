"""fsmdial: an embedded dialogue engine. Flows compile to state machines; a local model only understands.

The public API is importable from here; each name loads its module on first
use, so ``import fsmdial`` stays fast and loads no model library::

    from fsmdial import Dialogue, load_flow, RulesUnderstander

``GGUFUnderstander`` needs the ``gguf`` extra (``pip install 'fsmdial[gguf]'``);
without it, using the name raises :class:`MissingExtraError`. It is importable by
name but left out of ``__all__``, so that ``from fsmdial import *`` works on any install.

Here is the engine's API and its errors' main branches. The tools around it have their own homes:
:mod:`fsmdial.testing` (scripted conversations, the pytest plugin, benchmarks), :mod:`fsmdial.serve`
(the playground, the load test), :mod:`fsmdial.stores` (session stores); every error, the finer
ones too, is importable from :mod:`fsmdial.errors` or from the tool that raises it.
"""

from __future__ import annotations

__version__ = "0.1.0"

from typing import TYPE_CHECKING, Any

OPTIONAL = frozenset({"GGUFUnderstander"})
"""Public names that need an extra: importable by name, not by ``from fsmdial import *``."""


def _exports() -> dict[str, str]:
    """Public name -> its module, read from the ``if TYPE_CHECKING:`` imports at the end of this file.

    Those imports are the one list of public names: type checkers and IDEs read them as they are (each
    ``name as name`` is an export), and Python reads them here, as text, importing nothing (one regular
    expression over this file, well under a millisecond); ``__all__``, ``__dir__`` and the lazy imports of
    ``__getattr__`` come from the result. tests/test_packaging.py checks that this reading and Python's own
    parse of the block agree. The file is read through its loader, so a zipped install works too.
    """
    import re

    loader: Any = __spec__.loader
    try:
        text = loader.get_data(__file__).decode("utf-8").replace("\r\n", "\n")  # a checkout with CRLF lines too
    except OSError as exc:  # a frozen application that left the .py files out
        raise ImportError(
            f"fsmdial reads its public names from its own source, {__file__}, which cannot be read ({exc}): "
            "install fsmdial with its .py files (PyInstaller: --collect-all fsmdial)"
        ) from exc
    block = text[text.index("\nif TYPE_CHECKING:\n") :]
    return {
        name: f"fsmdial.{module}"
        for module, name in re.findall(r"^    from \.([\w.]+) import (\w+) as \2$", block, re.MULTILINE)
    }


_EXPORTS = _exports()


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
    # The public names, one `from .module import name as name` a line: _exports reads exactly that form.
    from .assistant import Assistant as Assistant
    from .compiler import compile_flow as compile_flow
    from .conversation import Conversation as Conversation
    from .errors import ConflictError as ConflictError
    from .errors import FlowError as FlowError
    from .errors import FsmdialError as FsmdialError
    from .errors import MissingExtraError as MissingExtraError
    from .errors import ModelError as ModelError
    from .errors import ModelServerError as ModelServerError
    from .errors import SetupError as SetupError
    from .errors import SnapshotError as SnapshotError
    from .errors import StoreError as StoreError
    from .errors import ToolError as ToolError
    from .errors import ToolFailure as ToolFailure
    from .errors import TurnError as TurnError
    from .errors import UnderstandingError as UnderstandingError
    from .errors import UnknownSession as UnknownSession
    from .flow import Flow as Flow
    from .loader import load_flow as load_flow
    from .runtime import Dialogue as Dialogue
    from .stores import SQLiteStore as SQLiteStore
    from .stores import open_store as open_store
    from .tools import ToolRegistry as ToolRegistry
    from .trace import TurnResult as TurnResult
    from .understand.base import Parse as Parse
    from .understand.base import Understander as Understander
    from .understand.base import UnderstandingState as UnderstandingState
    from .understand.model.gguf import GGUFUnderstander as GGUFUnderstander
    from .understand.rules import RulesUnderstander as RulesUnderstander
else:
    __all__ = [name for name in (*_EXPORTS, "__version__") if name not in OPTIONAL]
