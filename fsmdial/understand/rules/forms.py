"""Values of slots with a pattern (phones, emails, account numbers, PINs) in a reply, for the rules understander:
the words of a slot's form (digit groups joined, an email read out), given to the slot their cue words name, else
the asked one, else the one slot of that form; and the values that claim their words (addresses), read first.

A text slot without a pattern whose name says it holds a number or a code ("account_number", "PIN", "booking_id")
is read the same way (:func:`names_a_number`): its value is the word with digits its name points at, never the
whole sentence around it ("It's 68318931, but I forgot my PIN" is account 68318931).
"""

from __future__ import annotations

import bisect
import datetime as dt
import itertools
import re
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any

from ...flow import Slot, SlotType
from ...language import PARTY_PLURALS, PEOPLE_WORDS, WORD_NUMBERS, correction_end, find_numbers, length_before_a_noun
from ...language.contacts import ABBREVIATIONS, contact_words
from ...language.numbers import join_spaced_digits, words_to_digits
from ...language.text import FUNCTION_WORDS
from ...slots import KINDS, InvalidValue
from ..base import Parse
from .coverage import DATE_TIME_WORDS, FILLER_WORDS
from .pronoun_one import only_pronoun_ones

_DIGIT_GROUPS = re.compile(r"(?<![\w:.,])\+?\d{1,6}(?:[ \-]\d{1,6})+(?![\w:]|[.,]\d)")
"""Digits written in groups ("07700 900 456", "+44 7700 900456", "1234 5678"): one value when they are six or more."""
DIGIT_SPACES = re.compile(r"(?<=\d)[ \-](?=\d)")
_CANDIDATE = re.compile(r"[^\s,;!?()\"]+")
_NUMBER_NAME_ENDS = frozenset({"number", "num", "no", "id", "pin", "code", "reference", "ref"})
"""The last word of a text slot's name that says its value is a number or a code."""
_NUMBER_FORM = re.compile(r"(?=(?:[A-Za-z\-]*\d){3})[A-Za-z0-9\-]*\d[A-Za-z0-9\-]*")
"""A word a number-named text slot takes: letters, digits and dashes, three digits or more ("68318931", "BA-2490")."""


def letter_codes(text: str) -> list[str]:
    """The words of ``text`` of that form with letters in them ("RX4829"): codes, which no whole number is."""
    words = (word.rstrip(".:") for word in _CANDIDATE.findall(text))
    return [word for word in words if _NUMBER_FORM.fullmatch(word) and any(c.isalpha() for c in word)]


@lru_cache(maxsize=512)
def _number_named(type_: SlotType, name: str) -> bool:
    words = re.split(r"[_\W]+|(?<=[a-z])(?=[A-Z])", name)
    return type_ in (SlotType.string, SlotType.text) and words[-1].casefold() in _NUMBER_NAME_ENDS


def names_a_number(slot: Slot) -> bool:
    """Is ``slot`` a text slot without a pattern whose name says it holds a number or a code ("account_number",
    "PIN", "bookingId")? It takes a word with digits like a patterned slot, but only when asked or named by its
    cue words: never as the flow's one slot of that form (a bare "4" is no booking id)."""
    return slot.pattern is None and _number_named(slot.type, slot.name)


