"""How STAR names things: the words of labels and API fields, what a label says it does,
and which ask feeds which input.

Plain English and STAR's label grammar, nothing task-specific: ``hotel_ask_date_from``
asks for a value, ``query_check`` queries the API, ``available``/``query_failure``
name a query's outcome, ``*_bye``/``goodbye_2`` end the conversation.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from .star_format import ApiField

STATUS_WORDS = {
    "success": "success",
    "succeeded": "success",
    "available": "success",
    "found": "success",
    "failure": "failure",
    "failed": "failure",
    "unavailable": "failure",
}
"""Condition tokens that name a query's outcome (matched on the token's last word)."""
ANSWER_TOKENS = {"yes": "yes", "no": "no"}
ANYTHING_ELSE = "anything_else"
PERSON_WORDS = {"customer", "user", "patient", "renter", "full", "guest", "client"}
"""Prefixes of API inputs that hold the user's own name (what STAR's ``ask_name`` asks)."""
CANNOT = re.compile(r"\b(can'?t|cannot|don'?t|missing|forg[eo]t|unknown|no)\b", re.I)
"""A token text saying the user cannot give something ("Can't remember account number or PIN")."""
GENERIC_WORDS = {"name", "number", "id", "type", "time"}
"""Words too common in slot names to tell which slot a sentence is about."""
STOP_WORDS = {"of", "the", "a", "an", "to", "for", "is", "ask", "inform"}

# Word-level synonyms between ask labels and API input names. Plain English,
# not task-specific: a label says "colour"/"destination", an API "Color"/"Arrival".
SYNONYMS: dict[str, set[str]] = {
    "colour": {"color"},
    "bedroom": {"room"},
    "floor": {"level"},
    "destination": {"arrival"},
    "departing": {"departure"},
    "from": {"start"},
    "to": {"end"},
    "starting": {"start"},
    "dob": {"date", "birth"},
    "price": {"cost"},
    "number": {"num", "id"},
    "num": {"number"},
    "location": {"city"},
    "needed": {"need"},
    "mode": {"mode"},
    "details": {"report"},
}


# ------------------------------------------------------------------ words


def words(name: str) -> list[str]:
    """``StartTimeHour`` / ``start_time_hour`` / ``Start Time`` -> ``['start', 'time', 'hour']``."""
    spaced = re.sub(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])", " ", name)
    return [w for w in re.split(r"[^A-Za-z0-9]+", spaced.lower()) if w]


def stem(word: str) -> str:
    """``cities`` -> ``city``, ``pets`` -> ``pet`` (``address`` stays)."""
    for suffix in ("ies", "s"):
        if word.endswith(suffix) and len(word) > 3 and not word.endswith("ss"):
            return word[: -len(suffix)] + ("y" if suffix == "ies" else "")
    return word


def bag(names: Iterable[str], synonyms: bool = False) -> set[str]:
    """The stemmed content words of ``names`` (with their synonyms when asked)."""
    out: set[str] = set()
    for name in names:
        for word in words(name):
            if word in STOP_WORDS:
                continue
            word = stem(word)
            out.add(word)
            if synonyms:
                out |= SYNONYMS.get(word, set())
    return out


def snake(name: str) -> str:
    return "_".join(words(name)) or "value"


def same_words(one: str, other: str) -> bool:
    """``average_rating`` and ``AverageRating`` name the same thing."""
    return "".join(words(one)) == "".join(words(other))


def ident(token: str) -> str:
    """A condition token as a predicate name (``Info missing`` -> ``Info_missing``)."""
    name = re.sub(r"\W+", "_", token).strip("_") or "token"
    return name if not name[0].isdigit() else "t_" + name


# ------------------------------------------------------------------ labels


def is_ask_label(label: str) -> bool:
    """``hotel_ask_date_from`` asks for a value; ``trivia_inform_answer_2_ask_next`` informs (and asks on)."""
    parts = label.split("_")
    return "ask" in parts and "inform" not in parts


def slot_part(label: str) -> str:
    """What an ask label asks for: ``hotel_ask_date_from`` -> ``date_from``."""
    parts = label.split("_")
    rest = parts[parts.index("ask") + 1 :] if "ask" in parts else parts
    return "_".join(rest) or label


def asks_back(label: str) -> bool:
    """An inform that ends in a yes/no question (``*_confirm_*``, ``*_inform_..._ask_next``)."""
    parts = label.split("_")
    return "confirm" in parts or ("inform" in parts and "ask" in parts)


def status_of(token: str) -> str | None:
    """``query_success``/``available`` -> ``success``, ``unavailable`` -> ``failure``; None for other tokens."""
    return STATUS_WORDS.get(token.lower().split("_")[-1])


def status_stem(token: str) -> str:
    """What a status token is about: ``query`` for ``query_failure``; ``available`` for ``(un)available``."""
    parts = token.lower().split("_")
    return "_".join(parts[:-1]) if len(parts) > 1 else "available"


def is_query(label: str, reply: str) -> bool:
    return (
        label == "query"
        or label.startswith("query_")
        and not status_of(label)
        or reply.strip().lower().startswith("query")
    )


def is_bye(label: str) -> bool:
    return bool(re.search(r"(^|_)(bye|goodbye(_\d+)?)$", label)) or label.startswith("goodbye")


def bye_label(replies: dict[str, str], responses: dict[str, str] | None) -> str | None:
    """The schema's goodbye label (from its replies, else from the wizard's responses)."""
    names = [k for k in replies if is_bye(k)] or [k for k in responses or {} if is_bye(k)]
    return names[0] if names else None


# ------------------------------------------------------------------ asks and API inputs


@dataclass(frozen=True)
class Ask:
    """An ask label: the slot it fills, its question, and the API input it feeds (if any)."""

    label: str
    slot: str
    text: str
    input: str | None = None
    asked: bool = True
    """False: no label asks for this API input; the slot is named after the input (``label`` is ``<Input>``)."""


def match_inputs(asks: list[Ask], inputs: list[ApiField], domain: set[str]) -> dict[str, str]:
    """Ask label -> API input, by name overlap; each input used once, best scores first.

    ``domain`` holds the task's own words (``hotel``): an ask naming it feeds the API's
    main entity input (``Name``)."""
    candidates: list[tuple[float, int, int, str, str]] = []
    for i, ask in enumerate(asks):
        for j, spec in enumerate(inputs):
            score = _match_score(ask.slot, spec, domain)
            if score > 0.5:
                candidates.append((score, -i, -j, ask.label, spec.name))
    out: dict[str, str] = {}
    used: set[str] = set()
    for _score, _i, _j, label, name in sorted(candidates, reverse=True):
        if label not in out and name not in used:
            out[label] = name
            used.add(name)
    return out


def _match_score(slot: str, spec: ApiField, domain: set[str]) -> float:
    label_words, plain = bag([slot], synonyms=True), bag([slot])
    input_words = bag([spec.name, spec.readable_name])
    common = label_words & input_words
    entity = spec.name == "Name"  # the API's main entity (hotel, doctor, venue ...)
    if plain == {"name"}:  # STAR's ask_name: the user's own name
        person = input_words & PERSON_WORDS
        if entity:
            return 0.0
        if person and "name" in input_words:
            return 2.5 - 0.1 * len(input_words - {"name"} - person)
        return 0.9 if "name" in input_words else 0.0
    if common <= {"name"} and not entity:
        return 0.0  # "maiden name" is not "BankName"
    score = float(len(common)) - 0.1 * len(input_words - label_words)
    if entity and plain & (domain | bag(str(v) for v in spec.categories or () if isinstance(v, str))):
        score += 1.5
    return score
