"""Amounts of money and lengths of time written or spoken in English ("£25", "£2k", "twenty pounds fifty", "4
nights", "two and a half hours", "1 hour 30 minutes").

Each finder returns ``(start, end, amount, unit)`` for every amount in a text: the span that says it, the number
and its unit (a currency code, :data:`CENTS`, or a unit of time; None for a bare number). An amount is read whole or
not at all: a range ("2-3 hours", "20 or 30 pounds"), pounds followed by a number that is no pence ("20 pounds 2
people"), number words that make no number ("five fifty") are no amount, and keep the bare numbers of the
text from being read either. Nothing here converts between currencies; units of time convert to the unit a slot
asks for (:func:`in_unit`).
"""

from __future__ import annotations

import re
from functools import lru_cache

from text_to_num import text2num

from .numbers import WORD_NUMBERS
from .phrases import correction_end

__all__ = ["CENTS", "CURRENCY_WORDS", "NUMBER", "TIME_UNITS", "currency_fits", "find_durations", "find_money"]
__all__ += ["in_unit", "number_value"]

_WORDS = sorted({w for w in WORD_NUMBERS if " " not in w} | {"million", "billion"}, key=len, reverse=True)
_WORD = r"(?:" + "|".join(_WORDS) + r")\b"
_NUMBER_WORDS = rf"(?:an?\s+(?=(?:hundred|thousand|million|billion)\b))?{_WORD}(?:(?:\s+and\s+|[\s-]+){_WORD})*"
"""Number words said as one number ("twenty-five", "one hundred and twenty", "two thousand"); text2num reads them,
or refuses them ("five fifty")."""
_DIGITS = r"(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?"
NUMBER = rf"{_DIGITS}|{_NUMBER_WORDS}|an?\b"
"""A number in digits ("1,200.50") or words ("twenty-five", "a")."""
_NUMBER_NO_A = rf"{_DIGITS}|{_NUMBER_WORDS}"


_IN_DIGITS = re.compile(r"[\d,]+(?:\.\d+)?")
_BARE_NUMBER = re.compile(_DIGITS + "|" + _NUMBER_WORDS, re.I)
"""A number said without a unit (compiled once: a long reply of numbers reads each)."""


def number_value(text: str) -> float | None:
    """The number ``text`` is (as :data:`NUMBER` matches it), or None (words that make no one number)."""
    text = text.strip().casefold()
    if _IN_DIGITS.fullmatch(text):
        return float(text.replace(",", ""))
    if text in ("a", "an"):
        return 1.0
    try:
        return float(text2num(re.sub(r"^an?\s+", "one ", text), "en"))
    except ValueError:
        return None


_FRACTIONS = {"half": 0.5, "quarter": 0.25, "quarters": 0.25}
_MULTIPLIERS = {"k": 1e3, "grand": 1e3, "thousand": 1e3, "m": 1e6, "million": 1e6, "bn": 1e9, "billion": 1e9}
_RANGE_BEFORE = re.compile(rf"(?:{_NUMBER_NO_A}|\bcouple)\s*(?:[£$€]\s?)?(?:-|–|to|or|and)\s*$", re.I)
_RANGE_AFTER = re.compile(rf"\s*(?:-|–|to|or)\s*(?:[£$€]\s?)?(?:{_NUMBER_NO_A})", re.I)
"""A number before or after an amount with "-", "to" or "or" between: a range ("20-30 pounds", "2 or 3 hours", "a
couple or three hours")."""


_PART_OF = re.compile(r"(?:\bhalf|\bquarter(?:\s+of)?|\bpoint)\s+$|\d\.\s*$", re.I)
_POINT_AFTER = re.compile(r"\s+point\s", re.I)
"""A number said as a part or a decimal the readers do not read ("half a million", "two point five k")."""


def _in_range(text: str, start: int, end: int) -> bool:
    """Is the amount at ``start:end`` one end of a range, or a part of a number said around it (both: in doubt)?"""
    if _RANGE_AFTER.match(text, end) is not None or _POINT_AFTER.match(text, end) is not None:
        return True
    before = text[max(0, start - 12) : start].casefold()
    if ("." in before or "half" in before or "quarter" in before or "point" in before) and (
        _PART_OF.search(text, max(0, start - 12), start) is not None
    ):
        return True  # the words are looked for first: most amounts follow none of them
    # The words before are read only when they end as a range does (most amounts follow none).
    return text[max(0, start - 6) : start].rstrip().endswith(("-", "–", "to", "or", "and")) and (
        _RANGE_BEFORE.search(text, max(0, start - 40), start) is not None
    )


