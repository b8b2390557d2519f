"""A GGUF model loaded once through llama-cpp-python, which every backend decodes on.

:class:`LlamaModel` owns the ``llama_cpp.Llama`` object: it checks the file,
tokenizes, and keeps the KV cache between calls so that only the tokens after
the longest common prefix of consecutive prompts are evaluated (and counted).
A prompt's static prefix is evaluated once: :meth:`LlamaModel.hold_prefix` keeps
llama.cpp's state after it (in memory, and on disk through :mod:`.kv_cache`) and
restores it whenever a prompt starting with it comes back after another one.
Every backend decodes on it, with the greedy loop of
:class:`~.decoder.ConstrainedDecoder`; llama.cpp's own grammar sampler is one of
them (:mod:`.llamacpp_backend`).
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import threading
from collections import OrderedDict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ...errors import MissingExtraError, ModelError, UnderstandingError
from .kv_cache import DiskCache

try:
    import llama_cpp
    import numpy as np
except ImportError as exc:  # pragma: no cover - exercised with the module hidden (tests/test_packaging.py)
    raise MissingExtraError("gguf", "the gguf understander", exc) from exc

GGUF_MAGIC = b"GGUF"
PREFIX_MEMORY_BYTES = 512 << 20
"""Prefix states kept in memory per model, least recently used dropped first (a 500-token prefix: 6-12 MB)."""


class LlamaModel:
    """One GGUF model in memory, with a KV cache kept across calls.

    ``evaluated`` counts every token llama.cpp has evaluated (prompt and output).
    """

    def __init__(
        self,
        path: str | os.PathLike[str],
        *,
        n_ctx: int = 4096,
        n_threads: int | None = None,
        seed: int = 0,
        n_batch: int = 512,
    ):
        self.path = Path(path)
        n_threads = n_threads or physical_cores()
        self.n_threads = n_threads
        """llama.cpp's threads (default: :func:`physical_cores`)."""
        _check_file(self.path)
        try:
            with plain_cpu_buffers():
                self.llm = llama_cpp.Llama(
                    model_path=str(self.path),
                    n_ctx=n_ctx,
                    n_batch=n_batch,
                    n_threads=n_threads,
                    n_threads_batch=n_threads,
                    seed=seed,
                    logits_all=False,
                    verbose=False,
                )
        except (ValueError, RuntimeError, OSError) as exc:
            raise ModelError(
                f"{self.path}: llama.cpp could not load this GGUF file (truncated or unsupported?): {exc}"
            ) from None
        self.n_ctx = self.llm.n_ctx()
        self.n_vocab = self.llm.n_vocab()
        self.vocab = llama_cpp.llama_model_get_vocab(self.llm.model)
        self._pieces: dict[int, bytes] = {}
        self._logits = np.empty(self.n_vocab, dtype=np.float32)
        self.evaluated = 0
        self.lock = threading.RLock()
        """Held for a whole call: one context, one conversation at a time."""
        self._states: OrderedDict[tuple[int, ...], bytes] = OrderedDict()
        self.prefix_counts = {"held": 0, "memory": 0, "disk": 0, "evaluated": 0}
        """How :meth:`hold_prefix` found each prefix: already in the KV cache, restored (memory, disk), evaluated."""

    # ------------------------------------------------------------ metadata
    @property
    def chat_template(self) -> str | None:
        return self.llm.metadata.get("tokenizer.chat_template") or None

    @property
    def add_bos(self) -> bool:
        return bool(llama_cpp.llama_vocab_get_add_bos(self.vocab))

    @property
    def bos(self) -> int:
        return self.llm.token_bos()

    def token_text(self, token: int) -> str:
        """A token's text with special tokens written out (for the chat template's bos/eos)."""
        if token < 0:
            return ""
        return self.llm.detokenize([token], special=True).decode("utf-8", "replace")

    def is_end(self, token: int) -> bool:
        return bool(llama_cpp.llama_vocab_is_eog(self.vocab, token))

    def piece(self, token: int) -> bytes:
        """The bytes a token adds to the output (nothing for control tokens)."""
        cached = self._pieces.get(token)
        if cached is None:
            buffer = ctypes.create_string_buffer(64)
            n = llama_cpp.llama_token_to_piece(self.vocab, token, buffer, 64, 0, False)
            if n > 64:
                buffer = ctypes.create_string_buffer(n)
                n = llama_cpp.llama_token_to_piece(self.vocab, token, buffer, n, 0, False)
            cached = self._pieces[token] = buffer.raw[: max(n, 0)]
        return cached

    # -------------------------------------------------------------- tokens
    def tokenize(self, text: str, *, special: bool) -> list[int]:
        """Tokens of ``text`` (no BOS). ``special=False`` keeps user text from forming control tokens."""
        return self.llm.tokenize(text.encode("utf-8"), add_bos=False, special=special)

    def feed(self, tokens: list[int]) -> int:
        """Make the context hold exactly ``tokens``; return how many had to be evaluated.

        The longest prefix already in the KV cache is kept; at least the last
        token is evaluated again so that its logits are fresh.
        """
        if not tokens:
            raise UnderstandingError("empty prompt")
        if len(tokens) >= self.n_ctx:
            raise UnderstandingError(f"prompt of {len(tokens)} tokens does not fit the context of {self.n_ctx} tokens")
        llm = self.llm
        cached = llm.input_ids[: min(llm.n_tokens, len(tokens))]
        differ = np.flatnonzero(cached != np.asarray(tokens[: len(cached)], dtype=cached.dtype))
        keep = int(differ[0]) if len(differ) else len(cached)
        keep = min(keep, len(tokens) - 1)
        llm.n_tokens = keep  # eval() drops the cache beyond this point first
        self._eval(tokens[keep:])
        return len(tokens) - keep

    def step(self, tokens: list[int]) -> None:
        """Evaluate output tokens (one sampled token, and any the grammar forces after it)."""
        if self.llm.n_tokens + len(tokens) >= self.n_ctx:
            raise UnderstandingError(f"the model's output ran past the context of {self.n_ctx} tokens")
        self._eval(tokens)

    def _eval(self, tokens: list[int]) -> None:
        try:
            self.llm.eval(tokens)
        except Exception as exc:  # llama_decode failed (context full, out of memory)
            self.llm.n_tokens = 0  # the cache is in an unknown state: start afresh next time
            raise UnderstandingError(f"llama.cpp failed to evaluate {len(tokens)} tokens: {exc}") from exc
        self.evaluated += len(tokens)

    def logits(self) -> np.ndarray:
        """A copy of the logits of the last evaluated position."""
        pointer = llama_cpp.llama_get_logits_ith(self.llm.ctx, -1)
        if not pointer:
            raise UnderstandingError("llama.cpp returned no logits")
        np.copyto(self._logits, np.ctypeslib.as_array(pointer, shape=(self.n_vocab,)))
        return self._logits

    def forget(self) -> None:
        """Drop the KV cache and the prefix states kept in memory (not those on disk); zero :attr:`prefix_counts`."""
        self.llm.n_tokens = 0
        self._states.clear()
        self.prefix_counts = dict.fromkeys(self.prefix_counts, 0)

    # ------------------------------------------------------- prefix states
    def hold_prefix(self, tokens: list[int], disk: DiskCache | None = None) -> int:
        """Make the KV cache start with ``tokens``; return how many had to be evaluated (0 when restored).

        Already there: nothing to do. Else the state saved after these tokens
        is restored, from memory or from ``disk``; else they are evaluated
        (keeping what the KV cache shares with them) and the state after them
        saved in both. Evaluated or restored, the cache holds the same state.
        """
        if not tokens:
            return 0
        llm = self.llm
        n = len(tokens)
        if llm.n_tokens >= n and np.array_equal(llm.input_ids[:n], np.asarray(tokens, dtype=llm.input_ids.dtype)):
            self.prefix_counts["held"] += 1
            return 0
        key = tuple(tokens)
        state = self._states.get(key)
        if state is not None and self._restore(tokens, state):
            self._states.move_to_end(key)
            self.prefix_counts["memory"] += 1
            return 0
        expected = self._disk_header(disk, tokens) if disk is not None else None
        if disk is not None and expected is not None:
            state = disk.load(expected)
            if state is not None and self._restore(tokens, state):
                self._remember(key, state)
                self.prefix_counts["disk"] += 1
                return 0
            if state is not None:
                disk.rejected.append("a state llama.cpp could not load: rebuilt")
        evaluated = self.feed(tokens)
        state = self._save()
        self._remember(key, state)
        if disk is not None and expected is not None:
            disk.save(expected, state, model=self.path.name)
        self.prefix_counts["evaluated"] += 1
        return evaluated

    def _disk_header(self, disk: DiskCache, tokens: list[int]) -> dict[str, Any] | None:
        try:
            digest = disk.model_sha256(self.path)
        except OSError:
            return None
        return disk.header(digest, {"llama_cpp": llama_cpp.__version__, "n_ctx": self.n_ctx}, tokens)

    def _remember(self, key: tuple[int, ...], state: bytes) -> None:
        self._states[key] = state
        self._states.move_to_end(key)
        while len(self._states) > 1 and sum(len(s) for s in self._states.values()) > PREFIX_MEMORY_BYTES:
            self._states.popitem(last=False)

    def _save(self) -> bytes:
        return sequence_state(self.llm)

    def _restore(self, tokens: list[int], state: bytes) -> bool:
        return restore_sequence_state(self.llm, tokens, state)


