"""Import STAR task schemas (Mosig et al., 2020) as fsmdial flows.

A STAR task is a directory ``tasks/<task>/`` with ``<task>.json`` (``replies``:
label -> wizard text, ``graph``: label -> next label), ``responses.json`` (the
wizard's own replies), ``wizard_nlu_training_data.md`` (example utterances per
label), and an API definition ``apis/<task>.json`` (typed inputs, ``required``,
outputs). :func:`import_task` turns one into a flow document:

* ``hello`` (the graph's first key) becomes a global action; its target is the
  start node.
* Graph keys that are never a target are *condition tokens*, not wizard acts:
  ``query_success``/``available`` and ``query_failure``/``unavailable`` become
  ``status`` conditions on the query they follow, ``yes``/``no`` ``answer``
  conditions on the yes/no question they follow, a token whose text names slots
  the user cannot give ("Can't remember account number or PIN") a ``declined``
  condition on those slots, and any other token a named predicate
  (``{"call": token}``) the application supplies (see ``fsmdial.eval.star``).
* ``query``/``query_check``/``query_book`` become external actions calling the
  task's API (``RequestType`` Check/Book as a fixed argument). Their success is
  the result's ``ok`` flag (the item was found and its message is not a
  refusal); a query without failure branch gets one to ``*_inform_nothing_found``
  (the schema's reply for an empty result) when the schema has it.
* Consecutive ask labels become one request node; each slot keeps its ask text
  (``Slot.ask``) and label (``Slot.act``), so the runtime's act names are STAR
  labels. Slots are matched to API inputs (types, categories, bounds) by name;
  API inputs no graph ask covers become optional slots of the request node
  before the query (named after an out-of-graph ask label when there is one).
* Yes/no questions become ``inform_and_confirm`` nodes, other replies
  ``inform`` nodes, ``anything_else``/``*_bye`` in the graph ``end`` nodes;
  ``goodbye``/``out_of_scope``/``anything_else`` also become the fallbacks.
* Reply placeholders (``{hotel_name:s}``) are rewritten to a slot of the same
  name or a field of the query result (``{result.hotel_name}``), so the graph
  checks pass.

Hand corrections live in small per-task overlay files
(``star_overlays/<task>.json``, see :func:`apply_overlay`); the importer works
without them, on any task in this format.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

OVERLAY_DIR = Path(__file__).with_name("star_overlays")

STATUS_WORDS = {"success": "success", "succeeded": "success", "available": "success", "found": "success",
                "failure": "failure", "failed": "failure", "unavailable": "failure"}  # fmt: skip
"""Condition tokens that name a query's outcome (matched on the token's last word)."""
ANSWER_TOKENS = {"yes": "yes", "no": "no"}
ANYTHING_ELSE = "anything_else"
PERSON_WORDS = {"customer", "user", "patient", "renter", "full", "guest", "client"}
"""Prefixes of API inputs that hold the user's own name (what STAR's ``ask_name`` asks)."""
_DONT_KNOW = re.compile(r"\b(?:don'?t|do not|doesn'?t) know\b|\bno idea\b|\bunknown\b", re.I)
GENERIC_WORDS = {"name", "number", "id", "type", "time"}
"""Words too common in slot names to tell which slot a sentence is about."""
STOP_WORDS = {"of", "the", "a", "an", "to", "for", "is", "ask", "inform"}

# Word-level synonyms between ask labels and API input names. Plain English,
# not task-specific: a label says "colour"/"destination", an API "Color"/"Arrival".
SYNONYMS: dict[str, set[str]] = {
    "colour": {"color"}, "bedroom": {"room"}, "floor": {"level"}, "destination": {"arrival"},
    "departing": {"departure"}, "from": {"start"}, "to": {"end"}, "starting": {"start"},
    "dob": {"date", "birth"}, "price": {"cost"}, "number": {"num", "id"}, "num": {"number"},
    "location": {"city"}, "needed": {"need"}, "mode": {"mode"}, "details": {"report"},
}  # fmt: skip


@dataclass(frozen=True)
class StarTask:
    """One STAR task as read from disk (before any overlay)."""

    name: str
    replies: dict[str, str]
    graph: dict[str, str]
    responses: dict[str, str] | None = None
    api: dict[str, Any] | None = None
    examples: dict[str, list[str]] = field(default_factory=dict)
    schema_name: str = ""


@dataclass
class StarImport:
    """A converted task: the flow document and what evaluation needs to read it."""

    flow: dict[str, Any]
    api: str | None
    inputs: dict[str, str]
    """Slot name -> API input name (the query argument it feeds)."""
    queries: dict[str, str | None]
    """Action node id -> its ``RequestType`` (``Check``/``Book``) or None."""
    labels: dict[str, str]
    """Act name -> STAR label where they differ (the goodbye fallback -> ``goodbye_1``...)."""
    tokens: dict[str, list[str]]
    """Named-predicate tokens (``{"call": token}``) -> their source nodes."""
    notes: list[str] = field(default_factory=list)
    overlay: str | None = None


# ------------------------------------------------------------------ reading


def task_names(star_dir: str | Path) -> list[str]:
    """Tasks of a STAR copy: directories ``tasks/<t>/`` holding ``<t>.json``."""
    root = Path(star_dir) / "tasks"
    return sorted(p.name for p in root.iterdir() if (p / f"{p.name}.json").is_file())


def read_task(star_dir: str | Path, name: str) -> StarTask:
    star_dir = Path(star_dir)
    folder = star_dir / "tasks" / name
    schema = json.loads((folder / f"{name}.json").read_text(encoding="utf-8"))
    responses_path = folder / "responses.json"
    responses = json.loads(responses_path.read_text(encoding="utf-8")) if responses_path.is_file() else None
    api_path = star_dir / "apis" / f"{name}.json"
    api = json.loads(api_path.read_text(encoding="utf-8")) if api_path.is_file() else None
    nlu_path = folder / "wizard_nlu_training_data.md"
    examples = parse_nlu(nlu_path.read_text(encoding="utf-8")) if nlu_path.is_file() else {}
    return StarTask(name, dict(schema.get("replies") or {}), dict(schema.get("graph") or {}), responses, api,
                    examples, schema.get("task", name))  # fmt: skip


def parse_nlu(text: str) -> dict[str, list[str]]:
    """``## intent:label`` sections of Rasa-style markdown -> examples per label."""
    out: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in text.splitlines():
        header = re.match(r"^##\s*intent:\s*(\S+)", line)
        if header:
            current = out.setdefault(header.group(1), [])
        elif current is not None and line.lstrip().startswith("- "):
            example = line.strip()[2:].strip()
            if example:
                current.append(example)
    return out


