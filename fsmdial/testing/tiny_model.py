"""Deterministic builder of a tiny but real GGUF model for tests and benchmarks.

The model is a 2-layer ``llama``-architecture network with seeded random
weights: it produces gibberish, but it is a genuine GGUF file that
llama-cpp-python (llama.cpp) loads, tokenizes with, samples from and
grammar-constrains exactly like a real instruct model.  Its tokenizer is a real
32,000-token GPT-2 style byte-level BPE (trained once by
``models/train_vocab.py`` on English text and shipped as
``fsmdial/testing/data/tiny_vocab.json.gz``), so the per-token cost of
grammar masking over the vocabulary is realistic.  A ChatML chat template
(``<|im_start|>`` / ``<|im_end|>``) is stored in ``tokenizer.chat_template``.

Nothing is downloaded: the builder needs only this package, ``numpy`` and the
``gguf`` package.  The same ``seed`` and options always give a byte-identical
file (weights come from ``numpy.random.RandomState``, whose streams numpy keeps
frozen across versions).

    >>> from fsmdial.testing.tiny_model import ensure_tiny_model
    >>> path = ensure_tiny_model()          # <repo>/models/fsmdial-tiny.gguf
"""

from __future__ import annotations

import argparse
import functools
import gzip
import json
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import require

__all__ = [
    "CHATML_TEMPLATE",
    "TINY_MODEL_NAME",
    "TinyModelConfig",
    "build_tiny_model",
    "ensure_tiny_model",
    "load_tiny_vocab",
]

TINY_MODEL_NAME = "fsmdial-tiny.gguf"

#: The canonical ChatML template (as in llama-cpp-python and HF tokenizers).
CHATML_TEMPLATE = (
    "{% for message in messages %}"
    "{{'<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>' + '\\n'}}"
    "{% endfor %}"
    "{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}"
)

VOCAB_PATH = Path(__file__).resolve().parent / "data" / "tiny_vocab.json.gz"

# <repo>/fsmdial/testing/tiny_model.py -> <repo>/models
_REPO_MODELS_DIR = Path(__file__).resolve().parents[2] / "models"

# gguf.TokenType values (kept literal so importing this module needs no gguf).
_TOKEN_NORMAL = 1
_TOKEN_CONTROL = 3

# llama.cpp's LLAMA_FTYPE_MOSTLY_F16
_FILE_TYPE_MOSTLY_F16 = 1


@dataclass(frozen=True)
class TinyModelConfig:
    """Hyper-parameters of the tiny model (defaults give a ~9.6 MB file)."""

    n_embd: int = 64
    n_layer: int = 2
    n_head: int = 4
    n_head_kv: int = 2
    n_ff: int = 256
    context_length: int = 4096
    rms_norm_eps: float = 1e-5
    rope_freq_base: float = 10000.0


@functools.lru_cache(maxsize=1)
def load_tiny_vocab() -> dict[str, Any]:
    """The shipped byte-level BPE vocabulary (tokens, merges, special tokens)."""
    with gzip.open(VOCAB_PATH, "rt", encoding="utf-8") as fh:
        data = json.load(fh)
    if data.get("format") != 1:
        raise ValueError(f"unsupported tiny vocabulary format in {VOCAB_PATH}")
    return data


def _weights(cfg: TinyModelConfig, n_vocab: int, seed: int) -> list[tuple[str, Any]]:
    """(name, numpy array) in GGUF order; numpy shapes are (rows=out, cols=in)."""
    np = require("numpy", "gguf", "the tiny test model")

    rng = np.random.RandomState(seed)
    head_dim = cfg.n_embd // cfg.n_head
    n_embd_kv = head_dim * cfg.n_head_kv

    def mat(rows: int, cols: int, std: float) -> Any:
        return (rng.standard_normal((rows, cols)) * std).astype(np.float16)

    def norm(n: int) -> Any:
        # RMSNorm gains around 1, slightly perturbed so layers differ.
        return (1.0 + 0.1 * rng.standard_normal(n)).astype(np.float32)

    d = cfg.n_embd
    tensors: list[tuple[str, Any]] = [("token_embd.weight", mat(n_vocab, d, 1.0))]
    for i in range(cfg.n_layer):
        p = f"blk.{i}."
        tensors += [
            (p + "attn_norm.weight", norm(d)),
            (p + "attn_q.weight", mat(d, d, d**-0.5)),
            (p + "attn_k.weight", mat(n_embd_kv, d, d**-0.5)),
            (p + "attn_v.weight", mat(n_embd_kv, d, d**-0.5)),
            (p + "attn_output.weight", mat(d, d, d**-0.5)),
            (p + "ffn_norm.weight", norm(d)),
            (p + "ffn_gate.weight", mat(cfg.n_ff, d, d**-0.5)),
            (p + "ffn_up.weight", mat(cfg.n_ff, d, d**-0.5)),
            (p + "ffn_down.weight", mat(d, cfg.n_ff, cfg.n_ff**-0.5)),
        ]
    tensors += [
        ("output_norm.weight", norm(d)),
        # Logit std ~2: peaked enough that sampling is not pure noise.
        ("output.weight", mat(n_vocab, d, 2.0 * d**-0.5)),
    ]
    return tensors


