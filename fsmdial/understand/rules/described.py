"""A value of the asked categorical slot told by most of the words of one of its described forms, not all of them.

A customer answers "what are you moving?" with "a 2 bed terrace" where the van hire's description lists "large van:
a two-bedroom flat or house", and "what can we do for you?" with "the fire keeps puffing smoke back into the room"
where the sweep lists "smoke problem: smoke coming into the room, smoke blowing back". No form is said whole
(:func:`~.categories.worded_value` needs every content word of one), but most of one form's words are, and of no
other value's. Such a value is the reader's *proposal*: the parse notes it in ``info["meaning"]`` (``by:
"words"``), the bot says it back at once ("I take it the van is: large van") and the committing summary shows it
before any yes, so a customer who meant otherwise says so.

When no form is told so, the value whose forms together are told by two words or more, and more than any other
value's, is proposed the same way (:func:`told_across`: "the arm's snapped off my glasses" where a glasses repair
lists "loose arm" and "broken glasses"); a word of the value's own name counts two at the asked slot, one beside
another answer.

A form counts when at least two of its content words are said, and at least half of them; a number in a form
("two-bedroom") must be said (as a digit or a word: "2 bed"), never another one. A said word stands for a form's
word of the same stem, or one it begins ("bed" of "bedroom", three letters or more). Of the values so told, the one
whose form is said whole, then has most words said, then the greatest share, is proposed; a tie proposes nothing.
A word in forms of every value ("lock" of a locksmith's jobs) tells none of them and is not counted. Forms of one
content word are the written synonyms' (:func:`~.categories.found_value`); negated forms ("fire won't draw") need a
negation and are :func:`~.categories.worded_value`'s; the words of negated clauses are not read ("it's not birds").
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from functools import lru_cache
from typing import Any

from ...flow import Slot
from ...language import WORD_NUMBERS, fold
from .categories import NOT_NAMING, THING_NEGATION, ranged_value, stem, typo_value, value_forms, worded_value

MIN_WORDS = 2
"""How many content words of a form must be said, at least."""
MIN_PREFIX = 3
"""How long a said word must be to stand for a form's word it begins ("bed" of "bedroom")."""
_MAX_REST = 4
"""How many letters a form's word may have beyond the said word it begins ("room" of "bedroom")."""

_WORD = re.compile(r"[^\W_]+(?:'[^\W_]+)?")


def _number(word: str) -> int | None:
    """The number a word says ("2", "two"), or None."""
    if word.isdecimal():  # "²" is a digit, and no number int() reads
        return int(word)
    value = WORD_NUMBERS.get(word)
    return int(value) if isinstance(value, int | float) and float(value).is_integer() else None


_PARTICLE = re.compile(
    r"\b((?:get|gets|got|getting|go|goes|going|went|gone|come|comes|coming|came|be|been|being|bring|call|ring|phone|"
    r"put|pay|give|take|move|moving|head|heading|send|sent|write|hold|holding|cut|cutting|fight)\s+)back\b"
)
""""back" after a verb of going or giving is a direction, never the body's or a thing's back ("get back into
running", "ring me back")."""


def _words(text: str) -> list[str]:
    """The words of ``text``, folded, split at hyphens ("one-bedroom": one, bedroom), a possessive's "'s" dropped, a
    "back" after a verb of going or giving left out (:data:`_PARTICLE`)."""
    text = _PARTICLE.sub(r"\1", fold(text).replace("\u2019", "'").replace("-", " "))
    return [word.removesuffix("'s") for word in _WORD.findall(text)]


@lru_cache(maxsize=256)
def _forms(
    values: tuple[str, ...], description: str, subject: str
) -> tuple[tuple[str, frozenset[str], frozenset[int]], ...]:
    """(value, stems of its content words but numbers, its numbers) of each form of two content words or more; a
    negated form is left out. ``subject``: the words naming the slot itself ("van" of "a box van"), not needed."""
    named = {stem(word) for word in _words(subject)}
    read = []
    for value, form in value_forms(values, description):
        if THING_NEGATION.search(form):
            continue
        words = [word for word in _words(form) if word not in NOT_NAMING or _number(word) is not None]
        numbers = frozenset(n for word in words if (n := _number(word)) is not None)
        read.append((value, frozenset(stem(word) for word in words if _number(word) is None) - named, numbers))
    # A word in forms of every value tells none of them ("lock" of a locksmith's jobs)
    by_value: dict[str, set[str]] = {}
    for value, stems, _ in read:
        by_value.setdefault(value, set()).update(stems)
    common = set.intersection(*by_value.values()) if len(by_value) == len(values) > 1 else set()
    return tuple(
        (value, stems - common, numbers)
        for value, stems, numbers in read
        if len(stems - common) + len(numbers) >= MIN_WORDS
    )