def _candidates(text: str, phones: bool = False, references: bool = False) -> list[tuple[str, tuple[int, int], bool]]:
    """The words of ``text`` a patterned slot may take, with their spans and whether a reader of phone numbers,
    emails or references read them: email addresses (and phone numbers and references, when a slot of the flow
    takes them) in their normal form, digit groups joined, then single words (end punctuation dropped). No digit
    group or word inside a longer value is one ("123-4567" of "(555) 123-4567", "KM19" of "KM19 ZTR")."""
    out = [(value, span, True) for value, span in contact_words(text, phones, references)]
    starts = [span[0] for _, span, _ in out]  # contacts do not overlap: their ends rise with their starts
    for found in _DIGIT_GROUPS.finditer(text):
        joined = re.sub(r"[ \-]", "", found.group())
        last = bisect.bisect_left(starts, found.end()) - 1  # the last contact starting before the group ends
        inside = last >= 0 and out[last][1][1] > found.start() and out[last][1] != found.span()
        if sum(c.isdigit() for c in joined) >= 6 and not inside:
            out.append((joined, found.span(), False))
    taken = sorted(span for _, span, _ in out)
    firsts = [a for a, _ in taken]
    reach = list(itertools.accumulate((b for _, b in taken), max))  # how far the spans starting so far reach
    for found in _CANDIDATE.finditer(text):
        word = found.group().rstrip(".:")
        last = bisect.bisect_right(firsts, found.start()) - 1
        if word and not (last >= 0 and reach[last] > found.start()):
            out.append((word, (found.start(), found.start() + len(word)), False))
    return out


def _fits(slot: Slot, word: str, read: bool) -> bool:
    """May ``slot`` take ``word``? A phone number, an email or a reference only as its reader read it (``read``):
    never a word or a digit group out of a longer run ("3450000" of "01512 3450000 9999")."""
    return (read or not KINDS[slot.type].finds) and fits_form(slot, word)


def fill_patterned(
    patterned: Sequence[tuple[Slot, re.Pattern[str] | None]],
    text: str,
    parse: Parse,
    asked: Slot | None,
    free_text: bool,
    said: str | None = None,
) -> str:
    """Values of the slots with a pattern (phone, email, account number ...): a word of the message of a slot's form,
    for the slot its cue words name ("my number is 07455 667788", "the email should be x@y.z"), else the asked slot,
    else the one slot of the flow of that form (over-informing: "you can reach me on 07123456789"; "sorry, wrong
    number, it's 12345679" while the 4-digit PIN is asked); ``free_text``: a free-text answer is asked, which keeps
    its numbers; ``said``: the words as the user said them, when ``text`` has had its number words written in digits.
    Returns ``text`` without the values taken. Digits said one by one, in words or not ("nine one one
    two", "7 7 0 1"), are read as one word when that gives a value of a slot's form the text has not otherwise."""
    phones = any(slot.type is SlotType.phone for slot, _ in patterned)
    references = any(slot.type is SlotType.reference for slot, _ in patterned)
    text = _spoken_digits(patterned, text, phones, references)
    # A phone number, email or reference of ``text`` (number words in digits, when dates and times were taken out)
    # is one only if it is read from the words as ``said`` too: "the 4512 one" is no reference 45121.
    as_said: set[str] | None = None  # read when a contact first fits a slot: a long reply may have none
    heard: dict[str, list[tuple[int, str, tuple[int, int]]]] = {}  # slot: (where its cue ends, or -1; word; span)
    cue_spans = {slot.name: _spans(cue, text) for slot, cue in patterned}  # (ends, starts) of each slot's cues
    fitting: dict[tuple[str, bool], list[tuple[Slot, re.Pattern[str] | None]]] = {}  # a long reply says words again
    for word, span, contact in _candidates(text, phones, references):
        if (word, contact) not in fitting:
            fitting[word, contact] = [(slot, cue) for slot, cue in patterned if _fits(slot, word, contact)]
        fits = [(slot, cue) for slot, cue in fitting[word, contact] if slot.name not in parse.slots]
        if not fits:
            continue
        if contact and said is not None and said != text:
            if as_said is None:
                as_said = {value for value, _ in contact_words(said, phones, references)}
            if word not in as_said:
                continue
        cued = [(*_last_cue(*cue_spans[slot.name], span[0]), slot) for slot, _ in fits]
        cued = [item for item in cued if item[0] >= 0]
        if cued:
            # the nearest cue names the slot; of two ending there, the longer ("the phone number" is the phone's, not
            # the guarantee number's), then the asked one, then the one whose type knows the word ("my number's 07700
            # 900 471" while another question is asked: the phone)
            cue_end, _, slot = max(
                cued, key=lambda item: (item[0], -item[1], item[2] is asked, KINDS[item[2].type].distinctive)
            )
        elif asked is not None and any(slot is asked for slot, _ in fits):
            cue_end, slot = -1, asked
        elif (
            len(fits) == 1
            and not free_text
            and (KINDS[fits[0][0].type].distinctive or not KINDS[fits[0][0].type].finds)
            and not names_a_number(fits[0][0])
        ):
            # never over a free-text answer just asked ("a transfer to 12345678"), nor a reference not asked or named
            cue_end, slot = -1, fits[0][0]
        else:
            continue
        heard.setdefault(slot.name, []).append((cue_end, word, span))
    taken: list[tuple[int, int]] = []
    for slot, _ in patterned:
        if slot.name not in heard:
            continue
        # A cue names the value right after it ("booking 4512 for 2 people"); of values said without one, one alone
        # is certain: two ("a 2012 astra, KM19 ZTR") leave the slot to be asked.
        named = {cue_end: (word, span) for cue_end, word, span in reversed(heard[slot.name]) if cue_end >= 0}
        chosen = list(named.values()) or [(word, span) for _, word, span in heard[slot.name]]
        if len({_value_key(slot, word) for word, _ in chosen}) > 1:  # "07700 900 47... sorry 07700 900 474"
            chosen = [(word, span) for word, span in chosen if span[0] >= correction_end(text)]
        if len({_value_key(slot, word) for word, _ in chosen}) != 1:
            continue
        parse.slots[slot.name] = chosen[0][0]
        if named:
            parse.info.setdefault("cued", []).append(slot.name)
        taken += [span for _, span in chosen]
    for start, end in sorted(taken, reverse=True):
        text = text[:start] + " " + text[end:]
    return text


