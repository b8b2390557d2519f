"""Issue 27: bounds that resolve what customers mean.

1. ``earliest``/``latest`` on time slots (a range may cross midnight), checked when a value is given and
   named in words by the slot's ``invalid`` message; bounds of the wrong form are refused with their path.
2. No silent change: a value over ``max_length``, outside bounds or off its pattern is refused, never cut.
3. A clock time without am/pm takes the reading inside the hours (asked when both fit, refused when none).
4. ``not_past_with``/``lead_minutes``: a date slot and a time slot make a moment that is not in the past.
"""

from __future__ import annotations

import datetime as dt
import json
import subprocess
import sys
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fsmdial.errors import FlowError
from fsmdial.language import clock_readings, parse_date, parse_yes_no
from fsmdial.loader import load_flow
from fsmdial.runtime import Dialogue
from fsmdial.understand.constraint.grounding import typed_candidates
from fsmdial.values import InvalidValue, coerce

FRIDAY_EVENING = dt.datetime(2025, 6, 13, 18, 30)


def time_flow(invalid: str | None = "We're open {earliest} to {latest}.", **slot: Any) -> dict[str, Any]:
    time = {"name": "time", "type": "time", **slot}
    if invalid is not None:
        time["invalid"] = invalid
    return {
        "name": "hours",
        "nodes": [
            {"id": "ask", "type": "request", "slots": [time]},
            {"id": "done", "type": "end", "message": "At {time:%H:%M}."},
        ],
        "edges": [{"source": "ask", "target": "done"}],
    }


def booking_flow(lead: int = 0, hours: tuple[str, str] = ("08:00", "22:00")) -> dict[str, Any]:
    time: dict[str, Any] = {
        "name": "time",
        "type": "time",
        "earliest": hours[0],
        "latest": hours[1],
        "not_past_with": "day",
        "invalid": "Open {earliest} to {latest}, and not in the past.",
    }
    if lead:
        time["lead_minutes"] = lead
    return {
        "name": "booking",
        "nodes": [
            {"id": "ask_day", "type": "request", "slots": [{"name": "day", "type": "date", "invalid": "Another day?"}]},
            {"id": "ask_time", "type": "request", "slots": [time]},
            {"id": "done", "type": "end", "message": "{day:%Y-%m-%d} at {time:%H:%M}."},
        ],
        "edges": [{"source": "ask_day", "target": "ask_time"}, {"source": "ask_time", "target": "done"}],
    }


def dialogue(doc: dict[str, Any], now: dt.datetime = FRIDAY_EVENING) -> Dialogue:
    d = Dialogue(load_flow(doc), clock=lambda: now)
    d.start()
    return d


def issues_of(doc: Any) -> str:
    with pytest.raises(FlowError) as caught:
        load_flow(doc)
    return str(caught.value)


# ------------------------------------------------------------ 1. hours on time slots


def test_a_time_outside_the_hours_is_refused_with_the_bounds_in_words() -> None:
    d = dialogue(time_flow(earliest="08:00", latest="18:00"))
    result = d.turn("7pm")
    assert result.node == "ask" and "We're open 8 am to 6 pm." in result.messages
    assert "time" not in d.slots
    assert d.turn("5:15 pm").messages == ["At 17:15."]


def test_the_hours_may_cross_midnight() -> None:
    slot = load_flow(time_flow(earliest="18:00", latest="02:00")).slots()["time"]
    assert coerce(slot, "1am", FRIDAY_EVENING) == "01:00"
    assert coerce(slot, "23:30", FRIDAY_EVENING) == "23:30"
    assert coerce(slot, "midnight", FRIDAY_EVENING) == "00:00"
    for outside in ("3am", "17:59", "noon"):
        with pytest.raises(InvalidValue, match="outside the hours, between 6 pm and 2 am"):
            coerce(slot, outside, FRIDAY_EVENING)


def test_the_hours_are_not_checked_when_a_snapshot_is_read() -> None:
    doc = time_flow(earliest="08:00", latest="18:00")
    d = dialogue(doc)
    assert d.turn("9am").node == "done"
    snapshot = json.loads(d.snapshot())
    snapshot["slots"]["time"] = "20:00"  # given when the hours were others: a saved session still loads
    restored = Dialogue.restore(load_flow(doc), json.dumps(snapshot), clock=lambda: FRIDAY_EVENING)
    assert restored.slots["time"] == "20:00"


@pytest.mark.parametrize("bound", ["8am", "8:00", "24:00", "08:60", "08:00\n", "today"])
def test_time_bounds_of_the_wrong_form_are_refused_with_their_path(bound: str) -> None:
    issues = issues_of(time_flow(earliest=bound))
    assert "nodes[0](ask).slots[0]" in issues and f"time bound {bound!r} is not HH:MM" in issues