def _stands_for(said: set[str], wanted: str) -> bool:
    """Is a form's word ``wanted`` (a stem) said: its stem, or a word it begins ("bed" of "bedroom")?"""
    if wanted in said:
        return True
    return any(
        len(word) >= MIN_PREFIX and wanted.startswith(word) and len(wanted) - len(word) <= _MAX_REST for word in said
    )


@lru_cache(maxsize=512)
def _one_word_forms(values: tuple[str, ...], description: str, by: Callable[[str], str] = stem) -> dict[str, set[str]]:
    """``by`` (a stem, or a root: :func:`_root`) of a one-word value or listed synonym -> the values it is of."""
    out: dict[str, set[str]] = {}
    named = {value: {by(word) for word in _words(value)} for value in values}
    for value, form in value_forms(values, description):
        said = _words(form)
        words = [word for word in said if word not in NOT_NAMING]
        if len(words) != 1 or len(words[0]) <= 3:
            continue
        one = by(words[0])
        if any(_number(word) is not None for word in said) and any(one in named[v] for v in values if v != value):
            continue  # "one to one lesson" is no "lesson" alone, a word of "taster lesson" too: its numbers say which
        out.setdefault(one, set()).add(value)
    return out


def stemmed_value(slot: Slot, said: str, counted: frozenset[str] = frozenset()) -> str | None:
    """The value of categorical ``slot`` one word of ``said`` says in another form of a one-word value or synonym
    ("all the open fires need sweeping": sweep), else in the verb or noun its word is made from ("could you value a
    piano?": valuation; "inspect" an inspection); None when none or two values are said so. A word naming a numeric
    slot of the flow (``counted``: "2 drivers") says that count, no value ("just a drive")."""
    forms = _one_word_forms(tuple(slot.values or ()), slot.description)
    words = [word for word in _words(said) if len(word) > 3 and word.isalpha() and word not in counted]
    found = set().union(*(forms.get(stem(word), set()) for word in words))
    if not found:
        roots = _one_word_forms(tuple(slot.values or ()), slot.description, _root)
        found = set().union(*(roots.get(root, set()) for word in words if len(root := _root(word)) > 3))
    return found.pop() if len(found) == 1 else None


_DERIVED = re.compile(r"(?:ations?|itions?|ions?|ments?|ancy|ency|ances?|ences?|ers?|ing|ed|es|e|s)$")
"""The endings a noun or a verb is made with ("valuation" of "value", "inspection" of "inspect")."""


def _root(word: str) -> str:
    """``word`` without the ending it is made with (:data:`_DERIVED`): "valuation", "value" and "valued" are "valu"."""
    return _DERIVED.sub("", word.casefold())


def told(slot: Slot, said: str) -> dict[str, tuple[int, float, frozenset[int]]]:
    """Each value of categorical ``slot`` that ``said`` tells by most of one of its forms: how many of the best such
    form's words were said, their share of it, and its numbers (see the module docstring)."""
    forms = _forms(tuple(slot.values or ()), slot.description, _subject(slot))
    if not forms:
        return {}
    words = _words(said)
    stems = {stem(word) for word in words if word.isalpha() and _number(word) is None}
    numbers = {n for word in words if (n := _number(word)) is not None}
    best: dict[str, tuple[int, float, frozenset[int]]] = {}
    for value, wanted, counts in forms:
        if not counts <= numbers:
            continue  # "a two-bedroom flat" is not told by "a 3 bed flat"
        found = len(counts) + sum(_stands_for(stems, word) for word in wanted)
        size = len(counts) + len(wanted)
        if found >= MIN_WORDS and 2 * found >= size:
            best[value] = max(best.get(value, (0, 0.0, frozenset())), (found, found / size, counts))
    return best


def _rank(reading: tuple[int, float, frozenset[int]]) -> tuple[bool, int, float]:
    """A value's reading as :func:`partly_said` ranks it: a form said whole, most words said, the greatest share."""
    return reading[1] == 1.0, reading[0], reading[1]


