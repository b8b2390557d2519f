"""Choose the option a message means, by sentence vectors, or abstain.

Each option is scored by the best cosine between the message's vector and its texts' vectors
(:mod:`.options`); the best option is chosen only when its cosine reaches :data:`FLOOR` **and** it beats the
runner-up by :data:`MARGIN`. Otherwise nothing is chosen: a wrong value committed after a "yes" is the worst
outcome, so the chooser is tuned for precision. Both thresholds were picked on the meaning probe (300 real SGD dev
turns whose meaning has no literal words: ``python -m fsmdial_eval.meaning_sweep``; the curve is in
docs/understanding.md).

Option texts are encoded once and kept (per chooser, so per flow in practice); a turn encodes its message once.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .options import Option

if TYPE_CHECKING:
    from .encoder import Encoder

FLOOR = 0.40
"""The cosine the best option must reach to be chosen (chosen on the meaning probe for precision)."""
MARGIN = 0.08
"""How far the best option's cosine must be above the runner-up's (chosen on the meaning probe for precision)."""
VALUE_FLOOR = 0.50
VALUE_LEAD = 0.04
"""A second, closer rule for a value of the asked slot (the message describes it: "the key's stuck in the door" at
"what do you need us for?"): a higher cosine with a smaller lead. The options are few, written by the flow's author
for this question, and the value is shown back in the summary before any commit; measured on the described
categorical values of the held-out rounds 3-5 (issue 36): with the first rule alone 3 of 17 were chosen."""
TEXTS_KEPT = 20_000
"""Option texts whose vectors are kept, at most (about 31 MB of float32 at 384 dimensions)."""


def clears(cosine: float, margin: float, floor: float = FLOOR, lead: float = MARGIN) -> bool:
    """Is a best option with this ``cosine``, ``margin`` above the runner-up, taken (reaching ``floor`` and
    ``lead``)? The one rule the chooser applies and the sweep measures (``fsmdial_eval.meaning_sweep``)."""
    return cosine >= floor and margin >= lead


@dataclass(frozen=True)
class Choice:
    """What the chooser picked: the option, its cosine, its lead over the runner-up, and the time it took."""

    option: Option
    cosine: float
    margin: float
    ms: float

    def info(self) -> dict[str, Any]:
        """What the trace says of it (``info["meaning"]``)."""
        return {
            "option": self.option.name,
            "kind": self.option.kind,
            **({"slot": self.option.slot} if self.option.slot else {}),
            "cosine": round(self.cosine, 4),
            "margin": round(self.margin, 4),
            "ms": round(self.ms, 2),
        }


@dataclass(frozen=True)
class Scored:
    """Every option's best cosine, best first (what :meth:`MeaningChooser.scores` returns)."""

    ranked: tuple[tuple[Option, float], ...]

    @property
    def best(self) -> tuple[Option, float] | None:
        return self.ranked[0] if self.ranked else None

    @property
    def margin(self) -> float:
        """The best cosine minus the runner-up's; the best's cosine itself when there is one option only."""
        if not self.ranked:
            return 0.0
        return self.ranked[0][1] - (self.ranked[1][1] if len(self.ranked) > 1 else 0.0)


class MeaningChooser:
    """Chooses among options by cosine with ``encoder``'s vectors; abstains below ``floor`` or ``margin`` (a value of
    the asked slot: also taken at ``value_floor`` with ``value_lead``)."""

    def __init__(
        self,
        encoder: Encoder,
        *,
        floor: float = FLOOR,
        margin: float = MARGIN,
        value_floor: float = VALUE_FLOOR,
        value_lead: float = VALUE_LEAD,
    ):
        self.encoder = encoder
        self.floor = floor
        self.margin = margin
        self.value_floor = max(floor, value_floor)  # a floor set higher holds for values too
        self.value_lead = value_lead
        self._vectors: dict[str, Any] = {}

    def vectors(self, texts: Sequence[str]) -> Any:
        """The vectors of ``texts`` (one row each), encoding only those not seen before."""
        import numpy as np

        new = [text for text in dict.fromkeys(texts) if text not in self._vectors]
        if len(self._vectors) + len(new) > TEXTS_KEPT:
            self._vectors.clear()  # a long-running process with many flows: start again rather than grow
        for text in new:
            self._vectors[text] = self.encoder.encode(text)
        return np.stack([self._vectors[text] for text in texts])

    def scores(self, text: str, options: Sequence[Option]) -> Scored:
        """Each option's best cosine with ``text``, best first (ties in the options' order)."""
        return self.scores_any((text,), options)

    def scores_any(self, texts: Sequence[str], options: Sequence[Option]) -> Scored:
        """Each option's best cosine over its texts and ``texts`` (one message read whole and in part), best first
        (ties in the options' order)."""
        import numpy as np

        option_texts = [t for option in options for t in option.texts]
        if not option_texts:
            return Scored(())
        messages = np.stack([self.encoder.encode(text) for text in dict.fromkeys(texts)])
        similarity = (self.vectors(option_texts) @ messages.T).max(axis=1).tolist()
        at = 0
        ranked: list[tuple[Option, float]] = []
        for option in options:
            found = similarity[at : at + len(option.texts)]
            at += len(option.texts)
            if found:
                ranked.append((option, float(max(found))))
        ranked.sort(key=lambda pair: -pair[1])
        return Scored(tuple(ranked))

    def choose(self, text: str, options: Sequence[Option]) -> Choice | None:
        """The option ``text`` means, or None when no option is clearly it (below the floor or the margin)."""
        return self.decide(text, options)[0]

    def decide(self, text: str, options: Sequence[Option]) -> tuple[Choice | None, Scored]:
        """:meth:`choose`, with every option's score (what an abstention is noted with)."""
        return self.decide_any((text,), options)

    def decide_any(self, texts: Sequence[str], options: Sequence[Option]) -> tuple[Choice | None, Scored]:
        """:meth:`decide` on the best cosine of each option with any of ``texts`` (the open clauses, the whole
        message: an address beside a description pulls the whole away; a clause the rules read words of may still
        be the description, "my freezer's not freezing")."""
        started = time.perf_counter()
        scored = self.scores_any(texts, options)
        best = scored.best
        if best is None:
            return None, scored
        close = best[0].kind == "value" and clears(best[1], scored.margin, self.value_floor, self.value_lead)
        if not (close or clears(best[1], scored.margin, self.floor, self.margin)):
            return None, scored
        return Choice(best[0], best[1], scored.margin, 1000 * (time.perf_counter() - started)), scored
