"""Street addresses said in a message: "8 Meadow Lane, Amersham", "Flat 3, 17 Albion Street, Leeds LS1 5AA",
"350 Fifth Avenue, New York, NY 10118".

An address is read from its parts, in the order people say them: a flat, unit or floor ("Flat 3", "Apt 4B",
"2nd floor"), a named building ("The Old Barn", "Riverside Court"), the street line (a house number, "12",
"12a", "12-14", and a street name ending in a street word, "Meadow Lane", "St John's Road", "The Green"), a flat
after it ("350 Main St Apt 4B"), the town ("Amersham", "Newcastle upon Tyne"), and a UK postcode ("SW1A 1AA") or a
US state with its ZIP code ("CA 90210", "NY 10001-1234"). A street line needs its house number, unless a flat, a
building or a postcode says that the words around it are an address ("The Old Barn, Church Lane, OX44 7QB").

The value is the address as said, tidied: the words in front of it ("the address is", "pick me up from") and after
it ("please", "thanks", "at 7pm") are not part of it, a postcode is in upper case with one space ("sw1a1aa" ->
"SW1A 1AA"), a state code in upper case, a house number said in words in digits ("twenty one Westbourne Road,
Sheffield S10 2QQ": "21 ...", only with a town or postcode after the street), and spaces and commas are evened
out. Nothing is added: a town or postcode not said is not there. "12 Elm Street, not 21" is "12 Elm Street" (the
words after "not" belong to the span, so that no reader takes "21" for another value).

Each finder returns ``(span, value)`` pairs, as the other finders of :mod:`fsmdial.language` do: the exact text of
the message that says the address (with the cue words in front of it, "my address is ...", and a correction after
it, ", not 21") and the address in its normal form. A message without a street word or a postcode has no address,
so a request ("I'd like to book an airport transfer please") or a give-up ("I don't know the postcode") has none.
"""

from __future__ import annotations

import bisect
import re
from functools import lru_cache
from typing import NamedTuple

from .amounts import NUMBER, number_value
from .dates import MONTHS, WEEKDAYS
from .text import FUNCTION_WORDS

__all__ = ["POSTCODE", "address_value", "find_addresses", "postcode_value", "says_address"]

# ------------------------------------------------------------------ postcodes and ZIP codes

_AREA = "[A-PR-UWYZ]"
"""A postcode's first letter (no Q, V or X)."""
_DISTRICT_LETTER = "[A-HK-Y]"
"""Its second letter in a two-letter area (no I, J or Z)."""
_OUTWARD = (
    rf"{_AREA}{_DISTRICT_LETTER}\d[ABEHMNPRVWXY]"  # AA9A: EC1A, SW1A
    rf"|{_AREA}\d[A-HJKPSTUW]"  # A9A: W1A
    rf"|{_AREA}{_DISTRICT_LETTER}\d\d?"  # AA9, AA99: OX44, LS1
    rf"|{_AREA}\d\d?"  # A9, A99: M19, L1
)
_INWARD = r"\d[ABD-HJLNP-UW-Z]{2}"
"""The inward code: a digit and two letters (never C, I, K, M, O or V)."""
POSTCODE = re.compile(
    rf"(?<![\w'’])(?:(?P<out>{_OUTWARD})\s?(?P<in>{_INWARD})|(?P<gir>GIR)\s?(?P<gin>0AA))(?![\w'’])", re.I
)
"""A UK postcode, in the Royal Mail's formats (A9 9AA, A99 9AA, AA9 9AA, AA99 9AA, A9A 9AA, AA9A 9AA, GIR 0AA),
in any case, with or without its space."""

_STATES = {
    name.replace("_", " "): code
    for name, code in (
        pair.split("=")
        for pair in """
    alabama=AL alaska=AK arizona=AZ arkansas=AR california=CA colorado=CO connecticut=CT delaware=DE florida=FL
    georgia=GA hawaii=HI idaho=ID illinois=IL indiana=IN iowa=IA kansas=KS kentucky=KY louisiana=LA maine=ME
    maryland=MD massachusetts=MA michigan=MI minnesota=MN mississippi=MS missouri=MO montana=MT nebraska=NE
    nevada=NV new_hampshire=NH new_jersey=NJ new_mexico=NM new_york=NY north_carolina=NC north_dakota=ND
    ohio=OH oklahoma=OK oregon=OR pennsylvania=PA rhode_island=RI south_carolina=SC south_dakota=SD
    tennessee=TN texas=TX utah=UT vermont=VT virginia=VA washington=WA west_virginia=WV wisconsin=WI wyoming=WY
    district_of_columbia=DC puerto_rico=PR
    """.split()
    )
}
"""The US states (and DC and Puerto Rico) by name, with their postal codes."""
_STATE_CODES = frozenset(_STATES.values())
_STATE_ZIP = re.compile(
    r"(?P<state>"
    + "|".join(sorted((name.replace(" ", r"\s+") for name in _STATES), key=len, reverse=True))
    + r"|[A-Za-z]{2})\.?,?\s+(?P<zip>\d{5}(?:-\d{4})?)(?![\w-])",
    re.I,
)
"""A US state (its name or its two-letter code) and a ZIP code ("CA 90210", "New York 10001-1234")."""


