"""The model-server understander on an OpenAI-compatible server with structured outputs (vLLM, SGLang, llama-server).

    fsmdial serve flows/x.json --model-server 'openai+http://127.0.0.1:8000?flavor=vllm'
    OpenAIServerUnderstander("http://127.0.0.1:8000", flavor="vllm", chat_template=...)

The same grounded turn as :class:`~.server.ServerUnderstander` (which this
subclasses: prompt built here as token ids, the turn's bounded GBNF, the
canary at start-up, one deadline per model call and a bound on an answer's size, retries, the reply parsed
again against exactly what the turn offered here), sent to ``POST {base}/v1/completions``::

    {"model": <the first id of GET /v1/models, unless given>, "prompt": [token ids...],
     "max_tokens": <the grammar's bound>, "temperature": 0, "seed": 0, "stream": false,
     <the grammar, in the flavour's field>}

and the reply is ``choices[0].text``. OpenAI's completions API takes a prompt
as a list of token ids; the grammar is not in OpenAI's API, so each engine
names its own field. The flavours (:data:`FLAVORS`, one row each):

* ``llama.cpp``: llama-server's ``/v1/completions`` copies every body field it
  does not know into its native parameters, ``grammar`` (GBNF) included
  (``oaicompat_completion_params_parse`` in ``tools/server/server-common.cpp``
  of llama.cpp; checked against the llama-server built here). Template, BOS/EOS
  and context come from ``GET /props``; tokens from ``POST /tokenize``
  (``parse_special`` false for user text, as in the native client).
* ``vllm``: ``"structured_outputs": {"grammar": gbnf}`` (docs.vllm.ai,
  features/structured_outputs: the ``guided_*`` fields were removed in v0.12.0,
  ``guided_grammar`` became ``structured_outputs.grammar``; xgrammar or guidance
  take GBNF). ``vllm-guided`` is the older ``"guided_grammar": gbnf``.
  Tokens from vLLM's ``POST /tokenize`` (``{"model", "prompt",
  "add_special_tokens"}`` -> ``{"tokens"}``), context from ``max_model_len``
  in ``GET /v1/models``.
* ``sglang``: ``"ebnf": gbnf`` (docs.sglang.ai, structured outputs: one of
  ``json_schema``, ``regex`` or ``ebnf`` per request; the xgrammar backend reads
  EBNF in llama.cpp's GBNF form). Tokens from SGLang's ``POST /tokenize``, which
  takes vLLM's body; context from ``max_model_len``.

vLLM and SGLang publish no chat template over HTTP: give ``chat_template=``
(the model's Jinja template), or ``?template=FILE`` in the factory's URL. A flavour with no working ``/tokenize`` can be
given ``tokenizer=`` (``(text, special, *, add_special=False) -> ids``, the
signature of :meth:`.server.LlamaServer.tokenize`), or use the native API.
vLLM's and SGLang's ``/tokenize`` always read special-token text as control
tokens (no ``parse_special`` switch): a user typing ``<|im_end|>`` reaches the
model as the control token there, unlike with llama.cpp; the grammar and the
reply's re-parse still bound what comes back.

Several engines accept an unknown field and ignore it (llama-server ignores
``structured_outputs``; an older vLLM may ignore ``structured_outputs``): the
canary refuses such a server at start-up, naming the flavour and the field.
What is tested: the llama.cpp flavour against a real llama-server (the
native client's parses, and the vLLM flavour refused by the canary there);
vLLM and SGLang are not on the machine this was written on (no GPU), so
their flavours are tested against a fake that checks the documented request
shape only (tests/understand/test_openai_server.py).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...errors import ModelError, ModelServerError
from .server import ModelServerClient, ServerFacts, ServerUnderstander, count, llama_props
from .transport import HttpClient, server_url, transport_options

Tokenizer = Callable[..., Sequence[int]]
"""``(text, special, *, add_special=False) -> token ids``, like :meth:`.server.LlamaServer.tokenize`."""


def llama_tokenize_body(model: str, text: str, special: bool, add_special: bool) -> dict[str, Any]:
    """llama-server's ``/tokenize``: special-token text read as control tokens only when ``special``."""
    return {"content": text, "add_special": add_special, "parse_special": special}


