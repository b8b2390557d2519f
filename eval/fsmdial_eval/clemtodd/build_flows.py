"""Write ``flows/{restaurant,hotel,train}.json`` beside this module (package data) from the databases and
the MultiWOZ ontology.

``python -m fsmdial_eval.clemtodd.build_flows [DATA_DIR] [OUT_DIR]``

Each flow: find (a request node whose rule needs any one constraint, a search
on the real database, an offer or a "nothing matches" that waits for a changed
constraint), then book (the mandatory booking keys, a confirmation, the
booking, a reference number). Only ``people`` is shared across flows ("for the
same group of people"); every other slot is named per domain, because a
restaurant's day or area is not the train's.

Categorical values are written the way a user says them, so the rules
understander (which reads a categorical value only when exactly one value of
the slot appears, and a short word only when asked) can tell them apart:
"from cambridge" / "to cambridge" for the two train stations, "3 star",
"free parking" / "no parking", "free wifi" / "no wifi", "guest house" (whose
pattern also reads "guesthouse"). The tools map them back to the database's
values.
"""

from __future__ import annotations

import json
import re
import sqlite3
import sys
from pathlib import Path
from typing import Any

from fsmdial.userfiles import read_json

from .runner import FLOWS_DIR
from .tools import WEEKDAYS, default_data_dir

# "any ...": the user's "it does not matter" (MultiWOZ's dontcare), read by the tools as no constraint.
AREAS = ["centre", "north", "south", "east", "west", "any area"]
PRICES = ["cheap", "moderate", "expensive", "any price range"]


def _distinct(data_dir: Path, domain: str, column: str) -> list[str]:
    path = data_dir / "db" / f"{domain}-dbase.db"
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return sorted(
            {str(v).strip().lower() for (v,) in conn.execute(f'SELECT DISTINCT "{column}" FROM {domain}') if v}
        )
    finally:
        conn.close()


def _words(value: str) -> str:
    return f" {' '.join(re.findall(r'[a-z0-9]+', value))} "


def _clashes(a: str, b: str) -> bool:
    """Whether the rules could read one value inside the other (as words, or with the spaces left out)."""
    joined_a, joined_b = a.replace(" ", ""), b.replace(" ", "")
    return _words(a) in _words(b) or _words(b) in _words(a) or joined_a == joined_b


def _vocabulary(base: list[str], extra: list[str]) -> list[str]:
    """``base`` (database values) plus ontology values that neither contain nor sit inside another value.

    The rules understander reads nothing when two values of a slot appear in one sentence, so a
    value such as "south indian" beside "indian" would make both unreadable.
    """
    values = sorted(set(base))
    for value in sorted(set(extra) - set(base)):
        if "n't" in value or len(value) < 5 or value.startswith("not mentioned"):  # ontology noise ("ital", "kor")
            continue
        if any(_clashes(value, other) for other in values):
            continue
        values.append(value)
    return values


def _ontology(data_dir: Path) -> dict[str, list[str]]:
    return read_json(data_dir / "ontology.json")


def _common(what: str) -> dict[str, Any]:
    return {
        "global_actions": [
            {
                "intent": "hello",
                "examples": ["hello", "hi", "hey", "good morning", "good evening"],
                "response": f"Hello! I can find and book {what} for you.",
            },
            {
                "intent": "ask_reference",
                "examples": [
                    "what is the reference number",
                    "can i have the reference number",
                    "could i get the reference number",
                    "reference number please",
                    "can i get the reference number",
                ],
                "response": "You will get the reference number as soon as the booking is made.",
            },
        ],
        "fallbacks": {
            "goodbye": "Thank you, goodbye!",
            "out_of_scope": f"Sorry, I did not get that. I can find and book {what}.",
            "anything_else": "Is there anything else I can help you with?",
            "cannot_continue": "I'm sorry, I cannot go on without that. Goodbye!",
        },
    }