def postcode_value(text: str) -> str | None:
    """The UK postcode ``text`` is, in upper case with one space ("sw1a1aa" -> "SW1A 1AA"); None if it is none."""
    found = POSTCODE.fullmatch(text.strip())
    if found is None:
        return None
    outward, inward = found.group("out") or found.group("gir"), found.group("in") or found.group("gin")
    return f"{outward.upper()} {inward.upper()}"


def _state_zip_at(text: str, pos: int) -> re.Match[str] | None:
    found = _STATE_ZIP.match(text, pos)
    if found is None:
        return None
    state = found.group("state")
    return found if len(state) > 2 or state.upper() in _STATE_CODES else None


# ------------------------------------------------------------------ words

_STREET_WORDS = frozenset(
    "street st road rd lane ln avenue ave av crescent cres terrace terr tce gardens gdns boulevard blvd grove "
    "mews parkway pkwy highway hwy".split()
)
"""Street words that make a street in any case ("5 mill lane")."""
_NAMED_STREET_WORDS = frozenset(
    "drive dr close cl way court ct place pl square sq row walk rise hill view green parade pde park cottages "
    "wharf yard quay circus gate vale approach chase mount path passage promenade embankment circle cir trail trl "
    "loop alley plaza pike heights fields meadows common hollow croft ridge broadway causeway".split()
)
"""Street words that are ordinary words too ("8 people close to ..."): a street only in a name's capitals."""
_ABBREVIATIONS = frozenset("st rd ln ave av cres terr tce gdns blvd pkwy hwy dr cl ct pl sq pde cir trl mt ft".split())
"""Street words shortened, which a period may follow ("12 Elm St.")."""
_BUILDING_WORDS = frozenset(
    "house cottage cottages court lodge farm barn mill hall manor mansions building buildings tower towers "
    "apartments flats point centre center villa chambers works wharf studios college school university academy "
    "hospital clinic surgery church chapel hotel inn station library museum theatre stadium campus offices".split()
)
"""Words that end a named building ("Riverside Court", "Rose Cottage")."""
_DIRECTIONS = frozenset("N S E W NE NW SE SW".split())
"""A US street's quarter, after its street word ("1600 Pennsylvania Avenue NW")."""
_CONNECTORS = frozenset("upon on under le in by".split())
"""Small words inside a town's name ("Newcastle upon Tyne")."""
_NOT_NAMES = (
    FUNCTION_WORDS
    | set(WEEKDAYS)
    | set(MONTHS)
    | set(
        "tomorrow today tonight morning afternoon evening night noon midnight am pm o'clock oclock cheers ta "
        "people person persons passengers passenger adults kids children guests address postcode zip code pick "
        "pickup collect deliver delivery name called number phone email mr mrs ms miss dr sir madam and or not "
        "is it's isn't flat apartment apt unit suite floor asap sorry wait time bed beds bedroom bedrooms "
        "bedroomed room rooms storey".split()
    )
)
"""Words that are no part of a street's or a town's name in lower case: they say something else ("a 3 bedroom
terrace", "a 2 bed terrace" tell the rooms of a house, no street)."""
_NEVER_NAMES = frozenset(
    "i i'm i'd i'll and or at to from for is are it's please thanks thank not my your our on by with of a an "
    "but then".split()
)
"""Words that are no part of a name even capitalised ("At", "Please")."""
_NEVER_TOWNS = _NEVER_NAMES | set(WEEKDAYS) | set(MONTHS) | {"mr", "mrs", "ms", "miss", "dr", "tomorrow", "today"}
"""Words that are no town even capitalised ("Friday", "Mr")."""

