"""Repository-level pytest configuration (not shipped with the package).

A plain `pytest` run collects benches/ too, but runs each benchmark once,
untimed, only to prove it still works; measuring takes
`pytest benches --benchmark-only` (or --benchmark-enable).
"""

from __future__ import annotations


def pytest_configure(config):
    option = config.option
    if hasattr(option, "benchmark_disable") and not (option.benchmark_only or option.benchmark_enable):
        option.benchmark_disable = True
