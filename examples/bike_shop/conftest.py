"""Fixtures of the bike shop's tests: each test (and each conversation of the conversation file) gets a workshop of
its own, through the plugin's ``fsmdial_tools``."""

from __future__ import annotations

import pytest

from .tools import Workshop, make_tools


@pytest.fixture
def workshop() -> Workshop:
    return Workshop()


@pytest.fixture
def fsmdial_tools(workshop: Workshop):
    """Overrides the plugin's fixture: every ``fsmdial_assistant`` (and conversation file) calls this workshop."""
    return make_tools(workshop)