_NAME_WORD = re.compile(r"(?:[A-Za-z][A-Za-z'’\-]*|\d{1,3}(?:st|nd|rd|th))(?![\w'’])")
"""A word of a street's name: letters (with inner apostrophes and hyphens), or an ordinal ("5th Avenue")."""
_TOWN_WORD = re.compile(r"[A-Za-z][A-Za-z'’\-]*(?![\w'’])")
_WORDED_NUMBER = re.compile(rf"(?:{NUMBER})(?![\w'’])", re.I)
"""A number said in words ("twenty one", "forty-two"); digits are :data:`_HOUSE_NUMBER`'s."""
_HOUSE_NUMBER = re.compile(r"(?<![\w:.,/£$€#@+\-])\d{1,5}[A-Za-z]?(?:\s*[-–]\s*\d{1,5}[A-Za-z]?)?(?![\w:'’])")
"""A house number: "12", "12a", "12-14" (not "12:30", "7pm", "1,200" or "£12")."""
_FLAT = re.compile(
    r"(?:flat|apartment|apt|unit|suite)\.?\s*(?:no\.?\s*|number\s+|#\s*)?(?:\d{1,4}[A-Za-z]?|[A-Z])(?![\w'’])"
    r"|(?:\d{1,2}(?:st|nd|rd|th)|first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|ground|top|"
    r"upper|lower)\s+floor(?:\s+(?:flat|apartment))?(?![\w'’])"
    r"|basement(?:\s+(?:flat|apartment))?(?![\w'’])"
    r"|(?:upper|lower|top|bottom|ground|garden|first|second|front|back|rear)\s+(?:flat|apartment|maisonette)(?![\w'’])",
    re.I,
)
"""A flat, unit or floor: "Flat 3", "Apt 4B", "unit 7", "2nd floor", "ground floor flat", "basement", "lower flat",
"garden flat"."""
_SPACE = re.compile(r"\s+")
_SEPARATOR = re.compile(r"\s*,\s*|\s+")
_CUE = (
    r"(?:(?:(?:my|the|our|your|his|her|their)\s+)?(?:[A-Za-z'’]+\s+)?address(?:\s+(?:is|will\s+be|should\s+be|would\s+be|"
    r"was|to)|['’]s|\s*:)"
    r"|(?:i|we|they|he|she)\s+(?:live|lives|am|are|is|stay|'m|'re)\s+at|i['’]m\s+at|we['’]re\s+at"
    r"|(?:live|living|staying|located|based)\s+at"
    r"|pick(?:ing)?\s+(?:me|us|him|her|them)\s+up\s+(?:from|at)|pick\s*-?\s*up\s+(?:is\s+)?(?:from|at)"
    r"|collect(?:ing)?\s+(?:me|us|him|her|them)\s+(?:from|at)|from"
    r"|(?:no|nope|sorry|actually|oops)[\s,.!]+(?:it['’]?s|it\s+is|it\s+should\s+be)|should\s+be|make\s+(?:it|that)"
    r"|change\s+(?:it|that)\s+to"
    r"|(?:deliver(?:ed)?|send|sent|bring|brought|ship(?:ped)?|drive|driving|take|taking|go|going|come|coming)\s+"
    r"(?:[\w'’]+\s+){0,3}?to)"
)
"""The words that say an address follows: "the address is", "I live at", "pick me up from", "deliver it to", and
the words of a correction ("no, it's ...", "make it ...")."""
_CUE_BEFORE = re.compile(r"(?<![\w'’])" + _CUE + r"\s*[:,]?\s*$", re.I)
_CUE_FIRST = re.compile(r"^" + _CUE + r"\s*[:,]?\s", re.I)
_CUE_AFTER = re.compile(r"(?<![\w'’])" + _CUE + r"\s*[:,]?\s*", re.I)
RULED_OUT_AFTER = re.compile(r"\s*[,;]?\s*(?:and\s+)?not\s+(?:at\s+|from\s+|in\s+|the\s+)?", re.I)
"""A value put in place of another right after it: "12 Elm Street, not 21" (text values too: "the blue one, not the
red one", :func:`fsmdial.language.statements.without_ruled_out`)."""
_CORRECTED_BEFORE = re.compile(
    r"(?<![\w'’])not\s+(?:at\s+|from\s+)?\d{1,5}[A-Za-z]?\s*(?:[,;]|\s+but\s+)\s*(?:it['’]?s\s+|it\s+is\s+)?$", re.I
)
"""One put in place right before it: "not 21, 12 Elm Street", "not 21 but 12 Elm Street"."""
_NOT_BEFORE = re.compile(r"(?<![\w'’])(?:not|isn['’]?t|wasn['’]?t)\s+(?:at\s+|from\s+|in\s+)?$", re.I)
"""The words that rule out the address after them ("not 21 Elm Street")."""
_INSTEAD = re.compile(r"\s*(?:[,;]\s*|\s)(?:but\s+|it['’]?s\s+|it\s+is\s+|rather\s+|instead\s+)?", re.I)
"""What stands between an address ruled out and the one put in its place ("..., but 12 Elm Street")."""
_MAY_HAVE = re.compile(
    r"(?<![\w'’])(?:"
    + "|".join(sorted(_STREET_WORDS | _NAMED_STREET_WORDS, key=len, reverse=True))
    + r"|[A-Za-z]+(?:way|gate))(?![\w'’])|"
    + POSTCODE.pattern,
    re.I,
)
"""A street word or a postcode: a message without one has no address (most have none)."""


