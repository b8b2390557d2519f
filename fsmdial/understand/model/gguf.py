"""``GGUFUnderstander``: one grammar-constrained call per turn to a local GGUF model.

    from fsmdial.understand.model.gguf import GGUFUnderstander
    understander = GGUFUnderstander("models/qwen2.5-1.5b-instruct-q4_k_m.gguf")
    Dialogue(flow, understander=understander, tools=...)

The turn is :class:`~.understander.ModelUnderstander`'s (the fast path, the
rules' certain reading, the turn's grounded schema and grammar, the merge);
its one model call (:meth:`GGUFUnderstander.model_parse`) decodes here, on a
llama.cpp model in this process: the output's fixed start
(:func:`~fsmdial.understand.constraint.grammar_start.split_start`) is
evaluated with the prompt and the rest decoded (the tokens the grammar forces
ride in one batch with the token chosen before them). A model server gets the
same prompt and the grammar of the same rest (:mod:`.server`).

``Parse.info`` (copied by the runtime into the trace as ``understanding``)
holds the backend, ``prompt_tokens`` (the whole prompt), ``evaluated_tokens``
(prompt tokens actually evaluated: the rest came from the KV cache),
``output_tokens`` and, when the conversation had to be shortened to fit the
context, ``dropped_lines``. No timings: the trace stays byte-identical.

Determinism: decoding is greedy (arg-max; no sampling), the seed and the
thread count are fixed, so the same conversation gives the same parses, run
after run and in a fresh process. Several sessions may share one
understander: each prompt is a pure function of the flow, the state and the
session's history, so a session switch only costs re-evaluating that
session's conversation lines. The flow's static prefix is evaluated once per
model and flow: llama.cpp's state after it is kept in memory and on disk
(:mod:`~fsmdial.understand.decoding.kv_cache`, ``kv_cache=``) and restored for a new session, a flow an
``Assistant`` comes back to and a new process (a restored prefix counts as
cached in ``evaluated_tokens``). Calls are serialised by a lock.

Errors: a missing, unreadable, truncated or non-GGUF file, a model without
a chat template (unless ``chat_template=`` is given) and an unknown backend
raise :class:`ModelError` when the understander is made. During a turn,
everything raises :class:`UnderstandingError` and the runtime rolls the turn
back: a prompt whose static prefix and new message alone exceed the context,
an output running past the context (the grammar's length bound, or a quarter
of the context if smaller, is held back for it), and any failure inside
constrained decoding. A conversation too long for the context is not an
error: its oldest lines are left out (``dropped_lines``).

Backends (``backend=``): ``llguidance`` (default: the fastest measured),
``llamacpp`` (llama.cpp's GBNF sampler) and ``outlines`` (an outlines-core
index; slow to build for long strings). All decode the same bounded grammar.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ...errors import ModelError
from ..base import Parse, UnderstandingState
from ..constraint.grammar_start import split_start
from ..constraint.schema import TurnSchema
from ..decoding.backends import DEFAULT_BACKEND, decoder_for
from ..decoding.backends import backend as backend_named
from ..decoding.kv_cache import DiskCache
from ..decoding.kv_cache import default_folder as default_kv_folder
from ..decoding.llama_model import LlamaModel, physical_cores
from .prompt import ChatFormat, PromptBuilder
from .understander import OUTPUT_SHARE, ModelUnderstander

CHOOSERS = ("json", "score")
"""How the model decides: ``json`` writes the turn's JSON under its grammar; ``score`` scores each grounded
option as a sentence and picks (:mod:`.scoring`)."""

DEFAULT_N_CTX = 4096


_MODELS: dict[tuple[Any, ...], LlamaModel] = {}
_MODELS_LOCK = threading.Lock()


def load_model(path: str | os.PathLike[str], *, n_ctx: int, n_threads: int | None, seed: int) -> LlamaModel:
    """The loaded model for these settings (loaded once per process and file version)."""
    n_threads = n_threads or physical_cores()
    resolved = Path(path).expanduser().resolve()
    try:
        stat = resolved.stat()
        key: tuple[Any, ...] = (str(resolved), stat.st_size, stat.st_mtime_ns, n_ctx, n_threads, seed)
    except OSError:
        key = (str(resolved), n_ctx, n_threads, seed)
    with _MODELS_LOCK:
        model = _MODELS.get(key)
        if model is None:
            model = _MODELS[key] = LlamaModel(resolved, n_ctx=n_ctx, n_threads=n_threads, seed=seed)
        return model


class GGUFUnderstander(ModelUnderstander):
    """Understands users with a local GGUF model (see the module docstring).

    ``chat_template`` overrides the template in the GGUF metadata; a model
    with none raises :class:`ModelError` unless one is given here.
    ``n_threads`` defaults to the physical cores
    (:func:`~fsmdial.understand.decoding.llama_model.physical_cores`). ``kv_cache`` is the folder of the
    prefix states saved on disk (:mod:`~fsmdial.understand.decoding.kv_cache`): None for
    ``$FSMDIAL_KV_CACHE`` or the default folder, False for none.
    """

    def __init__(
        self,
        model_path: str | os.PathLike[str],
        backend: str | None = None,
        *,
        n_threads: int | None = None,
        seed: int = 0,
        n_ctx: int = DEFAULT_N_CTX,
        fast_path: bool = True,
        rules_first: bool = True,
        chat_template: str | None = None,
        kv_cache: str | os.PathLike[str] | bool | None = None,
        choose: str = "json",
        margin: float | None = None,
    ):
        if choose not in CHOOSERS:
            raise ModelError(f"unknown way to choose {choose!r} (one of: {', '.join(CHOOSERS)})")
        name = backend_named(backend or DEFAULT_BACKEND).name  # ModelError for an unknown name
        self.model = load_model(model_path, n_ctx=n_ctx, n_threads=n_threads, seed=seed)
        template = chat_template or self.model.chat_template
        if not template:
            raise ModelError(
                f"{self.model.path} has no chat template (tokenizer.chat_template): use an instruct model, "
                "or pass chat_template= explicitly"
            )
        model = self.model
        chat = ChatFormat(
            template, bos_token=model.token_text(model.bos), eos_token=model.token_text(model.llm.token_eos())
        )
        bos = model.bos if model.add_bos and model.bos >= 0 else None
        self.choose = choose
        self.chooses_without_words = choose == "score"  # calibrated, it abstains; JSON writes the first value
        if choose == "score":
            from .scoring import DEFAULT_MARGIN, note_text, system_text

            self.prompts = PromptBuilder(
                chat,
                lambda text, special: model.tokenize(text, special=special),
                bos=bos,
                system=system_text,
                note=note_text,
            )
            self.margin = DEFAULT_MARGIN if margin is None else margin
        else:
            self.prompts = PromptBuilder(chat, lambda text, special: model.tokenize(text, special=special), bos=bos)
        self.decoder = decoder_for(name, model)
        self.backend = name if choose == "json" else "score"
        folder: Path | None
        if kv_cache is None or kv_cache is True:
            folder = default_kv_folder()
        else:
            folder = Path(kv_cache) if kv_cache is not False else None
        self.kv_cache = DiskCache(folder) if folder is not None else None
        """Prefix states on disk (None: kept in memory only)."""
        super().__init__(fast_path=fast_path, rules_first=rules_first)

    def model_parse(
        self, state: UnderstandingState, schema: TurnSchema, text: str, history: Sequence[tuple[str, str]]
    ) -> Parse:
        """The model's reading of ``text`` under ``schema``: one call to the model in this process."""
        if self.choose == "score":
            from .scoring import score_parse

            return score_parse(
                self.model, self.prompts, state, schema, text, history, margin=self.margin, kv_cache=self.kv_cache
            )
        with self.model.lock:  # understanders of other backends may share the model
            reserve = min(schema.grammar.max_bytes + 1, self.model.n_ctx // OUTPUT_SHARE)
            prompt = self.prompts.build(state, history, text, budget=self.model.n_ctx - reserve)
            start, rest = split_start(schema.grammar)
            # The flow's static prefix: in the KV cache already, restored (memory, disk) or evaluated once and saved.
            prefix = self.model.hold_prefix(prompt.tokens[: prompt.static_tokens], self.kv_cache)
            tokens = [*prompt.tokens, *self.prompts.tokens(start)]
            generation = self.decoder.generate(tokens, rest, written=start)
        parse = schema.parse(generation.text)
        parse.path, parse.model_calls = "model", 1
        parse.info = {
            "backend": self.backend,
            "prompt_tokens": len(tokens),
            "evaluated_tokens": prefix + generation.prompt_tokens,
            "output_tokens": len(generation.tokens),
            "forced_tokens": generation.forced_tokens,
            "forward_passes": generation.forward_passes,
            "output": generation.text,
        }
        if prompt.dropped:
            parse.info["dropped_lines"] = prompt.dropped
        return parse
