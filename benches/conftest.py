"""Shared set-up for the benchmark suite (pytest-benchmark).

Run:   pytest benches --benchmark-only --benchmark-json=b.json
Table: python benches/report.py b.json
A plain `pytest` run executes each benchmark once, untimed (see the repository conftest.py).
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
FLOWS = REPO / "flows"
EXAMPLE_FLOWS = sorted(p for p in FLOWS.glob("*.json"))
STAR_FLOWS = sorted((FLOWS / "star").glob("*.json"))


def frozen_clock() -> dt.datetime:
    return dt.datetime(2026, 11, 22, 12, 0)


@pytest.fixture
def clock():
    return frozen_clock