def _value_key(slot: Slot, word: str) -> object:
    """What ``word`` stores for ``slot`` (two words of one value are one answer: "07700 900 123", "07700900123")."""
    try:
        return KINDS[slot.type].coerce(slot, word, dt.datetime.min, None, False)
    except InvalidValue:
        return word


def _spoken_digits(
    patterned: Sequence[tuple[Slot, re.Pattern[str] | None]], text: str, phones: bool, references: bool
) -> str:
    """``text`` with its digits said one by one joined ("six six two zero" -> "6620"), when that makes a word of a
    patterned slot's form for a slot no word of ``text`` as written fits; else ``text`` as it is ("four cheese"
    stays; "oh seven seven double oh ..." is read as said)."""
    joined = join_spaced_digits(words_to_digits(text))
    if joined == text:
        return text
    written = _candidates(text, phones, references)
    said = {word for word, _, _ in written}
    new = {(word, contact) for word, _, contact in _candidates(joined, phones, references) if word not in said}
    # Phone numbers, emails and references read digit words themselves: "the 4512 one" is not 45121.
    wanted = [
        slot
        for slot, _ in patterned
        if not KINDS[slot.type].finds and any(_fits(slot, word, contact) for word, contact in new)
    ]
    return (
        joined if any(not any(_fits(slot, word, contact) for word, _, contact in written) for slot in wanted) else text
    )


def _spans(cue: re.Pattern[str] | None, text: str) -> tuple[list[int], list[int]]:
    """Where a slot's cues end and start in ``text``, in order (none without a cue)."""
    found = list(cue.finditer(text)) if cue is not None else []
    return [match.end() for match in found], [match.start() for match in found]


def _last_cue(ends: list[int], starts: list[int], start: int) -> tuple[int, int]:
    """Where the last cue of a slot ending before ``start`` ends and starts ((-1, -1): none), of the ``ends`` and
    ``starts`` of its cues in order."""
    last = bisect.bisect_right(ends, start) - 1
    return (ends[last], starts[last]) if last >= 0 else (-1, -1)