def hf_tokenize_body(model: str, text: str, special: bool, add_special: bool) -> dict[str, Any]:
    """vLLM's (and SGLang's) ``/tokenize``: no switch for special-token text (see the module docstring)."""
    return {"model": model, "prompt": text, "add_special_tokens": add_special}


@dataclass(frozen=True)
class Flavor:
    """One engine's dialect of ``/v1/completions``: where the grammar goes, how text is tokenized."""

    name: str
    field: str
    """The body field that carries the GBNF, dotted when nested (``structured_outputs.grammar``)."""
    tokenize_body: Callable[[str, str, bool, bool], dict[str, Any]]
    props: bool
    """The server answers llama-server's ``GET /props`` (chat template, BOS/EOS, context size)."""
    owner: str
    """The ``owned_by`` of its ``GET /v1/models`` entries, to recognise it when no flavour is given."""

    def constrain(self, grammar: str) -> dict[str, Any]:
        """The body fields that carry ``grammar``: ``{"structured_outputs": {"grammar": ...}}`` for vLLM."""
        *outer, last = self.field.split(".")
        fields: dict[str, Any] = {last: grammar}
        for key in reversed(outer):
            fields = {key: fields}
        return fields


FLAVORS = {
    flavor.name: flavor
    for flavor in (
        Flavor("llama.cpp", "grammar", llama_tokenize_body, props=True, owner="llamacpp"),
        Flavor("vllm", "structured_outputs.grammar", hf_tokenize_body, props=False, owner="vllm"),
        Flavor("vllm-guided", "guided_grammar", hf_tokenize_body, props=False, owner=""),
        Flavor("sglang", "ebnf", hf_tokenize_body, props=False, owner="sglang"),
    )
}
"""The OpenAI-compatible servers fsmdial can constrain, by the name ``?flavor=`` takes."""
DEFAULT_FLAVOR = "llama.cpp"


def flavor_named(name: str) -> Flavor:
    try:
        return FLAVORS[name]
    except KeyError:
        raise ModelError(f"unknown OpenAI-compatible flavour {name!r} (choose one of: {', '.join(FLAVORS)})") from None


