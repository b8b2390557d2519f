"""Times of day in English text, as ``HH:MM``.

Read: "7pm", "7:30 am", "19:00", "8.30pm", "9.30" (a time when said as one, after "at"/"by", or with a part of the
day), "seven thirty", "half past seven", "quarter to five", "ten past 8", "half seven", "9 o'clock", "noon",
"midday", "midnight", "at 7", "around 8 in the evening", "tonight at 8", and, with the dialogue's clock, "in an
hour", "in 30 minutes", "in half an hour". Number words are read by :func:`.numbers.words_to_digits` first.

A clock time without am/pm that a 12-hour clock can mean ("7:45", "at 4", "half past seven") has two readings;
a part of the day near it picks one ("7:30 in the evening", "tomorrow evening around 7"), else the slot's hours
do (:mod:`fsmdial.slots.times`, :func:`fsmdial.values.coerce`): the understanders pass it on as written
(:func:`read_clock`), never as a guess.
"""

from __future__ import annotations

import bisect
import datetime as dt
import re
from dataclasses import dataclass
from functools import lru_cache

from rapidfuzz import process
from rapidfuzz.distance import OSA

from .day_words import TEXTED_DAYS
from .numbers import words_to_digits
from .text import DIGIT, PEOPLE_WORDS, SENTENCE_BREAK

__all__ = [
    "TWELVE_HOUR",
    "TWENTY_FOUR_HOUR",
    "approximate_clock",
    "clock_readings",
    "parse_time",
    "read_clock",
    "remove_times",
]
__all__ += ["FIRST_THING", "range_minutes", "said_as_written"]

TWELVE_HOUR = " (12-hour clock)"
"""Marks a clock time read without am/pm ("7:45 (12-hour clock)"): never the stored ``HH:MM`` form, so the
value check resolves it (:func:`clock_readings`) rather than taking it as written."""
TWENTY_FOUR_HOUR = " (24-hour clock)"
"""Marks a clock time written the 24-hour way with an hour a 12-hour clock also has ("10:00", "11.30"): the slot's
hours or the time left on the day may still pick the other reading ("10:15" at a restaurant open in the evening),
but when both fit it is taken as written, never asked about (:func:`said_as_written`)."""

