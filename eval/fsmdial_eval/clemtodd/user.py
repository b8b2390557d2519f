"""A goal-driven, agenda-based simulated user for clem:todd's MultiWOZ tasks.

What it reads, and nothing else: the task's goal (``domains``: ``info``,
``fail_info``, ``book``, ``fail_book``; and the ``message`` text only to know
in which order the goal mentions its domains), the task's ``corpususer``
utterances, and the bot's acts as a clem:todd user sees the system's turn:
each act's ``kind`` (ask, confirm, inform, ...), ``name`` (e.g.
``offer_restaurant``, ``nomatch_hotel``, ``booked_train``), the ``slot`` a
question asks for, and the words (``text``). It never looks into the engine's
state, slots or tool results.

The agenda, per domain in the order the goal mentions them:

1. Open the domain and volunteer the search constraints (``fail_info`` first
   when the goal has one: that is what the user asks for before hearing that
   nothing matches).
2. Answer what the bot asks from the goal; say "I have no departure time" when
   asked for one the goal does not have.
3. Check an offer against the constraints it said (from the bot's words);
   restate the ones the offer does not show.
4. When told nothing matches, switch to the goal's alternative (``info``).
5. Give the booking details (``fail_book`` values first, as the goal text
   says them), check the confirmation's words, say yes, or no with the right
   value.
6. Ask for the reference number if the booking message has none; then open the
   next domain, or say goodbye.

Utterances are templates drawn with a seeded ``random.Random``; where one of
the task's real MultiWOZ user utterances carries exactly the values about to
be said (by its dialogue acts) and names them verbatim, it is used instead
(each at most once). The same task and seed give the same conversation.
"""

from __future__ import annotations

import random
import re
import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

# Flow slot -> (part of the goal, key) per domain.
SLOT_GOAL: dict[str, dict[str, tuple[str, str]]] = {
    "restaurant": {
        "food": ("info", "food"),
        "restaurant_area": ("info", "area"),
        "restaurant_pricerange": ("info", "pricerange"),
        "restaurant_name": ("info", "name"),
        "people": ("book", "people"),
        "restaurant_day": ("book", "day"),
        "restaurant_time": ("book", "time"),
    },
    "hotel": {
        "hotel_area": ("info", "area"),
        "hotel_pricerange": ("info", "pricerange"),
        "hotel_type": ("info", "type"),
        "stars": ("info", "stars"),
        "parking": ("info", "parking"),
        "internet": ("info", "internet"),
        "hotel_name": ("info", "name"),
        "people": ("book", "people"),
        "hotel_day": ("book", "day"),
        "stay": ("book", "stay"),
    },
    "train": {
        "departure": ("info", "departure"),
        "destination": ("info", "destination"),
        "train_day": ("info", "day"),
        "leave_at": ("info", "leaveAt"),
        "arrive_by": ("info", "arriveBy"),
        "people": ("book", "people"),
    },
}
DOMAIN_WORDS = {
    "restaurant": ("restaurant", "place to dine", "place to eat", "somewhere to eat"),
    "hotel": ("place to stay", "hotel", "guesthouse", "guest house", "somewhere to stay"),
    "train": ("train",),
}
# Corpus act slot names -> goal keys (MultiWOZ writes book slots as bookpeople, times without case).
_CORPUS_KEYS = {
    "bookpeople": "people",
    "bookday": "day",
    "booktime": "time",
    "bookstay": "stay",
    "leaveat": "leaveAt",
    "arriveby": "arriveBy",
    "price": "pricerange",
}
_REFERENCE = re.compile(r"reference (?:number )?is:? ?([A-Z0-9]{6,})")
_TIME = re.compile(r"\b(\d{1,2}:\d{2})\b")
GOODBYES = (
    "Thank you, that's all I need. Goodbye!",
    "Great, thanks for your help. Bye!",
    "That's everything, thank you. Goodbye.",
    "Thanks, that will be all. Have a nice day!",
)
YES = ("Yes, please.", "Yes please, go ahead.", "Yes, that's right.", "Sure, please book it.", "Yes.")
OPENERS = {
    "restaurant": (
        "I'm looking for a restaurant",
        "I need a restaurant",
        "Can you help me find a restaurant",
        "I would like to find a restaurant",
    ),
    "hotel": (
        "I'm looking for a place to stay",
        "I need a place to stay",
        "Can you help me find a place to stay",
        "I would like to find somewhere to stay",
    ),
    "train": (
        "I'm looking for a train",
        "I need a train",
        "Can you help me find a train",
        "I would like to book a train",
    ),
}
SHORT_DOMAIN = {"restaurant": "A restaurant.", "hotel": "A place to stay.", "train": "A train."}
HOTEL_TYPE_OPENERS = ("I'm looking for a {v}", "I need a {v}", "Can you help me find a {v}")
MAX_RESTATES = 2
# What the user says when a no-match shows a constraint its goal does not have: (goal key, pattern, words).
_DONT_CARE = {
    "restaurant": (
        ("area", r"\bin the (?:centre|north|south|east|west)\b", "Any area is fine."),
        ("pricerange", r"\b(?:cheap|moderate|expensive)\b", "Any price range is fine."),
    ),
    "hotel": (
        ("area", r"\bin the (?:centre|north|south|east|west)\b", "Any area is fine."),
        ("pricerange", r"\b(?:cheap|moderate|expensive)\b", "Any price range is fine."),
        ("type", r"\b(?:hotel|guest ?house)\b", "Any type is fine."),
        ("stars", r"\b\d star\b", "Any star rating is fine."),
    ),
}


