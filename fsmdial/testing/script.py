"""A scripted conversation: a :class:`Dialogue` or an :class:`Assistant` driven through expected turns, each reply
checked as it comes.

A mismatch raises :class:`ConversationMismatch` (an ``AssertionError``) whose message names the turn, the
user's text, what was expected and what happened, and the trace of that turn.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from .display import format_acts, format_trace
from .expectations import ExpectedTurn, answered_by, check_turn, expected_act, show_args

if TYPE_CHECKING:
    from ..conversation import Conversation
    from ..trace import TurnResult

__all__ = ["ConversationMismatch", "ScriptedConversation", "run_conversation"]


class ConversationMismatch(AssertionError):
    """A scripted turn did not go as expected. ``problems`` lists what differed."""

    # Every failing test shows this class's dotted name: the one it is imported by, not the module it is defined in.
    __module__ = "fsmdial.testing"

    def __init__(self, message: str, *, index: int, turn: ExpectedTurn, result: TurnResult | None, problems: list[str]):
        super().__init__(message)
        self.index = index
        self.turn = turn
        self.result = result
        self.problems = problems


class ScriptedConversation:
    """Drives a :class:`Dialogue` (or an :class:`Assistant`: any :class:`~fsmdial.conversation.Conversation`)
    through scripted turns, checking each reply as it comes.

    :meth:`start` and :meth:`say` take a turn's expectations as keywords (see :class:`ExpectedTurn`);
    :meth:`run` takes a whole script. ``results`` holds every reply so far.
    """

    def __init__(self, dialogue: Conversation):
        self.dialogue = dialogue
        self.results: list[TurnResult] = []
        self._done: list[tuple[ExpectedTurn, TurnResult | None]] = []
        self._total: int | None = None

    def start(self, **expect: Any) -> TurnResult | None:
        """The bot's opening, checked against ``expect``."""
        __tracebackhide__ = True
        return self.play(ExpectedTurn(None, **expect))

    def say(self, text: str, **expect: Any) -> TurnResult | None:
        """One user turn, checked against ``expect``."""
        __tracebackhide__ = True
        return self.play(ExpectedTurn(text, **expect))

    def run(self, script: Iterable[ExpectedTurn | str | None | Mapping[str, Any]]) -> list[TurnResult]:
        """Every turn of ``script`` in order; stops at the first mismatch."""
        __tracebackhide__ = True
        turns = [ExpectedTurn.of(spec) for spec in script]
        self._total = len(self._done) + len(turns)
        results = []
        try:
            for turn in turns:  # a loop, not a comprehension: its frame would show in pytest's traceback
                result = self.play(turn)
                if result is not None:
                    results.append(result)
            return results
        finally:
            self._total = None

    def play(self, turn: ExpectedTurn) -> TurnResult | None:
        """Play one :class:`ExpectedTurn`; returns its result (None when it raised as expected)."""
        __tracebackhide__ = True
        index = len(self._done) + 1
        try:
            result = self.dialogue.start() if turn.user is None else self.dialogue.turn(turn.user)
        except Exception as exc:
            if turn.raises is not None and isinstance(exc, turn.raises):
                self._done.append((turn, None))
                return None
            problems = [f"the turn raised {type(exc).__name__}: {exc}"]
            raise self._mismatch(index, turn, None, problems) from exc
        if turn.raises is not None:
            problems = [f"expected the turn to raise {_names(turn.raises)}, but it returned"]
            raise self._mismatch(index, turn, result, problems + check_turn(self.dialogue, turn, result))
        problems = check_turn(self.dialogue, turn, result)
        if problems:
            raise self._mismatch(index, turn, result, problems)
        self._done.append((turn, result))
        self.results.append(result)
        return result

    def _mismatch(
        self, index: int, turn: ExpectedTurn, result: TurnResult | None, problems: list[str]
    ) -> ConversationMismatch:
        of = f" of {self._total}" if self._total else ""
        lines = [f"turn {index}{of}: {turn.label}"]
        lines.extend("  " + problem for problem in problems)
        if result is not None:
            if turn.acts is not None and not any(problem.startswith("acts differ") for problem in problems):
                lines.append("acts as expected: " + ", ".join(expected_act(spec).describe() for spec in turn.acts))
            # An Assistant's reply names its flow too; a Dialogue has one.
            flow = answered_by(self.dialogue, result) if hasattr(self.dialogue, "dialogues") else None
            at = f"flow {flow}, node {result.node}" if flow else f"node {result.node}"
            lines.append(f"bot replied (now at {at}{', ended' if result.ended else ''}):")
            lines.append(format_acts(result.acts))
            if turn.slots is not None:
                lines.append("slots now: " + (show_args(self.dialogue.slots) or "(none)"))
                for name, dialogue in sorted(getattr(self.dialogue, "dialogues", {}).items()):
                    lines.append(f"  {name}: " + (show_args(dialogue.slots) or "(none)"))
            lines.append(f"trace of turn {index}:")
            lines.append(format_trace(result.trace))
        if self._done:
            lines.append("earlier turns:")
            first = max(0, len(self._done) - 4)
            if first:
                lines.append(f"  ... {first} more")
            for number, (done, done_result) in enumerate(self._done[first:], start=first + 1):
                reply = ", ".join(done_result.act_names) if done_result is not None else "(raised as expected)"
                lines.append(
                    f"  {number}. {'(opening)' if done.user is None else repr(done.user)} -> {reply or '(no acts)'}"
                )
        return ConversationMismatch("\n".join(lines), index=index, turn=turn, result=result, problems=problems)


def run_conversation(
    dialogue: Conversation, script: Iterable[ExpectedTurn | str | None | Mapping[str, Any]]
) -> list[TurnResult]:
    """Play ``script`` on ``dialogue``, checking every turn (see :class:`ScriptedConversation`)."""
    __tracebackhide__ = True
    return ScriptedConversation(dialogue).run(script)


def _names(kinds: type[BaseException] | tuple[type[BaseException], ...]) -> str:
    return " or ".join(k.__name__ for k in (kinds if isinstance(kinds, tuple) else (kinds,)))
