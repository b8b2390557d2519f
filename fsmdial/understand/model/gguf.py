"""``GGUFUnderstander``: one grammar-constrained call per turn to a local GGUF model.

    from fsmdial.understand.model.gguf import GGUFUnderstander
    understander = GGUFUnderstander("models/qwen2.5-1.5b-instruct-q4_k_m.gguf")
    Dialogue(flow, understander=understander, tools=...)

Per turn:

1. **fast path** (``fast_path=True``): :meth:`RulesUnderstander.settle`
   answers when the text leaves no doubt (a plain yes/no to a pending
   confirmation, an exact categorical value, a bare number for the slot just
   asked, an intent's example); then no model is called (``path="fast"``);
2. **what the rules read stands** (``rules_first=True``, :meth:`certain`):
   everything the rules understander reads from the message (its intent, its
   answer and choice, the values of every slot it fills, the text it takes as
   the answer to an asked text slot, the values it rules out) stands; the
   model is not asked for any of it and cannot contradict it (a value the
   question itself names at a confirmation is a restatement, left out);
3. otherwise **one model call** (``path="model"``) that may only *add*: the
   slots the rules left empty, an intent, answer or choice where they read
   none, under the turn's *grounded* grammar (:func:`~fsmdial.understand.constraint.schema.turn_schema`,
   :mod:`~fsmdial.understand.constraint.grounding`): text, date, time and number values can only be spans
   of the user's current message, which fsmdial's own parsers turn into typed
   values ("tomorrow" with the clock, "7pm" -> 19:00); categorical values only
   those the message has words for, a boolean only when the message names it;
   intents only those sharing a word with their examples; with a confirmation
   pending, ``yes`` only without a new value (``change`` carries it; the
   runtime still re-asks a committing confirmation on anything but a plain
   yes). When nothing is left to decide, or the grammar allows one output
   only, no model is called (``path="rules"``). The output's fixed start
   (``{"intent"``, up to its last whole key:
   :func:`~fsmdial.understand.constraint.grammar_start.split_start`) is written at the end of the
   prompt and evaluated with it, and the rest decoded (the tokens the
   grammar forces ride in one batch with the token chosen before them). A
   model server gets the same prompt and the grammar of the same rest.

So the model path never reads less than the rules alone: it differs from
them only where the rules read nothing, and there only by grounded values.

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

import datetime as dt
import os
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ...errors import FsmdialError, ModelError, UnderstandingError
from ..base import Parse, UnderstandingState
from ..constraint.grammar_start import only_output, split_start
from ..constraint.schema import TurnSchema, standing, turn_schema
from ..decoding.backends import DEFAULT_BACKEND, decoder_for
from ..decoding.backends import backend as backend_named
from ..decoding.kv_cache import DiskCache
from ..decoding.kv_cache import default_folder as default_kv_folder
from ..decoding.llama_model import LlamaModel, physical_cores
from ..rules import RulesUnderstander
from .prompt import ChatFormat, PromptBuilder

DEFAULT_N_CTX = 4096
OUTPUT_SHARE = 4
"""At most 1/OUTPUT_SHARE of the context is held back for the output (the grammar's bound, if smaller)."""


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


class GGUFUnderstander:
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
    ):
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
        self.prompts = PromptBuilder(
            chat,
            lambda text, special: model.tokenize(text, special=special),
            bos=model.bos if model.add_bos and model.bos >= 0 else None,
        )
        self.decoder = decoder_for(name, model)
        self.backend = name
        folder: Path | None
        if kv_cache is None or kv_cache is True:
            folder = default_kv_folder()
        else:
            folder = Path(kv_cache) if kv_cache is not False else None
        self.kv_cache = DiskCache(folder) if folder is not None else None
        """Prefix states on disk (None: kept in memory only)."""
        self.rules = RulesUnderstander() if fast_path else None
        self.grounding = RulesUnderstander() if rules_first else None
        """The rules reading merged under every model call (``rules_first``): what they read for sure stands."""

    def understand(
        self,
        state: UnderstandingState,
        text: str,
        *,
        history: Sequence[tuple[str, str]] = (),
        now: dt.datetime | None = None,
    ) -> Parse:
        now = now or dt.datetime.now()
        if self.rules is not None and not text.strip():
            return Parse(path="fast")  # nothing was said: no model can find more
        if self.rules is not None:
            settled = self.rules.settle(state, text, now=now)
            if settled is not None:
                settled.path, settled.model_calls = "fast", 0
                return settled
        certain = self.certain(state, text, history, now)
        try:
            schema = turn_schema(state, text, now, settled=certain if self.grounding is not None else None)
        except FsmdialError as exc:
            raise UnderstandingError(f"no grammar for this turn: {exc}") from exc
        if schema.empty:  # the rules said everything there is to decide: no model call
            certain.path, certain.model_calls = "rules", 0
            return certain
        forced = only_output(schema.grammar)
        if forced is not None:  # the grammar allows one output only: it is the parse, no model call
            found = merge(certain, schema.parse(forced))
            found.path, found.model_calls = "rules", 0
            return found
        try:
            found = self._model_parse(state, schema, text, history)
        except UnderstandingError:
            raise
        except FsmdialError as exc:
            raise UnderstandingError(f"{self.backend}: {exc}") from exc
        except Exception as exc:  # anything failing inside constrained decoding fails the turn, loudly
            raise UnderstandingError(
                f"{self.backend}: constrained decoding failed: {type(exc).__name__}: {exc}"
            ) from exc
        return merge(certain, found)

    def certain(
        self, state: UnderstandingState, text: str, history: Sequence[tuple[str, str]], now: dt.datetime
    ) -> Parse:
        """What stands before the model is asked (:func:`standing`); nothing with ``rules_first=False``."""
        if self.grounding is None:
            return Parse(path="rules")
        return standing(self.grounding, state, text, history, now)

    def prompt_text(self, state: UnderstandingState, text: str, history: Sequence[tuple[str, str]] = ()) -> str:
        """The prompt the model would read for ``text`` at ``state`` (what ``fsmdial prompt`` shows)."""
        return self.prompts.text(state, history, text)

    def _model_parse(
        self, state: UnderstandingState, schema: TurnSchema, text: str, history: Sequence[tuple[str, str]]
    ) -> Parse:
        """The model's reading of ``text`` under ``schema`` (one model call; subclasses call elsewhere)."""
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


def merge(rules: Parse, model: Parse) -> Parse:
    """The rules' reading with the model's additions: what the rules read stands, the model only fills what
    they left empty (its schema offered nothing else; checked again here)."""
    # A value the rules gave one slot is not another slot's value too ("0093" is the card, not the new PIN).
    taken = list(rules.slots.values())
    slots = {name: value for name, value in model.slots.items() if name not in rules.slots and value not in taken}
    slots.update(rules.slots)
    info = {**rules.info, **model.info}  # the rules' notes stand ("14, not 12": the swap the runtime applies)
    if rules.slots or rules.intent is not None or rules.answer is not None:
        info["rules"] = {"intent": rules.intent, "slots": sorted(rules.slots), "answer": rules.answer}
    return Parse(
        intent=rules.intent if rules.intent is not None else model.intent,
        slots=slots,
        answer=rules.answer if rules.answer is not None else model.answer,
        choice=rules.choice if rules.choice is not None else model.choice,
        negated=dict(rules.negated),
        path="model",
        model_calls=model.model_calls,
        info=info,
    )
