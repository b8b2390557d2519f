"""all-MiniLM-L6-v2's sentence vectors in numpy: no torch.

The encoder is a 6-layer BERT (384 wide, 12 heads, GELU MLP 1536 wide): word, position and type embeddings summed and
normalised, then per layer self-attention and a feed-forward block, each with a residual and a LayerNorm after
it (post-norm, as BERT). The sentence vector is the mean of the last layer's token vectors over the mask, scaled to
length 1 (sentence-transformers' ``Pooling(mean)`` and ``Normalize``). The tokenizer is the model's own
``tokenizer.json`` through the ``tokenizers`` library; the weights are read by ``safetensors``' numpy API. Both are
the ``meaning`` extra (``pip install 'fsmdial[meaning]'``); numpy comes with it (and with the ``gguf`` extra).

One sentence is encoded at a time, without padding: a turn encodes its one message, and a flow's option texts are
encoded once. The result matches sentence-transformers' vectors to a cosine above 0.9999 (tests/data/meaning holds
reference vectors made with torch).
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ...errors import MissingExtraError, ModelError

if TYPE_CHECKING:
    import numpy as np

MODEL_NAME = "minilm"
"""The catalogue's name of the model (``fsmdial models fetch minilm``)."""
FILES = ("model.safetensors", "tokenizer.json", "config.json")
"""The files of the model folder the encoder reads."""
MAX_TOKENS = 256
"""Tokens read of a sentence, [CLS] and [SEP] included (sentence-transformers' ``max_seq_length`` for this model)."""


def _missing(folder: Path, name: str, why: str) -> ModelError:
    return ModelError(
        f"the embedding model's {name} is {why} in {folder} "
        f"(fetch it with 'fsmdial models fetch {MODEL_NAME}', or pass the folder holding {', '.join(FILES)})"
    )


