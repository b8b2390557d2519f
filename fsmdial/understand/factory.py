"""The understander a command or an evaluation asks for by name: the one place that chooses it."""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from ..errors import ModelError
from .meaning.encoder import MODEL_NAME as MEANING_MODEL

if TYPE_CHECKING:
    from .base import Understander

UnderstanderKind = Literal["auto", "rules", "gguf", "meaning"]
UNDERSTANDERS = ("rules", "gguf", "meaning")
"""The choices of ``--understander``."""


def make_understander(
    kind: UnderstanderKind, model: str | None = None, *, meaning: str | None = None, **options: Any
) -> Understander | None:
    """``None`` for the rules understander (every ``Dialogue``'s and ``Assistant``'s default), else a GGUF model.

    * ``"rules"``: None (with ``meaning``: the rules and the embedder);
    * ``"gguf"``: the GGUF model at ``model`` (:class:`ValueError` without one);
    * ``"auto"``: the GGUF model at ``model``, else at ``$FSMDIAL_MODEL``; None when neither names one (with
      ``meaning``: the rules and the embedder);
    * ``"meaning"``: the rules and the small embedding model ``meaning`` (default ``minilm``), no GGUF model
      (:class:`~fsmdial.understand.meaning.understander.MeaningUnderstander`).

    ``meaning`` is the small embedding model that chooses meaning without words where the rules read nothing for
    the asked categorical slot or no intent (:mod:`fsmdial.understand.meaning`), tried before the model call:
    ``minilm`` or a folder of the model's files (a missing or broken model is a
    :class:`~fsmdial.errors.ModelError` saying how to fetch it), or ``off``. Beside a GGUF or server model its
    default (None, or ``auto``) is ``minilm`` when it is fetched and the ``meaning`` extra is installed, and off
    otherwise: the measured division of labour (EVALUATION, "Meaning without words") is the model path, so a model
    path without the embedder is the exception, asked for by ``off``. Which one a turn ran is named by
    :func:`meaning_of` (the evaluations' reports say it). The rules alone (``"rules"``, or ``"auto"`` with no model)
    never load it unless ``meaning`` names it.

    A ``model`` of the form ``server+http://HOST:PORT`` is a llama-server's native API
    (:class:`~fsmdial.understand.model.server.ServerUnderstander`), local or not: the same turn, decoded there.
    ``openai+http://HOST:PORT[?flavor=NAME&model=ID]`` is an OpenAI-compatible server's ``/v1/completions``
    with structured outputs (:class:`~fsmdial.understand.model.openai_server.OpenAIServerUnderstander`): ``flavor``
    is ``llama.cpp``, ``vllm``, ``vllm-guided`` or ``sglang`` (where the grammar goes; default: recognised from
    ``GET /v1/models``, else ``llama.cpp``), ``model`` the served model (default: the first listed), ``template``
    a file with the model's chat template (vLLM and SGLang do not publish it).
    Either URL may carry the transport's options in its query (``?deadline=10&max_reply=2000000``:
    :mod:`~fsmdial.understand.model.transport`).
    ``options`` go to :class:`~fsmdial.understand.model.gguf.GGUFUnderstander` (``backend``, ``n_threads``,
    ``fast_path``...); a server takes :data:`SERVER_OPTIONS` (the decoding options are the server's), and
    the transport's options given for a GGUF file are a :class:`ValueError`. Nothing is loaded for the rules.
    """
    if meaning is not None and meaning not in (MEANING_AUTO, MEANING_OFF) and not meaning.strip():
        raise ValueError("--meaning needs a model: minilm, a folder of its files, auto or off")
    found = None if kind == "meaning" else _model_understander(kind, model, **options)
    named = meaning not in (None, MEANING_AUTO, MEANING_OFF)
    if found is None and (kind == "meaning" or named):  # the rules and the embedding model, no GGUF model
        from .meaning.understander import MeaningUnderstander

        if meaning == MEANING_OFF:
            raise ValueError("--understander meaning is the rules and the embedding model: --meaning off leaves none")
        return MeaningUnderstander(None if meaning == MEANING_AUTO else meaning)
    if found is None or meaning == MEANING_OFF:
        return found
    from .meaning.understander import load_chooser
    from .model.understander import ModelUnderstander

    assert isinstance(found, ModelUnderstander)
    if not named:  # auto: the embedder when it is here, beside a model that keeps the rules' reading
        if found.grounding is not None and _meaning_available():
            found.meaning = load_chooser()
        return found
    if found.grounding is None:  # its pick stands like the rules' reading: there is none without them
        raise ValueError("--meaning needs the rules' reading beside the model: drop rules_first=False")
    found.meaning = load_chooser(meaning)
    return found


MEANING_AUTO = "auto"
"""``--meaning auto`` (the default beside a model): the embedding model when it is fetched and importable."""
MEANING_OFF = "off"
"""``--meaning off``: no embedding model beside the GGUF or server model."""


def _meaning_available() -> bool:
    """Whether ``minilm`` is fetched and the ``meaning`` extra (tokenizers, safetensors) imports."""
    import importlib.util

    from ..model_catalogue import locate

    if locate(MEANING_MODEL) is None:
        return False
    return all(importlib.util.find_spec(name) is not None for name in ("tokenizers", "safetensors"))


def meaning_for(kind: str, meaning: str | None) -> str | None:
    """The embedding model :func:`make_understander` gives understander ``kind`` for ``meaning``, by name (what a
    report of runs in other processes says), or None: no embedding model."""
    if meaning == MEANING_OFF or kind == "rules" and meaning in (None, MEANING_AUTO):
        return None
    if meaning not in (None, MEANING_AUTO):
        return meaning
    if kind == "meaning":
        return MEANING_MODEL
    return MEANING_MODEL if _meaning_available() else None


