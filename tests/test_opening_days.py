"""Issue 34, item 7: opening days and closed dates on a date slot.

``open_days`` (weekday names) and ``closed_dates`` (ISO dates) are applied like ``earliest``/``latest``: a weekday
or a day of the month said alone resolves to the next open one inside the bounds, a day that falls on a closed
weekday or a closed date is refused with a sentence naming the opening days (asked again, as any refused value),
and a stored value is not checked against them again (a snapshot). ``fsmdial validate`` refuses them written
wrongly and warns about closed dates that never matter.
"""

from __future__ import annotations

import datetime as dt
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fsmdial.errors import FlowError
from fsmdial.flow import Slot, flow_warnings
from fsmdial.language import WEEKDAYS
from fsmdial.loader import load_flow
from fsmdial.runtime import Dialogue
from fsmdial.slots import bound_words, open_day_words, open_on
from fsmdial.testing import ScriptedConversation
from fsmdial.tools import ToolRegistry
from fsmdial.values import InvalidValue, coerce

FRIDAY_NOON = dt.datetime(2025, 6, 13, 12, 0)
TUESDAY_TO_SATURDAY = ["tuesday", "wednesday", "thursday", "friday", "saturday"]
CLOSED_ON_MONDAYS = "We're closed on Mondays: we're open Tuesday to Saturday. Which day suits you?"


def date_flow(**slot: Any) -> dict[str, Any]:
    return {
        "name": "shop",
        "nodes": [
            {"id": "ask", "type": "request", "slots": [{"name": "day", "type": "date", **slot}]},
            {"id": "done", "type": "end", "message": "See you on {day:%Y-%m-%d}."},
        ],
        "edges": [{"source": "ask", "target": "done"}],
    }


def shop_slot(**slot: Any) -> Slot:
    return load_flow(date_flow(**{"open_days": TUESDAY_TO_SATURDAY, **slot})).slots()["day"]


def dialogue(doc: dict[str, Any], now: dt.datetime = FRIDAY_NOON) -> Dialogue:
    d = Dialogue(load_flow(doc), clock=lambda: now)
    d.start()
    return d


def issues_of(doc: dict[str, Any]) -> str:
    with pytest.raises(FlowError) as caught:
        load_flow(doc)
    return str(caught.value)


# ------------------------------------------------------------ the flow format


def test_a_date_slot_declares_its_open_days_and_closed_dates() -> None:
    slot = shop_slot(open_days=["Tuesday", "WEDNESDAY", "thursday", "friday", "saturday"], closed_dates=["2025-12-25"])
    assert slot.open_days == ["Tuesday", "WEDNESDAY", "thursday", "friday", "saturday"]  # as written, any case
    assert slot.closed_dates == ["2025-12-25"]
    assert open_on(slot, dt.date(2025, 6, 17)) and not open_on(slot, dt.date(2025, 6, 16))  # Tuesday, Monday
    assert not open_on(slot, dt.date(2025, 12, 25))  # a Thursday, but closed
    assert flow_warnings(load_flow(date_flow(open_days=TUESDAY_TO_SATURDAY, closed_dates=["2025-12-25"]))) == []


def test_the_published_schema_describes_both_options() -> None:
    schema = json.loads((Path(__file__).parent.parent / "fsmdial" / "flow.schema.json").read_text())
    slot = schema["$defs"]["Slot"]["properties"]
    assert "tuesday" in slot["open_days"]["description"] and "YYYY-MM-DD" in slot["closed_dates"]["description"]


