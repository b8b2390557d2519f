"""``ModelUnderstander``: the grounded turn every model understander takes; a subclass makes the one model call.

Per turn:

1. **fast path** (``fast_path=True``): :meth:`RulesUnderstander.settle`
   answers when the text leaves no doubt (a plain yes/no to a pending
   confirmation, an exact categorical value, a bare number for the slot just
   asked, an intent's example) and its reading leaves no word of the message
   open (:func:`~fsmdial.understand.rules.coverage.open_words`); then no model
   is called (``path="fast"``);
2. **what the rules read stands** (``rules_first=True``, :meth:`certain`):
   everything the rules understander reads from the message (its intent, its
   answer and choice, the values of every slot it fills, the text it takes as
   the answer to an asked text slot, the values it rules out) stands; the
   model is not asked for any of it and cannot contradict it (a value the
   question itself names at a confirmation is a restatement, left out);
3. otherwise **one model call** (``path="model"``, :meth:`ModelUnderstander.model_parse`)
   that may only *add*: the slots the rules left empty, an intent, answer or choice where
   they read none, under the turn's *grounded* grammar
   (:func:`~fsmdial.understand.constraint.schema.turn_schema`,
   :mod:`~fsmdial.understand.constraint.grounding`): text, date, time and number values can only be spans
   of the user's current message, which fsmdial's own parsers turn into typed
   values ("tomorrow" with the clock, "7pm" -> 19:00); categorical values only
   those the message has words for, a boolean only when the message names it;
   intents only those sharing a word with their examples; with a confirmation
   pending, ``yes`` only without a new value (``change`` carries it; the
   runtime still re-asks a committing confirmation on anything but a plain
   yes). Words the rules' reading left open (``info["open"]``) widen the offer:
   at a confirmation, a number, date or time said there is a candidate change of
   each held slot of its type its bounds allow ("make that 5"); with
   :attr:`~ModelUnderstander.chooses_without_words`, the asked categorical slot's
   values and, with nothing asked, the state's intents, words or not. When nothing
   is left to decide, or the grammar allows one output only, no model is called
   (``path="rules"``): with nothing open, that is every turn the rules read whole. The output's fixed start
   (``{"intent"``, up to its last whole key:
   :func:`~fsmdial.understand.constraint.grammar_start.split_start`) is written at the end of the
   prompt and the rest decoded under the grammar of the rest.

With a :attr:`~ModelUnderstander.meaning` chooser (a small embedding model, :mod:`fsmdial.understand.meaning`:
``--meaning``, by default beside a model once fetched), step 3 starts with it: where the rules read nothing for the
asked categorical slot, or no intent at a state that takes one, and words are open, its pick stands like a reading
of the rules and closes the turn (``path="meaning"``, the turn's one model call: no GGUF call); when it abstains the
model is asked as before.

So the model path never reads less than the rules alone: it differs from
them only where the rules read nothing, and there only by grounded values
(:func:`merge`).

The model call is a subclass's: :class:`~.gguf.GGUFUnderstander` decodes in this
process, :class:`~.server.ServerUnderstander` (and its OpenAI-compatible
:class:`~.openai_server.OpenAIServerUnderstander`) on a model server. Both build the
prompt with a :class:`~.prompt.PromptBuilder` and name their decoding in ``backend``.
During a turn every failure of the model call raises :class:`UnderstandingError`, and
the runtime rolls the turn back.
"""

from __future__ import annotations

import datetime as dt
from abc import ABC, abstractmethod
from collections.abc import Sequence

from ...errors import FsmdialError, UnderstandingError
from ..base import Parse, UnderstandingState
from ..constraint.grammar_start import only_output
from ..constraint.grounding import is_typed
from ..constraint.schema import TurnSchema, standing, turn_schema
from ..meaning.chooser import MeaningChooser
from ..meaning.understander import with_meaning
from ..rules import RulesUnderstander
from ..rules.coverage import open_words
from .prompt import PromptBuilder

OUTPUT_SHARE = 4
"""At most 1/OUTPUT_SHARE of the context is held back for the output (the grammar's bound, if smaller)."""


