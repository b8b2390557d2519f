"""Scripted conversations for every example flow: (user text, expected act names, expected tool calls).

The same scripts run on the in-memory class, on the compiled source file, and
through `fsmdial chat` (tests/test_conversations.py, tests/test_cli.py).
"""

from __future__ import annotations

Turn = tuple[str, list[str], list[tuple[str, dict]]]

SCRIPTS: dict[str, tuple[str, list[str], list[Turn]]] = {
    "ride_change": (
        "ride_change.json",
        ["ask_name"],
        [
            ("hi", ["hello", "ask_name"], []),
            ("my name is Jane Doe", ["ride_ask_booking_number"], []),
            ("it is 102", ["ride_ask_change"], []),
            ("please move the pickup to 7pm", ["ride_inform_changes_successful", "anything_else"],
             [("change_ride", {"ride_id": 102, "customer_name": "Jane Doe", "change_description": "please move the pickup to 7pm"})]),
            ("bye", ["goodbye"], []),
        ],
    ),
    "ride_change_failed": (
        "ride_change.json",
        ["ask_name"],
        [
            ("John", ["ride_ask_booking_number"], []),
            ("booking 999", ["ride_ask_change"], []),
            ("new destination is the airport", ["ride_inform_changes_failed", "anything_else"],
             [("change_ride", {"ride_id": 999, "customer_name": "John", "change_description": "new destination is the airport"})]),
        ],
    ),
    "ride_change_chief": (
        "ride_change.chief.json",
        ["ask_customer_name"],
        [
            ("John", ["ask_ride_id"], []),
            ("500", ["ask_change_description"], []),
            ("change pickup time", ["3"], [("RideChange", {"customer_name": "John", "ride_id": 500, "change_description": "change pickup time"})]),
        ],
    ),
    "bank_fraud_report": (
        "bank_fraud_report.json",
        ["ask_name"],
        [
            ("Jane Smith", ["bank_ask_account_number"], []),
            ("12345678", ["bank_ask_pin"], []),
            ("4321", ["bank_ask_fraud_details"], []),
            ("There are two card payments in Paris I did not make", ["bank_inform_fraud_report_submitted", "anything_else"],
             [("bank_fraud_report", {"full_name": "Jane Smith", "account_number": "12345678"})]),
            ("no thanks, bye", ["goodbye"], []),
        ],
    ),
    "bank_fraud_report_alternate_authentication": (
        "bank_fraud_report.json",
        ["ask_name"],
        [
            ("Jane Smith", ["bank_ask_account_number"], []),
            ("I don't know my account number", ["bank_ask_dob"], []),
            ("12 March 1990", ["bank_ask_mothers_maiden_name"], []),
            ("Miller", ["bank_ask_childhood_pets_name"], []),
            ("Rex", ["bank_ask_fraud_details"], []),
            ("someone took money from my account", ["bank_inform_fraud_report_submitted", "anything_else"],
             [("bank_fraud_report", {"full_name": "Jane Smith", "account_number": None})]),
        ],
    ),
    "bank_fraud_report_cannot_authenticate": (
        "bank_fraud_report.json",
        ["ask_name"],
        [
            ("Jane Smith", ["bank_ask_account_number"], []),
            ("no idea, sorry", ["bank_ask_dob"], []),
            ("I can't remember", ["bank_inform_cannot_authenticate", "anything_else"], []),
        ],
    ),
    "restaurant_booking": (
        "restaurant_booking.json",
        ["ask_name"],
        [
            ("a table for 4 tomorrow at 7pm", ["ask_name"], []),
            ("what are your opening hours", ["opening_hours", "ask_name"], []),
            ("Alex", ["confirm_booking"], []),
            ("no", ["ask_change"], []),
            ("actually make it 6 people", ["changed", "confirm_booking"], []),
            ("yes", ["booked", "goodbye"],
             [("book_table", {"name": "Alex", "party_size": 6, "date": "2026-11-23", "time": "19:00"})]),
        ],
    ),
    "restaurant_booking_no_table": (
        "restaurant_booking.json",
        ["ask_name"],
        [
            ("Sam", ["ask_party_size"], []),
            ("12", ["ask_date"], []),
            ("next friday", ["ask_time"], []),
            ("8pm", ["confirm_booking"], []),
            ("yes please", ["no_table"], [("book_table", {"name": "Sam", "party_size": 12, "date": "2026-11-27", "time": "20:00"})]),
            ("ok then 8 people", ["changed", "confirm_booking"], []),
            ("yes", ["booked", "goodbye"], [("book_table", {"name": "Sam", "party_size": 8, "date": "2026-11-27", "time": "20:00"})]),
        ],
    ),
    "card_activation": (
        "card_activation.json",
        ["ask_card_last4"],
        [
            ("it's 9999", ["ask_date_of_birth"], []),
            ("12 March 1990", ["identity_mismatch", "ask_card_last4"],
             [("verify_identity", {"card_last4": "9999", "date_of_birth": "1990-03-12"})]),
            ("1234", ["ask_date_of_birth"], []),
            ("1990-03-12", ["offer_activation"], [("verify_identity", {"card_last4": "1234", "date_of_birth": "1990-03-12"})]),
            ("yes", ["ask_new_pin"], []),
            ("4321", ["confirm_new_pin"], []),
            ("yes", ["activated"], [("activate_card", {"card_last4": "1234", "new_pin": "4321"})]),
        ],
    ),
    "card_activation_sop": (
        "card_activation.sop.json",
        ["VerifyIdentity"],
        [
            ("yes, I am the cardholder", ["IntroduceActivation"], []),
            ("what does it cost", ["RelieveDoubts"], []),
            ("go ahead", ["AskForPassword"], []),
            ("the password is blue sky", ["ConfirmActivation", "PoliteEnd"], []),
        ],
    ),
    "card_activation_locked_out": (
        "card_activation.json",
        ["ask_card_last4"],
        [
            ("1111", ["ask_date_of_birth"], []),
            ("1990-03-12", ["identity_mismatch", "ask_card_last4"], [("verify_identity", {"card_last4": "1111", "date_of_birth": "1990-03-12"})]),
            ("2222", ["ask_date_of_birth"], []),
            ("1990-03-12", ["identity_mismatch", "ask_card_last4"], [("verify_identity", {"card_last4": "2222", "date_of_birth": "1990-03-12"})]),
            ("3333", ["ask_date_of_birth"], []),
            ("1990-03-12", ["identity_mismatch", "locked_out"], [("verify_identity", {"card_last4": "3333", "date_of_birth": "1990-03-12"})]),
        ],
    ),
    "vet_appointment": (
        "vet_appointment.json",
        ["ask_owner_name"],
        [
            ("Maria Lopez", ["ask_pet_name"], []),
            ("Biscuit", ["ask_species"], []),
            ("dog", ["ask_reason"], []),
            ("annual vaccination", ["ask_date"], []),
            ("tomorrow at 9:30", ["ask_phone"], []),
            ("07700900123", ["ask_email"], []),
            ("maria@example.com", ["confirm_appointment"], []),
            ("yes", ["booked", "goodbye"],
             [("book_appointment", {"owner_name": "Maria Lopez", "pet_name": "Biscuit", "species": "dog",
                                    "date": "2026-11-23", "time": "09:30"})]),
        ],
    ),
    "grocery_delivery": (
        "grocery_delivery.json",
        ["ask_box"],
        [
            ("2 vegetable box", ["ask_address"], []),
            ("12 Mill Lane, Oxford", ["ask_day"], []),
            ("tomorrow at 10am", ["ask_name"], []),
            ("Sam Green", ["ask_phone"], []),
            ("07700900456", ["confirm_order"], []),
            ("yes", ["ordered", "goodbye"],
             [("place_delivery", {"box": "vegetable box", "quantity": 2, "address": "12 Mill Lane, Oxford",
                                  "delivery_day": "2026-11-23"})]),
        ],
    ),
}