def fits_form(slot: Slot, word: str) -> bool:
    """Is ``word`` of the slot's form: its pattern, or a value of its type (a phone number, an email, a reference),
    or for a text slot named as a number (:func:`names_a_number`) a word with three digits or more?"""
    if names_a_number(slot):
        return _NUMBER_FORM.fullmatch(word) is not None
    return KINDS[slot.type].fits(slot, word)


_GENERIC_CUE_WORDS = frozenset({"number", "code", "the", "of", "your", "my", "for", "and", "address", "new", "id"})


@lru_cache(maxsize=256)
def slot_cue(name: str, label: str) -> re.Pattern[str] | None:
    """The words that name a slot in a sentence: its name's and label's own words ("pin", "email", "phone",
    "account"), or the generic "number" for a slot whose name ends in it."""
    words = {w for w in re.split(r"[_\W]+", f"{name} {label}".casefold()) if len(w) > 1}
    own = sorted(words - _GENERIC_CUE_WORDS) or sorted(words)
    own += [short for word in own for short in ABBREVIATIONS.get(word, ())]  # "reg" for a registration
    if "number" in words or "phone" in words:
        own.append("number")
    if not own:
        return None
    word = "(?:" + "|".join(map(re.escape, own)) + ")"
    # Its words side by side are one cue ("phone number"): the longer cue wins where two slots' cues end alike.
    # "the pin's 5512", "my number's ...": the cue with its "is" joined on
    return re.compile(rf"(?<![\w']){word}(?:\s+{word})*(?:['\u2019]s)?(?![\w'])", re.I)


def found_in(slot: Slot, text: str, undated: str, now: dt.datetime) -> dict[str, Any]:
    """The values of ``slot`` its type finds in ``text``, read from the words as said ("the 4512 one" is no reference
    45121), but for those inside a date or a time: not left in ``undated`` (``text`` without them, in digits)."""
    said = KINDS[slot.type].find(slot, text, now) or {}
    return {span: value for span, value in said.items() if span in undated or words_to_digits(span) in undated}


def meant(found: dict[str, Any], spans: list[str], text: str, named: Callable[[str], bool]) -> list[str]:
    """Of the ``spans`` of ``found`` values, those meant: all when they say one value; of several, those named right
    before (``named``), else those said after the last self-correction ("07700 900 47... sorry 07700 900 474")."""
    if len({found[span] for span in spans}) <= 1:
        return spans
    return [span for span in spans if named(span)] or [
        span for span in spans if text.find(span) >= correction_end(text)
    ]


def claim_found(
    found_slots: Sequence[tuple[Slot, bool]], asked: Slot | None, text: str, now: dt.datetime, parse: Parse
) -> str:
    """Values of the types that claim their words (:attr:`~fsmdial.slots.SlotKind.claims`: addresses), read before
    any other from the whole message: each goes to the asked slot of its type, else (``taken``: the flow's only slot
    of the type) where its span says what it is ("pick me up from ...", "9 Meadow Lane, Amersham"); ``text`` without
    every span found, whichever slot took it, so that no other reader sees their words ("8 Meadow Lane" is no 08:00,
    "12 Elm Street, not 21" no 21 passengers). The same rule as for phone numbers, read first. A value no slot took
    (a street said while another question is asked) is noted in ``parse.info["unclaimed"]``: with a change cue it is
    a change of the held one ("sorry, wrong number, it's 43 Brynland Avenue")."""
    claimed: dict[str, Any] = {}
    for slot, taken in found_slots:
        kind = KINDS[slot.type]
        found = (kind.find(slot, text, now) or {}) if kind.claims else {}
        spans = [span for span in found if slot is asked or (taken and kind.says_itself(span))]
        if spans and slot.name not in parse.slots and (len(set(found.values())) == 1 or slot is asked):
            parse.slots[slot.name] = found[spans[0]]
        elif taken and len(set(found.values())) == 1:  # "it's 43 Brynland Avenue" said while the day is asked
            parse.info.setdefault("unclaimed", {})[slot.name] = next(iter(found.values()))
        claimed |= found
    return without(text, claimed) if claimed else text


