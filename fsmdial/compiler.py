"""Compile a flow into a state-machine class built on ``transitions``.

The compiler writes Python source (:func:`emit_source`) and
:func:`compile_flow` executes exactly that source, so the class in memory and
the class in a file written by ``fsmdial compile`` are the same code. The
output depends only on the flow: the same flow gives byte-identical source.

What the compiler computes, once, so the runtime does not have to:

* states (one per node) and transitions (one per edge, trigger ``advance``);
  conditional edges are tried in document order, an unconditional edge last;
* each edge condition as a generated method reading the machine's bookkeeping
  (conditions are JSON data; there is no expression language to parse);
* for every slot, the nodes reachable from the request node that asks it:
  when the slot changes, their bookkeeping is reset so a search runs again
  and a confirmation is asked again (CoDial asks an LLM for these lists).
"""

from __future__ import annotations

import hashlib
import pprint
import re
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, Literal

from . import __version__
from .flow import (
    AllCondition,
    AnswerCondition,
    AnyCondition,
    CallCondition,
    ChoiceCondition,
    ExternalActionNode,
    Flow,
    NotCondition,
    ResultCondition,
    SlotCondition,
    StatusCondition,
    VisitsCondition,
)
from .machine import FlowMachine

_OPS = {
    "eq": "eq({left}, {value})",
    "ne": "ne({left}, {value})",
    "in": "isin({left}, {value})",
    "not_in": "notin({left}, {value})",
    "lt": "lt({left}, {value})",
    "le": "le({left}, {value})",
    "gt": "gt({left}, {value})",
    "ge": "ge({left}, {value})",
    "present": "present({left})",
    "absent": "absent({left})",
}


def class_name(flow: Flow) -> str:
    words = re.findall(r"[A-Za-z0-9]+", flow.name) or ["Compiled"]
    name = "".join(word[:1].upper() + word[1:] for word in words)
    if name[0].isdigit():
        name = "Flow" + name
    return name + "Flow"


def flow_data(flow: Flow) -> dict[str, Any]:
    """The flow as plain JSON data, defaults left out (what compiled source embeds)."""
    return flow.model_dump(mode="json", by_alias=True, exclude_defaults=True)


def fingerprint(flow: Flow) -> str:
    """A short hash of the flow's content, stored in snapshots to refuse a foreign flow."""
    from .jsonvalues import dumps

    return hashlib.sha256(dumps(flow_data(flow), sort_keys=True)).hexdigest()[:16]


def condition_expr(cond: Any, source: str) -> str:
    """A Python expression (over ``self``, a :class:`FlowMachine`) equivalent to ``cond``."""
    if isinstance(cond, SlotCondition):
        if cond.op == "declined":
            return f"self.is_declined({cond.slot!r})"
        return _OPS[cond.op].format(left=f"self.slot({cond.slot!r})", value=repr(cond.value))
    if isinstance(cond, ResultCondition):
        left = f"self.result_field({(cond.node or source)!r}, {cond.result!r})"
        return _OPS[cond.op].format(left=left, value=repr(cond.value))
    if isinstance(cond, AnswerCondition):
        return f"self.answers.get({source!r}) == {cond.answer!r}"
    if isinstance(cond, ChoiceCondition):
        return f"self.answers.get({source!r}) == {cond.choice!r}"
    if isinstance(cond, StatusCondition):
        return f"self.status.get({source!r}) == {cond.status!r}"
    if isinstance(cond, VisitsCondition):
        return _OPS[cond.op].format(left=f"self.visits.get({cond.visits!r}, 0)", value=repr(cond.value))
    if isinstance(cond, CallCondition):
        return f"self.call({cond.call!r})"
    if isinstance(cond, AllCondition):
        return "(" + " and ".join(condition_expr(c, source) for c in cond.all) + ")"
    if isinstance(cond, AnyCondition):
        return "(" + " or ".join(condition_expr(c, source) for c in cond.any) + ")"
    if isinstance(cond, NotCondition):
        return f"not {condition_expr(cond.not_, source)}"
    raise TypeError(f"unknown condition {cond!r}")


def _ident(text: str) -> str:
    # ASCII only: \w also matches characters that are not valid in identifiers (e.g. "²").
    return re.sub(r"[^0-9A-Za-z_]+", "_", text).strip("_") or "n"


