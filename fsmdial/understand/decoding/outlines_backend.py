"""The outlines backend: ``outlines.from_llamacpp`` over the same loaded ``Llama`` object.

outlines turns the bounded grammar's regular expression (see :mod:`~fsmdial.understand.constraint.grammar`;
outlines-core's own JSON-schema converter ignores integer bounds) into an
outlines-core index and a logits processor. The processor runs in the shared
greedy loop of :class:`~.decoder.ConstrainedDecoder`, called from Python, so
an error inside it fails the turn instead of being swallowed by a callback in
llama.cpp's sampler, and decoding is greedy (outlines' own ``generate`` would
sample, and would reset the model's KV cache after every call).

The index is built once per grammar; building it walks every DFA state over
the whole vocabulary, so it takes seconds for grammars with long strings (free
text is cut to :data:`~fsmdial.understand.constraint.grammar.REGEX_STRING_CHARS` characters in the regex, which
bounds that cost; a flow's ``max_length`` of 2,000 once took over 5.6 GB), and
grows with the square of the number of slots, since a regex cannot share the
"optional keys in order" sub-grammars the GBNF shares).
"""

from __future__ import annotations

from ...errors import MissingExtraError
from ..constraint.grammar import Grammar
from .decoder import ConstrainedDecoder, Constraint, greedy
from .llama_model import LlamaModel

try:
    import numpy as np
except ImportError as exc:  # pragma: no cover - exercised with the module hidden (tests/test_packaging.py)
    raise MissingExtraError("gguf", "the outlines backend", exc) from exc


class OutlinesConstraint(Constraint):
    def __init__(self, processor: object, end_tokens: np.ndarray):
        self.processor = processor
        self.end_tokens = end_tokens
        """End-of-generation tokens: outlines lets them through mid-JSON; the decoder stops at the closing brace."""
        self.masked_steps = 0
        self._last = np.zeros(1, dtype=np.int64)

    def start(self) -> None:
        self.processor.reset()  # type: ignore[attr-defined]
        self.masked_steps = 0

    def choose(self, logits: np.ndarray) -> int:
        # The processor advances its guide with the last id of the sequence it is given
        # (on every call after the first), so it only needs the token chosen last.
        biased = np.asarray(self.processor(self._last, logits))  # type: ignore[operator]
        biased[..., self.end_tokens] = -np.inf
        self.masked_steps += 1
        token = greedy(biased, "outlines")
        self._last[0] = token
        return token


class OutlinesDecoder(ConstrainedDecoder):
    """Constrained decoding with an outlines(-core) logits processor."""

    name = "outlines"

    def __init__(self, model: LlamaModel):
        super().__init__(model)
        try:
            import outlines
            import outlines_core.kernels.numpy  # noqa: F401  (needs numba: fail now, not mid-decoding)
            from outlines.backends.outlines_core import OutlinesCoreBackend
        except ImportError as exc:
            packages = "outlines, outlines-core and numba"
            raise MissingExtraError("outlines", "the outlines backend", exc, packages=packages) from None
        self.outlines_model = outlines.from_llamacpp(model.llm, chat_mode=False)
        self.backend = OutlinesCoreBackend(self.outlines_model)
        self.end_tokens = np.array([t for t in range(model.n_vocab) if model.is_end(t)], dtype=np.int64)

    def compile(self, grammar: Grammar) -> Constraint:
        # Free text bounded harder than in the GBNF (grammar.REGEX_STRING_CHARS): the index is
        # built over every string length and the whole vocabulary.
        return OutlinesConstraint(self.backend.get_regex_logits_processor(grammar.index_regex), self.end_tokens)