def sequence_state(llm: llama_cpp.Llama) -> bytes:
    """llama.cpp's state of sequence 0 (its KV cells; no logits)."""
    size = llama_cpp.llama_state_seq_get_size(llm.ctx, 0)
    buffer = (ctypes.c_uint8 * size)()
    written = llama_cpp.llama_state_seq_get_data(llm.ctx, buffer, size, 0)
    return ctypes.string_at(buffer, written)


def restore_sequence_state(llm: llama_cpp.Llama, tokens: list[int], state: bytes) -> bool:
    """Put a state of :func:`sequence_state` back as the KV cache holding ``tokens``; False if llama.cpp refuses it."""
    llama_cpp.llama_memory_clear(llama_cpp.llama_get_memory(llm.ctx), True)
    llm.n_tokens = 0
    buffer = (ctypes.c_uint8 * len(state)).from_buffer_copy(state)
    if llama_cpp.llama_state_seq_set_data(llm.ctx, buffer, len(state), 0) != len(state):
        llama_cpp.llama_memory_clear(llama_cpp.llama_get_memory(llm.ctx), True)
        return False
    llm.input_ids[: len(tokens)] = tokens
    llm.n_tokens = len(tokens)
    return True


def physical_cores() -> int:
    """CPU cores this process may run on, counting each physical core once (hyper-threads share one).

    llama.cpp's matrix products gain nothing from a core's second hardware
    thread, so this is the default thread count (BENCHMARKS.md has the figures).
    """
    try:
        allowed = sorted(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)
    cores = set()
    for cpu in allowed:
        topology = Path(f"/sys/devices/system/cpu/cpu{cpu}/topology")
        try:
            package = (topology / "physical_package_id").read_text().strip()
            core = (topology / "core_id").read_text().strip()
        except OSError:
            return max(1, len(allowed))
        cores.add((package, core))
    return max(1, len(cores))


