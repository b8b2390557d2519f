"""A fake llama-server for the model-server understander's tests: llama-server's native API, no model.

It tokenizes one token per character and answers completions from a script:
``obey`` writes the canary when asked under the canary's grammar and the next
scripted reply otherwise; ``ignore`` writes free text whatever the grammar.
``fail`` answers the next N requests with a status (503: the server is loading).
"""

from __future__ import annotations

import threading
from collections import deque
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import orjson

from fsmdial.understand.server import CANARY, CANARY_GRAMMAR
from fsmdial.understand.tiny_model import CHATML_TEMPLATE


class FakeLlamaServer:
    def __init__(self, *, mode: str = "obey", replies: list[str] | None = None):
        self.mode = mode
        self.replies: deque[str] = deque(replies or [])
        self.fail: deque[int] = deque()
        self.requests: list[tuple[str, Any]] = []
        fake = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:
                pass

            def answer(self, status: int, data: Any) -> None:
                body = orjson.dumps(data)
                self.send_response(status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def do_GET(self) -> None:
                fake.requests.append((self.path, None))
                if fake.fail:
                    return self.answer(fake.fail.popleft(), {"error": "loading"})
                if self.path == "/props":
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
                if fake.fail:
                    return self.answer(fake.fail.popleft(), {"error": "loading"})
                if self.path == "/tokenize":
                    return self.answer(200, {"tokens": [ord(c) for c in body["content"]]})
                if self.path == "/completion":
                    if fake.mode == "ignore":
                        content = "Sure! Here is a word: hello."
                    elif body["grammar"] == CANARY_GRAMMAR:
                        content = CANARY
                    else:  # a scripted whole object: the model continues what the prompt's end already wrote
                        written = "".join(chr(token) for token in body["prompt"]).rsplit("assistant\n", 1)[-1]
                        content = fake.replies.popleft()
                        content = content.removeprefix(written)
                    return self.answer(200, {"content": content, "tokens_cached": 0, "tokens_predicted": 3})
                self.answer(404, {"error": "not found"})

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def completions(self) -> list[Any]:
        return [body for path, body in self.requests if path == "/completion" and body["grammar"] != CANARY_GRAMMAR]

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