def phrase(domain: str, key: str, value: str, rng: random.Random) -> str:
    """How the user says one constraint or booking value (the flows' categorical phrases are in it)."""
    v = str(value)
    table: dict[str, Sequence[str]] = {
        "food": (f"serving {v} food", f"that serves {v} food", f"with {v} food"),
        "area": (f"in the {v}", f"in the {v} of town", f"located in the {v}"),
        "pricerange": (f"in the {v} price range", f"with a {v} price range"),
        "name": (f"called {v}", f"named {v}"),
        "type": (f"it should be a {v}", f"of the {v} type"),
        "stars": (f"rated {v} star", f"with a {v} star rating"),
        "parking": ("with free parking", "that has free parking") if v == "yes" else ("no parking needed",),
        "internet": ("with free wifi", "that has free wifi") if v == "yes" else ("no wifi needed",),
        "departure": (f"from {v}", f"leaving from {v}", f"departing from {v}"),
        "destination": (f"to {v}", f"going to {v}", f"heading to {v}"),
        "leaveAt": (f"leaving after {v}", f"that leaves after {v}"),
        "arriveBy": (f"arriving by {v}", f"that arrives by {v}"),
        "people": (f"for {v} people", f"for {v} people please") if v != "1" else ("for 1 person", "for just 1 person"),
        "stay": (f"for {v} nights", f"{v} nights"),
        "time": (f"at {v}",),
    }
    options: Sequence[str] = table.get(key, ())
    if key == "day":
        options = (
            (f"on {v}", f"for {v}") if not (domain == "hotel") else (f"from {v}", f"starting {v}", f"arriving {v}")
        )
    return rng.choice(list(options)) if options else v


@dataclass
class DomainAgenda:
    name: str
    constraints: dict[str, str]
    alternatives: dict[str, str]
    book: dict[str, str]
    book_alternatives: dict[str, str]
    phase: str = "new"  # new -> find -> book -> done
    reference: str | None = None
    restates: int = 0
    switched: bool = False
    wrong: dict[str, str] = field(default_factory=dict)


