"""Values in messages read as people write them: yes/no, "Saturday 28 November", "5:30 pm" (or "17:30").

The words come from the flow's locale (a small table per locale, ``en`` shipped); tool arguments and slots keep
their normal forms (``2026-11-28``, ``17:30``, ``true``). The ``clock`` fixture is Sunday 22 November 2026, noon.
"""

from __future__ import annotations

from typing import Any

import pytest

from fsmdial.errors import FlowError
from fsmdial.language import locales
from fsmdial.loader import load_flow
from fsmdial.runtime import Dialogue
from tests.flows import issues_of

SLOTS = [
    {"name": "bike", "type": "categorical", "values": ["road", "e-bike", "mountain"]},
    {"name": "day", "type": "date", "ask": "Which day?"},
    {"name": "time", "type": "time", "ask": "What time?", "earliest": "08:00", "latest": "18:00"},
    {"name": "courtesy", "type": "boolean", "ask": "Do you need a courtesy bike?"},
]


def repair_flow(message: str = "Courtesy bike: {courtesy}. See you on {day} at {time}.", **top: Any) -> Any:
    return load_flow(
        {
            "name": "repair",
            "nodes": [
                {"id": "ask", "type": "request", "slots": SLOTS},
                {"id": "book", "type": "external_action", "tool": "book", "commits": True,
                 "arguments": {"day": {"slot": "day"}, "time": {"slot": "time"}, "courtesy": {"slot": "courtesy"}},
                 "result": {"loaned": "boolean"}},
                {"id": "done", "type": "end", "message": message},
            ],
            "edges": [{"source": "ask", "target": "book"}, {"source": "book", "target": "done"}],
            **top,
        }
    )  # fmt: skip


class Workshop:
    def __init__(self) -> None:
        self.calls: list[dict[str, Any]] = []

    def book(self, **arguments: Any) -> dict[str, Any]:
        self.calls.append(arguments)
        return {"loaned": True}


def book(clock, flow: Any, *turns: str) -> tuple[Dialogue, Workshop, list[str]]:
    shop = Workshop()
    dialogue = Dialogue(flow, tools={"book": shop.book}, clock=clock)
    said = [dialogue.start().text]
    for text in turns:
        said.append(dialogue.turn(text).text)
    return dialogue, shop, said


def test_booleans_dates_and_times_read_as_words_and_tools_get_the_normal_forms(clock):
    dialogue, shop, said = book(clock, repair_flow(), "an e-bike on Saturday at 5:30pm", "yes please")
    assert said[-1] == "Courtesy bike: yes. See you on Saturday 28 November at 5:30 pm."
    assert shop.calls == [{"day": "2026-11-28", "time": "17:30", "courtesy": True}]
    assert dialogue.slots == {"bike": "e-bike", "day": "2026-11-28", "time": "17:30", "courtesy": True}


def test_a_date_of_another_year_names_the_year(clock):
    *_, said = book(clock, repair_flow(), "a road bike on 2 January at 9am", "no")
    assert said[-1] == "Courtesy bike: no. See you on Saturday 2 January 2027 at 9 am."


def test_the_year_is_the_session_clock_s_not_the_machine_s(clock):
    clock.set("2027-01-01T09:00")
    *_, said = book(clock, repair_flow(), "a road bike tomorrow at 9am", "no")
    assert said[-1] == "Courtesy bike: no. See you on Saturday 2 January at 9 am."


def test_a_24_hour_flow_says_17_30_and_noon_reads_by_the_clock(clock):
    *_, said = book(clock, repair_flow(clock="24h"), "an e-bike on Saturday at 5:30pm", "no")
    assert said[-1] == "Courtesy bike: no. See you on Saturday 28 November at 17:30."
    *_, said = book(clock, repair_flow(clock="12h"), "an e-bike on Saturday at noon", "no")
    assert said[-1] == "Courtesy bike: no. See you on Saturday 28 November at noon."
    *_, said = book(clock, repair_flow(clock="24h"), "an e-bike on Saturday at noon", "no")
    assert said[-1] == "Courtesy bike: no. See you on Saturday 28 November at 12:00."


