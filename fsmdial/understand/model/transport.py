"""``HttpClient``: JSON over HTTP to a model server, within a deadline and a bound on the reply's size.

Both model-server clients (:class:`~.server.LlamaServer`, :class:`~.openai_server.OpenAIServer`) are this
plus their routes. What bounds a request:

* **the deadline** (``deadline``, default :data:`DEFAULT_DEADLINE` s) is for the *whole model call*: connecting,
  sending, waiting, receiving, every retry and the backoff between them. Inside :meth:`HttpClient.one_call`
  (a turn's model call: the new lines tokenized, then the completion) all requests share one deadline;
  a request outside it has its own. Every socket operation waits at most until the deadline (a server
  writing a byte now and then holds nothing: the time is checked before each read, not only the silence
  between reads); past it, :class:`ModelServerTimeout`, and no further attempt.
* ``timeout`` bounds one *attempt* the same way (default: the deadline); a server silent for longer is tried
  again, with the backoff, while the deadline leaves time.
* **the reply's size** (``max_reply``, default :data:`DEFAULT_MAX_REPLY` bytes): a declared length past it is
  refused before the body is read; a body without one (chunked, or up to the connection's close) is read
  in chunks and refused as soon as it passes the bound, so no more than the bound is ever held. That is
  :class:`ModelServerReplyTooLarge`, not retried (the same server would answer the same).

Both are :class:`~fsmdial.errors.ModelServerError`\\ s (the turn is rolled back; ``fsmdial serve`` answers 503).
The options are the constructor's, the server URL's query (``?deadline=10&max_reply=2000000``:
:func:`server_url`, :func:`transport_options`) and the command line's (``--model-deadline``,
``--model-max-reply``: :mod:`fsmdial.understand.factory`); a keyword given wins over the URL's.
"""

from __future__ import annotations

import http.client
import socket
import threading
import time
import urllib.parse
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import orjson

from ...errors import ModelError, ModelServerError, ModelServerReplyTooLarge, ModelServerTimeout

DEFAULT_DEADLINE = 30.0
"""Seconds a model call may take, all of it (see the module docstring)."""
DEFAULT_MAX_REPLY = 1 << 20
"""Bytes a model server's answer may have: a completion, its tokens and settings are a few kilobytes."""
RETRY_STATUSES = frozenset({408, 429, 500, 502, 503, 504})
"""HTTP statuses worth another try (the server is loading, busy or restarting)."""
READ_CHUNK = 1 << 16


TRANSPORT_PARAMETERS = ("deadline", "max_reply", "timeout", "retries")
"""The query parameters of a model server's URL that set the transport (the constructor's keywords)."""


def server_url(url: str, extra: tuple[str, ...] = ()) -> tuple[str, dict[str, str]]:
    """``url`` without its query, and the query's parameters: :data:`TRANSPORT_PARAMETERS` and ``extra`` only."""
    parsed = urllib.parse.urlsplit(url)
    try:
        query = dict(urllib.parse.parse_qsl(parsed.query, strict_parsing=bool(parsed.query)))
    except ValueError as exc:
        raise ModelError(f"model server URL {url!r}: {exc}") from None
    known = (*extra, *TRANSPORT_PARAMETERS)
    unknown = sorted(set(query) - set(known))
    if unknown:
        raise ModelError(f"model server URL {url!r}: unknown parameter {unknown[0]!r} ({', '.join(known)})")
    return urllib.parse.urlunsplit((parsed.scheme, parsed.netloc, parsed.path, "", "")), query


def transport_options(query: dict[str, str]) -> dict[str, Any]:
    """The :class:`HttpClient` keywords a URL's query gives (ModelError for a value out of its range)."""
    options: dict[str, Any] = {}
    for name in TRANSPORT_PARAMETERS:
        if name in query:
            options[name] = checked(name, query[name])
    return options


def checked(name: str, value: Any) -> float | int:
    """``value`` as the transport option ``name`` takes: a positive number of seconds or bytes, a count."""
    text = str(value).strip()
    try:
        number: float | int = int(text) if name in ("max_reply", "retries") else float(text)
    except ValueError:
        number = -1
    if isinstance(value, bool) or not (number > 0 or (name == "retries" and number == 0)) or number == float("inf"):
        kinds = {"max_reply": "a positive number of bytes", "retries": "a count"}
        kind = kinds.get(name, "a positive number of seconds")
        raise ModelError(f"model server option {name}={value!r}: expected {kind}")
    return number