# ------------------------------------------------------------------ overlays


def load_overlay(name: str, directory: Path = OVERLAY_DIR) -> dict[str, Any] | None:
    path = directory / f"{name}.json"
    return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else None


OVERLAY_KEYS = ("why", "task", "rename", "replies", "graph", "inputs", "labels", "edges", "token_sources", "choices")


def apply_overlay(task: StarTask, overlay: dict[str, Any] | None) -> tuple[StarTask, dict[str, Any]]:
    """Apply the STAR-level parts of an overlay; return the rest for the conversion.

    Overlay keys: ``why`` (required prose); ``rename`` (label -> the label the
    dialogues use, everywhere in the schema); ``replies`` and ``graph`` (entries
    to add or replace; a null graph value deletes the key); ``inputs`` (ask label
    -> API input, null for none); ``labels`` (act name -> STAR label, e.g. the
    goodbye label the dialogues use); ``edges`` (extra ``{"source", "when",
    "target"}`` edges, ``when`` a token or an fsmdial condition); ``token_sources``
    (token -> source labels); ``choices`` (question label -> fsmdial choices).
    """
    if not overlay:
        return task, {}
    unknown = set(overlay) - set(OVERLAY_KEYS)
    if unknown:
        raise ValueError(f"overlay for {task.name}: unknown keys {sorted(unknown)}")
    if not overlay.get("why"):
        raise ValueError(f"overlay for {task.name}: say 'why' the correction is needed")
    rename = overlay.get("rename") or {}
    new = lambda label: rename.get(label, label)  # noqa: E731
    replies = {new(k): v for k, v in task.replies.items()}
    replies.update(overlay.get("replies") or {})
    responses = {new(k): v for k, v in task.responses.items()} if task.responses is not None else None
    graph = {new(k): new(v) for k, v in task.graph.items()}
    for key, value in (overlay.get("graph") or {}).items():
        if value is None:
            graph.pop(key, None)
        else:
            graph[key] = value
    examples = {new(k): v for k, v in task.examples.items()}
    rest = {k: overlay[k] for k in ("inputs", "labels", "edges", "token_sources", "choices") if k in overlay}
    return replace(task, replies=replies, graph=graph, responses=responses, examples=examples), rest


# ------------------------------------------------------------------ words


def words(name: str) -> list[str]:
    """``StartTimeHour`` / ``start_time_hour`` / ``Start Time`` -> ``['start', 'time', 'hour']``."""
    spaced = re.sub(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])", " ", name)
    return [w for w in re.split(r"[^A-Za-z0-9]+", spaced.lower()) if w]


def _stem(word: str) -> str:
    for suffix in ("ies", "s"):
        if word.endswith(suffix) and len(word) > 3 and not word.endswith("ss"):
            return word[: -len(suffix)] + ("y" if suffix == "ies" else "")
    return word


def _bag(names: Iterable[str], synonyms: bool = False) -> set[str]:
    out: set[str] = set()
    for name in names:
        for word in words(name):
            if word in STOP_WORDS:
                continue
            word = _stem(word)
            out.add(word)
            if synonyms:
                out |= SYNONYMS.get(word, set())
    return out


def snake(name: str) -> str:
    return "_".join(words(name)) or "value"


# ------------------------------------------------------------------ the conversion


TokenEdge = tuple[str, "str | dict[str, Any]", str]
"""(source label, condition token or explicit condition, target label)."""


@dataclass
class _Ask:
    label: str
    slot: str
    text: str
    input: str | None = None


