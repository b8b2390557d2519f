"""Fuzzing the flow loader: every document is either a valid Flow or a FlowError naming where the problem is.

Three sources of documents (hypothesis):

* the example flows (flows/*.json) mutated 1-4 times: keys dropped, renamed or
  added, values replaced by other JSON types, references pointed at missing
  or other nodes, list items dropped or duplicated, hostile node ids;
* flows generated from scratch (random graphs of every node type, conditions,
  templates and ids), most invalid in some way, some valid;
* arbitrary JSON values and bytes.

A valid flow must also compile, and a Dialogue on it (stand-in tools) must
start and take a few turns raising nothing but typed fsmdial errors.

CI tries 600 documents; ``FSMDIAL_FULL=1`` tries 10,000.
"""

from __future__ import annotations

import copy
import json
import re
from collections import Counter
from typing import Any

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fsmdial.compiler import compile_flow, emit_source
from fsmdial.errors import FlowError, FsmdialError, TurnError
from fsmdial.flow import Flow
from fsmdial.importers.chief import looks_like_chief
from fsmdial.loader import load_flow
from fsmdial.runtime import Dialogue
from tests.reliability_support import FLOW_PATHS, clock, count, record

MUTATED = count(400, 7000)
GENERATED = count(150, 2000)
RANDOM = count(50, 1000)

EXAMPLES = [orjson.loads(path.read_bytes()) for path in FLOW_PATHS]
TURNS = ["hello", "yes", "no", "2", "tomorrow at 7pm", "Jane", "{name}", "bye"]