_MERIDIEM = r"(?P<mer>a\.?m\.?|p\.?m\.?)(?![a-z])"
_CLOCK = re.compile(
    r"(?<![\w.:/\-£$€])(?:"
    r"(?P<rel>in\s+(?:(?P<rel_n>an?|\d{1,3})\s+(?P<rel_unit>hours?|hrs?|minutes?|mins?)|half\s+an?\s+hour)"
    r"(?P<rel_half>\s+and\s+a\s+half)?)"
    # minutes are said in fives ("ten to 5", "25 past 4") unless named ("7 minutes to 5"): "7 till 10" and "from 10
    # to 12" are ranges of hours
    r"|(?P<frac>half|(?:a\s+)?(?:quarter|quater|qtr)|\d{1,2}\s+min(?:ute)?s?|(?<!from\s)(?<!between\s)[1-5]?[05](?!\d))"
    r"\s+(?P<dir>past|after|to|till?|before|of)\s+"
    r"(?P<fh>\d{1,2}(?!\d)|noon|midnight)(?:\s*(?P<fmer>a\.?m\.?|p\.?m\.?)(?![a-z]))?"
    r"|half\s+(?P<half>\d{1,2})(?![\d:.])(?:\s*(?P<hmer>a\.?m\.?|p\.?m\.?)(?![a-z]))?"
    r"|(?:12\s+)?(?P<word>noon|midday|midnight)"
    r"|(?P<hhmm>(?:[01]\d|2[0-3])[0-5]\d)(?!\d|[:.,/\-]\d)(?:\s*(?P<hrs>hrs|hours|h)\b|\s*(?P<hhmer>[ap]\.?m\.?)(?![a-z]))?"
    r"|(?P<h>\d{1,2})(?:(?P<sep>[:.]|\s)(?P<m>[0-5]\d))?(?!\d|[:.,/\-]\d)(?:\s*(?P<oclock>o[\"'’]?\s?clock))?"
    r"(?:\s*" + _MERIDIEM + r")?"
    r")",
    re.I,
)
_BEFORE = re.compile(r"(?:\b(?:at|by|from|after|before|until|till|til)|@)\s+(?:(?:around|about|like)\s+)?$", re.I)
_BETWEEN = re.compile(r"\bbetween\s+(?:(?:around|about)\s+)?$", re.I)
_RANGE_OPENS = re.compile(r"\b(?:between|from)\s+(?:(?:around|about)\s+)?$", re.I)
"""The word before a range's start ("between 2 and 3", "from 10 till 12"): its end is a time too."""
_RANGE_END = re.compile(
    r"\s*(?:and|-|–|to|till?|until)\s*(?P<end>\d{1,2}(?:[:.][0-5]\d)?)(?:\s*(?P<mer>[ap])\.?m\.?(?![a-z]))?", re.I
)
"""The end of a range after its start ("between 9 and 10", "between 2 and 3pm", "7 till 10"): the start is the time
said."""
_UNTIL = re.compile(r"\s*(?:-|–|to|till?|until)\s*\d", re.I)
"""What follows a bare hour that starts a range without "between" ("7 till 10", "from 2 to 4")."""
_DAY_NEAR = re.compile(
    r"\b(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*\b|\b(?:today|tomorrow|tmrw?|tonight)\b|\b\d{1,2}(?:st|nd|rd|th)\b", re.I
)
"""A day said in the text ("Tuesday the 8th around 9", "around 9 on tues"): an approximate hour with it is a time."""
_ROUGH_AFTER = re.compile(r"\s*-?\s*ish\b|\s+or\s+so\b", re.I)
""""2ish", "9 or so": said after a bare hour, a time of day."""
_ROUGHLY = re.compile(r"\b(?:around|about|say|(?<!'d\s)(?<!\bwould\s)(?<!\bi\s)(?<!\bwe\s)like)\s+$", re.I)
"""Words that make a bare hour rough ("around 9", "at like 7"); never a wish ("I'd like 2 outdoor cameras")."""
_CHANGED_TO = re.compile(
    r"\b(?:(?:can|could)\s+(?:we|i|you)\s+do|make\s+(?:it|that)|move\s+it\s+to|change\s+it\s+to)\s+$", re.I
)
"""Words of a change before a dotted time on the quarter hour ("can we do 3.30 instead", "make it 9.15"): a time."""
_NOT_A_TIME_AFTER = re.compile(
    r"\s*(?:%|[-+*/x]\s*\d|kids?|children|of\b|nights?|days?|weeks?|months?|years?|"
    r"hours?|minutes?|mins?|pizzas?|boxes|items?|tickets?|rooms?|seats?|euros?|dollars?|pounds?|quid|bucks?|"
    r"(?:grown[- ]?ups?|teenagers?|teens?|"
    + "|".join(sorted(PEOPLE_WORDS, key=len, reverse=True))  # "6 players for the vault heist": a count, no 6:00
    + r")\b)",
    re.I,
)
_PARTY_BEFORE = re.compile(r"\b(?:table|booking|reservation|party|seats?)\s+for\s+$", re.I)
"""The words before a bare number that make it a count of people ("a table for 2 tonight"), not a time."""
_PART = re.compile(r"(?<!good )\b(morning|afternoon|evening|night|tonight)\b", re.I)
_PART_RIGHT_AFTER = re.compile(
    r"\s*(?:o[\"'’]?\s?clock\s+)?(?:in\s+the\s+(morning|afternoon|evening|night)|at\s+(night)|(tonight))\b", re.I
)
_OCLOCK = re.compile(r"\s*o[\"'’]?\s?clock", re.I)
_PART_RIGHT_BEFORE = re.compile(r"\b(?:morning|afternoon|evening|night)(?:\s+then)?(?:\s*,\s*|\s+)(?:at\s+)?$", re.I)
"""A part of the day right before a bare hour: "tomorrow evening at 7", "monday morning, 9", "friday morning then,
10"."""
_FILLER = re.compile(
    r"\b(?:ok|okay|um+|uh+|er+|hmm+|so|well|maybe|perhaps|let's|lets|say|how|about|around|at|please|thanks|"
    r"thank|you|then|would|be|great|fine|is|it's|its|that|works|good|for|me|time|the|make|it|sharp|ish)\b|\W+",
    re.I,
)
_PARTS = {
    "morning": range(5, 12),
    "afternoon": range(12, 17),
    "evening": range(17, 24),
    "night": (*range(20, 24), 0, 1, 2, 3, 4),
}


@dataclass(frozen=True)
class _Clock:
    """One time of day found in a text: its readings as ``HH:MM`` and where it is written."""

    readings: tuple[str, ...]
    start: int
    end: int
    written: bool = False
    """Written the 24-hour way ("10:00", "11.30"): of two readings, the one as written is meant."""


def _hhmm(hour: int, minute: int) -> str:
    return f"{hour:02d}:{minute:02d}"


