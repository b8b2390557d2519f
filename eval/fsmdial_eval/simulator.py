"""Simulated STAR APIs: seeded item tables from ``dbs/*.json``, queried with ``apis/*.json`` semantics.

STAR's databases are *generators*: each field has a type, a range or
categories, and possibly ``"!lambda p: ..."`` expressions (bounds that depend
on other fields, fields only present when ``Enabled``). :class:`Database`
evaluates those expressions with a small safe interpreter (no ``eval``) and
draws a fixed table of items from a seeded generator, so the same seed gives
the same table on every machine.

:meth:`StarApis.call` answers a query the way the STAR wizard interface did:
missing required inputs give an error message and no item; otherwise the
constraints filter the table (equality case-insensitive, lists by overlap,
bounds for integers) and the first match comes back with the number of
matches. APIs without a database, or whose inputs are not fields of it
(bookings, bank requests), return a seeded outcome drawn from the API's
declared outputs.

The result always has ``found`` (an item came back), ``ok`` (found, and its
message is not a refusal such as "Unavailable" or "We are unable to ...")
and ``count``: the flags imported flows branch on.
"""

from __future__ import annotations

import ast
import hashlib
import json
import operator
import random
import re
from itertools import combinations
from pathlib import Path
from typing import Any

from fsmdial.userfiles import MAX_CORPUS_BYTES, read_json

REFUSAL = re.compile(
    r"\b(unavailable|fail(?:ed|ure)?|unable|error|conflict(?:ing)?|too small|"
    r"not (?:authori[sz]ed|able|available|possible)"
    r"|cannot|can't|sorry|must provide|booked at)\b",
    re.I,
)
"""Words of a knowledge-base message that mean the request did not go through."""
STATUS_FIELDS = re.compile(r"message|status|confirmation", re.I)
TABLE_SIZE = 300


def refused(item: dict[str, Any] | None) -> bool:
    """True when an item's status message says the request failed."""
    if not item:
        return True
    return any(isinstance(v, str) and STATUS_FIELDS.search(k) and REFUSAL.search(v) for k, v in item.items())


# ------------------------------------------------------------ expressions

_ALLOWED = (
    ast.Expression,
    ast.Lambda,
    ast.arguments,
    ast.arg,
    ast.Subscript,
    ast.Name,
    ast.Load,
    ast.Constant,
    ast.BinOp,
    ast.Add,
    ast.Sub,
    ast.Mult,
    ast.Compare,
    ast.Eq,
    ast.NotEq,
    ast.Gt,
    ast.Lt,
    ast.GtE,
    ast.LtE,
    ast.In,
    ast.NotIn,
    ast.BoolOp,
    ast.And,
    ast.Or,
    ast.UnaryOp,
    ast.Not,
    ast.USub,
    ast.List,
    ast.Call,
    ast.Tuple,
)


def _check(node: ast.AST, text: str) -> None:
    for sub in ast.walk(node):
        if not isinstance(sub, _ALLOWED):
            raise ValueError(f"unsupported expression in STAR database: {text!r} ({type(sub).__name__})")
        if isinstance(sub, ast.Call) and not (
            isinstance(sub.func, ast.Name) and sub.func.id in ("list", "combinations")
        ):
            raise ValueError(f"unsupported call in STAR database: {text!r}")


_COMPARE = {
    ast.Eq: operator.eq,
    ast.NotEq: operator.ne,
    ast.Gt: operator.gt,
    ast.Lt: operator.lt,
    ast.GtE: operator.ge,
    ast.LtE: operator.le,
    ast.In: lambda a, b: a in b,
    ast.NotIn: lambda a, b: a not in b,
}