json_scalar = st.one_of(
    st.none(), st.booleans(), st.integers(-(2**70), 2**70), st.floats(allow_nan=False), st.text(max_size=12)
)
json_value = st.recursive(
    json_scalar,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
hostile_text = st.sampled_from(
    [
        'x"""; import os #',
        "a\nb",
        "",
        " ",
        "é",
        "²",
        "1",
        "-",
        "{",
        "}",
        "{x}",
        "a.b",
        "\x00",
        "\\",
        "nodes",
        "__class__",
    ]
)
text = st.one_of(st.text(max_size=10), hostile_text)


# ------------------------------------------------------------------ mutations


def containers(doc: Any, path: tuple = ()) -> list[tuple]:
    """Paths of every dict and list in ``doc``."""
    out = []
    if isinstance(doc, (dict, list)):
        out.append(path)
        items = doc.items() if isinstance(doc, dict) else enumerate(doc)
        for key, value in items:
            out.extend(containers(value, path + (key,)))
    return out


def node_ids(doc: Any) -> list[Any]:
    nodes = doc.get("nodes") if isinstance(doc, dict) else None
    return [n.get("id") for n in nodes if isinstance(n, dict) and "id" in n] if isinstance(nodes, list) else []


def at(doc: Any, path: tuple) -> Any:
    for key in path:
        doc = doc[key]
    return doc


def unshared(value: Any) -> Any:
    """A copy of ``value`` with no container reachable twice (``v * 2`` would share ``v``'s items, and a
    later mutation of one would then change both, or put a container inside itself)."""
    if isinstance(value, dict):
        return {key: unshared(item) for key, item in value.items()}
    if isinstance(value, list):
        return [unshared(item) for item in value]
    return value


@st.composite
def mutation(draw: st.DrawFn, doc: Any) -> None:
    paths = containers(doc)
    target = at(doc, draw(st.sampled_from(paths)))
    keys = list(target.keys() if isinstance(target, dict) else range(len(target)))
    kind = draw(st.sampled_from(["drop", "rename", "replace", "retype", "reference", "duplicate", "add", "clear"]))
    if kind == "add" or not keys:
        if isinstance(target, dict):
            target[draw(st.one_of(text, st.sampled_from(["id", "type", "when", "slots", "op", "value", "tool"])))] = (
                draw(json_value)
            )
        else:
            target.append(draw(json_value))
        return
    key = draw(st.sampled_from(keys))
    value = target[key]
    if kind == "drop":
        del target[key]
    elif kind == "rename" and isinstance(target, dict):
        target[draw(text)] = target.pop(key)
    elif kind == "replace":
        target[key] = draw(json_value)
    elif kind == "retype":  # the same content as another JSON type
        target[key] = unshared(
            {
                str: lambda v: draw(st.sampled_from([len(v), [v], {"value": v}, None, v.upper(), v + "x"])),
                int: lambda v: draw(st.sampled_from([str(v), float(v), -v, 10**12, [v], True])),
                float: lambda v: draw(st.sampled_from([str(v), int(v), -v, float("inf")])),
                bool: lambda v: draw(st.sampled_from([str(v).lower(), int(v), None])),
                list: lambda v: draw(st.sampled_from([{}, v[:1], v * 2, "list", {str(i): x for i, x in enumerate(v)}])),
                dict: lambda v: draw(st.sampled_from([[], list(v.values()), str(v), {}])),
                type(None): lambda v: draw(st.sampled_from(["", 0, [], {}])),
            }[type(value)](value)
        )
    elif kind == "reference":  # point a string at another (or no) node, or a node id at a hostile name
        ids = [i for i in node_ids(doc) if i is not None]
        target[key] = draw(st.one_of(st.sampled_from(ids or ["missing"]), st.just("missing_node"), hostile_text))
    elif kind == "duplicate" and isinstance(target, list):
        target.insert(draw(st.integers(0, len(target))), copy.deepcopy(value))
    elif kind == "clear":
        target[key] = type(value)() if isinstance(value, (dict, list, str)) else None


@st.composite
def mutated_document(draw: st.DrawFn) -> Any:
    doc = copy.deepcopy(draw(st.sampled_from(EXAMPLES)))
    for _ in range(draw(st.integers(1, 4))):
        draw(mutation(doc))
    return doc


# ------------------------------------------------------------ generated flows

slot_names = st.sampled_from(["name", "size", "day", "when", "kind", "ok", "n"])
node_id = st.one_of(st.sampled_from(["a", "b", "c", "d", "e", "f"]), hostile_text)


@st.composite
def slot(draw: st.DrawFn) -> dict[str, Any]:
    kind = draw(st.sampled_from(["string", "integer", "number", "boolean", "categorical", "date", "time", "bogus"]))
    out: dict[str, Any] = {"name": draw(slot_names), "type": kind}
    if kind == "categorical" or draw(st.booleans()) and draw(st.booleans()):
        out["values"] = draw(st.lists(st.text(max_size=6), max_size=3))
    if draw(st.booleans()):
        out["ask"] = draw(st.sampled_from(["What {name}?", "Size?", "{result.x} {", "{0.__class__}", "Day {day:d}?"]))
    for key in ("minimum", "maximum", "pattern", "max_length", "required", "examples"):
        if draw(st.integers(0, 5)) == 0:
            out[key] = draw(json_value if key != "pattern" else st.sampled_from(["^[0-9]+$", "(", "a*"]))
    return out


condition = st.recursive(
    st.one_of(
        st.builds(
            lambda s, op, v: {"slot": s, "op": op, "value": v},
            slot_names,
            st.sampled_from(["eq", "ne", "in", "lt", "present", "declined", "bad"]),
            json_scalar,
        ),
        st.builds(lambda r, v: {"result": r, "value": v}, st.sampled_from(["ok", "x", "y"]), json_scalar),
        st.builds(lambda a: {"answer": a}, st.sampled_from(["yes", "no", "other", "maybe"])),
        st.builds(lambda s: {"status": s}, st.sampled_from(["success", "failure"])),
        st.builds(lambda n, v: {"visits": n, "value": v}, node_id, st.integers(-1, 3)),
        st.builds(lambda c: {"call": c}, st.sampled_from(["gate", "1bad"])),
        json_value,
    ),
    lambda inner: st.one_of(
        st.builds(lambda xs: {"all": xs}, st.lists(inner, max_size=3)),
        st.builds(lambda xs: {"any": xs}, st.lists(inner, max_size=3)),
        st.builds(lambda x: {"not": x}, inner),
    ),
    max_leaves=5,
)


@st.composite
def node(draw: st.DrawFn, node_id_: Any) -> dict[str, Any]:
    kind = draw(st.sampled_from(["request", "external_action", "inform", "inform_and_confirm", "end", "other"]))
    out: dict[str, Any] = {"id": node_id_, "type": kind}
    if kind == "request":
        out["slots"] = draw(st.lists(slot(), min_size=0, max_size=3))
    elif kind == "external_action":
        out["tool"] = draw(st.sampled_from(["t", "u", ""]))
        out["result"] = draw(
            st.dictionaries(
                st.sampled_from(["ok", "x", "y"]), st.sampled_from(["boolean", "string", "any", "nope"]), max_size=2
            )
        )
        if draw(st.booleans()):
            out["success_when"] = draw(condition)
        if draw(st.booleans()):
            out["timeout"] = draw(st.sampled_from([0.5, 0, -1, "soon"]))
    elif kind in ("inform", "inform_and_confirm", "end"):
        message = st.sampled_from(["Done.", "Hi {name}", "{result.ok}", "{a.x}", "{", "{{literal}}", "{n!r}", ""])
        out["message"] = draw(message)
        if kind == "inform_and_confirm":
            out["question"] = draw(message)
    return out


@st.composite
def random_graph(draw: st.DrawFn) -> dict[str, Any]:
    """Nodes of random types joined by random edges: almost always invalid somewhere."""
    ids = draw(st.lists(node_id, min_size=1, max_size=6, unique=True))
    nodes = [draw(node(i)) for i in ids]
    edges = []
    for _ in range(draw(st.integers(0, 8))):
        edge: dict[str, Any] = {
            "source": draw(st.sampled_from(ids + ["zz"])),
            "target": draw(st.sampled_from(ids + ["zz"])),
        }
        if draw(st.booleans()):
            edge["when"] = draw(condition)
        edges.append(edge)
    doc: dict[str, Any] = {"name": draw(st.one_of(st.just("gen"), text)), "nodes": nodes, "edges": edges}
    if draw(st.booleans()):
        doc["global_actions"] = [
            {"intent": "hello", "examples": ["hi"], "response": draw(st.sampled_from(["Hello {name}", "Hi"]))}
        ]
    if draw(st.booleans()):
        doc["fallbacks"] = {"goodbye": "Bye", "out_of_scope": draw(st.sampled_from(["Sorry", "{bad"]))}
    return doc


@st.composite
def chain_flow(draw: st.DrawFn) -> dict[str, Any]:
    """A well-formed flow built step by step (request first, end last, every branch closed),
    with free-text ids, slot types, templates and conditions drawn at random; often valid."""
    names = draw(st.lists(slot_names, min_size=1, max_size=3, unique=True))
    slots = []
    for name in names:
        kind = draw(st.sampled_from(["string", "integer", "number", "boolean", "categorical", "date", "time"]))
        spec: dict[str, Any] = {
            "name": name,
            "type": kind,
            "ask": draw(st.sampled_from([f"{name}?", "Tell me {" + name + "}", "{{x}} ok?"])),
        }
        if kind == "categorical":
            spec["values"] = draw(
                st.lists(st.sampled_from(["red", "blue", "2", "yes", "{x}"]), min_size=1, max_size=3, unique=True)
            )
        if kind in ("integer", "number") and draw(st.booleans()):
            spec["minimum"], spec["maximum"] = 1, draw(st.integers(1, 100))
        if kind == "string" and draw(st.booleans()):
            spec["pattern"] = draw(st.sampled_from(["^[0-9]{4}$", "^[A-Za-z ]+$", ".*"]))
        spec["required"] = draw(st.booleans()) or name == names[0]
        slots.append(spec)
    ids = draw(st.lists(node_id, min_size=3, max_size=7, unique=True))
    nodes: list[dict[str, Any]] = [{"id": ids[0], "type": "request", "slots": slots}]
    edges: list[dict[str, Any]] = []
    end = ids[-1]
    previous = ids[0]
    for ident in ids[1:-1]:
        kind = draw(st.sampled_from(["external_action", "inform", "inform_and_confirm"]))
        placeholder = draw(st.sampled_from([""] + [" {" + n + "}" for n in names]))
        if kind == "external_action":
            action: dict[str, Any] = {
                "id": ident,
                "type": kind,
                "tool": draw(st.sampled_from(["t", "u"])),
                "result": {"ok": "boolean", "note": {"type": "string", "required": False}},
            }
            if draw(st.booleans()):
                action["success_when"] = {"result": "ok", "op": "eq", "value": True}
            if draw(st.booleans()):
                action["timeout"] = 1.0
            nodes.append(action)
            edges.append({"source": previous, "target": ident})
            edges.append({"source": ident, "target": end, "when": {"status": "failure"}})
        elif kind == "inform":
            nodes.append({"id": ident, "type": kind, "message": "Noted" + placeholder})
            edges.append({"source": previous, "target": ident})
        else:
            nodes.append({"id": ident, "type": kind, "message": "So" + placeholder, "question": "Right?"})
            edges.append({"source": previous, "target": ident})
            edges.append({"source": ident, "target": end, "when": {"answer": "no"}})
        previous = ident
    last_when = None
    if nodes[-1]["type"] == "inform_and_confirm":
        last_when = {"answer": "yes"}
    elif nodes[-1]["type"] == "external_action":
        last_when = {"status": "success"}
    edges.append({"source": previous, "target": end, **({"when": last_when} if last_when else {})})
    nodes.append({"id": end, "type": "end", "message": draw(st.sampled_from(["Bye.", "Bye {" + names[0] + "}."]))})
    if draw(st.booleans()):  # a conditional shortcut from the request node to the end, tried first
        op = draw(st.sampled_from(["eq", "present", "gt"]))
        when = {"slot": names[0], "op": op, **({} if op == "present" else {"value": 3})}
        edges.insert(0, {"source": ids[0], "target": end, "when": when})
    doc = {
        "name": draw(st.one_of(st.just("chain"), text)),
        "nodes": nodes,
        "edges": edges,
        "global_actions": [{"intent": "hello", "examples": ["hello"], "response": "Hi!"}],
        "fallbacks": {"goodbye": "Bye!", "out_of_scope": "Sorry?", "anything_else": "More?"},
    }
    for _ in range(draw(st.integers(0, 1))):
        draw(mutation(doc))
    return doc


generated_document = st.one_of(random_graph(), chain_flow())


# ------------------------------------------------------------------ the check


def native(doc: dict) -> bool:
    """Whether the loader reads ``doc`` as fsmdial's own format (not converted from CHIEF or an SOP)."""
    if looks_like_chief(doc):
        return False
    try:
        from fsmdial.importers.sop import looks_like_sop
    except ImportError:  # pragma: no cover - an fsmdial without the SOP importer
        return True
    return not looks_like_sop(doc)


_GRAPH_PREFIXES = ("node ", "nodes ", "edge ", "global_action ", "(flow)")


def resolves(doc: Any, path: str) -> bool:
    """Whether ``path`` (as the loader writes it: ``nodes[2](id).slots[0]["odd key"]``) names a
    place in ``doc``: every step exists, except a last key reported missing."""
    current, rest = doc, path
    while rest:
        if match := re.match(r"\[(\d+)\]", rest):
            index, rest = int(match.group(1)), rest[match.end() :]
            if not isinstance(current, list) or index >= len(current):
                return False
            current = current[index]
            node_id = current.get("id") if isinstance(current, dict) else None
            if node_id is not None and isinstance(node_id, (str, int)) and rest.startswith(f"({node_id})"):
                rest = rest[len(f"({node_id})") :]  # the loader's "(id)" annotation
            continue
        if rest.startswith("["):  # a quoted key: a JSON string
            decoder = orjson.loads
            for stop in range(2, len(rest)):
                if rest[stop] == "]":
                    try:
                        key = decoder(rest[1:stop])
                    except orjson.JSONDecodeError:
                        continue
                    break
            else:
                return False
            rest = rest[stop + 1 :]
        else:
            match = re.match(r"\.?([A-Za-z_$][A-Za-z0-9_$]*)", rest)
            if not match:
                return False
            key, rest = match.group(1), rest[match.end() :]
        if not isinstance(current, dict):
            return False
        if key not in current:
            return not rest
        current = current[key]
    return True


def check(doc: Any, stats: Counter, *, as_bytes: bool = False) -> None:
    source = json.dumps(doc).encode() if as_bytes else doc  # json: integers beyond 64 bits too
    try:
        flow = load_flow(source)
    except FlowError as exc:
        stats["flow_error"] += 1
        assert exc.issues, "a FlowError with no issue"
        for issue in exc.issues:
            assert issue.message, issue
            if issue.message.startswith("not valid JSON"):
                assert as_bytes and re.search(r"line \d+ column \d+", issue.message), issue  # where, in the text
            elif not isinstance(doc, dict):
                assert issue.path == "" and "JSON object" in issue.message
            elif not native(doc):
                assert issue.path, issue  # an imported format: paths name its vertices or the translated document
            elif (
                not issue.path.startswith(_GRAPH_PREFIXES)
                and issue.path not in ("start",)
                and not issue.path.startswith("fallbacks.")
            ):
                assert resolves(doc, issue.path), f"issue path {issue.path!r} names nothing in the document: {issue}"
            else:
                assert issue.path, issue
        return
    stats["valid"] += 1
    assert isinstance(flow, Flow)
    compile(emit_source(flow), "<fuzz>", "exec")  # the source a user would write to a file compiles too
    cls = compile_flow(flow)
    assert set(cls.STATES) == {n.id for n in flow.nodes}
    run_dialogue(flow, stats)


def run_dialogue(flow: Flow, stats: Counter) -> None:
    predicates = {"gate": lambda machine: True}
    try:
        dialogue = Dialogue(flow, stand_in_tools=True, predicates=predicates, clock=clock)
    except FsmdialError:
        stats["dialogue_refused"] += 1
        return
    for index, utterance in enumerate([None, *TURNS]):
        before = dialogue.snapshot()
        try:
            dialogue.start() if utterance is None else dialogue.turn(utterance)
        except FsmdialError as exc:
            stats["turn_error"] += 1
            # The runtime wraps an unexpected exception as TurnError("turn failed: ..."): here that is a bug.
            internal = type(exc) is TurnError and exc.__cause__ is not None
            assert not internal, f"internal error on a valid flow: {exc}"
            assert dialogue.snapshot() == before
            if index == 0:
                return
        else:
            stats["turn_ok"] += 1
        if dialogue.ended:
            return


SETTINGS = dict(
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
)


def test_mutated_example_flows_load_or_fail_with_a_flow_error() -> None:
    stats: Counter = Counter()

    @settings(max_examples=MUTATED, **SETTINGS)
    @given(doc=mutated_document(), as_bytes=st.booleans())
    def fuzz(doc: Any, as_bytes: bool) -> None:
        stats["cases"] += 1
        check(doc, stats, as_bytes=as_bytes)

    fuzz()
    record("fuzz_flows_mutated", **stats, unexpected_exceptions=0)
    assert stats["cases"] >= MUTATED and stats["flow_error"] and stats["valid"], stats


def test_generated_flows_load_or_fail_with_a_flow_error() -> None:
    stats: Counter = Counter()

    @settings(max_examples=GENERATED, **SETTINGS)
    @given(doc=generated_document)
    def fuzz(doc: Any) -> None:
        stats["cases"] += 1
        check(doc, stats)

    fuzz()
    record("fuzz_flows_generated", **stats, unexpected_exceptions=0)
    assert stats["cases"] >= GENERATED and stats["flow_error"] and stats["valid"], stats


def test_arbitrary_json_and_bytes_fail_with_a_flow_error() -> None:
    stats: Counter = Counter()

    @settings(max_examples=RANDOM, **SETTINGS)
    @given(doc=st.one_of(json_value, st.binary(max_size=64)))
    def fuzz(doc: Any) -> None:
        stats["cases"] += 1
        if isinstance(doc, str):  # a str is a path to load_flow; as a document it is JSON text
            doc = orjson.dumps(doc)
        if isinstance(doc, bytes):
            try:
                load_flow(doc)
            except FlowError as exc:
                stats["flow_error"] += 1
                assert exc.issues
            return
        check(doc, stats)

    fuzz()
    record("fuzz_flows_random", **stats, unexpected_exceptions=0)
    assert stats["cases"] >= RANDOM, stats


def test_hostile_node_ids_and_names_compile_to_inert_text() -> None:
    """Free text from a flow document ends up in comments and docstrings of the generated
    source and in model names: it must never become code nor break compilation (found by this
    fuzzer: an id containing \"\"\" ran as code; a NUL in an id broke the result model)."""
    import builtins

    from tests.reliability_support import SpyTools, drive

    evils = [
        'x"""+__import__("builtins").__setattr__("fsmdial_pwned", 1)+"""',
        "y\n__import__('builtins').__setattr__('fsmdial_pwned', 1)\n",
        "z\\",
        "a²",
        "\\N{",
        "q'''",
        "n\x00ul",
    ]
    for evil in evils:
        for example in EXAMPLES:
            if not native(example):
                continue
            doc = copy.deepcopy(example)
            renamed = {node["id"]: node["id"] + evil for node in doc["nodes"]}
            for node in doc["nodes"]:
                node["id"] = renamed[node["id"]]
            for edge in doc["edges"]:
                edge["source"], edge["target"] = renamed[edge["source"]], renamed[edge["target"]]
                for cond in _walk(edge.get("when")):
                    if "visits" in cond:
                        cond["visits"] = renamed[cond["visits"]]
            for action in doc.get("global_actions", []):
                if action.get("target"):
                    action["target"] = renamed[action["target"]]
            for key in ("start", "escalate_to"):  # top-level references to a node
                if doc.get(key):
                    doc[key] = renamed[doc[key]]
            doc["name"] = evil.replace("\x00", "")  # a NUL name no store keeps is refused (below); ids keep it
            flow = load_flow(doc)
            cls = compile_flow(flow)
            assert set(renamed.values()) == set(cls.STATES)
            spy = SpyTools(flow)
            steps = list(drive(Dialogue(flow, tools=spy.registry, clock=clock)))
            assert steps and (spy.calls or not spy.models)
    assert not hasattr(builtins, "fsmdial_pwned")
    surrogate = copy.deepcopy(EXAMPLES[0])
    surrogate["name"] = "\ud800"
    with pytest.raises(FlowError, match="name"):  # not text: refused, never half-compiled
        load_flow(surrogate)
    surrogate["name"] = "n\x00ul"
    with pytest.raises(FlowError, match="U\\+0000"):  # no store keeps it: refused where it is written
        load_flow(surrogate)


def _walk(cond: Any):
    if isinstance(cond, dict):
        yield cond
        for key in ("all", "any"):
            for sub in cond.get(key, []):
                yield from _walk(sub)
        yield from _walk(cond.get("not"))


# Documents the fuzzer once broke fsmdial with (each raised something other than FlowError, or
# loaded but could not compile or run); kept as fixed examples: (document, "valid" or the issue path's end).
def _example(name: str) -> dict[str, Any]:
    return copy.deepcopy(next(e for e in EXAMPLES if e.get("name") == name))


def _edited(doc: dict[str, Any], path: tuple[Any, ...], value: Any) -> dict[str, Any]:
    at(doc, path[:-1])[path[-1]] = value
    return doc


REGRESSIONS: dict[str, tuple[Any, str]] = {
    "flow without edges": (
        lambda: {"name": "one", "nodes": [{"id": "a", "type": "inform", "message": "Done."}]},
        "valid",
    ),
    "NUL in the flow name": (lambda: _edited(_example("ride_change"), ("name",), "ride\x00change"), "name"),
    "integer beyond 64 bits": (
        # (an example value: a condition comparing a boolean result field with it is an authoring error now)
        lambda: _edited(_example("ride_change"), ("nodes", 0, "slots", 1, "examples", 0), 2**70),
        "valid",
    ),
    "CHIEF edges not a list": (
        lambda: _edited(copy.deepcopy(EXAMPLES[[looks_like_chief(e) for e in EXAMPLES].index(True)]), ("edges",), True),
        "edges",
    ),
    "union member names in paths": (
        lambda: _edited(_example("ride_change"), ("nodes", 0, "slots", 1, "examples"), [[]]),
        "examples[0]",
    ),
}


@pytest.mark.parametrize("name", list(REGRESSIONS))
def test_documents_that_once_broke_the_loader(name: str) -> None:
    make, expect = REGRESSIONS[name]
    doc = make()
    if expect == "valid":
        stats: Counter = Counter()
        check(doc, stats)
        assert stats["valid"] == 1 and stats["turn_ok"] >= 1, stats
        return
    with pytest.raises(FlowError) as caught:
        load_flow(doc)
    assert any(issue.path.endswith(expect) for issue in caught.value.issues), caught.value.issues
    assert not any(issue.path.endswith((".str", ".int", ".float", ".bool")) for issue in caught.value.issues)


def test_a_path_with_a_nul_character_is_a_flow_error() -> None:
    with pytest.raises(FlowError, match="cannot read flow file"):
        load_flow("flows/ride\x00change.json")