def _twelve_hour(text: str, hour: int, minute: int, start: int, end: int) -> tuple[str, ...]:
    """The readings of a clock time without am/pm: one for a 24-hour time, else the part of the day said after it
    (or before it: "tomorrow evening around 7") picks one of the two, else both, the one as written first."""
    if not 1 <= hour <= 12:
        return (_hhmm(hour, minute),)
    morning, evening = _hhmm(hour % 12, minute), _hhmm(hour % 12 + 12, minute)
    parts = _parts(text)
    index = bisect.bisect_left(parts, (end,))  # the first part of the day said after it, else the last before
    part = parts[index] if index < len(parts) and not _OTHER_CLAUSE.search(text, end, parts[index][0]) else None
    if part is None:
        before = bisect.bisect_left(parts, (start,))
        part = parts[before - 1] if before > 0 and parts[before - 1][1] <= start else None
        part = part if part is not None and not _OTHER_CLAUSE.search(text, part[1], start) else None
    if part is not None:
        return (_of_part(part[2], morning, evening),)
    return (evening, morning) if hour == 12 else (morning, evening)


_OTHER_CLAUSE = re.compile(
    r"[.;!?]\s+\w|,\s*(?:(?:and|but|as|because|cos|since)\s+)?(?:he|he's|she|she's|they|they're|his|her|their)\b",
    re.I,
)
"""Between a time and a part of the day, another sentence ("make it 2? I've got the dentist that morning") or a
clause about someone else ("say 2 o'clock, he has his session in the morning"): that part of the day is another
matter, and picks no reading of the time (the speaker's own clause, "around 9 on tues, I'm in all morning", does)."""


def _of_part(part: str, morning: str, evening: str) -> str:
    """The reading a part of the day names ("12:30 at night" is 00:30, "9 at night" 21:00, "7 pm" 19:00)."""
    hours = _PARTS["night" if part == "tonight" else part]
    if int(morning[:2]) in hours and int(evening[:2]) not in hours:
        return morning
    return evening if part != "morning" else morning


def _alone(text: str, start: int, end: int) -> bool:
    """Is the time all the message says, but for filler ("9.30", "ok, 17.30 please", "seven thirty then")?"""
    if DIGIT.search(text, 0, start) or DIGIT.search(text, end):
        return False  # another number: no filler (and a reply of many numbers is not read again for each)
    return not _FILLER.sub("", text[:start] + " " + text[end:]).strip()


_WINDOW = 64
"""How far back the words before a time are read ("at", "table for", "in the evening at"): each pattern of them is
shorter, so a reply of many numbers is read in time linear in its length."""


def _before(pattern: re.Pattern[str], text: str, start: int, last: str | None = None) -> bool:
    """Does ``pattern`` (one of :data:`_LAST_WORDS`: ends in a space, anchored with ``$``) match right before
    ``start``, within :data:`_WINDOW` characters? The word before (``last``, :func:`_last_word`) is looked at first:
    most numbers follow none of the words the patterns end with."""
    if (last if last is not None else _last_word(text, start)) not in _LAST_WORDS[pattern]:
        return False
    return pattern.search(text, max(0, start - _WINDOW), start) is not None


def _last_word(text: str, start: int) -> str:
    """The word before ``start`` and a space, lower-cased ("" when a space is not right before ``start``)."""
    if start == 0 or not text[start - 1].isspace():
        return ""
    last = text[max(0, start - _WINDOW) : start].rsplit(None, 1)[-1:]
    return last[0].lower().strip("([{\"',;:") if last else ""  # "monday morning, 9": "morning"


_LAST_WORDS = {
    _BEFORE: frozenset("at by from after before until till til @ around about like".split()),
    _PARTY_BEFORE: frozenset(["for"]),
    _PART_RIGHT_BEFORE: frozenset("morning afternoon evening night at then".split()),
    _ROUGHLY: frozenset("around about say like".split()),
    _CHANGED_TO: frozenset("do it that to".split()),
    _BETWEEN: frozenset("between around about".split()),
}
"""The words each pattern read by :func:`_before` may end with."""


@lru_cache(maxsize=256)
def _parts(text: str) -> tuple[tuple[int, int, str], ...]:
    """The parts of the day said in ``text``: (start, end, word lower-cased), in order."""
    return tuple((found.start(), found.end(), found.group(1).lower()) for found in _PART.finditer(text))


@lru_cache(maxsize=256)
def _says_a_limit(text: str) -> bool:
    """Does ``text`` say a limit before a comma (:data:`_LIMIT_SAID`)? Read once per text: a reply of many numbers
    says none, and each of its numbers is not searched again."""
    return _LIMIT_SAID.search(text) is not None


@lru_cache(maxsize=256)
def _says_a_day(text: str) -> bool:
    """Does ``text`` say a day (:data:`_DAY_NEAR`)? Read once per text, not once per hour in it."""
    return _DAY_NEAR.search(text) is not None