def _cat(name: str, values: list[str], description: str, ask: str, required: bool = True) -> dict[str, Any]:
    return {
        "name": name,
        "type": "categorical",
        "values": values,
        "description": description,
        "ask": ask,
        "required": required,
    }


def _people() -> dict[str, Any]:
    return {
        "name": "people",
        "type": "integer",
        "minimum": 1,
        "maximum": 20,
        "description": "Number of people",
        "examples": [2, 4],
        "ask": "For how many people?",
    }


def _find_and_book(
    domain: str, search_args: dict[str, str], book_args: dict[str, Any], confirm: str, booked: str
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The nodes and edges from the search on (the request nodes are the caller's)."""
    search, book = f"search_{domain}", f"book_{domain}"
    nodes: list[dict[str, Any]] = [
        {
            "id": search,
            "type": "external_action",
            "tool": f"search_{domain}s",
            "arguments": search_args,
            "result": {
                "count": "integer",
                "offer": "string",
                "searched": "string",
                "name": {"type": "string", "required": False},
                "entity": {"type": "integer", "required": False},
            },
            "success_when": {"result": "count", "op": "gt", "value": 0},
        },
        {
            "id": "offer",
            "type": "inform",
            "label": f"offer_{domain}",
            "message": f"I found {{{search}.count}} matching. {{{search}.offer}}",
        },
        {
            "id": "no_match",
            "type": "inform",
            "label": f"nomatch_{domain}",
            "message": (
                f"I'm sorry, there is no {{{search}.searched}}. Would you like to change one of your requirements?"
            ),
        },
        {
            "id": "confirm_booking",
            "type": "inform_and_confirm",
            "label": f"confirm_{domain}",
            "message": confirm,
            "question": "Shall I book it?",
            "change_question": "No problem. What would you like to change?",
        },
        {
            "id": book,
            "type": "external_action",
            "tool": book,
            "arguments": book_args,
            "result": {
                "booked": "boolean",
                "reference": {"type": "string", "required": False},
                "reason": {"type": "string", "required": False},
            },
            "success_when": {"result": "booked", "op": "eq", "value": True},
        },
        {"id": "booked", "type": "inform", "label": f"booked_{domain}", "message": booked},
        {
            "id": "not_booked",
            "type": "inform",
            "label": f"bookfail_{domain}",
            "message": f"I'm sorry, the booking failed: {{{book}.reason}}. Would you like to change something?",
        },
        {
            "id": "done",
            "type": "end",
            "label": f"done_{domain}",
            "message": "Is there anything else I can help you with?",
        },
    ]
    edges: list[dict[str, Any]] = [
        {"source": search, "target": "offer", "when": {"status": "success"}},
        {"source": search, "target": "no_match", "when": {"status": "failure"}},
        {"source": "offer", "target": "ask_booking"},
        {"source": "ask_booking", "target": "confirm_booking"},
        {"source": "confirm_booking", "target": book, "when": {"answer": "yes"}},
        {"source": book, "target": "booked", "when": {"status": "success"}},
        {"source": book, "target": "not_booked", "when": {"status": "failure"}},
        {"source": "booked", "target": "done"},
    ]
    return nodes, edges


def restaurant_flow(data_dir: Path) -> dict[str, Any]:
    onto = _ontology(data_dir)
    names = _distinct(data_dir, "restaurant", "name")  # the ontology's names are mostly typing fragments
    foods = _vocabulary(_distinct(data_dir, "restaurant", "food"), onto.get("restaurant-food", []))
    find: dict[str, Any] = {
        "id": "find",
        "type": "request",
        "slots": [
            _cat("food", foods, "Kind of food", "What kind of food would you like?", False),
            _cat("restaurant_area", AREAS, "Area of the restaurant", "In which part of town?", False),
            _cat("restaurant_pricerange", PRICES, "Price range of the restaurant", "In which price range?", False),
            _cat("restaurant_name", names, "Name of the restaurant", "Do you have a restaurant in mind?", False),
        ],
    }
    find["rule"] = {"kind": "any", "slots": [slot["name"] for slot in find["slots"]]}
    ask = {
        "id": "ask_booking",
        "type": "request",
        "slots": [
            _people(),
            _cat("restaurant_day", list(WEEKDAYS), "Day of the booking", "On which day?"),
            {"name": "restaurant_time", "type": "time", "description": "Time of the booking", "ask": "At what time?"},
        ],
    }
    nodes, edges = _find_and_book(
        "restaurant",
        {"name": "restaurant_name", "food": "food", "area": "restaurant_area", "pricerange": "restaurant_pricerange"},
        {
            "entity": {"result": "entity", "node": "search_restaurant"},
            "people": "people",
            "day": "restaurant_day",
            "time": "restaurant_time",
        },
        "A table at {search_restaurant.name} for {people} people on {restaurant_day} at {restaurant_time}.",
        "Your table at {search_restaurant.name} is booked. Your reference number is {book_restaurant.reference}.",
    )
    return {
        "name": "restaurant",
        "description": "find and book a restaurant in Cambridge",
        "clock": "24h",  # MultiWOZ gives times as 19:00: the confirmation says them back that way
        "examples": [
            "a restaurant",
            "restaurant",
            "a place to eat",
            "a place to dine",
            "somewhere to eat",
            "book a table",
            "a table",
            "looking for a restaurant",
            "need a restaurant",
        ],
        "context": "You help tourists in Cambridge find and book restaurants.",
        "nodes": [find, *nodes[:3], ask, *nodes[3:]],
        "edges": [{"source": "find", "target": "search_restaurant"}, *edges],
        **_common("restaurants"),
    }


def hotel_flow(data_dir: Path) -> dict[str, Any]:
    names = _distinct(data_dir, "hotel", "name")
    stars = [f"{n} star" for n in range(6)] + ["any star rating"]
    find: dict[str, Any] = {
        "id": "find",
        "type": "request",
        "slots": [
            _cat(
                "hotel_area", AREAS, "Area of the place to stay", "In which part of town would you like to stay?", False
            ),
            _cat("hotel_pricerange", PRICES, "Price range of the place to stay", "In which price range?", False),
            _cat(
                "hotel_type",
                ["guest house", "hotel", "any type"],
                "Hotel or guesthouse",
                "A hotel or a guesthouse?",
                False,
            ),
            _cat("stars", stars, "Star rating", "How many stars?", False),
            _cat("parking", ["free parking", "no parking"], "Parking", "Do you need free parking?", False),
            _cat("internet", ["free wifi", "no wifi"], "Internet", "Do you need free wifi?", False),
            _cat("hotel_name", names, "Name of the place to stay", "Do you have a place in mind?", False),
        ],
    }
    find["rule"] = {"kind": "any", "slots": [slot["name"] for slot in find["slots"]]}
    ask = {
        "id": "ask_booking",
        "type": "request",
        "slots": [
            _people(),
            _cat("hotel_day", list(WEEKDAYS), "Day of arrival", "On which day will you arrive?"),
            {
                "name": "stay",
                "type": "integer",
                "minimum": 1,
                "maximum": 30,
                "description": "Number of nights",
                "ask": "For how many nights?",
            },
        ],
    }
    nodes, edges = _find_and_book(
        "hotel",
        {
            "name": "hotel_name",
            "type": "hotel_type",
            "area": "hotel_area",
            "pricerange": "hotel_pricerange",
            "stars": "stars",
            "parking": "parking",
            "internet": "internet",
        },
        {
            "entity": {"result": "entity", "node": "search_hotel"},
            "people": "people",
            "day": "hotel_day",
            "stay": "stay",
        },
        "A stay at {search_hotel.name} for {people} people, {stay} nights from {hotel_day}.",
        "Your stay at {search_hotel.name} is booked. Your reference number is {book_hotel.reference}.",
    )
    return {
        "name": "hotel",
        "description": "find and book a place to stay in Cambridge",
        "examples": [
            "a hotel",
            "hotel",
            "a place to stay",
            "somewhere to stay",
            "a guesthouse",
            "a guest house",
            "looking for a hotel",
            "need a hotel",
            "a room",
        ],
        "context": "You help tourists in Cambridge find and book hotels and guesthouses.",
        "nodes": [find, *nodes[:3], ask, *nodes[3:]],
        "edges": [{"source": "find", "target": "search_hotel"}, *edges],
        **_common("places to stay"),
    }


def train_flow(data_dir: Path) -> dict[str, Any]:
    stations = sorted(set(_distinct(data_dir, "train", "departure")) | set(_distinct(data_dir, "train", "destination")))
    find: dict[str, Any] = {
        "id": "find",
        "type": "request",
        "slots": [
            _cat(
                "departure",
                [f"from {s}" for s in stations],
                "Station the train leaves from",
                "Where will you be leaving from?",
            ),
            _cat(
                "destination", [f"to {s}" for s in stations], "Station the train goes to", "Where are you heading to?"
            ),
            _cat("train_day", list(WEEKDAYS), "Day of travel", "On which day will you travel?"),
        ],
    }
    # Two time slots in one node would be ambiguous ("15:45": leave or arrive?): one node each,
    # the arrival asked when the user has no departure time ("I don't have a departure time").
    leave = {
        "id": "ask_leave",
        "type": "request",
        "slots": [
            {
                "name": "leave_at",
                "type": "time",
                "description": "Earliest departure time",
                "ask": "What time would you like to leave after? (If you only have an arrival time, just say so.)",
            }
        ],
    }
    arrive = {
        "id": "ask_arrive",
        "type": "request",
        "slots": [
            {
                "name": "arrive_by",
                "type": "time",
                "description": "Latest arrival time",
                "ask": "By what time do you need to arrive?",
            }
        ],
    }
    ask = {"id": "ask_booking", "type": "request", "slots": [_people()]}
    nodes, edges = _find_and_book(
        "train",
        {
            "departure": "departure",
            "destination": "destination",
            "day": "train_day",
            "leave_at": "leave_at",
            "arrive_by": "arrive_by",
        },
        {"entity": {"result": "entity", "node": "search_train"}, "people": "people"},
        "{people} tickets on train {search_train.name}.",
        "Your tickets on train {search_train.name} are booked. Your reference number is {book_train.reference}.",
    )
    return {
        "name": "train",
        "description": "find and book a train ticket",
        "clock": "24h",  # MultiWOZ gives times as 19:00: the confirmation says them back that way
        "examples": [
            "a train",
            "train",
            "a train ticket",
            "train tickets",
            "looking for a train",
            "need a train",
            "book a train",
            "take the train",
        ],
        "context": "You help travellers find and book trains to and from Cambridge.",
        "nodes": [find, leave, arrive, *nodes[:3], ask, *nodes[3:]],
        "edges": [
            {"source": "find", "target": "ask_leave"},
            {"source": "ask_leave", "target": "search_train"},
            {"source": "ask_leave", "target": "ask_arrive", "when": {"slot": "leave_at", "op": "declined"}},
            {"source": "ask_arrive", "target": "search_train"},
            *edges,
        ],
        **_common("train tickets"),
    }


FLOWS = {"restaurant": restaurant_flow, "hotel": hotel_flow, "train": train_flow}


def build(data_dir: Path, out_dir: Path) -> list[Path]:
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for name, make in FLOWS.items():
        flow = {"$schema": "../../fsmdial/flow.schema.json", **make(data_dir)}
        path = out_dir / f"{name}.json"
        path.write_text(json.dumps(flow, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        written.append(path)
    return written


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    data = Path(argv[0]) if argv else default_data_dir()
    if data is None:
        print("error: no clem:todd data directory (pass it, or set FSMDIAL_CLEMTODD)", file=sys.stderr)
        return 2
    out = Path(argv[1]) if len(argv) > 1 else FLOWS_DIR
    for path in build(data, out):
        print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
