"""What the rules read from one understanding state, worked out once per state and kept while the state lives.

:class:`StateTables` holds the patterns, slots and words of a state the rules need on every turn (its intents'
example phrases, its categorical values and their synonyms, the words naming its numeric slots, the slots its typed
values go to); :func:`tables_of` looks them up, building them on a state's first turn.
"""

from __future__ import annotations

import re
import weakref
from collections import Counter

from ...flow import Slot, SlotType
from ...language import normalize, without_wish
from ...slots import KINDS
from ..base import CONTINUE, DECLINE, GOODBYE, UnderstandingState
from .categories import alias_patterns, question_words, short_names, value_pattern
from .credits import credit_slots
from .day_values import day_slots
from .forms import counted_nouns, names_a_number, naming_words, slot_cue
from .intent_words import content_examples, verb_examples, word_examples
from .named_things import thing_slots
from .places import place_slots
from .shaped_names import shaped_slots
from .text_values import slot_lead, text_cue
from .time_ranges import range_length_slot

__all__ = ["StateTables", "TABLES", "target_slot", "tables_of"]


class StateTables:
    """What the rules read from one :class:`UnderstandingState`, worked out once per state.

    The runtime keeps one state object per machine state, so a turn only looks these up.
    """

    def __init__(self, state: UnderstandingState):
        asked = self.asked = state.slot(state.asked) if state.asked else None
        names = {intent.name for intent in state.intents}
        self.decline = DECLINE in names and state.asked is not None
        self.goodbye = GOODBYE in names
        self.thanks_closes = state.asked is None and state.confirm is None
        # Examples of more than one word, padded to be found whole within a longer sentence. The flow's own examples
        # (what it does: "I need to change my ride") also without their wish framing, as users say it in any ("I want
        # to change my ride"); other intents' examples stay whole ("hi, I need to change my ride" as a greeting's).
        phrases: dict[str, str] = {}
        for example, intent in state.example_index.items():
            for phrase in (example, without_wish(example)) if intent == CONTINUE else (example,):
                if " " in phrase:
                    phrases.setdefault(phrase, intent)
        self.phrases = tuple((f" {phrase} ", len(phrase), intent) for phrase, intent in phrases.items())
        self.word_examples = word_examples(state.example_index.items())  # "find movies" in "find a movie"
        self.verb_examples = verb_examples(state.example_index.items())  # "cancel" in "actually cancel it"
        self.content_examples = content_examples(state.example_index.items())  # "will it make a lot of mess?"
        self.has_date = SlotType.date in state.slot_types
        self.has_time = SlotType.time in state.slot_types
        self.date_target = target_slot(state, asked, SlotType.date)
        self.date_slots = tuple(slot for slot in state.slots if slot.type is SlotType.date)
        self.time_target = target_slot(state, asked, SlotType.time)
        self.number_target = target_slot(state, asked, SlotType.integer, SlotType.number)
        self.categorical = tuple(
            (
                slot,
                tuple(slot.values or ()),
                slot is asked or slot.name in state.expected,
                alias_patterns(tuple(slot.values or ()), slot.description),
            )
            for slot in state.slots
            if slot.type is SlotType.categorical
        )
        patterns = [value_pattern(value).pattern for _, slot_values, _, _ in self.categorical for value in slot_values]
        self.own_values = re.compile("|".join(patterns), re.I) if patterns else None  # by their own names
        patterns += [found.pattern for _, values, _, _ in self.categorical for _, found in short_names(values)]
        patterns += [found.pattern for _, _, _, aliases in self.categorical for _, found in aliases]
        # One search says whether any value is there (most turns name none); its words and a "one" for it ("the mixed
        # one") are never read as a number.
        self.any_value = re.compile("(?:" + "|".join(patterns) + r")(?:\s+ones?(?!\w))?", re.I) if patterns else None
        self.number_words = tuple(
            (slot, naming_words(slot)) for slot in state.slots if slot.type in (SlotType.integer, SlotType.number)
        )
        self.ages = any("age" in words for _, words in self.number_words)  # a slot for an age reads "I'm 44"
        # the nouns the numeric slots are named by: a length of time in one is a count ("3 months" of lessons)
        self.count_nouns = frozenset().union(*(naming_words(slot, described=False) for slot, _ in self.number_words))
        self.counted = counted_nouns(self.count_nouns) if self.has_time else None
        self.range_length = range_length_slot(state.slots)  # the length a range of clock times gives
        self.name_slot = state.person_name
        # Slots whose type finds its values (phone, email, reference): phones and emails go to the flow's only slot of
        # their type; references only to the asked slot or one named right before them.
        types = Counter(slot.type for slot in state.slots)
        self.found = tuple(
            (slot, slot is asked or (KINDS[slot.type].distinctive and types[slot.type] == 1))
            for slot in state.slots
            if KINDS[slot.type].finds
        )
        # A self-introduction counts while the name is still wanted (not "it's Oxford Street" at a confirmation).
        self.name_given = self.name_slot is not None and not (
            self.name_slot is asked or self.name_slot.name in state.expected
        )
        self.named_leads = tuple(
            (slot, lead)
            for slot in state.slots
            if KINDS[slot.type].whole_text and slot.pattern is None and slot is not self.name_slot
            for lead, is_name in [slot_lead(slot.name, slot.description)]
            if lead is not None and is_name
        )
        # "my cat Luna": a name right after a categorical value is the flow's one other name (the pet's).
        kinds = [value for _, values, _, _ in self.categorical for value in values if value.isalpha()]
        self.kind_name = (
            (
                self.named_leads[0][0],
                re.compile(r"(?i:\b(?:my|our|his|her|the)\s+(?:" + "|".join(kinds) + r"))\s+([A-Z][\w'\-]*)"),
            )
            if len(self.named_leads) == 1 and kinds
            else None
        )
        self.text_cues = tuple(
            (slot, cue)
            for slot in state.slots
            if KINDS[slot.type].whole_text and slot.pattern is None and slot is not self.name_slot
            if (cue := text_cue(slot.name, slot.label or "")) is not None
        )
        self.slot_names = frozenset(word for slot in state.slots for word in slot.name.split("_"))
        self.shaped = shaped_slots(state.slots, state.flow)  # "my Samsung Galaxy S20 won't charge": the model
        self.patterned = tuple(
            (slot, slot_cue(slot.name, slot.label or ""))
            for slot in state.slots
            if KINDS[slot.type].is_text and (slot.pattern is not None or KINDS[slot.type].finds or names_a_number(slot))
        )
        self.single_number = self.number_words[0][0] if len(self.number_words) == 1 else None
        self.asked_words = question_words(asked)  # of a yes/no or free-text question: "... by a side gate?"
        # a count of "items" counts every thing listed, unless a slot lists them (named_things.py reads that list)
        self.lists_things = thing_slots(tuple((s.name, s.type, s.label or "") for s in state.slots))[0] is not None
        # the bounds the asked question and the yes/no questions say ("Will anyone under 16 be coming?"): said again
        # ("my daughter is under 16", "is anyone under 16 allowed?"), a question's number, no count
        self.echoed = " ".join(
            slot.ask for slot in state.slots if slot.ask and (slot is asked or slot.type is SlotType.boolean)
        )
        self.places = place_slots(state.slots)
        self.credits = credit_slots(state.slots)
        # categorical slots of weekdays and of the days of the month: "tomorrow", "from 5/9 to 5/16"
        self.weekdays, self.month_days = day_slots(tuple(slot for slot, *_ in self.categorical))
        self.categorical_words = frozenset(v.casefold() for _, values, _, _ in self.categorical for v in values)
        self.choice_examples = tuple(
            (choice.name, tuple(normalize(e) for e in choice.examples)) for choice in state.choice_examples
        )