def _tied(readings: dict[str, tuple[int, float, frozenset[int]]]) -> bool:
    """Do two values share the best reading (each told by two words or more: :func:`told` keeps no fewer)?"""
    ranked = sorted((_rank(reading) for reading in readings.values()), reverse=True)
    return len(ranked) > 1 and ranked[0] == ranked[1]


def partly_said(
    slot: Slot, said: str, readings: dict[str, tuple[int, float, frozenset[int]]] | None = None
) -> tuple[str, frozenset[int]] | None:
    """The value of categorical ``slot`` most of one of whose forms ``said`` says (see the module docstring), and the
    numbers of that form (the "3" of "a 3 bed semi" is the value's word, no count), or None. ``said``: the message
    without its negated clauses."""
    # a form said whole first ("key snapped in the lock"), then the most words of one ("shut the door with the keys
    # inside": three of four), then the greatest share
    readings = told(slot, said) if readings is None else readings  # ``told``'s, when the caller has them
    if not readings or _tied(readings):
        return None
    value, (_, _, numbers) = max(readings.items(), key=lambda item: _rank(item[1]))
    return value, numbers


@lru_cache(maxsize=256)
def _lexicons(values: tuple[str, ...], description: str, subject: str) -> tuple[tuple[str, frozenset[str]], ...]:
    """(value, the stems of the content words of all its forms) for each value: its own name and every listed
    synonym, negated forms and numbers left out, as are the words naming the slot (``subject``) and a word in forms
    of every value."""
    named = {stem(word) for word in _words(subject)}
    lexicon: dict[str, set[str]] = {value: set() for value in values}
    for value, form in value_forms(values, description):
        if THING_NEGATION.search(form):
            continue
        lexicon[value].update(_content_stems(form))
    common = set.intersection(*lexicon.values()) if len(lexicon) > 1 else set()
    return tuple((value, frozenset(words - named - common)) for value, words in lexicon.items())


@lru_cache(maxsize=1024)
def _content_stems(form: str) -> frozenset[str]:
    """The stems of a form's content words of three letters or more (a value's own name: the words it counts twice)."""
    return frozenset(stem(word) for word in _words(form) if word not in NOT_NAMING and word.isalpha() and len(word) > 2)


def _subject(slot: Slot) -> str:
    """The words naming the slot itself (its name and label): no form needs them ("van" of "a box van")."""
    return f"{slot.name.replace('_', ' ')} {slot.label or ''}"


def told_across(
    slot: Slot, said: str, taken: Iterable[Any] = (), *, own_twice: bool = True, elsewhere: frozenset[str] = frozenset()
) -> str | None:
    """The value of categorical ``slot`` whose forms, together, ``said`` tells by two words or more, and more of them
    than any other value's ("the arm's snapped off my glasses" where glasses repair lists "loose arm" and "broken
    glasses", and an eye test only "new glasses": two words against one); a word of the value's own name counts two
    ("a cracked socket": sockets and switches, not a power fault listed as "burning smell from a socket"). None when
    no value has two, or two values have as many. The words of values read for other slots (``taken``: "the North"
    of an area, never a food's "north american") tell nothing, nor the stems ``elsewhere``: words of other slots'
    forms ("piano" of a piano's type's "grand piano" tells no job)."""
    lexicons = _lexicons(tuple(slot.values or ()), slot.description, _subject(slot))
    others = {stem(word) for value in taken if isinstance(value, str) for word in _words(value)} | elsewhere
    stems = {stem(word) for word in _words(said) if word.isalpha()} - others
    # a word of the value's own name counts twice: "a cracked socket" tells sockets and switches more than a power
    # fault listed as "burning smell from a socket"
    heard = [(value, words & stems) for value, words in lexicons]
    counts = sorted(
        ((len(hit) + own_twice * len(_content_stems(value) & hit), value) for value, hit in heard), reverse=True
    )
    if not counts or counts[0][0] < MIN_WORDS or (len(counts) > 1 and counts[1][0] == counts[0][0]):
        return None
    return counts[0][1]


def _forms_beside(slot: Slot, categorical: Iterable[tuple[Slot, Any, Any, Any]]) -> frozenset[str]:
    """The stems of the forms of the categorical slots beside ``slot``: their words tell no value of it ("piano" of
    a piano type's "grand piano" tells no job)."""
    return _other_forms(
        tuple((tuple(other.values or ()), other.description) for other, *_ in categorical if other is not slot)
    )