def is_ask_label(label: str) -> bool:
    """``hotel_ask_date_from`` asks for a value; ``trivia_inform_answer_2_ask_next`` informs (and asks on)."""
    parts = label.split("_")
    return "ask" in parts and "inform" not in parts


def _slot_part(label: str) -> str:
    parts = label.split("_")
    rest = parts[parts.index("ask") + 1 :] if "ask" in parts else parts
    return "_".join(rest) or label


def _domain(task: StarTask) -> set[str]:
    return _bag([task.name.split("_")[0], task.schema_name.split("_")[-1]])


def match_inputs(asks: list[_Ask], inputs: list[dict[str, Any]], domain: set[str]) -> dict[str, str]:
    """Ask label -> API input, by name overlap; each input used once, best scores first."""
    candidates: list[tuple[float, int, int, str, str]] = []
    for i, ask in enumerate(asks):
        label_words = _bag([ask.slot], synonyms=True)
        plain = _bag([ask.slot])
        for j, spec in enumerate(inputs):
            name = spec["Name"]
            input_words = _bag([name, spec.get("ReadableName", "")])
            common = label_words & input_words
            score = float(len(common)) - 0.1 * len(input_words - label_words)
            entity = name == "Name"  # the API's main entity (hotel, doctor, venue ...)
            if plain == {"name"}:  # STAR's ask_name: the user's own name
                person = input_words & PERSON_WORDS
                if entity:
                    score = 0.0
                elif person and "name" in input_words:
                    score = 2.5 - 0.1 * len(input_words - {"name"} - person)
                else:
                    score = 0.9 if "name" in input_words else 0.0
            elif common <= {"name"} and not entity:
                score = 0.0  # "maiden name" is not "BankName"
            elif entity:
                values = _bag(str(v) for v in spec.get("Categories") or () if isinstance(v, str))
                if plain & (domain | values):
                    score += 1.5
            if score > 0.5:
                candidates.append((score, -i, -j, ask.label, name))
    out: dict[str, str] = {}
    used: set[str] = set()
    for _score, _i, _j, label, name in sorted(candidates, reverse=True):
        if label not in out and name not in used:
            out[label] = name
            used.add(name)
    return out


def slot_spec(name: str, api_input: dict[str, Any] | None, *, ask: str | None, act: str | None,
              required: bool) -> dict[str, Any]:  # fmt: skip
    """An fsmdial slot for an API input (types, categories, bounds) or a free string."""
    slot: dict[str, Any] = {"name": name, "type": "string"}
    if api_input is not None:
        kind = api_input.get("Type")
        slot["description"] = api_input.get("ReadableName") or " ".join(words(api_input["Name"])).capitalize()
        categories = api_input.get("Categories")
        if kind == "Integer":
            slot["type"] = "integer"
            for key, bound in (("Min", "minimum"), ("Max", "maximum")):
                if isinstance(api_input.get(key), (int, float)):
                    slot[bound] = api_input[key]
        elif kind == "Boolean":
            slot["type"] = "boolean"
        elif kind == "Categorical" and isinstance(categories, list) and all(isinstance(c, str) for c in categories):
            slot["type"] = "categorical"
            slot["values"] = list(categories)
        elif kind == "LongString":
            slot["max_length"] = 1000
        if isinstance(categories, list) and categories and all(isinstance(c, str) for c in categories):
            slot["examples"] = list(categories[:3])
    else:
        slot["description"] = " ".join(words(name)).capitalize()
    if ask:
        slot["ask"] = ask
    if act:
        slot["act"] = act
    if not required:
        slot["required"] = False
    return slot