@dataclass
class SimulatedUser:
    """One task's user. Call :meth:`respond` with the bot's acts; ``done`` once it has said goodbye."""

    task: Mapping[str, Any]
    seed: int = 0
    corpus_rate: float = 0.5
    rng: random.Random = field(init=False)
    agenda: list[DomainAgenda] = field(init=False)
    corpus: list[dict[str, Any]] = field(init=False)
    done: bool = False
    said: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.rng = random.Random(zlib.crc32(f"{self.task.get('filename', '')}|{self.seed}".encode()))
        self.agenda = [self._domain(name, goal) for name, goal in self._ordered_domains()]
        self.corpus = [u for i, u in enumerate(self.task.get("corpususer", [])) if i % 2 == 0]

    # --------------------------------------------------------------- goal
    def _ordered_domains(self) -> list[tuple[str, Mapping[str, Any]]]:
        message = str(self.task.get("message", "")).lower()

        def first_mention(name: str) -> int:
            found = [message.find(word) for word in DOMAIN_WORDS.get(name, (name,)) if word in message]
            return min(found) if found else len(message)

        return sorted(self.task["domains"].items(), key=lambda item: first_mention(item[0]))

    @staticmethod
    def _domain(name: str, goal: Mapping[str, Any]) -> DomainAgenda:
        info = {k: str(v) for k, v in goal.get("info", {}).items()}
        fail_info = {k: str(v) for k, v in goal.get("fail_info", {}).items()}
        book = {k: str(v) for k, v in goal.get("book", {}).items() if k not in ("invalid", "pre_invalid")}
        fail_book = {k: str(v) for k, v in goal.get("fail_book", {}).items() if k not in ("invalid", "pre_invalid")}
        first = fail_info or info
        alternatives = {k: v for k, v in info.items() if first.get(k) != v}
        return DomainAgenda(
            name, dict(first), alternatives, {**book, **fail_book}, {k: book[k] for k in fail_book if k in book}
        )

    @property
    def current(self) -> DomainAgenda | None:
        return next((d for d in self.agenda if d.phase != "done"), None)

    # ----------------------------------------------------------- speaking
    def _say(self, text: str) -> str:
        self.said.append(text)
        return text

    def _corpus_for(self, domain: str, values: Mapping[str, str], *, opening: bool) -> tuple[str, set[str]] | None:
        """A real utterance of the task whose acts carry only values about to be said (and name them verbatim)."""
        if self.rng.random() >= self.corpus_rate:
            return None
        for utterance in self.corpus:
            text = str(utterance.get("utterance", "")).strip()
            acts = utterance.get("dialog_act", {})
            keys: set[str] = set()
            fits = bool(text) and bool(acts)
            for act, pairs in acts.items():
                act_domain, _, kind = act.partition("-")
                if act_domain.lower() == "general":
                    continue
                if act_domain.lower() != domain or kind != "Inform":
                    fits = False
                    break
                for slot, value in pairs:
                    key = _CORPUS_KEYS.get(slot.lower(), slot)
                    key = next((k for k in values if k.lower() == key.lower()), key)
                    if values.get(key) != str(value).lower() or str(value).lower() not in text.lower():
                        fits = False
                    keys.add(key)
            if opening and not any(word in text.lower() for word in DOMAIN_WORDS[domain]):
                fits = False
            if fits and keys:
                self.corpus.remove(utterance)
                return text, keys
        return None

    def _values_sentence(
        self, domain: str, values: Mapping[str, str], *, opening: bool = False, prefix: str = "", corpus: bool = True
    ) -> str:
        """Say ``values`` (a corpus utterance where one fits, templates for the rest)."""
        said: set[str] = set()
        parts: list[str] = []
        found = self._corpus_for(domain, values, opening=opening) if corpus else None
        if found is not None:
            parts.append(found[0])
            said = found[1]
        rest = {k: v for k, v in values.items() if k not in said}
        if opening and not parts:
            agenda = self.current
            also = "Also, " if agenda is not None and agenda is not self.agenda[0] else ""
            if domain == "hotel" and "type" in rest:
                opener = self.rng.choice(HOTEL_TYPE_OPENERS).format(v=rest.pop("type"))
            else:
                opener = self.rng.choice(OPENERS[domain])
            if also:
                opener = opener[0].lower() + opener[1:]
                if "people" in rest:  # the same group of people as before
                    rest.pop("people")
                    opener += " for the same group of people"
            parts.append(f"{also}{opener}")
        if rest:
            phrases = ", ".join(phrase(domain, k, v, self.rng) for k, v in rest.items())
            if opening and found is None:
                parts[-1] += " " + phrases
            elif parts:
                parts.append(f"I'd like it {phrases}")
            else:
                parts.append(prefix + phrases)
        text = " ".join(p if p.rstrip().endswith((".", "?", "!")) else p + "." for p in parts)
        return text[0].upper() + text[1:] if text else text

    # ----------------------------------------------------------- reacting
    def respond(self, acts: Sequence[Any]) -> str:
        """The user's next utterance, given the acts of the bot's last turn (objects with kind/name/slot/text)."""
        for act in acts:
            name = act.name or ""
            for item in self.agenda:
                if name == f"booked_{item.name}":
                    found = _REFERENCE.search(act.text or "")
                    item.reference = found.group(1) if found else None
                    item.phase = "done" if found else "book"
                    if not found:
                        return self._say("Could I get the reference number?")
        agenda = self.current
        if agenda is None:
            self.done = True
            return self._say(self.rng.choice(GOODBYES))
        names = [a.name or "" for a in acts]
        d = agenda.name
        nomatch = next((a for a in acts if a.name == f"nomatch_{d}"), None)
        if nomatch is not None:
            return self._say(self._after_no_match(agenda, nomatch.text or ""))
        offer = next((a for a in acts if a.name == f"offer_{d}"), None)
        if offer is not None:
            agenda.phase = "book" if agenda.phase == "find" else agenda.phase
            missing = self._not_offered(agenda, offer.text or "")
            if missing and agenda.restates < MAX_RESTATES:
                agenda.restates += 1
                return self._say(self._values_sentence(d, missing, prefix="Actually, I need it "))
        question = next((a for a in reversed(acts) if a.kind in ("ask", "confirm", "ask_change")), None)
        not_understood = "out_of_scope" in names
        offered = next((a.text for a in acts if a.name == "out_of_scope" and "help with:" in (a.text or "")), None)
        if offered is not None and agenda.phase != "new":
            # The bot lists what it can help with: answer with just the domain, in its words.
            agenda.phase = "find"
            return self._say(SHORT_DOMAIN[d])
        if agenda.phase == "new" or (question is None and not_understood):
            # Open the domain (again, in plain words, when the bot did not follow).
            agenda.phase = "find"
            return self._say(
                self._values_sentence(d, self._find_values(agenda), opening=True, corpus=not not_understood)
            )
        if question is not None:
            return self._say(self._answer(agenda, question))
        # Nothing asked (a misunderstanding, an out-of-scope reply): say what is pending again.
        if agenda.phase == "book":
            return self._say(self._values_sentence(d, agenda.book, prefix="I'd like to book it "))
        return self._say(self._values_sentence(d, self._find_values(agenda), prefix="I'm looking for something "))

    def _find_values(self, agenda: DomainAgenda) -> dict[str, str]:
        values = dict(agenda.constraints)
        if agenda.name == "train" and len(self.agenda) > 1 and agenda is not self.agenda[0]:
            values["people"] = agenda.book.get("people", "")
            values = {k: v for k, v in values.items() if v}
        return values

    def _after_no_match(self, agenda: DomainAgenda, text: str) -> str:
        # Constraints the bot searched with that the goal does not have (misread): "any area is fine".
        unwanted = [
            say
            for key, pattern, say in _DONT_CARE.get(agenda.name, ())
            if key not in agenda.constraints and re.search(pattern, text.lower())
        ]
        drop = (" ".join(unwanted) + " ") if unwanted else ""
        if agenda.alternatives and not agenda.switched:
            agenda.switched = True
            agenda.constraints.update(agenda.alternatives)
            return drop + self._values_sentence(
                agenda.name,
                agenda.alternatives,
                prefix=self.rng.choice(
                    ("How about a place ", "Then how about something ", "OK, what about something ")
                ),
            )
        if unwanted:
            return " ".join(unwanted)
        # Nothing else to try: say it all again once, then give up.
        if agenda.restates < MAX_RESTATES:
            agenda.restates += 1
            return self._values_sentence(agenda.name, agenda.constraints, prefix="I'm looking for something ")
        self.done = True
        return "Never mind then. Goodbye."

    def _not_offered(self, agenda: DomainAgenda, text: str) -> dict[str, str]:
        """The constraints an offer's words do not show."""
        low = text.lower()
        missing = {}
        for key, value in agenda.constraints.items():
            v = value.lower()
            if key in ("parking", "internet"):
                what = "free parking" if key == "parking" else "free wifi"
                has = re.search(rf"(?<!no ){what}", low) is not None
                ok = has if v == "yes" else not has
            elif key == "stars":
                ok = f"{v} star" in low
            elif key == "type":
                ok = re.search(rf"\b{'guest ?house' if 'guest' in v else 'hotel'}\b", low) is not None
            elif key == "leaveAt":
                times = _TIME.findall(low)
                ok = bool(times) and times[0].zfill(5) >= v.zfill(5)
            elif key == "arriveBy":
                times = _TIME.findall(low)
                ok = len(times) > 1 and times[1].zfill(5) <= v.zfill(5)
            else:
                ok = re.search(rf"(?<!\w){re.escape(v)}(?!\w)", low) is not None
            if not ok:
                missing[key] = value
        return missing

    def _answer(self, agenda: DomainAgenda, question: Any) -> str:
        d = agenda.name
        if question.kind == "confirm" and question.name == f"confirm_{d}":
            wrong = self._wrong_in_confirmation(agenda, question.text or "")
            agenda.wrong = wrong
            if not wrong:
                return self.rng.choice(YES)
            sentence = self._values_sentence(d, wrong, corpus=False)
            return "No, " + sentence[0].lower() + sentence[1:]
        if question.kind == "confirm":  # a field confirmation
            return self.rng.choice(YES)
        if question.kind == "ask_change":  # what to change: the values that were wrong, one number at most
            wrong = agenda.wrong or agenda.book
            first_number = next((k for k in ("people", "stay") if k in wrong), None)
            wrong = {k: v for k, v in wrong.items() if k not in ("people", "stay") or k == first_number}
            return self._values_sentence(d, wrong, prefix="I'd like it ", corpus=False)
        slot = question.slot
        target = SLOT_GOAL.get(d, {}).get(slot or "")
        if target is None:
            return self._values_sentence(d, self._find_values(agenda), prefix="I'm looking for something ")
        part, key = target
        values = agenda.constraints if part == "info" else agenda.book
        if key not in values:
            if key == "leaveAt":
                return self.rng.choice(
                    ("I don't have a departure time in mind.", "I don't have a time to leave, sorry.")
                )
            if part == "info":  # not in the goal: say what does matter instead
                return self._values_sentence(
                    d, self._find_values(agenda), prefix="I don't mind, but I'd like something "
                )
            return self._values_sentence(d, agenda.book)
        if part == "book":
            # The booking details, the asked one first, with at most one number (people or nights).
            asked = {key: values[key]}
            for other, value in values.items():
                numeric = other in ("people", "stay")
                if other not in asked and not (numeric and any(k in ("people", "stay") for k in asked)):
                    asked[other] = value
            return self._values_sentence(d, asked)
        # A search constraint: the asked one first, then the others (the user volunteers what it wants).
        rest = {k: v for k, v in values.items() if k != key and k not in ("leaveAt", "arriveBy")}
        return self._values_sentence(d, {key: values[key], **rest})

    def _wrong_in_confirmation(self, agenda: DomainAgenda, text: str) -> dict[str, str]:
        low = text.lower()
        checks = {
            "people": f"{agenda.book.get('people')} people"
            if agenda.name != "train"
            else f"{agenda.book.get('people')} tickets",
            "day": f"{agenda.book.get('day')}",
            "time": f"{agenda.book.get('time')}",
            "stay": f"{agenda.book.get('stay')} nights",
        }
        return {k: agenda.book[k] for k, needle in checks.items() if k in agenda.book and needle.lower() not in low}