@pytest.mark.parametrize(
    ("declared", "problem"),
    [
        ({"open_days": ["tuesday", "tusday"]}, "open_days: 'tusday' is not a weekday (monday, tuesday,"),
        ({"open_days": ["monday", "Monday"]}, "open_days: 'Monday' is listed twice"),
        ({"open_days": []}, "open_days: no open day, so no date is allowed"),
        ({"open_days": ["funday"]}, "open_days: no open day"),
        ({"closed_dates": ["2026-12-25", "2026-12-25"]}, "closed_dates: '2026-12-25' is listed twice"),
        ({"closed_dates": ["2026-02-30"]}, "closed_dates: '2026-02-30' is not a date YYYY-MM-DD"),
        ({"closed_dates": ["25/12/2026"]}, "closed_dates: '25/12/2026' is not a date YYYY-MM-DD"),
        ({"closed_dates": ["today"]}, "closed_dates: 'today' is not a date YYYY-MM-DD"),
        (
            {"open_days": ["monday"], "earliest": "2026-06-02", "latest": "2026-06-07"},
            "no day from earliest '2026-06-02' to latest '2026-06-07' is open",
        ),
        (
            {"open_days": ["monday"], "earliest": "2026-06-01", "latest": "2026-06-01", "closed_dates": ["2026-06-01"]},
            "no day from earliest '2026-06-01' to latest '2026-06-01' is open",
        ),
    ],
)
def test_open_days_and_closed_dates_written_wrongly_are_refused_naming_the_slot(
    declared: dict[str, Any], problem: str
) -> None:
    issues = issues_of(date_flow(**declared))
    assert "nodes[0](ask).slots[0]: slot 'day': " in issues and problem in issues


def test_every_problem_of_the_options_is_said_at_once() -> None:
    issues = issues_of(date_flow(open_days=["tusday", "friday"], closed_dates=["2026-13-01"]))
    assert "'tusday' is not a weekday" in issues and "'2026-13-01' is not a date" in issues


@pytest.mark.parametrize("kind", ["time", "text", "integer"])
@pytest.mark.parametrize("option", [{"open_days": ["monday"]}, {"closed_dates": ["2026-12-25"]}])
def test_open_days_on_a_slot_that_is_not_a_date_is_an_error_naming_the_slot(kind: str, option: dict[str, Any]) -> None:
    doc = date_flow(**option)
    doc["nodes"][0]["slots"][0] |= {"name": "drop_off", "type": kind}
    doc["nodes"][1]["message"] = "Done."
    issues = issues_of(doc)
    assert f"slot 'drop_off': 'open_days'/'closed_dates' only apply to date slots, not {kind}" in issues


@pytest.mark.parametrize(
    ("declared", "warning"),
    [
        (
            {"earliest": "2026-01-01", "closed_dates": ["2025-12-25"]},
            "closed date 2025-12-25 is before earliest 2026-01-01",
        ),
        (
            {"latest": "2026-06-30", "closed_dates": ["2026-07-01", "2026-06-30"]},
            "closed date 2026-07-01 is after latest 2026-06-30",
        ),
        (
            {"open_days": TUESDAY_TO_SATURDAY, "closed_dates": ["2026-12-27"]},
            "closed date 2026-12-27 is a Sunday, not one of the open days (Tuesday to Saturday)",
        ),
    ],
)
def test_closed_dates_that_never_matter_are_warned_about(declared: dict[str, Any], warning: str) -> None:
    warnings = [str(w) for w in flow_warnings(load_flow(date_flow(**declared)))]
    assert warnings == [f"node ask.slots.day.closed_dates: {warning}: that day is refused anyway"], warnings


def test_closed_dates_against_bounds_from_today_are_not_warned_about() -> None:
    # A bound read on the dialogue's clock moves: a closed date is not outside it at every run.
    doc = date_flow(earliest="today", latest="today+30", closed_dates=["2020-01-01", "2099-01-01"])
    assert flow_warnings(load_flow(doc)) == []


