"""``fsmdial eval KIND``: the engine's own benchmark, and those the evaluation harness adds.

* ``conversations``: the customers' words suite (:mod:`fsmdial.testing.suites`), part of the engine;
* ``star``, ``sgd``, ``clemtodd``, ``multiwoz``, ``messy``: the corpus benchmarks, which come with the evaluation
  harness (the ``fsmdial-eval`` distribution, ``eval/`` in the repository) through its entry points of group
  ``fsmdial.eval`` (:func:`.common.installed_commands`). The engine never imports the harness.
"""

from __future__ import annotations

from typing import Any

from .common import INSTALL_HARNESS, Command, deferred, register_table

EVALS: dict[str, Command] = {
    "conversations": deferred(
        "customers' words suite: task success, wrong commits, slot errors by kind", "fsmdial.testing.suites"
    ),
}
"""The engine's benchmarks: name -> (help, add its arguments, run it)."""

WITHOUT_HARNESS = (
    "fsmdial eval star, sgd, clemtodd, multiwoz and messy (the corpus benchmarks) come with the evaluation harness, "
    f"which is not installed: {INSTALL_HARNESS}"
)


def register(subparsers: Any) -> None:
    register_table(
        subparsers, "eval", "evaluate the engine on a benchmark corpus", EVALS, group="eval", missing=WITHOUT_HARNESS
    )
