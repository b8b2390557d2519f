"""Shared fixtures for fsmdial's own tests."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
FLOWS = REPO / "flows"
FIXTURES = Path(__file__).resolve().parent / "fixtures"


@pytest.fixture
def clock():
    """A frozen clock: Sunday 22 November 2026, noon."""
    return lambda: dt.datetime(2026, 11, 22, 12, 0)
