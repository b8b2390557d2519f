"""Forgetting what the rules read before, so that a benchmark times reading, not the caches' lookups."""

from __future__ import annotations

import importlib
import pkgutil

import fsmdial.language
import fsmdial.understand.rules

FLOW_TABLES = frozenset(
    """value_pattern short_names alias_patterns _worded_forms _listed_ranges _forms _one_word_forms slot_cue _role
    _flow_words _search_pattern slot_lead text_cue _thing_item _groups_of _sides described_synonyms value_forms
    _head_group""".split()
)
"""Caches of a flow's own tables (a slot's values, description, name or label, a pattern), built once per flow in use
and kept: a new message does not rebuild them, so a benchmark of reading does not clear them (it did until stop 42,
rebuilding a slot's described forms for every long reply)."""


def clear_text_caches() -> None:
    """Forget every text read before: each per-text cache of the language package and of the rules' modules (the
    flow's own tables, :data:`FLOW_TABLES`, stay)."""
    kept: set[str] = set()
    for package in (fsmdial.language, fsmdial.understand.rules):
        for info in pkgutil.iter_modules(package.__path__):
            module = importlib.import_module(f"{package.__name__}.{info.name}")
            for name, value in vars(module).items():
                if not callable(getattr(value, "cache_clear", None)):
                    continue
                if name in FLOW_TABLES:
                    kept.add(name)
                else:
                    value.cache_clear()
    if missing := FLOW_TABLES - kept:  # a flow table renamed would be cleared again, unseen
        raise RuntimeError(f"benches/caches.py: no cached function named {sorted(missing)}")
