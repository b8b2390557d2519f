"""Slot patterns: the standard library's parse of a regular expression, and whether it is safe to run.

A slot ``pattern`` runs on every reply, so flow validation refuses one whose matching cost can explode
(:func:`pattern_problem`, which reads :func:`regex_parse`'s items), and the rules understander finds a
value inside a longer reply with :func:`search_regex`.

Depends on nothing else in fsmdial, so the flow model (``flow/nodes.py``) can use it: it is kept out
of the grammar translator (``understand/constraint/grammar.py``), which imports the flow model.
"""

from __future__ import annotations

import _sre
import re
from re import _parser as _sre_parse  # type: ignore[attr-defined]  # Python 3.11+ (requires-python); no stubs
from re._casefix import _EXTRA_CASES  # the case pairs re adds to lower-casing (``ſ``/``s``)
from typing import Any


def regex_parse(pattern: str) -> tuple[Any, int]:
    """The standard library's own parse of ``pattern``: its items as ``(opcode, argument)``
    pairs (``str(opcode)`` names it, e.g. ``"MAX_REPEAT"``) and its global flags.

    Raises ``re.error`` for an invalid pattern. Flow validation reads the items to refuse
    patterns whose matching cost can explode.
    """
    tree = _sre_parse.parse(pattern)
    return list(tree), int(tree.state.flags)


def pattern_problem(pattern: str) -> str | None:
    """Why a slot ``pattern`` cannot be used on user text, or None.

    Patterns run on every reply, so their cost must not explode: nested variable
    quantifiers (``(a+)+``) and alternatives that can match the same text inside a
    repetition (``(a|ab)*``) backtrack exponentially in Python's ``re`` and are refused.
    Where the pattern ignores case it is checked on its :func:`case_folded` form, so
    ``(?i)(ax|Ax)+`` is seen as the ``(ax|ax)+`` it runs as.
    """
    try:
        items, flags = regex_parse(pattern)
        search_regex(pattern)
        items = case_folded(items, flags)
    except (re.error, ValueError, OverflowError, RecursionError) as exc:
        return f"is not a valid regular expression: {exc}"
    culprit = _backtracking(items, inside=False)
    if culprit:
        return (
            f"can take exponential time on some replies ({culprit} inside a repetition); "
            "rewrite it without nested quantifiers or overlapping alternatives"
        )
    try:
        _overlapping_runs(items, [])
    except _TooSlow:
        return (
            "can take cubic time or worse when searched in a reply (two long repetitions in a row that can "
            "match the same characters, like \\d+\\d+ or .*a.*); separate them with a character they cannot match"
        )
    return None


def case_folded(items: Any, flags: int) -> list[Any]:
    """Parsed ``items`` with every character that matches case-insensitively written as one
    representative: under ``re.IGNORECASE`` (global, or a local ``(?i:...)``) a literal becomes
    the one character ``re`` itself treats it as (``A``, the long s ``ſ`` and the Kelvin sign both
    become ``a``, ``s`` and ``k``), and a narrow range inside ``[...]`` becomes its folded members.
    Parts that do not ignore case are kept as they are. The checks then see the overlaps ``re`` sees.
    """
    fold = _ascii_fold if flags & re.ASCII else _unicode_fold
    ignore = bool(flags & re.IGNORECASE)
    out: list[Any] = []
    for op, arg in items:
        name = str(op)
        if name == "SUBPATTERN":
            group, add, remove, sub = arg
            local = (flags | add) & ~remove
            out.append((op, (group, add, remove, case_folded(sub, local))))
        elif name in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"):
            out.append((op, (arg[0], arg[1], case_folded(arg[2], flags))))
        elif name == "BRANCH":
            out.append((op, (arg[0], [case_folded(branch, flags) for branch in arg[1]])))
        elif name in ("ASSERT", "ASSERT_NOT"):
            out.append((op, (arg[0], case_folded(arg[1], flags))))
        elif name == "ATOMIC_GROUP":
            out.append((op, case_folded(arg, flags)))
        elif ignore and name == "LITERAL":
            out.append((op, fold(arg)))
        elif ignore and name == "IN":
            out.append((op, _folded_members(arg, fold)))
        else:
            out.append((op, arg))
    return out


