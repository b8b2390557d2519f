"""The understander a command or an evaluation asks for by name: the one place that chooses it."""

from __future__ import annotations

import argparse
import os
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from .base import Understander

UnderstanderKind = Literal["auto", "rules", "gguf"]


def make_understander(kind: UnderstanderKind, model: str | None = None, **options: Any) -> Understander | None:
    """``None`` for the rules understander (every ``Dialogue``'s and ``Assistant``'s default), else a GGUF model.

    * ``"rules"``: None;
    * ``"gguf"``: the GGUF model at ``model`` (:class:`ValueError` without one);
    * ``"auto"``: the GGUF model at ``model``, else at ``$FSMDIAL_MODEL``; None when neither names one.

    A ``model`` of the form ``server+http://HOST:PORT`` is a llama-server's native API
    (:class:`~fsmdial.understand.model.server.ServerUnderstander`), local or not: the same turn, decoded there.
    ``openai+http://HOST:PORT[?flavor=NAME&model=ID]`` is an OpenAI-compatible server's ``/v1/completions``
    with structured outputs (:class:`~fsmdial.understand.model.openai_server.OpenAIServerUnderstander`): ``flavor``
    is ``llama.cpp``, ``vllm``, ``vllm-guided`` or ``sglang`` (where the grammar goes; default: recognised from
    ``GET /v1/models``, else ``llama.cpp``), ``model`` the served model (default: the first listed), ``template``
    a file with the model's chat template (vLLM and SGLang do not publish it).
    ``options`` go to :class:`~fsmdial.understand.model.gguf.GGUFUnderstander` (``backend``, ``n_threads``,
    ``fast_path``...); a server takes ``fast_path`` and ``timeout`` (the decoding options are the server's).
    Nothing is loaded for the rules.
    """
    if kind == "auto":
        model = model or os.environ.get("FSMDIAL_MODEL")
        if not model:
            return None
    elif kind == "rules":
        return None
    elif kind != "gguf":
        raise ValueError(f"unknown understander {kind!r} (choose one of: auto, rules, gguf)")
    elif not model:
        raise ValueError("--understander gguf needs --model PATH")
    taken = {key: options[key] for key in SERVER_OPTIONS if key in options}
    if model.startswith(SERVER_SCHEME):
        from .model.server import ServerUnderstander

        return ServerUnderstander(model[len(SERVER_SCHEME) :], **taken)
    if model.startswith(OPENAI_SCHEME):
        from .model.openai_server import OpenAIServerUnderstander

        return OpenAIServerUnderstander.from_url(model[len(OPENAI_SCHEME) :], **taken)
    from .model.gguf import GGUFUnderstander

    return GGUFUnderstander(model, **options)


SERVER_SCHEME = "server+"
"""``--model server+http://HOST:PORT`` (or ``--model-server http://HOST:PORT``) names a llama-server (native API)."""
OPENAI_SCHEME = "openai+"
"""``--model openai+http://HOST:PORT?flavor=vllm`` (or ``--model-server`` the same) names an OpenAI-compatible one."""
SERVER_OPTIONS = ("fast_path", "rules_first", "chat_template", "timeout", "retries", "backoff")
"""The options of :func:`make_understander` a model server takes; the others set up in-process decoding."""


def model_of(model: str | None, model_server: str | None) -> str | None:
    """The model string for ``--model`` and ``--model-server`` (a bare ``http://`` URL becomes ``server+URL``)."""
    if model_server:
        if model:
            raise ValueError("give --model PATH or --model-server URL, not both")
        if model_server.startswith((SERVER_SCHEME, OPENAI_SCHEME)):
            return model_server
        return SERVER_SCHEME + model_server
    return model


def add_model_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of a command that scores the rules or a GGUF model (``eval messy``, ``eval conversations``)."""
    parser.add_argument("--understander", choices=("rules", "gguf"), default="rules")
    parser.add_argument("--model", metavar="PATH", help="GGUF model for --understander gguf")
    add_model_server_argument(parser)
    parser.add_argument("--backend", default=None, help="constrained-decoding backend for --understander gguf")
    parser.add_argument(
        "--threads",
        type=int,
        default=int(os.environ.get("FSMDIAL_THREADS", "1")),
        help="CPU threads of the model (default: $FSMDIAL_THREADS, else 1)",
    )
    parser.add_argument("--no-fast-path", action="store_true", help="gguf: ask the model on every turn")
    parser.add_argument(
        "--choose",
        choices=("json", "score"),
        default="json",
        help="gguf: how the model decides: write the turn's JSON under its grammar (json), or score each "
        "grounded option as a sentence and pick (score)",
    )
    parser.add_argument(
        "--margin", type=float, default=None, help="gguf --choose score: how much the message must raise an option"
    )


def add_model_server_argument(parser: argparse.ArgumentParser) -> None:
    """``--model-server URL``: decode on a model server instead of a GGUF file in this process."""
    parser.add_argument(
        "--model-server",
        metavar="URL",
        default=None,
        help="a model server to decode on (instead of --model): llama-server's native API, e.g. "
        "http://127.0.0.1:8080, or an OpenAI-compatible one, e.g. 'openai+http://127.0.0.1:8000?flavor=vllm'",
    )


def understander_from_arguments(args: argparse.Namespace) -> Understander | None:
    """The understander :func:`add_model_arguments`' options name (None for the rules)."""
    model = model_of(args.model, args.model_server)
    kind: UnderstanderKind = "gguf" if args.model_server else args.understander
    options: dict[str, Any] = {"backend": args.backend, "n_threads": args.threads, "fast_path": not args.no_fast_path}
    if getattr(args, "choose", "json") != "json":
        options.update(choose=args.choose, margin=args.margin)
    return make_understander(kind, model, **options)
