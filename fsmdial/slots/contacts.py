"""Slot types found by their form in a message: a phone number, an email address, a reference, a street address.

Each is text stored in a normal form (a phone number as dialled, an email's domain in lower case, a reference as
one upper-case word, an address as said and tidied) that its reader in :mod:`fsmdial.language.contacts` (or
:mod:`fsmdial.language.addresses`) gives; a value without one is refused.
"""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING, Annotated, Any

from pydantic import StringConstraints

from ..language.addresses import address_value, find_addresses, says_address
from ..language.contacts import (
    email_value,
    find_emails,
    find_phones,
    find_references,
    phone_value,
    reference_value,
)
from .registry import KINDS, Exact, InvalidValue, SlotType, describe_pattern
from .text import TextKind, checked_text

if TYPE_CHECKING:
    from ..flow import Slot

__all__ = ["Address", "Email", "FoundKind", "Phone", "Reference", "contact_spans"]


class FoundKind(TextKind):
    """A text type whose values a finder reads out of a message (phone numbers, emails, references)."""

    whole_text = False
    outside_dates = True
    finds = True
    distinctive = True

    def normal(self, slot: Slot, text: str) -> str | None:  # pragma: no cover - every subclass has one
        raise NotImplementedError

    def found(self, slot: Slot, text: str) -> tuple[tuple[str, str], ...]:  # pragma: no cover
        raise NotImplementedError

    what = ""
    """The value in words, for a refusal ("a phone number")."""

    def coerce(self, slot: Slot, value: Any, now: dt.datetime, day: dt.date | None, bounds: bool) -> Any:
        written = str(value).strip()
        normal = self.normal(slot, written) if len(written) <= 4 * slot.string_limit else None
        if normal is None:
            raise InvalidValue(slot.name, value, f"{written!r} is not {self.what}")
        return checked_text(slot, value, normal)

    def find(self, slot: Slot, text: str, now: dt.datetime) -> dict[str, Any]:
        found: dict[str, Any] = {}
        refused: set[tuple[str, str]] = set()
        for span, value in self.found(slot, text):
            if span in found or (span, value) in refused:
                continue  # said again in a long reply: each said form is checked once
            try:
                found[span] = self.coerce(slot, value, now, None, False)
            except InvalidValue:
                refused.add((span, value))  # not of the slot's form (a pattern, a length): not offered
        return found

    def typed(self, slot: Slot) -> bool:
        return True

    def fits(self, slot: Slot, word: str) -> bool:
        try:
            self.coerce(slot, word, dt.datetime.min, None, False)
        except InvalidValue:
            return False
        return True

    def model_type(self, slot: Slot, exact: Exact) -> Any:
        return Annotated[str, StringConstraints(min_length=1, max_length=4 * slot.string_limit)]


class Phone(FoundKind):
    """A phone number, stored as dialled (digits, ``+`` before a country code), read in the slot's ``region``."""

    type_name = SlotType.phone
    options = FoundKind.options | {"region"}
    what = "a phone number"

    def normal(self, slot: Slot, text: str) -> str | None:
        return phone_value(text, slot.region)

    def found(self, slot: Slot, text: str) -> tuple[tuple[str, str], ...]:
        return find_phones(text, slot.region)

    def says_itself(self, span: str) -> bool:
        # "+44 ...", "07700 ...", "(555) ...", or ten digits and more; "12345678" may be an account number.
        return span.lstrip()[:1] in ("+", "0", "(") or sum(ch.isdigit() for ch in span) >= 10

    def prompt(self, slot: Slot) -> str:
        return "a phone number, the words that say it"


class Email(FoundKind):
    """An email address, its domain in lower case."""

    type_name = SlotType.email
    what = "an email address"
    outside_dates = False

    def normal(self, slot: Slot, text: str) -> str | None:
        return email_value(text)

    def found(self, slot: Slot, text: str) -> tuple[tuple[str, str], ...]:
        return find_emails(text)

    def prompt(self, slot: Slot) -> str:
        return "an email address, the words that say it"


class Reference(FoundKind):
    """A reference of letters and digits (a booking number), stored as one upper-case word."""

    type_name = SlotType.reference
    what = "a reference of letters and digits"
    distinctive = False

    def normal(self, slot: Slot, text: str) -> str | None:
        return reference_value(text)

    def found(self, slot: Slot, text: str) -> tuple[tuple[str, str], ...]:
        return find_references(text)

    def prompt(self, slot: Slot) -> str:
        what = f"a reference {describe_pattern(slot.pattern)}" if slot.pattern else "a reference (letters and digits)"
        return what + ", the words that say it"


class Address(FoundKind):
    """A street address ("Flat 3, 17 Albion Street, Leeds LS1 5AA", "350 Fifth Avenue, New York, NY 10118"), stored
    as said and tidied (no lead-in or thanks, the postcode in upper case): :mod:`fsmdial.language.addresses`.

    It claims its words: the rules read it before anything else in the message, and no other slot takes a word of it
    ("8 Meadow Lane" is no 08:00). The flow's only address slot, not asked, takes one said with its cue words ("pick
    me up from ...", "no, it's ...") or as more than a street (with its town, postcode, flat or building); a bare
    "8 Meadow Lane" may answer another question. A date or a time does not hide it (``outside_dates`` is off): its
    own words are no date or time.
    """

    type_name = SlotType.address
    what = "a street address"
    claims = True
    outside_dates = False

    def normal(self, slot: Slot, text: str) -> str | None:
        return address_value(text)

    def found(self, slot: Slot, text: str) -> tuple[tuple[str, str], ...]:
        return find_addresses(text)

    def says_itself(self, span: str) -> bool:
        return says_address(span)

    def fits(self, slot: Slot, word: str) -> bool:
        return False  # one word is never an address (the patterned slots' reader offers it single words)

    def prompt(self, slot: Slot) -> str:
        return "a street address (house number and street, town, postcode), the words that say it"


def contact_spans(text: str) -> tuple[str, ...]:
    """The spans of ``text`` that are a phone number that says it is one, or an email address, whatever the flow's
    slots: no number is read out of them ("07700900151" is no number of boxes)."""
    phone = KINDS[SlotType.phone]
    return tuple(span for span, _ in find_phones(text, None) if phone.says_itself(span)) + tuple(
        span for span, _ in find_emails(text)
    )
