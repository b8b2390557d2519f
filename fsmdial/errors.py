"""The engine's typed errors. Every error fsmdial raises derives from :class:`FsmdialError`.

Errors say *what* went wrong and *where* (a path into the flow document, a
node id, a tool name), so a caller can show them to a flow author as they are.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any

__all__ = [
    "FsmdialError",
    "FlowIssue",
    "FlowError",
    "InputFileError",
    "TurnError",
    "UnderstandingError",
    "ModelServerError",
    "ModelServerTimeout",
    "ModelServerReplyTooLarge",
    "ToolError",
    "ToolCrashed",
    "ToolFailure",
    "ToolArgumentError",
    "ToolResultError",
    "ToolTimeout",
    "TemplateError",
    "FlowLoopError",
    "SnapshotError",
    "StoreError",
    "ConflictError",
    "UnknownSession",
    "DamagedTrace",
    "StoreUnavailable",
    "UnstorableValue",
    "ModelError",
    "MissingExtraError",
    "SetupError",
    "MissingPredicateError",
    "CommitGuardError",
    "GrammarError",
]
"""The engine's errors (``fsmdial`` exports their main branches). A tool's errors live beside the tool: the
playground's in :mod:`fsmdial.serve.errors`, the load test's in :mod:`fsmdial.serve.loadtest`, a conversation
suite's in :mod:`fsmdial.testing.suites` (tests/test_packaging.py checks where each error lives)."""


class FsmdialError(Exception):
    """Base class of every error raised by fsmdial."""


@dataclass(frozen=True)
class FlowIssue:
    """One problem found in a flow document: where it is and what is wrong."""

    path: str
    message: str

    def __str__(self) -> str:
        return f"{self.path}: {self.message}" if self.path else self.message


class FlowError(FsmdialError):
    """A flow document is malformed or its graph is inconsistent.

    ``issues`` lists every problem found; ``path`` is the location of the first
    (e.g. ``nodes[2].slots[0].type`` or ``edge ask_name->query``).
    """

    def __init__(self, issues: list[FlowIssue] | FlowIssue, source: str | None = None):
        self.issues = [issues] if isinstance(issues, FlowIssue) else list(issues)
        self.source = source
        self.path = self.issues[0].path if self.issues else ""
        prefix = f"{source}: " if source else ""
        super().__init__("\n".join(prefix + str(issue) for issue in self.issues))


class InputFileError(FsmdialError, ValueError):
    """A file given to fsmdial (a flow, a schema, a suite) cannot be read as what it must be: missing, a folder, too
    large, not UTF-8, not JSON or nested too deep (:mod:`fsmdial.userfiles`). ``path`` names the file (None: bytes
    given directly), ``problem`` says what is wrong."""

    def __init__(self, path: str | None, problem: str):
        self.path = path
        self.problem = problem
        super().__init__(f"{path}: {problem}" if path else problem)


class TurnError(FsmdialError):
    """A turn failed. The session is left exactly as it was before the turn."""


class UnderstandingError(TurnError):
    """The understander could not produce a parse (model failure, bad output)."""


class ModelServerError(UnderstandingError):
    """The model server could not be reached, timed out or kept failing (after retries): the turn is rolled
    back, and can be sent again once the server is back. ``url`` names the server."""

    def __init__(self, url: str, message: str):
        self.url = url
        super().__init__(f"model server {url}: {message}")


class ModelServerTimeout(ModelServerError):
    """The model server did not answer within the model call's deadline (every retry and backoff included)."""


class ModelServerReplyTooLarge(ModelServerError):
    """The model server's answer was larger than the client's ``max_reply`` bytes (refused, never read whole)."""


class ToolError(TurnError):
    """A tool was missing, raised, timed out, or returned a result of the wrong shape."""

    def __init__(self, tool: str, message: str):
        self.tool = tool
        super().__init__(f"tool {tool!r}: {message}")


class ToolCrashed(ToolError):
    """A tool raised an exception it does not declare: a programming error, never a business outcome. The turn
    fails (the flow's failure edge is not taken) and the exception is logged; it is this error's ``__cause__``."""


