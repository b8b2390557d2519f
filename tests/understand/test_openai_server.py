"""The model-server understander on an OpenAI-compatible ``/v1/completions``: against a fake server (the request
each flavour sends, the canary, validation, outages) and a real llama-server (its OpenAI-compatible API gives
the native API's parses; the vLLM flavour, whose grammar field llama-server ignores, is refused by the canary).

vLLM and SGLang are not on this machine: their flavours are checked against the documented request shape only.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("jinja2", reason="needs the gguf extra (chat templates)")

from fsmdial.errors import ModelError, ModelServerError, UnderstandingError
from fsmdial.runtime import Dialogue
from fsmdial.serve.loadtest import Process, free_port, llama_server_command
from fsmdial.testing import FrozenClock
from fsmdial.testing.tiny_model import CHATML_TEMPLATE
from fsmdial.understand.factory import add_model_arguments, make_understander, model_of, understander_from_arguments
from fsmdial.understand.model.openai_server import FLAVORS, OpenAIServerUnderstander
from fsmdial.understand.model.server import CANARY_GRAMMAR, LlamaServer, ServerUnderstander
from tests.understand.server_fake import FakeLlamaServer
from tests.understand.test_server import UNSURE, at_the_confirmation, llama_server_binary, sample_parses

REPO = Path(__file__).resolve().parents[2]
BOOKING = REPO / "flows" / "restaurant_booking.json"
NAME_REPLY = '{"intent":"none","slots":{"name":"Dana Lee"}}'
SAID = "the booking is for Dana Lee please"
ENGINES = {  # flavour -> the fake engine it talks to: the field that engine reads, its owned_by, /props or not
    "llama.cpp": ("grammar", "llamacpp", True),
    "vllm": ("structured_outputs.grammar", "vllm", False),
    "vllm-guided": ("guided_grammar", "", False),
    "sglang": ("ebnf", "sglang", False),
}


def engine(flavor: str, **options) -> FakeLlamaServer:
    honors, owner, props = ENGINES[flavor]
    return FakeLlamaServer(honors=honors, owner=owner, props=props, **options)


def understander(fake: FakeLlamaServer, flavor: str | None, **options) -> OpenAIServerUnderstander:
    template = None if fake.props else CHATML_TEMPLATE  # a server without /props publishes no template
    return OpenAIServerUnderstander(fake.url, flavor=flavor, chat_template=template, rules_first=False, **options)


def booking(understander: ServerUnderstander) -> Dialogue:
    dialogue = Dialogue(BOOKING, understander=understander, stand_in_tools=True, clock=FrozenClock("2026-11-23T10:00"))
    dialogue.start()
    return dialogue


@pytest.fixture(params=list(ENGINES))
def flavored(request) -> Iterator[tuple[str, FakeLlamaServer]]:
    fake = engine(request.param, replies=[NAME_REPLY])
    yield request.param, fake
    fake.close()


# ------------------------------------------------------------ the request of each flavour


def test_a_turn_is_one_completion_with_the_grammar_in_the_flavours_field(flavored):
    flavor, fake = flavored
    dialogue = booking(understander(fake, flavor))
    result = dialogue.turn(SAID)
    assert result.trace.parse["slots"] == {"name": "Dana Lee"}
    assert result.trace.understanding["backend"] == f"openai/{flavor}"
    (body,) = fake.completions("/v1/completions")
    gbnf = body.pop(FLAVORS[flavor].field.split(".")[0])
    if flavor == "vllm":
        assert set(gbnf) == {"grammar"}
        gbnf = gbnf["grammar"]
    assert gbnf.startswith("root ::=")
    prompt, max_tokens = body.pop("prompt"), body.pop("max_tokens")
    assert body == {"model": "fake-model", "temperature": 0.0, "seed": 0, "stream": False}  # nothing else
    assert all(isinstance(token, int) for token in prompt) and max_tokens >= len(NAME_REPLY)
    text = "".join(chr(token) for token in prompt)  # the fake's tokens are characters
    assert SAID in text and text.startswith("<|im_start|>system\n")
    assert text.endswith('<|im_start|>assistant\n{"intent"')  # the output's fixed start, written here
    assert fake.completions("/completion") == []  # the native API is not used
    # the flavour's /tokenize body; llama.cpp's keeps typed control tokens as text
    said = [body for path, body in fake.requests if path == "/tokenize" and SAID in str(body)]
    line = f"User: {SAID}\n"  # the prompt's line of the user's message
    if flavor == "llama.cpp":
        assert said == [{"content": line, "add_special": False, "parse_special": False}]
    else:
        assert said == [{"model": "fake-model", "prompt": line, "add_special_tokens": False}]


def test_the_flavour_is_recognised_from_the_model_list_and_the_model_can_be_named():
    for flavor in ("vllm", "sglang", "llama.cpp"):
        fake = engine(flavor)
        try:
            assert understander(fake, None).backend == f"openai/{flavor}"
        finally:
            fake.close()
    fake = engine("vllm", replies=[NAME_REPLY])
    try:
        booking(understander(fake, "vllm", model="served-name")).turn(SAID)
        assert fake.completions("/v1/completions")[0]["model"] == "served-name"
    finally:
        fake.close()


def test_the_factory_and_the_command_line_name_an_openai_compatible_server(flavored, tmp_path):
    flavor, fake = flavored
    options = {} if flavor == "llama.cpp" else {"chat_template": CHATML_TEMPLATE}
    made = make_understander("auto", f"openai+{fake.url}?flavor={flavor}&model=m1", **options)
    assert isinstance(made, OpenAIServerUnderstander) and made.backend == f"openai/{flavor}"
    assert made.server.model == "m1"  # type: ignore[attr-defined]
    assert model_of(None, f"openai+{fake.url}") == f"openai+{fake.url}"
    parser = argparse.ArgumentParser()
    add_model_arguments(parser)
    url = f"openai+{fake.url}?flavor={flavor}"
    if not fake.props:  # no template over HTTP: a file named in the URL
        template = tmp_path / "chatml.jinja"
        template.write_text(CHATML_TEMPLATE)
        url += f"&template={template}"
        with pytest.raises(ModelError, match="cannot read the chat template"):
            make_understander("auto", f"{url}.missing")
    args = parser.parse_args(["--model-server", url])
    assert isinstance(understander_from_arguments(args), OpenAIServerUnderstander)
    with pytest.raises(ModelError, match="unknown OpenAI-compatible flavour 'tgi'"):
        make_understander("auto", f"openai+{fake.url}?flavor=tgi")
    with pytest.raises(ModelError, match="unknown parameter 'temp'"):
        make_understander("auto", f"openai+{fake.url}?temp=1")
    if not fake.props:  # the llama.cpp flavour on another engine: told how to name it
        with pytest.raises(ModelError, match=r"/props answered HTTP 404 \(not a llama-server\?.*\?flavor="):
            make_understander("auto", f"openai+{fake.url}?flavor=llama.cpp")


def test_what_a_server_without_props_needs_is_asked_for_by_name():
    fake = engine("vllm")
    try:
        with pytest.raises(ModelError, match="reports no chat template: pass chat_template="):
            OpenAIServerUnderstander(fake.url, flavor="vllm")
    finally:
        fake.close()
    fake = FakeLlamaServer(honors="ebnf", owner="sglang", props=False, context=None)
    try:
        with pytest.raises(ModelError, match="no max_model_len for 'fake-model': pass n_ctx="):
            OpenAIServerUnderstander(fake.url, flavor="sglang", chat_template=CHATML_TEMPLATE)
    finally:
        fake.close()
    fake = engine("sglang")
    fake.missing.add("/tokenize")
    try:
        # a tokenizer given here replaces the server's /tokenize
        local = OpenAIServerUnderstander(
            fake.url, flavor="sglang", chat_template=CHATML_TEMPLATE, tokenizer=lambda text, special, **_: [1, 2]
        )
        assert local.prompts.tokens("anything") == (1, 2)
        assert not [path for path, _ in fake.requests if path == "/tokenize"]
    finally:
        fake.close()


def test_a_server_without_a_tokenize_route_says_to_pass_a_tokenizer():
    fake = engine("vllm")
    fake.missing.add("/tokenize")
    try:
        with pytest.raises(
            ModelError, match=r"/tokenize answered HTTP 404 \(the vllm flavour tokenizes there: pass tok"
        ):
            OpenAIServerUnderstander(fake.url, flavor="vllm", chat_template=CHATML_TEMPLATE)
    finally:
        fake.close()


# ------------------------------------------------------------ what is not trusted


@pytest.mark.parametrize(
    ("flavor", "engine_flavor"), [("vllm", "llama.cpp"), ("llama.cpp", "vllm"), ("sglang", "vllm")]
)
def test_a_server_that_ignores_the_flavours_grammar_field_is_refused_by_the_canary(flavor, engine_flavor):
    fake = FakeLlamaServer(honors=ENGINES[engine_flavor][0])  # reads another field than the one this flavour sends
    try:
        field = FLAVORS[flavor].field
        with pytest.raises(ModelError, match=f"does not enforce grammars.*{flavor} flavour's '{field}' field"):
            OpenAIServerUnderstander(fake.url, flavor=flavor, chat_template=CHATML_TEMPLATE)
        (canary,) = [body for path, body in fake.requests if path == "/v1/completions"]
        assert FLAVORS[flavor].constrain(CANARY_GRAMMAR).items() <= canary.items()
    finally:
        fake.close()


@pytest.mark.parametrize(
    "reply",
    ['{"intent":"none","slots":{"name":"Bob Smith"}}', '{"intent":"book_a_spaceship"}', '{"intent":"none"', "Sure!"],
)
def test_a_reply_that_does_not_fit_the_turns_schema_fails_the_turn_and_changes_nothing(reply):
    fake = engine("vllm", replies=[reply])
    try:
        dialogue = booking(understander(fake, "vllm"))
        before = dialogue.snapshot()
        with pytest.raises(UnderstandingError):
            dialogue.turn(SAID)
        assert dialogue.snapshot() == before
    finally:
        fake.close()


@pytest.mark.parametrize("reply", ['{"intent":"none","answer":"yes"}', '{"intent":"none"}'])
def test_a_reply_outside_what_the_turn_offered_fails_the_turn_typed_and_changes_nothing(flavored, reply):
    flavor, fake = flavored
    dialogue = at_the_confirmation(understander(fake, flavor, fast_path=False))
    before = dialogue.snapshot()
    fake.replies = type(fake.replies)([reply])  # "yes" where the turn offered "no" and "other" only
    with pytest.raises(ModelServerError, match="outside what the turn offered"):
        dialogue.turn(UNSURE)
    assert dialogue.snapshot() == before
    assert len(fake.completions("/v1/completions")) == 1


def test_a_completion_answer_without_a_choice_fails_the_turn_with_a_typed_error_and_changes_nothing():
    fake = engine("sglang", replies=[NAME_REPLY])
    try:
        dialogue = booking(understander(fake, "sglang"))
        before = dialogue.snapshot()
        fake.mode = "no-choices"
        with pytest.raises(ModelServerError, match="POST /v1/completions answered .*'choices': \\[\\]"):
            dialogue.turn(SAID)
        assert dialogue.snapshot() == before
    finally:
        fake.close()


# ------------------------------------------------------------ outages


def test_a_busy_server_is_retried_and_one_that_stays_down_fails_the_turn_with_nothing_changed(flavored):
    flavor, fake = flavored
    dialogue = booking(understander(fake, flavor, retries=2, backoff=0.01))
    fake.fail.extend([503, 503])
    assert dialogue.turn(SAID).trace.parse["slots"] == {"name": "Dana Lee"}
    again = booking(dialogue.understander)  # type: ignore[arg-type]
    before = again.snapshot()
    fake.fail.extend([503, 503, 503])
    with pytest.raises(ModelServerError, match="POST /v1/completions failed 3 times.*HTTP 503"):
        again.turn(SAID)
    assert again.snapshot() == before
    fake.close()
    with pytest.raises(ModelServerError, match="ConnectionRefused"):
        again.turn(SAID)
    assert again.snapshot() == before


def test_a_server_that_is_not_there_at_start_is_a_model_error():
    url = f"http://127.0.0.1:{free_port()}"
    with pytest.raises(ModelError, match="cannot use the model server.*GET /v1/models.*ConnectionRefused"):
        OpenAIServerUnderstander(url, retries=1, backoff=0.01)


# ------------------------------------------------------------ a real llama-server, through /v1/completions


@pytest.fixture(scope="module")
def served(tmp_path_factory) -> Iterator[str]:
    binary = llama_server_binary()
    if binary is None:
        pytest.skip("no llama-server: run benches/build_llama_server.sh, then set $FSMDIAL_LLAMA_SERVER to it")
    from fsmdial.testing.tiny_model import ensure_tiny_model

    port = free_port()
    log = tmp_path_factory.mktemp("llama-server") / "log"
    process = Process(llama_server_command(binary, str(ensure_tiny_model()), port, slots=1), port, "/health", log=log)
    process.start()
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        process.stop()


@pytest.mark.model
def test_a_real_llama_server_gives_the_native_parses_through_its_openai_api(served):
    native = ServerUnderstander(served, fast_path=False, rules_first=False)
    openai = OpenAIServerUnderstander(served, flavor="llama.cpp", fast_path=False, rules_first=False)
    assert openai.backend == "openai/llama.cpp"
    native_parses, openai_parses = sample_parses(native), sample_parses(openai)
    assert native_parses == openai_parses
    assert sum(1 for _, _, path, _ in native_parses if path == "model") >= 5  # model calls, not only rules


@pytest.mark.model
def test_the_canary_catches_a_real_server_that_silently_ignores_the_vllm_grammar_field(served):
    # llama-server's /v1/completions accepts the unknown 'structured_outputs' and decodes unconstrained;
    # its own /tokenize and context size stand in for vLLM's here, so the canary is what refuses it
    native = LlamaServer(served)
    with pytest.raises(ModelError, match="does not enforce grammars.*vllm flavour's 'structured_outputs.grammar'"):
        OpenAIServerUnderstander(
            served, flavor="vllm", chat_template=CHATML_TEMPLATE, n_ctx=native.facts().n_ctx, tokenizer=native.tokenize
        )
