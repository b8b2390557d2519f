"""The bike shop's tools: booking a repair and cancelling one, by reference."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from fsmdial.tools import ToolRegistry


class UnknownBooking(Exception):
    """No booking has that reference (the cancel flow's failure edge)."""


@dataclass
class Workshop:
    """The bookings by reference (a real shop keeps them in its database)."""

    bookings: dict[str, dict[str, Any]] = field(default_factory=dict)
    cancelled: list[str] = field(default_factory=list)

    def book_repair(self, name: str, bike: str, day: dt.date) -> dict:
        reference = f"R{1001 + len(self.bookings) + len(self.cancelled)}"
        self.bookings[reference] = {"name": name, "bike": bike, "day": day}
        return {"reference": reference}

    def cancel_repair(self, reference: str) -> dict:
        if reference not in self.bookings:
            raise UnknownBooking(reference)
        del self.bookings[reference]
        self.cancelled.append(reference)
        return {}


def make_tools(workshop: Workshop) -> ToolRegistry:
    tools = ToolRegistry()
    tools.register("book_repair", workshop.book_repair)
    tools.register("cancel_repair", workshop.cancel_repair, failures=(UnknownBooking,))
    return tools


tools = make_tools(Workshop())
"""What ``fsmdial chat`` talks to (one workshop for the session)."""