class OpenAIServer(HttpClient):
    """A client of an OpenAI-compatible server's ``/v1/completions``, in one :class:`Flavor`.

    ``flavor`` None: recognised from ``owned_by`` in ``GET /v1/models``, else :data:`DEFAULT_FLAVOR`
    (the canary refuses a wrong guess). ``model`` None: the first id of ``GET /v1/models``.
    """

    def __init__(
        self,
        url: str,
        *,
        flavor: str | None = None,
        model: str | None = None,
        n_ctx: int | None = None,
        tokenizer: Tokenizer | None = None,
        **transport: Any,
    ):
        super().__init__(url, **transport)
        self.flavor = flavor_named(flavor) if flavor else None
        self.model = model
        self.n_ctx = n_ctx
        self.tokenizer = tokenizer

    @property
    def chosen(self) -> Flavor:
        if self.flavor is None:
            raise ModelError("OpenAIServer: facts() first (it chooses the flavour)")
        return self.flavor

    @property
    def backend(self) -> str:  # type: ignore[override]
        return f"openai/{self.chosen.name}"

    @property
    def constraint(self) -> str:
        return f"{self.chosen.name} flavour's {self.chosen.field!r} field of POST /v1/completions"

    def facts(self) -> ServerFacts:
        found = self.request("GET", "/v1/models")
        entries = found.get("data") if isinstance(found, dict) else None
        first = entries[0] if isinstance(entries, list) and entries and isinstance(entries[0], dict) else {}
        if self.model is None:
            if not isinstance(first.get("id"), str):
                raise ModelError(f"{self.url}: GET /v1/models names no model ({str(found)[:200]}): pass model=")
            self.model = first["id"]
        if self.flavor is None:
            owners = {flavor.owner: flavor for flavor in FLAVORS.values() if flavor.owner}
            self.flavor = owners.get(first.get("owned_by", ""), FLAVORS[DEFAULT_FLAVOR])
        if self.flavor.props:
            facts = llama_props(self)
            return ServerFacts(self.n_ctx or facts.n_ctx, facts.chat_template, facts.bos_token, facts.eos_token)
        n_ctx = self.n_ctx or first.get("max_model_len")
        if not isinstance(n_ctx, int) or n_ctx <= 0:
            raise ModelError(f"{self.url}: GET /v1/models gives no max_model_len for {self.model!r}: pass n_ctx=")
        return ServerFacts(n_ctx, None)

    def tokenize(self, text: str, special: bool, *, add_special: bool = False) -> list[int]:
        if self.tokenizer is not None:
            return list(self.tokenizer(text, special, add_special=add_special))
        body = self.chosen.tokenize_body(self.model or "", text, special, add_special)
        missing = f"the {self.chosen.name} flavour tokenizes there: pass tokenizer=, or use the native API"
        found = self.request("POST", "/tokenize", body, not_found=missing)
        tokens = found.get("tokens") if isinstance(found, dict) else None
        if not isinstance(tokens, list) or not all(isinstance(token, int) for token in tokens):
            raise ModelServerError(self.url, f"POST /tokenize answered {str(found)[:200]}")
        return tokens

    def complete(self, prompt: Sequence[int], grammar: str, n_predict: int) -> dict[str, Any]:
        """A greedy completion of the token ids ``prompt`` under the GBNF ``grammar``, as the native client's."""
        body = {
            "model": self.model,
            "prompt": list(prompt),
            "max_tokens": n_predict,
            "temperature": 0.0,
            "seed": 0,
            "stream": False,
            **self.chosen.constrain(grammar),
        }
        found = self.request("POST", "/v1/completions", body)
        try:
            text = found["choices"][0]["text"]
        except (KeyError, IndexError, TypeError):
            text = None
        if not isinstance(text, str):
            raise ModelServerError(self.url, f"POST /v1/completions answered {str(found)[:200]}")
        usage = found.get("usage")
        usage = usage if isinstance(usage, dict) else {}
        details = usage.get("prompt_tokens_details")
        details = details if isinstance(details, dict) else {}
        return {
            "content": text,
            "tokens_cached": count(details.get("cached_tokens")),
            "tokens_predicted": count(usage.get("completion_tokens")),
        }


class OpenAIServerUnderstander(ServerUnderstander):
    """:class:`~.server.ServerUnderstander` on an OpenAI-compatible server (see the module docstring).

    ``url`` is ``http://host:port`` (``/v1/...`` is added); ``flavor`` one of :data:`FLAVORS` (None:
    recognised); ``model`` the served model's id (None: the first listed); ``n_ctx`` the context to plan
    prompts for (None: the server's); ``tokenizer`` a local tokenizer instead of the server's ``/tokenize``.
    The other options are :class:`~.server.ServerUnderstander`'s.
    """

    def __init__(
        self,
        url: str,
        *,
        flavor: str | None = None,
        model: str | None = None,
        n_ctx: int | None = None,
        tokenizer: Tokenizer | None = None,
        **options: Any,
    ):
        self._openai: dict[str, Any] = {"flavor": flavor, "model": model, "n_ctx": n_ctx, "tokenizer": tokenizer}
        super().__init__(url, **options)

    def _client(self, url: str, **transport: Any) -> ModelServerClient:
        return OpenAIServer(url, **self._openai, **transport)

    @classmethod
    def from_url(cls, url: str, **options: Any) -> OpenAIServerUnderstander:
        """The understander of ``http://HOST:PORT[?flavor=NAME&model=ID&template=FILE]`` (the factory's ``openai+``).

        ``template`` is a file holding the model's Jinja chat template (for engines without ``/props``); the
        transport's parameters (``deadline``, ``max_reply``, ``timeout``, ``retries``: :mod:`.transport`) may
        be given too, and a keyword in ``options`` wins over them.
        """
        base, query = server_url(url, extra=("flavor", "model", "template"))
        for name, value in transport_options(query).items():
            if options.get(name) is None:
                options[name] = value
        if "template" in query and not options.get("chat_template"):
            try:
                options["chat_template"] = Path(query["template"]).read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError) as exc:
                raise ModelError(f"model server URL {url!r}: cannot read the chat template: {exc}") from None
        return cls(base, flavor=query.get("flavor"), model=query.get("model"), **options)
