"""The errors of ``fsmdial serve``: a request the playground cannot carry out (the session is unchanged).

Each is a :class:`~fsmdial.errors.FsmdialError`; the app answers each with its own HTTP status.
"""

from __future__ import annotations

from ..errors import FsmdialError

__all__ = [
    "ServeError",
    "UnknownFlow",
    "NothingToUndo",
    "UndoRefused",
    "SessionFull",
    "BadRequest",
    "RequestTooLarge",
    "UnsupportedMediaType",
    "NotFound",
]


class ServeError(FsmdialError):
    """A request to ``fsmdial serve`` that cannot be carried out (the session is unchanged)."""


class UnknownFlow(ServeError):
    """The request names a flow this server does not serve."""


class NothingToUndo(ServeError):
    """Undo was asked for a session with no user turn left to undo."""


class UndoRefused(NothingToUndo):
    """Undo would go back past a turn whose committing action (``"commits": true``) succeeded: what it did
    outside the dialogue (a booking, a payment) stays done, so the turn stays in the history."""


class SessionFull(ServeError):
    """The session has reached the most events one session may hold."""


class BadRequest(ServeError):
    """The request is not what the API takes (not JSON, wrong fields)."""


class RequestTooLarge(BadRequest):
    """The request body is larger than the server accepts."""


class UnsupportedMediaType(BadRequest):
    """A POST with a body that does not say it is JSON."""


class NotFound(ServeError):
    """Nothing is served at this address."""