def _relative(match: re.Match[str], now: dt.datetime) -> str:
    count = match.group("rel_n")
    number = 1 if count is None or not count[0].isdigit() else int(count)
    unit = (match.group("rel_unit") or "hour").lower()
    minutes = number * 60 if unit.startswith("h") else number
    if count is None:  # "in half an hour"
        minutes = 30
    if match.group("rel_half"):
        minutes += 30 if unit.startswith("h") else 0
    moment = now + dt.timedelta(minutes=minutes)
    return _hhmm(moment.hour, moment.minute)


def _read(text: str, match: re.Match[str], now: dt.datetime | None) -> tuple[str, ...]:
    """The readings of one match of :data:`_CLOCK` in ``text``, or () when it is no time there."""
    start, end = match.span()
    if match.group("rel"):
        return (_relative(match, now),) if now is not None else ()
    if match.group("word"):
        return ("00:00",) if match.group("word").lower() == "midnight" else ("12:00",)
    if match.group("frac") or match.group("half"):
        return _said_in_words(text, match)
    if match.group("hhmm"):  # "at 0930", "1730 hrs": a 24-hour time; a bare "1730" may be anything
        if not (match.group("hrs") or match.group("hhmer") or _before(_BEFORE, text, start)):
            return ()
        hour, minute = int(match.group("hhmm")[:2]), int(match.group("hhmm")[2:])
        if match.group("hhmer"):  # "1030pm"
            if not 1 <= hour <= 12:
                return ()
            hour = hour % 12 + (12 if match.group("hhmer")[0] in "pP" else 0)
        return (_hhmm(hour, minute),)
    hour, minute = int(match.group("h")), int(match.group("m") or 0)
    sep, meridiem = match.group("sep"), match.group("mer")
    last = _last_word(text, start)
    if sep is not None and sep.isspace() and meridiem is None and not match.group("oclock"):
        # "7 30": a time only where one is expected ("seven thirty", "at 7 30"); "2 30 minutes" is not.
        if not (_before(_BEFORE, text, start, last) or _alone(text, start, end) or _PART_RIGHT_AFTER.match(text, end)):
            return ()
    if meridiem is not None:
        if not 1 <= hour <= 12:
            return ()
        return (_hhmm(hour % 12 + (12 if meridiem[0] in "pP" else 0), minute),)
    if hour > 23:
        return ()
    if sep == ":":
        return (
            _twelve_hour(text, hour, minute, start, end)
            if not match.group("h").startswith("0")
            else (_hhmm(hour, minute),)
        )
    if sep == "." and not _dotted_time(text, start, end):
        return ()  # "it costs 8.30"
    if sep is None and not match.group("oclock"):
        # A bare hour: "at 7", "by 5", "8 in the evening", "around 7" with a part of the day said.
        rough = _ROUGH_AFTER.match(text, end)
        if _NOT_A_TIME_AFTER.match(text, rough.end() if rough else end) or _before(_PARTY_BEFORE, text, start, last):
            return ()
        if 1 <= hour < 5 and (part := _PART_RIGHT_AFTER.match(text, end)) is not None and part.group(3):
            return ()  # "arrive and drive for 2 tonight": no hour of tonight, a count
        before = _before(_BEFORE, text, start, last) or _before(_PART_RIGHT_BEFORE, text, start, last)
        # "any time before noon, 10 is good": after a limit, the hour chosen inside it
        limited = _says_a_limit(text) and _LIMIT_SAID.search(text, max(0, start - _WINDOW), start) is not None
        if not (before or limited or _PART_RIGHT_AFTER.match(text, end) or _range_start(text, start, end, last)):
            roughly = rough is not None or _before(_ROUGHLY, text, start, last)
            # "around 9" with a part of the day or a day said ("Tuesday the 8th around 9"), "2ish", "9 or so"
            if not (roughly and (_parts(text) or (hour <= 12 and _says_a_day(text)))):
                return ()
    return (
        _twelve_hour(text, hour, minute, start, end) if not match.group("h").startswith("0") else (_hhmm(hour, minute),)
    )


def _range_start(text: str, start: int, end: int, last: str) -> bool:
    """Is the bare hour at ``start`` the start of a range of hours ("between 9 and 10", "7 till 10")? No count follows
    ("between 2 and 3 people", "5 to 10 people")."""
    if not (_before(_BETWEEN, text, start, last) or _UNTIL.match(text, end)):
        return False
    other = _RANGE_END.match(text, end)
    if other is not None and other.group("end") == text[start:end].strip():
        return False  # "a one to one lesson": no range ends where it starts
    return other is not None and _NOT_A_TIME_AFTER.match(text, other.end()) is None