# ------------------------------------------------------------------ money

CURRENCY_WORDS = {
    "£": "GBP",
    "pound": "GBP",
    "pounds": "GBP",
    "quid": "GBP",
    "gbp": "GBP",
    "$": "USD",
    "dollar": "USD",
    "dollars": "USD",
    "bucks": "USD",
    "usd": "USD",
    "€": "EUR",
    "euro": "EUR",
    "euros": "EUR",
    "eur": "EUR",
}
"""Words and symbols of a currency, and its ISO 4217 code."""
CENTS = "cents"
"""The unit of an amount said in cents: hundredths of a currency that has them (not pounds)."""
_HUNDREDTHS = {"p": "GBP", "pence": "GBP", "penny": "GBP", "cent": CENTS, "cents": CENTS}
_CURRENCY = "|".join(sorted((w for w in [*CURRENCY_WORDS, *_HUNDREDTHS] if w.isalpha()), key=len, reverse=True))
_SUB = r"p|pence|cents?"
_MONEY = re.compile(
    r"(?<![\w.,£$€:/])(?:(?P<sym>[£$€])\s?)?"
    rf"(?P<num>{NUMBER})(?:\s+and\s+an?\s+(?P<frac>half|quarter)\b)?"
    r"(?:\s?(?P<mult>k|m|bn|grand|thousand|million|billion)\b)?"
    rf"(?:\s?(?P<word>{_CURRENCY})\b)?"
    rf"(?(sym)(?:(?:,?\s+and)?\s+(?P<sub>{_NUMBER_NO_A})(?:\s?(?P<subword>{_SUB})\b)?)?|"
    rf"(?(word)(?:(?:,?\s+and)?\s+(?P<wsub>{_NUMBER_NO_A})(?:\s?(?P<wsubword>{_SUB})\b)?)?|))"
    r"(?![\w:/£$€]|[.,]\d)",
    re.I,
)
_NOT_PENCE = re.compile(
    r"\s+(?!(?:i|please|thanks|thank|then|each|in|total|for|ok|okay|and|or|but|is|was|would|will|that|if|so|because|"
    r"as|per|a|an|the|all|altogether|tops|max|maximum|roughly|about|exactly|right|yes|yeah|no)\b)[a-z]",
    re.I,
)
"""A word after a number said after pounds that makes it something else ("20 pounds 2 people"); pence said
without their word are followed by none ("twenty pounds fifty please", "twenty pounds fifty for the lot")."""


def currency_fits(unit: str | None, currency: str | None) -> bool:
    """May an amount said in ``unit`` (a currency code, :data:`CENTS`, None: bare) be stored in ``currency``?"""
    if currency is None or unit is None:
        return True
    return unit == currency or (unit == CENTS and currency != "GBP")


def _money(text: str, match: re.Match[str]) -> tuple[float, str | None] | None:
    """The amount and currency of one match of :data:`_MONEY`, or None when any part of it is in doubt."""
    amount = number_value(match.group("num"))
    if amount is None or (match.group("num").casefold() in ("a", "an") and not match.group("mult")):
        return None
    if match.group("frac"):  # "two and a half thousand", "one and a half"
        amount += _FRACTIONS[match.group("frac").casefold()]
    symbol, word = match.group("sym"), (match.group("word") or "").casefold()
    if match.group("mult"):
        amount *= _MULTIPLIERS[match.group("mult").casefold()]
    currency = CURRENCY_WORDS[symbol] if symbol else None
    if word in _HUNDREDTHS:
        if symbol or match.group("mult"):
            return None  # "£50p", "2k cents"
        return round(amount / 100, 2), _HUNDREDTHS[word]
    if word:
        if currency is not None and CURRENCY_WORDS[word] != currency:
            return None  # "$20 euros"
        currency = CURRENCY_WORDS[word]
    sub, subword = match.group("sub") or match.group("wsub"), match.group("subword") or match.group("wsubword")
    if sub is not None:
        pence = number_value(sub)
        if pence is None or not pence.is_integer() or not 1 <= pence <= 99 or match.group("mult"):
            return None  # "twenty pounds two thousand", "£2k 50p"
        if subword is None and _NOT_PENCE.match(text, match.end()) is not None:
            return None  # "20 pounds 2 people": the 2 is no pence
        if subword is not None and _HUNDREDTHS[subword.casefold()] != ("GBP" if currency == "GBP" else CENTS):
            return None  # "£20 and 50 cents"
        amount += pence / 100
    return round(amount, 2) if sub is not None else amount, currency


