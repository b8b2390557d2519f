"""The MultiWOZ flows: up to date with their builder, and find -> book conversations on the real databases."""

from __future__ import annotations

import datetime as dt
import json
import re

import pytest

from fsmdial import Dialogue, load_flow
from fsmdial.assistant import Assistant
from fsmdial_eval.clemtodd.build_flows import FLOWS
from fsmdial_eval.clemtodd.runner import flows_dir
from fsmdial_eval.clemtodd.tools import MultiwozDB, Tools, default_data_dir

DATA = default_data_dir()
pytestmark = pytest.mark.skipif(DATA is None, reason="clem:todd data not found (set FSMDIAL_CLEMTODD)")
CLOCK = dt.datetime(2026, 11, 23, 12, 0)


@pytest.fixture(scope="module")
def db(clemtodd_db: MultiwozDB) -> MultiwozDB:
    return clemtodd_db


def dialogue(name: str, db: MultiwozDB, session: str) -> Dialogue:
    return Dialogue(load_flow(flows_dir() / f"{name}.json"), tools=Tools(db, session).registry(), clock=lambda: CLOCK)


@pytest.mark.parametrize("name", sorted(FLOWS))
def test_committed_flows_are_what_the_builder_writes(name: str) -> None:
    assert DATA is not None
    built = FLOWS[name](DATA)
    committed = json.loads((flows_dir() / f"{name}.json").read_text(encoding="utf-8"))
    committed.pop("$schema")
    assert committed == built, "run: python -m fsmdial_eval.clemtodd.build_flows"


def test_restaurant_find_offer_book_reference(db: MultiwozDB) -> None:
    d = dialogue("restaurant", db, "flow-r1")
    assert d.start().act_names == ["ask_food"]
    r = d.turn("I want chinese food in the north, something expensive")
    assert r.act_names[:2] == ["offer_restaurant", "ask_people"]
    assert "chinese" in r.text and "north" in r.text and "expensive" in r.text
    r = d.turn("for 4 people on friday at 19:30")
    assert r.act_names == ["confirm_restaurant"] and "4 people on friday at 19:30" in r.text
    r = d.turn("yes please")
    assert r.act_names[0] == "booked_restaurant" and r.ended
    [booking] = db.bookings("flow-r1")
    assert booking["reference"] in r.text
    assert db.row("restaurant", booking["entity"])["food"] == "chinese"
    assert (booking["people"], booking["day"], booking["time"]) == (4, "friday", "19:30")


def test_nothing_matches_then_a_changed_constraint_searches_again(db: MultiwozDB) -> None:
    d = dialogue("restaurant", db, "flow-r2")
    d.start()
    r = d.turn("an expensive restaurant serving traditional food in the south")
    assert r.act_names == ["nomatch_restaurant"]
    assert "no an expensive restaurant serving traditional food in the south" in r.text
    r = d.turn("how about mexican food")
    assert "offer_restaurant" in r.act_names and "mexican" in r.text


def test_train_declined_departure_time_asks_the_arrival(db: MultiwozDB) -> None:
    d = dialogue("train", db, "flow-t1")
    d.start()
    r = d.turn("a train from cambridge to ely on monday")
    assert r.act_names == ["ask_leave_at"]
    r = d.turn("I don't have a departure time in mind")
    assert r.act_names == ["ask_arrive_by"]
    r = d.turn("12:00")
    assert r.act_names[:2] == ["offer_train", "ask_people"]
    arrives = re.search(r"arrives in ely at (\d\d:\d\d)", r.text)
    assert arrives is not None and arrives.group(1) <= "12:00", r.text


def test_two_domains_share_the_group_of_people(db: MultiwozDB) -> None:
    flows = [load_flow(flows_dir() / f"{name}.json") for name in ("restaurant", "hotel", "train")]
    assistant = Assistant(flows, tools=Tools(db, "flow-2d").registry(), clock=lambda: CLOCK)
    assistant.start()
    assistant.turn("I need a restaurant serving italian food in the centre")
    assistant.turn("for 5 people on saturday at 18:00")
    r = assistant.turn("yes")
    assert "booked_restaurant" in r.act_names
    r = assistant.turn("I also need a train from cambridge to ely on sunday")
    assert r.flow == "train"
    r = assistant.turn("after 10:00")
    # The number of people came from the restaurant: the train goes straight to its confirmation.
    assert r.act_names[-1] == "confirm_train" and "5 tickets" in r.text
    assistant.turn("yes")
    domains = [(b["domain"], b["people"]) for b in db.bookings("flow-2d")]
    assert domains == [("restaurant", 5), ("train", 5)]