def _dotted_time(text: str, start: int, end: int) -> bool:
    """Is "9.30" said as a time here (after "at" or "say", alone, or with a part of the day), not as money ("it costs
    8.30")?"""
    return bool(
        _before(_BEFORE, text, start)
        or _before(_ROUGHLY, text, start)
        or (_before(_CHANGED_TO, text, start) and text[end - 2 : end] in ("00", "15", "30", "45"))  # not "4.50 each"
        or _alone(text, start, end)
        or _part_next(text, end)
    )


def _part_next(text: str, end: int) -> bool:
    return _PART_RIGHT_AFTER.match(text, end) is not None or _OCLOCK.match(text, end) is not None


def _said_in_words(text: str, match: re.Match[str]) -> tuple[str, ...]:
    """ "half past 7", "quarter to 5", "10 past 8", "half 7" (British: 7:30); "5 to 10 people" is none."""
    if _NOT_A_TIME_AFTER.match(text, match.end()):
        return ()
    if match.group("half"):
        hour, minute = int(match.group("half")), 30
    else:
        target = match.group("fh").lower()
        hour = 12 if target == "noon" else 0 if target == "midnight" else int(target)
        frac = match.group("frac").lower()
        minute = 30 if frac == "half" else 15 if "q" in frac else int(frac.split()[0])  # quarter, quater, qtr
        if minute >= 60 or hour > 23:
            return ()
        if match.group("dir").lower() in ("to", "till", "til", "before", "of"):
            if minute == 30:
                return ()  # "half to 7" is no time
            hour, minute = (hour - 1) % 24, 60 - minute
            if target == "midnight":
                return (_hhmm(23, minute),)
            if target == "noon":
                return (_hhmm(11, minute),)
        elif target in ("noon", "midnight"):
            return (_hhmm(hour, minute),)
    if hour > 23:
        return ()
    if hour == 0:
        hour = 12  # "quarter to 1" is 12:45 or 00:45
    meridiem = match.group("fmer") or match.group("hmer")
    if meridiem is not None:
        return (_hhmm(hour % 12 + (12 if meridiem[0] in "pP" else 0), minute),) if hour <= 12 else ()
    return _twelve_hour(text, hour, minute, match.start(), match.end())


def _clocks(text: str, now: dt.datetime | None) -> tuple[_Clock, ...]:
    """Every time of day in ``text``, in order (positions in ``text`` with its number words in digits)."""
    if not DIGIT.search(text) and not _may_say_time(text):
        return ()
    text = _converted(text)
    return _clocks_in(text, now if _MAY_BE_RELATIVE.search(text) else None)  # one reading of a text, with or without


@lru_cache(maxsize=512)
def _converted(text: str) -> str:
    """``text`` as the times in it are read: number words in digits, a part of the day written with one typo
    ("afternon", "evenning", "mroning") or texted ("tonite", "2nite") as that part."""
    if "nite" in (low := text.lower()) or "2night" in low:
        text = _TEXTED_TONIGHT.sub("tonight", text)
    text = words_to_digits(text)
    if "past" in text and (hour := _HOUR_THEN_PAST.search(text)) is not None:
        # "after 4, say half past": half past the hour said just before
        text = f"{text[: hour.end()]} {hour.group('h')}{text[hour.end() :]}"
    return _PART_TYPO.sub(_part_spelled, text) if DIGIT.search(text) else text


_HOUR_THEN_PAST = re.compile(
    r"(?<![\d:.])(?P<h>\d{1,2})(?![\d:.])(?!\s*(?:st|nd|rd|th|am|pm|o'?clock)\b)[^\d.?!]{1,20}?"
    r"\b(?:half|quarter)\s+past(?=\s*(?:[,.;!?]|$))",  # "ten past" is "10 past" by then, which says its hour
    re.I,
)
"""An hour said, then a time past an hour not named ("after 4, say half past"): past the hour said."""


_TEXTED_TONIGHT = re.compile(
    r"(?<![\w'’])(?:" + "|".join(word for word, day in TEXTED_DAYS.items() if day == "tonight") + r")(?![\w'’])", re.I
)


_PART_WORDS = ("morning", "afternoon", "evening", "tonight")
_PART_TYPO = re.compile(r"(?<![\w'’])[aemntrfio][a-z]{5,9}(?![\w'’])", re.I)
"""A word that may be a part of the day written with one typo (a long word: a short one is near too many others)."""


def _part_spelled(found: re.Match[str]) -> str:
    word = found.group()
    if word.lower() in _PART_WORDS:
        return word
    best = process.extractOne(word.lower(), _PART_WORDS, scorer=OSA.distance, score_cutoff=1)
    return best[0] if best is not None else word


_MAY_BE_RELATIVE = re.compile(r"\bin\s+(?:an?\b|\d|half\b)", re.I)
"""What a time counted from the dialogue's clock starts with ("in an hour", "in 30 minutes"): without it, ``now``
changes nothing."""