class _Builder:
    """Turns one StarTask (+ overlay corrections) into a flow document."""

    def __init__(self, task: StarTask, corrections: dict[str, Any]):
        self.task = task
        self.fix = corrections
        self.notes: list[str] = []
        self.replies = task.replies
        self.graph = dict(task.graph)
        self.api = task.api or {}
        self.api_name = task.name if task.api else None
        self.inputs = [i for i in self.api.get("input") or [] if i.get("Type") != "RequestType"]
        self.request_types = next((i.get("Categories") for i in self.api.get("input") or [] if i.get("Type") == "RequestType"), None)
        # filled while converting
        self.slot_labels: set[str] = set()  # ask labels that became slots
        self.query_type: dict[str, str | None] = {}  # query node -> RequestType
        self.branching: set[str] = set()  # queries with status branches
        self.bye_label: str | None = None
        self.call_tokens: dict[str, list[str]] = {}  # named predicates -> their source nodes
        self.declined_tokens: dict[str, list[str]] = {}  # tokens meaning "cannot give" -> the ask labels

    # -------------------------------------------------------------- structure
    def run(self) -> StarImport:
        graph = self.graph
        if "hello" not in graph:
            raise ValueError(f"task {self.task.name}: graph has no 'hello' entry (the start)")
        targets = set(graph.values())
        wizard = set(self.task.responses) if self.task.responses is not None else None
        self.tokens = [k for k in graph if k != "hello" and k not in targets and (wizard is None or k not in wizard)]
        extra = [label for e in self.fix.get("edges") or [] for label in (e["source"], e["target"])]
        labels_in_graph = [k for k in graph if k not in self.tokens and k != "hello"] + list(graph.values()) + extra
        self.order: list[str] = _conversation_order(graph, self.tokens, list(dict.fromkeys(labels_in_graph)))
        self.queries = [n for n in self.order if _is_query(n, self.replies.get(n, ""))]
        plain = {k: v for k, v in graph.items() if k not in self.tokens and k != "hello"}
        self.plain = plain

        token_edges = self._token_edges()
        confirm_sources = {src for src, tok, _ in token_edges if isinstance(tok, str) and tok in ANSWER_TOKENS
                           or isinstance(tok, dict) and re.search(r"'(answer|choice)'", repr(tok))}  # fmt: skip
        self.confirms = {n for n in self.order if n in confirm_sources or (
            _asks_back(n) and self.replies.get(n, "").rstrip().endswith("?") and n not in self.queries)}  # fmt: skip

        # ask labels in the graph -> slots; out-of-graph ask labels name optional slots
        graph_asks = [n for n in self.order if is_ask_label(n) and n not in self.confirms and n not in self.queries]
        other_asks = [n for n in self.replies if is_ask_label(n) and n not in self.order and n not in self.confirms]
        asks = [_Ask(n, _slot_part(n), self.replies.get(n, "")) for n in graph_asks + other_asks]
        mapping = match_inputs(asks, self.inputs, _domain(self.task))
        for label, name in (self.fix.get("inputs") or {}).items():
            if name is None:
                mapping.pop(label, None)
            else:
                mapping = {k: v for k, v in mapping.items() if v != name}
                mapping[label] = name
        for ask in asks:
            ask.input = mapping.get(ask.label)
        self.asks = {a.label: a for a in asks}
        _unique_slot_names(asks)

        groups = self._group_asks(graph_asks, token_edges)
        # A value nothing reads (no API input, no branch) is not worth a question: its slot is optional.
        branching = {src for src, _, _ in token_edges} | {lb for labels in self.declined_tokens.values() for lb in labels}
        unused = {a.label for a in asks if a.input is None and a.label not in branching}
        self.node_of: dict[str, str] = {}
        nodes: list[dict[str, Any]] = []
        for group in groups:
            node_id = f"form_{self.asks[group[0]].slot}"
            for label in group:
                self.node_of[label] = node_id
            nodes.append({"id": node_id, "type": "request", "slots": [self._slot(self.asks[lb], lb not in unused) for lb in group]})
        for label in self.order:
            if label in self.node_of:
                continue
            self.node_of[label] = label
            nodes.append(self._node(label))
        edges = self._edges(token_edges)
        nodes, edges = self._optional_slots(nodes, edges, [a for a in asks if a.label not in self.node_of])
        nodes, edges = self._nothing_found(nodes, edges)
        nodes, edges = self._closing(nodes, edges)
        for node in nodes:  # every slot that feeds an API input is an argument of every query
            if node["type"] == "external_action":
                node["arguments"].update({a.input: {"slot": a.slot} for a in self.asks.values()
                                          if a.input and a.label in self.slot_labels})  # fmt: skip
        flow = {
            "name": self.task.name,
            "description": f"STAR task {self.task.schema_name or self.task.name} (imported from the STAR schema).",
            "start": self.node_of[graph["hello"]],
            "nodes": nodes,
            "edges": edges,
            "global_actions": [self._hello()],
            "fallbacks": self._fallbacks(),
        }
        _prune_unreachable(flow, self.notes)
        _ask_again_on_loops(flow)
        self._bind_placeholders(flow)
        labels = {"goodbye": self.bye_label} if self.bye_label else {}
        labels.update(self.fix.get("labels") or {})
        for node in flow["nodes"]:  # a goodbye node in the graph says the same goodbye
            if node["id"] == self.bye_label and labels.get("goodbye", node["id"]) != node["id"]:
                node["label"] = labels["goodbye"]
        inputs = {a.slot: a.input for a in self.asks.values() if a.input and a.label in self.slot_labels}
        queries = {q: self.query_type.get(q) for q in self.queries if q in {n["id"] for n in flow["nodes"]}}
        tokens = {t: srcs for t, srcs in self.call_tokens.items()}
        return StarImport(flow, self.api_name, inputs, queries, labels, tokens, self.notes)

    def _group_asks(self, graph_asks: list[str], token_edges: list[TokenEdge]) -> list[list[str]]:
        """Chains of ask labels with one plain edge between them and no other way in."""
        indegree: dict[str, int] = {}
        for target in list(self.plain.values()) + [t for _, _, t in token_edges] + [self.graph["hello"]]:
            indegree[target] = indegree.get(target, 0) + 1
        token_sources = {src for src, _, _ in token_edges}
        groups: list[list[str]] = []
        placed: set[str] = set()
        for label in graph_asks:
            if label in placed:
                continue
            group = [label]
            placed.add(label)
            while group[-1] not in token_sources:
                nxt = self.plain.get(group[-1])
                if nxt is None or nxt not in graph_asks or nxt in placed or indegree.get(nxt, 0) != 1:
                    break
                group.append(nxt)
                placed.add(nxt)
            groups.append(group)
        return groups

    # ---------------------------------------------------------------- tokens
    def _token_edges(self) -> list[TokenEdge]:
        """(source label, token, target label) for every condition token edge."""
        edges: list[TokenEdge] = []
        explicit = self.fix.get("token_sources") or {}
        open_queries = [q for q in self.queries if q not in self.plain]
        status_tokens = [t for t in self.tokens if _status(t)]
        pairs: list[str] = []  # status token stems in order of appearance ("query", "available")
        for token in status_tokens:
            stem = _status_stem(token)
            if stem not in pairs:
                pairs.append(stem)
        dead_ends = [n for n in self.order if n not in self.plain and n not in self.queries]
        for token in self.tokens:
            target = self.graph[token]
            if token in explicit:
                sources = list(explicit[token])
            elif _status(token):
                if not open_queries:
                    self.notes.append(f"status token {token!r} has no query without a plain edge to follow")
                    continue
                index = pairs.index(_status_stem(token))
                sources = [open_queries[min(index, len(open_queries) - 1)] if len(open_queries) > 1 else open_queries[0]]
            elif token in ANSWER_TOKENS:
                sources = self._question_before(dead_ends, target)
            elif mentioned := self._mentioned_asks(token):
                self.declined_tokens[token] = mentioned
                sources = mentioned[-1:]
            else:
                sources = self._previous_target(token)
                if _DONT_KNOW.search(self.replies.get(token, "")) and all(is_ask_label(s) for s in sources):
                    self.declined_tokens[token] = sources  # "Don't know": the user cannot answer the question
            for source in sources:
                edges.append((source, token, target))
        for extra in self.fix.get("edges") or []:
            edges.append((extra["source"], extra.get("when"), extra["target"]))
        return edges

    def _mentioned_asks(self, token: str) -> list[str]:
        """Ask labels of the graph that the token's text says the user cannot give ("Can't remember X or Y")."""
        text = self.replies.get(token, "")
        if not re.search(r"\b(can'?t|cannot|don'?t|missing|forg[eo]t|unknown|no)\b", text, re.I):
            return []
        said = _bag([text])
        found = []
        for label in self.order:
            if not is_ask_label(label) or label in self.queries:
                continue
            terms = _bag([_slot_part(label)]) - GENERIC_WORDS
            if any(term in said or (SYNONYMS.get(term) and SYNONYMS[term] <= said) for term in terms):
                found.append(label)
        return found

    def _question_before(self, dead_ends: list[str], target: str) -> list[str]:
        """The yes/no question a yes/no token answers: a question with no plain way on."""
        questions = [n for n in dead_ends if self.replies.get(n, "").rstrip().endswith("?")]
        specific = [n for n in questions if n != "anything_else"]
        return (specific or questions)[:1]

    def _previous_target(self, token: str) -> list[str]:
        """A token of unknown meaning follows the label the graph named just before it."""
        keys = list(self.graph)
        for key in reversed(keys[: keys.index(token)]):
            if key not in self.tokens:
                return [self.graph[key]]
        return []

    # ---------------------------------------------------------------- nodes
    def _slot(self, ask: _Ask, required: bool) -> dict[str, Any]:
        spec = next((i for i in self.inputs if i["Name"] == ask.input), None)
        self.slot_labels.add(ask.label)
        return slot_spec(ask.slot, spec, ask=ask.text or None, act=ask.label, required=required)

    def _node(self, label: str) -> dict[str, Any]:
        text = self.replies.get(label, label)
        if label in self.queries:
            return self._query(label)
        if label in self.confirms or label in (self.fix.get("choices") or {}):
            node = {"id": label, "type": "inform_and_confirm", "question": text}
            if label in (self.fix.get("choices") or {}):
                node["choices"] = self.fix["choices"][label]
            return node
        if label == ANYTHING_ELSE:  # "Is there anything else ...?": a question; "no" ends (see _closing)
            return {"id": label, "type": "inform_and_confirm", "question": text}
        if _is_bye(label):
            return {"id": label, "type": "end", "message": text}
        return {"id": label, "type": "inform", "message": text}

    def _query(self, label: str) -> dict[str, Any]:
        words_ = set(label.split("_"))
        kind = None
        for category in self.request_types or ():
            if category.lower() in words_:
                kind = category
        if kind is None and self.request_types:
            kind = self.request_types[0]
        self.query_type[label] = kind
        arguments: dict[str, Any] = {}
        if kind is not None:
            arguments["RequestType"] = {"value": kind}
        result = {spec["Name"]: {"type": "any", "required": False} for spec in self.api.get("output") or []}
        result.update({"found": {"type": "boolean", "required": False}, "ok": {"type": "boolean", "required": False},
                       "count": {"type": "integer", "required": False}})  # fmt: skip
        return {"id": label, "type": "external_action", "tool": self.api_name or self.task.name,
                "arguments": arguments, "result": result}  # fmt: skip

    def _edges(self, token_edges: list[TokenEdge]) -> list[dict[str, Any]]:
        edges: list[dict[str, Any]] = []
        self.call_tokens: dict[str, list[str]] = {}
        for source, target in self.plain.items():
            src, dst = self.node_of[source], self.node_of[target]
            if src == dst and source != target and self.node_of.get(source) != source:
                continue  # a chain edge inside a request node
            edges.append({"source": src, "target": dst})
        for source, token, target in token_edges:
            if source not in self.node_of:
                self.notes.append(f"token {token!r}: unknown source {source!r}, edge dropped")
                continue
            if token is None:  # an overlay's plain edge
                edges.append({"source": self.node_of[source], "target": self.node_of[target]})
                continue
            when = self._condition(token, self.node_of[source])
            if when is None:
                continue
            if isinstance(token, dict):
                for name in _calls(token):
                    self.call_tokens.setdefault(name, []).append(self.node_of[source])
            edges.append({"source": self.node_of[source], "target": self.node_of[target], "when": when})
        return edges

    def _condition(self, token: str | dict[str, Any], source: str) -> dict[str, Any] | None:
        if isinstance(token, dict):
            return token  # an overlay's explicit fsmdial condition
        if _status(token):
            if source not in self.queries:
                self.notes.append(f"status token {token!r} after {source!r}, which is no query: edge dropped")
                return None
            self.branching.add(source)
            return {"status": _status(token)}
        if token in ANSWER_TOKENS:
            return {"answer": ANSWER_TOKENS[token]}
        declined = [self.asks[label].slot for label in self.declined_tokens.get(token, ())
                    if label in self.asks and self.node_of.get(label) == source]
        if declined:
            conds = [{"slot": s, "op": "declined"} for s in declined]
            return conds[0] if len(conds) == 1 else {"any": conds}
        self.call_tokens.setdefault(token, []).append(source)
        return {"call": _ident(token)}

    # ------------------------------------------------------ optional slots
    def _optional_slots(self, nodes: list[dict], edges: list[dict], spare: list[_Ask]) -> tuple[list[dict], list[dict]]:
        """API inputs no graph ask covers: optional slots of the request node before the first query."""
        covered = {a.input for a in self.asks.values() if a.label in self.slot_labels and a.input}
        spare_by_input = {a.input: a for a in spare if a.input}
        missing = [spec for spec in self.inputs if spec["Name"] not in covered]
        if not missing or not self.queries:
            return nodes, edges
        query = self.node_of[self.queries[0]]
        by_id = {n["id"]: n for n in nodes}
        used = {s["name"] for n in nodes if n["type"] == "request" for s in n["slots"]}
        slots = []
        for spec in missing:
            ask = spare_by_input.get(spec["Name"])
            name = ask.slot if ask else snake(spec["Name"])
            while name in used:
                name += "_value"
            used.add(name)
            if ask:
                ask.slot = name
                self.slot_labels.add(ask.label)
                self.asks[ask.label] = ask
            else:
                self.asks[f"<{spec['Name']}>"] = _Ask(f"<{spec['Name']}>", name, "", spec["Name"])
                self.slot_labels.add(f"<{spec['Name']}>")
            slots.append(slot_spec(name, spec, ask=ask.text if ask else None, act=ask.label if ask else None, required=False))
        into = [e for e in edges if e["target"] == query]
        plain_in = [e for e in into if "when" not in e]
        source = by_id.get(plain_in[0]["source"]) if len(into) == 1 and plain_in else None
        if source is not None and source["type"] == "request":
            source["slots"].extend(slots)
            return nodes, edges
        if source is not None and source["type"] == "inform":
            # "I can also filter by X, Y or Z" just before the query: that is the optional criteria
            # themselves. It becomes their request node; nothing needs saying unless the user gives some.
            source.clear()
            source.update({"id": plain_in[0]["source"], "type": "request", "description": self.replies.get(plain_in[0]["source"], ""),
                           "slots": slots})  # fmt: skip
            self.notes.append(f"{source['id']}: optional search criteria, imported as their request node")
            return nodes, edges
        form = {"id": f"form_{query}", "type": "request", "slots": slots}
        for edge in into:
            edge["target"] = form["id"]
        index = next(i for i, n in enumerate(nodes) if n["id"] == query)
        nodes.insert(index, form)
        edges.append({"source": form["id"], "target": query})
        return nodes, edges

    def _closing(self, nodes: list[dict], edges: list[dict]) -> tuple[list[dict], list[dict]]:
        """``anything_else`` asks a question: "no" leads to the goodbye. A branch that stops short of it
        (an inform with no way on, such as "that time is unavailable") goes on to ask it."""
        if ANYTHING_ELSE not in self.replies:
            return nodes, edges
        if ANYTHING_ELSE not in {n["id"] for n in nodes}:
            nodes.append({"id": ANYTHING_ELSE, "type": "inform_and_confirm", "question": self.replies[ANYTHING_ELSE]})
        sources = {e["source"] for e in edges}
        for node in nodes:
            if node["type"] == "inform" and node["id"] not in sources:
                edges.append({"source": node["id"], "target": ANYTHING_ELSE})
        answered = {e["when"].get("answer") for e in edges if e["source"] == ANYTHING_ELSE and isinstance(e.get("when"), dict)}
        bye = _bye_label(self.replies, self.task.responses)
        if "no" in answered or bye is None:
            return nodes, edges
        if bye not in {n["id"] for n in nodes}:
            text = self.replies.get(bye) or (self.task.responses or {}).get(bye) or "Goodbye."
            nodes.append({"id": bye, "type": "end", "message": text})
        edges.append({"source": ANYTHING_ELSE, "target": bye, "when": {"answer": "no"}})
        return nodes, edges

    def _nothing_found(self, nodes: list[dict], edges: list[dict]) -> tuple[list[dict], list[dict]]:
        """Give a query without a failure branch one to the schema's ``*_inform_nothing_found`` reply."""
        reply = next((k for k in self.replies if k.endswith("_inform_nothing_found") or k == "inform_nothing_found"), None)
        for node in nodes:
            if node["type"] != "external_action":
                continue
            if node["id"] in self.branching:
                node["success_when"] = {"result": "ok", "op": "eq", "value": True}
                continue
            if reply is None:
                continue
            if reply not in {n["id"] for n in nodes}:
                nodes.append({"id": reply, "type": "inform", "message": self.replies[reply]})
            node["success_when"] = {"result": "found", "op": "eq", "value": True}
            edges.append({"source": node["id"], "target": reply, "when": {"status": "failure"}})
        return nodes, edges

    # ---------------------------------------------------- globals, fallbacks
    def _hello(self) -> dict[str, Any]:
        examples = list(dict.fromkeys(self.task.examples.get("hello", []) + ["hello", "hi", "hey"]))
        return {"intent": "hello", "examples": examples, "response": self.replies.get("hello", "Hello, how can I help?")}

    def _fallbacks(self) -> dict[str, Any]:
        self.bye_label = _bye_label(self.replies, self.task.responses)
        out = {}
        if self.bye_label:
            out["goodbye"] = self.replies.get(self.bye_label) or (self.task.responses or {}).get(self.bye_label)
        for name in ("out_of_scope", "anything_else"):
            if name in self.replies:
                out[name] = self.replies[name]
        return {k: _literal(v) for k, v in out.items() if v}

    # ---------------------------------------------------- placeholders
    def _bind_placeholders(self, flow: dict[str, Any]) -> None:
        """Rewrite ``{name:spec}`` to a slot or ``{result.field}`` of an upstream query (declared there)."""
        nodes = {n["id"]: n for n in flow["nodes"]}
        slots = {s["name"] for n in flow["nodes"] if n["type"] == "request" for s in n["slots"]}
        owner = {s["name"]: n["id"] for n in flow["nodes"] if n["type"] == "request" for s in n["slots"]}
        preds: dict[str, set[str]] = {n: set() for n in nodes}
        for edge in flow["edges"]:
            preds[edge["target"]].add(edge["source"])

        def upstream(node_id: str) -> set[str]:
            seen, todo = set(), list(preds[node_id])
            while todo:
                cur = todo.pop()
                if cur in seen:
                    continue
                seen.add(cur)
                todo.extend(preds[cur])
            return seen

        def upstream_actions(node_id: str) -> list[dict]:
            return [nodes[n] for n in upstream(node_id) if nodes[n]["type"] == "external_action"]

        def rewrite(template: str, node_id: str | None) -> str:
            actions = upstream_actions(node_id) if node_id else []

            def one(match: re.Match[str]) -> str:
                name, spec = match.group(1), match.group(2) or ""
                if not actions:  # before any query only the user's own values can fill it
                    return "{" + name + spec + "}" if name in slots and owner.get(name) != node_id else name.replace("_", " ")
                # After a query, its result says what happened (declared on it if need be, optional, so a tool
                # that leaves it out shows nothing). A slot could have been corrected since, or never filled
                # when the machine was moved here.
                field_name = _result_field(name, actions[0]["result"]) or name
                for action in actions:
                    action["result"].setdefault(field_name, {"type": "any", "required": False})
                return "{result." + field_name + spec + "}"

            return re.sub(r"\{([A-Za-z_][A-Za-z0-9_]*)(:[^{}]*)?\}", one, template)

        for node in flow["nodes"]:
            if node["type"] == "request":
                for slot in node["slots"]:
                    if slot.get("ask"):
                        slot["ask"] = rewrite(slot["ask"], node["id"])
            for key in ("message", "question"):
                if node.get(key):
                    node[key] = rewrite(node[key], node["id"])
        for action in flow["global_actions"]:
            if action.get("response"):
                action["response"] = rewrite(action["response"], None)


