"""Greedy constrained decoding, shared by every backend.

A backend is two small classes: a :class:`Constraint` (a compiled grammar in
use, which picks the best token it allows at each step) and a
:class:`ConstrainedDecoder` subclass that compiles a grammar into one.
:meth:`ConstrainedDecoder.generate` is the loop every backend shares: evaluate
the prompt, then repeatedly take the logits of the last position, let the
constraint pick a token (greedy: the arg-max, so no seed or temperature is
involved), and stop as soon as the JSON object is closed. Everything runs in
Python between model calls: no callback inside llama.cpp's sampler can
swallow an exception, and any failure of a constraint fails the turn with
:class:`~fsmdial.errors.UnderstandingError`.

The backends are listed, by name, in :mod:`.backends`.
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from collections import OrderedDict
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from ...errors import MissingExtraError, UnderstandingError
from ..constraint.grammar import Grammar

try:
    import numpy as np
except ImportError as exc:  # pragma: no cover - exercised with the module hidden (tests/test_packaging.py)
    raise MissingExtraError("gguf", "the gguf understander", exc) from exc

if TYPE_CHECKING:
    from .llama_model import LlamaModel


class Constraint(ABC):
    """A compiled grammar in use: picks, step by step, the best token it allows."""

    masked_steps: int = 0
    """Steps where the greedy token was not allowed and the full vocabulary mask was computed (set by ``start``)."""

    @abstractmethod
    def start(self) -> None:
        """Begin a new output."""

    @abstractmethod
    def choose(self, logits: np.ndarray) -> int:
        """The highest-scoring allowed token (``logits`` may be overwritten); the constraint advances past it."""

    def forced(self) -> list[int]:
        """Tokens the grammar allows no alternative to after the one just chosen, already consumed.

        The decoder evaluates them in one batch with the chosen token instead
        of one step each. The default finds none: every token is chosen.
        """
        return []


@dataclass
class Generation:
    text: str
    tokens: list[int]
    prompt_tokens: int
    """Prompt tokens evaluated for this call (after KV-cache reuse)."""
    masked_steps: int = 0
    """Steps where the greedy token was not allowed and the full vocabulary mask was computed."""
    forced_tokens: int = 0
    """Output tokens the grammar allowed no alternative to, evaluated in a batch with the token before them."""
    forward_passes: int = 0
    """Model evaluations for the output (one per sampled token but the last; forced tokens ride along)."""


class ConstrainedDecoder(ABC):
    """Greedy decoding under a grammar; subclasses say how a grammar constrains tokens (:meth:`compile`)."""

    name: ClassVar[str] = "base"
    """The backend's name in :mod:`.backends` (and in error messages and traces)."""

    cache_size: ClassVar[int] = 64
    """Compiled grammars kept, least recently used dropped first: grounded grammars change every turn."""

    def __init__(self, model: LlamaModel):
        self.model = model
        self._compiled: OrderedDict[str, Constraint] = OrderedDict()

    def constraint(self, grammar: Grammar) -> Constraint:
        """The compiled form of ``grammar`` (kept for the :attr:`cache_size` grammars used last)."""
        key = grammar.gbnf
        compiled = self._compiled.get(key)
        if compiled is None:
            compiled = self._compiled[key] = self.compile(grammar)
            while len(self._compiled) > self.cache_size:
                self._compiled.popitem(last=False)
        else:
            self._compiled.move_to_end(key)
        return compiled

    @abstractmethod
    def compile(self, grammar: Grammar) -> Constraint:
        """A new constraint for ``grammar``."""

    def generate(self, prompt: list[int], grammar: Grammar, *, written: str = "") -> Generation:
        """Decode one JSON object for ``prompt``. The grammar bounds its length, so this always ends.

        ``written``: the start of the object, already at the end of ``prompt`` (see
        :func:`~fsmdial.understand.constraint.grammar_start.split_start`); ``grammar`` is then the grammar
        of the rest, and the text returned is the whole object.
        """
        model = self.model
        constraint = self.constraint(grammar)
        evaluated = model.feed(prompt)
        constraint.start()
        out = bytearray(written.encode("utf-8"))
        tokens: list[int] = []
        closer = JsonEnd()
        if closer.feed(bytes(out)) is not None:
            raise UnderstandingError(f"{self.name}: the output's written start {written!r} is a whole object")
        limit = grammar.max_bytes + len(out)
        forced_count = passes = 0
        while True:
            batch = [constraint.choose(model.logits())]
            batch += constraint.forced()
            forced_count += len(batch) - 1
            for index, token in enumerate(batch):
                if model.is_end(token):
                    raise UnderstandingError(
                        f"{self.name}: the model ended its output before the JSON was complete: {bytes(out[:200])!r}"
                    )
                piece = model.piece(token)
                tokens.append(token)
                out += piece
                done = closer.feed(piece)
                if done is not None:
                    if done != len(piece) or index != len(batch) - 1:
                        raise UnderstandingError(f"{self.name}: output continues after the JSON object: {bytes(out)!r}")
                    text = out.decode("utf-8", "replace")
                    return Generation(text, tokens, evaluated, constraint.masked_steps, forced_count, passes)
            if len(tokens) > limit or len(out) > limit:
                raise UnderstandingError(
                    f"{self.name}: output exceeded the grammar's bound of {limit} bytes: {bytes(out[:200])!r}"
                )
            model.step(batch)
            passes += 1


class JsonEnd:
    """Finds where a JSON object written byte by byte closes."""

    def __init__(self) -> None:
        self.depth = 0
        self.in_string = False
        self.escaped = False

    def feed(self, piece: bytes) -> int | None:
        """Bytes of ``piece`` up to and including the closing brace, or None while still open."""
        for index, byte in enumerate(piece):
            if self.in_string:
                if self.escaped:
                    self.escaped = False
                elif byte == 0x5C:  # backslash
                    self.escaped = True
                elif byte == 0x22:  # quote
                    self.in_string = False
            elif byte == 0x22:
                self.in_string = True
            elif byte in (0x7B, 0x5B):  # { [
                self.depth += 1
            elif byte in (0x7D, 0x5D):  # } ]
                self.depth -= 1
                if self.depth == 0:
                    return index + 1
        return None


def greedy(logits: np.ndarray, where: str) -> int:
    """The arg-max token; an error when the grammar has masked every token."""
    token = int(np.argmax(logits))
    if math.isinf(logits[token]) and logits[token] < 0:
        raise UnderstandingError(f"{where}: the grammar allows no token here (constrained decoding failed)")
    return token