def without(text: str, found: dict[str, Any]) -> str:
    """``text`` (its number words perhaps in digits) without the spans of ``found``."""
    for span in found:
        text = text.replace(span, " ").replace(words_to_digits(span), " ")
    return text


_NOT_NAMING = frozenset(
    {"number", "the", "of", "for", "and", "with", "what", "which", "how", "many", "much", "name", "value"}
)


_POSSESSIVE = re.compile(r"[a-z]+'s?(?![a-z])")
"""A word said as a possessive ("driver's", "drivers'")."""
_PEOPLE_EXAMPLE = frozenset({"us", "we", "me"}) | PEOPLE_WORDS
"""Words of a slot's example answers that say it counts people ("four of us", "just me")."""


def says_people(slot: Slot) -> bool:
    """Does ``slot`` count people by its own words: its name, label or description says people ("number of guests"),
    or an example answer of its author is said by people ("four of us", "just me": a count of drivers, riders)? Never
    an age ("the youngest's age", described "of the youngest in the group")."""
    own = f"{slot.name.replace('_', ' ')} {slot.label or ''}".casefold()
    if "age" in re.findall(r"[a-z]+", own):
        return False  # an age in years, of someone in the group: no count of people
    said = f"{own} {slot.description or ''}"
    if not PEOPLE_WORDS.isdisjoint(re.findall(r"[a-z]+", said)):
        return True
    examples = " ".join(example for example in slot.examples if isinstance(example, str)).casefold()
    return not _PEOPLE_EXAMPLE.isdisjoint(re.findall(r"[a-z]+", examples))


def naming_words(slot: Slot, *, described: bool = True) -> frozenset[str]:
    """The words that name ``slot`` in a message: those of its name and label (``described``: and description), singular
    and plural, and every word for people when it counts people ("we'll be 5", "five of us": we, us)."""
    said = f"{slot.name.replace('_', ' ')} {slot.label or ''} {slot.description if described else ''}".casefold()
    # a possessive says whose it is, not what is counted: "the youngest driver's age" is named by no "2 drivers"
    said = _POSSESSIVE.sub(" ", said.replace("\u2019", "'"))
    words = {word for word in re.findall(r"[a-z]+", said) if len(word) > 2 and word not in _NOT_NAMING}
    # what its question counts: "How many places would you like?" (people): "two places" counts them
    words |= {word for word in _HOW_MANY.findall((slot.ask or "").casefold()) if word not in _NOT_NAMING}
    if words & PEOPLE_WORDS or (slot.type is SlotType.integer and says_people(slot)):
        words |= PEOPLE_WORDS | {"we", "us"}
    return frozenset(words | {word + "s" for word in words} | {word[:-1] for word in words if word.endswith("s")})


def named_before(slot: Slot, text: str, span: str, slot_names: frozenset[str] = frozenset()) -> bool:
    """Is ``span`` said right after a word naming ``slot`` ("booking number 503", "my account is 10203040")? Not a
    word of another slot's name (``slot_names``: the words of every slot's name): "a podcast session for 2" names the
    session, no length of one."""
    own = set(slot.name.split("_"))
    words = naming_words(slot) - (slot_names - own)
    before = re.findall(r"[a-z]+", text[: text.find(span)].casefold())[-4:]
    return any(word in words for word in before)


_HOW_MANY = re.compile(r"how\s+many\s+(?!of\b)([a-z]{3,})")


