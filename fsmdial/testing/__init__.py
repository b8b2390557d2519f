"""Test and benchmark an application's flows: scripted conversations, a frozen clock, benchmark helpers.

Everything here works without pytest; the pytest plugin (:mod:`fsmdial.testing.pytest_plugin`) exposes it
as fixtures. A script is a list of :class:`ExpectedTurn` s: the user's text and what the bot must do in
reply, played on a ``Dialogue`` or an ``Assistant``. Anything a turn leaves out is not checked (:data:`ABSENT`
expects a slot not set)::

    from fsmdial.testing import ExpectedTurn, ScriptedConversation, call, pattern

    ScriptedConversation(dialogue).run([
        ExpectedTurn.start(acts=["ask_pizza"]),
        ExpectedTurn("two large pepperoni", acts=["ask_pickup_day"], slots={"quantity": 2}),
        ExpectedTurn("yes", tool_calls=[call("place_order", {"pizza": "pepperoni", "quantity": 2})],
                     messages=[pattern(r"order number is \\d+"), "See you!"], ended=True),
    ])

A mismatch raises :class:`ConversationMismatch` (an ``AssertionError``) whose message names the
turn, the user's text, what was expected and what happened, and the trace of that turn.

:func:`bench_turn` and :func:`bench_conversation` time one turn or a whole script with
pytest-benchmark's ``benchmark`` fixture, keeping set-up (compiling, loading a model, warming its
KV cache, restoring the session) out of the timed part.

The modules, one job each: :mod:`.expectations` (what a turn must do, and what differs), :mod:`.clock`,
:mod:`.display` (acts and traces as text), :mod:`.script` (the scripted conversation), :mod:`.bench`; this
package gives their public names. Imported on their own, as they load more: :mod:`.pytest_plugin` (pytest),
:mod:`.suites` (``fsmdial eval conversations``: a suite of customers' conversations scored),
:mod:`.conversation_files` (``test_*.conversations.json``: conversations as data, played by the plugin),
:mod:`.forcing` (teacher forcing: a dialogue moved as a transcript says) and :mod:`.tiny_model` (a tiny
random GGUF model for tests, ``fsmdial tiny-model``).
"""

from __future__ import annotations

from . import bench, clock, display, expectations, script
from .bench import *  # noqa: F403  (each module's __all__ is the one list of its public names)
from .clock import *  # noqa: F403
from .display import *  # noqa: F403
from .expectations import *  # noqa: F403
from .script import *  # noqa: F403

# In the forms type checkers read (`__all__ += module.__all__`), so they see the same names as Python.
__all__: list[str] = []
__all__ += expectations.__all__
__all__ += clock.__all__
__all__ += display.__all__
__all__ += script.__all__
__all__ += bench.__all__
