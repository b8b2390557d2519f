"""The llguidance backend: llguidance's ``LLMatcher`` computes token masks for the bounded grammar.

llguidance reads the same bounded GBNF as llama.cpp (converted to its Lark
dialect) and computes the mask of allowed tokens over the whole vocabulary in
tens of microseconds, lazily, with no index to build up front. As with
llama.cpp's sampler, the greedy token is checked alone first and the full
mask is computed only when the grammar rejects it.
"""

from __future__ import annotations

import warnings
import weakref

from ...errors import MissingExtraError, UnderstandingError
from ..constraint.grammar import Grammar, GrammarError
from .decoder import ConstrainedDecoder, Constraint, greedy
from .llama_model import LlamaModel

try:
    import llguidance
    import llguidance.llamacpp
    import numpy as np
except ImportError as exc:  # pragma: no cover - exercised with the module hidden (tests/test_packaging.py)
    raise MissingExtraError("gguf", "the llguidance backend", exc) from exc

_TOKENIZERS: weakref.WeakKeyDictionary[LlamaModel, llguidance.LLTokenizer] = weakref.WeakKeyDictionary()


def llguidance_tokenizer(model: LlamaModel) -> llguidance.LLTokenizer:
    """llguidance's view of the model's vocabulary (built once per model: it walks every token)."""
    if model not in _TOKENIZERS:
        with warnings.catch_warnings():  # llguidance calls a llama.cpp binding deprecated in 0.3.x, per token
            warnings.simplefilter("ignore", DeprecationWarning)
            _TOKENIZERS[model] = llguidance.llamacpp.lltokenizer_from_vocab(model.vocab)
    return _TOKENIZERS[model]


def apply_bitmask(logits: np.ndarray, bitmask: np.ndarray) -> None:
    """Set the logits of tokens whose bit is 0 to -inf (bit i of the mask is token i)."""
    allowed = np.unpackbits(bitmask.view(np.uint8), bitorder="little")[: len(logits)]
    logits[allowed == 0] = -np.inf


class LLGuidanceConstraint(Constraint):
    def __init__(self, tokenizer: llguidance.LLTokenizer, gbnf: str, n_vocab: int):
        try:
            grammar = llguidance.grammar_from("gbnf", gbnf)
        except ValueError as exc:
            raise GrammarError(f"llguidance could not read the grammar: {exc}") from None
        self.matcher = llguidance.LLMatcher(tokenizer, grammar, log_level=0)
        if self.matcher.is_error():
            raise GrammarError(f"llguidance rejected the grammar: {self.matcher.get_error()}")
        self.bitmask = np.full((1, (n_vocab + 31) // 32), -1, dtype=np.int32)
        self.masked_steps = 0

    def start(self) -> None:
        self.matcher.reset()
        self.masked_steps = 0
        self._check()

    def choose(self, logits: np.ndarray) -> int:
        token = int(np.argmax(logits))
        if self.matcher.validate_tokens([token]) != 1:
            self.masked_steps += 1
            self.matcher.unsafe_compute_mask_ptr(self.bitmask.ctypes.data, self.bitmask.nbytes)
            self._check()
            apply_bitmask(logits, self.bitmask[0])
            token = greedy(logits, "llguidance")
        if not self.matcher.consume_token(token):
            raise UnderstandingError(f"llguidance: token {token} was not accepted: {self.matcher.get_error()}")
        return token

    def forced(self) -> list[int]:
        """Tokens the grammar allows no alternative to (llguidance's fast-forward), consumed."""
        tokens = self.matcher.compute_ff_tokens()
        if tokens and not self.matcher.consume_tokens(tokens):
            raise UnderstandingError(f"llguidance: forced tokens were not accepted: {self.matcher.get_error()}")
        return tokens

    def _check(self) -> None:
        if self.matcher.is_error():
            raise UnderstandingError(f"llguidance: {self.matcher.get_error()}")


class LLGuidanceDecoder(ConstrainedDecoder):
    """Constrained decoding with llguidance token masks over the bounded GBNF."""

    name = "llguidance"

    def __init__(self, model: LlamaModel):
        super().__init__(model)
        self.tokenizer = llguidance_tokenizer(model)

    def compile(self, grammar: Grammar) -> Constraint:
        return LLGuidanceConstraint(self.tokenizer, grammar.gbnf, self.model.n_vocab)