class HttpClient:
    """The HTTP transport of a model-server client: JSON over one connection per request (see the module docstring).

    A connection per request (loopback: a fraction of a millisecond; nothing
    is left open when the understander goes). A request that fails to connect,
    times out or gets a status in :data:`RETRY_STATUSES` is tried again after
    ``backoff``, ``2*backoff``, ... seconds, ``retries`` times while the
    deadline leaves time; then :class:`ModelServerError`. Other statuses fail at once.
    """

    backend = "server"
    """What a parse's ``info["backend"]`` says of the understander that uses this client."""

    def __init__(
        self,
        url: str,
        *,
        timeout: float | None = None,
        retries: int = 3,
        backoff: float = 0.25,
        deadline: float = DEFAULT_DEADLINE,
        max_reply: int = DEFAULT_MAX_REPLY,
    ):
        parsed = urllib.parse.urlsplit(url)
        if parsed.scheme != "http" or not parsed.hostname:
            raise ModelError(f"model server URL {url!r}: expected http://HOST:PORT")
        if parsed.query:
            raise ModelError(f"model server URL {url!r}: its parameters are the understander's (server_url)")
        self.url = url.rstrip("/")
        self.host = parsed.hostname
        self.port = parsed.port or 80
        self.base = parsed.path.rstrip("/")
        self.deadline = checked("deadline", deadline)
        self.timeout = self.deadline if timeout is None else checked("timeout", timeout)
        self.retries = int(checked("retries", retries))
        self.backoff = max(float(backoff), 0.0)
        self.max_reply = int(checked("max_reply", max_reply))
        self._call = threading.local()

    @contextmanager
    def one_call(self) -> Iterator[None]:
        """The requests made inside (in this thread) share one deadline: the model call's."""
        if getattr(self._call, "until", None) is not None:
            yield  # inside a call already: its deadline holds
            return
        self._call.until = time.monotonic() + self.deadline
        try:
            yield
        finally:
            self._call.until = None

    def request(self, method: str, path: str, body: Any = None, *, not_found: str = "") -> Any:
        """The decoded JSON answer to ``method path`` (``body`` sent as JSON); ``not_found`` explains a 404."""
        data = None if body is None else orjson.dumps(body)
        headers = {"content-type": "application/json"} if data is not None else {}
        until = getattr(self._call, "until", None) or time.monotonic() + self.deadline
        failure, tried = "", 0
        for attempt in range(self.retries + 1):
            if attempt:
                pause = self.backoff * 2 ** (attempt - 1)
                if time.monotonic() + pause >= until:
                    break
                time.sleep(pause)
            now = time.monotonic()
            if now >= until:
                break
            tried += 1
            try:
                status, payload = self._exchange(method, path, data, headers, min(until, now + self.timeout))
            except (OSError, http.client.HTTPException) as exc:  # refused, reset, timed out, closed mid-answer
                failure = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
                continue
            if status in RETRY_STATUSES:
                failure = f"HTTP {status}: {payload[:200]!r}"
                continue
            if status != 200:
                hint = f" ({not_found})" if status == 404 and not_found else ""
                raise ModelServerError(self.url, f"{method} {path} answered HTTP {status}{hint}: {payload[:300]!r}")
            try:
                return orjson.loads(payload)
            except orjson.JSONDecodeError:
                problem = f"{method} {path} answered what is not JSON: {payload[:200]!r}"
                raise ModelServerError(self.url, problem) from None
        tries = "once" if tried == 1 else f"{tried} times"
        if time.monotonic() >= until or tried < self.retries + 1:
            met = f"tried {tries}; {failure}" if tried else "the model call had no time left for it"
            raise ModelServerTimeout(
                self.url, f"{method} {path}: no answer within the deadline of {self.deadline:g} s ({met})"
            )
        raise ModelServerError(self.url, f"{method} {path} failed {tries} (timeout {self.timeout:g} s): {failure}")

    def _exchange(
        self, method: str, path: str, data: bytes | None, headers: dict[str, str], until: float
    ) -> tuple[int, bytes]:
        """One attempt: (status, body), every socket operation bounded by ``until``; the body by ``max_reply``."""
        connection = _Connection(self.host, self.port, until)
        try:
            connection.request(method, self.base + path, body=data, headers=headers)
            response = connection.getresponse()
            return response.status, self._read(method, path, response)
        finally:
            connection.close()

    def _read(self, method: str, path: str, response: http.client.HTTPResponse) -> bytes:
        too_large = f"{method} {path} answered more than {self.max_reply} bytes"
        if response.length is not None and response.length > self.max_reply:
            raise ModelServerReplyTooLarge(self.url, f"{too_large} ({response.length} declared)")
        chunks: list[bytes] = []
        size = 0
        while chunk := response.read(min(READ_CHUNK, self.max_reply + 1 - size)):
            size += len(chunk)
            if size > self.max_reply:
                raise ModelServerReplyTooLarge(self.url, f"{too_large} (stopped reading there)")
            chunks.append(chunk)
        return b"".join(chunks)


class _Connection(http.client.HTTPConnection):
    """An HTTP connection whose socket gives up at ``until`` (a monotonic time), whatever the server sends."""

    def __init__(self, host: str, port: int, until: float):
        super().__init__(host, port, timeout=max(until - time.monotonic(), 0.001))
        self.until = until

    def connect(self) -> None:
        plain = socket.create_connection((self.host, self.port), max(self.until - time.monotonic(), 0.001))
        plain.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.sock = _DeadlineSocket(plain.family, plain.type, plain.proto, fileno=plain.detach())
        self.sock.until = self.until


class _DeadlineSocket(socket.socket):
    """A socket that sets its timeout to what is left before ``until`` at every read and write.

    A plain socket timeout bounds each operation only: a byte every few seconds keeps a read loop going for
    ever. Here the time left is checked before each one, so the whole exchange ends at ``until``.
    """

    until = 0.0

    def _arm(self) -> None:
        left = self.until - time.monotonic()
        if left <= 0:
            raise TimeoutError("the deadline passed")
        self.settimeout(left)

    def recv_into(self, buffer: Any, nbytes: int = 0, flags: int = 0) -> int:
        self._arm()
        return super().recv_into(buffer, nbytes, flags)

    def recv(self, bufsize: int, flags: int = 0) -> bytes:
        self._arm()
        return super().recv(bufsize, flags)

    def sendall(self, data: Any, flags: int = 0) -> None:
        self._arm()
        super().sendall(data, flags)

    def send(self, data: Any, flags: int = 0) -> int:
        self._arm()
        return super().send(data, flags)
