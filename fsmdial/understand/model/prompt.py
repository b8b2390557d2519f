"""Prompts for the understanding call, built so that consecutive turns share a long prefix.

A prompt is the model's chat template around two messages:

* **system**: the static prefix of the flow (role, task, flow context, the
  intents and slots with descriptions and examples, the output format). It
  depends on the flow only, so every turn of every session of that flow
  starts with the same tokens;
* **user**: the conversation so far, one line per utterance (``User: ...``,
  ``Agent: ...``: the agent's last question in short form), ending with the new
  user text, then a short note on the current state (what was asked, the
  choices offered); the assistant's turn then starts with the output's first
  key (:func:`~fsmdial.understand.constraint.grammar_start.split_start`), which is the cue to write JSON.

Turn after turn the conversation only grows at its end, so the next prompt
repeats the previous one up to its state note: llama.cpp keeps that prefix in
its KV cache and evaluates only the new lines, the note and the template's
closing tokens. Each line is tokenized on its own (and cached), which keeps
token boundaries identical from turn to turn. User and agent text is
tokenized with ``special=False``: typing ``<|im_end|>`` cannot forge a
control token.

When the conversation does not fit the context, the oldest lines are left out
(in steps of :data:`DROP_STEP`, so the prefix stays stable for several turns);
the static prefix and the new user text are never dropped, and
:attr:`Prompt.dropped` says how many lines were left out. A template that
cannot take a system message gets the static prefix at the head of the user
message instead.
"""

from __future__ import annotations

import datetime as dt
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import orjson

from ...errors import ModelError, UnderstandingError
from ...flow import Slot
from ...language.text import SENTENCE_BREAK
from ...slots import KINDS
from ..base import CONTINUE, DECLINE, GOODBYE, UnderstandingState
from ..constraint.schema import CHANGE, NONE

DROP_STEP = 8
"""Conversation lines are dropped (on context overflow) in multiples of this many."""
_SYSTEM, _USER = "\u2063FsmDial-System\u2063", "\u2063FsmDial-User\u2063"  # mixed case: filters show
_ROLES = {"user": "User", "bot": "Agent", "assistant": "Agent"}
_BUILT_IN = {
    GOODBYE: "the user says goodbye or that they are done",
    DECLINE: "asked for a value, the user cannot or will not give it",
    CONTINUE: "the user asks for what this dialogue already does (to start it or carry on with it)",
}
"""Built-in intents, described in words: never with example sentences, which a small model copies."""


class ChatFormat:
    """A GGUF chat template, rendered once around marker messages and split into its fixed parts.

    ``head`` comes before the system text, ``middle`` between it and the user
    text, ``tail`` after the user text (with the generation prompt).
    """

    def __init__(self, template: str, *, bos_token: str = "", eos_token: str = ""):
        from jinja2 import TemplateError
        from jinja2.sandbox import ImmutableSandboxedEnvironment

        def raise_exception(message: str) -> None:
            raise TemplateError(message)

        env = ImmutableSandboxedEnvironment(trim_blocks=True, lstrip_blocks=True)
        env.globals["raise_exception"] = raise_exception
        try:
            compiled = env.from_string(template)
        except TemplateError as exc:
            raise ModelError(f"the model's chat template does not parse: {exc}") from None

        def render(messages: list[dict[str, str]]) -> str:
            # No strftime_now and no date_string: templates that print today's date fall back to
            # their fixed default, so prompts do not change from day to day.
            return compiled.render(
                messages=messages, add_generation_prompt=True, bos_token=bos_token, eos_token=eos_token
            )

        self.system_role = True
        try:
            text = render([{"role": "system", "content": _SYSTEM}, {"role": "user", "content": _USER}])
        except TemplateError:  # e.g. templates that refuse a system message
            self.system_role = False
            try:
                text = render([{"role": "user", "content": _SYSTEM + "\n\n" + _USER}])
            except TemplateError as exc:
                raise ModelError(f"the model's chat template cannot render a conversation: {exc}") from None
        if text.count(_SYSTEM) != 1 or text.count(_USER) != 1 or text.index(_SYSTEM) > text.index(_USER):
            raise ModelError("the model's chat template does not render messages verbatim; give a template explicitly")
        self.head, rest = text.split(_SYSTEM)
        self.middle, self.tail = rest.split(_USER)