def _inert(text: str) -> str:
    """``text`` made safe inside a generated comment or docstring line.

    Node ids and flow names are free text: a newline or ``\"\"\"`` in one must not
    end the comment or docstring and turn the rest of the id into code.
    """
    return text.encode("unicode_escape").decode("ascii").replace('"', '\\"')


class Dependents(Mapping[str, tuple[str, ...]]):
    """For each slot, the nodes reachable from its request node (the node itself excluded) whose
    bookkeeping can depend on it: the compiled class's ``DEPENDENTS``.

    An external action whose arguments do not read the slot, neither directly nor through the result of
    an action that does, keeps its result: its tool would answer the same. (In a loop, the search that
    produced the current question is "after" the answer too; forgetting it would lose the question.)

    Worked out per slot when first read and then kept: written out in full, the table of a chain of
    N request nodes has N²/2 entries (a 10,000-node flow would compile to gigabytes of source).
    """

    def __init__(self, flow: Flow):
        self._flow = flow
        self._owner = flow.slot_owner()
        self._found: dict[str, tuple[str, ...]] = {}
        self._sources: dict[str, list[Any]] | None = None

    def __getitem__(self, slot: str) -> tuple[str, ...]:
        if slot not in self._found:
            owner = self._owner[slot]  # KeyError for a slot the flow does not have, as a dict would
            if self._sources is None:
                actions = [n for n in self._flow.nodes if isinstance(n, ExternalActionNode)]
                self._sources = {a.id: list(self._flow.action_arguments(a).values()) for a in actions}
            reading = _actions_reading(slot, self._sources)
            reach = self._flow.reachable_from(owner)
            self._found[slot] = tuple(n for n in reach if n != owner and (n not in self._sources or n in reading))
        return self._found[slot]

    def __iter__(self) -> Iterator[str]:
        return iter(self._owner)

    def __len__(self) -> int:
        return len(self._owner)

    def __repr__(self) -> str:
        return f"Dependents({self._flow.name!r})"


def dependents(flow: Flow) -> dict[str, tuple[str, ...]]:
    """The whole :class:`Dependents` table of ``flow`` as a dict."""
    table = Dependents(flow)
    return {slot: table[slot] for slot in table}


def _actions_reading(slot: str, sources: dict[str, list[Any]]) -> set[str]:
    """Actions whose arguments read ``slot``, directly or through another such action's result."""
    reading: set[str] = set()
    changed = True
    while changed:
        changed = False
        for action, args in sources.items():
            if action in reading:
                continue
            for source in args:
                name = source if isinstance(source, str) else getattr(source, "slot", None)
                if name == slot or getattr(source, "node", None) in reading:
                    reading.add(action)
                    changed = True
                    break
    return reading


ENCODING_LINE = "# -*- coding: utf-8 -*-"
"""Line 1 of every compiled file: the file states its own encoding."""


def check_source(source: str, filename: str = "<compiled flow>") -> None:
    """Compile ``source`` (Python's own parser) and raise :class:`FlowError` if it is not valid code.

    ``fsmdial compile`` calls this before writing, so it never writes a file that cannot load.
    """
    try:
        compile(source, filename, "exec")
    except (SyntaxError, ValueError, RecursionError, MemoryError) as exc:
        from .errors import FlowError, FlowIssue

        raise FlowError(FlowIssue("", f"the compiled source does not compile ({type(exc).__name__}: {exc})")) from None


def _option_imports(flow: Flow) -> list[str]:
    """Imports a flow option changes: ``case_insensitive_values`` compares with the case-folding helpers."""
    if not flow.options.case_insensitive_values:
        return []
    return [
        "# Flow option case_insensitive_values: string values compare case-insensitively.",
        "from fsmdial.machine import eq_folded as eq, ne_folded as ne, isin_folded as isin, notin_folded as notin"
        "  # noqa: E402,F401,F811",
    ]