@lru_cache(maxsize=512)
def find_money(text: str) -> tuple[tuple[int, int, float, str | None], ...]:
    """The amounts of money in ``text``: (start, end, amount, currency code, :data:`CENTS`, or None for a bare
    number).

    Bare numbers count only when no amount in the text names its currency ("it's 25" answers "how much?"; in
    "25 euros for 2 people" the 2 is no amount), nor is in doubt.
    """
    named: list[tuple[int, int, float, str | None]] = []
    bare: list[tuple[int, int, float, str | None]] = []
    doubt = -1  # where the last amount in doubt ends
    for match in _MONEY.finditer(text):
        said = match.group()
        # a bare number of digits (most of a long reply of numbers) is its own amount, with no currency
        read = (float(said), None) if said.isdigit() else _money(text, match)
        if read is None or _in_range(text, *match.span()):
            if read is not None or match.group("num").casefold() not in ("a", "an"):
                doubt = match.end()
            continue
        (named if read[1] is not None else bare).append((*match.span(), *read))
    return _settled(text, named or bare, doubt)


def _settled(
    text: str, found: list[tuple[int, int, float, str | None]], doubt: int
) -> tuple[tuple[int, int, float, str | None], ...]:
    """``found``, unless an amount in doubt was said (then none: "20 pounds 2 people, plus £5"), or
    only those said after a self-correction that follows it ("3 or 4 hours... let's say 4")."""
    if doubt < 0:
        return tuple(found)
    cut = correction_end(text)
    return tuple(item for item in found if item[0] >= cut) if cut >= doubt else ()


# ----------------------------------------------------------------- durations

TIME_UNITS = {"minute": 1, "hour": 60, "day": 1440, "night": 1440, "week": 10080}
"""Units of time and their length in minutes (a night of a stay is a day)."""
_UNIT_WORDS = {"min": "minute", "mins": "minute", "hr": "hour", "hrs": "hour", "h": "hour"}
_UNIT = re.compile(
    r"(?<![\w.,:/])(?:minutes?|mins?|hours?|hrs?|h|days?|nights?|weeks?|fortnights?)\b"
    r"|(?<=\d)(?:minutes?|mins?|hours?|hrs?|h|days|nights|weeks)\b",
    re.I,
)
"""A unit of time: a length of time is read back from each ("4 nights" from "nights"), also typed against its number
("3hrs", "90mins", "2h"; "2day" is today, no length)."""
_PART = re.compile(
    r"(?<![\w.,:/])(?:"
    r"(?P<couple>(?:an?\s+)?couple\s+(?:of\s+)?)"
    r"|(?P<just>(?:just|only)\s+the\s+)"
    rf"|(?P<num>{NUMBER})(?:\s+and\s+an?\s+(?P<and>half|quarter))?\s?(?:an?\s)?"
    r"|(?:(?P<count>an?|one|two|three|\d)\s+)?(?P<frac>half|quarters?)\s+(?:of\s+)?(?:an?\s+)?"
    r")?"
    r"(?P<unit>minutes?|mins?|hours?|hrs?|h|days?|nights?|weeks?|fortnights?)\Z",
    re.I,
)
"""One length of time, up to its unit (searched ending there): "4 nights", "an hour", "just the hour", "two and a
half hours", "a quarter of an hour", "three quarters of an hour", "half an hour", "1.5 hours", "a couple of hours"
(two; "a few hours" says no number: in doubt, asked)."""
_TAIL = re.compile(r"\s+and\s+an?\s+(half|quarter)\b", re.I)
""""... and a half" after a unit ("an hour and a half")."""
_CHAIN = re.compile(r"\s*(?:and\s+)?")
_GLUED = re.compile(
    r"(?<![\w.,:/])(?P<h>\d{1,2})\s?(?:h|hrs?|hours?)\s?(?P<m>[0-5]\d)(?:\s?(?:m|mins?|minutes?))?\b", re.I
)
"""Hours and minutes written together ("1h30", "2hr 15", "1h 30m")."""
_MINUTES_AFTER = re.compile(r"\s+(?:and\s+)?(?P<m>[1-5]?\d)(?=\s*(?:$|[,.!?;]|please|thanks|then)\b|\s*$)", re.I)
"""Minutes said after hours without their word ("1 hour 30")."""


