"""Where a message names a slot by its own words ("my PIN is 1234"), and where a value of it may start after them:
the spans a model may copy for a text slot nobody asked (:func:`~.schema.turn_schema`)."""

from __future__ import annotations

from functools import lru_cache

from ...flow import Slot
from ...language import WORD_NUMBERS
from ...language.text import FUNCTION_WORDS
from .grounding import message, words_of

__all__ = ["IDENTIFIER_WORDS", "PHRASE_STARTS", "cue", "cue_starts", "slot_words"]


def _stems(words: frozenset[str]) -> set[str]:
    return {w.removesuffix("'s").removesuffix("s") for w in words if w not in FUNCTION_WORDS}


def slot_words(slot: Slot, flow: str = "") -> frozenset[str]:
    """The words naming ``slot`` (its name's and label's), without those of the ``flow``'s name where others are left:
    in a phone repair flow "my phone won't charge" names no phone model, "the model's a Pixel 6" does."""
    return _slot_words(slot.name, slot.label or "", flow)


@lru_cache(maxsize=1024)
def _slot_words(name: str, label: str, flow: str) -> frozenset[str]:
    words = _stems(words_of(name.replace("_", " "), label))
    return frozenset((words - _stems(words_of(flow.replace("_", " ")))) or words)


def cue(slot: Slot, text: str, flow: str = "") -> int:
    """How many words naming the slot (:func:`slot_words`) the message says ("my PIN is ...")."""
    return len(slot_words(slot, flow) & _stems(words_of(text)))


IDENTIFIER_WORDS = frozenset("number no num id code pin ref reference".split())
"""Words of a slot's name that make it an identifier ("account_number", "booking_id"): its value is said in digits."""
PHRASE_STARTS = frozenset(
    """to of for in on at by from with about as and or but so if then than into onto before after around under over
    when where while who which what how why""".split()
)
"""Words that open a phrase of their own: after a slot's name, they begin no value of it."""


def cue_starts(text: str, slot: Slot, flow: str = "") -> frozenset[int]:
    """Words a value of ``slot`` may start at: right after a word naming it ("code is 93103", "name: Jane").

    Up to three function words may stand between ("my name is Jane", "the code would be 1234"), none of them a
    word that starts a phrase of its own ("a song for me while waiting", "a restaurant to visit": no value follows).
    An identifier's value starts with a digit or a number word (:data:`IDENTIFIER_WORDS`).
    """
    msg = message(text)
    names = slot_words(slot, flow)
    stems = [next(iter(_stems(words_of(msg.word(i)))), "") for i in range(len(msg.words))]
    found: set[int] = set()
    for i, stem in enumerate(stems):
        if stem not in names:
            continue
        j = i + 1
        while j < len(stems) and j <= i + 4 and (stems[j] in names or not msg.can_edge(j)):
            if msg.folded(j) in PHRASE_STARTS:
                break
            j += 1
        if j < len(stems) and msg.folded(j) in PHRASE_STARTS:
            continue
        # The value follows in the same sentence ("the code! Things are ..." names no code).
        if j < len(stems) and j <= i + 4 and not any(ch in msg.gap(k) for k in range(i, j) for ch in ".!?;"):
            found.add(j)
    if slot.name.casefold().endswith("name"):  # a name never follows "a": "a small dog, a bichon" names a breed
        found = {j for j in found if j == 0 or msg.folded(j - 1) not in ("a", "an")}
    if names & IDENTIFIER_WORDS:  # "my account balance" names no account number: an identifier starts with a digit
        found = {j for j in found if any(ch.isdigit() for ch in msg.word(j)) or msg.folded(j) in WORD_NUMBERS}
    return frozenset(found)
