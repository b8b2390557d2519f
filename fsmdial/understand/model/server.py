"""``ServerUnderstander``: the grounded turn of :class:`~.understander.ModelUnderstander`, decoded by a model server.

    fsmdial serve flows/x.json --model-server http://127.0.0.1:8080
    ServerUnderstander("http://127.0.0.1:8080")   # make_understander("auto", "server+http://...") too

Everything but the decoding is what the in-process :class:`~.gguf.GGUFUnderstander` does (both build on
:class:`~.understander.ModelUnderstander`):
the fast path, the rules' certain reading, the turn's grounded schema and
grammar, the prompt (the same :class:`~.prompt.PromptBuilder`, tokens built
piece by piece), the typed values and the merge. Only the model call goes to
the server: llama.cpp's ``llama-server`` and its native API,

* ``GET /props``: the chat template, BOS/EOS text and the slot's context size;
* ``POST /tokenize``: the prompt's pieces, with ``parse_special`` false for
  user and agent text (typed ``<|im_end|>`` forms no control token), cached
  by the prompt builder, so a turn tokenizes only its new lines;
* ``POST /completion``: the prompt as token ids, the turn's bounded GBNF as
  ``grammar``, greedy (``temperature`` 0, ``top_k`` 1), ``n_predict`` the
  grammar's bound, ``cache_prompt`` so the server re-evaluates only the new
  suffix. ``id_slot`` is -1: the server gives a request the idle slot whose
  cached prompt shares the most with it, which keeps each session on a warm
  slot without fsmdial knowing the sessions.

Same tokens, same grammar, greedy decoding on the same llama.cpp: the parses
are the in-process ones (tests/understand/test_server.py compares them).

Trust nothing: the reply is parsed again against exactly what the turn offered on this
side (:meth:`~fsmdial.understand.constraint.schema.TurnSchema.parse`: the turn's JSON schema as a check,
:mod:`~fsmdial.understand.constraint.offer`, then its spans' rules): a reply that is not exactly one JSON
object fitting it (an answer, intent, choice, slot or value the turn did not offer, a required key left out,
another key added) fails the turn with :class:`ModelServerError`, and the session is unchanged. When
the understander is made, a *canary* request asks for a completion under a
grammar that allows one odd string only; a server that answers anything
else ignores grammars and is refused (:class:`ModelError`).

Failures: a model call (a turn's tokenize requests and its completion) has one deadline for all of it,
retries and backoff included, and an answer has a bound on its size (:mod:`.transport`: ``deadline``,
default 30 s, ``max_reply``, default 1 MiB; in the constructor, the URL's query
``?deadline=10&max_reply=2000000`` or the command line's ``--model-deadline``/``--model-max-reply``).
A refused connection, a silent attempt (``timeout``) or a 5xx answer is retried with exponential backoff
(``retries`` times) while the deadline leaves time; then the turn fails with :class:`ModelServerError` (an
:class:`UnderstandingError`; :class:`~fsmdial.errors.ModelServerTimeout` past the deadline,
:class:`~fsmdial.errors.ModelServerReplyTooLarge` past the size): the runtime rolls the turn back, so nothing is
half-applied and the same turn can be sent again once the server is back. ``fsmdial serve`` answers it with
503. A server that cannot be reached when the understander is made is a :class:`ModelError`.

The transport (:class:`~.transport.HttpClient`) is shared with :mod:`.openai_server`, the
same understander on an OpenAI-compatible ``/v1/completions`` (vLLM, SGLang,
llama-server's own): the understander asks a client only for
:class:`ModelServerClient`'s ``facts``, ``tokenize``, ``complete`` and ``one_call``.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Any, Protocol

from ...errors import ModelError, ModelServerError, UnderstandingError
from ..base import Parse, UnderstandingState
from ..constraint.grammar_start import split_start
from ..constraint.schema import TurnSchema
from ..decoding.decoder import JsonEnd
from .prompt import ChatFormat, PromptBuilder
from .transport import HttpClient, server_url, transport_options
from .understander import OUTPUT_SHARE, ModelUnderstander

CANARY = "fsmdial-canary-q7z"
"""The one output the canary's grammar allows; no model writes it unconstrained."""
CANARY_GRAMMAR = f'root ::= "{CANARY}"'


@dataclass(frozen=True)
class ServerFacts:
    """What the understander needs to know of a server's model before the first turn."""

    n_ctx: int
    chat_template: str | None
    bos_token: str = ""
    eos_token: str = ""