class ToolFailure(FsmdialError):
    """Raise this inside a tool for a business failure ("no table free"): the action's status is ``failure`` and
    the flow's failure edge is taken (without one, the turn fails with :class:`ToolError`). A tool may also declare
    its own exception types (``ToolRegistry.register(..., failures=(SoldOut,))``), or return a result that its
    node's ``success_when`` judges."""


class ToolArgumentError(ToolError):
    """The arguments the flow mapped for a tool failed its argument model; the tool was not called."""


class ToolResultError(ToolError):
    """A tool returned a result that does not fit the shape its action node declares."""


class ToolTimeout(ToolError):
    """A tool did not return within its timeout."""


class TemplateError(TurnError):
    """A response template could not be filled."""


class CommitGuardError(TurnError):
    """A committing action (``"commits": true``) was about to run with values the user had not confirmed: the
    engine's own invariant failed, so nothing is called and the turn is rolled back."""


class FlowLoopError(TurnError):
    """The machine entered more nodes in one turn than the step limit allows."""


class SnapshotError(FsmdialError):
    """A session snapshot is unreadable, of an unknown version, or of another flow."""


class StoreError(TurnError):
    """The session store could not read or write (the turn is rolled back)."""


class ConflictError(StoreError):
    """Another writer committed a turn of the same session first (optimistic concurrency)."""


class UnknownSession(StoreError, KeyError):
    """The store has no session of this id."""

    def __init__(self, session_id: str):
        self.session_id = session_id
        StoreError.__init__(self, f"no session {session_id!r} in the store")

    __str__ = StoreError.__str__  # KeyError would show the message quoted


class DamagedTrace(StoreError):
    """A stored trace cannot be read (not JSON, not an object): ``session_id`` and ``turn`` say which row.
    ``Store.traces(id, damaged="mark")`` gives a marker in its place instead."""

    def __init__(self, message: str, session_id: str, turn: int):
        self.session_id, self.turn = session_id, turn
        super().__init__(message)


class StoreUnavailable(StoreError):
    """The database cannot be reached or stays busy: down or restarting, a connection lost, a file that cannot be
    opened, a write lock held elsewhere past the store's ``timeout``. Nothing was written, and the same call may
    succeed later (the store reconnects by itself); ``fsmdial serve`` answers it 503 with ``Retry-After``."""


class UnstorableValue(StoreError):
    """A session id or flow name that not every store can keep as it is (``fsmdial.stores.storable_text``): refused
    by every store alike, before anything is written."""


class ModelError(FsmdialError):
    """A GGUF model file is missing, unreadable, or unusable."""


class GrammarError(FsmdialError):
    """A JSON schema uses something the bounded grammar builder does not support."""


class MissingExtraError(ModelError, ImportError):
    """An optional part of fsmdial is used but its dependencies are not installed.

    ``extra`` names the extra that installs them (``pip install 'fsmdial[<extra>]'``);
    ``module`` is the module that failed to import. Also an :class:`ImportError`.
    """

    def __init__(self, extra: str, needed_by: str, cause: ImportError | str, *, packages: str | None = None):
        self.extra = extra
        self.module = cause.name if isinstance(cause, ImportError) else None
        needs = f"{packages}: " if packages else ""
        super().__init__(f"{needed_by} needs {needs}`pip install 'fsmdial[{extra}]'` ({cause})")


class SetupError(FsmdialError):
    """A Dialogue cannot be set up as asked (e.g. the flow needs a predicate that was not given)."""


class MissingPredicateError(SetupError, TurnError):
    """The flow calls a named predicate that was not given. Also a :class:`TurnError`, as it was before
    :class:`SetupError` existed."""


def require(module: str, extra: str, needed_by: str) -> Any:
    """Import ``module`` for a part of fsmdial an optional extra installs; :class:`MissingExtraError`
    naming ``extra`` when it is not installed."""
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise MissingExtraError(extra, needed_by, exc) from exc
