"""The ASGI app of ``fsmdial serve``: the page, its static files, and the JSON API under it.

    POST /sessions                 {"flow": NAME?}  -> a new session's view (201)
    GET  /sessions/{id}                             -> the session's view
    POST /sessions/{id}/turns      {"text": TEXT}   -> the view after the turn
    POST /sessions/{id}/undo                        -> the view after undoing the last turn
    GET  /sessions/{id}/download                    -> snapshot + every event's trace (JSON file)
    GET  /flows                                     -> the flows served, with their diagrams

Everything the server does with a session runs off the event loop (the
understanding may be a slow model). Turns (and starting and undoing a session)
run one at a time on one thread of their own, ``fsmdial-turns``: queued turns
wait there, never in the pool that answers reads, so a GET of another session
is answered while turns queue; and every tool call (without a ``timeout``) runs
on that one thread, so a tool may keep a thread-bound resource such as an
SQLite connection opened on first use. Errors are
answered as ``{"error": {"type": ..., "message": ...}}`` with a status that
fits; an unexpected failure, or a tool's own exception, is logged and answered without its details.
Requests are untrusted: bodies are size-limited JSON, posts must say they are
JSON (a cross-site form cannot send them), session ids and file names from
the URL are looked up, never used as paths, and the page's Content Security
Policy allows no inline script. When the session store or the model server is
unavailable the answer is 503 with ``Retry-After`` (the same request may be sent
again; nothing was changed), and no answer holds a credential of the store's URL.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import re
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from importlib import resources
from typing import Any

import orjson
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from ..errors import (
    ConflictError,
    FsmdialError,
    ModelServerError,
    SnapshotError,
    StoreUnavailable,
    ToolError,
    TurnError,
    UnknownSession,
)
from .errors import (
    BadRequest,
    NotFound,
    NothingToUndo,
    RequestTooLarge,
    SessionFull,
    UnknownFlow,
    UnsupportedMediaType,
)
from .sessions import Playground

log = logging.getLogger("fsmdial.serve")

RETRY_AFTER = 5
"""Seconds a client is asked (``Retry-After``) to wait before sending again a request answered 503."""

MAX_BODY_BYTES = 16 * 1024
"""Largest request body accepted (a turn's text is cut to the dialogue's own limit, 2000 characters)."""

SESSION_ID = re.compile(r"[0-9a-f]{32}")

STATIC = {
    "app.js": "text/javascript; charset=utf-8",
    "style.css": "text/css; charset=utf-8",
    "mermaid.min.js": "text/javascript; charset=utf-8",
}
"""The only files served besides the page (looked up by name: nothing from the URL reaches the file system)."""

SECURITY_HEADERS = {
    # Mermaid styles its SVG with <style> elements and style attributes, hence 'unsafe-inline' for styles only.
    "content-security-policy": (
        "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
        "font-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    ),
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "cache-control": "no-store",
}


STATUS: tuple[tuple[type[BaseException], int], ...] = (
    (UnknownSession, 404),
    (UnknownFlow, 404),
    (NotFound, 404),
    (RequestTooLarge, 413),
    (UnsupportedMediaType, 415),
    (BadRequest, 400),
    (NothingToUndo, 409),
    (ConflictError, 409),
    (SessionFull, 409),
    (SnapshotError, 409),
    (ModelServerError, 503),  # the model server is down: the same turn may be sent again later
    (StoreUnavailable, 503),  # the database is down or busy: nothing was written; the same request may come again
    (TurnError, 422),
    (FsmdialError, 422),
)
"""HTTP status of each typed error (the first class that matches wins)."""


def json_response(data: Any, status: int = 200, headers: dict[str, str] | None = None) -> Response:
    return Response(
        orjson.dumps(data), status, headers={**SECURITY_HEADERS, **(headers or {})}, media_type="application/json"
    )


def error_response(exc: BaseException, redact: Callable[[str], str] = str) -> Response:
    """The answer to a request that failed with ``exc``; ``redact`` takes what must not be shown (the store's
    credentials) out of the message."""
    for cls, status in STATUS:
        if isinstance(exc, cls):
            message = redact(public_message(exc))
            if isinstance(exc, StoreUnavailable):
                log.warning("the session store is unavailable: %s", message)
            headers = {"retry-after": str(RETRY_AFTER)} if status == 503 else None
            return json_response({"error": {"type": type(exc).__name__, "message": message}}, status, headers)
    log.exception("request failed", exc_info=exc)
    message = "the server failed to answer; nothing was changed (the details are in the server's log)"
    return json_response({"error": {"type": "InternalError", "message": message}}, 500)


def public_message(exc: BaseException) -> str:
    """What the browser is told. A tool's own exception (the cause of a :class:`ToolError`) may hold anything (a
    database URL with its password), so its text is only logged; the browser learns which tool failed."""
    if isinstance(exc, ToolError) and exc.__cause__ is not None:
        log.error("tool %r failed: %s", exc.tool, exc, exc_info=exc)
        return f"tool {exc.tool!r} failed; nothing was changed (the details are in the server's log)"
    return str(exc)


async def read_json(request: Request) -> dict[str, Any]:
    """The body of a POST as a JSON object, at most :data:`MAX_BODY_BYTES`. An empty body reads as ``{}``, and
    may come with no content type at all (``curl -X POST .../undo``); any other body must say it is JSON (a
    cross-site form always sends a form content type, so it cannot post one)."""
    media_type = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if media_type not in ("application/json", ""):
        raise UnsupportedMediaType(f"send the body as application/json, not {media_type!r}")
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > MAX_BODY_BYTES:
        raise RequestTooLarge(f"the body has {declared} bytes; the most accepted is {MAX_BODY_BYTES}")
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY_BYTES:
            raise RequestTooLarge(f"the body is longer than {MAX_BODY_BYTES} bytes, the most accepted")
    if not media_type and body:
        raise UnsupportedMediaType("send the body as application/json, not 'nothing'")
    if not body.strip():
        return {}
    try:
        data = orjson.loads(body)
    except orjson.JSONDecodeError as exc:
        raise BadRequest(f"the body is not valid JSON: {exc}") from None
    if not isinstance(data, dict):
        raise BadRequest(f"the body must be a JSON object, not {type(data).__name__}")
    return data


def session_id(request: Request) -> str:
    value = request.path_params["session_id"]
    if not SESSION_ID.fullmatch(value):
        raise UnknownSession(value)
    return value


def create_app(playground: Playground, *, allowed_hosts: list[str] | None = None) -> Starlette:
    """The app serving ``playground``. ``allowed_hosts`` are the Host headers answered (default:
    the loopback names; a page of another site reaching the port through DNS rebinding is refused)."""

    turns = ThreadPoolExecutor(max_workers=1, thread_name_prefix="fsmdial-turns")

    async def in_turn_thread(function: Callable[..., Any], *args: Any) -> Any:
        """``function(*args)`` on the one turn thread (see the module docstring)."""
        return await asyncio.get_running_loop().run_in_executor(turns, functools.partial(function, *args))

    def endpoint(handler: Callable[[Request], Any]) -> Callable[[Request], Any]:
        async def wrapped(request: Request) -> Response:
            try:
                return await handler(request)
            except Exception as exc:  # every failure is a typed JSON answer, never a traceback
                return error_response(exc, playground.store.redact)

        return wrapped

    @endpoint
    async def page(request: Request) -> Response:
        html = resources.files(__package__).joinpath("static", "index.html").read_bytes()
        return Response(html, headers=SECURITY_HEADERS, media_type="text/html; charset=utf-8")

    @endpoint
    async def static(request: Request) -> Response:
        name = request.path_params["name"]
        media_type = STATIC.get(name)
        if media_type is None:
            raise NotFound(f"no static file {name!r}")
        data = await run_in_threadpool(resources.files(__package__).joinpath("static", name).read_bytes)
        headers = {**SECURITY_HEADERS, "cache-control": "max-age=3600" if name == "mermaid.min.js" else "no-cache"}
        return Response(data, headers=headers, media_type=media_type)

    @endpoint
    async def flows(request: Request) -> Response:
        return json_response(playground.flows())

    @endpoint
    async def create(request: Request) -> Response:
        body = await read_json(request)
        flow = body.get("flow")
        if flow is not None and not isinstance(flow, str):
            raise BadRequest("'flow' must be a flow's name (a string) or left out")
        return json_response(await in_turn_thread(playground.create, flow), 201)

    @endpoint
    async def view(request: Request) -> Response:
        return json_response(await run_in_threadpool(playground.view, session_id(request)))

    @endpoint
    async def turn(request: Request) -> Response:
        sid = session_id(request)
        body = await read_json(request)
        text = body.get("text")
        if not isinstance(text, str):
            raise BadRequest('the body must be {"text": "what the user says"}')
        return json_response(await in_turn_thread(playground.turn, sid, text))

    @endpoint
    async def undo(request: Request) -> Response:
        sid = session_id(request)
        await read_json(request)
        return json_response(await in_turn_thread(playground.undo, sid))

    @endpoint
    async def download(request: Request) -> Response:
        sid = session_id(request)
        data = await run_in_threadpool(playground.export, sid)
        disposition = f'attachment; filename="fsmdial-session-{sid}.json"'  # sid is 32 hex digits
        return json_response(data, headers={"content-disposition": disposition})

    routes = [
        Route("/", page),
        Route("/static/{name}", static),
        Route("/flows", flows),
        Route("/sessions", create, methods=["POST"]),
        Route("/sessions/{session_id}", view),
        Route("/sessions/{session_id}/turns", turn, methods=["POST"]),
        Route("/sessions/{session_id}/undo", undo, methods=["POST"]),
        Route("/sessions/{session_id}/download", download),
    ]
    hosts = allowed_hosts or ["127.0.0.1", "localhost", "::1", "[::1]"]
    app = Starlette(routes=routes, middleware=[Middleware(TrustedHostMiddleware, allowed_hosts=hosts)])
    app.state.playground = playground
    app.state.turns = turns

    async def not_found(request: Request, exc: Exception) -> Response:
        status = getattr(exc, "status_code", 404)
        if status == 405:
            return json_response(
                {"error": {"type": "MethodNotAllowed", "message": f"{request.method} is not allowed here"}}, 405
            )
        return error_response(NotFound(f"nothing is served at {request.url.path!r}"))

    app.add_exception_handler(404, not_found)
    app.add_exception_handler(405, not_found)
    return app