def _calls(condition: Any) -> list[str]:
    """Named predicates a condition uses (``{"call": name}`` at any depth)."""
    if isinstance(condition, dict):
        return ([condition["call"]] if "call" in condition else []) + [n for v in condition.values() for n in _calls(v)]
    if isinstance(condition, list):
        return [n for v in condition for n in _calls(v)]
    return []


def _conversation_order(graph: dict[str, str], tokens: list[str], labels: list[str]) -> list[str]:
    """Labels in the order a conversation meets them: along plain edges from the start, token targets after."""
    order: list[str] = []
    todo = [graph["hello"]] + [graph[t] for t in tokens]
    while todo:
        label = todo.pop(0)
        while label not in order and label in labels:
            order.append(label)
            label = graph.get(label, "")
    return order + [label for label in labels if label not in order]


def _asks_back(label: str) -> bool:
    """An inform that ends in a yes/no question (``*_confirm_*``, ``*_inform_..._ask_next``)."""
    parts = label.split("_")
    return "confirm" in parts or ("inform" in parts and "ask" in parts)


def _is_query(label: str, reply: str) -> bool:
    return label == "query" or label.startswith("query_") and not _status(label) or reply.strip().lower().startswith("query")


def _status(token: str) -> str | None:
    last = token.lower().split("_")[-1]
    return STATUS_WORDS.get(last)


