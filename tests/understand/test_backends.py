"""The constrained-decoding backends: one registry of names, and the abstract bases every backend fills in.

The shared greedy loop (:meth:`ConstrainedDecoder.generate`) is driven here by a scripted model and
constraint, so its bookkeeping (forced tokens, forward passes, where the JSON ends) is tested with
no llama.cpp at all; the real backends are exercised on the tiny model in test_gguf_understander.py.
"""

from __future__ import annotations

import argparse

import pytest

np = pytest.importorskip("numpy")

from fsmdial import cli  # noqa: E402
from fsmdial.errors import ModelError, UnderstandingError  # noqa: E402
from fsmdial.testing import pytest_plugin  # noqa: E402
from fsmdial.understand.constraint.grammar import Grammar, Lit  # noqa: E402
from fsmdial.understand.decoding import backends  # noqa: E402
from fsmdial.understand.decoding.decoder import ConstrainedDecoder, Constraint, JsonEnd  # noqa: E402

# ------------------------------------------------------------------ registry


def test_one_list_of_backend_names_the_default_first():
    assert backends.BACKENDS == ("llguidance", "llamacpp", "outlines")
    assert backends.BACKENDS[0] == backends.DEFAULT_BACKEND
    assert pytest_plugin.BACKENDS is backends.BACKENDS


def test_the_cli_offers_the_registered_backends():
    parser = cli.build_parser()
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    backend = next(a for a in commands.choices["chat"]._actions if a.dest == "backend")
    assert tuple(backend.choices) == backends.BACKENDS


def test_an_unknown_backend_is_a_model_error_listing_the_names():
    with pytest.raises(ModelError, match=r"unknown backend 'vllm' \(choose one of: llguidance, llamacpp, outlines\)"):
        backends.backend("vllm")


@pytest.mark.parametrize("name", backends.BACKENDS)
def test_each_backend_is_a_constrained_decoder_of_its_name(name):
    pytest.importorskip("llama_cpp")
    cls = backends.backend(name).decoder_class()
    assert issubclass(cls, ConstrainedDecoder) and cls.name == name
    assert backends.backend(name).extra in ("gguf", "outlines")


def test_the_gguf_understander_takes_its_backend_names_from_the_registry():
    gguf = pytest.importorskip("fsmdial.understand.model.gguf")
    # The name is checked against the registry before any model file is opened.
    with pytest.raises(ModelError, match=r"unknown backend 'nope' \(choose one of: " + ", ".join(backends.BACKENDS)):
        gguf.GGUFUnderstander("/no/such/model.gguf", backend="nope")


# ------------------------------------------------------------ abstract bases


def test_a_constraint_must_say_how_it_starts_and_chooses():
    class Half(Constraint):
        def start(self) -> None:
            pass

    with pytest.raises(TypeError, match="choose"):
        Half()  # type: ignore[abstract]


def test_a_decoder_must_say_how_it_compiles():
    class NoCompile(ConstrainedDecoder):
        name = "none"

    with pytest.raises(TypeError, match="compile"):
        NoCompile(object())  # type: ignore[abstract,arg-type]


# -------------------------------------------------------- the greedy loop


class ScriptedModel:
    """A model whose vocabulary is single bytes (token = byte value) plus an end token."""

    END = 256

    def __init__(self) -> None:
        self.steps: list[list[int]] = []

    def feed(self, tokens: list[int]) -> int:
        return len(tokens)

    def logits(self) -> np.ndarray:
        return np.zeros(257, dtype=np.float32)

    def is_end(self, token: int) -> bool:
        return token == self.END

    def piece(self, token: int) -> bytes:
        return bytes([token])

    def step(self, tokens: list[int]) -> None:
        self.steps.append(list(tokens))


class Scripted(Constraint):
    """Chooses the next byte of ``text``; with ``forced``, hands the rest of a run of forced bytes over at once."""

    def __init__(self, text: bytes, forced: set[int] = frozenset()) -> None:  # type: ignore[assignment]
        self.text, self.forced_at = text, forced
        self.at = 0

    def start(self) -> None:
        self.at = 0
        self.masked_steps = 0

    def choose(self, logits: np.ndarray) -> int:
        token = self.text[self.at]
        self.at += 1
        return token

    def forced(self) -> list[int]:
        out = []
        while self.at in self.forced_at:
            out.append(self.text[self.at])
            self.at += 1
        return out


