"""Categorical values in a reply, for the rules understander: where a value is written (whole, in the plural, by
the synonyms its slot's description lists, by its own words alone), the asked slot's value a typo is of, and the one
whose words a clause says in its own order and forms ("I want the locks changed": lock change).

Pure functions of the values and the text, cached; :mod:`fsmdial.understand.rules` reads the slots with them.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache
from typing import Any

import snowballstemmer

from ...flow import Slot, SlotType, fold, value_key
from ...language import WORD_NUMBERS, normalize
from ...language.choices import closest_value, described_synonyms, plural_tolerant
from ...language.clauses import NEGATION, clauses
from ...language.measures import Bound, amounts_said, bound_said
from ...language.numbers import words_to_digits as words_in_digits
from ...language.text import FUNCTION_WORDS, OPPOSITE_OF


@lru_cache(maxsize=1024)
def value_pattern(value: str, plural: bool = True) -> re.Pattern[str]:
    """Where a categorical value is written in a reply: its :func:`~fsmdial.flow.value_key` words, in
    any case, joined by spaces, hyphens or underscores; its punctuation kept (``O-`` is not ``O+``)."""
    keyed = value_key(value).split()
    words = [re.escape(w) for w in keyed]
    if words and plural:  # "dogs", "guinea pigs", "boxes"
        words[-1] = plural_tolerant(keyed[-1])
        if len(keyed) > 2 and keyed[1] == "of":  # "chests of drawers", "cups of tea": the head noun's plural
            words[0] = plural_tolerant(keyed[0])
    # An underscore joins the words of a value, so it is no part of a word at the edges either: "_n/a+" is read
    # whole, not as the "a+" inside it.
    # "the windows and the frames", "just the once": an article said inside a value of several words
    return re.compile(r"(?<![^\W_])" + r"[\s\-_]*(?:(?:the|a|an)\s+)?".join(words) + r"(?![^\W_])", re.I)


@lru_cache(maxsize=1024)
def short_names(values: tuple[str, ...]) -> tuple[tuple[str, re.Pattern[str]], ...]:
    """Values of several words a user may name by their own words alone: "the hilton" for "Hilton
    Hotel" when the slot also has "Hyatt Hotel" (the words no other value of the slot has, next to
    each other in the value, one of them a real word of four letters or more)."""
    keyed = {value: value_key(value).split() for value in values}
    # Words are compared without their punctuation: "york" is not "+new york_"'s own word beside "_new york+".
    bare = lambda word: re.sub(r"\W", "", word)  # noqa: E731
    shared = Counter(bare(word) for words in keyed.values() for word in set(words))
    out = []
    for value, words in keyed.items():
        own = [i for i, word in enumerate(words) if shared[bare(word)] == 1 and word not in FUNCTION_WORDS]
        if not own or len(own) == len(words) or own != list(range(own[0], own[-1] + 1)):
            continue
        if all(words[i].isalpha() for i in own) and any(len(words[i]) >= 4 for i in own):
            out.append((value, value_pattern(" ".join(words[i] for i in own), plural=False)))
    return tuple(out)


def own_word_value(values: tuple[str, ...], text: str, naming: frozenset[str] = frozenset()) -> str | None:
    """The one value ``text`` names by a word of its own, no other value's (four letters or more, a plural too; none
    of the ``naming`` words, which name the slot: "cake" of "carrot cake" in a cake slot): "the wallpaper one" for
    "wallpaper stripper" beside "floor sander"; None when it names none or several. For the words of a change ("not
    the wallpaper one"), where the value is known to be one of the slot's."""
    keyed = {value: set(re.findall(r"[a-z]+", value_key(value))) for value in values}
    shared = Counter(word for words in keyed.values() for word in words)
    said = {word.removesuffix("s") for word in re.findall(r"[a-z]+", fold(text))}
    named = [
        value
        for value, words in keyed.items()
        if any(
            shared[word] == 1
            and len(word) >= 4
            and word not in FUNCTION_WORDS
            and word not in naming
            and word.removesuffix("s") in said
            for word in words
        )
    ]
    return named[0] if len(named) == 1 else None


_COUPLE_OF = re.compile(r"(?<![\w'])(?:a\s+)?couple\s+of(?![\w'])", re.I)
""""every couple of months" says what "every two months" says: a value's synonym with a number is named by it."""
_WITHOUT = re.compile(r"(?<![^\W_])without(?:\s+(?:a|an|any|the))?(?![^\W_])", re.I)
""""without a clutch" says what "no clutch" says: a value described as "no X" is named by it, and the value described
as "with X" is not (it was: "one without a clutch please" booked a manual car)."""


def question_words(asked: Slot | None) -> str:
    """The folded words of the question ``asked`` (its ask and description) that :func:`echoes_question` looks for:
    only a yes/no or free-text one's (a categorical question's words are its values' own)."""
    if asked is None or asked.type is SlotType.categorical:
        return ""
    return fold(f"{asked.ask or ''} {asked.description or ''}")


def echoes_question(value: str, aliases: Sequence[tuple[str, re.Pattern[str]]], folded: str, question: str) -> bool:
    """Is ``value`` said in the folded message ``folded`` only by synonyms the question asked says too (``question``:
    :func:`question_words`; "yeah there's a gate down the side" to "Can the surveyor get in by a side gate?": "gate"
    answers it, and is no fencing job)? Never when the value is said by its own name."""
    if not question or value_pattern(value).search(folded):
        return False
    said = [pattern for named, pattern in aliases if named == value and pattern.search(folded)]
    return bool(said) and all(pattern.search(question) for pattern in said)


def found_value(
    values: Sequence[str],
    text: str,
    aliases: Sequence[tuple[str, re.Pattern[str]]] = (),
    claimed: Sequence[tuple[int, int]] = (),
    asked: bool = True,
) -> str | None:
    """The one categorical value written in ``text``, or None when there is none or doubt.

    A value written inside a longer one is not counted (``O`` in ``O-``, ``C`` in ``C++``); of
    values found at the same place, one written exactly as its :func:`~fsmdial.flow.value_key`
    wins (``ab`` over ``a b`` for "ab"); several values named where the slot has one value for several of them
    (:func:`aggregate_value`) are that value; any other doubt gives None. "a couple of" is read as "two" (a synonym
    "every two months"). Where no value is written
    whole, one named by its own words alone counts, if only one is (:func:`short_names`) and those words are
    not ``claimed`` (spans another slot's value is written whole in: "north" is an area, not "north american"), and,
    for a slot not ``asked``, not a number word alone ("three" for "three storey house" is a digit of a phone number,
    a count or an hour as often).
    The patterns are of folded values, so they are searched in the folded text (:func:`~fsmdial.flow.fold`; spans
    are of it).
    """
    text = _WITHOUT.sub(lambda said: "no".ljust(len(said.group())), fold(text))  # same length: spans stay put
    if "couple" in text:
        text = _COUPLE_OF.sub(lambda said: "two".ljust(len(said.group())), text)
    hits = [(value, found) for value in values if (found := value_pattern(value).search(text))]
    hits += [(value, found) for value, pattern in aliases if (found := pattern.search(text))]
    # "a space off the road", "non-slip": the word after "off" or "non" is its opposite, no value; "let me check": a
    # verb
    hits = [
        (value, found)
        for value, found in hits
        if not (_OFF_BEFORE.search(text, 0, found.start()) or _DOING.search(text, 0, found.start()))
    ]
    if not hits:
        named = [
            value
            for value, pattern in short_names(tuple(values))
            if (found := pattern.search(text)) is not None
            and (asked or found.group().casefold() not in WORD_NUMBERS)
            and not any(start < found.end() and found.start() < end for start, end in claimed)
            and not _DOING.search(text, 0, found.start())
            and not _SUBJECT_OF_VERB.match(text, found.end())
        ]
        return named[0] if len(named) == 1 else None
    if len(hits) > 1:
        spans = [found.span() for _, found in hits]
        hits = [
            (value, found)
            for value, found in hits
            if not any(s[0] <= found.start() and found.end() <= s[1] and s != found.span() for s in spans)
        ]
    if len({value for value, _ in hits}) > 1:
        # "a bedroom set, bed frame, wardrobe and two bedside tables", "both please, sauna and tub": several of the
        # slot's values named together are its value for several of them, when it has one (and no "or" offers a choice)
        whole = aggregate_value(tuple(values))
        if whole is not None and not _NOT_TOGETHER.search(text):
            return whole
        if _listed_together(text, hits):
            return None  # "new lawn, patio, borders, the works": several named as one list, none chosen (asked)
        hits = [(value, found) for value, found in hits if value_key(found.group()) == value_key(value)]
    distinct = {value for value, _ in hits}
    return distinct.pop() if len(distinct) == 1 else None


_LIST_JOIN = re.compile(r"\s*(?:,|&|\+|\band\b|\bplus\b)\s*(?:(?:a|an|the|some|new)\s+)?", re.I)


def listed_values(values: Sequence[str], text: str, aliases: Sequence[tuple[str, re.Pattern[str]]] = ()) -> bool:
    """Does ``text`` name two values of a slot (by their names or synonyms) next to each other in a list ("new lawn,
    patio, borders, the works")? Then none is chosen, and no other reader guesses one: the flow asks."""
    folded = fold(text)
    hits = [(value, found) for value in values if (found := value_pattern(value).search(folded))]
    hits += [(value, found) for value, pattern in aliases if (found := pattern.search(folded))]
    return len({value for value, _ in hits}) > 1 and _listed_together(folded, hits)


def _listed_together(text: str, hits: Sequence[tuple[str, re.Match[str]]]) -> bool:
    """Are two of the values found (``hits``) next to each other in a list ("new lawn, patio")?"""
    ordered = sorted(hits, key=lambda hit: hit[1].start())
    return any(
        first != second and _LIST_JOIN.fullmatch(text, one.end(), two.start()) is not None
        for (first, one), (second, two) in zip(ordered, ordered[1:], strict=False)
    )


_OFF_BEFORE = re.compile(OPPOSITE_OF + "$", re.I)
_DOING = re.compile(r"(?<![\w'])let\s+me\s+(?:just\s+|quickly\s+|double\s+)?$", re.I)
"""Words before a value's word that make it a verb ("let me check", "let me just check with her"); not "I'll", whose
verb is often the choice ("I'll bring it in", "I'll collect")."""


_SUBJECT_OF_VERB = re.compile(
    r"(?:'s|\s+(?:is|was))\s+(?!(?:the|a|an|my|our|your|their|where|what|fine|good|great|perfect|ok|okay)\b)"
    r"|\s+(?:has|had|keeps|kept|won'?t|isn'?t|wasn'?t|doesn'?t|didn'?t|went|goes|gone|got|gets|looks|seems|smells|"
    r"turned|started|stopped)\b",
    re.I,
)
"""After a value's own word, a verb it is the subject of ("the water's gone stone cold", "the water is green"): the
thing described, no value named by that word alone (the value's forms may still tell it); "North Heights is the
location" names it."""


_SEVERAL = frozenset({"several", "multiple", "various", "mixed", "mix", "assorted", "combination", "combo", "both"})
_NOT_TOGETHER = re.compile(
    r"(?<![^\W_])(?:or|either|whichever|not|without|instead|rather|than|change|swap|actually)(?![^\W_])", re.I
)
"""Words that set two named values against each other (a choice, a change, a refusal), not together."""


@lru_cache(maxsize=256)
def aggregate_value(values: tuple[str, ...]) -> str | None:
    """The one value of a slot that stands for several of its others: its own words say so ("several items",
    "mixed load") or join two other values ("sauna and hot tub"); None when the slot has none or more than one."""
    keys = {value: value_key(value) for value in values}
    found = []
    for value, key in keys.items():
        words = set(re.findall(r"\w+", key))
        joined = sum(1 for other, other_key in keys.items() if other != value and value_pattern(other).search(key))
        if words & _SEVERAL or joined >= 2:
            found.append(value)
    return found[0] if len(found) == 1 else None


def named_value(slot: Slot, text: str) -> str | None:
    """The one value of categorical ``slot`` ``text`` names by its own words or a described synonym
    (:func:`found_value` with the slot's :func:`alias_patterns`), or None."""
    values = tuple(slot.values or ())
    return found_value(values, text, alias_patterns(values, slot.description))


@lru_cache(maxsize=256)
def alias_patterns(values: tuple[str, ...], description: str) -> tuple[tuple[str, re.Pattern[str]], ...]:
    """The synonyms a categorical slot's description gives its values, as patterns (plurals too); a synonym that
    restricts ("inside only") also as customers say it, "just the inside", "only the inside"."""
    out = []
    for value, words in described_synonyms(values, description):
        for word in words:
            out.append((value, value_pattern(word)))
            if (only := _RESTRICTED.fullmatch(word)) is not None:
                core = value_pattern(only.group("core") or only.group("core_first")).pattern
                out.append((value, re.compile(rf"(?<![\w'])(?:just|only)\s+(?:the\s+|my\s+|its\s+)?{core}", re.I)))
    return tuple(out)


_RESTRICTED = re.compile(r"only\s+(?P<core>[\w'\- ]+)|(?P<core_first>[\w'\- ]+?)\s+only", re.I)
"""A synonym that restricts ("inside only", "only exterior"): its core said after "just" or "only" is that value."""


def typo_value(slot: Slot, text: str) -> str | None:
    """The value of the asked categorical slot a word of ``text`` is a typo of ("rabit", "guinae pig")."""
    forms = {value.casefold(): value for value in slot.values or ()}
    forms.update(
        {
            word: value
            for value, words in described_synonyms(tuple(slot.values or ()), slot.description)
            for word in words
        }
    )
    words = [w for w in normalize(text).split() if w not in FUNCTION_WORDS]
    return closest_value(words, forms) or _clipped_value(words, forms)


def _clipped_value(words: Sequence[str], forms: Mapping[str, str]) -> str | None:
    """The one value a word is the clipped start of ("mani" for manicure, "pedi" for pedicure): four or five letters
    that begin a form of one word, at least eight letters long, of one value only, and end in a vowel as clipped words
    do ("limo", "reno"), no "down" of "downpipe"."""
    found = {
        value
        for word in words
        if 4 <= len(word) <= 5 and word.isalpha() and word[-1] in "aiouy"
        for form, value in forms.items()
        if " " not in form and len(form) >= 8 and form.startswith(word)
    }
    return found.pop() if len(found) == 1 else None


def settled_value(values: Sequence[str], text: str) -> str | None:
    """The categorical value ``text`` is, beyond doubt: the one with its :func:`~fsmdial.flow.value_key`,
    else the one it names once punctuation is dropped, if that value has none that counts."""
    key = value_key(text.strip())
    for value in values:
        if value_key(value) == key:
            return value  # keys are unique within a slot (flow validation)
    norm = normalize(text)
    same = [value for value in values if normalize(value) == norm]
    if len(same) == 1 and value_key(same[0]) == norm:
        return same[0]
    return None


def more_specific(slot: Slot, hit: str, text: str) -> str | None:
    """Another value of categorical ``slot`` that a synonym of more words says where ``hit`` was found by a synonym of
    one: "film our podcast" says "filmed podcast" (video), whose word "podcast" alone is the audio podcast. Where
    ``hit`` is written whole, the value a word right before it names when one of that value's forms ends in ``hit``
    ("a shellac manicure" is gel polish, whose forms list shellac and "gel manicure"). None when no such synonym is
    said."""
    folded = fold(text)
    if (whole := value_pattern(hit).search(folded)) is not None:
        return _compound(slot, hit, folded, whole.start())
    values = tuple(slot.values or ())
    found = [
        match
        for value, pattern in alias_patterns(values, slot.description)
        if value == hit
        if (match := pattern.search(folded)) is not None
    ]
    if len(found) != 1 or len(by := found[0].group().split()) != 1:
        return None  # found by no synonym of one word: nothing more specific to look for
    other = worded_value(slot, text)
    if other is None or other == hit:
        return None
    word = stem(by[0].casefold())
    forms = _worded_forms(values, slot.description or "", slot.name, slot.label or "")
    return other if any(value == other and word in wanted for value, wanted, _ in forms) else None


_NUMBER_WORD = re.compile(
    r"\d+|\b(?:" + "|".join(sorted(map(re.escape, WORD_NUMBERS), key=len, reverse=True)) + r")s?\b"
)


def without_numbers(found: re.Match[str]) -> str:
    """A categorical value as written, without the numbers in it or the "one" after it ("four cheese" -> "cheese",
    "mixed one" -> "mixed"): its other words stay, to name a number beside it ("3 fruit boxes")."""
    return " " + _NUMBER_WORD.sub(" ", found.group()) + " "


def _compound(slot: Slot, hit: str, folded: str, start: int) -> str | None:
    before = folded[:start].rstrip()
    if len(before) == start:
        return None  # not right after another word
    values = tuple(slot.values or ())
    named = {
        value
        for value, pattern in alias_patterns(values, slot.description)
        if value != hit and (found := pattern.search(before)) is not None and found.end() == len(before)
    }
    ends = [
        value
        for value in named
        if any(v == value and fold(f).endswith(" " + fold(hit)) for v, f in value_forms(values, slot.description))
    ]
    return ends[0] if len(ends) == 1 else None


def inside_longer(value: str, folded: str, claimed: Sequence[tuple[int, int]]) -> bool:
    """Is ``value`` written only inside a longer value of another slot ("north" in "north american food")?"""
    found = value_pattern(value).search(folded)
    return found is not None and any(
        start <= found.start() and found.end() <= end and (start, end) != found.span() for start, end in claimed
    )


def distinctive(value: str, shortest: int = 4) -> bool:
    """Can a categorical value found in passing be no ordinary word? ``shortest``: its fewest letters (3 where every
    slot is held, at a confirmation or "what would you like to change?": "a van" there is a change)."""
    return len(value) >= shortest and value.casefold() not in {"none", "other", "any", "yes", "no", "true", "false"}


def value_owners(slots: Sequence[Slot], asked: Slot | None, text: str) -> Sequence[Slot]:
    """Of the slots a categorical value said once is a value of (``account_type`` and ``recipient_account_type`` both
    have "savings"), the one it is for: the asked one; else the one whose own name words the reply says ("the
    recipient's savings account"); else the one named by no word of its own (the plain ``account_type``). When none
    of these settles it, every slot still takes it."""
    if len(slots) < 2:
        return slots
    if asked is not None and asked in slots:
        return [asked]
    names = {slot.name: set(re.split(r"[_\W]+", slot.name.casefold())) - {""} for slot in slots}
    own = {
        name: words - set().union(*(other for key, other in names.items() if key != name))
        for name, words in names.items()
    }
    said = set(re.findall(r"[a-z]+", text.casefold()))
    named = [slot for slot in slots if own[slot.name] & said]
    if len(named) == 1:
        return named
    plain = [slot for slot in slots if not own[slot.name]]
    return plain if len(plain) == 1 and not named else slots


_STEMMER = snowballstemmer.stemmer("english")
_LIGHT_WORDS = frozenset("get got gets getting go goes gone going went have has having take took put keep kept".split())
"""Verbs too light to name a value: "can't get in" is no reading of its own ("I can't get the key out")."""
_WORDED_SLACK = 6
"""How many other words may stand among a form's own words in a clause ("the handle on my front door has gone all
floppy": handle gone floppy)."""
_NAMING_FUNCTION_WORDS = frozenset({"change", "changed", "over", "under", "before", "after", "around", "inside"})
"""Function words (:data:`~fsmdial.language.text.FUNCTION_WORDS`) that are a value's own words ("lock change")."""


NOT_NAMING = (FUNCTION_WORDS - _NAMING_FUNCTION_WORDS) | _LIGHT_WORDS


def _stems(words: Sequence[str], starts: frozenset[str] | None = None) -> list[str]:
    """The English stem of each word; with ``starts``, only of the words beginning with one of them (the others are
    left as they are: they can stem to no form's stem, and a long reply's words are not all stemmed)."""
    folded = [w.casefold().replace("\u2019", "'").removesuffix("'s") for w in words]
    return [stem(w) if starts is None or w[:3] in starts else w for w in folded]


@lru_cache(maxsize=4096)
def stem(word: str) -> str:
    return str(_STEMMER.stemWord(word))


THING_NEGATION = re.compile(r"\b(?:no|not|never|none|nothing|without)\b|n[\'\u2019]t\b", re.I)
"""A negation of a thing as well as of a verb ("no hot water", "won't lock"): wider than the clauses' own
:data:`~fsmdial.language.clauses.NEGATION`, which negates what follows a verb."""


_HYPHEN = re.compile(r"(?<=\w)-(?=\w)")


@lru_cache(maxsize=256)
def value_forms(values: tuple[str, ...], description: str) -> tuple[tuple[str, str], ...]:
    """(value, form) for each value's own name and each synonym its slot's description lists: what the readers of
    worded, described and stemmed values read a value by."""
    synonyms = described_synonyms(values, description)
    forms = [*((value, value) for value in values), *((value, form) for value, said in synonyms for form in said)]
    # a hyphenated word written joined is the same form ("multifuel" for "multi-fuel stove", "ebike" for "e-bike")
    joined = [(value, _HYPHEN.sub("", form)) for value, form in forms if _HYPHEN.search(form)]
    return tuple(dict.fromkeys([*forms, *joined]))


@lru_cache(maxsize=256)
def _worded_forms(
    values: tuple[str, ...], description: str, name: str, label: str
) -> tuple[tuple[str, frozenset[str], bool], ...]:
    """(value, the stems of its content words, whether it is negated) for each value and described synonym of a
    slot (its ``values``, ``description``, ``name`` and ``label``) of two content words or more (a form of one word
    is read by :func:`found_value` where it is written, in the plural, or mistyped). The words naming the slot itself
    are not needed ("boat with an engine": "anything with an engine"), nor, in a synonym, the last word two
    values' names end with ("house" of "two storey house" and "three storey house": "detached house" is said by
    "detached"; "north american" still needs "american" beside "south american"), but a
    form of them and one word more still counts as two. A negated form ("no hot water") is said only by a clause
    with a negation."""
    subject = frozenset(_stems(re.findall(r"[a-z]+", f"{name.replace('_', ' ')} {label}".casefold())))
    heads = Counter(said[-1] for value in values if (said := _stems(re.findall(r"[a-z]+", value.casefold()))))
    shared = {stem for stem, count in heads.items() if count > 1}  # the last word two values' names end with
    out = []
    for value, form in value_forms(values, description):
        negated = bool(THING_NEGATION.search(form))
        content = [w for w in re.findall(r"[\w']+", form.casefold()) if w not in NOT_NAMING]
        if negated:  # "won't drain", "not heating up": the negation is the clause's condition, the rest its words
            content = [w for w in content if not THING_NEGATION.search(w) and w not in _PARTICLES]
        if len(content) >= 2 or (negated and len(content) == 1 and len(content[0]) >= 3):
            stems = frozenset(_stems(content))
            # a synonym needs no shared last word ("detached house"); a value's own name does ("north american")
            unneeded = subject | shared if form.casefold() != value.casefold() else subject
            out.append((value, stems - unneeded or stems, negated, stems))
    # one word left of a form ("games" of "a games table" in a slot named table) that another value's forms say too
    # ("a games host"): not the value's alone; the whole form is needed
    others = {(value, word) for value, _, _, stems in out for word in stems}
    return tuple(
        (
            value,
            stems if len(kept) == 1 and any((v, w) in others for v in values if v != value for w in kept) else kept,
            negated,
        )
        for value, kept, negated, stems in out
    )


_PARTICLES = frozenset("up out down off over".split())
"""The particle of a negated form's verb ("not heating up", "not pumping out"): "isn't heating" says it too."""


def worded_value(slot: Slot, said: str, whole: str | None = None) -> str | None:
    """The value of the asked categorical slot whose words, or a described synonym's, one clause of ``said`` says in
    any order and form, close together ("I want the locks changed": "lock change"; "the key's snapped off in my door
    lock": "key snapped in the lock"); a negated form ("door won't lock") by a clause of ``whole`` (the message with
    its negated clauses, which ``said`` leaves out) with a negation. None when none does, or forms of two values do."""
    forms = _worded_forms(tuple(slot.values or ()), slot.description, slot.name, slot.label or "")
    if not forms:
        return None
    starts = frozenset(word[:3] for _, wanted, _ in forms for word in wanted)
    found: set[tuple[str, int]] = set()
    said, whole = _COUPLE_OF.sub("two", said), _COUPLE_OF.sub("two", whole) if whole is not None else None
    for text, negative in ((said, False), (whole if whole is not None else said, True)):
        for clause in clauses(text):
            if negative and not THING_NEGATION.search(clause):
                continue
            stems = _stems(re.findall(r"[\w']+", clause), starts)
            where: dict[str, list[int]] = {}  # each stem's places: a form's words are looked up, not searched for
            for i, word in enumerate(stems):
                where.setdefault(word, []).append(i)
            for value, wanted, negated in forms:
                if negated is not negative or not wanted <= where.keys():
                    continue
                places = sorted(i for word in wanted for i in where[word])
                if _close(places, stems, wanted):
                    found.add((value, len(wanted)))
    # the form of most words said wins ("my downpipe's blocked": "blocked downpipe" over "blocked" of "blocked gutters")
    most = max((size for _, size in found), default=0)
    values = {value for value, size in found if size == most}
    return values.pop() if len(values) == 1 else None


def _close(places: list[int], stems: list[str], wanted: frozenset[str]) -> bool:
    """Do the form's words stand within a few words of each other (some occurrence of each)?"""
    for start in places:
        window = {stems[i] for i in places if start <= i <= start + len(wanted) + _WORDED_SLACK}
        if window == wanted:
            return True
    return False


def said_negatively(
    slot_of: Callable[[str], Slot | None], negated: Mapping[str, Any], ruled_out: str
) -> dict[str, Any]:
    """The categorical values of ``negated`` (read from ``ruled_out``, the clauses with a "not") whose own words hold
    the negation: "my washing machine won't drain" says the fault "not draining" (a synonym "won't drain"), it rules
    nothing out. A value without a negation of its own stays ruled out ("it's not leaking")."""
    text = fold(ruled_out).replace("\u2019", "'")
    said = {}
    for name, value in negated.items():
        slot = slot_of(name)
        if slot is None or not slot.values or value not in slot.values:
            continue
        forms = (str(value), *dict(described_synonyms(tuple(slot.values), slot.description)).get(value, ()))
        if any(NEGATION.search(form) and re.search(rf"(?<!\w){re.escape(fold(form))}(?!\w)", text) for form in forms):
            said[name] = value
    return said


_PREFIXES = "year|grade|age|size|level|key stage|ks"
_PREFIX_RANGE = re.compile(
    rf"^(?P<unit>{_PREFIXES})s?\s*(?P<low>\d+)(?:\s*(?:to|-|–)\s*(?:(?:{_PREFIXES})s?\s*)?(?P<high>\d+))?$"
)
_PREFIX_AMOUNT = re.compile(rf"(?<![\w'])(?P<unit>{_PREFIXES})\s*(?P<number>\d+)(?![\w.])", re.I)
"""A number after its unit, as a school year or a size is said ("year 1 to year 6", "he's in year 4", "KS2")."""


def ranged_value(slot: Slot, text: str) -> str | None:
    """The value whose listed range holds the amount ``text`` says, in the range's unit ("she's about 8 kilos" with
    "small: under 10 kg; medium: 10 to 25 kg"; "he's in year 4" with "primary: year 1 to year 6"): one amount, one
    value, or None. Units and bounds: :mod:`fsmdial.language.measures`."""
    ranges = _listed_ranges(tuple(slot.values or ()), slot.description)
    if not ranges:
        return None
    digits = words_in_digits(text)
    said = amounts_said(digits)
    said += [(float(m.group("number")), m.group("unit").casefold() + "#") for m in _PREFIX_AMOUNT.finditer(digits)]
    if len(said) != 1 or len(re.findall(r"\d+(?:\.\d+)?", digits)) != 1:
        return None  # "between 8 and 30 kilos": no one amount
    amount, unit = said[0]
    fitting = {value for value, bound in ranges if bound.holds(amount, unit)}
    return fitting.pop() if len(fitting) == 1 else None


@lru_cache(maxsize=256)
def _listed_ranges(values: tuple[str, ...], description: str) -> tuple[tuple[str, Bound], ...]:
    """(value, the bound it holds) of each range a value's synonyms list ("under 10 kg", "year 1 to year 6"; a
    prefixed unit such as "year" ends in "#"), read once per slot."""
    ranges: list[tuple[str, Bound]] = []
    for value, words in described_synonyms(values, description):
        for word in (part for said in words for part in re.split(r"\s+(?:or|and)\s+", said)):  # "year 8 or year 9"
            if (prefixed := _PREFIX_RANGE.match(word)) is not None:
                low = float(prefixed.group("low"))
                high = float(prefixed.group("high")) if prefixed.group("high") else low
                ranges.append((value, Bound(prefixed.group("unit") + "#", low, high)))
            elif (bound := bound_said(word, whole=True)) is not None:
                ranges.append((value, bound))
    return tuple(ranges)