def test_fsmdial_validate_refuses_and_warns(tmp_path: Path) -> None:
    def validate(doc: dict[str, Any]) -> subprocess.CompletedProcess[str]:
        path = tmp_path / "shop.json"
        path.write_text(json.dumps(doc))
        return subprocess.run(
            [sys.executable, "-m", "fsmdial", "validate", str(path)], capture_output=True, text=True, timeout=120
        )

    wrong = validate(date_flow(open_days=["tuesday", "saturdy"]))
    assert wrong.returncode == 1 and "slot 'day': open_days: 'saturdy' is not a weekday" in wrong.stdout + wrong.stderr
    warned = validate(date_flow(open_days=TUESDAY_TO_SATURDAY, latest="2026-12-31", closed_dates=["2027-01-01"]))
    assert warned.returncode == 0, warned.stdout + warned.stderr
    assert (
        "warning: node ask.slots.day.closed_dates: closed date 2027-01-01 is after latest 2026-12-31" in warned.stderr
    )


# ------------------------------------------------------------ resolution inside the open days


@pytest.mark.parametrize(
    ("said", "day"),
    [
        ("Saturday", "2025-06-14"),
        ("Tuesday", "2025-06-17"),
        ("the 14th", "2025-06-14"),  # a Saturday: open
        ("the 16th", "2025-07-16"),  # June 16 is a Monday: July 16, a Wednesday, is the next open 16th
        ("the 15th", "2025-07-15"),  # June 15 is a Sunday
        ("tomorrow", "2025-06-14"),
        ("Tuesday next week", "2025-06-17"),
        ("Friday next week", "2025-06-20"),
        ("next Thursday", "2025-06-19"),
        ("today", "2025-06-13"),
        ("2025-06-18", "2025-06-18"),
    ],
)
def test_a_day_said_resolves_inside_the_open_days(said: str, day: str) -> None:
    assert coerce(shop_slot(earliest="today", latest="today+90"), said, FRIDAY_NOON) == day


@pytest.mark.parametrize("said", ["Monday", "Sunday", "next Monday", "Monday next week", "2025-06-16", "June 15"])
def test_a_day_on_a_closed_weekday_is_refused_naming_the_opening_days(said: str) -> None:
    with pytest.raises(InvalidValue) as refused:
        coerce(shop_slot(earliest="today"), said, FRIDAY_NOON)
    closed = "Mondays" if "Monday" in said or said.endswith("16") else "Sundays"
    assert refused.value.sentence == (f"We're closed on {closed}: we're open Tuesday to Saturday. Which day suits you?")
    assert f"closed on {closed}, open Tuesday to Saturday" in refused.value.message


def test_today_on_a_closed_day_is_refused_the_same_way() -> None:
    sunday = dt.datetime(2025, 6, 15, 10, 0)
    d = dialogue(date_flow(open_days=TUESDAY_TO_SATURDAY, earliest="today"), now=sunday)
    result = d.turn("today")
    assert result.messages[0] == "We're closed on Sundays: we're open Tuesday to Saturday. Which day suits you?"
    assert result.node == "ask" and "day" not in d.slots
    assert d.turn("tomorrow").node == "ask"  # a Monday: refused too
    assert d.turn("Tuesday").messages == ["See you on 2025-06-17."]


def test_a_weekday_skips_a_closed_date_to_the_next_open_one() -> None:
    slot = shop_slot(closed_dates=["2025-06-14"])  # the coming Saturday
    assert coerce(slot, "Saturday", FRIDAY_NOON) == "2025-06-21"
    assert coerce(slot, "the 14th", FRIDAY_NOON) == "2025-08-14"  # July 14 is a Monday
    with pytest.raises(InvalidValue) as refused:
        coerce(slot, "tomorrow", FRIDAY_NOON)  # the closed date itself
    assert refused.value.sentence == "We're closed on Saturday 14 June 2025. Which other day suits you?"