_SHORT_REPLY = 80
_BARE_START = re.compile(r"\d{1,5}[A-Za-z]?\s+[A-Z]")
"""A house number and a capitalised word: a short reply with one may be an address without a street word."""


def _is_name(word: str, capitalised: bool) -> bool:
    """May ``word`` be part of a street's or a building's name (in capitals, if ``capitalised``)?"""
    folded = word.casefold().rstrip(".")
    if folded in _NEVER_NAMES:
        return False
    if capitalised and not (word[0].isupper() or word[0].isdigit()):
        return False
    return word[0].isupper() or word[0].isdigit() or folded not in _NOT_NAMES


def _town_word(word: str, lower_ok: bool) -> bool:
    """May ``word`` be a word of a town's name (in lower case too, if ``lower_ok``)?"""
    folded = word.casefold()
    if _capital(word):
        return folded not in _NEVER_TOWNS
    return lower_ok and folded not in _NEVER_TOWNS and folded not in _NOT_NAMES


def _capital(word: str) -> bool:
    return word[0].isupper()


# ------------------------------------------------------------------ the parts

_SPACES = re.compile(r" +")
_WORD_START = re.compile(r"(?<![\w'’])\w")
_COMMA = re.compile(r"\s*,")
_CAPITALISED = re.compile(r"[A-Z][A-Za-z'’\-]*(?![\w'’])")
_ONE_WORD_STREET = re.compile(r"[A-Z][a-z]+(?:way|gate)")
"""A street of one word ("Kingsway", "Broadway", "Southgate")."""
_DIRECTION = re.compile(r" +([NSEW]{1,2})\.?(?![\w'’])")


def _spaces_after(text: str, end: int) -> int | None:
    """Where the next word starts after ``end``, when only spaces stand between; else None."""
    gap = _SPACES.match(text, end)
    return gap.end() if gap is not None else None


def _street_at(text: str, pos: int, numbered: bool) -> int | None:
    """Where a street name starting at ``pos`` ends ("Meadow Lane", "The Green", "Kingsway", "Fifth Avenue NW"),
    or None. ``numbered``: a house number came before it; a street without one, or one whose street word is also
    an ordinary word ("Close", "Way", "Park"), must be written in a name's capitals."""
    names: list[str] = []
    at: int | None = pos
    end = None
    while at is not None and len(names) < 5:
        word = _NAME_WORD.match(text, at)
        if word is None:
            break
        said = word.group()
        folded = said.casefold()
        period = text.startswith(".", word.end()) and folded in _ABBREVIATIONS
        plain, named = folded in _STREET_WORDS, folded in _NAMED_STREET_WORDS
        if names and (plain or named):
            capitals = all(_capital(n) or n[0].isdigit() for n in names) and _capital(said)
            # "5 mill lane"; "3 elm close, bristol bs16 6ly": an ordinary street word, numbered and before a postcode
            lower_ok = numbered and (plain or POSTCODE.search(text, word.end()) is not None)
            if (capitals and [n.casefold() for n in names] == ["the"]) or (
                (capitals or lower_ok) and all(_is_name(n, not lower_ok) for n in names)
            ):
                end = word.end() + period  # "19 The Green", "5 mill lane", "12 St John's Road"
        elif not names and _ONE_WORD_STREET.fullmatch(said):
            end = word.end()  # "88 Kingsway", "1500 Broadway"
        if not _is_name(said, not numbered):
            break
        names.append(said)
        at = _spaces_after(text, word.end() + period)
    if end is None:
        return None
    direction = _DIRECTION.match(text, end)
    if direction is not None and direction.group(1) in _DIRECTIONS:
        end = direction.end()  # "1600 Pennsylvania Avenue NW"
    return end


_BUILDING_OF = re.compile(r"(?:of|of\s+the|on|upon)\s+")
"""The small words inside a building's name, between capitalised words ("City of Bristol College")."""