_PARAMS_LOCK = threading.Lock()


@contextlib.contextmanager
def plain_cpu_buffers() -> Iterator[None]:
    """Load weights without llama.cpp's "extra" CPU buffer types (AMX, repacking).

    On CPUs that report AMX, llama.cpp moves Q4_0/Q4_1/Q8_0 weights into AMX
    buffers, and here every batch of more than one token then crashed the
    process (SIGSEGV in llama_decode with SmolLM2 Q4_1 and Qwen2.5 Q4). The
    plain CPU path is correct everywhere. llama-cpp-python does not expose
    the ``use_extra_bufts`` model parameter, so its default is changed while
    the model loads.
    """
    with _PARAMS_LOCK:
        default = llama_cpp.llama_cpp.llama_model_default_params

        def params() -> llama_cpp.llama_model_params:
            found = default()
            found.use_extra_bufts = False
            return found

        llama_cpp.llama_cpp.llama_model_default_params = params
        try:
            yield
        finally:
            llama_cpp.llama_cpp.llama_model_default_params = default


def _check_file(path: Path) -> None:
    if not path.exists():
        raise ModelError(f"model file not found: {path}")
    if not path.is_file():
        raise ModelError(f"model path is not a file: {path}")
    try:
        with path.open("rb") as handle:
            magic = handle.read(4)
    except OSError as exc:
        raise ModelError(f"model file is not readable: {path}: {exc}") from None
    if magic != GGUF_MAGIC:
        raise ModelError(f"{path} is not a GGUF file (it starts with {magic!r}, not {GGUF_MAGIC!r})")
