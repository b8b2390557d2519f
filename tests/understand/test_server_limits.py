"""A model server cannot hold a turn for ever: one deadline for the whole model call, a bound on a reply's size.

Against the fake server on 127.0.0.1 (tests/understand/server_fake.py), misbehaving on purpose: a byte now and
then (status line, headers and body), a reply of 100 MB (with its length, or chunked without one), a server
busy for longer than the deadline. Every test is bounded in time: a turn that the deadline does not end is
stopped by the fake's close after ``HELD`` seconds, and the test fails on the time it took.
"""

from __future__ import annotations

import argparse
import threading
import time
import tracemalloc
from collections.abc import Callable, Iterator
from typing import Any

import pytest

pytest.importorskip("jinja2", reason="needs the gguf extra (chat templates)")

from fsmdial.cli.common import add_conversation_options, understander_of
from fsmdial.errors import ModelError, ModelServerError, ModelServerReplyTooLarge, ModelServerTimeout
from fsmdial.runtime import Dialogue
from fsmdial.understand.factory import add_model_arguments, make_understander, understander_from_arguments
from fsmdial.understand.model.openai_server import OpenAIServerUnderstander
from fsmdial.understand.model.server import ServerUnderstander
from fsmdial.understand.model.transport import DEFAULT_DEADLINE, DEFAULT_MAX_REPLY
from tests.understand.server_fake import FakeLlamaServer
from tests.understand.test_server import NAME_REPLY, booking

SAID = "the booking is for Dana Lee please"
HELD = 20.0
"""Seconds after which a test stops a misbehaving fake itself (the turn should have ended long before)."""


@pytest.fixture
def fake() -> Iterator[FakeLlamaServer]:
    server = FakeLlamaServer(replies=[NAME_REPLY] * 4)
    yield server
    server.close()


def timed(call: Callable[[], Any], fake: FakeLlamaServer) -> tuple[float, BaseException | None]:
    """(seconds, what it raised) of ``call``; the fake is stopped after :data:`HELD` s if the call is still held."""
    stopper = threading.Timer(HELD, fake.stopped.set)
    stopper.start()
    started = time.monotonic()
    try:
        call()
    except BaseException as exc:  # noqa: BLE001 - the test looks at what it was
        return time.monotonic() - started, exc
    finally:
        stopper.cancel()
    return time.monotonic() - started, None


def understander(fake: FakeLlamaServer, **options: Any) -> ServerUnderstander:
    return ServerUnderstander(fake.url, rules_first=False, fast_path=False, **options)


# ------------------------------------------------------------ the deadline


def test_a_server_writing_a_byte_now_and_then_cannot_hold_the_turn_past_its_deadline(fake):
    dialogue = booking(understander(fake, timeout=2, retries=0, deadline=1.5))
    before = dialogue.snapshot()
    fake.slow, fake.drip = {"/completion"}, 0.25  # the answer takes over a minute at this pace
    took, raised = timed(lambda: dialogue.turn(SAID), fake)
    assert isinstance(raised, ModelServerTimeout) and isinstance(raised, ModelServerError), raised
    assert "deadline" in str(raised) and raised.url == fake.url
    assert took < 1.5 + 0.6, took  # the deadline, plus one pause of the drip at most
    assert dialogue.snapshot() == before


def test_a_server_slow_in_its_status_line_is_held_to_the_deadline_too(fake):
    dialogue = booking(understander(fake, timeout=30, retries=0, deadline=1.0))
    fake.slow, fake.drip = {"/completion"}, 0.4  # a byte every 0.4 s, each well within the socket timeout
    took, raised = timed(lambda: dialogue.turn(SAID), fake)
    assert isinstance(raised, ModelServerTimeout), raised
    assert took < 1.0 + 0.6, took
    assert fake.dripped < 8  # the status line was not even whole


def test_the_deadline_covers_every_retry_and_the_backoff_between_them(fake):
    dialogue = booking(understander(fake, retries=50, backoff=0.2, deadline=1.2))
    before = dialogue.snapshot()
    fake.fail.extend([503] * 100)  # busy for ever
    took, raised = timed(lambda: dialogue.turn(SAID), fake)
    assert isinstance(raised, ModelServerTimeout), raised
    assert "HTTP 503" in str(raised)  # what the last try met
    assert took < 1.2 + 0.3, took
    assert dialogue.snapshot() == before


def test_a_turns_tokenize_and_completion_requests_share_one_deadline(fake):
    dialogue = booking(understander(fake, retries=0, deadline=1.5))
    # each request alone is well within the deadline; the turn's model call, all of them, is not
    fake.slow, fake.pause = {"/tokenize", "/completion"}, 0.8
    took, raised = timed(lambda: dialogue.turn(SAID), fake)
    assert isinstance(raised, ModelServerTimeout), raised
    assert took < 1.5 + 0.3, took


