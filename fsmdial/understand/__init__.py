"""Natural-language understanding for fsmdial (local models only), in wings that import only downward.

* :mod:`.base`: the ``Understander`` protocol, ``UnderstandingState`` and ``Parse`` (what the runtime sees);
* :mod:`.rules`: the rules reading, the deterministic default understander (no model; English from
  :mod:`fsmdial.language`): ``RulesUnderstander``, categorical values, values by their form, corrections;
* :mod:`.constraint`: what a model may say in one turn: the grounded values (spans of the message), the
  turn's schema (the rules' reading stands, the model only adds) and its bounded grammar;
* :mod:`.meaning`: meaning without words: a small embedding model (all-MiniLM-L6-v2 in numpy) chooses the asked
  categorical slot's value, an intent or a flow the message words differently, or abstains;
* :mod:`.decoding`: greedy constrained decoding in this process: the backends' names, their shared loop,
  one module per backend, the llama.cpp model loader and its prefix states on disk;
* :mod:`.model`: the understanders that ask a model: the grounded turn they share, the local GGUF model,
  a llama-server and an OpenAI-compatible server, and the prompt;
* :mod:`.factory`: ``make_understander``, the one place a command or an evaluation chooses one.

Each wing imports only the ones listed before it: base < rules < constraint < meaning < decoding < model < factory
(``tests/test_module_hygiene.py`` holds this, type-only imports included). The tiny random-weight test model
is a testing tool (:mod:`fsmdial.testing.tiny_model`). Importing this package loads none of the wings.
"""
