"""A fake model server for the model-server understanders' tests: llama-server's native API and an
OpenAI-compatible ``/v1`` API (``/v1/models``, ``/v1/completions``), no model.

It tokenizes one token per character (llama-server's ``/tokenize`` body, or vLLM's) and answers completions
from a script: ``obey`` writes the canary when asked under the canary's grammar and the next scripted reply
otherwise; ``ignore`` writes free text whatever the grammar; ``no-choices`` answers ``/v1/completions``
without a choice. On ``/v1/completions`` the grammar is read from the one body field ``honors`` names
(dotted: ``structured_outputs.grammar`` is vLLM's), as the engine it plays would; a grammar sent in another
field is ignored, as real engines do with fields they do not know. ``props`` False plays an engine without
llama-server's ``/props``; ``context`` is the ``max_model_len`` its model list gives. ``fail`` answers the
next N requests with a status (503: the server is loading); a route in ``missing`` answers 404.

Misbehaviours, on the routes in ``slow`` (a set of paths; all of them when empty): ``drip`` seconds
between the bytes of the whole answer (status line and headers included: a server that holds a connection
open by writing a byte now and then), ``pause`` seconds before answering (a busy server), ``huge`` bytes of
body after the answer's JSON (with a content-length saying so, or, ``chunked``, in chunks with no length
given), to see the client stop reading. ``raw`` holds whole answers (any bytes, sent as a 200's body) for
the next completions. ``sent`` counts the bytes the fake wrote (``dripped``, those of drips); :meth:`close`
stops a drip or a huge answer half-way.
"""

from __future__ import annotations

import threading
from collections import deque
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import orjson

from fsmdial.testing.tiny_model import CHATML_TEMPLATE
from fsmdial.understand.model.server import CANARY, CANARY_GRAMMAR