class ScriptedDecoder(ConstrainedDecoder):
    name = "scripted"

    def __init__(self, model: ScriptedModel, constraint: Constraint) -> None:
        super().__init__(model)  # type: ignore[arg-type]
        self.scripted = constraint

    def compile(self, grammar: Grammar) -> Constraint:
        return self.scripted


class ChooseOnly(Constraint):
    """A constraint that leaves ``forced`` to its default."""

    def __init__(self, text: bytes) -> None:
        self.text, self.at = text, 0

    def start(self) -> None:
        self.at = 0

    def choose(self, logits: np.ndarray) -> int:
        self.at += 1
        return self.text[self.at - 1]


GRAMMAR = Grammar(Lit('{"a":[1]}'))


def test_the_default_forced_finds_none_and_every_token_is_a_pass():
    model = ScriptedModel()
    out = ScriptedDecoder(model, ChooseOnly(b'{"a":[1]}')).generate([1, 2, 3], GRAMMAR)
    assert (out.text, out.prompt_tokens, out.forced_tokens) == ('{"a":[1]}', 3, 0)
    assert out.forward_passes == len(out.tokens) - 1 == len(model.steps)
    assert all(len(batch) == 1 for batch in model.steps)


def test_forced_tokens_ride_along_with_the_chosen_one():
    model = ScriptedModel()
    text = b'{"a":[1]}'
    out = ScriptedDecoder(model, Scripted(text, forced={1, 2, 3, 4})).generate([7], GRAMMAR)
    assert out.text == text.decode() and out.tokens == list(text)
    assert out.forced_tokens == 4
    assert model.steps[0] == list(b'{"a":')  # one pass for the chosen "{" and the four forced after it
    assert out.forward_passes == len(text) - 4 - 1


def test_an_end_token_before_the_json_closes_fails_the_turn():
    decoder = ScriptedDecoder(ScriptedModel(), ChooseOnly(b'{"a"' + bytes([0])))
    decoder.model.is_end = lambda token: token == 0  # type: ignore[method-assign]
    with pytest.raises(UnderstandingError, match="scripted: the model ended its output before the JSON was complete"):
        decoder.generate([1], GRAMMAR)


def test_output_after_the_closing_brace_fails_the_turn():
    text = b'{"a":1}x'
    decoder = ScriptedDecoder(ScriptedModel(), Scripted(text, forced={7}))
    with pytest.raises(UnderstandingError, match="output continues after the JSON object"):
        decoder.generate([1], GRAMMAR)


def test_output_past_the_grammars_bound_fails_the_turn():
    decoder = ScriptedDecoder(ScriptedModel(), ChooseOnly(b'{"a":"' + b"x" * 40))
    with pytest.raises(UnderstandingError, match="exceeded the grammar's bound of 9 bytes"):
        decoder.generate([1], GRAMMAR)


def test_a_grammar_is_compiled_once_per_decoder():
    compiled: list[Grammar] = []

    class Counting(ScriptedDecoder):
        def compile(self, grammar: Grammar) -> Constraint:
            compiled.append(grammar)
            return ChooseOnly(b'{"a":[1]}')

    decoder = Counting(ScriptedModel(), ChooseOnly(b""))
    assert decoder.generate([1], GRAMMAR).text == decoder.generate([1], GRAMMAR).text == '{"a":[1]}'
    assert len(compiled) == 1


@pytest.mark.parametrize(
    ("pieces", "closes_at"),
    [
        ([b'{"a":1}'], (0, 7)),
        ([b'{"a":"}', b'"}'], (1, 2)),
        ([b'{"a":"\\"}"', b"}"], (1, 1)),
        ([b"{", b"[{}]", b"}"], (2, 1)),
    ],
)
def test_json_end_finds_the_closing_brace_outside_strings(pieces, closes_at):
    closer = JsonEnd()
    found = [(i, closer.feed(p)) for i, p in enumerate(pieces)]
    assert [(i, n) for i, n in found if n is not None] == [closes_at]