def llama_props(client: HttpClient) -> ServerFacts:
    """A llama-server's facts, from ``GET /props`` (the slot's context, the GGUF's chat template, BOS/EOS text)."""
    hint = "not a llama-server? name an OpenAI-compatible engine as openai+http://HOST:PORT?flavor=vllm (or sglang)"
    found = client.request("GET", "/props", not_found=hint)
    if not isinstance(found, dict):
        raise ModelServerError(client.url, f"GET /props answered {found!r}")
    try:
        n_ctx = int((found.get("default_generation_settings") or {})["n_ctx"])
    except (KeyError, TypeError, ValueError) as exc:
        raise ModelError(f"{client.url}: GET /props lacks the slot's n_ctx ({exc!r}): not a llama-server?") from None
    template = found.get("chat_template") or None
    return ServerFacts(n_ctx, template, found.get("bos_token") or "", found.get("eos_token") or "")


class ModelServerClient(Protocol):
    """What :class:`ServerUnderstander` asks of a server's client, whichever API it speaks.

    ``complete`` answers ``{"content": text, "tokens_cached": int | None, "tokens_predicted": int | None}``.
    """

    @property
    def url(self) -> str: ...

    @property
    def backend(self) -> str:
        """What a parse's ``info["backend"]`` says."""

    @property
    def constraint(self) -> str:
        """Where the grammar goes in a request, as the canary's refusal names it."""

    def facts(self) -> ServerFacts: ...

    def one_call(self) -> AbstractContextManager[None]:
        """The requests made inside share one deadline (:meth:`.transport.HttpClient.one_call`)."""

    def tokenize(self, text: str, special: bool, *, add_special: bool = False) -> list[int]: ...

    def complete(self, prompt: Sequence[int], grammar: str, n_predict: int) -> dict[str, Any]: ...


class LlamaServer(HttpClient):
    """A client of one ``llama-server``'s native API (``/props``, ``/tokenize``, ``/completion``)."""

    constraint = "'grammar' of POST /completion"
    """Where the grammar goes, as the canary's refusal names it."""

    def facts(self) -> ServerFacts:
        return llama_props(self)

    def tokenize(self, text: str, special: bool, *, add_special: bool = False) -> list[int]:
        found = self.request(
            "POST", "/tokenize", {"content": text, "add_special": add_special, "parse_special": special}
        )
        tokens = found.get("tokens") if isinstance(found, dict) else None
        if not isinstance(tokens, list) or not all(isinstance(token, int) for token in tokens):
            raise ModelServerError(self.url, f"POST /tokenize answered {str(found)[:200]}")
        return tokens

    def complete(self, prompt: Sequence[int] | str, grammar: str, n_predict: int) -> dict[str, Any]:
        """A greedy completion of ``prompt`` under the GBNF ``grammar`` (at most ``n_predict`` tokens)."""
        body = {
            "prompt": list(prompt) if not isinstance(prompt, str) else prompt,
            "grammar": grammar,
            "n_predict": n_predict,
            "temperature": 0.0,
            "top_k": 1,
            "samplers": ["top_k", "temperature"],
            "seed": 0,
            "cache_prompt": True,
            "id_slot": -1,
            "stream": False,
        }
        found = self.request("POST", "/completion", body)
        if not isinstance(found, dict) or not isinstance(found.get("content"), str):
            raise ModelServerError(self.url, f"POST /completion answered {str(found)[:200]}")
        return found


