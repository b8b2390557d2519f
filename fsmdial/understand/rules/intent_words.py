"""An intent named by the words of a short example, said with others between them: "find movies" in "can you help me
find a movie?", "search oneway flight" in "search for a one way flight".

Only examples made of two to four words that all name something (no function word: "find movies", "reserve hotel",
an intent's name in words) are read this way; an example written as a sentence ("I need to change my ride") is
still found only whole (:class:`~fsmdial.understand.rules.RulesUnderstander`). Each word of the example is said in
its order, in the singular or the plural, or as two words written apart ("one way" for "oneway"), at most two words
after the one before.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from ...language import read_acts
from ...language.text import FUNCTION_WORDS

__all__ = [
    "asked_by_content",
    "command_intent",
    "content_examples",
    "intent_by_words",
    "verb_examples",
    "word_examples",
]

_GAP = 2
"""Words that may stand between two words of an example ("find a movie", "search for a flight")."""


def word_examples(examples: Iterable[tuple[str, str]]) -> tuple[tuple[tuple[str, ...], str], ...]:
    """(words, intent) for the (normalised example, intent) pairs that are two to four words naming something."""
    out = []
    for example, intent in examples:
        words = tuple(example.split())
        if 2 <= len(words) <= 4 and not any(word in FUNCTION_WORDS or not word.isalpha() for word in words):
            out.append((words, intent))
    return tuple(out)


def verb_examples(examples: Iterable[tuple[str, str]]) -> dict[str, str]:
    """{word: intent} of the one-word examples that may be commands ("cancel", "reschedule"; not "hello")."""
    return {
        example: intent
        for example, intent in examples
        if " " not in example and example.isalpha() and example not in FUNCTION_WORDS and not _greets(example)
    }


_COMMAND = re.compile(
    r"(?:^|[,.;!?]\s*|\b(?:actually|just|please|so|then|and|but|oh|ok|okay|can\s+you|could\s+you)\s+)"
    r"(?P<verb>[a-z]+)\s+(?:it|that|this|everything|them|(?:the|my|our)\s+[a-z]+)(?![\w'])"
)
"""A one-word example said as a command on its object ("actually cancel it, ...", "please cancel the booking")."""


def _greets(word: str) -> bool:
    acts = read_acts(word)  # "hello", "morning", "thanks", "bye": said alone, never a command
    return acts.greet or acts.thank or acts.bye


def command_intent(verbs: dict[str, str], normalized: str) -> str | None:
    """The intent whose one-word example ``normalized`` says as a command on what is being booked ("actually cancel
    it, my landlord says no"): the verb leads a clause, its object right after it; None when none does."""
    found = {
        verbs[command.group("verb")] for command in _COMMAND.finditer(normalized) if command.group("verb") in verbs
    }
    return found.pop() if len(found) == 1 else None


def _same(word: str, said: str) -> bool:
    """Is ``said`` the example's ``word``, in the singular or the plural?"""
    if word == said:
        return True
    short, long = sorted((word, said), key=len)
    return long in (short + "s", short + "es") or (short.endswith("y") and long == short[:-1] + "ies")


def _said_in_order(words: Sequence[str], said: Sequence[str]) -> bool:
    at = -1
    for word in words:
        start, found = at + 1, None
        for i in range(start, min(len(said), start + _GAP + 1) if at >= 0 else len(said)):
            if said[i][:1] != word[:1]:
                continue  # both forms _same reads begin as the word does (a long reply is read once, fast)
            if _same(word, said[i]):
                found = i
                break
            if i + 1 < len(said) and _same(word, said[i] + said[i + 1]):  # "one way" for "oneway"
                found = i + 1
                break
        if found is None:
            return False
        at = found
    return True


def intent_by_words(examples: Sequence[tuple[tuple[str, ...], str]], normalized: str) -> str | None:
    """The intent whose word example ``normalized`` (a normalised message) says, the longest one winning; None when
    none does or two intents do with as many words."""
    said = [word.replace("-", "") for word in normalized.split()]
    found = [(len(words), intent) for words, intent in examples if _said_in_order(words, said)]
    if not found:
        return None
    longest = max(length for length, _ in found)
    intents = {intent for length, intent in found if length == longest}
    return intents.pop() if len(intents) == 1 else None


_ADVERB = re.compile(r"[a-z]{3,}ly")
"""An adverb ("roughly", "really"): it names nothing an example is about."""
_ASKING = re.compile(  # after an adverb too ("roughly what would it cost")
    rf"^(?:{_ADVERB.pattern}\s+)?"
    r"(?:how|what|what's|when|where|which|who|why|do|does|did|is|are|can|could|will|would|should|have|has|any)\b"
)


def content_examples(examples: Iterable[tuple[str, str]]) -> tuple[tuple[frozenset[str], str], ...]:
    """(content words, intent) of the examples of every question intent (all its examples ask: "will it make a mess",
    "how much do you charge"; never a task's "can I book a service" beside "I need to book my car in", nor "forget
    it") with one to three words naming something ("will it make a mess": mess; "how much do you charge": much,
    charge)."""
    examples = list(examples)
    asking: dict[str, bool] = {}
    for example, intent in examples:
        asking[intent] = asking.get(intent, True) and _ASKING.match(example) is not None
    out = []
    for example, intent in examples:
        if not asking[intent]:
            continue
        words = frozenset(word for word in example.split() if word not in FUNCTION_WORDS and len(word) > 2)
        # an adverb names nothing ("roughly what would it cost": cost), unless it is all the example says
        words = frozenset(word for word in words if not _ADVERB.fullmatch(word)) or words
        if 1 <= len(words) <= 3 and all(word.isalpha() for word in words):
            out.append((words, intent))
    return tuple(out)


def asked_by_content(examples: Sequence[tuple[frozenset[str], str]], normalized: str) -> str | None:
    """The one intent a question says every content word of one of its examples of ("will it make a lot of mess?
    we've just had new carpets down": mess); None when none, or two intents, are said so. For questions only: a
    statement's words ("it made a mess last time") ask nothing."""
    said = normalized.split()
    found = {intent for words, intent in examples if all(any(_same(word, s) for s in said) for word in words)}
    return found.pop() if len(found) == 1 else None