def _folded_members(members: Any, fold: Any) -> list[Any]:
    out: list[Any] = []
    for op, arg in members:
        name = str(op)
        if name == "LITERAL":
            out.append((op, fold(arg)))
        elif name == "RANGE" and arg[1] - arg[0] <= 512:
            out += [(_sre_parse.LITERAL, fold(code)) for code in range(arg[0], arg[1] + 1)]
        else:
            out.append((op, arg))  # NEGATE, categories, wide ranges: already read as broad sets
    return out


def _unicode_fold(code: int) -> int:
    """The representative of the characters ``re`` matches alike with IGNORECASE: its lower case,
    then the least of the extra pairs ``re`` knows (``ſ``/``s``, ``ϑ``/``θ``...)."""
    low = _sre.unicode_tolower(code)
    return int(min((low, *_EXTRA_CASES.get(low, ()))))


def _ascii_fold(code: int) -> int:
    return int(_sre.ascii_tolower(code))


_LEADING_FLAGS = re.compile(r"^\(\?[aiLmsux]+\)")


def search_regex(pattern: str) -> re.Pattern[str]:
    """``pattern`` made to find a value inside a longer reply: its ``^``/``$`` anchors and
    leading global flags (``(?i)``) are moved out, and it must stand between word boundaries.

    (``[0-9]+\\$`` keeps its escaped dollar; ``(?i)^[a-z]{3}$`` keeps ignoring case.)
    """
    items, flags = regex_parse(pattern)
    body = pattern
    while _LEADING_FLAGS.match(body):
        body = body[_LEADING_FLAGS.match(body).end() :]  # type: ignore[union-attr]
    if items and str(items[0][0]) == "AT" and str(items[0][1]) == "AT_BEGINNING" and body.startswith("^"):
        body = body[1:]
    if items and str(items[-1][0]) == "AT" and str(items[-1][1]) == "AT_END" and body.endswith("$"):
        body = body[:-1]
    keep = flags & (re.IGNORECASE | re.MULTILINE | re.DOTALL | re.VERBOSE | re.ASCII)
    return re.compile(r"(?<!\w)(?:" + body + r")(?!\w)", keep)


def _backtracking(items: Any, *, inside: bool) -> str | None:
    """The first construct of a parsed regex that backtracks exponentially, or None."""
    for op, arg in items:
        name = str(op)
        if name in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"):
            low, high, sub = arg
            variable = high != low
            if variable and inside and name != "POSSESSIVE_REPEAT":
                return "a variable quantifier"
            found = _backtracking(sub, inside=inside or (variable and name != "POSSESSIVE_REPEAT"))
            if found:
                return found
        elif name == "SUBPATTERN":
            found = _backtracking(arg[-1], inside=inside)
            if found:
                return found
        elif name == "ATOMIC_GROUP":
            continue
        elif name == "BRANCH":
            branches = arg[1]
            if inside and not _distinct_starts(branches):
                return "alternatives that can start alike"
            for branch in branches:
                found = _backtracking(branch, inside=inside)
                if found:
                    return found
        elif name in ("ASSERT", "ASSERT_NOT"):
            found = _backtracking(arg[1], inside=inside)
            if found:
                return found
        elif name == "GROUPREF_EXISTS":
            return "a conditional group"
        elif name == "GROUPREF" and inside:
            return "a back-reference"
    return None


class _TooSlow(Exception):
    pass


_ALL = None  # a character set too large to list: overlaps everything
_CharSet = frozenset[int] | None


def _overlap(a: _CharSet, b: _CharSet) -> bool:
    return a is None or b is None or not a.isdisjoint(b)


# Character classes as sets: ASCII members listed, the non-ASCII rest as one stand-in each.
_UNICODE_LETTER, _UNICODE_DIGIT, _UNICODE_SPACE = -1, -2, -3
_DIGITS = frozenset(range(48, 58)) | {_UNICODE_DIGIT}
_WORD = frozenset(c for c in range(128) if chr(c).isalnum() or chr(c) == "_") | {_UNICODE_LETTER, _UNICODE_DIGIT}
_SPACES = frozenset(map(ord, " \t\n\r\f\v")) | {_UNICODE_SPACE}
_CATEGORIES = {"CATEGORY_DIGIT": _DIGITS, "CATEGORY_WORD": _WORD, "CATEGORY_SPACE": _SPACES}