def _building_at(text: str, pos: int) -> int | None:
    """Where a named building starting at ``pos`` ends ("The Old Barn", "Rose Cottage"), when a comma follows."""
    words: list[str] = []
    at: int | None = pos
    end = None
    while at is not None and len(words) < 5:
        inner = _BUILDING_OF.match(text, at) if words else None  # "City of Bristol College", "University of Leeds"
        word = _CAPITALISED.match(text, inner.end() if inner is not None else at)
        if word is None or word.group().casefold() in _NEVER_NAMES:
            break
        words.append(word.group())
        first, last = words[0].casefold(), words[-1].casefold()
        if len(words) > 1 and (words[0] == "The" or last in _BUILDING_WORDS or (inner and first in _BUILDING_WORDS)):
            end = word.end()
        if (
            (len(words) > 1 or _lone_house_name(text, pos, first))
            and end is None
            and first not in _NO_HOUSE
            and _NUMBERED_NEXT.match(text, word.end())
        ):
            end = word.end()  # "Holly Bank, 18 Stockton Lane": a house's name before its numbered street
        at = _spaces_after(text, word.end())
    if end is None or not _COMMA.match(text, end):
        return None
    return end


def _lone_house_name(text: str, pos: int, word: str) -> bool:
    """May one word opening the message be a house's name ("Hollybank, 6 Ecclesall Road South")? Not a word people
    open a reply with (:data:`_NO_HOUSE`), a function word, a word of four letters or fewer, a day or a month."""
    return (
        not text[:pos].strip()
        and len(word) > 4
        and word not in _NEVER_TOWNS
        and word not in _NO_HOUSE
        and word not in FUNCTION_WORDS
    )


_NO_HOUSE = frozenset(
    "hi hello hey hiya morning afternoon evening thanks thank cheers dear ok okay yes yeah yep no sorry right well so "
    "oh um er erm please sure fine great lovely".split()
)
"""First words of a greeting or an answer before an address ("Hi Sarah, 18 ..."), never of a house's name."""
_NUMBERED_NEXT = re.compile(r",\s*\d{1,4}[a-zA-Z]?\s+[A-Za-z]")
"""A comma and a house number with a word after it: what follows a house's own name ("Holly Bank, 18 Stockton
Lane")."""


def _bare_street_at(text: str, pos: int) -> int | None:
    """Where a street's name without a street word starting at ``pos`` ends ("Greenside", "Kingsley", "High
    Ridge"): up to three words in a name's capitals; an address only with a postcode after it, or said alone
    (:func:`_address_at`)."""
    end = None
    at: int | None = pos
    for _ in range(3):
        word = _NAME_WORD.match(text, at) if at is not None else None
        if word is None or not _capital(word.group()) or word.group().casefold() in _NEVER_TOWNS:
            break
        if not _is_name(word.group(), True):
            break
        end = word.end()
        at = _spaces_after(text, end)
    return end


class _Piece(NamedTuple):
    """A part of an address before its town: where it ends, and what it is."""

    end: int
    kind: str
    """"flat", "building", "street" (with its house number), "worded" (a street with its house number said in words)
    or "road" (a street without one)."""
    number: tuple[int, int, str] | None = None
    """A house number said in words: (start, end, in digits)."""


def _worded_number(text: str, pos: int) -> tuple[int, int, str] | None:
    """The house number said in words at ``pos`` ("twenty one", "forty-two"): (start, end, in digits), or None."""
    found = _WORDED_NUMBER.match(text, pos)
    if found is None or found.group().casefold() in ("a", "an"):
        return None
    value = number_value(found.group())
    return (found.start(), found.end(), str(int(value))) if value is not None and 0 < value < 10000 else None


def _piece_at(text: str, pos: int) -> _Piece | None:
    """The part of an address before its town that starts at ``pos``: a flat, a street with its house number, a
    named building, or a street without a number."""
    flat = _FLAT.match(text, pos)
    if flat is not None:
        return _Piece(flat.end(), "flat")
    number = _HOUSE_NUMBER.match(text, pos)
    worded = _worded_number(text, pos) if number is None else None
    if worded is not None:  # "twenty one Westbourne Road, Sheffield S10 2QQ": only before a street's name
        at = _spaces_after(text, worded[1])
        street = _street_at(text, at, True) if at is not None else None
        return _Piece(street, "worded", worded) if street is not None else None
    if number is not None:
        at = _spaces_after(text, number.end())  # "12 Elm Street"; "at 10, Main Street entrance" is a time
        street = _street_at(text, at, True) if at is not None else None
        if street is None and at is not None:
            bare = _bare_street_at(text, at)  # "44 Greenside, Pudsey LS28 8PU", "12 Kingsley" (said alone)
            return _Piece(bare, "bare") if bare is not None else None
        return _Piece(street, "street") if street is not None else None
    building = _building_at(text, pos)
    road = _street_at(text, pos, False)
    if road is not None and (building is None or road >= building):
        return _Piece(road, "road")
    return _Piece(building, "building") if building is not None else None