def test_a_weekday_with_no_open_one_inside_the_bounds_is_refused() -> None:
    slot = shop_slot(earliest="today", latest="today+5", closed_dates=["2025-06-14"])
    with pytest.raises(InvalidValue) as refused:
        coerce(slot, "Saturday", FRIDAY_NOON)  # the only Saturday inside is closed
    assert "closed date" in refused.value.message
    with pytest.raises(InvalidValue, match="after the latest allowed date"):
        coerce(slot, "Saturday next week", FRIDAY_NOON)  # the bounds are said first


def test_closed_dates_alone_leave_every_weekday_open() -> None:
    slot = load_flow(date_flow(closed_dates=["2025-12-25", "2025-12-26"])).slots()["day"]
    assert coerce(slot, "Sunday", FRIDAY_NOON) == "2025-06-15"
    assert coerce(slot, "December 24", FRIDAY_NOON) == "2025-12-24"
    for said in ("December 25", "12/26"):
        with pytest.raises(InvalidValue, match="is a closed date"):
            coerce(slot, said, FRIDAY_NOON)
    d = dialogue(date_flow(closed_dates=["2025-12-25"]))
    assert d.turn("Christmas, so December 25").messages[0] == (
        "We're closed on Thursday 25 December 2025. Which other day suits you?"
    )


def test_a_time_on_the_date_takes_the_next_open_day_that_is_not_too_late() -> None:
    # Saturday 17:45, after the hours: "Saturday" is the next Saturday, but that one is closed: the one after.
    doc = date_flow(open_days=TUESDAY_TO_SATURDAY, closed_dates=["2025-06-21"])
    doc["nodes"][0]["slots"].append(
        {"name": "time", "type": "time", "earliest": "09:00", "latest": "17:30", "not_past_with": "day"}
    )
    doc["nodes"][1]["message"] = "See you on {day:%Y-%m-%d} at {time:%H:%M}."
    d = dialogue(doc, now=dt.datetime(2025, 6, 14, 17, 45))
    assert d.turn("Saturday at 10am").messages == ["See you on 2025-06-28 at 10:00."]


def test_the_opening_hours_of_a_time_slot_are_unchanged() -> None:
    doc = date_flow(open_days=TUESDAY_TO_SATURDAY)
    doc["nodes"][0]["slots"].append(
        {"name": "time", "type": "time", "earliest": "09:00", "latest": "17:30", "invalid": "From {earliest}."}
    )
    doc["nodes"][1]["message"] = "{day:%Y-%m-%d} {time:%H:%M}"
    d = dialogue(doc)
    assert d.turn("Saturday at 7pm").messages[0] == "From 9 am."
    assert d.turn("10am").messages == ["2025-06-14 10:00"]


# ------------------------------------------------------------ the refusal, in words


@pytest.mark.parametrize(
    ("days", "words"),
    [
        (TUESDAY_TO_SATURDAY, "Tuesday to Saturday"),
        (["monday", "wednesday", "friday"], "Monday, Wednesday and Friday"),
        (["friday", "saturday", "sunday", "monday"], "Friday to Monday"),
        (["saturday", "sunday"], "Saturday and Sunday"),
        (["sunday", "monday", "tuesday", "thursday", "friday", "saturday"], "Thursday to Tuesday"),
        (["monday", "tuesday", "thursday", "friday", "saturday"], "Monday, Tuesday and Thursday to Saturday"),
        (["wednesday"], "Wednesday"),
        (list(WEEKDAYS), "every day"),
    ],
)
def test_the_open_days_in_words(days: list[str], words: str) -> None:
    slot = shop_slot(open_days=days)
    assert open_day_words(slot) == words
    assert bound_words(slot, FRIDAY_NOON) == {"open_days": words}


def test_a_closed_day_is_said_through_the_refusal_of_any_invalid_value() -> None:
    d = dialogue(date_flow(open_days=TUESDAY_TO_SATURDAY))
    result = d.turn("Monday")
    assert result.messages == [CLOSED_ON_MONDAYS]  # it asks which day itself: the slot's question is not asked again
    assert result.act_names[0] == "invalid_day" and d.session.retries == {"day": 1}
    invalid = result.trace.invalid
    assert invalid == [{"slot": "day", "value": "Monday (the next one)", "reason": invalid[0]["reason"]}]
    assert "closed on Mondays" in invalid[0]["reason"]


