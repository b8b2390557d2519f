"""Repository-level pytest configuration (not shipped with the package).

A plain `pytest` run collects benches/ too, but runs each benchmark once,
untimed, only to prove it still works; measuring takes
`pytest benches --benchmark-only` (or --benchmark-enable).
"""

from __future__ import annotations

import os

# GGUF prefix states are not saved to the user's disk cache by test runs (nor read from it: a warm cache
# would change what a "cold" first turn evaluates). Tests of the disk cache give it a folder of their own.
os.environ.setdefault("FSMDIAL_KV_CACHE", "off")


def pytest_configure(config):
    option = config.option
    if hasattr(option, "benchmark_disable") and not (option.benchmark_only or option.benchmark_enable):
        option.benchmark_disable = True
