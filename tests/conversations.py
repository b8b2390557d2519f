"""Scripted conversations for every example flow, as :class:`fsmdial.testing.ExpectedTurn` lists.

Each entry is (flow file in flows/, script): the script opens with ``ExpectedTurn.start`` (the bot's opening acts),
then one :class:`ExpectedTurn` per user message with the acts the bot answers with, in order, and the tool calls
it makes (the arguments named). The same scripts run on the in-memory class, on the compiled source file, and through
`fsmdial chat` (tests/test_conversations.py, tests/cli/test_cli.py).
"""

from __future__ import annotations

from fsmdial.testing import ExpectedTurn, call

SCRIPTS: dict[str, tuple[str, list[ExpectedTurn]]] = {
    "ride_change": (
        "ride_change.json",
        [
            ExpectedTurn.start(acts=["ask_name"]),
            ExpectedTurn("hi", acts=["hello", "ask_name"], tool_calls=[]),
            ExpectedTurn("my name is Jane Doe", acts=["ride_ask_booking_number"], tool_calls=[]),
            ExpectedTurn("it is 102", acts=["ride_ask_change"], tool_calls=[]),
            ExpectedTurn(
                "please move the pickup to 7pm",
                acts=["ride_inform_changes_successful", "anything_else"],
                tool_calls=[
                    call(
                        "change_ride",
                        {
                            "ride_id": 102,
                            "customer_name": "Jane Doe",
                            "change_description": "please move the pickup to 7pm",
                        },
                    )
                ],
            ),
            ExpectedTurn("bye", acts=["goodbye"], tool_calls=[]),
        ],
    ),
    "ride_change_failed": (
        "ride_change.json",
        [
            ExpectedTurn.start(acts=["ask_name"]),
            ExpectedTurn("John", acts=["ride_ask_booking_number"], tool_calls=[]),
            ExpectedTurn("booking 999", acts=["ride_ask_change"], tool_calls=[]),
            ExpectedTurn(
                "new destination is the airport",
                acts=["ride_inform_changes_failed", "anything_else"],
                tool_calls=[
                    call(
                        "change_ride",
                        {
                            "ride_id": 999,
                            "customer_name": "John",
                            "change_description": "new destination is the airport",
                        },
                    )
                ],
            ),
        ],
    ),
    "ride_change_chief": (
        "ride_change.chief.json",
        [
            ExpectedTurn.start(acts=["ask_customer_name"]),
            ExpectedTurn("John", acts=["ask_ride_id"], tool_calls=[]),
            ExpectedTurn("500", acts=["ask_change_description"], tool_calls=[]),
            ExpectedTurn(
                "change pickup time",
                acts=["3"],
                tool_calls=[
                    call(
                        "RideChange",
                        {"customer_name": "John", "ride_id": 500, "change_description": "change pickup time"},
                    )
                ],
            ),
        ],
    ),
    "bank_fraud_report": (
        "bank_fraud_report.json",
        [
            ExpectedTurn.start(acts=["ask_name"]),
            ExpectedTurn("Jane Smith", acts=["bank_ask_account_number"], tool_calls=[]),
            ExpectedTurn("12345678", acts=["bank_ask_pin"], tool_calls=[]),
            ExpectedTurn("4321", acts=["bank_ask_fraud_details"], tool_calls=[]),
            ExpectedTurn(
                "There are two card payments in Paris I did not make",
                acts=["bank_inform_fraud_report_submitted", "anything_else"],
                tool_calls=[call("bank_fraud_report", {"full_name": "Jane Smith", "account_number": "12345678"})],
            ),
            ExpectedTurn("no thanks, bye", acts=["goodbye"], tool_calls=[]),
        ],
    ),
    "bank_fraud_report_alternate_authentication": (
        "bank_fraud_report.json",
        [
            ExpectedTurn.start(acts=["ask_name"]),
            ExpectedTurn("Jane Smith", acts=["bank_ask_account_number"], tool_calls=[]),
            ExpectedTurn("I don't know my account number", acts=["bank_ask_dob"], tool_calls=[]),
            ExpectedTurn("12 March 1990", acts=["bank_ask_mothers_maiden_name"], tool_calls=[]),
            ExpectedTurn("Miller", acts=["bank_ask_childhood_pets_name"], tool_calls=[]),
            ExpectedTurn("Rex", acts=["bank_ask_fraud_details"], tool_calls=[]),
            ExpectedTurn(
                "someone took money from my account",
                acts=["bank_inform_fraud_report_submitted", "anything_else"],
                tool_calls=[call("bank_fraud_report", {"full_name": "Jane Smith", "account_number": None})],
            ),
        ],
    ),
    "bank_fraud_report_cannot_authenticate": (
        "bank_fraud_report.json",
        [
            ExpectedTurn.start(acts=["ask_name"]),
            ExpectedTurn("Jane Smith", acts=["bank_ask_account_number"], tool_calls=[]),
            ExpectedTurn("no idea, sorry", acts=["bank_ask_dob"], tool_calls=[]),
            ExpectedTurn("I can't remember", acts=["bank_inform_cannot_authenticate", "anything_else"], tool_calls=[]),
        ],
    ),
    "restaurant_booking": (
        "restaurant_booking.json",
        [
            ExpectedTurn.start(acts=["ask_name"]),
            ExpectedTurn("a table for 4 tomorrow at 7pm", acts=["noted", "ask_name"], tool_calls=[]),
            ExpectedTurn("what are your opening hours", acts=["opening_hours", "ask_name"], tool_calls=[]),
            ExpectedTurn("Alex", acts=["confirm_booking"], tool_calls=[]),
            ExpectedTurn("no", acts=["ask_change"], tool_calls=[]),
            ExpectedTurn("actually make it 6 people", acts=["changed", "confirm_booking"], tool_calls=[]),
            ExpectedTurn(
                "yes",
                acts=["booked", "goodbye"],
                tool_calls=[
                    call("book_table", {"name": "Alex", "party_size": 6, "date": "2026-11-23", "time": "19:00"})
                ],
            ),
        ],
    ),
    "restaurant_booking_no_table": (
        "restaurant_booking.json",
        [
            ExpectedTurn.start(acts=["ask_name"]),
            ExpectedTurn("Sam", acts=["ask_party_size"], tool_calls=[]),
            ExpectedTurn("12", acts=["ask_date"], tool_calls=[]),
            ExpectedTurn("next friday", acts=["ask_time"], tool_calls=[]),
            ExpectedTurn("8pm", acts=["confirm_booking"], tool_calls=[]),
            ExpectedTurn(
                "yes please",
                acts=["no_table"],
                tool_calls=[
                    call("book_table", {"name": "Sam", "party_size": 12, "date": "2026-11-27", "time": "20:00"})
                ],
            ),
            ExpectedTurn("ok then 8 people", acts=["changed", "confirm_booking"], tool_calls=[]),
            ExpectedTurn(
                "yes",
                acts=["booked", "goodbye"],
                tool_calls=[
                    call("book_table", {"name": "Sam", "party_size": 8, "date": "2026-11-27", "time": "20:00"})
                ],
            ),
        ],
    ),
    "card_activation": (
        "card_activation.json",
        [
            ExpectedTurn.start(acts=["ask_card_last4"]),
            ExpectedTurn("it's 9999", acts=["ask_date_of_birth"], tool_calls=[]),
            ExpectedTurn(
                "12 March 1990",
                acts=["identity_mismatch", "ask_card_last4"],
                tool_calls=[call("verify_identity", {"card_last4": "9999", "date_of_birth": "1990-03-12"})],
            ),
            ExpectedTurn("1234", acts=["ask_date_of_birth"], tool_calls=[]),
            ExpectedTurn(
                "1990-03-12",
                acts=["offer_activation"],
                tool_calls=[call("verify_identity", {"card_last4": "1234", "date_of_birth": "1990-03-12"})],
            ),
            ExpectedTurn("yes", acts=["ask_new_pin"], tool_calls=[]),
            ExpectedTurn("4321", acts=["confirm_new_pin"], tool_calls=[]),
            ExpectedTurn(
                "yes", acts=["activated"], tool_calls=[call("activate_card", {"card_last4": "1234", "new_pin": "4321"})]
            ),
        ],
    ),
    "card_activation_sop": (
        "card_activation.sop.json",
        [
            ExpectedTurn.start(acts=["VerifyIdentity"]),
            ExpectedTurn("yes, I am the cardholder", acts=["IntroduceActivation"], tool_calls=[]),
            ExpectedTurn("what does it cost", acts=["RelieveDoubts"], tool_calls=[]),
            ExpectedTurn("go ahead", acts=["AskForPassword"], tool_calls=[]),
            ExpectedTurn("the password is blue sky", acts=["ConfirmActivation", "PoliteEnd"], tool_calls=[]),
        ],
    ),
    "card_activation_locked_out": (
        "card_activation.json",
        [
            ExpectedTurn.start(acts=["ask_card_last4"]),
            ExpectedTurn("1111", acts=["ask_date_of_birth"], tool_calls=[]),
            ExpectedTurn(
                "1990-03-12",
                acts=["identity_mismatch", "ask_card_last4"],
                tool_calls=[call("verify_identity", {"card_last4": "1111", "date_of_birth": "1990-03-12"})],
            ),
            ExpectedTurn("2222", acts=["ask_date_of_birth"], tool_calls=[]),
            ExpectedTurn(
                "1990-03-12",
                acts=["identity_mismatch", "ask_card_last4"],
                tool_calls=[call("verify_identity", {"card_last4": "2222", "date_of_birth": "1990-03-12"})],
            ),
            ExpectedTurn("3333", acts=["ask_date_of_birth"], tool_calls=[]),
            ExpectedTurn(
                "1990-03-12",
                acts=["identity_mismatch", "locked_out"],
                tool_calls=[call("verify_identity", {"card_last4": "3333", "date_of_birth": "1990-03-12"})],
            ),
        ],
    ),
    "vet_appointment": (
        "vet_appointment.json",
        [
            ExpectedTurn.start(acts=["ask_owner_name"]),
            ExpectedTurn("Maria Lopez", acts=["ask_pet_name"], tool_calls=[]),
            ExpectedTurn("Biscuit", acts=["ask_species"], tool_calls=[]),
            ExpectedTurn("dog", acts=["ask_reason"], tool_calls=[]),
            ExpectedTurn("annual vaccination", acts=["ask_date"], tool_calls=[]),
            ExpectedTurn("tomorrow at 9:30", acts=["ask_phone"], tool_calls=[]),
            ExpectedTurn("07700900123", acts=["ask_email"], tool_calls=[]),
            ExpectedTurn("maria@example.com", acts=["confirm_appointment"], tool_calls=[]),
            ExpectedTurn(
                "yes",
                acts=["booked", "goodbye"],
                tool_calls=[
                    call(
                        "book_appointment",
                        {
                            "owner_name": "Maria Lopez",
                            "pet_name": "Biscuit",
                            "species": "dog",
                            "date": "2026-11-23",
                            "time": "09:30",
                        },
                    )
                ],
            ),
        ],
    ),
    "grocery_delivery": (
        "grocery_delivery.json",
        [
            ExpectedTurn.start(acts=["ask_box"]),
            ExpectedTurn("2 vegetable box", acts=["ask_address"], tool_calls=[]),
            ExpectedTurn("12 Mill Lane, Oxford", acts=["ask_day"], tool_calls=[]),
            ExpectedTurn("tomorrow at 10am", acts=["ask_name"], tool_calls=[]),
            ExpectedTurn("Sam Green", acts=["ask_phone"], tool_calls=[]),
            ExpectedTurn("07700900456", acts=["confirm_order"], tool_calls=[]),
            ExpectedTurn(
                "yes",
                acts=["ordered", "goodbye"],
                tool_calls=[
                    call(
                        "place_delivery",
                        {
                            "box": "vegetable box",
                            "quantity": 2,
                            "address": "12 Mill Lane, Oxford",
                            "delivery_day": "2026-11-23",
                        },
                    )
                ],
            ),
        ],
    ),
}