def test_fsmdial_validate_names_the_slot_with_a_bad_bound(tmp_path: Any) -> None:
    path = tmp_path / "hours.json"
    path.write_text(json.dumps(time_flow(latest="6pm")))
    run = subprocess.run([sys.executable, "-m", "fsmdial", "validate", str(path)], capture_output=True, text=True)
    assert run.returncode == 1
    assert "slots[0]" in run.stdout + run.stderr and "'6pm' is not HH:MM" in run.stdout + run.stderr


def test_the_bound_placeholders_are_the_slots_own_and_checked() -> None:
    assert "{latest} is bound to nothing" in issues_of(time_flow(invalid="Until {latest}.", earliest="08:00"))
    issues = issues_of(time_flow(invalid=None, earliest="08:00", ask="Open from {earliest}: when?"))
    assert "{earliest} is bound to nothing" in issues  # only the invalid message names the bounds
    date_doc = time_flow(invalid=None)
    date_doc["nodes"][0]["slots"] = [
        {
            "name": "day",
            "type": "date",
            "earliest": "today",
            "latest": "2025-06-30",
            "invalid": "Any day from {earliest} to {latest}.",
        }
    ]
    date_doc["nodes"][1]["message"] = "{day:%Y-%m-%d}"
    d = dialogue(date_doc)
    assert "Any day from Friday 13 June 2025 to Monday 30 June 2025." in d.turn("July 4").messages


def test_the_moment_rule_names_a_date_slot() -> None:
    doc = booking_flow()
    doc["nodes"][1]["slots"][0]["not_past_with"] = "time"
    assert "slots.time.not_past_with: 'time' is not a date slot of the flow" in issues_of(doc)
    assert "only apply to time slots" in issues_of(time_flow(invalid=None, type="date", not_past_with="day"))
    assert "'lead_minutes' needs 'not_past_with'" in issues_of(time_flow(invalid=None, lead_minutes=30))


# ------------------------------------------------------------ 2. no silent change


def test_an_over_long_name_is_refused_whole_never_cut() -> None:
    doc = time_flow(invalid=None)
    doc["nodes"][0]["slots"] = [{"name": "pet_name", "max_length": 20, "invalid": "A shorter name, please."}]
    doc["nodes"][1]["message"] = "{pet_name}"
    d = dialogue(doc)
    result = d.turn("Reginald Fluffington-Smythe Bartholomew")
    assert "A shorter name, please." in result.messages and "pet_name" not in d.slots
    # a sentence is no name at all: asked again, never stored (cut or whole)
    result = d.turn("ok, then I'll bring him in. My name is Peter Novak")
    assert "pet_name" not in d.slots and result.acts[-1].slot == "pet_name"
    assert d.turn("Rex").messages == ["Rex"]


SLOTS: list[dict[str, Any]] = [
    {"name": "s", "type": "string", "max_length": 12},
    {"name": "s", "type": "string", "pattern": "[A-Z]{2}[0-9]{3}"},
    {"name": "s", "type": "integer", "minimum": 1, "maximum": 20},
    {"name": "s", "type": "number", "minimum": 0.5, "maximum": 99.5},
    {"name": "s", "type": "boolean"},
    {"name": "s", "type": "categorical", "values": ["Red", "Green", "O+"]},
    {"name": "s", "type": "date", "earliest": "today", "latest": "today+30"},
    {"name": "s", "type": "time", "earliest": "08:00", "latest": "18:00"},
    {"name": "s", "type": "time", "earliest": "18:00", "latest": "02:00"},
]
WORDS = st.one_of(
    st.text(max_size=40),
    st.sampled_from(
        [
            "7:45",
            "at 4",
            "12:30",
            "tomorrow",
            "June 20",
            "red",
            "o+",
            "yes",
            "no",
            "AB123",
            "3",
            "19.5",
            "2025-06-14",
            "ab123",
            "Peter Novak the third",
        ]
    ),
)


def _said(slot: dict[str, Any], text: str) -> set[Any]:
    """What ``text`` says for the slot after type normalisation (any reading of it)."""
    kind, stripped = slot["type"], text.strip()
    if kind == "string":
        return {stripped}
    if kind == "time":
        return set(clock_readings(text)) | ({text} if len(text) == 5 and text[2] == ":" else set())
    if kind == "date":
        return {parse_date(text, FRIDAY_EVENING), text}
    if kind == "boolean":
        answer = parse_yes_no(text) or {"true": "yes", "false": "no"}.get(stripped.lower())
        return {{"yes": True, "no": False}.get(answer or "")}
    if kind == "categorical":
        return {v for v in slot["values"] if v.casefold() == " ".join(stripped.split()).casefold()}
    from fsmdial.language import find_numbers

    return set(find_numbers(text))


