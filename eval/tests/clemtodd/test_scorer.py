"""clem:todd's success rule, pinned by hand-computed cases (no data needed)."""

from __future__ import annotations

from fsmdial_eval.clemtodd.scorer import averages, generated_slots, score_episode

# A two-domain goal in clem:todd's format: the user first asks for traditional food (nothing matches),
# then mexican; the restaurant booking may fall back from 14:00 to 15:00; the train must leave after 15:45.
GOAL = {
    "restaurant": {
        "info": {"food": "mexican", "pricerange": "expensive", "area": "south"},
        "fail_info": {"food": "traditional", "pricerange": "expensive", "area": "south"},
        "book": {"people": "6", "day": "wednesday", "time": "15:00", "invalid": False, "pre_invalid": True},
        "fail_book": {"time": "14:00"},
    },
    "train": {
        "info": {"leaveAt": "15:45", "destination": "london kings cross", "day": "thursday", "departure": "cambridge"},
        "fail_info": {},
        "book": {"people": "6", "invalid": False},
        "fail_book": {},
    },
}
RESTAURANT_ROW = {
    "name": "chiquito restaurant bar",
    "area": "south",
    "pricerange": "expensive",
    "food": "mexican",
    "address": "x",
    "phone": "y",
    "postcode": "z",
}
TRAIN_ROW = {
    "trainID": "TR1234",
    "departure": "cambridge",
    "destination": "london kings cross",
    "day": "thursday",
    "leaveAt": "17:00",
    "arriveBy": "17:51",
    "duration": "51 minutes",
    "price": "23.60 pounds",
}
ROWS = {("restaurant", 1): RESTAURANT_ROW, ("train", 7): TRAIN_ROW}


def entity_of(domain: str, entity: int) -> dict | None:
    return ROWS.get((domain, entity))


def bookings(**changes: object) -> list[dict]:
    restaurant = {"domain": "restaurant", "entity": 1, "people": 6, "day": "wednesday", "time": "15:00", "stay": None}
    train = {"domain": "train", "entity": 7, "people": 6, "day": None, "time": None, "stay": None}
    restaurant.update({k.removeprefix("r_"): v for k, v in changes.items() if k.startswith("r_")})
    train.update({k.removeprefix("t_"): v for k, v in changes.items() if k.startswith("t_")})
    return [restaurant, train]


def score(rows: list[dict], *, aborted: bool = False, turns: int = 9) -> tuple[int, int]:
    result = score_episode(GOAL, generated_slots(rows, entity_of), aborted=aborted, turns=turns, cap=15)
    return result.inform, result.booking


def test_generated_slots_read_the_booked_entity_and_the_booking_keys() -> None:
    slots = generated_slots(bookings(), entity_of)
    assert slots["restaurant"]["info"] == {
        "name": "chiquito restaurant bar",
        "area": "south",
        "pricerange": "expensive",
        "food": "mexican",
    }
    assert slots["restaurant"]["book"] == {"people": "6", "day": "wednesday", "time": "15:00"}
    assert slots["train"]["info"]["leaveat"] == "17:00" and slots["train"]["book"] == {"people": "6"}


def test_a_booking_that_fits_the_goal_succeeds() -> None:
    assert score(bookings()) == (1, 1)


def test_the_fail_book_alternative_is_accepted_as_clemtodd_does() -> None:
    assert score(bookings(r_time="14:00")) == (1, 1)
    assert score(bookings(r_time="16:00")) == (1, 0)


def test_wrong_booking_keys_fail_booking_but_not_inform() -> None:
    assert score(bookings(r_people=5)) == (1, 0)
    assert score(bookings(t_people=2)) == (1, 0)
    assert score(bookings(r_day="thursday")) == (1, 0)


def test_time_constraints_compare_as_clemtodd_does() -> None:
    # leaveAt 15:45: a train leaving at 17:00 or exactly at 15:45 fits, one at 15:00 does not.
    TRAIN_ROW["leaveAt"] = "15:45"
    try:
        assert score(bookings()) == (1, 1)
        TRAIN_ROW["leaveAt"] = "15:00"
        assert score(bookings()) == (0, 0)
    finally:
        TRAIN_ROW["leaveAt"] = "17:00"


def test_a_wrong_entity_or_a_missing_domain_fails_everything() -> None:
    ROWS[("restaurant", 2)] = {**RESTAURANT_ROW, "name": "other", "food": "chinese"}
    try:
        assert score(bookings(r_entity=2)) == (0, 0)
    finally:
        del ROWS[("restaurant", 2)]
    assert score(bookings()[:1]) == (0, 0)


def test_the_latest_booking_of_a_domain_counts() -> None:
    wrong_first = [{**bookings()[0], "people": 2}, *bookings()]
    assert score(wrong_first) == (1, 1)
    assert score([*bookings(), {**bookings()[0], "people": 2}]) == (1, 0)


def test_aborts_and_the_turn_cap_score_zero() -> None:
    assert score(bookings(), aborted=True) == (0, 0)
    assert score(bookings(), turns=15) == (0, 0)
    assert score(bookings(), turns=14) == (1, 1)


def test_averages_over_tasks_and_as_clemtodd_per_domain_group() -> None:
    got = averages([("hotel", 1.0), ("hotel", 0.0), ("train", 1.0)])
    assert got["tasks"] == 2 / 3
    assert got["clemtodd"] == (0.5 + 1.0) / 2
    assert averages([]) == {"tasks": None, "clemtodd": None}
