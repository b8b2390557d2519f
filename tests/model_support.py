"""Helpers for tests that drive a GGUF model (the tiny random one or a real one)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import numpy as np

from fsmdial.understand.decoding.llama_model import LlamaModel


@contextmanager
def noisy_logits(model: LlamaModel, seed: int, scale: float = 1.0) -> Iterator[None]:
    """Replace the model's logits by seeded noise (times ``scale``): the grammar alone decides what is written."""
    rng = np.random.default_rng(seed)
    real = model.logits

    def logits() -> np.ndarray:
        out = real()
        out[:] = rng.standard_normal(len(out)).astype(np.float32) * scale
        return out

    model.logits = logits  # type: ignore[method-assign]
    try:
        yield
    finally:
        del model.logits
