"""clem:todd's MultiWOZ booking tasks with fsmdial as the dialogue system.

* :mod:`.tools`: parameterised SQLite look-ups on the shipped MultiWOZ
  databases and a bookings table (a per-run in-memory copy; the shared files
  are opened read-only), as pydantic-typed fsmdial tools.
* :mod:`.build_flows`: writes ``flows/*.json`` beside it (package data) from the
  databases and the MultiWOZ ontology.
* :mod:`.user`: a goal-driven, agenda-based simulated user that reads only
  the bot's acts (kind, name, slot) and words.
* :mod:`.scorer`: booking success and inform rate, as clem:todd scores them.
* :mod:`.runner`: every task of a split, a 15-turn cap, a JSON report.
"""
