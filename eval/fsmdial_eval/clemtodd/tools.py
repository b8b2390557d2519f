"""Database look-ups and bookings for the MultiWOZ flows, as pydantic-typed fsmdial tools.

The shipped SQLite files are never written: :class:`MultiwozDB` copies each
domain's table into one in-memory database (once per run) and keeps the
bookings there, one ``session`` per task. Every query is parameterised; the
only names put into SQL text are column names from fixed tables in this module.

The flows' categorical values are phrases the user says ("free parking",
"3 star", "from cambridge"); the argument models turn them back into the
databases' values, so the tools only ever query with database vocabulary.
"""

from __future__ import annotations

import hashlib
import re
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from fsmdial.tools import ToolRegistry

Domain = Literal["restaurant", "hotel", "train"]
WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
Weekday = Literal["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]

# Columns each domain table offers (the ones clem:todd compares; everything else is display only).
COLUMNS: dict[str, tuple[str, ...]] = {
    "restaurant": ("name", "area", "pricerange", "food", "address", "phone", "postcode"),
    "hotel": ("name", "type", "area", "pricerange", "stars", "parking", "internet", "address", "phone", "postcode"),
    "train": ("trainID", "departure", "destination", "day", "leaveAt", "arriveBy", "duration", "price"),
}
DB_FILES = {"restaurant": "restaurant-dbase.db", "hotel": "hotel-dbase.db", "train": "train-dbase.db"}
_TIME = re.compile(r"^\d{1,2}:\d{2}$")


def default_data_dir() -> Path | None:
    """$FSMDIAL_CLEMTODD, else ../shared/data/clemtodd beside the repository (None if absent)."""
    import os

    env = os.environ.get("FSMDIAL_CLEMTODD")
    candidates = [Path(env)] if env else []
    here = Path(__file__).resolve()
    candidates += [parent / "shared" / "data" / "clemtodd" for parent in here.parents]
    candidates += [Path("/work/shared/data/clemtodd")]
    for path in candidates:
        if (path / "db").is_dir():
            return path
    return None


# ------------------------------------------------------------- argument models


def _lower(value: Any) -> Any:
    """Lower case; "any area", "any type" ... (the user does not mind) is no constraint."""
    if isinstance(value, str):
        value = value.strip().lower()
        return None if value.startswith("any ") else value
    return value


def _strip_prefix(value: Any, *prefixes: str) -> Any:
    value = _lower(value)
    if isinstance(value, str):
        for prefix in prefixes:
            if value.startswith(prefix):
                return value[len(prefix) :].strip()
    return value


class _Args(BaseModel):
    model_config = ConfigDict(extra="ignore")


class RestaurantQuery(_Args):
    name: str | None = None
    food: str | None = None
    area: str | None = None
    pricerange: str | None = None

    _clean = field_validator("name", "food", "area", "pricerange", mode="before")(_lower)


class HotelQuery(_Args):
    name: str | None = None
    type: str | None = None
    area: str | None = None
    pricerange: str | None = None
    stars: str | None = None
    parking: Literal["yes", "no"] | None = None
    internet: Literal["yes", "no"] | None = None

    @field_validator("name", "area", "pricerange", mode="before")
    @classmethod
    def _plain(cls, value: Any) -> Any:
        return _lower(value)

    @field_validator("type", mode="before")
    @classmethod
    def _type(cls, value: Any) -> Any:
        value = _lower(value)
        return "guesthouse" if value in ("guest house", "guesthouse") else value

    @field_validator("stars", mode="before")
    @classmethod
    def _stars(cls, value: Any) -> Any:  # "3 star" -> "3"
        value = _lower(value)
        return value.split()[0] if isinstance(value, str) and value else value

    @field_validator("parking", "internet", mode="before")
    @classmethod
    def _yes_no(cls, value: Any) -> Any:  # "free parking" -> yes, "no wifi" -> no
        value = _lower(value)
        if isinstance(value, str) and value not in ("yes", "no"):
            return "no" if value.startswith("no") else "yes"
        return value


class TrainQuery(_Args):
    departure: str
    destination: str
    day: Weekday
    leave_at: str | None = Field(None, description="earliest departure, HH:MM")
    arrive_by: str | None = Field(None, description="latest arrival, HH:MM")

    @field_validator("departure", mode="before")
    @classmethod
    def _from(cls, value: Any) -> Any:
        return _strip_prefix(value, "from ")

    @field_validator("destination", mode="before")
    @classmethod
    def _to(cls, value: Any) -> Any:
        return _strip_prefix(value, "to ")

    @field_validator("day", mode="before")
    @classmethod
    def _day(cls, value: Any) -> Any:
        return _lower(value)

    @field_validator("leave_at", "arrive_by", mode="before")
    @classmethod
    def _time(cls, value: Any) -> Any:
        if value is not None and not (isinstance(value, str) and _TIME.match(value)):
            raise ValueError(f"expected a time HH:MM, got {value!r}")
        return value.zfill(5) if isinstance(value, str) else value


class RestaurantBooking(_Args):
    entity: int = Field(ge=1, description="the offered restaurant (its row in the search's table)")
    people: int = Field(ge=1, le=20)
    day: Weekday
    time: str

    _clean = field_validator("day", mode="before")(_lower)


class HotelBooking(_Args):
    entity: int = Field(ge=1, description="the offered place to stay (its row in the search's table)")
    people: int = Field(ge=1, le=20)
    day: Weekday
    stay: int = Field(ge=1, le=30)

    _clean = field_validator("day", mode="before")(_lower)


class TrainBooking(_Args):
    entity: int = Field(ge=1, description="the offered train (its row: train ids repeat across days)")
    people: int = Field(ge=1, le=20)


# --------------------------------------------------------------- result models


class SearchResult(BaseModel):
    """What a search found: how many, the first (offered) entity, and sentences for the bot to say."""

    count: int
    offer: str = ""
    """The offered entity described, e.g. 'pizza hut city centre is a cheap italian restaurant in the centre.'"""
    searched: str
    """The constraints searched, e.g. 'an expensive restaurant serving traditional food in the south'."""
    name: str | None = None
    """The offered entity's name (hotel, restaurant) or train id."""
    entity: int | None = None
    """The offered entity's row id, which the booking tools take."""


class BookingResult(BaseModel):
    booked: bool
    reference: str | None = None
    reason: str | None = None


# ------------------------------------------------------------------ database


class MultiwozDB:
    """The three domain tables, copied read-only into memory, plus a bookings table."""

    def __init__(self, data_dir: str | Path):
        self.data_dir = Path(data_dir)
        self.conn = sqlite3.connect(":memory:", check_same_thread=False)
        self.conn.row_factory = sqlite3.Row
        for domain, filename in DB_FILES.items():
            path = self.data_dir / "db" / filename
            if not path.is_file():
                raise FileNotFoundError(f"clem:todd database missing: {path}")
            source = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
            try:
                columns = COLUMNS[domain]
                rows = source.execute(f"SELECT {', '.join(_quote(c) for c in columns)} FROM {domain}").fetchall()
            finally:
                source.close()
            self.conn.execute(f"CREATE TABLE {domain} ({', '.join(_quote(c) + ' TEXT' for c in columns)})")
            self.conn.executemany(
                f"INSERT INTO {domain} VALUES ({', '.join('?' * len(columns))})",
                [tuple(_norm_cell(v) for v in row) for row in rows],
            )
        self.conn.execute(
            "CREATE TABLE bookings (session TEXT, seq INTEGER, domain TEXT, reference TEXT, entity INTEGER,"
            " people INTEGER, day TEXT, time TEXT, stay INTEGER)"
        )

    # ------------------------------------------------------------ look-ups
    def find(self, domain: Domain, **where: Any) -> list[dict[str, Any]]:
        """Rows whose columns equal the given values (None: no constraint), in a stable order."""
        clauses, params = [], []
        for column, value in where.items():
            if value is None:
                continue
            if column not in COLUMNS[domain]:
                raise ValueError(f"{domain} has no column {column!r}")
            clauses.append(f"{_quote(column)} = ?")
            params.append(value)
        sql = f"SELECT rowid AS entity, * FROM {domain}" + (" WHERE " + " AND ".join(clauses) if clauses else "")
        order = "leaveAt, trainID" if domain == "train" else "name"
        return [dict(row) for row in self.conn.execute(sql + f" ORDER BY {order}", params)]

    def row(self, domain: Domain, entity: int | str) -> dict[str, Any] | None:
        """The row of an entity (its row id), without the id."""
        found = self.conn.execute(f"SELECT * FROM {domain} WHERE rowid = ?", (int(entity),)).fetchone()
        return dict(found) if found else None

    def trains(self, q: TrainQuery) -> list[dict[str, Any]]:
        sql = "SELECT rowid AS entity, * FROM train WHERE departure = ? AND destination = ? AND day = ?"
        params: list[Any] = [q.departure, q.destination, q.day]
        order = "leaveAt, trainID"
        if q.leave_at:
            sql += " AND leaveAt >= ?"
            params.append(q.leave_at)
        if q.arrive_by:
            sql += " AND arriveBy <= ? AND arriveBy != ''"
            params.append(q.arrive_by)
            order = "arriveBy DESC, trainID"  # the latest train that still arrives in time
        return [dict(row) for row in self.conn.execute(f"{sql} ORDER BY {order}", params)]

    # ------------------------------------------------------------ bookings
    def book(
        self,
        session: str,
        domain: Domain,
        entity: int,
        people: int,
        *,
        day: str | None = None,
        time: str | None = None,
        stay: int | None = None,
    ) -> str:
        (seq,) = self.conn.execute("SELECT COUNT(*) FROM bookings WHERE session = ?", (session,)).fetchone()
        reference = hashlib.sha1(f"{session}|{domain}|{seq}".encode()).hexdigest()[:8].upper()
        self.conn.execute(
            "INSERT INTO bookings VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (session, seq, domain, reference, entity, people, day, time, stay),
        )
        return reference

    def bookings(self, session: str) -> list[dict[str, Any]]:
        rows = self.conn.execute("SELECT * FROM bookings WHERE session = ? ORDER BY seq", (session,))
        return [dict(row) for row in rows]

    def close(self) -> None:
        self.conn.close()


def _quote(column: str) -> str:
    return '"' + column.replace('"', '""') + '"'


def _norm_cell(value: Any) -> Any:
    return value.strip().lower() if isinstance(value, str) and not re.match(r"^TR\d+$", value) else value


# --------------------------------------------------------------- the tools


def _article(words: str) -> str:
    return ("an " if words[:1] in "aeiou" else "a ") + words


def _restaurant_text(q: RestaurantQuery) -> str:
    if q.name:
        return f"a restaurant called {q.name}"
    text = _article(" ".join(w for w in (q.pricerange, "restaurant") if w))
    if q.food:
        text += f" serving {q.food} food"
    if q.area:
        text += f" in the {q.area}"
    return text


def _hotel_text(q: HotelQuery) -> str:
    if q.name:
        return f"a place to stay called {q.name}"
    words = [q.pricerange, f"{q.stars} star" if q.stars else None, q.type or "place to stay"]
    text = _article(" ".join(w for w in words if w))
    if q.area:
        text += f" in the {q.area}"
    extras = [
        f"{'free' if v == 'yes' else 'no'} {what}" for what, v in (("parking", q.parking), ("wifi", q.internet)) if v
    ]
    return text + (" with " + " and ".join(extras) if extras else "")


def _hotel_offer(row: dict[str, Any]) -> str:
    parking = "free parking" if row["parking"] == "yes" else "no free parking"
    wifi = "free wifi" if row["internet"] == "yes" else "no free wifi"
    return (
        f"{row['name']} is {_article(row['pricerange'])} {row['stars']} star {row['type']} in the {row['area']}, "
        f"with {parking} and {wifi}."
    )


class Tools:
    """The flows' tools for one task (``session``), on a shared :class:`MultiwozDB`."""

    def __init__(self, db: MultiwozDB, session: str):
        self.db, self.session = db, session

    def search_restaurants(self, **arguments: Any) -> SearchResult:
        q = RestaurantQuery(**arguments)
        # A name identifies the place: the other constraints are the user's description of it.
        rows = (
            self.db.find("restaurant", name=q.name)
            if q.name
            else self.db.find("restaurant", food=q.food, area=q.area, pricerange=q.pricerange)
        )
        if not rows:
            return SearchResult(count=0, searched=_restaurant_text(q))
        top = rows[0]
        offer = f"{top['name']} is {_article(top['pricerange'])} {top['food']} restaurant in the {top['area']}."
        return SearchResult(
            count=len(rows), offer=offer, searched=_restaurant_text(q), name=top["name"], entity=top["entity"]
        )

    def search_hotels(self, **arguments: Any) -> SearchResult:
        q = HotelQuery(**arguments)
        if q.name:
            rows = self.db.find("hotel", name=q.name)
        else:
            rows = self.db.find(
                "hotel",
                type=q.type,
                area=q.area,
                pricerange=q.pricerange,
                stars=q.stars,
                parking=q.parking,
                internet=q.internet,
            )
        if not rows:
            return SearchResult(count=0, searched=_hotel_text(q))
        return SearchResult(
            count=len(rows),
            offer=_hotel_offer(rows[0]),
            searched=_hotel_text(q),
            name=rows[0]["name"],
            entity=rows[0]["entity"],
        )

    def search_trains(self, **arguments: Any) -> SearchResult:
        q = TrainQuery(**arguments)
        rows = self.db.trains(q)
        when = f" leaving after {q.leave_at}" if q.leave_at else f" arriving by {q.arrive_by}" if q.arrive_by else ""
        searched = f"a train from {q.departure} to {q.destination} on {q.day}{when}"
        if not rows:
            return SearchResult(count=0, searched=searched)
        top = rows[0]
        offer = (
            f"Train {top['trainID']} leaves {top['departure']} at {top['leaveAt']} on {top['day']} and arrives in "
            f"{top['destination']} at {top['arriveBy']}; the fare is {top['price']}."
        )
        return SearchResult(count=len(rows), offer=offer, searched=searched, name=top["trainID"], entity=top["entity"])

    def book_restaurant(self, **arguments: Any) -> BookingResult:
        return self._book("restaurant", RestaurantBooking(**arguments), "that restaurant")

    def book_hotel(self, **arguments: Any) -> BookingResult:
        return self._book("hotel", HotelBooking(**arguments), "that place to stay")

    def book_train(self, **arguments: Any) -> BookingResult:
        return self._book("train", TrainBooking(**arguments), "that train")

    def _book(
        self, domain: Domain, booking: RestaurantBooking | HotelBooking | TrainBooking, what: str
    ) -> BookingResult:
        """Book the offered row of ``domain`` (day, time and stay where the domain's booking has them)."""
        if self.db.row(domain, booking.entity) is None:
            return BookingResult(booked=False, reason=f"{what} is not in the database")
        extra = booking.model_dump(exclude={"entity", "people"})
        return BookingResult(
            booked=True, reference=self.db.book(self.session, domain, booking.entity, booking.people, **extra)
        )

    def registry(self) -> ToolRegistry:
        """Every tool, with its pydantic argument model (the engine validates before calling)."""
        registry = ToolRegistry()
        models: dict[str, type[BaseModel]] = {
            "search_restaurants": RestaurantQuery,
            "search_hotels": HotelQuery,
            "search_trains": TrainQuery,
            "book_restaurant": RestaurantBooking,
            "book_hotel": HotelBooking,
            "book_train": TrainBooking,
        }
        for name, model in models.items():
            function: Callable[..., Any] = getattr(self, name)
            registry.register(name, function, arguments=model)
        return registry