def test_a_closed_day_said_in_passing_is_the_turns_one_question() -> None:
    doc = date_flow(open_days=TUESDAY_TO_SATURDAY)
    doc["nodes"].insert(0, {"id": "who", "type": "request", "slots": [{"name": "name", "type": "person_name"}]})
    doc["edges"].insert(0, {"source": "who", "target": "ask"})
    d = dialogue(doc)
    result = d.turn("it's for Monday")  # the name is asked; the day said in passing is refused
    assert result.messages == [CLOSED_ON_MONDAYS]  # its own question ends the turn: no second one after it
    d.turn("Tuesday then")
    assert d.slots["day"] == "2025-06-17" and d.session.asked == "name"


def test_the_slots_invalid_message_may_name_the_open_days() -> None:
    doc = date_flow(open_days=TUESDAY_TO_SATURDAY, earliest="today", invalid="Open {open_days} from {earliest}.")
    d = dialogue(doc)
    assert d.turn("Sunday").messages[0] == "Open Tuesday to Saturday from Friday 13 June 2025."
    assert "{open_days} is bound to nothing" in issues_of(date_flow(invalid="Open {open_days}."))


def test_too_many_closed_days_escalate_like_any_refused_value() -> None:
    d = dialogue(date_flow(open_days=TUESDAY_TO_SATURDAY))
    for said in ("Monday", "Sunday"):
        assert not d.turn(said).ended
    assert d.turn("Monday").ended  # max_attempts (3) refused values in a row


# ------------------------------------------------------------ snapshots


def test_a_snapshot_restores_the_slots_value_even_on_a_day_now_closed() -> None:
    doc = date_flow(open_days=TUESDAY_TO_SATURDAY)
    d = dialogue(doc)
    assert d.turn("Saturday").messages == ["See you on 2025-06-14."]
    restored = Dialogue.restore(load_flow(doc), d.snapshot(), clock=lambda: FRIDAY_NOON)
    assert restored.slots == {"day": "2025-06-14"}
    # A value given when the days were others (a Monday) still loads: like the bounds, the open days hold on the
    # clock of the moment a value is given, not again when a saved session is read.
    snapshot = json.loads(d.snapshot())
    snapshot["slots"]["day"] = "2025-06-16"
    later = Dialogue.restore(load_flow(doc), json.dumps(snapshot), clock=lambda: dt.datetime(2025, 6, 14, 9))
    assert later.slots == {"day": "2025-06-16"}
    slot = load_flow(doc).slots()["day"]
    assert coerce(slot, "2025-06-16", FRIDAY_NOON, bounds=False) == "2025-06-16"
    with pytest.raises(InvalidValue):
        coerce(slot, "2025-06-16", FRIDAY_NOON)


# ------------------------------------------------------------ a property: never a closed day

OPEN_DAYS = st.sets(st.sampled_from(WEEKDAYS), min_size=1).map(sorted)
MOMENTS = st.datetimes(min_value=dt.datetime(2024, 1, 1), max_value=dt.datetime(2030, 12, 31))