def test_a_server_within_the_deadline_is_answered_as_before(fake):
    dialogue = booking(understander(fake, retries=0, deadline=5))
    fake.slow, fake.drip = {"/completion"}, 0.001
    assert dialogue.turn(SAID).trace.parse["slots"] == {"name": "Dana Lee"}


def test_a_server_slow_at_start_is_a_model_error_within_the_deadline(fake):
    fake.slow, fake.drip = {"/props"}, 0.2
    took, raised = timed(lambda: ServerUnderstander(fake.url, deadline=1.0, retries=3), fake)
    assert isinstance(raised, ModelError) and "deadline" in str(raised), raised
    assert took < 1.0 + 0.5, took


# ------------------------------------------------------------ the size of a reply


@pytest.mark.parametrize("chunked", [False, True], ids=["with its length", "chunked"])
def test_a_huge_reply_is_refused_after_its_bound_without_holding_it_in_memory(fake, chunked):
    dialogue = booking(understander(fake, retries=3, max_reply=1 << 20))
    before = dialogue.snapshot()
    fake.slow, fake.huge, fake.chunked = {"/completion"}, 100 << 20, chunked
    tracemalloc.start()
    try:
        took, raised = timed(lambda: dialogue.turn(SAID), fake)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert isinstance(raised, ModelServerReplyTooLarge) and isinstance(raised, ModelServerError), raised
    assert "1048576 bytes" in str(raised)
    assert took < 3.0, took
    assert peak < 8 << 20, peak  # the bound and a read buffer, not the 100 MB
    assert fake.sent < 20 << 20  # the client stopped reading
    assert len(fake.completions()) == 1  # not retried: the same server would answer the same
    assert dialogue.snapshot() == before


def test_a_reply_within_the_bound_is_read_whole(fake):
    dialogue = booking(understander(fake, max_reply=1 << 20))
    fake.slow, fake.huge, fake.chunked = {"/completion"}, 900_000, True  # spaces after the JSON: still JSON
    assert dialogue.turn(SAID).trace.parse["slots"] == {"name": "Dana Lee"}


# ------------------------------------------------------------ where the options are set


def test_the_defaults_are_safe():
    assert DEFAULT_DEADLINE == 30.0 and DEFAULT_MAX_REPLY == 1 << 20


def test_the_options_are_set_in_the_constructor_the_url_and_on_the_command_line(fake):
    made = understander(fake)
    assert (made.server.deadline, made.server.max_reply) == (DEFAULT_DEADLINE, DEFAULT_MAX_REPLY)  # type: ignore[attr-defined]
    made = understander(fake, deadline=7, max_reply=5000)
    assert (made.server.deadline, made.server.max_reply) == (7, 5000)  # type: ignore[attr-defined]
    made = make_understander("auto", f"server+{fake.url}?deadline=4.5&max_reply=70000")
    assert (made.server.deadline, made.server.max_reply) == (4.5, 70000)  # type: ignore[union-attr]
    made = make_understander("auto", f"openai+{fake.url}?flavor=llama.cpp&deadline=3&max_reply=90000")
    assert isinstance(made, OpenAIServerUnderstander)
    assert (made.server.deadline, made.server.max_reply) == (3, 90000)  # type: ignore[attr-defined]
    with pytest.raises(ModelError, match="unknown parameter 'dedline'"):
        make_understander("auto", f"server+{fake.url}?dedline=4")
    for bad in ("deadline=0", "deadline=-1", "deadline=soon", "max_reply=0", "max_reply=1.5"):
        with pytest.raises(ModelError, match=bad.split("=")[0]):
            make_understander("auto", f"server+{fake.url}?{bad}")
    # the command line: the evaluations' options and chat's and serve's
    parser = argparse.ArgumentParser()
    add_model_arguments(parser)
    args = parser.parse_args(["--model-server", fake.url, "--model-deadline", "6", "--model-max-reply", "80000"])
    made = understander_from_arguments(args)
    assert (made.server.deadline, made.server.max_reply) == (6, 80000)  # type: ignore[union-attr]
    parser = argparse.ArgumentParser()
    add_conversation_options(parser)
    args = parser.parse_args(["x.json", "--model-server", fake.url, "--model-deadline", "2.5"])
    assert understander_of(args).server.deadline == 2.5
    with pytest.raises(ValueError, match="model server"):
        make_understander("gguf", "some.gguf", deadline=3)


def test_a_bound_on_the_command_line_is_checked(fake):
    parser = argparse.ArgumentParser()
    add_model_arguments(parser)
    for bad in (["--model-deadline", "0"], ["--model-max-reply", "-5"], ["--model-deadline", "x"]):
        with pytest.raises(SystemExit):
            parser.parse_args(["--model-server", fake.url, *bad])


def test_a_dialogue_on_a_slow_server_says_which_bound_ended_the_turn(fake):
    dialogue: Dialogue = booking(understander(fake, deadline=0.5, retries=0))
    fake.slow, fake.drip = {"/completion"}, 0.2
    with pytest.raises(ModelServerTimeout, match=r"POST /completion.*deadline of 0\.5 s"):
        dialogue.turn(SAID)
