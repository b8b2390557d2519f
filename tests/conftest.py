"""Shared fixtures for fsmdial's own tests."""

from __future__ import annotations

import datetime as dt
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from fsmdial.testing import FrozenClock
from tests.flows import small_flow

REPO = Path(__file__).resolve().parent.parent
FLOWS = REPO / "flows"
FIXTURES = Path(__file__).resolve().parent / "fixtures"


NOW = dt.datetime(2026, 11, 22, 12, 0)
"""The time the ``clock`` fixture starts at: Sunday 22 November 2026, noon."""


@pytest.fixture
def clock() -> FrozenClock:
    """The one frozen clock of fsmdial's tests, at :data:`NOW`;
    a test moves it with ``clock.set`` / ``clock.advance``."""
    return FrozenClock(NOW)


@pytest.fixture
def flow_doc() -> Callable[..., dict[str, Any]]:
    """The small flow builder (:func:`tests.flows.small_flow`): ``flow_doc(name="x", nodes=[...])``."""
    return small_flow


def run_cli(*args: str, stdin: str = "", timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """``fsmdial ARGS`` in a fresh interpreter, from the repository root (stdout and stderr captured)."""
    return subprocess.run(
        [sys.executable, "-m", "fsmdial.cli", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=timeout,
    )
