"""Greedy constrained decoding on a llama.cpp model in this process.

* :mod:`.backends`: the names of the backends (importing it loads none of them, nor llama.cpp);
* :mod:`.decoder`: the abstract bases every backend fills in and the greedy loop they share;
* :mod:`.llama_model`: the GGUF model loaded through llama-cpp-python, its KV cache and prefix states;
* :mod:`.kv_cache`: the prefix states saved on disk;
* :mod:`.suffix_scores`: no decoding: the log-probabilities of short continuations of one prompt (the
  scoring chooser's options), the prompt evaluated once;
* one module per backend: :mod:`.llguidance_backend`, :mod:`.llamacpp_backend`, :mod:`.outlines_backend`.

It decodes the grammars of :mod:`fsmdial.understand.constraint` and knows no understander.
Importing this package loads none of its modules.
"""
