"""The constrained-decoding backends of the GGUF understander: the one list of their names.

Each backend is a :class:`~.decoder.ConstrainedDecoder` subclass in a module
of its own. Importing this module loads none of them (nor llama.cpp), so the
CLI and the pytest plugin read the names here; :func:`decoder_for` imports a
backend's module when it is first used, and a missing dependency is a
:class:`~fsmdial.errors.MissingExtraError` naming the extra to install.
"""

from __future__ import annotations

import atexit
import importlib
import weakref
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ...errors import ModelError

if TYPE_CHECKING:
    from .decoder import ConstrainedDecoder
    from .llama_model import LlamaModel


@dataclass(frozen=True)
class Backend:
    """One backend: where its decoder class is, and the extra that installs what it needs."""

    name: str
    module: str
    """The module of :attr:`decoder`, relative to this package."""
    decoder: str
    """The name of its :class:`~.decoder.ConstrainedDecoder` subclass."""
    extra: str
    """``pip install 'fsmdial[<extra>]'`` installs its dependencies."""
    summary: str

    def decoder_class(self) -> type[ConstrainedDecoder]:
        """The decoder class (imports the backend's module)."""
        cls: type[ConstrainedDecoder] = getattr(importlib.import_module(self.module, __package__), self.decoder)
        return cls


_REGISTRY = {
    backend.name: backend
    for backend in (
        Backend(
            "llguidance",
            ".llguidance_backend",
            "LLGuidanceDecoder",
            "gguf",
            "llguidance token masks over the bounded GBNF (lazy, no index to build)",
        ),
        Backend("llamacpp", ".llamacpp_backend", "LlamaCppDecoder", "gguf", "llama.cpp's own GBNF grammar sampler"),
        Backend(
            "outlines",
            ".outlines_backend",
            "OutlinesDecoder",
            "outlines",
            "an outlines-core index over the grammar's regex (slow to build for long strings)",
        ),
    )
}

BACKENDS: tuple[str, ...] = tuple(_REGISTRY)
"""Every backend name, the default first."""
DEFAULT_BACKEND = "llguidance"
"""Chosen by measurement (see benches/): the cheapest constrained token on the tiny model."""


def backend(name: str) -> Backend:
    """The backend called ``name``; :class:`ModelError` for a name that is none."""
    found = _REGISTRY.get(name)
    if found is None:
        raise ModelError(f"unknown backend {name!r} (choose one of: {', '.join(BACKENDS)})")
    return found


_DECODERS: weakref.WeakKeyDictionary[LlamaModel, dict[str, ConstrainedDecoder]] = weakref.WeakKeyDictionary()
# A decoder holds llama.cpp objects (its compiled grammars, and the model): free them at exit, while
# llama-cpp-python's bindings are still there. Left to interpreter teardown, they may be freed after
# the bindings' module is cleared, and their finalizers fail ("'NoneType' object is not callable").
atexit.register(_DECODERS.clear)


def decoder_for(name: str, model: LlamaModel) -> ConstrainedDecoder:
    """The backend ``name`` on ``model``, created once per model (its compiled grammars are kept)."""
    decoders = _DECODERS.setdefault(model, {})
    if name not in decoders:
        decoders[name] = backend(name).decoder_class()(model)
    return decoders[name]