@settings(max_examples=300, deadline=None)
@given(
    open_days=OPEN_DAYS,
    now=MOMENTS,
    said=st.sampled_from(WEEKDAYS),
    ahead=st.none() | st.integers(min_value=0, max_value=40),
    closed=st.lists(st.integers(min_value=0, max_value=30), max_size=4, unique=True),
)
def test_a_weekday_said_is_an_open_day_inside_the_bounds_or_refused(
    open_days: list[str], now: dt.datetime, said: str, ahead: int | None, closed: list[int]
) -> None:
    today = now.date()
    closed_dates = [(today + dt.timedelta(days=k)).isoformat() for k in closed]
    latest = {} if ahead is None else {"latest": f"today+{ahead}"}
    slot = shop_slot(open_days=open_days, earliest="today", closed_dates=closed_dates, **latest)
    last = today + dt.timedelta(days=366 if ahead is None else ahead)
    target = WEEKDAYS.index(said)
    expected = next(
        (
            day
            for k in range((last - today).days + 1)
            if (day := today + dt.timedelta(days=k)).weekday() == target
            and said in open_days
            and day.isoformat() not in closed_dates
        ),
        None,
    )
    try:
        value = coerce(slot, said.capitalize(), now)
    except InvalidValue as refused:
        assert expected is None, f"{said} refused on {today}, though {expected} is open: {refused.message}"
        return
    day = dt.date.fromisoformat(value)
    assert day.weekday() == target and WEEKDAYS[day.weekday()] in open_days and value not in closed_dates
    assert today <= day <= last and day == expected


# ------------------------------------------------------------ a conversation: the bike shop


def bike_shop() -> dict[str, Any]:
    """Open Tuesday to Saturday, 9:00 to 17:30: who, which day, what time, confirmed, booked."""
    return {
        "name": "bike_shop",
        "nodes": [
            {
                "id": "ask",
                "type": "request",
                "slots": [
                    {"name": "name", "type": "person_name", "ask": "What name should the booking be under?"},
                    {
                        "name": "day",
                        "type": "date",
                        "label": "drop-off day",
                        "earliest": "today",
                        "latest": "today+60",
                        "open_days": TUESDAY_TO_SATURDAY,
                        "closed_dates": ["2025-12-25", "2025-12-26"],
                        "ask": "Which day will you drop the bike off?",
                    },
                    {
                        "name": "time",
                        "type": "time",
                        "earliest": "09:00",
                        "latest": "17:30",
                        "not_past_with": "day",
                        "ask": "At what time?",
                    },
                ],
            },
            {
                "id": "confirm",
                "type": "inform_and_confirm",
                "message": "{name}, dropping off on {day} at {time}.",
                "question": "Shall I book it?",
            },
            {"id": "book", "type": "external_action", "tool": "book_repair", "commits": True, "arguments": {}},
            {"id": "booked", "type": "end", "message": "Booked! See you on {day}."},
        ],
        "edges": [
            {"source": "ask", "target": "confirm"},
            {"source": "confirm", "target": "book", "when": {"answer": "yes"}},
            {"source": "book", "target": "booked"},
        ],
    }


def test_the_bike_shop_refuses_monday_naming_its_days_then_books_tuesday() -> None:
    booked: list[dict[str, Any]] = []
    tools = ToolRegistry()
    tools.register("book_repair", lambda name, day, time: booked.append({"day": day, "time": time}) or {})
    doc = bike_shop()
    doc["nodes"][2]["arguments"] = {"name": "name", "day": "day", "time": "time"}
    talk = ScriptedConversation(Dialogue(load_flow(doc), tools=tools, clock=lambda: FRIDAY_NOON))
    talk.start(acts=["ask_name"])
    talk.say("I'm Sam Jones", acts=["ask_day"], slots={"name": "Sam Jones"})
    talk.say(
        "Monday please",
        acts=["invalid_day"],  # the refusal asks which day: the question is not asked a second time
        messages=[CLOSED_ON_MONDAYS],
        slots={"name": "Sam Jones"},
    )
    talk.say("Tuesday then", acts=["ask_time"], slots={"day": "2025-06-17"})
    talk.say(
        "10am",
        acts=["confirm"],
        messages=["Sam Jones, dropping off on Tuesday 17 June at 10 am. Shall I book it?"],
    )
    talk.say("yes", acts=["booked"], messages=["Booked! See you on Tuesday 17 June."], ended=True)
    assert booked == [{"day": "2025-06-17", "time": "10:00"}]
