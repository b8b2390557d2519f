"""The pizzeria's tools: what the flow's ``place_order`` action calls.

The kitchen bakes a limited number of each pizza per day; an order it cannot take raises
:class:`SoldOut`, which the flow turns into its ``failure`` edge.

``fsmdial chat examples/pizza_shop/flow.json --tools pizza_shop.tools:tools`` (with ``examples``
on ``PYTHONPATH``) talks to a fresh kitchen.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from fsmdial.tools import ToolRegistry

PRICES = {"small": 7.5, "medium": 9.0, "large": 11.5}
"""Price of one pizza by size, in EUR; four cheese costs one euro more."""
DAILY_CAPACITY = 12
"""Pizzas of one kind the kitchen bakes per day."""


class SoldOut(Exception):
    """The kitchen cannot bake that many of this pizza on that day."""


@dataclass
class Order:
    order_id: int
    pizza: str
    size: str
    quantity: int
    pickup: dt.datetime
    customer_name: str
    total: float


@dataclass
class Kitchen:
    capacity: int = DAILY_CAPACITY
    orders: list[Order] = field(default_factory=list)
    next_id: int = 101

    def baked(self, pizza: str, day: dt.date) -> int:
        return sum(o.quantity for o in self.orders if o.pizza == pizza and o.pickup.date() == day)

    def place_order(
        self, pizza: str, size: str, quantity: int, pickup_day: dt.date, pickup_time: dt.time, customer_name: str
    ) -> dict:
        if self.baked(pizza, pickup_day) + quantity > self.capacity:
            raise SoldOut(f"only {self.capacity - self.baked(pizza, pickup_day)} {pizza} left on {pickup_day}")
        total = (PRICES[size] + (1.0 if pizza == "four cheese" else 0.0)) * quantity
        order = Order(
            self.next_id, pizza, size, quantity, dt.datetime.combine(pickup_day, pickup_time), customer_name, total
        )
        self.orders.append(order)
        self.next_id += 1
        return {"order_id": order.order_id, "total": order.total}


def make_tools(kitchen: Kitchen) -> ToolRegistry:
    """The tools of one kitchen (typed arguments: fsmdial validates them before the call)."""
    tools = ToolRegistry()
    tools.register("place_order", kitchen.place_order, failures=(SoldOut,))  # a declared business failure
    return tools


tools = make_tools(Kitchen())