def _evaluate(node: ast.AST, p: dict[str, Any]) -> Any:
    if isinstance(node, ast.Expression):
        return _evaluate(node.body, p)
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Name):
        if node.id == "p":
            return p
        raise ValueError(f"unknown name {node.id!r}")
    if isinstance(node, ast.Subscript):
        return _evaluate(node.value, p)[_evaluate(node.slice, p)]
    if isinstance(node, (ast.List, ast.Tuple)):
        return [_evaluate(e, p) for e in node.elts]
    if isinstance(node, ast.UnaryOp):
        value = _evaluate(node.operand, p)
        return (not value) if isinstance(node.op, ast.Not) else -value
    if isinstance(node, ast.BinOp):
        arithmetic = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul}[type(node.op)]
        return arithmetic(_evaluate(node.left, p), _evaluate(node.right, p))
    if isinstance(node, ast.BoolOp):
        values = (_evaluate(v, p) for v in node.values)
        return all(values) if isinstance(node.op, ast.And) else any(values)
    if isinstance(node, ast.Compare):
        left = _evaluate(node.left, p)
        for op, comparator in zip(node.ops, node.comparators, strict=True):
            right = _evaluate(comparator, p)
            if not _COMPARE[type(op)](left, right):
                return False
            left = right
        return True
    if isinstance(node, ast.Call):
        args = [_evaluate(a, p) for a in node.args]
        if node.func.id == "combinations":  # type: ignore[attr-defined]
            return list(combinations(args[0], args[1]))
        return list(args[0])
    raise ValueError(f"unsupported expression node {type(node).__name__}")


def expression(value: Any) -> Any:
    """A STAR spec value: plain data, or a ``"!..."`` expression compiled to a function of the item so far."""
    if not (isinstance(value, str) and value.startswith("!")):
        return value
    text = value[1:].strip()
    tree = ast.parse(text, mode="eval")
    _check(tree, text)
    body = tree.body.body if isinstance(tree.body, ast.Lambda) else tree.body
    if isinstance(tree.body, ast.Lambda):
        return lambda p: _evaluate(body, p)
    constant = _evaluate(body, {})
    return constant


# ------------------------------------------------------------ databases


class Database:
    """A seeded table of items drawn from one ``dbs/<name>.json`` generator spec."""

    def __init__(self, name: str, spec: list[dict[str, Any]], *, seed: int = 0, size: int = TABLE_SIZE):
        self.name = name
        self.fields = [
            dict(f, **{k: expression(f[k]) for k in ("Min", "Max", "Categories", "Enabled") if k in f}) for f in spec
        ]
        rng = random.Random(f"{seed}:{name}")
        self.items = [self._draw(rng, index + 1) for index in range(size)]

    def _draw(self, rng: random.Random, ident: int) -> dict[str, Any]:
        item: dict[str, Any] = {}
        for spec in self.fields:
            enabled = spec.get("Enabled", True)
            try:
                if callable(enabled) and not enabled(item):
                    continue
                value = self._value(spec, item, rng)
            except (KeyError, TypeError):
                continue  # depends on a field this item does not have
            if value is not None:
                item[spec["Name"]] = value
        item.setdefault("id", ident)
        return item

    @staticmethod
    def _value(spec: dict[str, Any], item: dict[str, Any], rng: random.Random) -> Any:
        kind = spec.get("Type")
        resolve = lambda v: v(item) if callable(v) else v  # noqa: E731
        if kind == "Integer":
            low, high = int(resolve(spec.get("Min", 0))), int(resolve(spec.get("Max", 100)))
            return rng.randint(min(low, high), max(low, high))
        if kind == "Boolean":
            return rng.random() < 0.5
        categories = resolve(spec.get("Categories"))
        if isinstance(categories, list) and categories:
            choice = categories[rng.randrange(len(categories))]
            return list(choice) if isinstance(choice, (list, tuple)) else choice
        return None

    def query(self, constraints: dict[str, Any]) -> tuple[dict[str, Any] | None, int]:
        matches = [item for item in self.items if all(_matches(item.get(k), v) for k, v in constraints.items())]
        return (dict(matches[0]) if matches else None), len(matches)


def _norm(value: Any) -> Any:
    if isinstance(value, str):
        text = value.strip().casefold()
        try:
            return float(text) if re.fullmatch(r"-?\d+(\.\d+)?", text) else text
        except ValueError:
            return text
    if isinstance(value, bool):
        return value
    if isinstance(value, (int, float)):
        return float(value)
    return value


