"""Benchmarks on real corpora: STAR next-action prediction (``fsmdial eval star``).

* :mod:`.star` — the protocol: sessions per flow, teacher forcing, routing, scores;
* :mod:`.corpus` — reading dialogues, gold queries and their constraints, the dev split;
* :mod:`.simulator` — the STAR APIs answered from seeded tables built from ``dbs/*.json``;
* :mod:`.oracle` — the gold-slot understander and the "what the wizard asked" view;
* :mod:`.predicates` — STAR condition tokens the schemas leave implicit;
* :mod:`.metrics` — accuracy, weighted F1 (scikit-learn's definition), API call tallies.
"""