class FakeLlamaServer:
    def __init__(
        self,
        *,
        mode: str = "obey",
        replies: list[str] | None = None,
        honors: str = "grammar",
        owner: str = "llamacpp",
        props: bool = True,
        context: int | None = 4096,
    ):
        self.mode = mode
        self.honors = honors
        self.props = props
        self.missing: set[str] = set()  # routes answered 404, as by an engine without them
        self.replies: deque[str] = deque(replies or [])
        self.fail: deque[int] = deque()
        self.raw: deque[bytes] = deque()
        self.requests: list[tuple[str, Any]] = []
        self.slow: set[str] = set()
        self.drip: float | None = None
        self.pause = 0.0
        self.huge = 0
        self.chunked = False
        self.sent = 0
        self.dripped = 0
        self.stopped = threading.Event()
        fake = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:
                pass

            def answer(self, status: int, data: Any) -> None:
                body = orjson.dumps(data)
                misbehaving = not fake.slow or self.path in fake.slow
                if misbehaving and fake.pause and fake.stopped.wait(fake.pause):
                    return
                if misbehaving and fake.huge:
                    return self.answer_huge(status, body)
                self.send_response(status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(body)))
                if misbehaving and fake.drip is not None:
                    self._headers_buffer.append(b"\r\n")  # type: ignore[attr-defined]
                    return self.write_slowly(b"".join(self._headers_buffer) + body)  # type: ignore[attr-defined]
                self.end_headers()
                self.wfile.write(body)
                fake.sent += len(body)

            def write_slowly(self, raw: bytes) -> None:
                """One byte, a pause, the next byte... until the answer is written, the client goes or the fake."""
                self._headers_buffer = []
                for i in range(len(raw)):
                    if fake.stopped.wait(fake.drip or 0):
                        return
                    try:
                        self.wfile.write(raw[i : i + 1])
                        self.wfile.flush()
                    except OSError:
                        return
                    fake.sent += 1
                    fake.dripped += 1

            def answer_huge(self, status: int, body: bytes) -> None:
                self.send_response(status)
                self.send_header("content-type", "application/json")
                if fake.chunked:
                    self.send_header("transfer-encoding", "chunked")
                else:
                    self.send_header("content-length", str(len(body) + fake.huge))
                self.end_headers()
                padding, left = b" " * (1 << 16), fake.huge
                try:
                    piece = body
                    while piece and not fake.stopped.is_set():
                        self.wfile.write(b"%x\r\n%s\r\n" % (len(piece), piece) if fake.chunked else piece)
                        fake.sent += len(piece)
                        piece, left = padding[: min(left, len(padding))], left - min(left, len(padding))
                    if fake.chunked:
                        self.wfile.write(b"0\r\n\r\n")
                except OSError:
                    pass  # the client stopped reading and went

            def do_GET(self) -> None:
                fake.requests.append((self.path, None))
                if self.path in fake.missing:
                    return self.answer(404, {"error": "not found"})
                if fake.fail:
                    return self.answer(fake.fail.popleft(), {"error": "loading"})
                if self.path == "/v1/models":
                    model = {"id": "fake-model", "object": "model", "owned_by": owner, "max_model_len": context}
                    return self.answer(200, {"object": "list", "data": [model]})
                if self.path == "/props" and props:
                    return self.answer(
                        200,
                        {
                            "default_generation_settings": {"n_ctx": 4096},
                            "chat_template": CHATML_TEMPLATE,
                            "bos_token": "",
                            "eos_token": "<|im_end|>",
                        },
                    )
                self.answer(404, {"error": "not found"})

            def do_POST(self) -> None:
                body = orjson.loads(self.rfile.read(int(self.headers["content-length"])))
                fake.requests.append((self.path, body))
                if self.path in fake.missing:
                    return self.answer(404, {"error": "not found"})
                if fake.fail:
                    return self.answer(fake.fail.popleft(), {"error": "loading"})
                if self.path == "/tokenize":
                    text = body["content"] if "content" in body else body["prompt"]
                    return self.answer(200, {"tokens": [ord(c) for c in text]})
                if self.path in ("/completion", "/v1/completions") and fake.raw:
                    body = fake.raw.popleft()
                    self.send_response(200)
                    self.send_header("content-length", str(len(body)))
                    self.end_headers()
                    self.wfile.write(body)
                    return None
                if self.path == "/completion":
                    content = fake.write(body.get("grammar"), body["prompt"])
                    return self.answer(200, {"content": content, "tokens_cached": 0, "tokens_predicted": 3})
                if self.path == "/v1/completions":
                    if fake.mode == "no-choices":
                        return self.answer(200, {"object": "text_completion", "choices": []})
                    grammar: Any = body
                    for key in fake.honors.split("."):
                        grammar = grammar.get(key) if isinstance(grammar, dict) else None
                    text = fake.write(grammar, body["prompt"])
                    usage = {"prompt_tokens": len(body["prompt"]), "completion_tokens": 3, "total_tokens": 0}
                    choice = {"index": 0, "text": text, "finish_reason": "stop"}
                    return self.answer(200, {"object": "text_completion", "choices": [choice], "usage": usage})
                self.answer(404, {"error": "not found"})

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def write(self, grammar: str | None, prompt: list[int]) -> str:
        """What the fake model writes under ``grammar`` (None: no grammar it reads) after ``prompt``.

        A scripted reply is a whole object: the fake writes what the prompt's end has not written yet.
        """
        if self.mode == "ignore" or grammar is None:
            return "Sure! Here is a word: hello."
        if grammar == CANARY_GRAMMAR:
            return CANARY
        written = "".join(chr(token) for token in prompt).rsplit("assistant\n", 1)[-1]
        return self.replies.popleft().removeprefix(written)

    def completions(self, path: str = "/completion") -> list[Any]:
        """The completion requests at ``path`` but the canary's."""
        return [body for at, body in self.requests if at == path and CANARY not in orjson.dumps(body).decode()]

    def close(self) -> None:
        self.stopped.set()
        self.server.shutdown()
        self.server.server_close()
