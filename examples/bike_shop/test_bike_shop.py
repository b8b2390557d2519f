"""The bike shop in Python: the plugin's ``fsmdial_assistant`` fixture and ``ABSENT`` (the conversation file
beside this one plays the same flows as data)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from fsmdial.testing import ABSENT

HERE = Path(__file__).parent
FLOWS = [HERE / "repair.json", HERE / "cancel.json"]


def test_a_cancellation_leaves_the_booking_it_interrupted_unfinished(fsmdial_assistant, fsmdial_conversation, workshop):
    talk = fsmdial_conversation(fsmdial_assistant(FLOWS, understander="rules"))
    talk.start(acts=["greeting"])
    talk.say("I'd like to book a repair", flow="repair_booking", acts=["ask_name"])
    talk.say("Sam Jones", acts=["ask_bike"], slots={"name": "Sam Jones", "bike": ABSENT})
    talk.say("cancel my repair", flow="cancel_booking", acts=["ask_reference"])
    talk.say("R1001", acts=["confirm_cancel"], slots={"reference": "R1001", "repair_booking.day": ABSENT})
    talk.say("yes", acts=["not_found", "ask_bike"], tool_calls=[{"tool": "cancel_repair", "status": "failure"}])
    talk.say("a city bike", flow="repair_booking", slots={"bike": "city", "day": ABSENT})
    talk.say("tomorrow", acts=["confirm_repair"], slots={"repair_booking.day": "2025-06-14"})
    talk.say("yes", acts=["booked"], tool_calls=["book_repair"])
    assert workshop.bookings == {"R1001": {"name": "Sam Jones", "bike": "city", "day": dt.date(2025, 6, 14)}}