@lru_cache(maxsize=256)
def _clocks_in(text: str, now: dt.datetime | None) -> tuple[_Clock, ...]:
    """:func:`_clocks` of a text with its number words in digits (a turn reads it twice: its time, then the text
    without it)."""
    found = []
    for match in _CLOCK.finditer(text):
        readings = _read(text, match, now)
        if readings:
            hour = match.group("h") or ""
            written = len(hour) == 2 and match.group("m") is not None and match.group("sep") in (":", ".")
            found.append(_Clock(readings, *match.span(), written))
    return tuple(found)


_LIMIT_SAID = re.compile(
    r"(?:^|[,.;!?]\s*|\b(?:any\s*time|sometime|ideally|preferably)\s+)(?:before|after|until|till|by)\s+"
    r"(?:\d{1,2}(?:[:.]\d\d)?\s*(?:[ap]m)?|noon|midday|lunch)\s*,\s*",
    re.I,
)
"""A limit said at the start of a clause before a bare hour ("any time before noon, 10 is good"): the hour is a time
inside it ("7 till 10, we're a four piece" is a range, and its four no time)."""
_LIMIT_BEFORE = re.compile(r"\b(?:after|before|until|till|til|from|not)\s+(?:(?:at|around|about)\s+)?$", re.I)
_LAST_WORDS[_LIMIT_BEFORE] = frozenset("after before until till til from not at around about".split())


_SETTLED_BEFORE = re.compile(r"\b(?:say|said)\s+(?:(?:at|around|about)\s+)?$", re.I)
_LAST_WORDS[_SETTLED_BEFORE] = frozenset("say said at around about".split())
"""A time settled on after an estimate ("in an hour or so, say 5:15", "around 3, let's say 3:30")."""


def _first(text: str, now: dt.datetime | None) -> _Clock | None:
    """The time ``text`` names: the first one, unless it is a limit and another time follows ("any time after 3,
    say 3:30")."""
    found = _clocks(text, now)
    if len(found) > 1:
        said = _converted(text)
        for clock in found:
            if (other := _RANGE_END.match(said, clock.end)) is not None and other.end() <= found[-1].end:
                return _range_start_reading(clock, said, other)  # "from 7 to 10pm": the start, in the end's half
        settled = [clock for clock in found if _before(_SETTLED_BEFORE, said, clock.start)]
        if settled:  # "in an hour or so, say 5:15": the time settled on
            return settled[-1]
        chosen = [clock for clock in found if not _before(_LIMIT_BEFORE, said, clock.start)]
        return chosen[0] if chosen else found[0]
    return found[0] if found else None


def _range_start_reading(clock: _Clock, text: str, end: re.Match[str]) -> _Clock:
    """The start of a range of hours, in the half of the day its end names when the start has two readings ("from 7
    to 10pm": 19:00; "11 to 3pm": 11:00, the range crossing noon)."""
    if len(clock.readings) != 2 or end.group("mer") is None:
        return clock
    start_hour, end_hour = int(clock.readings[0][:2]) % 12, int(end.group("end").split(":")[0].split(".")[0]) % 12
    same_half = start_hour < end_hour
    afternoon = (end.group("mer").lower() == "p") == same_half
    return _Clock((clock.readings[1] if afternoon else clock.readings[0],), clock.start, clock.end, clock.written)


def range_minutes(text: str) -> int | None:
    """How long a range of clock times said in ``text`` lasts, in minutes ("7 till 10": 180, "8pm till 11": 180, "11am
    to 3pm": 240, "from 9:30 to 11": 90; "between 1 and 2" is a window to start in, no length): a range runs forward
    from its start, within half a day unless both ends name their half; None when ``text`` says no range (or its end
    is its start)."""
    said = _converted(text)
    for clock in _clocks(text, None):
        if (other := _RANGE_END.match(said, clock.end)) is None or _NOT_A_TIME_AFTER.match(said, other.end()):
            continue
        if _before(_BETWEEN, said, clock.start):
            return None  # "between 1 and 2" is when to start (an arrival window), not how long
        said_hour, _, said_minute = other.group("end").replace(".", ":").partition(":")
        hour, minute, meridiem = int(said_hour), int(said_minute or 0), (other.group("mer") or "").lower()
        if hour > 12:  # "from 9 to 17:30": the 24-hour clock names its half
            end, named = hour * 60 + minute, True
        else:  # "till 11" runs forward within half a day; "till 3pm" names its half
            end, named = hour % 12 * 60 + minute + (720 if meridiem == "p" else 0), bool(meridiem)
        start = int(clock.readings[0][:2]) * 60 + int(clock.readings[0][3:])
        minutes = (end - start) % (1440 if named and len(clock.readings) == 1 else 720)
        return minutes or None
    return None


