"""Bounded grammars for the JSON a model may write, from a (small) JSON schema.

Stock JSON-schema converters (llama-cpp-python's, outlines-core's) ignore
integer ``minimum``/``maximum`` and allow free whitespace, so a model can write
a 16-digit id or run until the token limit cuts its JSON short. This module
builds the grammar itself, for the subset of JSON Schema that
:mod:`fsmdial.understand.constraint.schema` produces, with three promises:

* the language is a subset of what the schema accepts (integer ranges exact,
  numbers inside their bounds, string lengths, enum values, key order fixed);
* no whitespace and no open-ended repetition, so :attr:`Grammar.max_bytes`
  bounds every output (each token is at least one byte, so it bounds the
  number of tokens too);
* the same grammar renders as GBNF (llama.cpp, llguidance) with shared rules,
  and as a regular expression (outlines-core), inlined.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import orjson

from ...errors import GrammarError
from .grounding import TEXT_SPAN_WORDS, SpanRules, message, name_spans

MAX_DECIMALS = 3
"""Most digits a number may have after the decimal point."""
UNBOUNDED_INT = 999_999_999
"""Bound used for integers and numbers the schema leaves unbounded (keeps outputs finite)."""
LARGEST_INT = 2**63 - 1
"""Integer and number bounds are clamped to +-this: the engine refuses larger values (a snapshot
stores them exactly) and orjson reads no larger integer, so a flow's ``minimum: -1e19`` writes
at most 19 digits."""
MAX_STRING_CHARS = 1000
"""Longest JSON string (in characters) a grammar lets the model write, whatever ``maxLength`` says:
llama.cpp expands ``{0,n}`` into n rules, and an output longer than this would not fit a context."""
REGEX_STRING_CHARS = 100
"""Longest free JSON string in the regex form (the outlines backend): its index is built over
every string length times the whole vocabulary (600 characters took 25 s and 2 GB)."""


# ------------------------------------------------------------------- nodes


class Node:
    """A piece of grammar. ``max_bytes`` is the longest UTF-8 text it matches."""

    max_bytes: int


@dataclass(frozen=True, eq=False)
class Lit(Node):
    text: str

    @property
    def max_bytes(self) -> int:  # type: ignore[override]
        return len(self.text.encode())


@dataclass(frozen=True, eq=False)
class Chars(Node):
    """One character of a class, written for both syntaxes (``[0-9]``)."""

    gbnf: str
    regex: str
    max_bytes: int = 1


@dataclass(frozen=True, eq=False)
class Seq(Node):
    items: tuple[Node, ...]

    @property
    def max_bytes(self) -> int:  # type: ignore[override]
        return sum(item.max_bytes for item in self.items)


@dataclass(frozen=True, eq=False)
class Alt(Node):
    items: tuple[Node, ...]

    @property
    def max_bytes(self) -> int:  # type: ignore[override]
        return max(item.max_bytes for item in self.items)


@dataclass(frozen=True, eq=False)
class Repeat(Node):
    item: Node
    low: int
    high: int

    @property
    def max_bytes(self) -> int:  # type: ignore[override]
        return self.high * self.item.max_bytes


@dataclass(eq=False)
class Rule(Node):
    """A named sub-grammar: referenced by name in GBNF, inlined in the regex."""

    name: str
    body: Node
    _max: int | None = field(default=None, repr=False)

    @property
    def max_bytes(self) -> int:  # type: ignore[override]
        if self._max is None:
            self._max = self.body.max_bytes
        return self._max


EMPTY = Lit("")


def seq(*items: Node) -> Node:
    parts: list[Node] = []
    for item in items:
        if isinstance(item, Seq):
            parts.extend(item.items)
        elif not (isinstance(item, Lit) and not item.text):
            parts.append(item)
    merged: list[Node] = []
    for part in parts:  # adjacent literals become one (shorter grammars, faster regexes)
        if merged and isinstance(part, Lit) and isinstance(merged[-1], Lit):
            merged[-1] = Lit(merged[-1].text + part.text)  # type: ignore[union-attr]
        else:
            merged.append(part)
    if not merged:
        return EMPTY
    return merged[0] if len(merged) == 1 else Seq(tuple(merged))


def alt(*items: Node) -> Node:
    unique: list[Node] = []
    for item in items:
        if isinstance(item, Alt):
            unique.extend(item.items)
        else:
            unique.append(item)
    if not unique:
        raise GrammarError("an alternative of nothing")
    return unique[0] if len(unique) == 1 else Alt(tuple(unique))


def opt(item: Node) -> Node:
    return Repeat(item, 0, 1)


# ------------------------------------------------------------------ rendering

_REGEX_META = set("\\.+*?()|[]{}^$#&-~")


def _gbnf_literal(text: str) -> str:
    out = []
    for ch in text:
        if ch == '"':
            out.append('\\"')
        elif ch == "\\":
            out.append("\\\\")
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\r":
            out.append("\\r")
        elif ch == "\t":
            out.append("\\t")
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append(f"\\x{ord(ch):02X}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def _regex_literal(text: str) -> str:
    out = []
    for ch in text:
        if ch in _REGEX_META:
            out.append("\\" + ch)
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append(f"\\x{ord(ch):02x}")
        else:
            out.append(ch)
    return "".join(out)


def _repeat_suffix(low: int, high: int) -> str:
    if (low, high) == (0, 1):
        return "?"
    return f"{{{low}}}" if low == high else f"{{{low},{high}}}"


def to_gbnf(node: Node, rules: dict[str, str]) -> str:
    """``node`` as a GBNF expression; named rules it uses are added to ``rules``."""
    if isinstance(node, Lit):
        return _gbnf_literal(node.text)
    if isinstance(node, Chars):
        return node.gbnf
    if isinstance(node, Rule):
        if node.name not in rules:
            rules[node.name] = ""  # reserve the name first: rules may refer to each other
            rules[node.name] = to_gbnf(node.body, rules)
        return node.name
    if isinstance(node, Seq):
        return " ".join(_gbnf_atom(item, rules, in_seq=True) for item in node.items)
    if isinstance(node, Alt):
        return " | ".join(to_gbnf(item, rules) for item in node.items)
    if isinstance(node, Repeat):
        return _gbnf_atom(node.item, rules, in_seq=False) + _repeat_suffix(node.low, node.high)
    raise TypeError(node)  # pragma: no cover


def _gbnf_atom(node: Node, rules: dict[str, str], *, in_seq: bool) -> str:
    text = to_gbnf(node, rules)
    needs_group = isinstance(node, Alt) or (isinstance(node, Seq) and not in_seq)
    return f"({text})" if needs_group else text


def to_regex(node: Node, string_chars: int | None = None) -> str:
    """``node`` as one regular expression (rules inlined); Rust ``regex`` and Python ``re`` syntax.

    ``string_chars`` bounds free JSON strings harder (a subset: see :data:`REGEX_STRING_CHARS`).
    """
    if isinstance(node, Lit):
        return _regex_literal(node.text)
    if isinstance(node, Chars):
        return node.regex
    if isinstance(node, Rule):
        return to_regex(node.body, string_chars)
    if isinstance(node, Seq):
        return "".join(_regex_atom(item, string_chars, in_seq=True) for item in node.items)
    if isinstance(node, Alt):
        return "|".join(to_regex(item, string_chars) for item in node.items)
    if isinstance(node, Repeat):
        high = node.high
        if string_chars is not None and node.item is STRING_CHAR:
            high = max(node.low, min(high, string_chars))
        return _regex_atom(node.item, string_chars, in_seq=False) + _repeat_suffix(node.low, high)
    raise TypeError(node)  # pragma: no cover


def _regex_atom(node: Node, string_chars: int | None, *, in_seq: bool) -> str:
    body = node
    while isinstance(body, Rule):  # a rule may name a rule: group by what is finally inlined
        body = body.body
    text = to_regex(body, string_chars)
    if (
        isinstance(body, Alt)
        or (isinstance(body, Seq) and not in_seq)
        or (isinstance(body, Lit) and len(body.text) > 1 and not in_seq)
    ):
        return f"(?:{text})"
    return text


@dataclass(frozen=True)
class Grammar:
    """A bounded grammar: GBNF text (root rule ``root``), a regex, and the longest output in bytes."""

    root: Node

    @property
    def max_bytes(self) -> int:
        return self.root.max_bytes

    @cached_property  # a decoder keys its compiled grammars by it and compiles it: read twice a model turn
    def gbnf(self) -> str:
        rules: dict[str, str] = {}
        root = to_gbnf(self.root, rules)
        lines = [f"root ::= {root}"] + [f"{name} ::= {body}" for name, body in rules.items()]
        return "\n".join(lines) + "\n"

    @property
    def regex(self) -> str:
        return to_regex(self.root)

    @property
    def index_regex(self) -> str:
        """:attr:`regex` with free text cut to :data:`REGEX_STRING_CHARS` characters (a subset), for
        backends that build an index over every state of the regex (outlines)."""
        return to_regex(self.root, REGEX_STRING_CHARS)


# -------------------------------------------------------------- number ranges

DIGIT = Chars("[0-9]", "[0-9]")


def _digit(low: int, high: int) -> Node:
    if low == high:
        return Lit(str(low))
    if (low, high) == (0, 9):
        return DIGIT
    return Chars(f"[{low}-{high}]", f"[{low}-{high}]")


def _same_length(a: str, b: str) -> list[list[tuple[int, int]]]:
    """Digit-range patterns matching exactly the numbers a..b written with len(a) digits."""
    if a == b:
        return [[(int(c), int(c)) for c in a]]
    i = 0
    while a[i] == b[i]:
        i += 1
    prefix = [(int(c), int(c)) for c in a[:i]]
    a_rest, b_rest = a[i:], b[i:]
    k = len(a_rest) - 1
    lo, hi = int(a_rest[0]), int(b_rest[0])
    if k == 0:
        return [prefix + [(lo, hi)]]
    out: list[list[tuple[int, int]]] = []
    start, end = lo, hi
    if a_rest[1:] != "0" * k:
        out += [prefix + [(lo, lo)] + p for p in _same_length(a_rest[1:], "9" * k)]
        start = lo + 1
    tail: list[list[tuple[int, int]]] = []
    if b_rest[1:] != "9" * k:
        tail = [prefix + [(hi, hi)] + p for p in _same_length("0" * k, b_rest[1:])]
        end = hi - 1
    if start <= end:
        out.append(prefix + [(start, end)] + [(0, 9)] * k)
    return out + tail


def _pattern_node(pattern: list[tuple[int, int]]) -> Node:
    items: list[Node] = []
    i = 0
    while i < len(pattern):
        j = i
        while j < len(pattern) and pattern[j] == (0, 9):
            j += 1
        if j - i > 1:
            items.append(Repeat(DIGIT, j - i, j - i))
            i = j
        else:
            items.append(_digit(*pattern[i]))
            i += 1
    return seq(*items)


def nonnegative_range(low: int, high: int) -> Node:
    """Decimal integers low..high (0 <= low <= high), no leading zeros."""
    if not 0 <= low <= high:
        raise GrammarError(f"empty or negative range {low}..{high}")
    patterns: list[list[tuple[int, int]]] = []
    for digits in range(len(str(low)), len(str(high)) + 1):
        a = max(low, 10 ** (digits - 1) if digits > 1 else 0)
        b = min(high, 10**digits - 1)
        if a <= b:
            patterns += _same_length(str(a), str(b))
    return alt(*(_pattern_node(p) for p in patterns))


def integer_range(low: int, high: int) -> Node:
    """JSON integers low..high exactly."""
    if low > high:
        raise GrammarError(f"empty integer range {low}..{high}")
    parts: list[Node] = []
    if low < 0:  # negatives low..min(high, -1), written as "-" and their absolute value
        parts.append(seq(Lit("-"), nonnegative_range(max(1, -min(high, -1)), -low)))
    if high >= 0:
        parts.append(nonnegative_range(max(low, 0), high))
    return alt(*parts)


FRACTION = seq(Lit("."), Repeat(DIGIT, 1, MAX_DECIMALS))


def number_range(low: float, high: float) -> Node:
    """JSON numbers within low..high, with at most MAX_DECIMALS decimals.

    Exact for integer values; a value with decimals is allowed when its whole
    unit interval lies inside the bounds (a subset: never a value outside them).
    """
    if low > high:
        raise GrammarError(f"empty number range {low}..{high}")
    parts: list[Node] = []
    ilow, ihigh = math.ceil(low), math.floor(high)
    if ilow <= ihigh:
        parts.append(integer_range(ilow, ihigh))
    # i.ddd lies in [i, i+1): needs i >= low and i + 1 <= high
    pos_low, pos_high = max(ilow, 0), math.floor(high) - 1
    if pos_low <= pos_high:
        parts.append(seq(nonnegative_range(pos_low, pos_high), FRACTION))
    # -k.ddd lies in (-(k+1), -k]: needs -(k+1) >= low and -k <= high
    neg_low, neg_high = max(0, math.ceil(-high)), math.floor(-low - 1)
    if neg_low <= neg_high:
        parts.append(seq(Lit("-"), nonnegative_range(neg_low, neg_high), FRACTION))
    if not parts:
        raise GrammarError(f"no number with at most {MAX_DECIMALS} decimals lies in {low}..{high}")
    return alt(*parts)


# ------------------------------------------------------------------- strings

# One character of a JSON string: anything but a quote, a backslash or a control
# character (up to 4 UTF-8 bytes), or a short escape. \\uXXXX escapes are left out.
RAW_CHAR = Chars('[^"\\\\\\x00-\\x1F]', '[^"\\\\\\x00-\\x1f]', 4)
STRING_CHAR = alt(
    RAW_CHAR,
    seq(Lit("\\"), Chars('["\\\\/bfnrt]', '["\\\\/bfnrt]')),
)

# ------------------------------------------------------------------ patterns

try:  # the standard library's own regex parser (private module; named sre_parse before 3.11)
    from re import _constants as _sre  # type: ignore[attr-defined]
    from re import _parser as _sre_parse  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover
    import sre_constants as _sre  # type: ignore[no-redef]
    import sre_parse as _sre_parse  # type: ignore[no-redef]

_PLAIN_ANY = RAW_CHAR  # '.': any character JSON does not escape


def pattern_contents(pattern: str) -> Node | None:
    """The string contents a regex ``pattern`` fully matches, as a bounded grammar; None if unsupported.

    Supported: literals, character classes of ranges/literals/``\\d``, groups,
    alternatives, ``?`` and ``{m,n}``, anchors at the ends. Unbounded
    repetition (``*``, ``+``, ``{m,}``), negated classes, characters that JSON
    must escape, and flags are not: such patterns are left to the validators.
    """
    try:
        tree = _sre_parse.parse(pattern)
    except Exception:  # re.error, or anything the private parser raises
        return None
    if tree.state.flags & ~_sre.SRE_FLAG_UNICODE:  # (?i), (?x), ...: not supported
        return None
    parsed = list(tree)
    if parsed and parsed[0] == (_sre.AT, _sre.AT_BEGINNING):
        parsed = parsed[1:]
    if parsed and parsed[-1] == (_sre.AT, _sre.AT_END):
        parsed = parsed[:-1]
    try:
        return _from_sre(parsed)
    except _Unsupported:
        return None


class _Unsupported(Exception):
    pass


def _plain(code: int) -> str:
    ch = chr(code)
    if ch in '"\\' or code < 0x20 or code == 0x7F:
        raise _Unsupported(ch)
    return ch


def _from_sre(items: list[tuple[Any, Any]]) -> Node:
    parts: list[Node] = []
    for op, arg in items:
        if op is _sre.LITERAL:
            parts.append(Lit(_plain(arg)))
        elif op is _sre.IN:
            parts.append(_char_class(arg))
        elif op is _sre.CATEGORY and arg is _sre.CATEGORY_DIGIT:
            parts.append(DIGIT)
        elif op is _sre.ANY:
            parts.append(_PLAIN_ANY)
        elif op in (_sre.MAX_REPEAT, _sre.MIN_REPEAT):
            low, high, sub = arg
            if high is _sre.MAXREPEAT or high > MAX_STRING_CHARS:
                raise _Unsupported("unbounded repetition")
            parts.append(Repeat(_from_sre(list(sub)), low, high))
        elif op is _sre.SUBPATTERN:
            _group, add_flags, del_flags, sub = arg
            if add_flags or del_flags:
                raise _Unsupported("flags")
            parts.append(_from_sre(list(sub)))
        elif op is _sre.BRANCH:
            parts.append(alt(*(_from_sre(list(branch)) for branch in arg[1])))
        else:
            raise _Unsupported(str(op))
    return seq(*parts)


def _char_class(members: list[tuple[Any, Any]]) -> Node:
    ranges: list[tuple[int, int]] = []
    for op, arg in members:
        if op is _sre.LITERAL:
            ranges.append((arg, arg))
        elif op is _sre.RANGE:
            ranges.append(arg)
        elif op is _sre.CATEGORY and arg is _sre.CATEGORY_DIGIT:
            ranges.append((48, 57))
        else:  # NEGATE, \\w, \\s, ...
            raise _Unsupported(str(op))
    body = ""
    for low, high in ranges:
        for code in (low, high):
            _plain(code)
        body += _class_char(low) + ("" if low == high else "-" + _class_char(high))
    width = max(len(chr(high).encode()) for _low, high in ranges)
    return Chars(f"[{body}]", f"[{body}]", width)


def _class_char(code: int) -> str:
    ch = chr(code)
    return "\\" + ch if ch in "]^-[" else ch


def max_chars(node: Node) -> int:
    """Longest match in characters (for grammars without JSON escapes, like pattern contents)."""
    if isinstance(node, Lit):
        return len(node.text)
    if isinstance(node, Chars):
        return 1
    if isinstance(node, Seq):
        return sum(max_chars(item) for item in node.items)
    if isinstance(node, Alt):
        return max(max_chars(item) for item in node.items)
    if isinstance(node, Repeat):
        return node.high * max_chars(node.item)
    if isinstance(node, Rule):
        return max_chars(node.body)
    raise TypeError(node)  # pragma: no cover


def string(min_length: int, max_length: int) -> Node:
    """JSON strings of min_length..max_length characters, at most :data:`MAX_STRING_CHARS` (a subset)."""
    if min_length > MAX_STRING_CHARS:
        raise GrammarError(f"a string of at least {min_length} characters is longer than a grammar writes")
    return seq(Lit('"'), Repeat(STRING_CHAR, min_length, min(max_length, MAX_STRING_CHARS)), Lit('"'))


def json_literal(value: Any) -> Lit:
    """A JSON scalar written canonically (compact, non-ASCII kept)."""
    return Lit(orjson.dumps(value).decode())


# ----------------------------------------------------------- schema -> grammar


SPAN_OF = "x-span-of"
"""A string schema keyword of fsmdial's: the string is a span of this text (see :func:`span_node`)."""
SPAN_STARTS = "x-span-starts"
"""With ``x-span-of``: the only word indices a span may start at."""
NOT_AT_EDGES = "x-not-at-edges"
"""With ``x-span-of``: words (casefolded) a span may neither start nor end with."""
NOT_INSIDE = "x-not-inside"
"""With ``x-span-of``: words (casefolded) a span may not have at all."""
ONE_CLAUSE = "x-one-clause"
"""With ``x-span-of``: ``true`` if a span may not run across a clause (only a sentence otherwise)."""
PERSON_NAME = "x-person-name"
"""With ``x-span-of``: ``true`` if a span must be of a person's name's shape (see :func:`.grounding.name_spans`)."""
WHOLE_CLAUSE = "x-whole-clause"
"""With ``x-span-of``: ``true`` if a span must run to the end of its clause (see :class:`.grounding.SpanRules`)."""


