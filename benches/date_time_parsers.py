"""Which date/time parser reads customers' phrases best, and at what cost: fsmdial's own readers
(:func:`fsmdial.language.parse_date`, :func:`fsmdial.language.clock_readings`) against ``dateparser``.

Two sets of phrases, each with the value meant:

* ``phrasings``: the phrasings of issue 20 and the customers' words suite ("half past seven in the evening",
  "quarter to five", "9.30", "in two days", "the 21st", "Wednesday the 2nd" ...), on a fixed clock;
* ``sgd``: real users' date and time phrases of SGD dev (``../shared/data/sgd/dev``): each span a user gave for a
  date or time slot, paired with the value of that slot in the service call that followed (SGD's canonical
  ``YYYY-MM-DD`` / ``HH:MM``), on SGD's clock (2019-03-01, a Friday).

A clock time without am/pm ("7:30", "at 7") has two readings: fsmdial's reader gives both (the slot's hours pick
one), ``dateparser`` one; either is counted right when the value meant is one of the two 12-hour readings of the
clock time said. A phrase with am/pm or a part of the day must get exactly the value meant.

    python benches/date_time_parsers.py [--sgd DIR (default $FSMDIAL_SGD/dev or ../shared/data/sgd/dev)] [--limit N]

Prints a table (accuracy, microseconds per call) per parser and set; ``ctparse`` was not measured: installing it
would downgrade the ``python-dateutil`` that ``dateparser`` runs on in the shared environment.
"""

from __future__ import annotations

import argparse
import datetime as dt
import glob
import json
import os
import re
import time
from collections.abc import Callable, Iterable
from pathlib import Path

from fsmdial.language import clock_readings, parse_date

NOW = dt.datetime(2026, 11, 23, 10, 0)  # a Monday
SGD_NOW = dt.datetime(2019, 3, 1, 12, 0)  # SGD's "today" (a Friday)

DATES = [
    ("in two days", "2026-11-25"),
    ("a week from today", "2026-11-30"),
    ("the day after tomorrow", "2026-11-25"),
    ("tomorrow", "2026-11-24"),
    ("next Friday", "2026-11-27"),
    ("this Saturday", "2026-11-28"),
    ("Friday", "2026-11-27"),
    ("on Saturday", "2026-11-28"),
    ("the 21st", "2026-12-21"),
    ("on the 3rd", "2026-12-03"),
    ("December 3rd", "2026-12-03"),
    ("Nov 30", "2026-11-30"),
    ("on the 4th of December", "2026-12-04"),
    ("the twenty-first", "2026-12-21"),
    ("the first of December", "2026-12-01"),
    ("on Wednesday the 2nd", "2026-12-02"),
    ("in a week", "2026-11-30"),
    ("two weeks from tomorrow", "2026-12-08"),
    ("3/12", "2027-03-12"),
    ("12/25/2026", "2026-12-25"),
    ("2026-12-01", "2026-12-01"),
    ("tonight", "2026-11-23"),
    ("next Monday", "2026-11-30"),
    ("December the 5th", "2026-12-05"),
    ("in 3 days", "2026-11-26"),
]
TIMES = [
    ("half past seven in the evening", "19:30"),
    ("half past seven", "19:30"),
    ("quarter to five", "16:45"),
    ("quarter past 8", "20:15"),
    ("7:30 in the evening", "19:30"),
    ("around noon", "12:00"),
    ("midday", "12:00"),
    ("midnight", "00:00"),
    ("9.30", "09:30"),
    ("8.30pm", "20:30"),
    ("seven thirty", "19:30"),
    ("at 7", "19:00"),
    ("7pm", "19:00"),
    ("19:00", "19:00"),
    ("quarter past seven pm", "19:15"),
    ("half past six pm", "18:30"),
    ("quarter to eight in the evening", "19:45"),
    ("around 8 in the evening", "20:00"),
    ("ten past seven", "19:10"),
    ("17.30", "17:30"),
    ("4:30pm", "16:30"),
    ("9 at night", "21:00"),
    ("seven o'clock", "19:00"),
    ("tomorrow morning at 10", "10:00"),
    ("noon", "12:00"),
]

_EXPLICIT = re.compile(r"\b(?:am|pm|a\.m|p\.m|morning|afternoon|evening|night|noon|midday|midnight)\b|\d[ap]m", re.I)


_TWENTY_FOUR = re.compile(r"\b(?:0\d|1[3-9]|2[0-3])[:.]\d\d\b")


def twelve_hour_twins(value: str) -> set[str]:
    hour, minute = value.split(":")
    return {value, f"{(int(hour) + 12) % 24:02d}:{minute}"}


def time_right(phrase: str, meant: str, readings: Iterable[str]) -> bool:
    """Right: the value meant, or for a clock time said without am/pm, readings among its two 12-hour readings."""
    found = set(readings)
    if not found:
        return False
    if _EXPLICIT.search(phrase) or _TWENTY_FOUR.search(phrase):
        return found == {meant}
    return meant in found and found <= twelve_hour_twins(meant)


