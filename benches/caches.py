"""Forgetting what the rules read before, so that a benchmark times reading, not the caches' lookups."""

from __future__ import annotations

import importlib
import pkgutil

import fsmdial.language
import fsmdial.understand.rules


def clear_text_caches() -> None:
    """Forget every text read before: each per-text cache of the language package and of the rules' modules."""
    for package in (fsmdial.language, fsmdial.understand.rules):
        for info in pkgutil.iter_modules(package.__path__):
            module = importlib.import_module(f"{package.__name__}.{info.name}")
            for value in vars(module).values():
                if callable(getattr(value, "cache_clear", None)):
                    value.cache_clear()
