"""Fixtures of the pizza shop's own test suite, built on the fsmdial pytest plugin's fixtures.

The plugin is installed with fsmdial: nothing to register here.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from .tools import Kitchen, make_tools

FLOW = Path(__file__).with_name("flow.json")


@pytest.fixture
def kitchen() -> Kitchen:
    """A fresh kitchen per test, so orders and capacity never leak between tests."""
    return Kitchen()


@pytest.fixture
def fsmdial_tools(kitchen: Kitchen):
    """Overrides the plugin's fixture: every ``fsmdial_dialogue`` of this suite calls this kitchen."""
    return make_tools(kitchen)


@pytest.fixture
def shop(fsmdial_dialogue):
    """A new conversation understood by the rules, so behaviour tests can assert exact replies."""
    return fsmdial_dialogue(FLOW, understander="rules")