@lru_cache(maxsize=256)
def _other_forms(slots: tuple[tuple[tuple[str, ...], str], ...]) -> frozenset[str]:
    """The stems of the content words of every form of the given slots' values (their values and descriptions)."""
    return frozenset(
        word
        for values, description in slots
        for _, form in value_forms(tuple(values), description)
        for word in _content_stems(form)
    )


MORE_TOLD = 3
"""How many words of one form, said whole, outweigh a value read from fewer words (:func:`worded_values`)."""


def worded_values(
    categorical: Iterable[tuple[Slot, tuple[str, ...], bool, Any]],
    asked: Slot | None,
    said: str,
    whole: str,
    read: dict[str, Any],
    info: dict[str, Any] | None = None,
    counted: frozenset[str] = frozenset(),
) -> dict[str, str]:
    """The values said in other words than their own, of slots ``read`` has none for: the asked categorical slot's by
    a typo, its words in any order or an amount in a listed range (:func:`typo_value`, :func:`worded_value`,
    :func:`ranged_value`); the node's other categorical slots by an amount in a listed range ("he's in year 1", said
    while the subject is asked), or beside the asked slot's answer by every word of one of their forms ("our oven
    isn't heating properly"). Last, the asked slot's value most of one of its forms tells
    (:func:`~.described.partly_said`), or the value its forms together tell (:func:`told_across`; beside the asked
    slot's answer too, its own name counting once): a proposal, noted in ``info["meaning"]`` to be said back.
    ``counted``: the words naming the flow's numeric slots, which name no value by their stem."""
    found: dict[str, str] = {}
    categorical = tuple(categorical)
    doubted = info.get("doubt", ()) if info is not None else ()
    for slot, _, expected, _ in categorical:
        if slot.name in read or slot.name in doubted or not (slot is asked or expected):
            continue
        if slot is asked:
            value = (  # every word of a form said beats a typo ("gurgles" is no "gutters" beside a rainwater pipe)
                worded_value(slot, said, whole)
                or typo_value(slot, said)
                or ranged_value(slot, said)
                or stemmed_value(slot, said, counted)
            )
            readings = told(slot, said)
            doubts = [other for other, (n, share, _) in readings.items() if n >= MORE_TOLD and share == 1.0]
            if value is not None and any(other != value for other in doubts):
                # "it's a stove, it burns both wood and coal": three words of "stove for wood and coal" tell more
                # than "coal" of "coal fire" (its "fire" names the slot): the value is in doubt (three of four words
                # do not: "the key's snapped off in my lock and it's stuck inside" is a lock repair)
                value = None
            if value is None and info is not None and _tied(readings):
                # two values told as well ("wood burning stove", "stove for wood and coal"): the flow asks, and no
                # model or embedder guesses between them (a model chose the wood burner, and it was booked)
                info.setdefault("doubt", []).append(slot.name)
            if value is None and (proposed := partly_said(slot, said, readings)) is not None:
                value, numbers = proposed
                if info is not None:
                    info["meaning"] = {"kind": "value", "slot": slot.name, "option": value, "by": "words"}
                counts = [name for name, held in read.items() if type(held) is int and held in numbers]
                for name in counts:
                    del read[name]  # "a 3 bed semi": the 3 is the value's word, no number of weeks
            elif value is None and not readings:
                # no form told by most of its words, but the value's forms together by more words than any other's
                value = told_across(slot, said, read.values(), elsewhere=_forms_beside(slot, categorical))
                if value is not None and info is not None:
                    info["meaning"] = {"kind": "value", "slot": slot.name, "option": value, "by": "words"}
        else:
            value = ranged_value(slot, said)
            if value is None and asked is not None and asked.name in read:
                # beside the answer, the node's other slot told by every word of one of its forms ("our oven isn't
                # heating properly" at "which appliance?": the fault); never by most of one. Or, as a proposal said
                # back, by two words of its forms together, a word of its own name counting once ("dirty water left
                # in the bottom": not draining; "the wifi keeps dropping out" tells no drop off)
                value = worded_value(slot, said, whole)
                if value is None:
                    elsewhere = _forms_beside(slot, categorical)
                    value = told_across(slot, said, read.values(), own_twice=False, elsewhere=elsewhere)
                    if value is not None and info is not None:
                        info.setdefault("meaning", {"kind": "value", "slot": slot.name, "option": value, "by": "words"})
        if value is not None:
            found[slot.name] = value
    return found