class ModelUnderstander(ABC):
    """The grounded turn of a model understander (see the module docstring); the model call is :meth:`model_parse`.

    A subclass sets :attr:`prompts` and :attr:`backend`, then calls ``super().__init__``.
    """

    prompts: PromptBuilder
    """The turn's prompt: the chat template around the flow's static prefix, the conversation and the new text."""
    backend: str
    """What a parse's ``info["backend"]`` says of the decoding (a backend's name, ``server``, ``openai/<flavour>``)."""
    chooses_without_words: bool = False
    """Offer the model values and intents the message has no words for (all the asked categorical slot's values,
    the state's intents) when words are open: only for a chooser that can abstain (``--choose score``)."""
    meaning: MeaningChooser | None = None
    """Meaning without words by a small embedding model, tried before the model call (see the module docstring);
    set by :func:`~fsmdial.understand.factory.make_understander`'s ``meaning``. None: not tried."""

    def __init__(self, *, fast_path: bool = True, rules_first: bool = True):
        self.rules = RulesUnderstander() if fast_path else None
        self.grounding = RulesUnderstander() if rules_first else None
        """The rules reading merged under every model call (``rules_first``): what they read for sure stands."""

    def understand(
        self,
        state: UnderstandingState,
        text: str,
        *,
        history: Sequence[tuple[str, str]] = (),
        now: dt.datetime | None = None,
    ) -> Parse:
        now = now or dt.datetime.now()
        if self.rules is not None and not text.strip():
            return Parse(path="fast")  # nothing was said: no model can find more
        if self.rules is not None:
            settled = self.rules.settle(state, text, now=now)
            # The fast path answers only when its reading accounts for every word of the message.
            if settled is not None and not open_words(state, text, settled):
                settled.path, settled.model_calls = "fast", 0
                return settled
        certain = self.certain(state, text, history, now)
        if self.meaning is not None and self.grounding is not None:
            chosen = with_meaning(self.meaning, state, text, certain)
            if chosen is not None:  # it stands like the rules' reading and accounts for the open part: no model call
                return chosen
        left = certain.info.get("open", ())
        try:
            schema = turn_schema(
                state,
                text,
                now,
                settled=certain if self.grounding is not None else None,
                open_part=left,
                without_words=self.chooses_without_words,
            )
        except FsmdialError as exc:
            raise UnderstandingError(f"no grammar for this turn: {exc}") from exc
        # The rules said everything there is to decide, or read every word (beside the rules, with the fast
        # path on: a turn with nothing open costs no model call): no model call.
        if schema.empty or (not left and self.rules is not None and self.grounding is not None):
            certain.path, certain.model_calls = "rules", 0
            return certain
        forced = only_output(schema.grammar)
        if forced is not None:  # the grammar allows one output only: it is the parse, no model call
            found = merge(certain, schema.parse(forced))
            found.path, found.model_calls = "rules", 0
            return found
        try:
            found = self.model_parse(state, schema, text, history)
        except UnderstandingError:
            raise
        except FsmdialError as exc:
            raise UnderstandingError(f"{self.backend}: {exc}") from exc
        except Exception as exc:  # anything failing inside constrained decoding fails the turn, loudly
            raise UnderstandingError(
                f"{self.backend}: constrained decoding failed: {type(exc).__name__}: {exc}"
            ) from exc
        if state.confirm is not None and self.grounding is not None and found.slots:
            found = self.without_restatements(state, found, history)
        return merge(certain, found)

    def without_restatements(
        self, state: UnderstandingState, found: Parse, history: Sequence[tuple[str, str]]
    ) -> Parse:
        """``found`` without the typed values the confirmation's own question names ("yes, 4 people" at a
        summary saying 4 people is no change): the rules' :meth:`~RulesUnderstander.certain_of` check."""
        assert self.grounding is not None
        typed = {name: value for name, value in found.slots.items() if (slot := state.slot(name)) and is_typed(slot)}
        kept = self.grounding.certain_of(state, Parse(slots=typed), history).slots
        found.slots = {name: value for name, value in found.slots.items() if name not in typed or name in kept}
        if not found.slots and found.answer is None and state.confirm is not None:
            found.answer = "other"  # a restatement changes nothing: the confirmation is asked again
        return found

    def certain(
        self, state: UnderstandingState, text: str, history: Sequence[tuple[str, str]], now: dt.datetime
    ) -> Parse:
        """What stands before the model is asked (:func:`standing`); nothing with ``rules_first=False``."""
        if self.grounding is None:
            return Parse(path="rules")
        return standing(self.grounding, state, text, history, now)

    def prompt_text(self, state: UnderstandingState, text: str, history: Sequence[tuple[str, str]] = ()) -> str:
        """The prompt the model would read for ``text`` at ``state`` (what ``fsmdial prompt`` shows)."""
        return self.prompts.text(state, history, text)

    @abstractmethod
    def model_parse(
        self, state: UnderstandingState, schema: TurnSchema, text: str, history: Sequence[tuple[str, str]]
    ) -> Parse:
        """The model's reading of ``text`` under ``schema``: one model call (``path="model"``, ``model_calls`` 1)."""


def merge(rules: Parse, model: Parse) -> Parse:
    """The rules' reading with the model's additions: what the rules read stands, the model only fills what
    they left empty (its schema offered nothing else; checked again here)."""
    # A value the rules gave one slot is not another slot's value too ("0093" is the card, not the new PIN).
    taken = list(rules.slots.values())
    slots = {name: value for name, value in model.slots.items() if name not in rules.slots and value not in taken}
    slots.update(rules.slots)
    info = {**rules.info, **model.info}  # the rules' notes stand ("14, not 12": the swap the runtime applies)
    if rules.slots or rules.intent is not None or rules.answer is not None:
        info["rules"] = {"intent": rules.intent, "slots": sorted(rules.slots), "answer": rules.answer}
    return Parse(
        intent=rules.intent if rules.intent is not None else model.intent,
        slots=slots,
        answer=rules.answer if rules.answer is not None else model.answer,
        choice=rules.choice if rules.choice is not None else model.choice,
        negated=dict(rules.negated),
        path="model",
        model_calls=model.model_calls,
        info=info,
    )
