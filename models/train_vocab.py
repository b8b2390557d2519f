#!/usr/bin/env python3
"""Train the byte-level BPE vocabulary used by the tiny test model (run ONCE).

The output, ``fsmdial/testing/data/tiny_vocab.json.gz``, is committed to the
repository; ``fsmdial.testing.tiny_model.build_tiny_model`` only reads that
file, so building the tiny GGUF needs neither this script nor its corpus.

Corpus (all real English text, all local, nothing is downloaded):

* the STAR dialogue corpus (``shared/data/star``, MIT licence): every utterance
  and instruction ("Text"), scenario task descriptions, questionnaires, and all
  strings in ``tasks/``, ``apis/`` and ``dbs/``;
* the Python standard library's own documentation: ``pydoc_data/topics.py``
  (the language reference) and the docstrings of the stdlib modules, read with
  ``ast`` (nothing is imported), and the stdlib's comments.  STAR alone is too small to reach 32k merges.

The vocabulary is a GPT-2 style byte-level BPE (``tokenizers`` ByteLevel
pre-tokenizer with the GPT-2 split regex), which is exactly what llama.cpp
implements for ``tokenizer.ggml.model = "gpt2"`` with ``tokenizer.ggml.pre =
"gpt-2"``.  Special tokens are appended after the trained tokens.

Usage::

    pip install tokenizers
    python models/train_vocab.py [--star DIR] [--out FILE] [--vocab-size N]
"""

from __future__ import annotations

import argparse
import ast
import gzip
import io
import json
import os
import sys
import sysconfig
import time
import tokenize
from collections.abc import Iterator
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DEFAULT_STAR = REPO.parent / "shared" / "data" / "star"
DEFAULT_OUT = REPO / "fsmdial" / "testing" / "data" / "tiny_vocab.json.gz"

# Appended after the trained tokens, in this order.
SPECIAL_TOKENS = ["<|endoftext|>", "<|im_start|>", "<|im_end|>"]
# Total vocabulary size including the special tokens.
DEFAULT_VOCAB_SIZE = 32000

FORMAT_VERSION = 1


def _strings(obj: object) -> Iterator[str]:
    """Every string value (not key) nested in a JSON document."""
    if isinstance(obj, str):
        yield obj
    elif isinstance(obj, dict):
        for value in obj.values():
            yield from _strings(value)
    elif isinstance(obj, list):
        for value in obj:
            yield from _strings(value)


def star_texts(star: Path) -> Iterator[str]:
    dialogues = sorted((star / "dialogues").glob("*.json"), key=lambda p: (len(p.stem), p.stem))
    if not dialogues:
        raise SystemExit(f"no STAR dialogues under {star}/dialogues")
    for path in dialogues:
        doc = json.loads(path.read_text(encoding="utf-8"))
        for event in doc.get("Events", []):
            text = event.get("Text")
            if isinstance(text, str) and text.strip():
                yield text
        scenario = doc.get("Scenario", {})
        for key in ("UserTask", "WizardTask"):
            if isinstance(scenario.get(key), str):
                yield scenario[key]
        for key in ("UserQuestionnaire", "WizardQuestionnaire"):
            yield from (s for s in _strings(doc.get(key, [])) if len(s) > 1)
    for sub in ("tasks", "apis", "dbs"):
        for path in sorted((star / sub).rglob("*.json")):
            try:
                doc = json.loads(path.read_text(encoding="utf-8"))
            except (UnicodeDecodeError, json.JSONDecodeError):
                continue
            yield from (s for s in _strings(doc) if s.strip())


def stdlib_texts() -> Iterator[str]:
    stdlib = Path(sysconfig.get_paths()["stdlib"])
    topics = stdlib / "pydoc_data" / "topics.py"
    if topics.is_file():
        tree = ast.parse(topics.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and len(node.value) > 40:
                yield node.value
    skip = {"site-packages", "pydoc_data", "__pycache__"}
    files = sorted(p for p in stdlib.rglob("*.py") if not (skip & set(p.relative_to(stdlib).parts)))
    for path in files:
        try:
            source = path.read_text(encoding="utf-8")
            tree = ast.parse(source)
        except (SyntaxError, UnicodeDecodeError, ValueError):
            continue
        for node in ast.walk(tree):
            if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
                doc = ast.get_docstring(node, clean=True)
                if doc and len(doc) > 20:
                    yield doc
        # Comments: join consecutive comment lines into one paragraph.
        para: list[str] = []
        try:
            for tok in tokenize.generate_tokens(io.StringIO(source).readline):
                if tok.type == tokenize.COMMENT:
                    para.append(tok.string.lstrip("#").strip())
                elif tok.type not in (tokenize.NL, tokenize.NEWLINE) and para:
                    text = " ".join(para).strip()
                    if len(text) > 20:
                        yield text
                    para = []
        except (tokenize.TokenError, SyntaxError):
            pass


def train(texts: list[str], vocab_size: int) -> tuple[list[str], list[str]]:
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers

    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=vocab_size - len(SPECIAL_TOKENS),
        min_frequency=2,
        special_tokens=[],
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False,
    )
    tok.train_from_iterator(texts, trainer=trainer, length=len(texts))
    model = json.loads(tok.to_str())["model"]
    vocab: dict[str, int] = model["vocab"]
    tokens = sorted(vocab, key=vocab.__getitem__)
    if [vocab[t] for t in tokens] != list(range(len(tokens))):
        raise SystemExit("trained vocabulary ids are not contiguous")
    merges = [m if isinstance(m, str) else " ".join(m) for m in model["merges"]]
    return tokens, merges


def write_gz_json(obj: object, out: Path) -> None:
    raw = json.dumps(obj, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    buf = io.BytesIO()
    # filename="" and mtime=0 make the gzip header byte-stable.
    with gzip.GzipFile(filename="", mode="wb", fileobj=buf, compresslevel=9, mtime=0) as gz:
        gz.write(raw)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_bytes(buf.getvalue())


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--star", type=Path, default=DEFAULT_STAR, help="STAR corpus directory")
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT)
    ap.add_argument(
        "--vocab-size", type=int, default=DEFAULT_VOCAB_SIZE, help="total vocabulary size including special tokens"
    )
    args = ap.parse_args(argv)

    t0 = time.perf_counter()
    texts = list(star_texts(args.star))
    n_star = len(texts)
    texts.extend(stdlib_texts())
    n_chars = sum(map(len, texts))
    print(
        f"corpus: {n_star} STAR strings + {len(texts) - n_star} stdlib strings, {n_chars / 1e6:.1f} M characters",
        file=sys.stderr,
    )

    tokens, merges = train(texts, args.vocab_size)
    n_trained = len(tokens)
    if n_trained + len(SPECIAL_TOKENS) < args.vocab_size:
        raise SystemExit(f"corpus too small: only {n_trained} tokens trained")
    tokens = tokens + SPECIAL_TOKENS
    data = {
        "format": FORMAT_VERSION,
        "tokenizer_model": "gpt2",
        "pre_tokenizer": "gpt-2",
        "source": "byte-level BPE trained by models/train_vocab.py on the STAR dialogue "
        "corpus (MIT, Rasa Technologies) and Python standard library documentation",
        "n_trained": n_trained,
        "special_tokens": SPECIAL_TOKENS,
        "tokens": tokens,
        "merges": merges,
    }
    write_gz_json(data, args.out)
    print(
        f"wrote {args.out}: {len(tokens)} tokens, {len(merges)} merges, "
        f"{os.path.getsize(args.out) / 1e6:.2f} MB in {time.perf_counter() - t0:.1f} s",
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