# ------------------------------------------------------------------- texts


def static_prefix(state: UnderstandingState) -> str:
    """The system text for a flow: the same for every state and every turn of the flow.

    It carries no example *values*: a small model copies them. Values are
    spans of the user's message anyway (the grammar admits nothing else).
    """
    lines = ["You are the language-understanding step of a dialogue system."]
    if state.context:
        lines.append(state.context.strip())
    if state.description:
        lines.append(f"The dialogue: {state.description.strip()}")
    lines.append(
        "Read the user's last message in the conversation and write one JSON object saying what the user "
        "said in that message. Never reply to the user."
    )
    lines.append("")
    lines.append(f'"intent": one of the intents below, or "{NONE}" when the message is none of them.')
    # Built-in intents come and go with the state (decline only while a slot is asked): describe
    # them always, so that this text, and its place in the KV cache, is the same for every state.
    listed = [i for i in state.intents if i.name not in _BUILT_IN]
    for intent in listed:
        if intent.examples:
            lines.append(f"- {intent.name}: e.g. " + ", ".join(_quote(e) for e in intent.examples[:4]))
        else:
            lines.append(f"- {intent.name}")
    for name, meaning in _BUILT_IN.items():
        if name != CONTINUE or any(i.name == CONTINUE for i in state.intents):  # only flows with examples have it
            lines.append(f"- {name}: {meaning}")
    lines.append("")
    lines.append(
        '"slots": only the values the user gives or changes in this message, copied word for word from it. '
        "Leave out every slot the message does not give a value for; never repeat values said before."
    )
    for slot in state.slots:
        lines.append(_slot_line(slot))
    lines.append("")
    lines.append(
        '"answer": after a yes/no question of the agent: "yes" or "no" when the user just agrees or refuses, '
        f'"{CHANGE}" when the message gives a different value (write it in "slots"), "other" for a question '
        "or anything else."
    )
    lines.append(f'"choice": only when the agent offers choices: the one the user picked, or "{NONE}".')
    lines.append("Write compact JSON, keys in this order: intent, answer, slots, choice.")
    return "\n".join(lines)


def _slot_line(slot: Slot) -> str:
    parts = [f"- {slot.name}: {KINDS[slot.type].prompt(slot)}."]
    if slot.description:
        parts.append(slot.description.strip().rstrip(".") + ".")
    return " ".join(parts)


def state_note(state: UnderstandingState, now: dt.datetime | None = None) -> str:
    """The short, state-specific text after the new user message (no date: fsmdial reads dates itself).

    It is evaluated on every model turn (the next turn's new lines come before it), so it says only what
    the state adds: the slot asked for, a pending yes/no question, the choices offered."""
    parts = []
    if state.confirm_slot is not None:
        parts.append(f'The agent asked the user to confirm {state.confirm_slot}: write "answer".')
    elif state.confirm is not None:
        parts.append('The agent asked a yes/no question: write "answer".')
    elif state.asked:
        parts.append(f"The agent asked for {state.asked}.")
    if state.choices:
        described = {c.name: c.examples for c in state.choice_examples}
        options = [
            name + (" (e.g. " + ", ".join(_quote(e) for e in described[name][:2]) + ")" if described.get(name) else "")
            for name in state.choices
        ]
        parts.append('Choices for "choice": ' + "; ".join(options) + ".")
    # No "JSON:" cue: the assistant's turn starts with the output's first key, written in the prompt.
    return "\n" + " ".join(parts) if parts else ""


def history_line(role: str, text: str) -> str:
    """One line of the conversation: the user's words as said, the agent's in short form (:func:`short_form`)."""
    said = " ".join(text.split())
    if role != "user":
        said = short_form(said)
    return f"{_ROLES.get(role, role.title())}: {said}\n"


def short_form(said: str) -> str:
    """What the agent asked: its last question, else its last sentence ("Great, 4 people. On which day?"
    -> "On which day?"). The model reads the user's words; the rest of a reply (acknowledgements, the values
    read back before a confirmation) is evaluated turn after turn and told it nothing it needs."""
    sentences = SENTENCE_BREAK.split(said)
    asking = [i for i, sentence in enumerate(sentences) if sentence.endswith("?")]
    if not asking:
        return sentences[-1]
    end = start = asking[-1]
    while start > 0 and sentences[start - 1].endswith("?"):  # "Is that 7 p.m.? Or 7 a.m.?" stays whole
        start -= 1
    return " ".join(sentences[start : end + 1])