def _status_stem(token: str) -> str:
    parts = token.lower().split("_")
    return "_".join(parts[:-1]) if len(parts) > 1 else "available"


def _is_bye(label: str) -> bool:
    return bool(re.search(r"(^|_)(bye|goodbye(_\d+)?)$", label)) or label.startswith("goodbye")


def _bye_label(replies: dict[str, str], responses: dict[str, str] | None) -> str | None:
    names = [k for k in replies if _is_bye(k)] or [k for k in responses or {} if _is_bye(k)]
    return names[0] if names else None


def _literal(text: str) -> str:
    """A fallback text has no slots to fill: keep placeholders out of it."""
    return re.sub(r"\{[^{}]*\}", "", text)


def _ident(token: str) -> str:
    ident = re.sub(r"\W+", "_", token).strip("_") or "token"
    return ident if not ident[0].isdigit() else "t_" + ident


def _result_field(name: str, declared: dict[str, Any]) -> str | None:
    """The declared result field a placeholder names (``average_rating`` -> ``AverageRating``), if any."""
    target = "".join(words(name))
    for field_name in declared:
        if "".join(words(field_name)) == target:
            return field_name
    return None


def _unique_slot_names(asks: list[_Ask]) -> None:
    seen: set[str] = set()
    for ask in asks:
        name = re.sub(r"\W", "_", ask.slot)
        if not re.match(r"^[A-Za-z_]", name):
            name = "slot_" + name
        while name in seen:
            name += "_2"
        ask.slot = name
        seen.add(name)


