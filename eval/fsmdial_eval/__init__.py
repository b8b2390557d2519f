"""fsmdial's evaluation harness: benchmarks on real corpora, apart from the engine (the ``fsmdial-eval``
distribution; ``pip install fsmdial`` carries none of it).

* :mod:`.star` — STAR next-action prediction: sessions per flow, teacher forcing, routing, scores;
* :mod:`.corpus` — reading STAR dialogues, gold queries and their constraints, the dev split;
* :mod:`.simulator` — the STAR APIs answered from seeded tables built from ``dbs/*.json``;
* :mod:`.oracle` — the gold-slot understander and the "what the wizard asked" view;
* :mod:`.predicates` — STAR condition tokens the schemas leave implicit;
* :mod:`.metrics` — accuracy, weighted F1 (scikit-learn's definition), API call tallies;
* :mod:`.sgd` — SGD dialogue state tracking with the official metrics;
* :mod:`.clemtodd` — clem:todd's MultiWOZ booking tasks with a simulated user, and their flows;
* :mod:`.multiwoz_turns` — turn-level slot precision/recall on real MultiWOZ users' words;
* :mod:`.messy` — slot precision/recall on labelled messy utterances of the engine's example flows;
* :mod:`.importers` — STAR task schemas (with our overlays) and SGD service schemas as fsmdial flows;
* :mod:`.commands` — the commands the engine's ``fsmdial eval`` / ``fsmdial import`` find through this
  distribution's entry points (groups ``fsmdial.eval``, ``fsmdial.import``).
"""
