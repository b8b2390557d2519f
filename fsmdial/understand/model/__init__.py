"""Understanders that ask a model: one grammar-constrained call per turn, beside the rules.

* :mod:`.understander`: :class:`~.understander.ModelUnderstander`, the grounded turn they all take (the fast
  path, what the rules read stands, the turn's schema, the merge); a subclass makes the model call;
* :mod:`.gguf`: :class:`~.gguf.GGUFUnderstander`, a local GGUF model decoded in this process;
* :mod:`.server`: :class:`~.server.ServerUnderstander`, the same turn decoded by a llama-server;
* :mod:`.openai_server`: the same on an OpenAI-compatible ``/v1/completions`` (vLLM, SGLang, llama-server);
* :mod:`.transport`: the two servers' HTTP client: one deadline per model call, a bound on an answer's size,
  retries;
* :mod:`.prompt`: the prompt, built so that consecutive turns share a long prefix;
* :mod:`.scoring`: the other way for the local model to decide (``choose="score"``): each grounded option
  said as a sentence and scored, the best above a margin chosen.

Importing this package loads none of its modules (the local model needs the ``gguf`` extra).
"""