def _unit(word: str) -> str:
    word = word.casefold()
    if word.startswith("fortnight"):
        return "fortnight"  # two weeks: find_durations counts it in weeks
    return _UNIT_WORDS.get(word, word.rstrip("s") if word not in ("hrs", "mins") else _UNIT_WORDS[word])


def _length(match: re.Match[str], tail: str | None) -> float | None:
    """How many units one match of :data:`_PART` (and the fraction said after it) says, or None when in doubt
    ("hours" alone, "five fifty hours")."""
    if match.group("and") and tail:
        return None
    if match.group("couple"):
        return None if tail else 2.0  # "a couple of hours and a half": no one number
    if match.group("just"):  # "just the hour": one ("just the hours" says none)
        plural = match.group("unit").casefold().endswith("s")
        return None if plural else 1 + (_FRACTIONS[tail.casefold()] if tail else 0)
    fraction = match.group("and") or tail
    if match.group("frac"):
        count = (match.group("count") or "a").casefold()
        times = 1.0 if count in ("a", "an") else number_value(count)
        frac = match.group("frac").casefold()
        if times is None or fraction or (frac == "quarters") != (times > 1):
            return None  # "quarters of an hour", "three quarter of an hour", "half an hour and a half"
        return times * _FRACTIONS[frac]
    if match.group("num") is None:  # "hour and a half": one; "hours": how many?
        return 1 + _FRACTIONS[fraction.casefold()] if fraction and not match.group("unit").endswith("s") else None
    amount = number_value(match.group("num"))
    if amount is None:
        return None
    return amount + (_FRACTIONS[fraction.casefold()] if fraction else 0)


_RATE = re.compile(
    r"((?:minutes?|mins?|hours?|hrs?)\b)\s+(?:a|an|each|per|every)\s+(?:day|week|fortnight|month|year|lesson|session)\b",
    re.I,
)
"""How often a length is wanted, said after it ("an hour a week", "45 minutes each week"): no length of its own."""


_JUST_THE = re.compile(
    r"\s*(?:and\s+|oh\s+|um\s+)?(?P<said>(?:(?:just|jus|only)\s+)?(?:for\s+)?the\s+(?:one\s+|whole\s+)?"
    r"(?P<unit>day|night|week|fortnight)(?:\s*(?:please|thanks|then))?)\s*[.!]?\s*\Z",
    re.I,
)
"""A reply that is one length said with "the" ("just the day", "the one night", "only the week", "just for the
day"): one of it."""
_COUNTS_A_DAY = re.compile(
    r"\s+(?:on|after)\s+(?:this\s+|next\s+|the\s+)?(?:mon|tue|wed|thu|fri|sat|sun|today|tomorrow|tmr)|"
    r"\s+(?:today|tomorrow)\b",
    re.I,
)
"""What follows a length that counts a day from another ("a week on Wednesday", "2 days after Friday", "a week
today"): a date, no length of its own (unless said with "for"). "4 nights from Friday" is a length from a day."""
_FOR_BEFORE = re.compile(r"(?<![\w'])for\s+$", re.I)


def _sentences(text: str) -> list[tuple[int, int]]:
    """The spans of ``text``'s sentences (the whole text first)."""
    spans = [(0, len(text))]
    if "." in text or "!" in text:
        starts = [0, *(found.end() for found in re.finditer(r"[.!]\s+", text))]
        spans += [(start, end) for start, end in zip(starts, [*starts[1:], len(text)], strict=True) if start > 0]
    return spans