def emit_source(flow: Flow) -> str:
    """Readable Python source defining the flow's state-machine class."""
    name = class_name(flow)
    transitions: list[tuple[str, dict[str, Any]]] = []
    methods: list[str] = []
    index_of = {id(edge): index for index, edge in enumerate(flow.edges)}
    for node in flow.nodes:
        edges = flow.outgoing(node.id)
        ordered = [e for e in edges if e.when is not None] + [e for e in edges if e.when is None]
        for edge in ordered:
            # A request node's alternative branch fires on its own trigger, never as a normal way on.
            trigger = "decline" if edge.on_decline else "advance"
            spec: dict[str, Any] = {"trigger": trigger, "source": edge.source, "dest": edge.target}
            if edge.reset_slots:
                spec["after"] = ["clear_current_slots"]
            comment = f"{_inert(edge.source)} -> {_inert(edge.target)}"
            if edge.count is not None:
                method = f"count_{index_of[id(edge)]}_{_ident(edge.count)}"
                spec["after"] = [*spec.get("after", ()), method]
                methods.append(
                    f"    def {method}(self) -> None:\n"
                    f'        """Edge {_inert(edge.source)} -> {_inert(edge.target)}: add 1 to {edge.count}"""\n'
                    f"        self.count_up({edge.count!r})\n"
                )
            if edge.when is not None:
                index = index_of[id(edge)]
                method = f"when_{index}_{_ident(edge.source)}_to_{_ident(edge.target)}"
                spec["conditions"] = [method]
                condition_json = edge.when.model_dump_json(by_alias=True, exclude_defaults=True)
                comment += f" when {condition_json}"
                methods.append(
                    f"    def {method}(self) -> bool:\n"
                    f'        """Edge {_inert(edge.source)} -> {_inert(edge.target)}: {condition_json}"""\n'
                    f"        return self.noted({method!r}, {condition_expr(edge.when, edge.source)})\n"
                )
            transitions.append((comment, spec))
    success_when: dict[str, str] = {}
    for node in flow.nodes:
        if isinstance(node, ExternalActionNode) and node.success_when is not None:
            method = f"success_{_ident(node.id)}"
            while method in success_when.values():  # ids that differ only in punctuation
                method += "_"
            success_when[node.id] = method
            condition_json = node.success_when.model_dump_json(by_alias=True, exclude_defaults=True)
            methods.append(
                f"    def {method}(self) -> bool:\n"
                f'        """Action {_inert(node.id)} succeeded: {condition_json}"""\n'
                f"        return {condition_expr(node.success_when, node.id)}\n"
            )

    lines = [
        # Lines 1-2 are fixed text: Python reads a source-encoding declaration (PEP 263) from them,
        # so no flow text (a name spelling "coding: utf-7") may ever land there.
        ENCODING_LINE,
        f"# Generated by fsmdial {__version__}. Do not edit: recompile the flow.",
        f"# Flow: {_inert(repr(flow.name))}",
        f'"""State machine for the {_inert(repr(flow.name))} dialogue flow.',
        "",
        *[f"{_inert(node.id)} ({node.type})" for node in flow.nodes],
        '"""',
        "",
        "from fsmdial.compiler import Dependents",
        "from fsmdial.machine import (  # noqa: F401",
        "    FlowMachine, flow_from_data, eq, ne, isin, notin, lt, le, gt, ge, present, absent,",
        ")",
        *_option_imports(flow),
        "",
        "FLOW_DATA = " + pprint.pformat(flow_data(flow), sort_dicts=False, width=110),
        "",
        "",
        f"class {name}(FlowMachine):",
        f'    """Compiled from flow {_inert(repr(flow.name))}; behaviour lives in fsmdial.runtime.Dialogue."""',
        "",
        "    FLOW = flow_from_data(FLOW_DATA)",
        f"    STATES = {tuple(node.id for node in flow.nodes)!r}",
        f"    INITIAL = {flow.start_id!r}",
        "    TRANSITIONS = (",
    ]
    for comment, spec in transitions:
        lines.append(f"        # {comment}")
        lines.append(f"        {spec!r},")
    lines.append("    )")
    lines.append("    # Nodes reset when a slot changes: everything reachable from the node that asks it")
    lines.append("    # (worked out per slot on first use: `fsmdial.compiler.dependents(FLOW)` lists them all).")
    lines.append("    DEPENDENTS = Dependents(FLOW)")
    lines.append(f"    SLOT_OWNER = {flow.slot_owner()!r}")
    lines.append(f"    SUCCESS_WHEN = {success_when!r}")
    lines.append("")
    source = "\n".join(lines) + "\n" + "\n".join(methods)
    return source.rstrip("\n") + "\n"


LABEL_CHARS = re.compile(r"[A-Za-z0-9 _.,()\[\]-]")
"""Characters ``fsmdial graph`` writes into a Mermaid label as they are."""
PLAIN_CHARS = re.compile(r"[A-Za-z0-9_ ]")
"""Letters, digits, ``_`` and spaces: all a web page's diagram keeps (``fsmdial serve``)."""


