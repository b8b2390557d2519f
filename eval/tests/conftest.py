"""Shared fixtures of the evaluation harness's tests (eval/tests/, run with the engine's: pyproject's testpaths).

These tests are not a package: the engine's tests are the package ``tests``, so these are imported by file name
(pytest's default, ``rootdir``-less modules), and their names differ from one another (``test_star_importer.py``).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest


@pytest.fixture(scope="module")
def clemtodd_db() -> Iterator[Any]:
    """clem:todd's MultiWOZ databases (the test is skipped when the data is not here)."""
    from fsmdial_eval.clemtodd.tools import MultiwozDB, default_data_dir

    data = default_data_dir()
    if data is None:
        pytest.skip("clem:todd data not found (set FSMDIAL_CLEMTODD)")
    database = MultiwozDB(data)
    yield database
    database.close()