_WORD_HINTS = re.compile(
    r"noon|midday|midnight|hour|min|half|quarter|o'?clock|one|two|three|four|five|six|seven|eight|nine|ten|"
    r"eleven|twelve|teen|twenty|thirty|forty|fifty",
    re.I,
)


def _may_say_time(text: str) -> bool:
    return _WORD_HINTS.search(text) is not None


def clock_readings(text: str, now: dt.datetime | None = None) -> tuple[str, ...]:
    """The readings of the first time of day in ``text`` as ``HH:MM``: none, one, or two for a clock time without
    am/pm that a 12-hour clock can mean, the one as written first ("7:45": 07:45 then 19:45; "at 4": 04:00 then
    16:00; "12:30": 12:30 then 00:30). A part of the day near it ("7:45 in the evening") picks one; "07:45",
    "19:45" and "7pm" have one. ``now``: the dialogue's clock, for "in an hour" (without it, no time)."""
    found = _first(text, now)
    return found.readings if found is not None else ()


def parse_time(text: str) -> str | None:
    """The first time of day in ``text`` as ``HH:MM``, the reading as written first ("7pm", "7:30 am", "19:00",
    "noon", "half past seven": 07:30)."""
    readings = clock_readings(text)
    return readings[0] if readings else None


def read_clock(text: str, now: dt.datetime | None = None) -> str | None:
    """The first time of day in ``text``: ``HH:MM`` when it has one reading, else the clock time as written
    with :data:`TWELVE_HOUR` (or :data:`TWENTY_FOUR_HOUR`) after it, for the value check to resolve; None when there
    is no time."""
    found = _first(text, now)
    if found is None:
        low = text.lower()
        return FIRST_THING if ("first" in low or "earl" in low) and _FIRST_THING.search(text) is not None else None
    if len(found.readings) == 2:
        hour, minute = found.readings[0].split(":")
        return f"{hour}:{minute}{TWENTY_FOUR_HOUR}" if found.written else f"{int(hour)}:{minute}{TWELVE_HOUR}"
    return found.readings[0]


FIRST_THING = "first thing (the earliest)"
"""A time said as "first thing" ("tomorrow first thing", "first thing in the morning please", "as early as possible",
"whenever's earliest"): the slot's opening time (its ``earliest``), or asked when it has none; never a clock time
guessed here."""
_FIRST_THING = re.compile(
    r"(?:^|\b(?:tomorrow|today|morning|monday|tuesday|wednesday|thursday|friday|saturday|sunday|mon|tues?|weds?|"
    r"thurs?|fri|sat|sun|ok|okay|yes|yeah|so|just|then|please|at|from)\b)\W*"
    r"(?:first\s+thing(?:\s+in\s+the\s+morning)?|as\s+early\s+as\s+(?:possible|"
    r"(?:you|they|we)\s+(?:can|could|open|have)(?:\s+(?:do|manage|come|make\s+it|get\s+(?:here|there)))?)|"
    r"(?:the\s+|whenever'?s\s+(?:the\s+)?|what(?:ever)?(?:'s|\s+you'?ve\s+got|\s+you\s+have)\s+(?:the\s+)?)?"
    r"earliest(?:\s+(?:possible|you\s+(?:can|have|do|open)|slot|time|start|one))?)"
    r"(?:\W+(?:please|if\s+possible|if\s+you\s+can|tomorrow|today|then|ideally|thanks|on\s+\w+day|works|"
    r"is\s+(?:fine|good|best)|would\s+be\s+(?:good|great|best)))*\W*$",
    re.I,
)
"""The words "first thing" (or "as early as possible", "the earliest") said as a time: with a day or filler before it
and nothing but filler after it ("first thing, my boiler's broken" is none)."""


def said_as_written(value: str) -> bool:
    """Was ``value`` (a clock time as :func:`read_clock` passes it on) written the 24-hour way, so that of two
    readings that fit, the one as written is meant ("10:00" is 10:00, never "in the morning or in the evening?")?"""
    return value.endswith(TWENTY_FOUR_HOUR)


# A dash between words is one of the \W it is read over, never a word of its own: as a word too it made runs of
# dashes match in exponentially many ways ("-" * 34 + "x" took 4.8 s).
_APPROXIMATE = re.compile(
    r"^\W*(?:(?:ok|okay|um+|uh+|er+|so|well|maybe|probably|say|like|around|about|roughly|at|approx(?:imately)?|"
    r"sometime|somewhere)\W+)*(?:(?P<h>\d{1,2})(?:[:.](?P<m>[0-5]\d))?|(?P<hhmm>(?:[01]\d|2[0-3])[0-5]\d))"
    r"\s*-?\s*(?P<ish>ish)?"
    r"(?:\W+(?:or so|please|pls|thanks|then|if possible|if that's ok|is fine|works))*\W*$",
    re.I,
)