def span_rules(schema: dict[str, Any]) -> SpanRules:
    """The :class:`~.grounding.SpanRules` an ``x-span-of`` schema states."""
    starts = frozenset(schema[SPAN_STARTS]) if SPAN_STARTS in schema else None
    return SpanRules(
        frozenset(schema.get(NOT_AT_EDGES, ())),
        starts,
        frozenset(schema.get(NOT_INSIDE, ())),
        bool(schema.get(ONE_CLAUSE, False)),
        bool(schema.get(PERSON_NAME, False)),
        bool(schema.get(WHOLE_CLAUSE, False)),
    )


def json_piece(text: str) -> str:
    """``text`` as it appears inside a JSON string (escaped, without the quotes)."""
    return orjson.dumps(text).decode()[1:-1]


def span_node(text: str, rule: Any = None, rules: SpanRules | None = None) -> Node | None:
    """The JSON strings that are a span of ``text`` under ``rules`` (see :mod:`.grounding`); None if none.

    A span runs from the start of a word to the end of a word, gaps between
    words copied as written; it neither starts nor ends with a function word,
    and runs on only where :meth:`~.grounding.SpanRules.runs_on` lets it (not
    across a sentence, nor a clause for short values, nor over a barred word).
    Written as a chain of rules (``span-i``: the words from word i on), so the
    grammar grows linearly with the text, not with the number of spans.
    ``rule(hint, body)`` names a rule (the schema builder's, to keep names unique).
    """
    rules = rules or SpanRules()
    if rules.person_name:  # a few words at most: the spans themselves
        names = name_spans(text, rules)
        return seq(Lit('"'), alt(*(Lit(json_piece(name)) for name in names)), Lit('"')) if names else None
    msg = message(text)
    count = min(len(msg.words), TEXT_SPAN_WORDS)
    if count == 0:
        return None
    make = rule or (lambda hint, body: Rule(hint, body))
    chain: list[Node | None] = [None] * (count + 1)  # chain[i]: the spans from word i on (None: none)
    for i in range(count - 1, -1, -1):
        options: list[Node] = []
        if rules.can_end(msg, i):
            options.append(Lit(json_piece(msg.word(i))))
        after = chain[i + 1] if i + 1 < count and rules.runs_on(msg, i) else None
        if after is not None:
            options.append(seq(Lit(json_piece(msg.word(i) + msg.gap(i))), after))
        if options:
            chain[i] = make(f"span-{i}", alt(*options))
    firsts = [chain[i] for i in range(count) if chain[i] is not None and rules.can_start(msg, i)]
    if not firsts:
        return None
    return seq(Lit('"'), alt(*firsts), Lit('"'))  # type: ignore[arg-type]


