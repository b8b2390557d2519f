"""Meaning without words in a turn: the embedder's choice standing like a reading of the rules.

:func:`with_meaning` adds the chooser's pick to the rules' reading of a turn, where the rules read nothing for it
and words are open (:func:`~.options.options_for`): the asked categorical slot's value, or the intent (an
:class:`~fsmdial.Assistant`'s flow). A pick closes the turn's open part: it counts as the turn's one model call
(``path="meaning"``, ``model_calls`` 1) and the trace says ``info["meaning"]``: the option, its cosine and its
margin over the runner-up. Inside a flow, its ``continue`` intent (the flow's own examples: "what this flow does")
competes with the other intents, so that a message about this flow is not routed away; when it wins, nothing is
chosen. An abstention leaves the reading as it was (``info["meaning"]`` notes the best
option with ``"chosen": false``; no model call is counted: the GGUF model, if any, is then asked as before).

:class:`MeaningUnderstander` is the rules plus the embedder, no GGUF model (``--understander meaning``);
:class:`~fsmdial.understand.model.understander.ModelUnderstander` takes a chooser too (``--meaning minilm``).
The value chosen is shown back by the committing confirmation's summary like any other value, and the commit
guard asks its plain yes as always.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path

from ...errors import ModelError
from ..base import CONTINUE, Parse, UnderstandingState
from ..rules import RulesUnderstander
from .chooser import MeaningChooser
from .encoder import MODEL_NAME, Encoder
from .options import open_clauses, options_for


def with_meaning(chooser: MeaningChooser, state: UnderstandingState, text: str, reading: Parse) -> Parse | None:
    """``reading`` with the chooser's pick (a new Parse), or None when nothing is offered or the chooser abstains
    (then ``reading.info["meaning"]`` notes the abstention)."""
    options = options_for(state, text, reading)
    if not options:
        return None
    choice, scored = chooser.decide_any((open_clauses(text, reading.info.get("open", ())), text), options)
    if choice is not None and choice.option.kind == "intent" and choice.option.name == CONTINUE:
        choice = None  # "what this flow does": a competitor of the other intents, but nothing to act on
    if choice is None:
        if scored.best is not None:
            reading.info["meaning"] = {
                "chosen": False,
                "best": scored.best[0].name,
                "cosine": round(scored.best[1], 4),
                "margin": round(scored.margin, 4),
            }
        return None
    option = choice.option
    info = {key: value for key, value in reading.info.items() if key != "open"}  # the pick accounts for it
    info["meaning"] = choice.info()
    slots = dict(reading.slots)
    if option.kind == "value":
        assert option.slot is not None
        slots[option.slot] = option.name if option.value is None else option.value
    return Parse(
        intent=option.name if option.kind == "intent" else reading.intent,
        slots=slots,
        answer=reading.answer,
        choice=reading.choice,
        negated=dict(reading.negated),
        path="meaning",
        model_calls=1,
        info=info,
    )


@lru_cache(maxsize=4)
def _encoder(folder: Path) -> Encoder:
    return Encoder(folder)


def load_chooser(model: str | Path | None = MODEL_NAME) -> MeaningChooser:
    """A chooser on the embedding model ``model``: the catalogue's name (``minilm``: its fetched folder) or a folder
    holding the model's files. The encoder is loaded once per folder in a process. :class:`ModelError` when the
    model is not fetched or a file is missing or broken (the message says which and how to fetch it)."""
    from ...model_catalogue import locate

    if model is None or str(model) == MODEL_NAME:
        name = str(model or MODEL_NAME)
        found = locate(name)
        if found is None:
            raise ModelError(f"the embedding model {name!r} is not fetched: run 'fsmdial models fetch {name}'")
        folder = found
    else:
        folder = Path(model)
        if not folder.is_dir():
            raise ModelError(f"no embedding model folder at {folder} (fetch one with 'fsmdial models fetch minilm')")
    return MeaningChooser(_encoder(folder.resolve()))


class MeaningUnderstander:
    """The rules understander plus meaning without words (the embedder): no GGUF model.

    ``chooser``: a :class:`MeaningChooser`, or the embedding model to load one from (:func:`load_chooser`).
    """

    def __init__(self, chooser: MeaningChooser | str | Path | None = MODEL_NAME):
        self.rules = RulesUnderstander()
        self.chooser = chooser if isinstance(chooser, MeaningChooser) else load_chooser(chooser)

    def understand(
        self,
        state: UnderstandingState,
        text: str,
        *,
        history: Sequence[tuple[str, str]] = (),
        now: dt.datetime | None = None,
    ) -> Parse:
        reading = self.rules.understand(state, text, history=history, now=now)
        return with_meaning(self.chooser, state, text, reading) or reading