def build_tiny_model(
    path: str | os.PathLike[str],
    *,
    seed: int = 0,
    chat_template: bool = True,
    config: TinyModelConfig | None = None,
) -> Path:
    """Write the tiny GGUF model to ``path`` (atomically) and return the path.

    ``chat_template=False`` leaves out ``tokenizer.chat_template`` (for testing
    the handling of models that have none).  Output is byte-identical for the
    same arguments.
    """
    gguf = require("gguf", "gguf", "the tiny test model")  # heavy-ish and only needed here

    cfg = config or TinyModelConfig()
    if cfg.n_embd % cfg.n_head or cfg.n_head % cfg.n_head_kv:
        raise ValueError("n_embd must divide by n_head and n_head by n_head_kv")
    vocab = load_tiny_vocab()
    tokens: list[str] = vocab["tokens"]
    merges: list[str] = vocab["merges"]
    specials: list[str] = vocab["special_tokens"]
    ids = {t: tokens.index(t) for t in specials}
    n_vocab = len(tokens)
    special_set = set(specials)
    token_types = [_TOKEN_CONTROL if t in special_set else _TOKEN_NORMAL for t in tokens]

    out = Path(path)
    out.parent.mkdir(parents=True, exist_ok=True)

    w = gguf.GGUFWriter(None, "llama")
    w.add_name("fsmdial tiny test model")
    w.add_description(
        f"Random-weight llama model for fsmdial tests and benchmarks (seed={seed}); "
        "generates gibberish. Built by fsmdial.testing.tiny_model."
    )
    w.add_license("MIT")
    w.add_file_type(_FILE_TYPE_MOSTLY_F16)

    w.add_vocab_size(n_vocab)
    w.add_context_length(cfg.context_length)
    w.add_embedding_length(cfg.n_embd)
    w.add_block_count(cfg.n_layer)
    w.add_feed_forward_length(cfg.n_ff)
    w.add_head_count(cfg.n_head)
    w.add_head_count_kv(cfg.n_head_kv)
    w.add_layer_norm_rms_eps(cfg.rms_norm_eps)
    w.add_rope_dimension_count(cfg.n_embd // cfg.n_head)
    w.add_rope_freq_base(cfg.rope_freq_base)

    w.add_tokenizer_model(vocab["tokenizer_model"])  # "gpt2" = byte-level BPE
    w.add_tokenizer_pre(vocab["pre_tokenizer"])  # "gpt-2" split regex
    w.add_token_list(tokens)
    w.add_token_types(token_types)
    w.add_token_merges(merges)
    w.add_bos_token_id(ids["<|endoftext|>"])
    w.add_eos_token_id(ids["<|im_end|>"])
    w.add_pad_token_id(ids["<|endoftext|>"])
    w.add_add_bos_token(False)
    w.add_add_eos_token(False)
    if chat_template:
        w.add_chat_template(CHATML_TEMPLATE)

    for name, array in _weights(cfg, n_vocab, seed):
        w.add_tensor(name, array)

    fd, tmp_name = tempfile.mkstemp(prefix=out.name + ".", suffix=".tmp", dir=out.parent)
    os.close(fd)
    tmp = Path(tmp_name)
    try:
        w.write_header_to_file(tmp)
        w.write_kv_data_to_file()
        w.write_tensors_to_file()
        w.close()
        os.chmod(tmp, 0o644)
        os.replace(tmp, out)
    except BaseException:
        w.close()
        tmp.unlink(missing_ok=True)
        raise
    return out


def ensure_tiny_model(directory: str | os.PathLike[str] | None = None) -> Path:
    """Return ``<directory>/fsmdial-tiny.gguf``, building it only if missing.

    ``directory`` defaults to the repository's ``models/`` folder.
    """
    target = Path(directory) if directory is not None else _REPO_MODELS_DIR
    path = target / TINY_MODEL_NAME
    if not path.is_file():
        build_tiny_model(path)
    return path


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Build the tiny random-weight GGUF test model.")
    ap.add_argument("path", nargs="?", help=f"output file (default: models/{TINY_MODEL_NAME})")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--no-chat-template", action="store_true")
    args = ap.parse_args(argv)
    path = Path(args.path) if args.path else _REPO_MODELS_DIR / TINY_MODEL_NAME
    built = build_tiny_model(path, seed=args.seed, chat_template=not args.no_chat_template)
    print(built)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
