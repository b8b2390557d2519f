"""How likely a model finds each of several short continuations of one prompt (no sampling, no grammar).

:func:`suffix_log_probs` makes the KV cache hold the prompt (keeping what it
shares with the cache, like every call), then, for each suffix, evaluates the
suffix's tokens but the last in one batch after the prompt, with the logits of
every position, and takes each suffix token's log-probability; the KV cells
after the prompt are removed again before the next suffix. So the prompt is
evaluated once and each option costs one small batch. What stays in the cache
afterwards is the prompt alone, as after a prompt's evaluation.

Deterministic: the same prompt and suffixes give the same numbers (the same
batches in the same order, no sampling).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ...errors import MissingExtraError, UnderstandingError

try:
    import llama_cpp
    import numpy as np
except ImportError as exc:  # pragma: no cover - exercised with the module hidden (tests/test_packaging.py)
    raise MissingExtraError("gguf", "the gguf understander", exc) from exc

if TYPE_CHECKING:
    from .llama_model import LlamaModel


def log_softmax(logits: np.ndarray) -> np.ndarray:
    shifted = logits.astype(np.float64) - float(np.max(logits))
    return shifted - float(np.log(np.sum(np.exp(shifted))))


def suffix_log_probs(model: LlamaModel, prompt: list[int], suffixes: Sequence[Sequence[int]]) -> list[list[float]]:
    """Per suffix, the log-probability of each of its tokens after ``prompt`` (and the suffix's earlier tokens).

    The caller holds ``model.lock``. Evaluated tokens are counted in ``model.evaluated``.
    """
    longest = max((len(s) for s in suffixes), default=0)
    if len(prompt) + longest >= model.n_ctx:
        raise UnderstandingError(
            f"prompt of {len(prompt)} tokens and an option of {longest} do not fit the context of {model.n_ctx}"
        )
    model.feed(prompt)
    first = log_softmax(model.logits())
    llm = model.llm
    start = llm.n_tokens
    memory = llama_cpp.llama_get_memory(llm.ctx)
    found: list[list[float]] = []
    for suffix in suffixes:
        if not suffix:
            found.append([])
            continue
        scores = [float(first[suffix[0]])]
        rest = list(suffix[:-1])
        if len(suffix) > 1:
            batch = llama_cpp.llama_batch_init(len(rest), 0, 1)
            try:
                batch.n_tokens = len(rest)
                for i, token in enumerate(rest):
                    batch.token[i] = token
                    batch.pos[i] = start + i
                    batch.n_seq_id[i] = 1
                    batch.seq_id[i][0] = 0
                    batch.logits[i] = 1
                status = llama_cpp.llama_decode(llm.ctx, batch)
                if status != 0:
                    llm.n_tokens = 0  # the cache is in an unknown state: start afresh next time
                    raise UnderstandingError(f"llama.cpp failed to evaluate an option of {len(rest)} tokens: {status}")
                model.evaluated += len(rest)
                for i in range(len(rest)):
                    pointer = llama_cpp.llama_get_logits_ith(llm.ctx, i)
                    logits = np.ctypeslib.as_array(pointer, shape=(model.n_vocab,))
                    scores.append(float(log_softmax(logits)[suffix[i + 1]]))
            finally:
                llama_cpp.llama_batch_free(batch)
                llama_cpp.llama_memory_seq_rm(memory, 0, start, -1)  # the cache holds the prompt alone again
        found.append(scores)
    return found