def _matches(actual: Any, wanted: Any) -> bool:
    """Does a field value satisfy a constraint (a value, or ``{"op": ..., "value": ...}``)?"""
    op, value = ("eq", wanted)
    if isinstance(wanted, dict) and "op" in wanted:
        op, value = wanted["op"], wanted.get("value")
    if actual is None:
        return op in ("is_not", "contains_not")
    if isinstance(actual, list):
        have = {_norm(a) for a in actual}
        values = value if isinstance(value, list) else [value]
        hit = any(_norm(v) in have for v in values)
        return not hit if op in ("is_not", "contains_not") else hit
    if op in ("at_least", "at_most", "less_than", "greater_than"):
        try:
            a, b = float(actual), float(value)
        except (TypeError, ValueError):
            return False
        return {"at_least": a >= b, "at_most": a <= b, "less_than": a < b, "greater_than": a > b}[op]
    if op == "one_of" or isinstance(value, list):
        return _norm(actual) in {_norm(v) for v in (value if isinstance(value, list) else [value])}
    if op in ("is_not", "contains_not"):
        return _norm(actual) != _norm(value)
    if op == "contains":
        return str(_norm(value)) in str(_norm(actual))
    return _norm(actual) == _norm(value)


# ------------------------------------------------------------ APIs


class StarApis:
    """Every API of a STAR copy, answering queries from seeded databases."""

    def __init__(self, star_dir: str | Path, *, seed: int = 0):
        self.root = Path(star_dir)
        self.seed = seed
        self.apis: dict[str, dict[str, Any]] = {}
        for path in sorted((self.root / "apis").glob("*.json")):
            self.apis[path.stem] = read_json(path)
        self._dbs: dict[str, Database] = {}

    def database(self, name: str) -> Database | None:
        if name not in self._dbs:
            path = self.root / "dbs" / f"{name}.json"
            if not path.is_file():
                return None
            self._dbs[name] = Database(name, read_json(path, limit=MAX_CORPUS_BYTES), seed=self.seed)
        return self._dbs[name]

    def call(self, api: str, arguments: dict[str, Any]) -> dict[str, Any]:
        """Answer one query: ``{"item": ... or None, "count": n, "found": bool, "ok": bool}``."""
        spec = self.apis[api]
        missing = [name for name in spec.get("required") or [] if arguments.get(name) in (None, "")]
        if missing:
            item = {"Message": f"Missing required input: {', '.join(missing)}. Sorry, I cannot process this request."}
            return {"item": None, "message_item": item, "count": 0, "found": False, "ok": False}
        fields = {f["Name"] for f in spec.get("input") or [] if f.get("Type") != "RequestType"}
        db = self.database(spec["db"]) if spec.get("db") else None
        db_fields = {f["Name"] for f in db.fields} if db else set()
        searchable = {k: v for k, v in arguments.items() if k in fields and k in db_fields}
        outputs = [f["Name"] for f in spec.get("output") or []]
        lookup = db is not None and (
            spec.get("function") == "generic_sample" or 2 * sum(o in db_fields for o in outputs) > len(outputs)
        )
        if lookup:  # a search: the item itself is the answer
            found, count = db.query(searchable)  # type: ignore[union-attr]
            return {
                "item": found,
                "count": count,
                "found": found is not None,
                "ok": found is not None and not refused(found),
            }
        item = self._outcome(api, spec, arguments)
        return {"item": item, "count": 1, "found": True, "ok": not refused(item)}

    def _outcome(self, api: str, spec: dict[str, Any], arguments: dict[str, Any]) -> dict[str, Any]:
        """A seeded outcome for a request API (booking, report ...): its outputs drawn, its inputs echoed."""
        key = json.dumps([api, sorted((k, str(v)) for k, v in arguments.items())], sort_keys=True)
        rng = random.Random(int(hashlib.sha256(f"{self.seed}:{key}".encode()).hexdigest()[:16], 16))
        item: dict[str, Any] = {k: v for k, v in arguments.items() if k != "RequestType"}
        for out in spec.get("output") or []:
            value = Database._value(
                {**out, **{k: expression(out[k]) for k in ("Min", "Max", "Categories") if k in out}}, item, rng
            )
            item[out["Name"]] = value if value is not None else "OK"
        if "Message" not in item and not any(STATUS_FIELDS.search(k) for k in item):
            item["Message"] = "Request processed."
        return item