_MERMAID_WORDS = frozenset({"state", "note", "direction", "end", "class", "classdef", "as", "click", "style"})


def mermaid_text(text: str, keep: re.Pattern[str] = LABEL_CHARS) -> str:
    """``text`` safe inside a Mermaid label: every character but those ``keep`` matches as an entity code (``#35;``).

    Mermaid turns the codes back into characters in the drawn SVG as text, so neither Mermaid syntax
    (quotes, colons, newlines, ``-->``) nor HTML gets through.
    """
    return "".join(ch if keep.fullmatch(ch) else f"#{ord(ch)};" for ch in text)


def _state_names(cls: type[FlowMachine]) -> dict[str, str]:
    """Node id -> its Mermaid state name: the id when it is a plain identifier (and no Mermaid word),
    else ``state_N``."""
    names: dict[str, str] = {}
    used: set[str] = set()
    for index, node in enumerate(cls.FLOW.nodes):
        plain = re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", node.id) and node.id.lower() not in _MERMAID_WORDS
        name = node.id if plain and node.id not in used else f"state_{index}"
        while name in used:
            name += "_"
        names[node.id] = name
        used.add(name)
    return names


def mermaid(
    cls: type[FlowMachine],
    *,
    names: Mapping[str, str] | None = None,
    title: bool = True,
    keep: re.Pattern[str] = LABEL_CHARS,
    class_defs: Sequence[str] = (),
    direction: Literal["LR", "TB"] = "LR",
) -> str:
    """The compiled flow's state machine as a Mermaid state diagram.

    Node ids are free text (quotes, ``-->``, newlines): by default a state keeps its id as its Mermaid name
    only when that is a plain identifier (``state_N`` otherwise), and every label is escaped
    (:func:`mermaid_text`). A page drawing the diagram (``fsmdial serve``) passes its own state ``names``
    (plain identifiers it highlights by, one per node), leaves the ``title`` out, escapes with ``keep``
    and adds its ``classDef`` lines (``class_defs``, written after the ``direction``, left to right by default).
    """
    names = _state_names(cls) if names is None else names
    lines = ["---", f"title: {mermaid_text(cls.FLOW.name, keep)}", "---"] if title else []
    lines += ["stateDiagram-v2", f"  direction {direction}", *(f"  {line}" for line in class_defs)]
    for node in cls.FLOW.nodes:
        lines.append(f'  state "{mermaid_text(node.id, keep)}" as {names[node.id]}')
    for spec in cls.TRANSITIONS:
        label = spec["trigger"]
        if spec.get("conditions"):
            label += " [" + ", ".join(spec["conditions"]) + "]"
        lines.append(f"  {names[spec['source']]} --> {names[spec['dest']]}: {mermaid_text(label, keep)}")
    lines.append(f"  [*] --> {names[cls.INITIAL]}")
    return "\n".join(lines) + "\n"


def compile_flow(flow: Flow) -> type[FlowMachine]:
    """Compile ``flow`` into a :class:`FlowMachine` subclass (the code :func:`emit_source` writes)."""
    source = emit_source(flow)
    namespace: dict[str, Any] = {"__name__": f"fsmdial.compiled.{_ident(flow.name)}"}
    exec(compile(source, f"<fsmdial flow {_inert(flow.name)}>", "exec"), namespace)
    cls: type[FlowMachine] = namespace[class_name(flow)]
    cls.FLOW = flow  # the validated object itself (identical content to the copy the source parsed)
    cls.DEPENDENTS = Dependents(flow)  # built on that object too, not on the copy just replaced
    cls.SOURCE = source
    return cls


def load_compiled(path: str) -> type[FlowMachine]:
    """Import a module written by ``fsmdial compile`` and return its flow class.

    This executes the file's Python code: only load modules you trust.
    """
    import importlib.util
    from pathlib import Path

    module_path = Path(path)
    spec = importlib.util.spec_from_file_location(f"fsmdial_compiled_{_ident(module_path.stem)}", module_path)
    if spec is None or spec.loader is None:
        from .errors import FlowError, FlowIssue

        raise FlowError(FlowIssue("", "not an importable Python file"), source=str(path))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    for value in vars(module).values():
        if isinstance(value, type) and issubclass(value, FlowMachine) and value is not FlowMachine:
            return value
    from .errors import FlowError, FlowIssue

    raise FlowError(FlowIssue("", "the module defines no compiled flow class"), source=str(path))
