"""The understander a command or an evaluation asks for by name: the one place that chooses it."""

from __future__ import annotations

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