class Encoder:
    """Sentence vectors of all-MiniLM-L6-v2 (or any BERT encoder of the same layout) from a folder of its files.

    A missing or unreadable file, or a missing library, is a :class:`ModelError` naming it and how to get it.
    """

    def __init__(self, folder: str | Path):
        self.folder = Path(folder)
        try:
            import numpy as np
            from safetensors.numpy import load_file
            from tokenizers import Tokenizer
        except ImportError as exc:  # the README's promise: a missing extra is named by MissingExtraError
            raise MissingExtraError(
                "meaning", "the embedding model", exc, packages="numpy, tokenizers and safetensors"
            ) from None
        self._np = np
        for name in FILES:
            if not (self.folder / name).is_file():
                raise _missing(self.folder, name, "missing")
        try:
            config = json.loads((self.folder / "config.json").read_text(encoding="utf-8"))
            self.heads = int(config["num_attention_heads"])
            self.layers = int(config["num_hidden_layers"])
            self.eps = float(config.get("layer_norm_eps", 1e-12))
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise _missing(self.folder, "config.json", f"unreadable ({exc})") from None
        try:
            self.tokenizer = Tokenizer.from_file(str(self.folder / "tokenizer.json"))
        except Exception as exc:  # the library raises its own exception types for a damaged file
            raise _missing(self.folder, "tokenizer.json", f"unreadable ({exc})") from None
        self.tokenizer.no_padding()
        self.tokenizer.enable_truncation(MAX_TOKENS)
        try:
            weights = load_file(str(self.folder / "model.safetensors"))
        except Exception as exc:
            raise _missing(self.folder, "model.safetensors", f"unreadable ({exc})") from None
        try:
            self._weights(weights)
        except (KeyError, ValueError) as exc:
            raise _missing(self.folder, "model.safetensors", f"not this encoder's weights ({exc})") from None

    def _weights(self, w: dict[str, Any]) -> None:
        np = self._np

        def get(name: str) -> Any:
            return np.ascontiguousarray(w[name], dtype=np.float32)

        self.words = get("embeddings.word_embeddings.weight")
        self.positions = get("embeddings.position_embeddings.weight")
        self.types = get("embeddings.token_type_embeddings.weight")
        self.norm = (get("embeddings.LayerNorm.weight"), get("embeddings.LayerNorm.bias"))
        self.blocks = []
        for i in range(self.layers):
            p = f"encoder.layer.{i}."
            # One matrix for query, key and value: one product per layer instead of three.
            qkv = np.concatenate([get(p + f"attention.self.{n}.weight") for n in ("query", "key", "value")]).T
            qkv_bias = np.concatenate([get(p + f"attention.self.{n}.bias") for n in ("query", "key", "value")])
            self.blocks.append(
                (
                    np.ascontiguousarray(qkv),
                    qkv_bias,
                    np.ascontiguousarray(get(p + "attention.output.dense.weight").T),
                    get(p + "attention.output.dense.bias"),
                    (get(p + "attention.output.LayerNorm.weight"), get(p + "attention.output.LayerNorm.bias")),
                    np.ascontiguousarray(get(p + "intermediate.dense.weight").T),
                    get(p + "intermediate.dense.bias"),
                    np.ascontiguousarray(get(p + "output.dense.weight").T),
                    get(p + "output.dense.bias"),
                    (get(p + "output.LayerNorm.weight"), get(p + "output.LayerNorm.bias")),
                )
            )
        width = self.words.shape[1]
        if width % self.heads or self.positions.shape[1] != width:
            raise ValueError(f"width {width} does not fit {self.heads} heads")
        self.width = width

    def _layer_norm(self, x: Any, weight_bias: tuple[Any, Any]) -> Any:
        np = self._np
        mean = x.mean(axis=-1, keepdims=True)
        centred = x - mean
        variance = (centred * centred).mean(axis=-1, keepdims=True)
        return centred / np.sqrt(variance + self.eps) * weight_bias[0] + weight_bias[1]

    def _gelu(self, x: Any) -> Any:
        """BERT's exact GELU, x * Phi(x), with erf by Abramowitz and Stegun 7.1.26 (error below 1.5e-7)."""
        np = self._np
        z = np.abs(x) * (1 / math.sqrt(2))
        t = 1 / (1 + 0.3275911 * z)
        poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))))
        erf = 1 - poly * np.exp(-z * z)
        return 0.5 * x * (1 + np.sign(x) * erf)

    def tokens(self, text: str) -> list[int]:
        """The token ids of ``text``, with [CLS] and [SEP], at most :data:`MAX_TOKENS`."""
        return list(self.tokenizer.encode(text).ids)

    def encode(self, text: str) -> np.ndarray:
        """The sentence vector of ``text``: float32, length 1."""
        np = self._np
        ids = self.tokens(text)
        n = len(ids)
        x = self.words[ids] + self.positions[:n] + self.types[0]
        x = self._layer_norm(x, self.norm)
        heads, size = self.heads, self.width // self.heads
        scale = np.float32(1 / math.sqrt(size))
        for qkv, qkv_bias, out, out_bias, norm1, up, up_bias, down, down_bias, norm2 in self.blocks:
            q, k, v = np.split(x @ qkv + qkv_bias, 3, axis=-1)
            q = q.reshape(n, heads, size).transpose(1, 0, 2)
            k = k.reshape(n, heads, size).transpose(1, 2, 0)
            v = v.reshape(n, heads, size).transpose(1, 0, 2)
            scores = (q @ k) * scale  # (heads, n, n): one sentence, no padding, so no mask
            scores -= scores.max(axis=-1, keepdims=True)
            attention = np.exp(scores)
            attention /= attention.sum(axis=-1, keepdims=True)
            context = (attention @ v).transpose(1, 0, 2).reshape(n, self.width)
            x = self._layer_norm(x + context @ out + out_bias, norm1)
            x = self._layer_norm(x + self._gelu(x @ up + up_bias) @ down + down_bias, norm2)
        pooled = x.mean(axis=0)
        length = float(np.linalg.norm(pooled))
        return (pooled / max(length, 1e-12)).astype(np.float32)  # type: ignore[no-any-return]
