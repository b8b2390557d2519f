"""The model-server understander: against a fake llama-server (protocol, canary, validation, outages) and a real
one (the same parses as in-process).

The real server is ``llama-server`` built from the llama.cpp sources vendored in llama-cpp-python's sdist
(``benches/build_llama_server.sh``), found as ``$FSMDIAL_LLAMA_SERVER`` or on the PATH; without it, or
without the models, those tests are skipped and say so.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("jinja2", reason="needs the gguf extra (chat templates)")

from fsmdial.errors import ModelError, ModelServerError, UnderstandingError
from fsmdial.model_catalogue import locate
from fsmdial.runtime import Dialogue
from fsmdial.serve.loadtest import Process, free_port, llama_server_command
from fsmdial.testing import FrozenClock
from fsmdial.understand.factory import add_model_arguments, make_understander, understander_from_arguments
from fsmdial.understand.model.server import CANARY_GRAMMAR, ServerUnderstander
from tests.understand.server_fake import FakeLlamaServer

REPO = Path(__file__).resolve().parents[2]
BOOKING = REPO / "flows" / "restaurant_booking.json"
NOW = dt.datetime(2026, 11, 22, 12, 0).isoformat(timespec="minutes")
NAME_REPLY = '{"intent":"none","slots":{"name":"Dana Lee"}}'


@pytest.fixture
def fake() -> Iterator[FakeLlamaServer]:
    server = FakeLlamaServer(replies=[NAME_REPLY])
    yield server
    server.close()


def booking(understander: ServerUnderstander) -> Dialogue:
    dialogue = Dialogue(BOOKING, understander=understander, stand_in_tools=True, clock=FrozenClock("2026-11-23T10:00"))
    dialogue.start()
    return dialogue


# ------------------------------------------------------------ protocol


def test_a_turn_is_one_greedy_completion_under_the_turns_grammar_and_parsed_here(fake):
    dialogue = booking(ServerUnderstander(fake.url, rules_first=False))
    result = dialogue.turn("the booking is for Dana Lee please")
    assert result.trace.parse["slots"] == {"name": "Dana Lee"}
    assert result.trace.understanding["backend"] == "server"
    (request,) = fake.completions()
    assert request["temperature"] == 0 and request["top_k"] == 1 and request["cache_prompt"] is True
    assert request["id_slot"] == -1 and request["grammar"].startswith("root ::=")
    assert all(isinstance(token, int) for token in request["prompt"])  # tokens, built here piece by piece
    assert request["n_predict"] >= len(NAME_REPLY)
    # user text is tokenized without special tokens: typed control tokens stay text
    said = [body for path, body in fake.requests if path == "/tokenize" and "Dana Lee please" in body["content"]]
    assert said and all(body["parse_special"] is False for body in said)


def test_the_prompt_is_the_chat_template_around_the_conversation(fake):
    understander = ServerUnderstander(fake.url, rules_first=False)
    dialogue = booking(understander)
    dialogue.turn("the booking is for Dana Lee please")
    (request,) = fake.completions()
    text = "".join(chr(token) for token in request["prompt"])  # the fake's tokens are characters
    assert "the booking is for Dana Lee please" in text
    assert text.startswith("<|im_start|>system\n")
    # the template's assistant header, then the output's fixed start, written here, not decoded there
    assert text.endswith('<|im_start|>assistant\n{"intent"')
    assert not request["grammar"].startswith('root ::= "{')


def test_the_factory_and_the_command_line_options_name_a_server(fake):
    assert isinstance(make_understander("auto", "server+" + fake.url), ServerUnderstander)
    parser = argparse.ArgumentParser()
    add_model_arguments(parser)
    args = parser.parse_args(["--model-server", fake.url])
    assert isinstance(understander_from_arguments(args), ServerUnderstander)
    with pytest.raises(ValueError, match="not both"):
        understander_from_arguments(parser.parse_args(["--model-server", fake.url, "--model", "x.gguf"]))


# ------------------------------------------------------------ what is not trusted


def test_a_server_that_ignores_grammars_is_refused_by_the_canary():
    server = FakeLlamaServer(mode="ignore")
    try:
        with pytest.raises(ModelError, match="does not enforce grammars"):
            ServerUnderstander(server.url)
        (canary,) = [body for path, body in server.requests if path == "/completion"]
        assert canary["grammar"] == CANARY_GRAMMAR
    finally:
        server.close()


@pytest.mark.parametrize(
    "reply",
    [
        '{"intent":"none","slots":{"name":"Bob Smith"}}',  # not a span of the message
        '{"intent":"book_a_spaceship"}',  # no such intent
        '{"intent":"none"',  # cut short
        'Sure! {"intent":"none"}',  # prose around it
        '{"intent":"none"} and more',
    ],
)
def test_a_reply_that_does_not_fit_the_turns_schema_fails_the_turn_and_changes_nothing(fake, reply):
    fake.replies = type(fake.replies)([reply])
    dialogue = booking(ServerUnderstander(fake.url, rules_first=False))
    before = dialogue.snapshot()
    with pytest.raises(UnderstandingError):
        dialogue.turn("the booking is for Dana Lee please")
    assert dialogue.snapshot() == before


CONFIRMING = "Dana Lee, 4 people, tomorrow at 7pm"
"""Said to the booking with the rules: the booking is then asked to be confirmed."""
UNSURE = "hmm I'm not sure"
"""At the confirmation: the turn offers the answers "no" and "other" only (no yes word, nothing to change)."""


def at_the_confirmation(understander: ServerUnderstander) -> Dialogue:
    dialogue = booking(None)  # type: ignore[arg-type]
    dialogue.turn(CONFIRMING)
    assert dialogue.understanding_state().confirm == "confirm_booking"
    dialogue.understander = understander
    return dialogue


@pytest.mark.parametrize(
    "reply",
    [
        '{"intent":"none","answer":"yes"}',  # the turn offered "no" and "other" only
        '{"intent":"goodbye","answer":"yes"}',
        '{"intent":"none","answer":"change"}',  # nothing to change: not offered
        '{"intent":"none","answer":"other","slots":{}}',  # no slots with a plain answer
        '{"intent":"none"}',  # the answer is required
        '{"intent":"none","answer":"other","extra":1}',  # no other key
        '{"intent":"none","answer":"no","choice":"none"}',  # no choice at this node
    ],
)
def test_a_reply_outside_what_the_turn_offered_fails_the_turn_typed_and_changes_nothing(fake, reply):
    dialogue = at_the_confirmation(ServerUnderstander(fake.url, rules_first=False, fast_path=False))
    before = dialogue.snapshot()
    fake.replies = type(fake.replies)([reply])
    with pytest.raises(ModelServerError, match="outside what the turn offered") as caught:
        dialogue.turn(UNSURE)
    assert caught.value.url == fake.url
    assert dialogue.snapshot() == before
    assert len(fake.completions()) == 1  # the server was asked: its reply was refused here


def test_a_reply_inside_what_the_turn_offered_is_taken(fake):
    dialogue = at_the_confirmation(ServerUnderstander(fake.url, rules_first=False, fast_path=False))
    fake.replies = type(fake.replies)(['{"intent":"none","answer":"no"}'])
    assert dialogue.turn(UNSURE).trace.parse["answer"] == "no"


@pytest.mark.parametrize(
    "reply",
    [
        '{"intent":"none","slots":{}}',  # the asked name is required when the message is no intent
        '{"intent":"none","slots":{"name":"Dana Lee"},"answer":"yes"}',  # no confirmation pending
        '{"intent":"decline","slots":{"name":"Dana Lee"},"choice":"none"}',
    ],
)
def test_an_asked_slot_the_turn_requires_cannot_be_left_out(fake, reply):
    fake.replies = type(fake.replies)([reply])
    dialogue = booking(ServerUnderstander(fake.url, rules_first=False, fast_path=False))
    before = dialogue.snapshot()
    with pytest.raises(ModelServerError, match="outside what the turn offered"):
        dialogue.turn("the booking is for Dana Lee please")
    assert dialogue.snapshot() == before


# ------------------------------------------------------------ outages


def test_a_server_that_is_not_there_at_start_is_a_model_error():
    url = f"http://127.0.0.1:{free_port()}"
    with pytest.raises(ModelError, match="cannot use the model server.*ConnectionRefused"):
        ServerUnderstander(url, retries=1, backoff=0.01)


def test_a_server_gone_mid_session_fails_the_turn_with_a_typed_error_and_the_session_is_unchanged(fake):
    dialogue = booking(ServerUnderstander(fake.url, retries=2, backoff=0.01, timeout=2, rules_first=False))
    before = dialogue.snapshot()
    fake.close()
    with pytest.raises(ModelServerError, match="failed 3 times.*ConnectionRefused") as caught:
        dialogue.turn("the booking is for Dana Lee please")
    assert caught.value.url == fake.url and isinstance(caught.value, UnderstandingError)
    assert dialogue.snapshot() == before


def test_a_busy_or_loading_server_is_retried_with_backoff(fake):
    understander = ServerUnderstander(fake.url, retries=2, backoff=0.01, rules_first=False)
    dialogue = booking(understander)
    fake.fail.extend([503, 503])
    assert dialogue.turn("the booking is for Dana Lee please").trace.parse["slots"] == {"name": "Dana Lee"}
    again = booking(understander)
    before = again.snapshot()
    fake.fail.extend([503, 503, 503])
    with pytest.raises(ModelServerError, match="failed 3 times.*HTTP 503"):
        again.turn("the booking is for Dana Lee please")
    assert again.snapshot() == before


def test_a_client_error_is_not_retried(fake):
    dialogue = booking(ServerUnderstander(fake.url, retries=3, backoff=0.01, rules_first=False))
    fake.fail.append(400)
    with pytest.raises(ModelServerError, match="HTTP 400"):
        dialogue.turn("the booking is for Dana Lee please")
    assert len(fake.completions()) == 0  # the 400 was the only try


# ------------------------------------------------------------ a real llama-server

TEXTS = ["hello", "Jane", "102", "change the pickup time", "yes", "no", "tomorrow at 7pm", "bye"]
"""The determinism sample of tests/understand/test_gguf.py, said to each flow."""
SAMPLE_FLOWS = (
    "ride_change.json",
    "restaurant_booking.json",
    "card_activation.json",
    "vet_appointment.json",
    "grocery_delivery.json",
    "bank_fraud_report.json",
)


def llama_server_binary() -> str | None:
    return os.environ.get("FSMDIAL_LLAMA_SERVER") or shutil.which("llama-server")


@pytest.fixture(scope="module", params=["tiny", "smollm2"])
def served(request, tmp_path_factory) -> Iterator[tuple[Path, str]]:
    pytest.importorskip("llama_cpp", reason="needs the gguf extra (llama-cpp-python), to compare with in-process")
    binary = llama_server_binary()
    if binary is None:
        pytest.skip("no llama-server: run benches/build_llama_server.sh, then set $FSMDIAL_LLAMA_SERVER to it")
    if request.param == "tiny":
        from fsmdial.testing.tiny_model import ensure_tiny_model

        model = ensure_tiny_model()
    else:
        model = locate("smollm2")
        if model is None:
            pytest.skip("SmolLM2 is not here: run `fsmdial models fetch smollm2`")
    port = free_port()
    log = tmp_path_factory.mktemp("llama-server") / "log"
    process = Process(llama_server_command(binary, str(model), port, slots=1), port, "/health", log=log)
    process.start()
    try:
        yield model, f"http://127.0.0.1:{port}"
    finally:
        process.stop()


@pytest.mark.model
def test_a_real_server_gives_the_in_process_parses(served):
    from fsmdial.understand.model.gguf import GGUFUnderstander

    model, url = served
    # rules_first=False: every turn's parse is the model's, so every turn compares the two decodings
    local = GGUFUnderstander(model, backend="llamacpp", n_threads=1, fast_path=False, rules_first=False)
    remote = ServerUnderstander(url, fast_path=False, rules_first=False)
    local_parses, remote_parses = sample_parses(local), sample_parses(remote)
    assert local_parses == remote_parses
    assert sum(1 for _, _, path, _ in local_parses if path == "model") >= 5  # model calls compared, not only rules


def sample_parses(understander: Any) -> list[tuple[str, str, str | None, Any]]:
    """(flow, message, path, parse) of each turn when the sample flows hear :data:`TEXTS` with ``understander``."""
    found = []
    for name in SAMPLE_FLOWS:
        flow = REPO / "flows" / name
        dialogue = Dialogue(flow, understander=understander, stand_in_tools=True, clock=FrozenClock(NOW))
        dialogue.start()
        for text in TEXTS:
            if dialogue.ended:
                break
            trace = dialogue.turn(text).trace
            found.append((name, text, trace.path, trace.parse))
    return found
