"""The MultiWOZ tools: parameterised look-ups on the shipped databases, bookings on an in-memory copy."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from fsmdial.tools import call_tool
from fsmdial_eval.clemtodd.tools import DB_FILES, HotelQuery, MultiwozDB, Tools, TrainQuery, default_data_dir

DATA = default_data_dir()
pytestmark = pytest.mark.skipif(DATA is None, reason="clem:todd data not found (set FSMDIAL_CLEMTODD)")


@pytest.fixture(scope="module")
def db(clemtodd_db: MultiwozDB) -> MultiwozDB:
    return clemtodd_db


def test_search_returns_only_rows_that_fit_every_constraint(db: MultiwozDB) -> None:
    tools = Tools(db, "t1")
    found = tools.search_restaurants(food="chinese", area="north", pricerange="expensive")
    rows = db.find("restaurant", food="chinese", area="north", pricerange="expensive")
    assert found.count == len(rows) > 0
    assert all(r["food"] == "chinese" and r["area"] == "north" and r["pricerange"] == "expensive" for r in rows)
    assert found.name == rows[0]["name"] and found.name in found.offer
    assert db.row("restaurant", found.entity)["name"] == found.name


def test_nothing_matches_says_what_was_searched(db: MultiwozDB) -> None:
    found = Tools(db, "t1").search_restaurants(food="traditional", area="south", pricerange="expensive")
    assert found.count == 0 and found.name is None
    assert found.searched == "an expensive restaurant serving traditional food in the south"


def test_values_are_parameters_never_sql(db: MultiwozDB) -> None:
    tools = Tools(db, "t1")
    assert tools.search_restaurants(area="north' OR '1'='1").count == 0
    assert tools.search_hotels(name='x"; DROP TABLE hotel; --').count == 0
    assert db.find("hotel")  # still there


def test_user_phrases_map_to_database_values() -> None:
    q = HotelQuery(type="guest house", stars="4 star", parking="free parking", internet="no wifi")
    assert (q.type, q.stars, q.parking, q.internet) == ("guesthouse", "4", "yes", "no")
    t = TrainQuery(departure="from cambridge", destination="to ely", day="Friday", leave_at="9:15")
    assert (t.departure, t.destination, t.day, t.leave_at) == ("cambridge", "ely", "friday", "09:15")


def test_train_times_leave_after_and_arrive_by(db: MultiwozDB) -> None:
    leave = db.trains(
        TrainQuery(departure="cambridge", destination="london kings cross", day="monday", leave_at="15:45")
    )
    assert (
        leave
        and all(r["leaveAt"] >= "15:45" for r in leave)
        and leave[0]["leaveAt"] == min(r["leaveAt"] for r in leave)
    )
    arrive = db.trains(TrainQuery(departure="cambridge", destination="ely", day="monday", arrive_by="12:00"))
    assert arrive and all(r["arriveBy"] <= "12:00" for r in arrive)
    assert arrive[0]["arriveBy"] == max(r["arriveBy"] for r in arrive)  # the latest that is still in time


def test_booking_writes_a_row_with_a_reference(db: MultiwozDB) -> None:
    tools = Tools(db, "t-book")
    hotel = tools.search_hotels(name="acorn guest house")
    booked = tools.book_hotel(entity=hotel.entity, people=2, day="friday", stay=3)
    assert booked.booked and booked.reference and len(booked.reference) == 8
    [row] = db.bookings("t-book")
    assert (row["domain"], row["entity"], row["people"], row["day"], row["stay"]) == (
        "hotel",
        hotel.entity,
        2,
        "friday",
        3,
    )
    assert row["reference"] == booked.reference
    assert not tools.book_hotel(entity=99999, people=2, day="friday", stay=3).booked
    assert db.bookings("another-task") == []


def test_arguments_are_validated_before_the_tool_runs(db: MultiwozDB) -> None:
    from fsmdial.errors import ToolArgumentError

    registry = Tools(db, "t-args").registry()
    with pytest.raises(ToolArgumentError):
        call_tool(registry["book_restaurant"], {"entity": 1, "people": 0, "day": "friday", "time": "19:00"})
    with pytest.raises(ToolArgumentError):
        call_tool(registry["search_trains"], {"departure": "cambridge", "destination": "ely", "day": "someday"})
    assert db.bookings("t-args") == []


def test_the_shared_databases_are_never_written(db: MultiwozDB) -> None:
    assert DATA is not None
    before = {name: hashlib.sha1(Path(DATA, "db", name).read_bytes()).hexdigest() for name in DB_FILES.values()}
    tools = Tools(MultiwozDB(DATA), "t-ro")
    found = tools.search_restaurants(food="italian")
    tools.book_restaurant(entity=found.entity, people=2, day="monday", time="19:00")
    after = {name: hashlib.sha1(Path(DATA, "db", name).read_bytes()).hexdigest() for name in DB_FILES.values()}
    assert before == after


def test_any_value_is_no_constraint(db: MultiwozDB) -> None:
    tools = Tools(db, "t-any")
    assert tools.search_hotels(type="any type", area="east", stars="4 star").count == len(
        db.find("hotel", area="east", stars="4")
    )
    assert (
        HotelQuery(area="any area", pricerange="Any price range", stars="any star rating").model_dump(exclude_none=True)
        == {}
    )