class _TablesCache:
    """The tables of each live state, kept here (the state is frozen, and not this module's).

    Keyed by the state's identity, as the runtime keeps one state object per
    machine state; an entry goes when its state is garbage-collected.
    """

    def __init__(self) -> None:
        self._by_id: dict[int, tuple[weakref.ref[UnderstandingState], StateTables]] = {}

    def get(self, state: UnderstandingState) -> StateTables:
        key = id(state)
        entry = self._by_id.get(key)
        if entry is not None and entry[0]() is state:
            return entry[1]
        tables = StateTables(state)
        self._by_id[key] = (weakref.ref(state, lambda ref: self._forget(key, ref)), tables)
        return tables

    def _forget(self, key: int, ref: weakref.ref[UnderstandingState]) -> None:
        entry = self._by_id.get(key)
        if entry is not None and entry[0] is ref:  # not a newer state that reuses the id
            del self._by_id[key]

    def __len__(self) -> int:
        return len(self._by_id)


TABLES = _TablesCache()
"""The tables of every live state (the rules' one cache)."""


def tables_of(state: UnderstandingState) -> StateTables:
    """The rules' tables of ``state``, worked out on its first turn."""
    return TABLES.get(state)


def target_slot(state: UnderstandingState, asked: Slot | None, *kinds: SlotType) -> Slot | None:
    """The slot a typed value goes to: the asked slot, else the only such slot expected, else the only one."""
    if asked is not None and asked.type in kinds:
        return asked
    of_kind = [slot for slot in state.slots if slot.type in kinds]
    expected = [slot for slot in of_kind if slot.name in state.expected]
    if len(expected) == 1:
        return expected[0]
    if len(of_kind) == 1 and kinds[0] in (SlotType.date, SlotType.time):
        return of_kind[0]
    return None