def grammar_from_schema(schema: dict[str, Any]) -> Grammar:
    """The bounded grammar of ``schema`` (the subset :mod:`.schema` writes; else GrammarError)."""
    return Grammar(_Builder(schema).node(schema, "root"))


class _Builder:
    def __init__(self, schema: dict[str, Any]):
        self.defs: dict[str, Any] = schema.get("$defs", {})
        self.names: set[str] = set()
        self.spans: dict[tuple[str, SpanRules], Node] = {}

    def rule(self, hint: str, body: Node) -> Rule:
        base = "".join(ch if ch.isalnum() else "-" for ch in hint.lower()).strip("-") or "r"
        name, n = base, 1
        while name in self.names or name == "root":
            n += 1
            name = f"{base}-{n}"
        self.names.add(name)
        return Rule(name, body)

    def resolve(self, schema: dict[str, Any]) -> dict[str, Any]:
        ref = schema.get("$ref")
        if ref is None:
            return schema
        prefix = "#/$defs/"
        if not ref.startswith(prefix) or ref[len(prefix) :] not in self.defs:
            raise GrammarError(f"unsupported $ref {ref!r}")
        return self.defs[ref[len(prefix) :]]

    def node(self, schema: dict[str, Any], where: str) -> Node:
        schema = self.resolve(schema)
        if "anyOf" in schema:
            return alt(*(self.node(sub, f"{where}-{i}") for i, sub in enumerate(schema["anyOf"])))
        if SPAN_OF in schema:
            text, rules = schema[SPAN_OF], span_rules(schema)
            key = (text, rules)
            if key not in self.spans:
                found = span_node(text, self.rule, rules)
                if found is None:
                    raise GrammarError(f"{where}: {text!r} has no span")
                self.spans[key] = found
            return self.spans[key]
        if "enum" in schema or "const" in schema:
            values = schema["enum"] if "enum" in schema else [schema["const"]]
            return alt(*(json_literal(v) for v in values))
        kind = schema.get("type")
        if kind == "object":
            return self.object(schema, where)
        if kind == "string":
            pattern = schema.get("pattern")
            if pattern is not None:
                contents = pattern_contents(pattern)
                if contents is None:
                    raise GrammarError(f"{where}: string pattern {pattern!r} cannot be bounded")
                if "maxLength" in schema and max_chars(contents) > schema["maxLength"]:
                    raise GrammarError(f"{where}: pattern {pattern!r} allows strings longer than maxLength")
                return seq(Lit('"'), contents, Lit('"'))
            if "maxLength" not in schema:
                raise GrammarError(f"{where}: a string needs maxLength to be bounded")
            return string(int(schema.get("minLength", 0)), int(schema["maxLength"]))
        if kind == "integer":
            low = _bound(schema, "minimum", "exclusiveMinimum", -UNBOUNDED_INT, +1)
            high = _bound(schema, "maximum", "exclusiveMaximum", UNBOUNDED_INT, -1)
            return integer_range(_clamp(math.ceil(low)), _clamp(math.floor(high)))
        if kind == "number":
            if "exclusiveMinimum" in schema or "exclusiveMaximum" in schema:
                raise GrammarError(f"{where}: exclusive number bounds are not supported")
            low, high = schema.get("minimum", -UNBOUNDED_INT), schema.get("maximum", UNBOUNDED_INT)
            return number_range(_clamp(low), _clamp(high))
        if kind == "boolean":
            return alt(Lit("true"), Lit("false"))
        if kind == "null":
            return Lit("null")
        raise GrammarError(f"{where}: unsupported schema {schema!r}")

    def object(self, schema: dict[str, Any], where: str) -> Node:
        if schema.get("additionalProperties", True) is not False:
            raise GrammarError(f"{where}: objects must set additionalProperties: false")
        required = set(schema.get("required", ()))
        items = [(name, name in required) for name in schema.get("properties", {})]
        pairs = {
            name: self.rule(f"{where}-{name}", seq(json_literal(name), Lit(":"), self.node(sub, f"{where}-{name}")))
            for name, sub in schema.get("properties", {}).items()
        }
        # Keys come in schema order; optional keys may be left out. Two chains of rules keep the
        # GBNF linear in the number of keys: "after-k" (something is written, so a comma comes
        # first) and "from-k" (nothing written yet: the first key written is k or a later one).
        after: Node = EMPTY
        first: Node | None = None
        nullable = True  # every key from here on is optional
        for name, is_required in reversed(items):
            pair = pairs[name]
            head = seq(pair, after)
            if is_required:
                first, nullable = head, False
                after_body = seq(Lit(","), pair, after)
            else:
                first = head if first is None else alt(head, first)
                after_body = seq(opt(seq(Lit(","), pair)), after)
            after = self.rule(f"{where}-after-{name}", after_body)
            first = self.rule(f"{where}-from-{name}", first)
        if schema.get("minProperties", 0) > 0:
            nullable = False  # at least one key: the first key written is one of them
        body = EMPTY if first is None else (opt(first) if nullable else first)
        return seq(Lit("{"), body, Lit("}"))


def _clamp(bound: float) -> Any:
    return max(-LARGEST_INT, min(LARGEST_INT, bound))


def _bound(schema: dict[str, Any], inclusive: str, exclusive: str, default: float, step: int) -> float:
    if inclusive in schema:
        return schema[inclusive]
    if exclusive in schema:
        value = schema[exclusive]
        return math.floor(value) + 1 if step > 0 else math.ceil(value) - 1
    return default