def _quote(text: str) -> str:
    return orjson.dumps(text).decode()


# ------------------------------------------------------------------ tokens


@dataclass
class Prompt:
    tokens: list[int]
    static_tokens: int
    """Tokens before the conversation (template head, static prefix): shared by every turn of the flow."""
    dropped: int = 0
    """Oldest conversation lines left out to fit the context."""


Tokenize = Callable[[str, bool], list[int]]
CONVERSATION = "Conversation:\n"


class PromptBuilder:
    """Builds the token ids of a turn's prompt (see the module docstring)."""

    def __init__(
        self,
        chat: ChatFormat,
        tokenize: Tokenize,
        *,
        bos: int | None = None,
        cache_size: int = 8192,
        system: Callable[[UnderstandingState], str] = static_prefix,
        note: Callable[[UnderstandingState], str] = state_note,
    ):
        self.chat = chat
        self.system = system
        """The system text of a flow (:func:`static_prefix`; the scoring chooser has its own)."""
        self.note = note
        """The state's note after the new message (:func:`state_note`)."""
        self._tokenize = tokenize
        self.bos = bos
        self._cache: OrderedDict[tuple[str, bool], tuple[int, ...]] = OrderedDict()
        self._cache_size = cache_size
        self._static: dict[str, tuple[int, ...]] = {}

    def tokens(self, text: str, special: bool = False) -> tuple[int, ...]:
        key = (text, special)
        found = self._cache.get(key)
        if found is None:
            found = self._cache[key] = tuple(self._tokenize(text, special))
            if len(self._cache) > self._cache_size:
                self._cache.popitem(last=False)
        else:
            self._cache.move_to_end(key)
        return found

    def prefix(self, state: UnderstandingState) -> tuple[int, ...]:
        """Template head, static prefix, and the opening of the user message (once per flow)."""
        text = self.system(state)  # a few microseconds; the tokens are what is worth caching
        found = self._static.get(text)
        if found is None:
            chat = self.chat
            head = list(self.tokens(chat.head, True))
            if self.bos is not None and (not head or head[0] != self.bos):
                head.insert(0, self.bos)
            found = tuple(head) + self.tokens(text) + self.tokens(chat.middle, True) + self.tokens(CONVERSATION)
            self._static[text] = found
        return found

    def text(self, state: UnderstandingState, history: Sequence[tuple[str, str]], text: str) -> str:
        """The prompt as text, exactly what :meth:`build` tokenizes (for ``fsmdial prompt``), no lines dropped."""
        chat = self.chat
        lines = "".join(history_line(role, said) for role, said in history if said.strip())
        return (
            chat.head
            + self.system(state)
            + chat.middle
            + CONVERSATION
            + lines
            + history_line("user", text)
            + self.note(state)
            + chat.tail
        )

    def build(
        self,
        state: UnderstandingState,
        history: Sequence[tuple[str, str]],
        text: str,
        *,
        now: dt.datetime | None = None,
        budget: int,
    ) -> Prompt:
        """The prompt for ``text`` after ``history``, at most ``budget`` tokens."""
        prefix = self.prefix(state)
        last = self.tokens(history_line("user", text))
        end = self.tokens(self.note(state)) + self.tokens(self.chat.tail, True)
        lines = [self.tokens(history_line(role, said)) for role, said in history if said.strip()]
        fixed = len(prefix) + len(last) + len(end)
        if fixed > budget:
            raise UnderstandingError(
                f"the prompt needs {fixed} tokens without any conversation (static prefix {len(prefix)}, "
                f"new message {len(last)}), more than the {budget} the context leaves"
            )
        total = fixed + sum(len(line) for line in lines)
        dropped = 0
        while total > budget:
            step = min(DROP_STEP, len(lines) - dropped)
            total -= sum(len(line) for line in lines[dropped : dropped + step])
            dropped += step
        tokens = list(prefix)
        for line in lines[dropped:]:
            tokens.extend(line)
        tokens.extend(last)
        tokens.extend(end)
        return Prompt(tokens, len(prefix), dropped)
