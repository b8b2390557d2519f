"""Tools for the example flows in flows/, recording every call (used by tests and `fsmdial chat --tools`)."""

from __future__ import annotations

from typing import Any

from fsmdial.tools import ToolRegistry

calls: list[tuple[str, dict[str, Any]]] = []
registry = ToolRegistry()
KNOWN_CARD = ("1234", "1990-03-12")


@registry.tool()
def change_ride(ride_id: int, customer_name: str, change_description: str) -> dict[str, Any]:
    calls.append(
        ("change_ride", {"ride_id": ride_id, "customer_name": customer_name, "change_description": change_description})
    )
    return {"changed": ride_id != 999, "message": "updated"}


@registry.tool("RideChange")
def ride_change_chief(**arguments: Any) -> dict[str, Any]:
    calls.append(("RideChange", arguments))
    return {}


@registry.tool()
def bank_fraud_report(
    full_name: str,
    fraud_report: str,
    account_number: str | None = None,
    pin: str | None = None,
    date_of_birth: str | None = None,
    mothers_maiden_name: str | None = None,
    childhood_pet: str | None = None,
) -> dict[str, Any]:
    calls.append(("bank_fraud_report", {"full_name": full_name, "account_number": account_number}))
    return {"submitted": full_name.lower() != "nobody", "reference": "FR-1"}


@registry.tool()
def book_table(name: str, party_size: int, date: str, time: str, seating: str | None = None) -> dict[str, Any]:
    calls.append(("book_table", {"name": name, "party_size": party_size, "date": date, "time": time}))
    return {"booked": party_size <= 8, "reference": f"R-{party_size}-{time.replace(':', '')}"}


@registry.tool()
def verify_identity(card_last4: str, date_of_birth: str) -> dict[str, Any]:
    calls.append(("verify_identity", {"card_last4": card_last4, "date_of_birth": date_of_birth}))
    return {"verified": (card_last4, date_of_birth) == KNOWN_CARD}


@registry.tool()
def activate_card(card_last4: str, new_pin: str) -> dict[str, Any]:
    calls.append(("activate_card", {"card_last4": card_last4, "new_pin": new_pin}))
    return {"activated": True}


@registry.tool()
def book_appointment(
    owner_name: str, pet_name: str, species: str, reason: str, date: str, time: str, phone: str, email: str
) -> dict[str, Any]:
    calls.append(
        (
            "book_appointment",
            {"owner_name": owner_name, "pet_name": pet_name, "species": species, "date": date, "time": time},
        )
    )
    return {"booked": time >= "08:00" and time < "19:00", "reference": f"V-{date}-{time.replace(':', '')}"}


@registry.tool()
def place_delivery(
    box: str, quantity: int, address: str, delivery_day: str, delivery_time: str, customer_name: str, phone: str
) -> dict[str, Any]:
    calls.append(
        ("place_delivery", {"box": box, "quantity": quantity, "address": address, "delivery_day": delivery_day})
    )
    if not "08:00" <= delivery_time <= "20:00":
        raise ValueError(f"no delivery at {delivery_time}")
    return {
        "order_id": f"GB-{quantity}",
        "total": {"fruit box": 15.0, "vegetable box": 14.0, "mixed box": 18.0}[box] * quantity,
    }
