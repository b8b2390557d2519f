"""What a model may say in one turn: the grounded values, the turn's schema and its bounded grammar.

* :mod:`.grounding`: the spans of the user's message a slot value may be copied from, and what they read as;
* :mod:`.cues`: where the message names a slot by its own words, and where a value of it may start after them;
* :mod:`.schema`: the turn's JSON schema (what the rules read stands; the model may only add), and the
  parse of a model's output against it;
* :mod:`.grammar`: that schema as a bounded grammar (GBNF, and a regular expression);
* :mod:`.grammar_start`: the output's fixed start, written into the prompt instead of decoded;
* :mod:`.offer`: whether an output fits exactly what the turn's schema offered (the schema as a check).

Pure Python (pydantic, no model): it imports the rules reading (:mod:`fsmdial.understand.rules`, for a type
only) and :mod:`~fsmdial.understand.base`, nothing that decodes.
"""
