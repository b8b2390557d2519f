"""The fixed start of a model's output, written into the prompt, and the grammar of the rest.

Nearly every turn's output starts the same way (``{"intent"``): :func:`split_start` finds that start in a
:class:`~.grammar.Grammar`, so the understanders can write it at the end of the prompt (evaluated with the
prompt in one batch) and decode only the rest; :func:`only_output` finds grammars that leave the model no
choice at all, which need no model call.
"""

from __future__ import annotations

from ...errors import GrammarError
from .grammar import EMPTY, Alt, Grammar, Lit, Node, Repeat, Rule, Seq, alt, seq


def only_output(grammar: Grammar) -> str | None:
    """The one text this grammar matches, or None when it allows a choice."""
    text, whole = _lead(grammar.root)
    return text if whole else None


def split_start(grammar: Grammar) -> tuple[str, Grammar]:
    """The text every output starts with, up to its last whole key, and the grammar of the rest.

    ``{"intent"`` is the start of nearly every turn's output (``{"intent":"none","slots"`` when
    the rules settled the intent): written into the prompt after the chat template's assistant
    header, it is evaluated with the prompt in one batch instead of in decode steps. The start
    ends after a key's closing quote (:func:`_last_key_end`), never inside a word or a run of
    punctuation, so the tokens before and after the cut are those the model would write anyway.
    In-process and through a model server alike: the same prompt, the same rest.
    """
    text, _ = _lead(grammar.root)
    cut = _last_key_end(text)
    if cut == 0:
        return "", grammar
    return text[:cut], Grammar(_drop(grammar.root, cut))


def _last_key_end(text: str) -> int:
    """Where the last complete object key of ``text`` ends (after its closing quote), or 0.

    The start stops there, before the key's colon: the punctuation after a key is one token in most
    vocabularies together with what follows it (``":"``, ``":{"``, ``":["``), so it is the model's
    to write in the token it picks. Cut inside such a run (``...,"slots":`` then ``{``), Qwen 0.5B
    closed the object where it had written ``":{"`` and a value before (3 of 35 model calls on a
    STAR sample left their slots empty)."""
    at = len(text)
    while True:
        at = text.rfind('":', 0, at)
        if at <= 0:
            return 0
        if text[at - 1] != "\\":  # an escaped quote inside a string is no key's end
            return at + 1


def _lead(node: Node) -> tuple[str, bool]:
    """The text every match of ``node`` starts with, and whether that text is its only match."""
    if isinstance(node, Lit):
        return node.text, True
    if isinstance(node, Rule):
        return _lead(node.body)
    if isinstance(node, Seq):
        out = ""
        for item in node.items:
            text, whole = _lead(item)
            out += text
            if not whole:
                return out, False
        return out, True
    if isinstance(node, Alt):
        leads = [_lead(item) for item in node.items]
        common = leads[0][0]
        for text, _ in leads[1:]:
            while not text.startswith(common):
                common = common[:-1]
        return common, all(whole and text == common for text, whole in leads)
    if isinstance(node, Repeat):
        if node.high == 0:
            return "", True
        if node.low == 0:
            return "", False
        text, whole = _lead(node.item)
        return (text * node.low, node.low == node.high) if whole else (text, False)
    return "", False  # Chars


def _drop(node: Node, n: int) -> Node:
    """``node`` matching what it matched without its first ``n`` characters (``n`` at most its lead)."""
    if n == 0:
        return node
    if isinstance(node, Lit):
        return Lit(node.text[n:])
    if isinstance(node, Rule):
        return Rule(f"{node.name}-after{n}", _drop(node.body, n))
    if isinstance(node, Alt):
        return alt(*(_drop(item, n) for item in node.items))
    if isinstance(node, Seq):
        first, rest = node.items[0], node.items[1:]
        text, whole = _lead(first)
        if whole and len(text) <= n:
            return _drop(seq(*rest), n - len(text))
        return seq(_drop(first, n), *rest)
    if isinstance(node, Repeat):
        more = Repeat(node.item, node.low - 1, node.high - 1) if node.high > 1 else EMPTY
        text, whole = _lead(node.item)
        if whole and len(text) <= n:
            return _drop(more, n - len(text))
        return seq(_drop(node.item, n), more)
    raise GrammarError(f"cannot drop {n} characters from {node!r}")  # pragma: no cover - Chars have no lead
