"""fsmdial: an embedded dialogue engine. Flows compile to state machines; a local model only understands."""

__version__ = "0.1.0"