def _code(code: int) -> set[int]:
    ch = chr(code)
    out = {code}
    if code > 127:
        out |= {_UNICODE_LETTER} if ch.isalnum() or ch == "_" else set()
        out |= {_UNICODE_DIGIT} if ch.isdigit() else set()
        out |= {_UNICODE_SPACE} if ch.isspace() else set()
    return out


def _char_set(items: Any) -> _CharSet:
    """Every character ``items`` can match (``None``: too many to list)."""
    chars: set[int] = set()
    for op, arg in items:
        name = str(op)
        if name == "LITERAL":
            chars |= _code(arg)
        elif name == "CATEGORY" and str(arg) in _CATEGORIES:
            chars |= _CATEGORIES[str(arg)]
        elif name == "IN":
            for member_op, member in arg:
                member_name = str(member_op)
                if member_name == "LITERAL":
                    chars |= _code(member)
                elif member_name == "RANGE" and member[1] - member[0] <= 512:
                    for code in range(member[0], member[1] + 1):
                        chars |= _code(code)
                elif member_name == "CATEGORY" and str(member) in _CATEGORIES:
                    chars |= _CATEGORIES[str(member)]
                else:
                    return _ALL  # negation, \\W, \\S, \\D, wide ranges
        elif name in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"):
            inner = _char_set(arg[2])
            if inner is None:
                return _ALL
            chars |= inner
        elif name == "SUBPATTERN":
            inner = _char_set(arg[-1])
            if inner is None:
                return _ALL
            chars |= inner
        elif name == "BRANCH":
            for branch in arg[1]:
                inner = _char_set(branch)
                if inner is None:
                    return _ALL
                chars |= inner
        elif name in ("AT", "ASSERT", "ASSERT_NOT"):
            continue
        else:
            return _ALL
    return frozenset(chars)


def _overlapping_runs(items: Any, pending: list[_CharSet], budget: list[int] | None = None) -> list[_CharSet]:
    """Follow a sequence, keeping the character sets of the long repetitions that can still run into
    each other: two in a row that can match one character cost quadratic time from each start, and
    a value is searched for from every start of the reply. Raises :class:`_TooSlow`.

    A short repetition (``{2}``, ``?``, ``{1,3}``) is followed as its body twice: the first passes
    it must make, then the ones it may skip (nothing in those separates runs); twice is enough to
    see a run meet itself.
    """
    budget = budget if budget is not None else [20_000]
    for op, arg in items:
        budget[0] -= 1
        if budget[0] < 0:
            raise _TooSlow  # too intricate to check: refused rather than trusted
        name = str(op)
        if name in ("MAX_REPEAT", "MIN_REPEAT"):
            low, high, sub = arg
            if high - low > 16:  # a long run: it can take over what the next run matches
                _overlapping_runs(sub, [], budget)
                chars = _char_set(sub)
                if any(_overlap(p, chars) for p in pending):
                    raise _TooSlow
                pending = [chars] if low > 0 else _merge(pending, [chars])
            else:
                for index in range(min(high, 2)):
                    if index < low:
                        pending = _overlapping_runs(sub, pending, budget)
                    else:
                        pending = _merge(pending, _overlapping_runs(sub, list(pending), budget))
        elif name == "SUBPATTERN":
            pending = _overlapping_runs(arg[-1], pending, budget)
        elif name == "BRANCH":
            merged: list[_CharSet] = []
            for branch in arg[1]:
                merged = _merge(merged, _overlapping_runs(branch, list(pending), budget))
            pending = merged
        elif name in ("LITERAL", "IN", "ANY", "NOT_LITERAL", "CATEGORY"):
            pending = _separated(pending, _char_set([(op, arg)]) if name in ("LITERAL", "IN", "CATEGORY") else _ALL)
    return pending


def _merge(first: list[_CharSet], second: list[_CharSet]) -> list[_CharSet]:
    out = list(first)
    for chars in second:
        if chars not in out:
            out.append(chars)
    return out


def _separated(pending: list[_CharSet], mandatory: _CharSet) -> list[_CharSet]:
    """A character every match must contain ends the runs that cannot match it."""
    return [p for p in pending if _overlap(p, mandatory)]


def _distinct_starts(branches: Any) -> bool:
    """True when every alternative starts with its own literal character (no two can match alike)."""
    starts: set[int] = set()
    for branch in branches:
        first = list(branch)[:1]
        if not first or str(first[0][0]) != "LITERAL" or first[0][1] in starts:
            return False
        starts.add(first[0][1])
    return True