@pytest.mark.parametrize("slot_doc", SLOTS, ids=lambda s: f"{s['type']}-{'-'.join(map(str, list(s.values())[2:]))}")
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=WORDS)
def test_a_stored_value_is_what_was_said_or_nothing(slot_doc: dict[str, Any], text: str) -> None:
    doc = time_flow(invalid=None)
    doc["nodes"][0]["slots"] = [slot_doc]
    doc["nodes"][1]["message"] = "Got it."
    slot = load_flow(doc).slots()["s"]
    try:
        value = coerce(slot, text, FRIDAY_EVENING)
    except InvalidValue:
        value = None
    if value is not None:
        assert value in _said(slot_doc, text)
        if slot_doc["type"] == "string":
            assert len(value) <= slot.string_limit
    d = dialogue(doc)
    d.turn(text)
    if "s" in d.slots:  # through the rules: a value of the (cleaned) text, never a changed one
        stored, cleaned = d.slots["s"], d.history[1][1]
        if slot_doc["type"] == "string":
            assert stored in cleaned and len(stored) <= slot.string_limit
        else:
            assert coerce(slot, stored, FRIDAY_EVENING) == stored


# ------------------------------------------------------------ 3. readings resolved by the hours

DAYTIME = {
    1: "13:30",
    2: "14:30",
    3: "15:30",
    4: "16:30",
    5: "17:30",
    6: None,
    7: None,
    8: "08:30",
    9: "09:30",
    10: "10:30",
    11: "11:30",
    12: "12:30",
}
"""'H:30' against 08:00-18:00 (across noon): the one reading inside, or None."""
NIGHT = {
    1: "01:30",
    2: None,
    3: None,
    4: None,
    5: None,
    6: "18:30",
    7: "19:30",
    8: "20:30",
    9: "21:30",
    10: "22:30",
    11: "23:30",
    12: "00:30",
}
"""'H:30' against 18:00-02:00 (across midnight)."""


@pytest.mark.parametrize(("hours", "expected"), [(("08:00", "18:00"), DAYTIME), (("18:00", "02:00"), NIGHT)])
@pytest.mark.parametrize("hour", range(1, 13))
def test_a_clock_time_takes_the_reading_inside_the_hours(
    hours: tuple[str, str], expected: dict[int, Any], hour: int
) -> None:
    d = dialogue(time_flow(earliest=hours[0], latest=hours[1]))
    result = d.turn(f"{hour}:30")
    if expected[hour] is None:
        assert result.node == "ask" and any(m.startswith("We're open") for m in result.messages)
    else:
        assert result.messages == [f"At {expected[hour]}."]
    bare = dialogue(time_flow(earliest=hours[0], latest=hours[1])).turn(f"at {hour}")  # "at 4": the same
    on_the_hour = expected[hour] and expected[hour].replace(":30", ":00")
    if on_the_hour and (hours[0] <= on_the_hour <= hours[1] or hours[0] > hours[1]):
        assert bare.messages == [f"At {on_the_hour}."]


def test_when_both_readings_fit_the_bot_asks_and_reads_the_answer() -> None:
    d = dialogue(time_flow(earliest="06:00", latest="22:00"))
    result = d.turn("7:45")
    assert "7:45 in the morning or in the evening?" in result.messages
    assert "time" not in d.slots and d.retries.get("time") is None
    assert d.turn("in the evening").messages == ["At 19:45."]
    again = dialogue(time_flow(earliest="06:00", latest="22:00"))
    again.turn("at 9")
    assert again.turn("morning please").messages == ["At 09:00."]


def test_a_slot_without_hours_asks_a_clock_time_without_am_pm_and_takes_a_24_hour_one_as_written() -> None:
    # (was: "7:45" read as 07:45 with no hours; issue 34: no hours settle it, so it is asked, as "at 7" is)
    d = dialogue(time_flow(invalid=None))
    assert d.turn("7:45").messages == ["7:45 in the morning or in the evening?"]
    assert d.turn("in the morning").messages == ["At 07:45."]
    for said, stored in (("07:45", "07:45"), ("19:45", "19:45"), ("10:00", "10:00"), ("7:45 pm", "19:45")):
        assert dialogue(time_flow(invalid=None)).turn(said).messages == [f"At {stored}."]


def test_the_model_path_is_offered_the_time_as_written_and_coerce_resolves_it() -> None:
    slot = load_flow(time_flow(earliest="08:00", latest="18:00")).slots()["time"]
    offered = typed_candidates(slot, "see you at 4", FRIDAY_EVENING)
    assert set(offered.values()) == {"4:00 (12-hour clock)"}  # the model picks a span, never a reading
    assert coerce(slot, "4:00 (12-hour clock)", FRIDAY_EVENING) == "16:00"


