"""The llamacpp backend: llama.cpp's own GBNF grammar sampler, fed the bounded GBNF of
:mod:`fsmdial.understand.constraint.grammar`, on the :class:`~.llama_model.LlamaModel` every backend shares.
"""

from __future__ import annotations

import ctypes
import math

from ...errors import MissingExtraError
from ..constraint.grammar import Grammar, GrammarError
from .decoder import ConstrainedDecoder, Constraint, greedy
from .llama_model import LlamaModel

try:
    import llama_cpp
    import numpy as np
except ImportError as exc:  # pragma: no cover - exercised with the module hidden (tests/test_packaging.py)
    raise MissingExtraError("gguf", "the gguf understander", exc) from exc

_TOKEN_DATA = np.dtype([("id", np.int32), ("logit", np.float32), ("p", np.float32)], align=True)


class LlamaGrammarConstraint(Constraint):
    """llama.cpp's GBNF grammar sampler, driven token by token.

    The greedy token is checked alone first (one candidate); only when the
    grammar rejects it are all candidates masked, exactly like llama.cpp's
    own sampler does. Greedy results are the same either way.
    """

    def __init__(self, model: LlamaModel, gbnf: str):
        self._free = llama_cpp.llama_sampler_free  # kept: at interpreter exit the module's names may be gone first
        self.sampler = llama_cpp.llama_sampler_init_grammar(model.vocab, gbnf.encode("utf-8"), b"root")
        if not self.sampler:
            raise GrammarError(f"llama.cpp rejected the grammar:\n{gbnf}")
        self.masked_steps = 0
        self._one = (llama_cpp.llama_token_data * 1)()
        self._one_array = llama_cpp.llama_token_data_array(self._one, 1, -1, False)
        self._all = np.zeros(model.n_vocab, dtype=_TOKEN_DATA)
        self._all["id"] = np.arange(model.n_vocab, dtype=np.int32)
        self._all_array = llama_cpp.llama_token_data_array(
            self._all.ctypes.data_as(llama_cpp.llama_token_data_p), model.n_vocab, -1, False
        )

    def start(self) -> None:
        llama_cpp.llama_sampler_reset(self.sampler)
        self.masked_steps = 0

    def choose(self, logits: np.ndarray) -> int:
        token = int(np.argmax(logits))
        self._one[0].id, self._one[0].logit, self._one[0].p = token, float(logits[token]), 0.0  # type: ignore[assignment]
        self._one_array.size, self._one_array.selected, self._one_array.sorted = 1, -1, False
        llama_cpp.llama_sampler_apply(self.sampler, ctypes.byref(self._one_array))
        if math.isinf(self._one[0].logit):
            self.masked_steps += 1
            self._all["logit"] = logits
            self._all_array.size, self._all_array.selected, self._all_array.sorted = len(self._all), -1, False
            llama_cpp.llama_sampler_apply(self.sampler, ctypes.byref(self._all_array))
            token = greedy(self._all["logit"], "llama.cpp grammar")
        llama_cpp.llama_sampler_accept(self.sampler, token)
        return token

    def __del__(self) -> None:
        sampler = getattr(self, "sampler", None)
        if sampler:
            self._free(sampler)
            self.sampler = None


class LlamaCppDecoder(ConstrainedDecoder):
    """Constrained decoding with llama.cpp's grammar sampler (the bounded GBNF of the turn's grammar).

    llama-cpp-python's own ``LlamaGrammar.from_json_schema`` is not used: it
    ignores integer bounds and allows whitespace, so outputs were unbounded.
    """

    name = "llamacpp"

    def compile(self, grammar: Grammar) -> Constraint:
        return LlamaGrammarConstraint(self.model, grammar.gbnf)