@lru_cache(maxsize=512)
def find_durations(text: str) -> tuple[tuple[int, int, float, str | None], ...]:
    """Lengths of time in ``text``: (start, end, how many, unit: minute, hour, day, night or week; None for a
    bare number, counted only when no length in the text names its unit, nor is in doubt).

    Lengths said one after another, each in a smaller unit, are one ("1 hour 30 minutes", "2 hours and 15 mins",
    "1h30"), in the smallest unit."""
    # "just the day": one day, a whole reply of it or a whole sentence ("the 16th, not tomorrow. and just for the day")
    for start, end in _sentences(text):
        if (whole := _JUST_THE.match(text, start, end)) is not None:
            unit = _unit(whole.group("unit"))
            return ((whole.start("said"), whole.end("said"), *((2.0, "week") if unit == "fortnight" else (1.0, unit))),)
    if _RATE.search(text) is not None:  # "an hour a week": the length is the hour, the week how often
        text = _RATE.sub(lambda rate: rate.group(1) + " " * (len(rate.group()) - len(rate.group(1))), text)
    glued = [
        (*found.span(), int(found.group("h")) * 60.0 + int(found.group("m")), "minute")
        for found in _GLUED.finditer(text)
    ]
    parts: list[tuple[int, int, float | None, str]] = []
    dated = False
    for said in _UNIT.finditer(text):
        part = _PART.search(text, max(0, said.start() - 60), said.end())
        if part is None or (parts and parts[-1][1] > part.start()):
            continue
        if any(a < part.end() and part.start() < b for a, b, _, _ in glued):
            continue
        if (
            _COUNTS_A_DAY.match(text, part.end())
            and _unit(part.group("unit")) not in ("hour", "minute")  # "an hour on Thursday" is how long, on a day
            and not _FOR_BEFORE.search(text, 0, part.start())
        ):
            dated = True  # "a week on Wednesday": a date, and its number no bare length either
            continue
        if (
            part.start() == said.start()
            and not said.group().casefold().endswith("s")
            and _TAIL.match(text, part.end()) is None
        ):
            continue  # a unit said alone ("boxing day", "the day after"): no length, and none in doubt
        tail = _TAIL.match(text, part.end())
        end = tail.end() if tail else part.end()
        amount, unit = _length(part, tail.group(1) if tail else None), _unit(part.group("unit"))
        if unit == "fortnight":  # "a fortnight": two weeks
            amount, unit = (None if amount is None else amount * 2), "week"
        parts.append((part.start(), end, amount, unit))
    parts += glued
    parts.sort()
    found: list[tuple[int, int, float, str | None]] = []
    doubt = -1
    i = 0
    while i < len(parts):
        start, end, amount, unit = parts[i]
        minutes = None if amount is None else amount * TIME_UNITS[unit]
        while i + 1 < len(parts) and _CHAIN.fullmatch(text, end, parts[i + 1][0]):
            nxt = parts[i + 1]
            if minutes is None or nxt[2] is None or TIME_UNITS[nxt[3]] >= TIME_UNITS[unit]:
                minutes = None  # "2 hours 3 hours", "30 minutes and an hour"
            else:
                minutes += nxt[2] * TIME_UNITS[nxt[3]]
            end, unit = nxt[1], nxt[3]
            i += 1
        i += 1
        if minutes is not None and unit == "hour" and (after := _MINUTES_AFTER.match(text, end)):
            minutes, end, unit = minutes + int(after.group("m")), after.end("m"), "minute"  # "1 hour 30"
        if minutes is None or _in_range(text, start, end):
            doubt = end
            continue
        found.append((start, end, minutes / TIME_UNITS[unit], unit))
    return _settled(text, found or ([] if dated else _bare_numbers(text)), doubt)


_COUNTS_PEOPLE_AFTER = re.compile(
    r"\s*(?:of\s+(?:us|them|you)\b|-?\s*piece\b|(?:people|persons?|guests?|adults?|kids?|children|players?|members?)\b)",
    re.I,
)
"""What follows a number that counts people ("4 of us", "a four piece", "5 people"): no bare length."""


def _bare_numbers(text: str) -> list[tuple[int, int, float, str | None]]:
    """Numbers said without a unit, unless in a range ("3-4", "3 or 4") or counting people ("4 of us")."""
    return [
        (start, end, amount, unit)
        for start, end, amount, unit in find_money(text)
        if unit is None and _BARE_NUMBER.fullmatch(text[start:end]) and not _COUNTS_PEOPLE_AFTER.match(text, end)
    ]


def in_unit(amount: float, unit: str, wanted: str) -> float:
    """``amount`` ``unit``s in ``wanted`` units (both keys of :data:`TIME_UNITS`)."""
    return amount * TIME_UNITS[unit] / TIME_UNITS[wanted]