def meaning_of(understander: object) -> str | None:
    """The embedding model's folder name an understander chooses meaning with, or None when it has none."""
    chooser = getattr(understander, "meaning", None) or getattr(understander, "chooser", None)
    encoder = getattr(chooser, "encoder", None)
    folder = getattr(encoder, "folder", None)
    return None if folder is None else Path(folder).name


def _model_understander(kind: UnderstanderKind, model: str | None = None, **options: Any) -> Understander | None:
    """:func:`make_understander` without ``meaning``."""
    if kind == "auto":
        model = model or os.environ.get("FSMDIAL_MODEL")
        if not model:
            return None
    elif kind == "rules":
        return None
    elif kind != "gguf":
        raise ValueError(f"unknown understander {kind!r} (choose one of: auto, {', '.join(UNDERSTANDERS)})")
    elif not model:
        raise ValueError("--understander gguf needs --model PATH")
    taken = {key: options[key] for key in SERVER_OPTIONS if key in options}
    if model.startswith(SERVER_SCHEME):
        from .model.server import ServerUnderstander

        return ServerUnderstander(model[len(SERVER_SCHEME) :], **taken)
    if model.startswith(OPENAI_SCHEME):
        from .model.openai_server import OpenAIServerUnderstander

        return OpenAIServerUnderstander.from_url(model[len(OPENAI_SCHEME) :], **taken)
    transport = sorted(key for key in TRANSPORT_OPTIONS if options.get(key) is not None)
    if transport:
        raise ValueError(f"{transport[0]} is an option of a model server (--model-server URL), not of a GGUF file")
    from .model.gguf import GGUFUnderstander

    return GGUFUnderstander(model, **{key: value for key, value in options.items() if key not in TRANSPORT_OPTIONS})


SERVER_SCHEME = "server+"
"""``--model server+http://HOST:PORT`` (or ``--model-server http://HOST:PORT``) names a llama-server (native API)."""
OPENAI_SCHEME = "openai+"
"""``--model openai+http://HOST:PORT?flavor=vllm`` (or ``--model-server`` the same) names an OpenAI-compatible one."""
TRANSPORT_OPTIONS = ("timeout", "retries", "backoff", "deadline", "max_reply")
"""The options of a model server's transport (:mod:`~fsmdial.understand.model.transport`)."""
SERVER_OPTIONS = ("fast_path", "rules_first", "chat_template", *TRANSPORT_OPTIONS)
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
    parser.add_argument("--understander", choices=UNDERSTANDERS, default="rules")
    parser.add_argument("--model", metavar="PATH", help="GGUF model for --understander gguf")
    add_meaning_argument(parser)
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


def add_meaning_argument(parser: argparse.ArgumentParser) -> None:
    """``--meaning minilm``: meaning without words by a small embedding model (``--understander meaning`` too)."""
    parser.add_argument(
        "--meaning",
        metavar="MODEL",
        default=None,
        help="a small embedding model choosing values, intents and flows the message words differently, where "
        "the rules read none: minilm (fetched by 'fsmdial models fetch minilm'), a folder of its files, auto or "
        "off; beside a GGUF model the default is auto (minilm when it is fetched), with --understander meaning "
        "it is the rules and this model alone (default minilm)",
    )


def add_model_server_argument(parser: argparse.ArgumentParser) -> None:
    """``--model-server URL``: decode on a model server instead of a GGUF file in this process; its bounds."""
    parser.add_argument(
        "--model-server",
        metavar="URL",
        default=None,
        help="a model server to decode on (instead of --model): llama-server's native API, e.g. "
        "http://127.0.0.1:8080, or an OpenAI-compatible one, e.g. 'openai+http://127.0.0.1:8000?flavor=vllm'",
    )
    parser.add_argument(
        "--model-deadline",
        metavar="SECONDS",
        type=_positive(float),
        default=None,
        help="--model-server: seconds a turn's model call may take, retries included (default 30)",
    )
    parser.add_argument(
        "--model-max-reply",
        metavar="BYTES",
        type=_positive(int),
        default=None,
        help="--model-server: bytes an answer of the server may have (default 1048576)",
    )


def _positive(kind: type[float] | type[int]) -> Any:
    def read(text: str) -> float | int:
        try:
            value = kind(text)
        except ValueError:
            value = 0
        if not 0 < value < float("inf"):
            raise argparse.ArgumentTypeError(f"expected a positive {kind.__name__}, got {text!r}")
        return value

    read.__name__ = f"positive {kind.__name__}"
    return read


def server_options(args: argparse.Namespace) -> dict[str, Any]:
    """The transport's options :func:`add_model_server_argument`'s flags give (only those given)."""
    found = {"deadline": getattr(args, "model_deadline", None), "max_reply": getattr(args, "model_max_reply", None)}
    return {key: value for key, value in found.items() if value is not None}


def understander_from_arguments(args: argparse.Namespace) -> Understander | None:
    """The understander :func:`add_model_arguments`' options name (None for the rules)."""
    model = model_of(args.model, args.model_server)
    kind: UnderstanderKind = "gguf" if args.model_server else args.understander
    meaning = getattr(args, "meaning", None)
    if kind == "meaning":
        return make_understander("meaning", meaning=meaning)
    options: dict[str, Any] = {"backend": args.backend, "n_threads": args.threads, "fast_path": not args.no_fast_path}
    options["meaning"] = meaning
    if getattr(args, "choose", "json") != "json":
        if args.model_server:  # a server decodes under a grammar: it cannot score options
            raise ModelError("--choose score needs a local GGUF model (--model), not a model server")
        options.update(choose=args.choose, margin=args.margin)
    return make_understander(kind, model, **options, **server_options(args))