class ServerUnderstander(ModelUnderstander):
    """Understands users with a model on a ``llama-server`` (see the module docstring).

    ``url`` is ``http://host:port``, with the transport's options in its query if wanted
    (``?deadline=10&max_reply=2000000&timeout=5&retries=1``). ``deadline`` bounds a whole model call,
    retries included; ``max_reply`` an answer's bytes; ``timeout`` one attempt (default: the deadline);
    ``retries`` and ``backoff`` say how a server that is restarting is waited for (:mod:`.transport`).
    A keyword given here wins over the URL's; None: the URL's, else the default.
    ``canary=False`` skips the start-up check that
    the server enforces grammars (tests use it to reach a server that does not).
    """

    def __init__(
        self,
        url: str,
        *,
        fast_path: bool = True,
        rules_first: bool = True,
        chat_template: str | None = None,
        timeout: float | None = None,
        retries: int | None = None,
        backoff: float = 0.25,
        deadline: float | None = None,
        max_reply: int | None = None,
        canary: bool = True,
    ):
        base, query = server_url(url)
        given = {"timeout": timeout, "retries": retries, "deadline": deadline, "max_reply": max_reply}
        transport = {**transport_options(query), **{k: v for k, v in given.items() if v is not None}}
        self.server: ModelServerClient = self._client(base, backoff=backoff, **transport)
        try:
            facts = self.server.facts()
            self.n_ctx = facts.n_ctx
            template = chat_template or facts.chat_template
            if not template:
                raise ModelError(f"{self.server.url} reports no chat template: pass chat_template= explicitly")
            chat = ChatFormat(template, bos_token=facts.bos_token, eos_token=facts.eos_token)
            self.prompts = PromptBuilder(chat, self.server.tokenize, bos=self._bos())
        except ModelServerError as exc:
            raise ModelError(f"cannot use the model server: {exc}") from None
        self.backend = self.server.backend
        super().__init__(fast_path=fast_path, rules_first=rules_first)
        self._lock = threading.Lock()  # the prompt builder's caches
        if canary:
            self.check_grammar()

    def _client(self, url: str, **transport: Any) -> ModelServerClient:
        """The client of the server at ``url`` (the native API here; :mod:`.openai_server` overrides it)."""
        return LlamaServer(url, **transport)

    def _bos(self) -> int | None:
        """The BOS token the model's tokenizer adds, if it adds one (what ``LlamaModel.add_bos`` says in-process)."""
        plain = self.server.tokenize("a", False)
        marked = self.server.tokenize("a", False, add_special=True)
        if len(marked) > len(plain) and marked[1 : 1 + len(plain)] == plain:
            return marked[0]
        return None

    def check_grammar(self) -> None:
        """The canary: :class:`ModelError` unless the server's output obeys a grammar that allows one string."""
        try:
            prompt = list(self.prompts.tokens("Write one word, then stop.", False))
            reply = self.server.complete(prompt, CANARY_GRAMMAR, n_predict=16)
        except ModelServerError as exc:
            raise ModelError(f"cannot use the model server: {exc}") from None
        if reply["content"] != CANARY:
            raise ModelError(
                f"{self.server.url} does not enforce grammars: asked for {CANARY!r} only under the "
                f"{self.server.constraint}, it wrote {reply['content'][:100]!r} (a server that drops the field?)"
            )

    def model_parse(
        self, state: UnderstandingState, schema: TurnSchema, text: str, history: Sequence[tuple[str, str]]
    ) -> Parse:
        """The model's reading of ``text`` under ``schema``: one completion on the server."""
        reserve = min(schema.grammar.max_bytes + 1, self.n_ctx // OUTPUT_SHARE)
        start, rest = split_start(schema.grammar)  # as in-process: the output's fixed start goes in the prompt
        with self.server.one_call():  # one deadline for the new lines' tokens and the completion
            with self._lock:
                prompt = self.prompts.build(state, history, text, budget=self.n_ctx - reserve)
                tokens = [*prompt.tokens, *self.prompts.tokens(start)]
            reply = self.server.complete(tokens, rest.gbnf, n_predict=reserve)
        output = start + reply["content"]
        closer = JsonEnd()
        end = closer.feed(output.encode("utf-8"))
        if end is None or output.encode("utf-8")[end:].strip():
            problem = f"the reply is not one complete JSON object: {output[:200]!r}"
            raise ModelServerError(self.server.url, f"answered outside what the turn offered: {problem}")
        try:
            parse = schema.parse(output)  # the server's grammar is not trusted: the reply is checked here again
        except UnderstandingError as exc:
            raise ModelServerError(self.server.url, f"answered outside what the turn offered: {exc}") from None
        parse.path, parse.model_calls = "model", 1
        cached, predicted = count(reply.get("tokens_cached")), count(reply.get("tokens_predicted"))
        parse.info = {
            "backend": self.backend,
            "prompt_tokens": len(tokens),
            "evaluated_tokens": len(tokens) - cached if cached is not None and cached <= len(tokens) else None,
            "output_tokens": predicted,
            "output": output,
        }
        if prompt.dropped:
            parse.info["dropped_lines"] = prompt.dropped
        return parse


def count(found: Any) -> int | None:
    """A token count a server reported, if it is one (anything else it wrote is not copied into the trace)."""
    return found if isinstance(found, int) and not isinstance(found, bool) and found >= 0 else None