class _Address(NamedTuple):
    start: int
    end: int
    codes: tuple[tuple[int, int, str], ...]
    """The postcode or state code in it: (start, end, its normal form)."""
    whole: bool
    """More than a street: a town, a postcode or ZIP code, a flat or a building too ("9 Meadow Lane, Amersham")."""
    numbers: tuple[tuple[int, int, str], ...] = ()
    """A house number said in words: (start, end, in digits)."""


def _address_at(text: str, start: int) -> _Address | None:
    """The address that starts at ``start`` (see the module docstring), or None."""
    pieces: list[_Piece] = []
    pos = start
    while (piece := _piece_at(text, pos)) is not None:  # flats, buildings, streets: up to the numbered street
        pieces.append(piece)
        gap = _SEPARATOR.match(text, piece.end)
        if piece.kind in ("street", "worded") or gap is None:
            break
        pos = gap.end()
    named = [piece for piece in pieces if piece.kind in ("building", "flat")]
    while pieces and pieces[-1].kind not in ("street", "worded", "road", "bare"):
        pieces.pop()  # "Flat 3, the", "The Old Barn, at 7": no street follows
    if not pieces and named:
        # "Flat 3, Tapton House, Sheffield S10 5BY": a named building with no street is an address with its postcode;
        # so is a unit on a business park ("Unit 4, Aztec West, Almondsbury, Bristol BS32 4TD")
        gap = _SEPARATOR.match(text, named[-1].end)
        end, codes = _town_and_code(text, named[-1].end, False) if gap is not None else (named[-1].end, ())
        return _Address(start, end, codes, True) if codes else None
    if not pieces:
        return _place_line_at(text, start)
    kinds = [piece.kind for piece in pieces]
    street_end = pieces[-1].end
    end = _flat_after(text, street_end)
    end, codes = _town_and_code(text, end, end == street_end and text[end - 1] == ".")
    if not {"street", "worded"} & set(kinds) and len(kinds) == 1 and not codes and kinds != ["bare"]:
        return None  # "Church Lane" alone is no address; "The Old Barn, Church Lane" and "Church Lane, OX44 7QB" are
    if kinds[-1] == "bare" and not codes and not _said_alone(text, start, end):
        return None  # "12 Kingsley" is an address with a postcode after it, or as the whole reply; "for 4 Tom" is none
    if kinds[-1] == "worded" and not (codes or end > street_end):
        return None  # a number in words before a street is its house number only in a whole address: "two High Street"
    numbers = tuple(piece.number for piece in pieces if piece.number is not None)
    return _Address(start, end, codes, len(kinds) > 1 or end > street_end, numbers)


_THE = re.compile(r"the\s+", re.I)
_PLACE_PARTS = 5
"""The most parts (a house's name, a hamlet, a village, a town) a line of places before a postcode has."""
_PLACE_REACH = 160
"""How far before its postcode an address of places may start (five parts of up to three words)."""
_NEAR = 80
"""How far into a reply the lead-in of an address of places may reach ("yes it's", "hi, so it's")."""


@lru_cache(maxsize=512)
def _postcodes(text: str) -> tuple[int, ...]:
    """Where the postcodes of ``text`` start, in order."""
    return tuple(found.start() for found in POSTCODE.finditer(text))


@lru_cache(maxsize=512)
def _cue_ends(text: str) -> frozenset[int]:
    """Where the address cues of ``text`` ("my address is", "pick me up from") end, with the space after them: each
    found once for the whole text (a long reply is read in linear time)."""
    return frozenset(found.end() for found in _CUE_AFTER.finditer(text))