_AGE_WORDS = "|".join(
    sorted((word for word in WORD_NUMBERS if " " not in word and "-" not in word), key=len, reverse=True)
)
_AGE_SAID = re.compile(
    r"(?<![\w'])(?:i'?m|i\s+am|he'?s|she'?s|they'?re|aged|who'?s|who\s+is|who\s+are)\s+(\d{1,3}|" + _AGE_WORDS + r")"
    r"(?:\s*(?:and|&)\s*\d{1,2}(?!\s*(?:people|of\b)))?(?:\s+years?\s+old)?"  # "they're 8 and 11": both ages
    r"(?=\s*(?:[,.;!?]|and\b|$))|(?<![\w'])(\d{1,3})[\s-]+years?[\s-]+old\b|"
    r"(?<![\w'])(?:turns|turning|turned)\s+(\d{1,3}|"
    + _AGE_WORDS
    + r")(?!\s*(?:[:.]\d|am\b|pm\b|o'?clock))(?=\s|[,.;!?]|$)",
    re.I,
)
"""An age said of someone ("I'm 44", "she's 22,", "aged 70", "31 years old", "my lad turns 10 next month"); never
"I'm 5 minutes away"."""


def without_ages(text: str) -> str:
    """``text`` without the ages said in it ("he's 14", "aged 70"): no count, no other slot's number."""
    return _AGE_SAID.sub(lambda found: " " * len(found.group()), text) if _AGE_HINT.search(text) else text


_AGE_HINT = re.compile(r"'s\s+\d|'re\s+\d|\b(?:am|aged|is|are)\s+\d|'m\s+\d|years?[\s-]+old|\bturn(?:s|ing|ed)\s", re.I)


def numbers_by_name(slots: Sequence[Slot], text: str) -> dict[str, int | float]:
    """Slot name -> the number said right before one of its own name's words ("2 rooms at a 3 star hotel": rooms 2,
    star rating 3), for each numeric slot named so once; a number two slots' words follow is left out."""
    words = re.findall(r"[a-z]+|\d+(?:[.,]\d+)?", text.casefold())
    owned = [(slot, naming_words(slot, described=False)) for slot in slots]
    out: dict[str, int | float] = {}
    ages = [slot for slot, own in owned if "age" in own]
    if len(ages) == 1 and (age := _age_said(ages[0], text)) is not None:
        out[ages[0].name] = age  # "..., I'm 44 and my number's ...": the age of the flow's one age slot
    for i, word in enumerate(words):
        if not (word[0].isdigit() or word in WORD_NUMBERS) or not (read := find_numbers(word)):
            continue
        after = set(words[i + 1 : i + 3])
        named = [slot for slot, own in owned if own & after]
        if len(named) == 1 and named[0].name not in out:
            out[named[0].name] = read[0]
    return out


def _age_said(slot: Slot, text: str) -> int | None:
    """The age ``text`` says for the age slot: the one age said as it is now ("she's 7, turning 8 in March": 7), else
    the one it turns; of several, the youngest or the oldest when the slot asks for it ("they're 9 and 13"); else
    None."""
    now: list[int] = []
    turning: list[int] = []
    for found in _AGE_SAID.finditer(text):
        as_now = found.group(1) or found.group(2)
        (now if as_now is not None else turning).append(int(find_numbers(as_now or found.group(3))[0]))
        if found.group(1) is not None and (both := _BOTH_AGES.search(found.group())) is not None:
            now.append(int(both.group(1)))  # "they're 9 and 13"
    ages = now or turning
    if len(ages) == 1:
        return ages[0]
    words = set(re.findall(r"[a-z]+", f"{slot.name.replace('_', ' ')} {slot.label or ''}".casefold()))
    if ages and "youngest" in words:
        return min(ages)
    if ages and "oldest" in words:
        return max(ages)
    return None


_BOTH_AGES = re.compile(r"(?:and|&)\s*(\d{1,2})", re.I)


_RANGE_WORDS = frozenset({"from", "to", "than", "into"})
"""Words between a slot's own words and a number that make the number something else ("my ride from 2 to 4")."""


