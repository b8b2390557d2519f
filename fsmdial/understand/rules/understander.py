"""The deterministic ``rules`` understander: no model, same input, same parse.

It recognises yes/no answers, numbers, dates and times, categorical values (exact, case-insensitive, as whole words),
global intents by their example utterances, and takes the text itself as the value of a string slot just asked;
:meth:`RulesUnderstander.settle` is the strict subset used as the fast path before a model (certain parses only).
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Sequence
from typing import Any

from ...flow import Slot, SlotType, fold, value_key
from ...language import (
    ASCII_WORDS,
    CERTAIN_ANSWERS,
    CLOSING_PATTERN,
    CLOSING_WORDS,
    DECLINE_PATTERN,
    DECLINE_WORDS,
    GOODBYE_PATTERN,
    THANKS_ONLY_PATTERN,
    Acts,
    approximate_clock,
    content_with_what_they_have,
    find_numbers,
    gives_up,
    impossible_date,
    is_name_word,
    leads,
    name_at,
    normalize,
    only_appraises,
    only_refuses,
    parse_yes_no,
    read_acts,
    read_clock,
    read_date,
    remove_dates_and_times,
    remove_times,
    says_only_when,
    second_thoughts,
    split_negated,
    without_deferred,
    without_echoes,
    without_past_moments,
    without_questions,
    without_task_statements,
)
from ...language.same_time import with_same_time
from ...slots import KINDS
from ..base import CONTINUE, DECLINE, GOODBYE, Parse, UnderstandingState
from .categories import (
    distinctive,
    echoes_question,
    found_value,
    inside_longer,
    listed_values,
    more_specific,
    own_word_value,
    said_negatively,
    settled_value,
    value_owners,
    value_pattern,
    without_numbers,
)
from .changes import CORRECTION, SELF_CORRECTION, asked_state, note_change, says_change, short_change, without_reasons
from .choices import chosen
from .corrections import replacement
from .coverage import with_open
from .credits import read_credits
from .date_roles import paired_dates
from .day_values import read_days
from .described import worded_values
from .described_details import told_before
from .forms import (
    DIGIT_SPACES,
    bare_number,
    claim_found,
    counted_only,
    fill_found,
    fill_patterned,
    fits_form,
    letter_codes,
    named_number,
    names_a_number,
    numbers_by_name,
    without_ages,
    without_counted,
)
from .head_counts import head_count, party_alone, with_listed_counts
from .intent_words import (
    asked_by_content,
    command_intent,
    intent_by_words,
)
from .named_things import named_things
from .numbers_between import ask_which_number
from .numbers_said import counts_in_a_range, says_a_part, without_lengths_of_time, without_subsets
from .places import is_place, read_places
from .pronoun_one import counted_numbers, counts_nothing, one_asked_about, only_pronoun_ones, without_phrase_ones
from .proposals import disputed_proposal
from .shaped_names import shaped_name
from .state_tables import StateTables, tables_of
from .text_values import TEXT_END as _TEXT_END
from .text_values import asks_for_a_change, describes, descriptive, names_nothing, read_name
from .text_values import free_text as _free_text
from .text_values import pattern_value as _pattern_value
from .text_values import slot_lead as _slot_lead
from .text_values import string_value as _string_value
from .time_ranges import end_said, range_length
from .worded_answers import asked_boolean, both_sides_named, details_told, no_preference, stated_unasked
from .yes_no_replies import confirmation_answer, names_value, only_yes_or_no, plain_answer, told_yes

__all__ = ["RulesUnderstander", "normalize"]
"""``normalize`` is :func:`fsmdial.language.normalize`, re-exported."""


class RulesUnderstander:
    """Deterministic understanding from patterns; see the module docstring."""

    path = "rules"

    def understand(
        self,
        state: UnderstandingState,
        text: str,
        *,
        history: Sequence[tuple[str, str]] = (),
        now: dt.datetime | None = None,
    ) -> Parse:
        now = now or dt.datetime.now()
        parse = Parse(path=self.path)
        norm = normalize(text)
        if not norm and not value_key(text):  # punctuation alone may still be a value ("-", "+")
            return parse
        tables = tables_of(state)
        if tables.has_date and tables.has_time and not _free_text(tables, tables.asked):  # a text's words stay as said
            text = with_same_time(text, now)  # "this time next week": the day and the clock
        said_first, later = text, (second_thoughts(text) if state.asked is not None else None)
        if later is not None:  # "I don't know it ... ok, it's 640": the value found after all
            text, norm = later, normalize(later)
        acts = read_acts(text)
        if state.confirm is not None:
            parse.answer = confirmation_answer(text, acts)  # type: ignore[assignment]
            if parse.answer == "yes" and content_with_what_they_have(_last_question(history), text):
                # "that sounds great" to "any more restaurants?" judges what was found: it is no yes, and the rules do
                # not take it for a no either (STAR's wizards read it both ways); the question is asked again
                parse.answer = None
        parse.intent = self._intent(state, tables, norm, text, acts)
        if parse.intent == GOODBYE and parse.answer == "yes" and not acts.bye:
            if gives_up(text):
                parse.answer = None  # "ok, forget it then" at "shall I book it?": the "ok" takes it in, books nothing
            else:
                parse.intent = None  # "yep that's all correct" answers the confirmation; it says no goodbye
        if parse.intent == CONTINUE and _free_text(tables, tables.asked):
            parse.intent = None  # "someone used my card online" answers "describe the fraud", whatever the examples say
        if state.choices:
            parse.choice = chosen(state.choices, tables.choice_examples, norm, parse.answer)
        if parse.answer == "yes" and acts.plain_yes and not state.choices:
            return parse  # "yes that's everything, thanks": yes words alone hold no value ("everything", a synonym)
        whole = text
        text = claim_found(tables.found, tables.asked, text, now, parse)  # addresses first: no value of another slot
        acts = read_acts(text)
        said, ruled_out = split_negated(text) if acts.deny else (text, "")
        said = without_reasons(without_deferred(said))  # "..., the roof can wait"; "I'm working till the 29th, ..."
        if acts.question and state.asked is not None:  # "not sure, how many does one box feed?": no value
            said = without_questions(said)
        if tables.echoed:  # "neither of us is under 12" to "will anyone be under 12?": no 12
            said = without_echoes(said, tables.echoed)
        self._fill_slots(state, tables, text, now, parse, acts, said)
        # a party named in passing ("me, my wife and the kids"), or a part of it ("3 of us need shoes", "yes, my two
        # lads will be there") said to another question, replaces no count held
        if (parse.info.get("counted") or says_a_part(whole)) and not says_change(whole):
            counts = [slot.name for slot, _ in tables.number_words if slot is not tables.asked]
            if passing := [name for name in counts if name in parse.slots]:
                parse.info.setdefault("in_passing", []).extend(passing)
        if tables.range_length is not None:  # "7 till 10": 19:00, and 3 hours
            parse.slots.update(range_length(tables.range_length, parse.slots, said))
            if tables.asked is tables.range_length and tables.time_target is not None:  # "until 6": where it ends
                if (end := end_said(tables.asked, tables.time_target, parse.slots, said)) is not None:
                    parse.info["ends_at"] = end
        # with an address's words, which the address claimed ("wait, it's 38 Cemetery Road, not 33"): the whole message
        if (swap := replacement(whole)) is not None:
            parse.info["replace"] = swap  # "the house number is 14, not 12": the runtime edits the text holding 12
        # "make that 5", "8 instead of 7", "no wait, 8pm": the last value said wins; held values are the turn's
        note_change(
            parse,
            without_deferred(text),
            state.slots,
            tables.asked,
            lambda slot, words: self._as_asked(state, slot, words, now),
        )
        parse.slots.update(details_told(state, parse.info.get("change"), text))  # "oh wait, my son has a nut allergy"
        loose = parse.info.pop("unclaimed", None)
        if loose and swap is None and says_change(whole):  # "sorry, it's 43 Brynland Avenue" ("38, not 33": edited)
            change = parse.info.setdefault("change", {"new": {}, "old": {}, "named": []})
            change["new"].update(loose)
            change["named"].extend(loose)  # an address names its slot by its form
        first = text if later is None else said_first  # the whole message, an address claimed out of it
        parse.slots.update(stated_unasked(state.slots, tables.asked, first, parse.slots))  # "not under guarantee"
        parse.slots.update(named_things(state.slots, tables.asked, said, parse.slots))  # "a wardrobe and a bed to go"
        for name, value in disputed_proposal(state.slots, history, said).items():  # "I take it ..." put right
            parse.slots.setdefault(name, value)
        if tables.asked is not None and tables.asked.name not in parse.slots:  # "How much is a lesson?" "I'll book one"
            parse.slots.update(one_asked_about(tables.asked, history, said))
        if (asked := tables.asked) is not None and _free_text(tables, asked) and parse.slots.get(asked.name) == text:
            # "oh actually can we do 11 instead" asked the problem: a change of another value, no description
            if set(parse.info.get("change", {}).get("new", ())) - {asked.name} and not asks_for_a_change(asked):
                del parse.slots[asked.name]
        parse.slots.update(told_before(state, history, parse.slots))  # "it's an 8 seater" to "what's it doing?"
        if ruled_out:  # "sure, just not at 7pm": the typed values of the clauses with a "not"
            negated = Parse()
            self._fill_typed(state, tables, ruled_out, now, negated, asked=None)
            parse.slots.update(said_negatively(state.slot, negated.slots, ruled_out))  # "won't drain": not draining
            # a description's "not" tells what goes wrong ("can't get it out of the smallest gear"): no held value
            # is ruled out by it
            if not (tables.asked is not None and _free_text(tables, tables.asked) and tables.asked.name in parse.slots):
                parse.negated = {name: value for name, value in negated.slots.items() if name not in parse.slots}
        return with_open(state, text, parse)  # the words the reading leaves open (coverage.py)

    def certain(
        self,
        state: UnderstandingState,
        text: str,
        *,
        history: Sequence[tuple[str, str]] = (),
        now: dt.datetime | None = None,
    ) -> Parse:
        """What the rules read with certainty (what a model may not override): their intent, and the
        values of slots with a type to read.

        A value read from a string slot "as the whole text" is a guess, left out (a pattern match
        stays). With a confirmation pending, a value the agent's question itself names is a
        restatement ("yes, 4 people"), not a change.
        """
        return self.certain_of(state, self.understand(state, text, history=history, now=now), history)

    def certain_of(self, state: UnderstandingState, found: Parse, history: Sequence[tuple[str, str]] = ()) -> Parse:
        """:meth:`certain` of a reading already made (``found``: this understander's parse of the message)."""
        slots = {}
        for name, value in found.slots.items():
            slot = state.slot(name)
            if slot is None:
                continue
            cued = name in found.info.get("cued", ())
            if (
                KINDS[slot.type].whole_text
                and not cued
                and not (slot.pattern and re.fullmatch(slot.pattern, str(value)))
            ):
                continue
            slots[name] = value
        return Parse(
            intent=found.intent, slots=self.without_restated(state, slots, history), negated=found.negated, path="rules"
        )

    def without_restated(
        self, state: UnderstandingState, slots: dict[str, Any], history: Sequence[tuple[str, str]]
    ) -> dict[str, Any]:
        """``slots`` without the values a pending confirmation's question names: "yes, 4 people" to a summary
        showing 4 people restates it, no change. A question that offers choices names options, not values held
        ("a Psychiatrist or a Psychologist?"): a value it names is the user's choice, kept."""
        if state.confirm is None or state.choices or not slots:
            return slots
        asked = _last_question(history)
        return {name: value for name, value in slots.items() if not names_value(asked, value)}

    def settle(self, state: UnderstandingState, text: str, *, now: dt.datetime | None = None) -> Parse | None:
        """A parse only when the text leaves no doubt; otherwise None (ask the model)."""
        norm = normalize(text)
        if not norm and not value_key(text):  # punctuation alone may still be a value ("-", "+")
            return None
        if state.confirm is not None and (norm in CERTAIN_ANSWERS or plain_answer(text) is not None):
            if only_appraises(text):
                return None  # "that sounds good" is a yes or not by the question it answers (understand reads it)
            answer = CERTAIN_ANSWERS.get(norm) or plain_answer(text)
            if not state.choices:
                return Parse(answer=answer, path="fast")  # type: ignore[arg-type]
            # A question answered by choosing (an SOP's user states): only settled when the answer picks one.
            choice = chosen(state.choices, tables_of(state).choice_examples, norm, answer)
            if choice is not None:
                return Parse(answer=answer, choice=choice, path="fast")  # type: ignore[arg-type]
            return None
        intent = state.example_index.get(norm)
        if intent is not None:
            return Parse(intent=intent, path="fast")
        asked = state.slot(state.asked) if state.asked else None
        if asked is None:
            return None
        if asked.type is SlotType.categorical and (value := settled_value(asked.values or (), text)) is not None:
            return Parse(slots={asked.name: value}, path="fast")
        if asked.type in (SlotType.integer, SlotType.number) and re.fullmatch(r"\d+(?:\.\d+)?", text.strip()):
            numeric = [s for s in state.slots if s.type in (SlotType.integer, SlotType.number)]
            if len(numeric) == 1 or asked.name in state.expected[:1]:
                return Parse(slots={asked.name: find_numbers(text)[0]}, path="fast")
        return None

    # ------------------------------------------------------------------ parts
    def _as_asked(self, state: UnderstandingState, slot: Slot, words: str, now: dt.datetime) -> dict[str, Any]:
        """The typed values ``words`` give while ``slot`` is asked (a change's new words, or its old ones)."""
        asked = asked_state(state, slot.name)  # kept while ``state`` lives: its tables are built once
        read = Parse()
        self._fill_typed(asked, tables_of(asked), words, now, read, tables_of(asked).asked)
        if slot.type is SlotType.categorical and slot.name not in read.slots and short_change(words):
            # "I meant the sander for the floorboards", "not the wallpaper one": a value by a word of its own
            naming = frozenset(re.findall(r"[a-z]+", f"{slot.name.replace('_', ' ')} {slot.noun}".casefold()))
            if (named := own_word_value(tuple(slot.values or ()), words, naming)) is not None:
                read.slots[slot.name] = named
        if slot.type in (SlotType.integer, SlotType.number) and normalize(words) != "one" and only_pronoun_ones(words):
            read.slots.pop(slot.name, None)  # "actually I need one" changes no count; "make it one" does
        return read.slots

    def _intent(self, state: UnderstandingState, tables: StateTables, norm: str, text: str, acts: Acts) -> str | None:
        index = state.example_index
        if norm in index:
            return index[norm]
        # A longer example said within a longer sentence ("hi, I'd like to book a table for 4").
        padded = f" {norm} "
        contained = [(length, intent) for phrase, length, intent in tables.phrases if phrase in padded]
        if contained:
            return max(contained)[1]
        if tables.word_examples and (named := intent_by_words(tables.word_examples, norm)) is not None:
            return named
        if tables.verb_examples and (named := command_intent(tables.verb_examples, norm)) is not None:
            return named  # "actually cancel it, my landlord says I can't put anything up"
        if acts.question and not acts.request and (named := asked_by_content(tables.content_examples, norm)):
            return named
        if tables.goodbye and gives_up(text) and (state.expected or state.confirm is not None):
            # "never mind, forget it" drops what the bot is asking for: the flow's goodbye, never a value. With
            # nothing asked (the bot has told an outcome: "that flight is no longer available"), "nevermind then"
            # takes the news in and the flow goes on (STAR's wizards then ask "anything else?")
            return GOODBYE
        if not (tables.decline or tables.goodbye):
            return None
        words = ASCII_WORDS.findall(norm) if norm.isascii() else None  # None: search the patterns
        if (
            tables.decline
            and not acts.question  # "not sure, how many does one box feed?" asks; it refuses nothing
            and (words is None or not DECLINE_WORDS.isdisjoint(words))
            and (refusal := DECLINE_PATTERN.search(norm)) is not None
            and leads(norm, refusal.start())
            and not (_wants_description(tables) and not only_refuses(text))  # a description refuses nothing
            and not (_LOSS.match(refusal.group()) and _is_choice(tables.asked))
            # "I'd rather not, I'll be in" to a yes/no question: a no ("I'm not sure" is still no answer)
            and not (tables.asked is not None and tables.asked.type is SlotType.boolean and parse_yes_no(text))
        ):  # "I don't know" at the start, not "a transfer to an account I don't know"
            return DECLINE
        if tables.goodbye and (
            GOODBYE_PATTERN.match(norm)
            or (
                (words is None or not CLOSING_WORDS.isdisjoint(words))
                and CLOSING_PATTERN.search(norm)
                and not _ONLY_THAT.search(norm)  # "it's just the one machine, nothing else": how much, no goodbye
            )
            or (tables.thanks_closes and THANKS_ONLY_PATTERN.match(text.strip()))
        ):
            return GOODBYE
        return None

    def _fill_slots(
        self,
        state: UnderstandingState,
        tables: StateTables,
        text: str,
        now: dt.datetime,
        parse: Parse,
        acts: Acts,
        said: str,
    ) -> None:
        """Typed values from ``said`` (the text without its clauses with a "not"), then a name or the text itself."""
        asked = tables.asked
        if (
            _free_text(tables, asked)
            and not is_place(asked)  # "in San Mateo on the 5th" answers where and when: no description
            and not (CORRECTION.match(acts.rest) or CORRECTION.match(text))
        ):
            # The answer to a free-text question is that text: a date or a number inside it ("someone withdrew 500
            # pounds on November 21st") is no value of another slot; a reply that is nothing but a phone number or
            # an email is that value.
            whole = DIGIT_SPACES.sub("", said.strip())
            fitting = [slot for slot, _ in tables.patterned if fits_form(slot, whole)]
            if len(fitting) == 1:
                parse.slots[fitting[0].name] = whole
            elif (
                bare_number(said, words=_wants_description(tables))  # "18"; "six" to "what's it doing?"
                or says_only_when(said)
                or names_nothing(asked, tables.own_values, said)
                or counted_only(tables.number_words, said)
            ):
                # "18": the number a slot of the flow still needs; "next Friday around 10": the day and time, no
                # description (words of nothing but a moment describe nothing); "original please" to "which phone?";
                # "it's an eight seater": a count by its slot's words
                self._fill_typed(state, tables, said, now, parse, asked)
        else:
            self._fill_typed(state, tables, said, now, parse, asked)
        # "rabit"; "I want the locks changed" (lock change); "my door won't lock"; "about 8 kilos" (under 10 kg)
        worded = worded_values(tables.categorical, asked, said, text, parse.slots, parse.info, tables.count_nouns)
        parse.slots.update(worded)
        # "it doesn't matter", "whoever's free", "I don't care about the price": the slot's "any" value (dontcare)
        anys = ((slot, values) for slot, values, _, _ in tables.categorical)
        for slot, value in no_preference(anys, asked, text, said=acts.no_preference, asks=acts.question):
            parse.slots.setdefault(slot.name, value)
        for slot, cue in tables.text_cues:
            # A free-text value after its cue words ("3 boxes delivered to 5 Oak Road, Leeds"): to the next value
            if slot is not asked and slot.name not in parse.slots and (found := cue.search(text)) is not None:
                value = _TEXT_END.split(text[found.end() :], maxsplit=1)[0].strip(" ,")
                if value and any(c.isalnum() for c in value):
                    parse.slots[slot.name] = value
        for slot, blocked in tables.shaped:
            if slot is not asked and slot.name not in parse.slots and (name := shaped_name(text, blocked)) is not None:
                parse.slots[slot.name] = name
                parse.info.setdefault("in_passing", []).append(slot.name)  # never replaces one held
        # "a hotel in London, UK", "a bus from Fresno to Sacramento": a place slot's place after its cue word
        for place_slot, place in read_places(tables.places, said, asked, tables.categorical_words).items():
            if place_slot not in parse.slots:
                parse.slots[place_slot] = place
                parse.info.setdefault("cued", []).append(place_slot)
        for credited, person in read_credits(tables.credits, said).items():  # "a movie directed by Harry Elfont"
            parse.slots.setdefault(credited, person)
        if tables.kind_name is not None and tables.kind_name[0].name not in parse.slots:
            kind = tables.kind_name[1].search(text)
            if kind is not None and is_name_word(kind.group(1)):
                parse.slots[tables.kind_name[0].name] = kind.group(1)
        for slot, lead in tables.named_leads:
            # Another name of the flow said with its own words ("the pet's name is Chandler").
            if slot is not asked and slot.name not in parse.slots and (found := lead.search(text)) is not None:
                if (name := name_at(text[found.end() :])) is not None:
                    parse.slots[slot.name] = name
                    parse.info.setdefault("cued", []).append(slot.name)
        if read_name(state, tables, acts, parse, text):
            return
        if asked is None or asked.name in parse.slots:
            return
        if asked.type is SlotType.boolean:
            # "so no" at the end; "wrong house number, it's 41, not 14. and yes, there's space to park"
            answer = asked_boolean(asked, text)
            if answer is None and both_sides_named(asked, text):  # the flow asks again: no model or embedder guesses
                parse.info.setdefault("doubt", []).append(asked.name)
            elif (detail := state.detail_of(asked.name, True)) and (told := told_yes(acts, text, answer, parse.slots)):
                parse.slots.update({asked.name: True, detail: told})  # "one of us is coeliac" to "any allergies?"
            elif answer is not None:
                parse.slots[asked.name] = answer
        elif asked.type is SlotType.integer and parse.intent is None and len(codes := letter_codes(text)) == 1:
            parse.slots[asked.name] = codes[0]  # "RX4829" to "your booking ID?": no number, refused with its bounds
        elif (
            KINDS[asked.type].whole_text
            and not names_a_number(asked)  # "I left my card at home" is no membership number: asked again
            and parse.intent is None
            and not parse.slots
            and not (acts.holds_no_value and not (_wants_description(tables) and describes(acts, text)))
            and not gives_up(text)
            and not names_nothing(asked, tables.own_values, text)  # "first thing tomorrow" is no laptop's name
        ):
            # The text is the value only when nothing else was read from it ("no, make it 1111" keeps 1111), and
            # never a greeting, thanks, a question or a don't-know.
            if parse.answer is None and not (_slot_lead(asked.name, asked.description)[1] and only_yes_or_no(text)):
                # A bare "yes"/"no" answers no name question (asked again); a name loses the filler before it.
                is_name = _slot_lead(asked.name, asked.description)[1]
                reply = without_task_statements(text)  # "I'd like to book a transfer" answers no question
                if reply == text or not read_acts(reply).only_social:
                    if (given := _string_value(asked, (acts.rest or text) if is_name else reply)) is not None:
                        parse.slots[asked.name] = given
            elif asked.pattern is not None and (formed := _pattern_value(asked, text)) is not None:
                parse.slots[asked.name] = formed

    def _fill_typed(
        self,
        state: UnderstandingState,
        tables: StateTables,
        text: str,
        now: dt.datetime,
        parse: Parse,
        asked: Slot | None,
    ) -> None:
        """Dates, times, categorical values and numbers written in ``text``."""
        rest, undated = text, False  # undated: ``rest`` has had its dates and times taken out
        # A bare "7:45" or "Friday" is passed on as written: the slot's bounds resolve it (values.coerce).
        # "limping since yesterday", "2 weeks ago": a past moment describes; it answers only the date asked for
        dated = text if asked is not None and asked is tables.date_target else without_past_moments(text)
        date = read_date(dated, now) if tables.has_date else None
        clock = without_counted(tables.counted, text)  # "the one bike" is no 1 o'clock
        time = read_clock(clock, now) if tables.has_time else None
        if time is not None and asked is not None and asked is tables.number_target and counts_in_a_range(text):
            time = None  # "somewhere between 4 and 6" to "how many of you?": counts, no clock time
        approximate = None
        if time is None and asked is not None and asked is tables.time_target:
            time = approximate = approximate_clock(clock)  # "around 11", "8ish" answer "At what time?"
        if date or time:
            rest, undated = remove_dates_and_times(text, now, tables.counted) if approximate is None else "", True
        elif not tables.has_time and _WRITTEN_CLOCK.search(text):  # "make it 6:30pm" gives no 6 (it was a ride id)
            rest = remove_times(text, now)
        # "a car from the 6th until next Friday": a start and an end date slot take theirs by the words around them
        pair = paired_dates(tables.date_slots, dated, now) if date is not None else {}
        if date is not None and tables.date_target is not None and not (pair and tables.date_target.name in pair):
            parse.slots[tables.date_target.name] = date
        if pair and (tables.date_target is None or tables.date_target.name in pair):
            parse.slots.update(pair)
        elif date is None and tables.has_date and asked is not None and asked is tables.date_target:
            # "February 29" (not a leap year), "April 31": recorded as written, so that the
            # value check answers "not a real date" and asks again.
            written = impossible_date(text, now)
            if written is not None:
                parse.slots[asked.name] = written
        if time is not None and tables.time_target is not None:
            parse.slots[tables.time_target.name] = time
        if tables.patterned:
            rest = fill_patterned(tables.patterned, rest, parse, asked, _free_text(tables, asked), said=text)
        if tables.found:  # phone numbers, emails, references: read, then out of the text numbers are read from
            undated_rest = rest if undated else remove_dates_and_times(rest)
            rest = fill_found(tables.found, tables.asked, tables.slot_names, (rest, undated_rest, text), now, parse)
        if tables.any_value is not None and tables.any_value.search(fold(text)):
            folded = fold(text)
            claimed_by = [
                (slot, found.span())
                for slot, values, _, aliases in tables.categorical
                for pattern in [*(value_pattern(value) for value in values), *(pattern for _, pattern in aliases)]
                if (found := pattern.search(folded)) is not None
            ]
            claimed = [span for _, span in claimed_by]
            given: dict[str, list[Slot]] = {}
            shortest = 3 if state.asked is None and not state.expected else 4  # all held: "a van" is a change
            for slot, values, asked_for, aliases in tables.categorical:
                hit = found_value(values, text, aliases, claimed, asked=asked_for)
                hit = (hit and more_specific(slot, hit, text)) or hit  # "film our podcast": a filmed podcast
                if hit is None and slot is asked and listed_values(values, text, aliases):
                    parse.info.setdefault("doubt", []).append(slot.name)  # "new lawn, patio, borders": asked
                if hit is not None and slot is not asked and echoes_question(hit, aliases, folded, tables.asked_words):
                    parse.info["echo"] = True  # "a gate down the side" to "... by a side gate?": no fencing job
                    continue
                if (
                    hit is not None
                    and (asked_for or distinctive(hit, shortest))
                    # inside a longer value of another slot ("north" of "north american"), not its own ("upright piano")
                    and not inside_longer(hit, folded, [span for owner, span in claimed_by if owner is not slot])
                ):
                    given.setdefault(hit, []).append(slot)
            for hit, slots in given.items():  # "my savings account": the account's type, not the recipient's
                for slot in value_owners(slots, asked, text):
                    parse.slots[slot.name] = hit
                    if slot is not asked and state.confirm is None and not value_pattern(hit).search(folded):
                        if not says_change(text):  # by a synonym while another question is asked: held stays
                            parse.info.setdefault("in_passing", []).append(slot.name)
            rest = tables.any_value.sub(without_numbers, fold(rest))
        if tables.weekdays or tables.month_days:
            read_days(tables.weekdays, tables.month_days, asked, text, now, parse.slots)
        if asked is not None and asked is tables.number_target:
            rest = _SPELLED_DIGITS.sub(lambda found: found.group().replace(" ", ""), rest)  # "5 0 3" -> 503
        # "me, my wife and the two kids": 4 people, not 2; "two bedrooms and the living room" (asked): 3 rooms
        rest = without_subsets(rest)  # "seven, two of them are teenagers": 7
        counted = asked if asked is not None and asked is tables.number_target else None
        rest = with_listed_counts(rest, tables.number_words, counted, tables.lists_things, parse.info)
        if not tables.ages:  # "it's just for my son, he's 14": an age, no count (a flow with an age slot reads it)
            rest = without_ages(rest)
        if tables.number_words and not (asked is not None and asked is tables.number_target):
            # "every couple of months", "for 3 years": a length of time counts no bedrooms, unless a slot is named so
            rest = without_lengths_of_time(rest, tables.count_nouns)
        # "a one-way flight", "one more thing", "the top one and the bottom one", "a bay tonight? a standard one"
        numbers = counted_numbers(without_phrase_ones(rest))
        number_asked = asked is not None and asked is tables.number_target  # undated: the words as said too
        if numbers and any(counts_nothing(said, number_asked) for said in ((rest, text) if undated else (rest,))):
            numbers = []  # "yes we both had one last month": a "one" standing for a thing counts nothing not asked
        if not numbers:  # "just me", "only her", "both of us": a head count said by who comes
            for slot, _ in tables.number_words:
                count = head_count(slot, rest, asked=slot is asked)
                if count is not None and slot.name not in parse.slots:
                    parse.slots[slot.name] = count
                    break
        if len(numbers) > 1 and (second := SELF_CORRECTION.search(rest)) is not None:
            # "one large margherita and... actually make that two": what follows the correction counts
            rest, numbers = rest[second.end() :], find_numbers(rest[second.end() :]) or numbers
        if numbers:
            named = named_number(tables.number_words, rest)
            if named is None and (alone := party_alone([slot for slot, _ in tables.number_words], rest)) is not None:
                named = alone[:2]  # "yes, for 10 kids": a head count in passing (no count held is replaced)
                parse.info.setdefault("counted", []).append(alone[2])
            target = tables.number_target or (named[0] if named else None) or _corrected_number_slot(tables, rest)
            if target is None and _wants_description(tables) and bare_number(text, words=True):
                target = tables.single_number  # "six" to "what's it doing?": no description, the flow's one count
            if len(tables.number_words) > 1:  # "2 rooms at a 3 star hotel", "3 days, I'm 44": each by its name
                for name, number in numbers_by_name([slot for slot, _ in tables.number_words], rest).items():
                    parse.slots.setdefault(name, number)
            if target is not None and target.name not in parse.slots:
                if len(numbers) == 1:
                    parse.slots[target.name] = numbers[0]
                elif named is not None and named[0] is target:  # "3 fruit boxes to 5 Oak Road": the one by its words
                    parse.slots[target.name] = named[1]
            ask_which_number(state, target, rest, numbers, parse)  # "5" that two slots could take: asked which


_ONLY_THAT = re.compile(r"\b(?:just|only)\b[^.!?]*?\bnothing\s+else\b")


_WRITTEN_CLOCK = re.compile(r"\d\s*(?::\d\d|[ap]\.?m\b)", re.I)
"""A clock time written as one ("6:30", "7pm", "7 p.m."): no count, whether or not the flow asks a time."""
_SPELLED_DIGITS = re.compile(r"(?<![\w.:])\d(?: \d){2,}(?![\w.:])")
"""A number said digit by digit ("booking number 5 0 3")."""


_LOSS = re.compile(r"(?:i\s+)?(?:lost|forgot)\b|can'?t find|cannot find", re.I)
"""A refusal by loss ("I lost my card", "can't find it"): it refuses a value the user holds, never a choice."""


def _is_choice(slot: Slot | None) -> bool:
    """Is ``slot`` a choice the user makes (categorical, yes/no), not a value they hold? "I lost my keys" asked
    what a locksmith is needed for tells the job; it declines nothing (it ended a conversation on its first turn)."""
    return slot is not None and slot.type in (SlotType.categorical, SlotType.boolean)


def _corrected_number_slot(tables: StateTables, text: str) -> Slot | None:
    """The flow's only numeric slot, for a number given as a correction ("sorry, wrong number, it's 251")."""
    return tables.single_number if tables.single_number is not None and CORRECTION.search(text) else None


def _last_question(history: Sequence[tuple[str, str]]) -> str:
    """The bot's last message (what a reply answers)."""
    return next((said for role, said in reversed(history) if role != "user"), "")


def _wants_description(tables: StateTables) -> bool:
    """Is the asked slot a free-text one that wants a description (:func:`~.text_values.descriptive`)?"""
    return _free_text(tables, tables.asked) and descriptive(tables.asked)
