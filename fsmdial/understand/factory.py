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

    ``options`` go to :class:`~fsmdial.understand.gguf.GGUFUnderstander` (``backend``, ``n_threads``,
    ``fast_path``...). Nothing is loaded for the rules.
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
    from .gguf import GGUFUnderstander

    return GGUFUnderstander(model, **options)


def add_model_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of a command that scores the rules or a GGUF model (``eval messy``, ``eval conversations``)."""
    parser.add_argument("--understander", choices=("rules", "gguf"), default="rules")
    parser.add_argument("--model", metavar="PATH", help="GGUF model for --understander gguf")
    parser.add_argument("--backend", default=None, help="constrained-decoding backend for --understander gguf")
    parser.add_argument(
        "--threads",
        type=int,
        default=int(os.environ.get("FSMDIAL_THREADS", "1")),
        help="CPU threads of the model (default: $FSMDIAL_THREADS, else 1)",
    )
    parser.add_argument("--no-fast-path", action="store_true", help="gguf: ask the model on every turn")


def understander_from_arguments(args: argparse.Namespace) -> Understander | None:
    """The understander :func:`add_model_arguments`' options name (None for the rules)."""
    return make_understander(
        args.understander, args.model, backend=args.backend, n_threads=args.threads, fast_path=not args.no_fast_path
    )