def _place_line_at(text: str, start: int) -> _Address | None:
    """An address of places ending in a postcode, with no street word ("Ty Newydd, Llanfair Waterdine, Knighton LD7
    1TT", "12 the crescent, craven arms sy7 9pz"): a house number perhaps, then up to five parts of up to three
    words each ("the" opening one), then the postcode. Only at the start of the reply or after an address's cue
    words ("my address is ..."): the postcode says the words before it are an address, no other words."""
    codes = _postcodes(text)
    after = bisect.bisect_left(codes, start)
    if after == len(codes) or codes[after] - start > _PLACE_REACH:
        return None  # no postcode soon after it: the words are no address of places (most replies have none)
    if start not in _cue_ends(text) and (start > _NEAR or _LEAD_IN.fullmatch(text, 0, start) is None):
        return None
    pos: int | None = start
    number = _HOUSE_NUMBER.match(text, start)
    if number is not None:
        pos = _spaces_after(text, number.end())
    for _ in range(_PLACE_PARTS):
        if pos is None:
            return None
        the = _THE.match(text, pos)
        town = _town_at(text, the.end() if the is not None else pos)
        if town is None:
            return None
        gap = _SEPARATOR.match(text, town[0])
        postcode = POSTCODE.match(text, gap.end()) if gap is not None else None
        if postcode is not None:
            said = ((postcode.start(), postcode.end(), postcode_value(postcode.group()) or ""),)
            return _Address(start, _town_after_code(text, postcode.end()), said, True)
        pos = gap.end() if gap is not None else None
    return None


def _said_alone(text: str, start: int, end: int) -> bool:
    """Is the address from ``start`` to ``end`` all the message says, but for the words in front of it ("it's") and
    thanks after it?"""
    return _LEAD_IN.fullmatch(text[:start]) is not None and _TRAILING.fullmatch(text[end:]) is not None


def _flat_after(text: str, end: int) -> int:
    """``end`` after a flat said after the street ("350 Main St Apt 4B", "12 Elm Street, Flat 3")."""
    gap = _SEPARATOR.match(text, end)
    flat = _FLAT.match(text, gap.end()) if gap is not None else None
    return flat.end() if flat is not None else end


def _town_and_code(text: str, end: int, after_period: bool) -> tuple[int, tuple[tuple[int, int, str], ...]]:
    """Where the town and the postcode (or state and ZIP code) after the street end, and the code said.

    A town is up to three components (a comma between them) of up to three words, in capitals or after a comma;
    words in lower case said without a comma only count before a code ("flat 1 32 victoria street liverpool
    l1 6bx"). After an abbreviation's period ("12 Elm St. Then ..."), only a comma goes on to a town."""
    pos = kept = end
    unsure = False  # words in lower case without a comma: kept only if a code follows
    towns = 0
    while (gap := _SEPARATOR.match(text, pos)) is not None:
        comma = "," in gap.group()
        postcode = POSTCODE.match(text, gap.end())
        if postcode is not None:
            said = ((postcode.start(), postcode.end(), postcode_value(postcode.group()) or ""),)
            return _town_after_code(text, postcode.end()), said
        state = _state_zip_at(text, gap.end()) if towns else None
        if state is not None:
            code = state.group("state")
            codes = ((state.start("state"), state.end("state"), code.upper()),) if len(code) == 2 else ()
            return state.end(), codes
        if towns == 3 or (after_period and not comma):
            break
        town = _town_at(text, gap.end())
        if town is None:
            break
        pos, lower = town
        towns += 1
        unsure = unsure or (lower and not comma)
        if not unsure:
            kept = pos
    return kept, ()


_COMMA_AFTER = re.compile(r"\s*,\s*")
_CLAUSE_END = re.compile(r"\s*(?:[.,;!?]|$)")


def _town_after_code(text: str, end: int) -> int:
    """Where an address ending in a postcode at ``end`` ends: after a town in capitals said after it and a comma, that
    ends the clause ("7 Brincliffe Edge Road, S11 9BW, Sheffield"); else at the code."""
    comma = _COMMA_AFTER.match(text, end)
    town = _town_at(text, comma.end()) if comma is not None else None
    if town is None or town[1] or _CLAUSE_END.match(text, town[0]) is None:
        return end
    return town[0]


def _town_at(text: str, pos: int) -> tuple[int, bool] | None:
    """Where the words of one part of a town starting at ``pos`` end, and whether any is in lower case; None when no
    word of a town is there ("at", "please", "Friday")."""
    end = None
    lower = False
    at: int | None = pos
    count = 0
    while at is not None and count < 3:
        if POSTCODE.match(text, at) or (count and _state_zip_at(text, at) is not None):
            break
        word = _TOWN_WORD.match(text, at)
        if word is None:
            break
        said = word.group()
        folded = said.casefold()
        if count and folded in _CONNECTORS:  # "Newcastle upon Tyne": a small word inside a town's name
            following = _TOWN_WORD.match(text, _spaces_after(text, word.end()) or word.end())
            if following is None or not _town_word(following.group(), lower):
                break
            at = following.start()
            continue
        if not _town_word(said, True):
            break
        lower = lower or not _capital(said)
        count += 1
        end = word.end()
        at = _spaces_after(text, end)
    return (end, lower) if end is not None else None


# ------------------------------------------------------------------ spans and values