def named_number(number_words: Sequence[tuple[Slot, frozenset[str]]], text: str) -> tuple[Slot, int | float] | None:
    """The numeric slot whose own words stand right next to a number ("7 people", "ride 102"), with that number."""
    if not number_words:
        return None
    words = re.findall(r"[a-z]+|\d+(?:[.,]\d+)?", text.casefold())
    hits: list[tuple[Slot, int | float]] = []
    own: list[tuple[Slot, int | float]] = []  # named by a word of the slot's own name or label, not its description
    for slot, vocab in number_words:
        for i, word in enumerate(words):
            before = words[max(0, i - 3) : i]
            if any(w in _RANGE_WORDS for w in before):  # "my ride from 2 to 4": a change, no ride number
                before = before[max(j for j, w in enumerate(before) if w in _RANGE_WORDS) + 1 :]
            couple = word == "couple" and i > 0 and words[i - 1] == "a"  # "a couple of cameras"
            if not (word[0].isdigit() or word in WORD_NUMBERS or couple):
                continue
            after = words[i + 1 : i + 3]
            named_after = any(w in vocab for w in after) or _clipped_noun(after[:1], vocab)
            if not named_after and (not any(w in vocab for w in before) or _counts_another(after, vocab)):
                continue  # "we've got one apprentice", "we need 4 lanes": the number counts the noun after it
            if length_before_a_noun(words, i):
                continue  # "the 5 year extended warranty": a length naming the thing after it, no age
            read = [2] if couple else find_numbers(word)
            if read:
                hits.append((slot, read[0]))
                if not naming_words(slot, described=False).isdisjoint(after[:1] if named_after else before):
                    own.append((slot, read[0]))
                break
    if len(hits) > 1 and len(own) == 1:
        return own[0]  # "12 drivers": the number of drivers, not the age its description gives "the youngest driver"
    return hits[0] if len(hits) == 1 else None


_BARE_NUMBER = re.compile(r"\W*\d+\W*")


def bare_number(text: str, *, words: bool = False) -> bool:
    """Is ``text`` a number alone ("6", and with ``words`` "six.")?"""
    return _BARE_NUMBER.fullmatch(text) is not None or (words and text.strip(" .!,").casefold() in WORD_NUMBERS)


def counted_only(number_words: Sequence[tuple[Slot, frozenset[str]]], text: str) -> bool:
    """Is ``text`` nothing but a number and the words naming its slot ("it's an eight seater", "five seats")?"""
    named = named_number(number_words, text)
    if named is None:
        return False
    vocab = next(words for slot, words in number_words if slot is named[0])
    return all(
        word in vocab or word in FUNCTION_WORDS or word in WORD_NUMBERS or word[0].isdigit()
        for word in re.findall(r"[a-z']+|\d+", text.casefold())
    )


@lru_cache(maxsize=256)
def counted_nouns(nouns: frozenset[str]) -> re.Pattern[str] | None:
    """A number right before a noun the flow's numeric slots are named by ("the one bike", "2 bikes"): a count of it,
    never a clock time. None without such nouns."""
    named = sorted((noun for noun in nouns if len(noun) > 2 and noun not in PEOPLE_WORDS), key=len, reverse=True)
    if not named:
        return None
    numbers = "|".join(sorted((word for word in WORD_NUMBERS if " " not in word), key=len, reverse=True))
    return re.compile(rf"(?<![\w:.])(?:\d{{1,3}}|{numbers})\s+(?:{'|'.join(map(re.escape, named))})(?![\w'])", re.I)


def without_counted(counted: re.Pattern[str] | None, text: str) -> str:
    """``text`` with the numbers counting a slot's noun blanked (:func:`counted_nouns`), and those counting any other
    things ("about 6 fence panels", "2 wardrobes"), for its clock times."""
    if counted is not None:
        text = counted.sub(lambda found: " " * len(found.group()), text)
    return _COUNTED_THINGS.sub(_blank_counted, text) if any(c.isdigit() for c in text) else text


