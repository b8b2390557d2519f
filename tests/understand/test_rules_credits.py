"""People credited with a work, after the words that credit them (rules): :mod:`fsmdial.understand.rules.credits`."""

from __future__ import annotations

import pytest

from fsmdial.flow import Slot, SlotType
from fsmdial.runtime import Dialogue
from fsmdial.understand.rules.credits import credit_slots, read_credits

DIRECTOR = Slot(name="director", type=SlotType.string, description="Name of the director of the movie")
ACTORS = Slot(name="actors", type=SlotType.string, description="Name of an actor starring in the movie")
ARTIST = Slot(name="artist", type=SlotType.string, description="Artist who performed the song")
TITLE = Slot(name="movie_name", type=SlotType.string, description="Name of the movie")
CREDITS = credit_slots([DIRECTOR, ACTORS, ARTIST, TITLE])


def test_only_slots_holding_who_made_a_work_are_credited():
    assert [slot.name for slot, _ in CREDITS] == ["director", "actors", "artist"]


@pytest.mark.parametrize(
    ("said", "read"),
    [
        (
            "Is there anything directed by Jonathan Levine that stars Bob Odenkirk?",
            {"director": "Jonathan Levine", "actors": "Bob Odenkirk"},
        ),
        ("what about movie directed by jenny gage in the rom-com genre", {"director": "jenny gage"}),
        ("Now look up country songs by Dustin Lynch.", {"artist": "Dustin Lynch"}),
        ("a film directed by the best people", {}),  # no name after the credit
        ("I like movies", {}),
    ],
)
def test_a_name_after_the_words_crediting_it(said: str, read: dict[str, str]):
    assert read_credits(CREDITS, said) == read


def test_the_director_said_unasked_is_stored():
    flow = {
        "name": "films",
        "description": "Find a film.",
        "nodes": [
            {
                "id": "ask",
                "type": "request",
                "slots": [
                    {"name": "genre", "type": "string", "description": "Genre of the movie"},
                    {"name": "director", "type": "string", "description": "Name of director of the movie"},
                ],
            },
            {"id": "bye", "type": "end", "message": "Done."},
        ],
        "edges": [{"source": "ask", "target": "bye"}],
        "start": "ask",
    }
    dialogue = Dialogue(flow, stand_in_tools=True)
    dialogue.turn("Can you find me a movie directed by Harry Elfont?")
    assert dialogue.slots == {"director": "Harry Elfont"}
