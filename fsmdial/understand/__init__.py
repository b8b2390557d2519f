"""Natural-language understanding for fsmdial (local models only).

* :mod:`.base`: the ``Understander`` protocol, ``UnderstandingState`` and ``Parse``;
* :mod:`.rules`: the deterministic understander (no model; English from :mod:`fsmdial.language`);
* :mod:`.gguf`: one grammar-constrained call per turn to a local GGUF model (the ``gguf`` extra),
  with :mod:`.prompt`, :mod:`.schema` and :mod:`.grammar`;
* :mod:`.backends`: the names of the constrained-decoding backends, :mod:`.decoding` their
  abstract bases and shared greedy loop, and one module per backend (:mod:`.llamacpp`,
  :mod:`.llguidance_backend`, :mod:`.outlines_backend`).

Importing this package loads none of them.
"""