def _ask_again_on_loops(flow: dict[str, Any]) -> None:
    """A loop back to a request node ("search more? yes", "play on? yes") asks its slots again:
    the edge clears them (``reset_slots``) instead of running straight through on stale answers."""
    succ: dict[str, set[str]] = {}
    for edge in flow["edges"]:
        succ.setdefault(edge["source"], set()).add(edge["target"])
    requests = {n["id"] for n in flow["nodes"] if n["type"] == "request"}

    def reaches(start: str, goal: str) -> bool:
        seen, todo = {start}, [start]
        while todo:
            for nxt in succ.get(todo.pop(), ()):
                if nxt == goal:
                    return True
                if nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
        return False

    for edge in flow["edges"]:
        if edge["target"] in requests and (edge["source"] == edge["target"] or reaches(edge["target"], edge["source"])):
            edge["reset_slots"] = True


def _prune_unreachable(flow: dict[str, Any], notes: list[str]) -> None:
    succ: dict[str, list[str]] = {n["id"]: [] for n in flow["nodes"]}
    for edge in flow["edges"]:
        succ[edge["source"]].append(edge["target"])
    seen = {flow["start"]}
    todo = [flow["start"]]
    while todo:
        for nxt in succ[todo.pop()]:
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    dropped = [n["id"] for n in flow["nodes"] if n["id"] not in seen]
    if dropped:
        notes.append(f"unreachable from the start, dropped: {', '.join(dropped)}")
    flow["nodes"] = [n for n in flow["nodes"] if n["id"] in seen]
    flow["edges"] = [e for e in flow["edges"] if e["source"] in seen and e["target"] in seen]


# ------------------------------------------------------------------ entry points


def import_task(task: StarTask, overlay: dict[str, Any] | None = None) -> StarImport:
    """Convert one STAR task (with an optional overlay) into a flow document (not yet validated)."""
    patched, corrections = apply_overlay(task, overlay)
    result = _Builder(patched, corrections).run()
    if overlay:
        result.overlay = overlay.get("why")
        result.flow["description"] += f" Hand corrections: {overlay['why']}"
    return result


def import_star_task(star_dir: str | Path, name: str, *, overlays: bool = True) -> StarImport:
    task = read_task(star_dir, name)
    return import_task(task, load_overlay(name) if overlays else None)


def import_star(star_dir: str | Path, *, tasks: Iterable[str] | None = None, overlays: bool = True) -> dict[str, StarImport]:
    """Import every task (or ``tasks``) of a STAR copy; the flows are validated."""
    from ..loader import flow_from_document

    out: dict[str, StarImport] = {}
    for name in tasks or task_names(star_dir):
        imported = import_star_task(star_dir, name, overlays=overlays)
        flow_from_document(imported.flow, origin=f"STAR task {name}")
        out[name] = imported
    return out