def _tidy(text: str, address: _Address) -> str:
    """The address's normal form: its codes in upper case, ranges without spaces, spaces and commas evened out."""
    parts: list[str] = []
    at = address.start
    for start, end, normal in sorted(address.codes + address.numbers):
        parts += [text[at:start], normal]
        at = end
    parts.append(text[at : address.end])
    value = _RANGE.sub(r"\1", "".join(parts))
    value = _COMMAS.sub(", ", _SPACE.sub(" ", value))
    return value.strip(" ,;:.")


_RANGE = re.compile(r"(?<=\d)\s*([-–])\s*(?=\d)")
_COMMAS = re.compile(r"\s*,[\s,]*")


def find_addresses(text: str) -> tuple[tuple[str, str], ...]:
    """The addresses said in ``text``: (span, address in its normal form), in order. A span runs from the cue
    words in front of the address ("my address is", "pick me up from") to the end of a correction after it
    ("12 Elm Street, not 21")."""
    return tuple((text[start:end], _tidy(text, address)) for start, end, address in _found(text))


@lru_cache(maxsize=512)
def _found(text: str) -> tuple[tuple[int, int, _Address], ...]:
    """The addresses in ``text`` with their spans (see :func:`find_addresses`)."""
    if _MAY_HAVE.search(text) is None and (len(text) > _SHORT_REPLY or _BARE_START.search(text) is None):
        return ()
    found: list[tuple[int, int, _Address]] = []
    pos = 0
    for start in (match.start() for match in _WORD_START.finditer(text)):
        if start < pos:
            continue
        address = _address_at(text, start)
        if address is None:
            continue
        span_start = address.start
        ruled_out = _NOT_BEFORE.search(text, pos, span_start)
        if ruled_out is not None:  # "not 21 Elm Street, 12 Elm Street": the one after; "not 21 Elm Street" alone: none
            instead = _INSTEAD.match(text, address.end)
            address = _address_at(text, instead.end()) if instead is not None else None
            if address is None:
                continue
            span_start = ruled_out.start()
        span_end = address.end
        cue = _CUE_BEFORE.search(text, pos, span_start)
        if cue is not None:
            span_start = cue.start()
        before = _CORRECTED_BEFORE.search(text, pos, span_start)
        if before is not None:
            span_start = before.start()
        span_end = _correction_end(text, span_end)
        found.append((span_start, span_end, address))
        pos = span_end
    return tuple(found)


def _correction_end(text: str, end: int) -> int:
    """``end`` after the address a correction rules out ("12 Elm Street, not 21", "..., not 21 Elm Street")."""
    tail = RULED_OUT_AFTER.match(text, end)
    if tail is None:
        return end
    other = _address_at(text, tail.end())
    if other is not None:
        return other.end
    number = _HOUSE_NUMBER.match(text, tail.end())
    if number is not None:  # "not 21", "not 21 Elm Road"
        at = _spaces_after(text, number.end())
        street = _street_at(text, at, True) if at is not None else None
        return street if street is not None else number.end()
    road = _street_at(text, tail.end(), False)
    return road if road is not None else end


_LEAD_IN = re.compile(
    r"^(?:(?:well|ok|okay|so|yes|yeah|sure|right|sorry|oh|um|uh|actually|hi|hello)\b[\s,]*)*"
    r"(?:(?:it['’]?s|it\s+is|that['’]?s|that\s+is|this\s+is|i\s+live\s+at|we\s+live\s+at|at)\s+)?",
    re.I,
)
_TRAILING = re.compile(r"^[\s,.!;:]*(?:(?:please|thanks|thank\s+you|cheers|ta)\b[\s,.!]*)*$", re.I)


def address_value(text: str) -> str | None:
    """The address ``text`` is (only words in front of it, "it's", "my address is", and thanks after it besides),
    in its normal form; None if it is not one address."""
    found = find_addresses(text.strip())
    if len(found) != 1:
        return None
    span, value = found[0]
    start = text.find(span)
    before, after = text[:start], text[start + len(span) :]
    if _LEAD_IN.fullmatch(before) is None or _TRAILING.fullmatch(after) is None:
        return None
    return value


def says_address(span: str) -> bool:
    """Does ``span`` (a span :func:`find_addresses` found) say it is an address, whatever was asked: cue words in
    front ("my address is ...", "pick me up from ..."), or more than a street ("9 Meadow Lane, Amersham", "9 Meadow
    Lane HP6 5AA", "Flat 2, 9 Meadow Lane"); a bare "8 Meadow Lane" may answer something else."""
    return _CUE_FIRST.match(span) is not None or any(address.whole for _, _, address in _found(span))