def sgd_pairs(folder: str, limit: int | None = None) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """(span, canonical value) of every date and time slot a user gave and a service call then used."""
    schema = json.loads(Path(folder, "schema.json").read_text())
    kinds = {}
    for service in schema:
        for slot in service["slots"]:
            if not slot["is_categorical"] and ("date" in slot["name"] or "time" in slot["name"]):
                kinds[(service["service_name"], slot["name"])] = "date" if "date" in slot["name"] else "time"
    dates: list[tuple[str, str]] = []
    times: list[tuple[str, str]] = []
    for path in sorted(glob.glob(str(Path(folder, "dialogues_*.json")))):
        for dialogue in json.loads(Path(path).read_text()):
            said: dict[tuple[str, str], str] = {}
            for turn in dialogue["turns"]:
                for frame in turn["frames"]:
                    service = frame["service"]
                    if turn["speaker"] == "USER":
                        for slot in frame.get("slots", []):
                            if (service, slot["slot"]) in kinds:
                                said[(service, slot["slot"])] = turn["utterance"][slot["start"] : slot["exclusive_end"]]
                    elif "service_call" in frame:
                        for name, value in frame["service_call"]["parameters"].items():
                            if (service, name) in said:
                                pair = (said.pop((service, name)), value)
                                (dates if kinds[(service, name)] == "date" else times).append(pair)
    return (dates[:limit], times[:limit]) if limit else (dates, times)


def dateparser_readers(now: dt.datetime) -> tuple[Callable[[str], str | None], Callable[[str], str | None]]:
    import dateparser  # type: ignore[import-untyped]

    settings = {"RELATIVE_BASE": now, "PREFER_DATES_FROM": "future", "PREFER_DAY_OF_MONTH": "first"}
    parser = dateparser.DateDataParser(languages=["en"], settings=settings)

    def parse(phrase: str) -> dt.datetime | None:
        found = parser.get_date_data(phrase)
        return found.date_obj if found else None

    def read_date(phrase: str) -> str | None:
        found = parse(phrase)
        return found.date().isoformat() if found else None

    def read_time(phrase: str) -> str | None:
        found = parse(phrase)
        return found.strftime("%H:%M") if found else None

    return read_date, read_time


def measure(
    pairs: list[tuple[str, str]], read: Callable[[str], object], right: Callable[..., bool]
) -> tuple[float, float]:
    """(accuracy %, microseconds per call)."""
    hits = 0
    if pairs:
        read(pairs[0][0])  # loaded and warm: the table times calls, not imports
    started = time.perf_counter()
    for phrase, meant in pairs:
        hits += right(phrase, meant, read(phrase))
    seconds = time.perf_counter() - started
    return 100 * hits / max(1, len(pairs)), 1e6 * seconds / max(1, len(pairs))


def table(sgd: str | None, limit: int | None) -> list[tuple[str, str, int, float, float]]:
    sets = [("phrasings", NOW, DATES, TIMES)]
    if sgd:
        sgd_dates, sgd_times = sgd_pairs(sgd, limit)
        sets.append(("sgd dev", SGD_NOW, sgd_dates, sgd_times))
    rows = []
    for name, now, dates, times in sets:
        dp_date, dp_time = dateparser_readers(now)
        own_date: Callable[[str], object] = lambda phrase, now=now: parse_date(phrase, now)  # noqa: E731
        own_time: Callable[[str], object] = lambda phrase, now=now: clock_readings(phrase, now)  # noqa: E731
        date_right = lambda phrase, meant, got: got == meant  # noqa: E731
        time_one = lambda phrase, meant, got: time_right(phrase, meant, [got] if got else [])  # noqa: E731
        for parser, read, right, pairs, kind in (
            ("fsmdial", own_date, date_right, dates, "date"),
            ("dateparser", dp_date, date_right, dates, "date"),
            ("fsmdial", own_time, time_right, times, "time"),
            ("dateparser", dp_time, time_one, times, "time"),
        ):
            accuracy, micros = measure(pairs, read, right)
            rows.append((f"{name} {kind}", parser, len(pairs), accuracy, micros))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--sgd", default=os.path.join(os.environ.get("FSMDIAL_SGD", "../shared/data/sgd"), "dev"))
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--misses", action="store_true", help="print fsmdial's misses")
    args = parser.parse_args()
    sgd = args.sgd if Path(args.sgd, "schema.json").exists() else None
    print(f"{'set':18s} {'parser':11s} {'n':>5s} {'accuracy %':>10s} {'µs/call':>9s}")
    for name, parser_name, n, accuracy, micros in table(sgd, args.limit):
        print(f"{name:18s} {parser_name:11s} {n:5d} {accuracy:10.1f} {micros:9.1f}")
    if args.misses and sgd:
        dates, times = sgd_pairs(sgd, args.limit)
        for phrase, meant in dates:
            if parse_date(phrase, SGD_NOW) != meant:
                print("date miss:", repr(phrase), meant, parse_date(phrase, SGD_NOW))
        for phrase, meant in times:
            if not time_right(phrase, meant, clock_readings(phrase, SGD_NOW)):
                print("time miss:", repr(phrase), meant, clock_readings(phrase, SGD_NOW))


if __name__ == "__main__":
    main()
