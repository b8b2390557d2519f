"""Importers: other flow formats (CHIEF, SOP adjacency lists) into :class:`fsmdial.flow.Flow`. STAR and SGD schemas are
the evaluation harness's (``fsmdial_eval.importers``, the ``fsmdial-eval`` distribution)."""
