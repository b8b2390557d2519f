"""``Assistant.restore`` is ``Dialogue.restore`` for several flows: same call shape, same errors, round trips."""

from __future__ import annotations

import inspect

import orjson
import pytest

from fsmdial.assistant import Assistant
from fsmdial.errors import SnapshotError
from fsmdial.runtime import Dialogue
from tests.conftest import FLOWS
from tests.example_tools import registry

FILES = [FLOWS / "restaurant_booking.json", FLOWS / "ride_change.json"]


def booking_half_done(clock) -> Assistant:
    bot = Assistant(FILES, tools=registry, clock=clock)
    bot.start()
    for text in ("book a table for 4 tomorrow at 7pm", "Alex", "wait, I need to change my ride first", "Jane"):
        bot.turn(text)
    assert bot.stack == ["restaurant_booking", "ride_change"]
    return bot


def test_restore_has_the_shape_of_dialogue_restore():
    dialogue, assistant = inspect.signature(Dialogue.restore), inspect.signature(Assistant.restore)
    assert list(assistant.parameters) == ["flows", "snapshot", "kwargs"]
    assert list(dialogue.parameters) == ["flow", "snapshot", "kwargs"]
    assert assistant.parameters["kwargs"].kind is inspect.Parameter.VAR_KEYWORD
    assert isinstance(inspect.getattr_static(Assistant, "restore"), classmethod)


@pytest.mark.parametrize("form", ["bytes", "str", "mapping"])
def test_a_restored_assistant_goes_on_as_the_original_would(clock, form):
    bot = booking_half_done(clock)
    saved = bot.snapshot()
    snapshot = {"bytes": saved, "str": saved.decode(), "mapping": orjson.loads(saved)}[form]
    copy = Assistant.restore(FILES, snapshot, tools=registry, clock=clock)
    assert isinstance(copy, Assistant)
    assert copy.snapshot() == saved
    assert (copy.stack, copy.shared, copy.ended) == (bot.stack, bot.shared, bot.ended)
    for text in ("102", "pick me up at 6pm instead", "yes"):
        assert copy.turn(text).text == bot.turn(text).text
    assert copy.snapshot() == bot.snapshot()


def test_restore_gives_the_subclass_it_is_called_on(clock):
    class Shop(Assistant):
        pass

    assert type(Shop.restore(FILES, booking_half_done(clock).snapshot(), tools=registry, clock=clock)) is Shop


@pytest.mark.parametrize(
    "snapshot",
    [
        b"{not json",
        "[]",
        {"format": "fsmdial.session"},
        {"format": "fsmdial.assistant", "version": 2, "stack": [], "shared": {}, "ended": False, "dialogues": {}},
        {"format": "fsmdial.assistant", "version": 1, "stack": ["nope"], "shared": {}, "ended": False, "dialogues": {}},
    ],
)
def test_restore_refuses_what_load_snapshot_refuses_with_a_snapshot_error(clock, snapshot):
    with pytest.raises(SnapshotError):
        Assistant.restore(FILES, snapshot, tools=registry, clock=clock)
    with pytest.raises(SnapshotError):
        Assistant(FILES, tools=registry, clock=clock).load_snapshot(snapshot)
    with pytest.raises(SnapshotError):  # the one-flow class refuses the same damage the same way
        Dialogue.restore(FILES[0], b"{not json", tools=registry, clock=clock)