_NOT_THINGS = (
    FUNCTION_WORDS | DATE_TIME_WORDS | FILLER_WORDS | {"always", "sometimes", "anyways", "besides", "nowadays"}
)
"""Words ending in "s" that are no things counted ("at 6 thanks", "for 2 hours", "at 7 sometimes")."""
_COUNTED_THINGS = re.compile(r"(?<![\w:.£$€])\d{1,3}\s+(?:(?P<first>[a-z]+)\s+)?(?P<thing>[a-z]{3,}s)(?![\w'])", re.I)
"""A number before a plural noun, maybe with a word between ("6 fence panels"): a count of things, no clock time."""


def _blank_counted(found: re.Match[str]) -> str:
    words = [word.casefold() for word in (found.group("first"), found.group("thing")) if word]
    if any(word in _NOT_THINGS or word.endswith("wards") for word in words):  # "from 10 onwards"
        return found.group()
    return " " * len(found.group())


def _counts_another(after: list[str], vocab: frozenset[str]) -> bool:
    """Is the word right after a number (``after``: it and the next) a noun of something else than ``vocab`` names
    ("one apprentice who's 17", "4 lanes"): no word of the slot's, no function, filler, date or time word, nor one
    clipped from the slot's words, and no modifier of a noun after it ("three kids' beds")?"""
    if not after or not after[0].isalpha() or after[0] in vocab or _clipped_noun(after[:1], vocab):
        return False
    word = after[0]
    if len(after) > 1 and after[1].isalpha() and not _not_a_noun(after[1]):
        return False
    if any(word.endswith(own) for own in vocab if len(own) > 3):
        return False  # "2 bedrooms" of the rooms
    if word in PARTY_PLURALS and "people" in vocab:
        return False  # "my two boys" to a count of people
    return not _not_a_noun(word) and word not in WORD_NUMBERS and len(word) > 2


def _not_a_noun(word: str) -> bool:
    return word in FUNCTION_WORDS or word in FILLER_WORDS or word in DATE_TIME_WORDS


def _clipped_noun(after: list[str], vocab: frozenset[str]) -> bool:
    """Is the word right after a number one of ``vocab`` clipped ("a 3 bed house", "3 beds": bedrooms; three letters or
    more)?"""
    clips = [clip for word in after if word.isalpha() for clip in {word, word.removesuffix("s")} if len(clip) >= 3]
    return bool(clips) and any(own.startswith(clip) and len(own) - len(clip) <= 5 for clip in clips for own in vocab)


def fill_found(
    found_slots: Sequence[tuple[Slot, bool]],
    asked: Slot | None,
    slot_names: frozenset[str],
    texts: tuple[str, str, str],
    now: dt.datetime,
    parse: Parse,
) -> str:
    """Phone numbers, emails, references and amounts said in ``text``, but in its dates and times (``texts`` is
    ``(rest, undated, text)``: ``undated`` is ``rest`` without them), into ``parse``; ``rest`` without them. Each of
    ``found_slots`` is (slot, whether a value is taken by its form alone)."""
    rest, undated, text = texts
    for slot, taken in found_slots:
        found = found_in(slot, text, undated, now)
        if not found and slot is asked and (refused := KINDS[slot.type].refused(slot, text)) is not None:
            parse.slots.setdefault(slot.name, refused)  # "20 dollars" for pounds: refused and asked again
            continue
        if not found or slot.name in parse.slots or (slot is not asked and only_pronoun_ones(text)):
            continue  # "hire one of your motorboats": no hour of hire
        values = list(dict.fromkeys(found.values()))
        says = KINDS[slot.type].says_itself
        spans = [
            span
            for span in found
            if slot is asked or (taken and says(span)) or named_before(slot, text, span, slot_names)
        ]
        spans = meant(found, spans, text, lambda span: named_before(slot, text, span, slot_names))  # noqa: B023
        if spans and len({found[span] for span in spans}) == 1 and (len(values) == 1 or slot is asked):
            parse.slots[slot.name] = found[spans[0]]
            rest = without(rest, found)  # the digits of a phone number are no party size
    return rest
