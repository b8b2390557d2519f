"""Booking success and inform rate, as clem:todd scores them (its ``computetaskmetrics``).

Per task (an *episode*):

* An aborted episode, or one that used the whole turn budget (``turns == cap``),
  scores 0 for everything.
* What the system did is read from the bookings it made: per domain the latest
  booking (clem:todd keeps updating its record with every successful booking).
  The **informable** values are the booked entity's own database values (name,
  area, food, ... for the keys clem:todd compares), the **booking** values are
  the booking's keys (people, day, time or stay).
* **Inform** succeeds when every domain of the goal was booked and, for every
  constraint of the goal's ``info``, the booked entity has that value, or the
  ``fail_info`` value of the same key, or (times) a departure after ``leaveAt``
  / an arrival before ``arriveBy`` (clem:todd compares the HH:MM strings).
* **Booking success** needs inform success and every key of the goal's
  ``book`` (``invalid``/``pre_invalid`` aside) matched the same way, with
  ``fail_book`` as the accepted alternative.

Averages are reported twice: over tasks, and as clem:todd reports them (the
mean per domain combination, then the mean of those means).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

# The database keys clem:todd records from a booking, per domain (lower case, as it compares them).
INFORM_KEYS = {
    "restaurant": ("name", "area", "pricerange", "food"),
    "hotel": ("name", "type", "area", "pricerange", "stars", "parking", "internet"),
    "train": ("trainid", "departure", "destination", "day", "leaveat", "arriveby", "duration"),
}
BOOK_KEYS = {"restaurant": ("people", "day", "time"), "hotel": ("people", "day", "stay"), "train": ("people",)}
NOT_SLOTS = ("invalid", "pre_invalid")


@dataclass
class EpisodeScore:
    inform: int
    booking: int
    reasons: list[str] = field(default_factory=list)


def generated_slots(bookings: Sequence[Mapping[str, Any]], entity_of: Any) -> dict[str, dict[str, dict[str, str]]]:
    """``{domain: {"info": {...}, "book": {...}}}`` from the bookings made, the latest per domain winning.

    ``entity_of(domain, key)`` returns the booked entity's database row (a mapping) or None.
    """
    out: dict[str, dict[str, dict[str, str]]] = {}
    for booking in bookings:
        domain = booking["domain"]
        row = entity_of(domain, booking["entity"]) or {}
        lowered = {str(k).lower(): v for k, v in row.items()}
        info = {key: str(lowered[key]).lower() for key in INFORM_KEYS[domain] if lowered.get(key) not in (None, "")}
        book = {key: str(booking[key]).lower() for key in BOOK_KEYS[domain] if booking.get(key) is not None}
        slot = out.setdefault(domain, {"info": {}, "book": {}})
        slot["info"].update(info)
        slot["book"].update(book)
    return out


def _value_matches(key: str, goal: str, generated: str, fail: str | None) -> bool:
    if generated == goal or (fail is not None and generated == fail):
        return True
    # clem:todd's time rule, compared against the goal's value (string order of HH:MM).
    if key == "leaveat":
        return goal < generated
    if key == "arriveby":
        return goal > generated
    return False


def _compare(
    goal: Mapping[str, Mapping[str, Any]],
    fail: Mapping[str, Mapping[str, Any]],
    generated: Mapping[str, Mapping[str, str]],
    what: str,
) -> list[str]:
    """What does not match (empty: everything matches)."""
    problems = []
    for domain, values in goal.items():
        if domain not in generated:
            problems.append(f"{domain}: nothing booked")
            continue
        for key, raw in values.items():
            key_l = key.lower()
            if key_l in NOT_SLOTS:
                continue
            have = generated[domain].get(key_l)
            if have is None:
                problems.append(f"{domain}.{what}.{key_l}: missing")
                continue
            fail_value = {k.lower(): str(v).lower() for k, v in fail.get(domain, {}).items()}.get(key_l)
            if not _value_matches(key_l, str(raw).lower(), have, fail_value):
                problems.append(f"{domain}.{what}.{key_l}: goal {str(raw).lower()!r}, booked {have!r}")
    return problems


def score_episode(
    goal_domains: Mapping[str, Mapping[str, Any]],
    generated: Mapping[str, Mapping[str, Mapping[str, str]]],
    *,
    aborted: bool,
    turns: int,
    cap: int,
) -> EpisodeScore:
    """Inform and booking success of one task (0 or 1 each), with the reasons for a failure."""
    if aborted:
        return EpisodeScore(0, 0, ["aborted"])
    if turns >= cap:
        return EpisodeScore(0, 0, [f"used the whole budget of {cap} turns"])
    info = {d: g.get("info", {}) for d, g in goal_domains.items()}
    fail_info = {d: g.get("fail_info", {}) for d, g in goal_domains.items()}
    gen_info = {d: v.get("info", {}) for d, v in generated.items()}
    problems = _compare(info, fail_info, gen_info, "info")
    if problems:
        return EpisodeScore(0, 0, problems)
    book = {d: g.get("book", {}) for d, g in goal_domains.items() if g.get("book")}
    fail_book = {d: g.get("fail_book", {}) for d, g in goal_domains.items()}
    gen_book = {d: v.get("book", {}) for d, v in generated.items()}
    problems = _compare(book, fail_book, gen_book, "book")
    return EpisodeScore(1, 0 if problems else 1, problems)


def averages(rows: list[tuple[str, float]]) -> dict[str, float | None]:
    """``(group, value)`` pairs -> the mean over all (``tasks``) and clem:todd's mean of group means (``clemtodd``)."""
    if not rows:
        return {"tasks": None, "clemtodd": None}
    groups: dict[str, list[float]] = {}
    for group, value in rows:
        groups.setdefault(group, []).append(value)
    means = [sum(v) / len(v) for v in groups.values()]
    return {"tasks": sum(v for _, v in rows) / len(rows), "clemtodd": sum(means) / len(means)}