# ------------------------------------------------------------ 4. not in the past


def test_a_time_already_past_today_is_asked_again() -> None:
    d = dialogue(booking_flow())
    d.turn("today")
    result = d.turn("10 am")
    assert result.node == "ask_time" and "Open 8 am to 10 pm, and not in the past." in result.messages
    assert d.turn("at 7").messages == ["2025-06-13 at 19:00."]  # 07:00 has passed: the evening


def test_the_lead_time_is_kept() -> None:
    d = dialogue(booking_flow(lead=30))
    d.turn("today")
    assert d.turn("6:45 pm").node == "ask_time"
    assert d.turn("7:15 pm").messages == ["2025-06-13 at 19:15."]


def test_a_day_with_no_time_left_is_asked_again() -> None:
    d = dialogue(booking_flow(hours=("08:00", "18:00")))
    result = d.turn("today")
    assert result.node == "ask_day" and "Another day?" in result.messages
    assert d.turn("tomorrow").node == "ask_time"
    assert d.turn("at 10").messages == ["2025-06-14 at 10:00."]  # tomorrow, 10:00 is ahead


def test_date_and_time_in_one_message_are_checked_together() -> None:
    d = dialogue(booking_flow())
    assert "22:00" in d.turn("today at 10:00").messages[-1]  # 10:00 has passed, 22:00 has not
    d = dialogue(booking_flow())
    result = d.turn("today at 10 am")
    assert "time" not in d.slots and "Open 8 am to 10 pm, and not in the past." in result.messages


# ------------------------------------------------------------ 5. the example flow declares its hours


@pytest.mark.parametrize(
    ("said", "time"),
    [("at 7", "19:00"), ("7:45", "19:45"), ("tomorrow at 4", "16:00"), ("10:15", "22:15"), ("12:30 tomorrow", "12:30")],
)
def test_the_restaurant_reads_bare_hours_by_its_opening_hours(said: str, time: str) -> None:
    from pathlib import Path

    flow = load_flow(Path(__file__).parent.parent / "flows" / "restaurant_booking.json")
    d = Dialogue(flow, clock=lambda: FRIDAY_EVENING, stand_in_tools=True)
    d.start()
    d.turn("a table for 2 today")
    d.turn(said)
    assert d.slots["time"] == time


def test_the_restaurant_refuses_a_time_already_past() -> None:
    from pathlib import Path

    flow = load_flow(Path(__file__).parent.parent / "flows" / "restaurant_booking.json")
    d = Dialogue(flow, clock=lambda: FRIDAY_EVENING, stand_in_tools=True)
    d.start()
    result = d.turn("a table for 2 today at 4")
    assert "time" not in d.slots
    assert any(m.startswith("We seat guests from noon to 10:30 pm") for m in result.messages)


def test_a_new_date_that_puts_the_held_time_in_the_past_asks_the_time_again() -> None:
    d = Dialogue(load_flow(_confirming(booking_flow())), clock=lambda: FRIDAY_EVENING)
    d.start()
    d.turn("tomorrow")
    assert d.turn("10 am").node == "check"
    result = d.turn("no, make it today")
    assert d.slots == {"day": "2025-06-13"} and "Open 8 am to 10 pm, and not in the past." in result.messages
    assert d.node == "ask_time"
    assert d.turn("8pm").node == "check" and d.slots == {"day": "2025-06-13", "time": "20:00"}


def _confirming(doc: dict[str, Any]) -> dict[str, Any]:
    doc["nodes"][-1] = {"id": "check", "type": "inform_and_confirm", "question": "{day:%Y-%m-%d} at {time:%H:%M}?"}
    doc["nodes"].append({"id": "done", "type": "end", "message": "Booked."})
    doc["edges"] = [
        {"source": "ask_day", "target": "ask_time"},
        {"source": "ask_time", "target": "check"},
        {"source": "check", "target": "done", "when": {"answer": "yes"}},
    ]
    return doc


@pytest.mark.parametrize(
    ("said", "readings"),
    [
        ("at 4", ("04:00", "16:00")),
        ("by 5", ("05:00", "17:00")),
        ("at around 7", ("07:00", "19:00")),
        ("12:30", ("12:30", "00:30")),
        ("7:45 in the evening", ("19:45",)),
        ("12:30 at night", ("00:30",)),
        ("9 at night", ("21:00",)),
        ("at 9 at night", ("21:00",)),
        ("07:45", ("07:45",)),
        ("7pm", ("19:00",)),
        ("about 4", ()),
        ("at 4 people", ()),
        ("table for 4", ()),
    ],
)
def test_the_readings_of_a_clock_time(said: str, readings: tuple[str, ...]) -> None:
    assert clock_readings(said) == readings  # "about 4" answers "how many?" as often as "when?": no time