def approximate_clock(text: str) -> str | None:
    """The time a message that is only an approximate hour gives ("around 11", "8ish", "like 8ish", "say 9.30"), or
    one of its later sentences ("sorry, it's 54 not 45. 10ish is fine"), as :func:`read_clock` gives it; only for a
    reply to a time question (elsewhere "around 8" may be people)."""
    for sentence in (text, *SENTENCE_BREAK.split(text)[1:]):
        if (found := _approximate(sentence)) is not None:
            return found
    return None


def _approximate(text: str) -> str | None:
    found = _APPROXIMATE.match(words_to_digits(re.sub(r"(?<=\w)-?ish\b", " ish", text, flags=re.I)))
    if found is None:
        return _the_hour_said(text)
    if found.group("hhmm"):  # "0930": a 24-hour time
        return read_clock(f"at {found.group('hhmm')}")
    if found.group("m") is None:  # "around 10": a clock hour, either half of the day
        return read_clock(f"at {found.group('h')}")
    return read_clock(f"at {found.group('h')}:{found.group('m')}")


_ONE_HOUR = re.compile(r"(?<![\w:.,/£$€#+\-])(\d{1,2})(?:[:.]([0-5]\d))?(?![\w%]|[:.,/\-]\d)")
_MINUTES_OF = re.compile(r"\s+(?:min(?:ute)?s?\s+)?(?:past|to|till?|after|before|of)\b(?!\s+\d)", re.I)
_COUNTED_BEFORE = re.compile(
    r"\b(?:we['’]?re|we\s+are|there['’]?(?:s|re)|there\s+(?:is|are|will\s+be)|party\s+of|group\s+of|all\s+of)\s+$", re.I
)
_NEGATED = re.compile(
    r"\b(?:not|no|never|can['’]?t|cannot|won['’]?t|isn['’]?t|wouldn['’]?t|don['’]?t)\b[^,.;!?]*$", re.I
)


_ROUGH_JOINED = re.compile(r"(?<=\d)-?ish\b", re.I)


def _the_hour_said(text: str) -> str | None:
    """The time a reply to a time question gives by its one number ("it's the holidays so 11 is fine", "early as
    possible, 9?", "late morning, 11?"), a part of the day said settling am or pm, as :func:`read_clock` gives it;
    None when the reply has another number or a count ("2 people"), or rules the hour out ("not 9")."""
    said = _ROUGH_JOINED.sub(" ish", _converted(text))  # "after work 6ish?": the hour of "6ish"
    found = _ONE_HOUR.search(said)
    if found is None or DIGIT.search(said, 0, found.start()) or DIGIT.search(said, found.end()):
        return None
    hour, minutes = int(found.group(1)), found.group(2)
    if not (1 <= hour <= 12 or (minutes is not None and hour <= 23)):
        return None
    rough = _ROUGH_AFTER.match(said, found.end())
    if _NOT_A_TIME_AFTER.match(said, rough.end() if rough else found.end()) or _before(
        _PARTY_BEFORE, said, found.start()
    ):
        return None
    if _NEGATED.search(said, max(0, found.start() - _WINDOW), found.start()) is not None:
        return None
    if _COUNTED_BEFORE.search(said, max(0, found.start() - _WINDOW), found.start()) is not None:
        return None  # "we're 4": a count of people
    if _MINUTES_OF.match(said, found.end()) is not None:
        return None  # "ten past": minutes past an hour not said
    return read_clock(said[: found.start()] + "at " + said[found.start() :])


def remove_times(text: str, now: dt.datetime | None = None, keep: re.Pattern[str] | None = None) -> str:
    """``text`` (number words in digits) with every time of day blanked out, so its digits are not read as
    numbers ("for 2 at half past 7" -> "for 2  "); not one inside a match of ``keep`` (a count: "after 2 places")."""
    converted = _converted(text)
    kept = [found.span() for found in keep.finditer(converted)] if keep is not None else []
    pieces, cursor, k = [], 0, 0  # joined once: a reply of many times is not copied once per time
    for clock in _clocks(converted, now):
        while k < len(kept) and kept[k][1] <= clock.start:  # both in order: one pass over the counts kept
            k += 1
        if clock.start < cursor or (k < len(kept) and kept[k][0] < clock.end):
            continue
        pieces += [converted[cursor : clock.start], " "]
        cursor = clock.end
        # "between 2 and 3", "from 10 till 12": the range's other end is a time too, no count
        opens = _RANGE_OPENS.search(converted, max(0, clock.start - 24), clock.start)  # a window: linear in the text
        if opens and (end := _RANGE_END.match(converted, cursor)):
            cursor = end.end()
    return "".join(pieces) + converted[cursor:]