@pytest.mark.parametrize(
    ("template", "shown"),
    [
        ("{day:%A %d %B}", "Saturday 05 December"),
        ("{day:%a %-d %b %Y}", "Sat 5 Dec 2026"),
        ("{day:%d/%m/%y}", "05/12/26"),
        ("{day:%-d.%-m.%Y}", "5.12.2026"),
        ("{time:%H:%M}", "08:05"),
        ("{time:%-H:%M}", "8:05"),
        ("{time:%-I:%M %p}", "8:05 am"),
        ("{time:%I%p}", "08am"),
        ("100%% sure: {day:%% %B}", "100%% sure: % December"),
        ("{courtesy:>4}|{courtesy:d}", " yes|1"),
        ("{result.loaned}", "yes"),
    ],
)
def test_format_specs_for_dates_times_and_booleans(clock, template, shown):
    *_, said = book(clock, repair_flow(template), "a road bike on 5 December at 8:05am", "yes")
    assert said[-1] == shown


def test_a_correction_is_acknowledged_in_words(clock):
    dialogue, _, _ = book(clock, repair_flow(), "a road bike on Saturday at 5pm")
    assert dialogue.turn("actually make it Friday").text.startswith("OK, I changed the day to Friday 27 November.")
    assert dialogue.turn("actually at 4pm").text.startswith("OK, I changed the time to 4 pm.")


def test_a_field_confirmation_shows_the_value_in_words(clock):
    slots = [dict(slot, confirm=True) if slot["name"] == "day" else slot for slot in SLOTS]
    flow = repair_flow().model_dump(mode="json", by_alias=True, exclude_defaults=True)
    flow["nodes"][0]["slots"] = slots
    dialogue = Dialogue(load_flow(flow), tools={"book": Workshop().book}, clock=clock)
    dialogue.start()
    assert dialogue.turn("a road bike on Saturday").text == "Just to confirm: the day is Saturday 28 November, right?"


def test_the_words_come_from_the_locale_table(clock, monkeypatch):
    german = locales.Locale(
        code="de",
        yes="ja",
        no="nein",
        weekdays=("Montag", "Dienstag", "Mittwoch", "Donnerstag", "Freitag", "Samstag", "Sonntag"),
        weekdays_short=("Mo", "Di", "Mi", "Do", "Fr", "Sa", "So"),
        months=(
            "Januar", "Februar", "März", "April", "Mai", "Juni",
            "Juli", "August", "September", "Oktober", "November", "Dezember",
        ),
        months_short=("Jan", "Feb", "Mär", "Apr", "Mai", "Jun", "Jul", "Aug", "Sep", "Okt", "Nov", "Dez"),
        am="vorm.",
        pm="nachm.",
        noon=None,
        midnight=None,
        clock="24h",
        date="{weekday}, {day}. {month}",
        date_with_year="{weekday}, {day}. {month} {year}",
        time_24="{hour}:{minute:02d} Uhr",
    )  # fmt: skip
    monkeypatch.setitem(locales.LOCALES, "de", german)
    flow = repair_flow("Leihrad: {courtesy}. Bis {day} um {time} ({day:%a %-d %b}, {time:%-I %p}).", locale="de")
    *_, said = book(clock, flow, "an e-bike on Saturday at 5:30pm", "yes")
    assert said[-1] == "Leihrad: ja. Bis Samstag, 28. November um 17:30 Uhr (Sa 28 Nov, 5 nachm.)."
    *_, said = book(clock, repair_flow(locale="de", clock="12h"), "a road bike on 2 January at 9:15am", "no")
    assert said[-1] == "Courtesy bike: nein. See you on Samstag, 2. Januar 2027 at 9:15 vorm.."


def test_english_is_the_default_and_its_clock_is_12_hour():
    flow = repair_flow()
    assert (flow.locale, flow.clock) == ("en", None)
    assert locales.locale("en").clock == "12h"
    assert sorted(locales.LOCALES) == ["en"]


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        ({"locale": "xx"}, "locale"),
        ({"clock": "13h"}, "clock"),
    ],
)
def test_unknown_format_options_are_refused(change, problem):
    doc = repair_flow().model_dump(mode="json", by_alias=True, exclude_defaults=True)
    assert problem in issues_of({**doc, **change})


@pytest.mark.parametrize(
    ("template", "problem"),
    [
        ("{day:%Q}", "%Q"),
        ("{day:%H}", "%H"),
        ("{time:%B}", "%B"),
        ("{day:>10}", "pattern"),
        ("{time:.2f}", "pattern"),
    ],
)
def test_a_date_or_time_spec_that_cannot_apply_is_refused_when_the_flow_loads(template, problem):
    with pytest.raises(FlowError) as caught:
        repair_flow(template)
    assert problem in str(caught.value) and "node done.message" in str(caught.value)
