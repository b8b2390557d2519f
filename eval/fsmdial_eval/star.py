"""STAR next-action prediction with imported flows, teacher-forced on the wizard's gold actions.

Protocol (``fsmdial eval star``):

* every STAR task is imported (:mod:`fsmdial_eval.importers.star`) and compiled;
  a dialogue loads the flows of every task its wizard could handle
  (``Scenario.WizardCapabilities``) and routes each user turn to one of them;
* each user turn goes through ``Dialogue.turn``; the first act of the reply is
  the prediction for the wizard's next labelled message (STAR wizards send
  exactly one message per user turn);
* knowledge-base answers: when the engine calls an API that the wizard also
  queried at that point, it receives the wizard's real knowledge-base item
  (so branches follow what really happened, as in CoDial); otherwise the
  seeded simulator (:mod:`fsmdial_eval.simulator`) answers;
* teacher forcing (CoDial's wizard-state approximation): after every wizard
  message with a gold label, the machine is put at the node of that label
  (for an ask: its request node, that slot cleared and marked asked); after a
  wizard query the engine did not make itself, the machine is put at the
  query node with the knowledge-base answer as its result;
* the ``oracle`` understander reveals each gold query constraint as a slot
  value at the first user turn containing it, otherwise right before the
  wizard's query (an extra engine step with empty text); ``rules`` and ``gguf``
  understand the user's text themselves.

Scores: accuracy and support-weighted F1 over gold labels (:mod:`.metrics`),
overall, per task, per single/multi-task and happy/unhappy split; API calls:
precision, recall, argument exact match, schema validity.
"""

from __future__ import annotations

import datetime as dt
import os
import re
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fsmdial.errors import FsmdialError
from fsmdial.flow import ConfirmNode, EndNode, ExternalActionNode, Flow, InformNode, RequestNode
from fsmdial.machine import FlowMachine
from fsmdial.runtime import Dialogue
from fsmdial.session import SessionState
from fsmdial.tables import flow_class
from fsmdial.testing.forcing import checkpoint, reopen, rewind, seek
from fsmdial.testing.suites import model_turn_share
from fsmdial.trace import Act
from fsmdial.understand.factory import meaning_for
from fsmdial.values import InvalidValue, coerce

from . import metrics
from .corpus import GoldCall, StarDialogue, gold_label, is_user_turn, read_dialogue
from .importers.star import StarImport, import_star_task, task_names, words
from .importers.star_format import overlay_files
from .oracle import AskedByWizard, OracleUnderstander
from .predicates import token_predicates
from .simulator import StarApis

CLOCK = dt.datetime(2020, 5, 13, 12, 0)
"""A fixed "now" (STAR was collected in May 2020): relative dates resolve the same on every run."""
NO_PREDICTION = "<none>"
UNDERSTANDERS = ("oracle", "rules", "gguf")


# ------------------------------------------------------------------ flows


@dataclass
class Bundle:
    """One imported task, compiled, with the lookups evaluation needs."""

    task: str
    imported: StarImport
    cls: type[FlowMachine]
    slot_acts: dict[str, tuple[str, str]]
    node_labels: dict[str, str]
    input_slot: dict[str, str]
    query_nodes: dict[tuple[str, str | None], str]
    result_fields: list[str]
    predicates: dict[str, Callable[[FlowMachine], bool]]
    vocabulary: set[str]
    upstream_action: dict[str, str]
    """Node -> the nearest query before it (whose result its templates read)."""
    unknown_tokens: list[str] = field(default_factory=list)

    @property
    def labels(self) -> set[str]:
        return set(self.slot_acts) | set(self.node_labels)

    def label_of(self, act: Act) -> str | None:
        if act.kind == "invalid":
            return None
        if act.kind == "fallback":
            return self.imported.labels.get(act.name, act.name)
        return act.name


_SHARED_WORDS = {
    "name",
    "please",
    "would",
    "like",
    "want",
    "need",
    "help",
    "can",
    "could",
    "you",
    "your",
    "my",
    "me",
    "what",
    "when",
    "where",
    "which",
    "have",
    "hello",
    "hi",
    "hey",
    "thank",
    "thanks",
    "yes",
    "no",
    "the",
    "for",
    "and",
    "with",
    "this",
    "that",
    "there",
    "are",
    "day",
    "time",
}


def build_bundle(star_dir: str | Path, task: str, *, overlays: bool = True) -> Bundle:
    imported = import_star_task(star_dir, task, overlays=overlays)
    cls = flow_class(imported.flow)
    flow = cls.FLOW
    slot_acts: dict[str, tuple[str, str]] = {}
    node_labels: dict[str, str] = {}
    node_slots: dict[str, list[str]] = {}
    for node in flow.nodes:
        if isinstance(node, RequestNode):
            node_slots[node.id] = [s.name for s in node.slots]
            for slot in node.slots:
                slot_acts.setdefault(slot.ask_act, (node.id, slot.name))
        elif isinstance(node, (InformNode, ConfirmNode, EndNode)):
            node_labels.setdefault(node.act, node.id)
    query_nodes = {(imported.api or "", kind): node for node, kind in imported.queries.items()}
    result_fields = sorted({f for n in flow.nodes if isinstance(n, ExternalActionNode) for f in n.result})
    predicates, unknown = token_predicates(imported.tokens, node_slots)
    vocabulary = set(words(task)) | {w for ga in flow.global_actions for e in ga.examples for w in words(e)}
    for slot in flow.slots().values():
        vocabulary |= {w for v in slot.values or () for w in words(v)}
    vocabulary = {w for w in vocabulary if len(w) > 2 and w not in _SHARED_WORDS}
    return Bundle(
        task,
        imported,
        cls,
        slot_acts,
        node_labels,
        {v: k for k, v in imported.inputs.items()},
        query_nodes,
        result_fields,
        predicates,
        vocabulary,
        _upstream_actions(flow),
        unknown,
    )


def _upstream_actions(flow: Flow) -> dict[str, str]:
    preds: dict[str, list[str]] = defaultdict(list)
    for edge in flow.edges:
        preds[edge.target].append(edge.source)
    actions = {n.id for n in flow.nodes if isinstance(n, ExternalActionNode)}
    out: dict[str, str] = {}
    for node in flow.nodes:
        seen, todo = {node.id}, list(preds[node.id])
        while todo:
            current = todo.pop(0)
            if current in actions:
                out[node.id] = current
                break
            if current not in seen:
                seen.add(current)
                todo.extend(preds[current])
    return out


def build_bundles(
    star_dir: str | Path, tasks: Iterable[str] | None = None, *, overlays: bool = True
) -> dict[str, Bundle]:
    return {t: build_bundle(star_dir, t, overlays=overlays) for t in (tasks or task_names(star_dir))}


from .star_kb import KnowledgeBase, shape_result  # noqa: E402

# ------------------------------------------------------------------ sessions


def make_inner_understander(kind: str, model: str | None = None) -> Any:
    """The understander behind the oracle or a plain run: the rules, or the GGUF model for ``gguf``; the rules and
    the embedding model for ``meaning`` (beside ``gguf``: ``$FSMDIAL_MEANING``, default auto, ``off`` for none)."""
    from fsmdial.understand.factory import make_understander
    from fsmdial.understand.rules import RulesUnderstander

    meaning = os.environ.get("FSMDIAL_MEANING") or None
    if kind == "meaning":
        return make_understander("meaning", meaning=meaning)
    if kind != "gguf":
        return RulesUnderstander()
    threads = int(os.environ.get("FSMDIAL_THREADS", "1"))  # one thread: llama.cpp's spinning threads thrash 2 cores
    try:
        fast_path = os.environ.get("FSMDIAL_FAST_PATH") != "0"
        return make_understander("gguf", model, n_threads=threads, fast_path=fast_path, meaning=meaning)
    except ImportError as exc:
        raise ValueError(f"the GGUF understander is not available: {exc}") from None


class Session:
    """One flow of one dialogue."""

    def __init__(self, bundle: Bundle, kb: KnowledgeBase, kind: str, inner: Any):
        self.bundle = bundle
        self.kb = kb
        self.oracle = OracleUnderstander(inner, set(bundle.input_slot.values())) if kind == "oracle" else None
        self.asked = AskedByWizard(self.oracle or inner)
        self.dialogue = Dialogue(
            bundle.cls,
            understander=self.asked,
            tools=kb.tools(bundle),
            predicates=bundle.predicates,
            clock=lambda: CLOCK,
        )
        self.errors = 0  # no start(): in STAR the user speaks first, the engine opens on their first turn
        self.understanding: Counter[str] = Counter()
        """Turns, turns per understanding path, model calls, turns with a model call, and model calls on turns
        the fast path settled."""
        self.before: SessionState | None = None
        """The machine before the engine's steps since the last wizard message (see :meth:`align_to_label`)."""

    @property
    def session_state(self) -> SessionState:
        return self.dialogue.session

    def step(self, text: str, reveal: dict[str, Any] | None = None) -> list[Act] | None:
        if self.before is None:
            self.before = checkpoint(self.dialogue)
        if self.oracle is not None:
            self.oracle.pending = dict(reveal or {})
        if self.dialogue.ended:
            reopen(self.dialogue)  # the transcript goes on after the engine (or the user) ended it
        self.understanding["turns"] += 1
        try:
            result = self.dialogue.turn(text)
        except FsmdialError:
            self.errors += 1
            return None
        path = result.trace.path or "none"
        self.understanding[f"path:{path}"] += 1
        self.understanding["model_calls"] += result.trace.model_calls
        self.understanding["model_turns"] += result.trace.model_calls > 0
        if path == "fast":
            self.understanding["model_calls_on_fast_turns"] += result.trace.model_calls
        return result.acts

    def prediction(self, acts: list[Act] | None) -> str:
        """The wizard's one message: the first act that is a STAR action, an apology only if nothing else is said."""
        said = [act for act in acts or () if act.kind not in ("invalid", "changed", "noted")]  # no action of STAR's
        labels = [(act, self.bundle.label_of(act)) for act in said]
        for act, label in labels:
            if label is not None and not (act.kind == "fallback" and act.name == "out_of_scope" and len(labels) > 1):
                return label
        return labels[0][1] or NO_PREDICTION if labels else NO_PREDICTION

    def missing_or_different(self, values: dict[str, Any]) -> dict[str, Any]:
        slots = self.bundle.cls.FLOW.slots()
        out = {}
        for name, value in values.items():
            try:
                wanted = coerce(slots[name], value, CLOCK)
            except InvalidValue:
                continue
            if self.session_state.slots.get(name) != wanted:
                out[name] = value
        return out

    def _unknown_results(self, node: str) -> dict[str, dict[str, Any]]:
        """Forced past a query that never ran: its result is unknown (every field empty), not missing."""
        session = self.session_state
        action = self.bundle.upstream_action.get(node)
        if action is not None and (session.last_action is None or session.last_action not in session.results):
            return {action: shape_result(None, None, self.bundle.result_fields)}
        return {}

    def align_to_label(self, label: str) -> str | None:
        """Put the dialogue where the wizard's ``label`` leaves it; the slot now asked (or None)."""
        if label in self.bundle.slot_acts:
            node, slot = self.bundle.slot_acts[label]
            seek(self.dialogue, node, held=self._unknown_results(node), clear=[slot])
            return slot
        labelled = self.bundle.node_labels.get(label)
        if labelled is not None:
            seek(self.dialogue, labelled, held=self._unknown_results(labelled), told=True)
        elif self.before is not None:
            # A greeting, an apology, a custom message: the wizard did not move on. The dialogue goes back
            # to where it was before the engine's reply, keeping what the user said.
            rewind(self.dialogue, self.before)
        return None

    def align_to_query(self, node: str, call: GoldCall) -> None:
        """Put the dialogue just after query ``node``, with the wizard's knowledge-base answer as its result."""
        seek(self.dialogue, node, result=shape_result(call.item, call.total, self.bundle.result_fields))


# ------------------------------------------------------------------ one dialogue


@dataclass
class Example:
    dialogue: int
    task: str
    split: str
    gold: str
    pred: str
    user: str = ""
    """The user turn the prediction answers (for error analysis)."""


@dataclass
class DialogueResult:
    examples: list[Example]
    calls: metrics.CallTally
    errors: int
    unknown_tasks: list[str]
    understanding: Counter[str] = field(default_factory=Counter)


def _tokens(text: str) -> list[str]:
    """Letter and digit runs, ``:00`` minutes dropped: "3:00pm" and "3 pm" both give ``['3', 'pm']``."""
    return [t for t in re.findall(r"[a-z]+|[0-9]+", text.lower()) if t != "00"]


def _values_in_text(text: str, value: Any) -> bool:
    """Does the user's text say ``value`` (case, spacing and punctuation aside)?"""
    if value is None or isinstance(value, (bool, list, dict)):
        return False
    needle, hay = _tokens(str(value)), _tokens(text)
    if not needle:
        return False
    return any(hay[i : i + len(needle)] == needle for i in range(len(hay) - len(needle) + 1))


class Router:
    """Picks the flow a user turn is about, among those a multi-task dialogue offers."""

    def __init__(self, bundles: list[Bundle]):
        self.distinctive: dict[str, set[str]] = {}
        for bundle in bundles:
            others = set().union(*(b.vocabulary for b in bundles if b is not bundle)) if len(bundles) > 1 else set()
            self.distinctive[bundle.task] = bundle.vocabulary - others

    def route(self, text: str, active: str) -> str:
        said = set(words(text))
        scores = {task: len(said & vocab) for task, vocab in self.distinctive.items()}
        best = max(scores, key=lambda t: (scores[t], t == active))
        return best if scores[best] > scores.get(active, 0) else active


def evaluate_dialogue(
    dialogue: StarDialogue, bundles: dict[str, Bundle], apis: StarApis, kind: str, inner: Any
) -> DialogueResult:
    tasks = [t for t in dialogue.tasks if t in bundles]
    unknown = [t for t in dialogue.tasks if t not in bundles]
    kb = KnowledgeBase(dialogue, apis)
    if not tasks:
        return DialogueResult([], metrics.CallTally(), 0, unknown)
    sessions: dict[str, Session] = {}

    def session(task: str) -> Session:
        if task not in sessions:
            sessions[task] = Session(bundles[task], kb, kind, inner)
            _share_slots(sessions[task], sessions.values())
        return sessions[task]

    owner_of_api = {bundles[t].imported.api: t for t in tasks}
    router = Router([bundles[t] for t in tasks])
    active = tasks[0]
    reveals = _oracle_reveals(dialogue, bundles, tasks) if kind == "oracle" else {}
    last_acts: list[Act] | None = None
    last_task = active
    last_user = ""
    examples: list[Example] = []
    group_starts = {group[0].position: group for group in kb.groups}
    for index, event in enumerate(dialogue.events):
        kb.position = index
        if is_user_turn(event):
            if len(tasks) > 1:
                new = router.route(event["Text"], active)
                if new != active:
                    _share_slots(session(new), sessions.values())
                active = new
            acts = session(active).step(event["Text"], reveals.get((index, active)))
            last_acts, last_task, last_user = acts, active, event["Text"]
            continue
        if index in group_starts:
            acts, task = _on_queries(group_starts[index], kb, session, owner_of_api, reveals, index, kind)
            if acts is not None:
                last_acts, last_task = acts, task
                active = task
            continue
        label = gold_label(event)
        if event.get("Agent") == "Wizard" and event.get("Action") in ("utter", "pick_suggestion"):
            if label is not None:
                if last_acts is None:
                    last_acts, last_task = session(active).step(""), active
                pred = session(last_task).prediction(last_acts)
                owner = _owner(label, active, tasks, bundles)
                examples.append(Example(dialogue.id, owner, dialogue.split, label, pred, last_user))
                if owner != active and label in bundles[owner].labels:
                    _share_slots(session(owner), sessions.values())
                    active = owner
                asked = session(active).align_to_label(label)
                for s in sessions.values():
                    s.asked.asked = asked if s is sessions[active] else None
            else:
                for s in sessions.values():
                    s.asked.asked = None
            for s in sessions.values():
                s.before = None
            last_acts = None
    tally = _score_calls(dialogue, kb, apis)
    understanding = sum((s.understanding for s in sessions.values()), Counter())
    return DialogueResult(examples, tally, sum(s.errors for s in sessions.values()), unknown, understanding)


def _owner(label: str, active: str, tasks: list[str], bundles: dict[str, Bundle]) -> str:
    if label in bundles[active].labels:
        return active
    for task in tasks:
        if label in bundles[task].labels:
            return task
    return active


def _share_slots(target: Session, sessions: Iterable[Session]) -> None:
    """Values a user already gave another flow of the dialogue (their name ...) carry over."""
    for other in sessions:
        if other is not target:
            target.dialogue.adopt_slots(other.session_state.slots)


def _on_queries(
    group: list[GoldCall],
    kb: KnowledgeBase,
    session: Callable[[str], Session],
    owner_of_api: dict,
    reveals: dict,
    index: int,
    kind: str,
) -> tuple[list[Act] | None, str]:
    """The wizard queried: reveal oracle values, then force the queries the engine did not make."""
    acts: list[Act] | None = None
    task = ""
    segment = kb.segment_of[index]
    for (api, request_type), call in KnowledgeBase.keys(group).items():
        if api not in owner_of_api:
            continue
        task = owner_of_api[api]
        s = session(task)
        if kind == "oracle":
            reveal = s.missing_or_different(reveals.get(("query", call.position, task), {}))
            if reveal:
                new = s.step("", reveal)
                acts = new if new is not None else acts
        made = any(
            c.segment == segment and c.api == api and (c.request_type == request_type or request_type is None)
            for c in kb.calls
        )
        if not made:
            node = s.bundle.query_nodes.get((api, request_type)) or s.bundle.query_nodes.get((api, None))
            if node is None and s.bundle.query_nodes:
                node = next(n for (a, _), n in s.bundle.query_nodes.items() if a == api)
            if node is not None:
                s.align_to_query(node, call)
                new = s.step("")
                acts = new if new is not None else acts
    return acts, task


def _oracle_reveals(dialogue: StarDialogue, bundles: dict[str, Bundle], tasks: list[str]) -> dict[Any, dict[str, Any]]:
    """When each gold constraint value becomes known: ``(user event index, task)`` or ``("query", index, task)``."""
    out: dict[Any, dict[str, Any]] = defaultdict(dict)
    user_turns = [(i, e["Text"]) for i, e in enumerate(dialogue.events) if is_user_turn(e)]
    owner = {bundles[t].imported.api: t for t in tasks}
    revealed: dict[tuple[str, str], Any] = {}
    for position, call in sorted(dialogue.calls.items()):
        task = owner.get(call.api)
        if task is None:
            continue
        input_slot = bundles[task].input_slot
        for constraint in call.constraints:
            slot = input_slot.get(constraint.name)
            value = constraint.slot_value
            if slot is None or value is None:
                continue
            out[("query", position, task)][slot] = value
            if revealed.get((task, slot)) == value:
                continue
            revealed[(task, slot)] = value
            turn = next((i for i, text in user_turns if i < position and _values_in_text(text, value)), None)
            if turn is not None:
                out[(turn, task)][slot] = value
    return out


# ------------------------------------------------------------------ API call scores


def _norm_arg(value: Any) -> str:
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return str(value).strip().strip('"').casefold()


def schema_problem(spec: dict[str, Any], arguments: dict[str, Any]) -> str | None:
    """Why ``arguments`` do not fit the API's input schema (None when they do)."""
    inputs = {i["Name"]: i for i in spec.get("input") or []}
    for name in spec.get("required") or []:
        if arguments.get(name) in (None, ""):
            return f"missing required {name}"
    for name, value in arguments.items():
        if name not in inputs:
            return f"unknown input {name}"
        kind = inputs[name].get("Type")
        categories = inputs[name].get("Categories")
        if kind == "Integer":
            if isinstance(value, bool) or not isinstance(value, int):
                return f"{name} is not an integer"
            low, high = inputs[name].get("Min"), inputs[name].get("Max")
            if isinstance(low, (int, float)) and value < low or isinstance(high, (int, float)) and value > high:
                return f"{name} out of range"
        elif kind == "Boolean" and not isinstance(value, bool):
            return f"{name} is not a boolean"
        elif (
            kind in ("Categorical", "RequestType")
            and isinstance(categories, list)
            and all(isinstance(c, str) for c in categories)
        ):
            if _norm_arg(value) not in {_norm_arg(c) for c in categories}:
                return f"{name} is not one of its categories"
        elif kind in ("ShortString", "LongString") and not isinstance(value, str):
            return f"{name} is not a string"
    return None


def _score_calls(dialogue: StarDialogue, kb: KnowledgeBase, apis: StarApis) -> metrics.CallTally:
    tally = metrics.CallTally()
    gold: list[tuple[int, str, str | None, list[GoldCall]]] = []
    for group in kb.groups:
        segment = kb.segment_of[group[0].position]
        by_key: dict[tuple[str, str | None], list[GoldCall]] = defaultdict(list)
        for call in group:
            by_key[(call.api, call.request_type)].append(call)
        for (api, kind), calls in by_key.items():
            gold.append((segment, api, kind, calls))
    tally.gold = len(gold)
    matched_gold: set[int] = set()
    for made in kb.calls:
        tally.made += 1
        problem = schema_problem(apis.apis.get(made.api, {}), made.arguments)
        if problem is None:
            tally.valid += 1
        else:
            tally.problems[f"{made.api}: {problem}"] += 1
        for number, (segment, api, kind, calls) in enumerate(gold):
            if (
                number in matched_gold
                or segment != made.segment
                or api != made.api
                or (kind != made.request_type and kind is not None)
            ):
                continue
            matched_gold.add(number)
            tally.correct += 1
            engine = {k: _norm_arg(v) for k, v in made.arguments.items()}
            golds = [{k: _norm_arg(v) for k, v in c.arguments().items()} for c in calls]
            if engine in golds:
                tally.exact += 1
            else:
                nearest = min(golds, key=lambda g: len(set(g.items()) ^ set(engine.items())))
                tally.note_difference(f"dialogue {dialogue.id}", made.api, engine, nearest)
            break
    tally.found = len(matched_gold)
    tally.missed.update(api for number, (_, api, _, _) in enumerate(gold) if number not in matched_gold)
    tally.repeated = metrics.repeated_calls((call.api, call.arguments) for call in kb.calls)
    return tally


# ------------------------------------------------------------------ the whole split


@dataclass
class Report:
    examples: list[Example]
    calls: metrics.CallTally
    errors: int
    dialogues: int
    settings: dict[str, Any]
    understanding: Counter[str] = field(default_factory=Counter)

    def to_dict(self) -> dict[str, Any]:
        gold = [e.gold for e in self.examples]
        pred = [e.pred for e in self.examples]
        by_task: dict[str, list[Example]] = defaultdict(list)
        by_split: dict[str, list[Example]] = defaultdict(list)
        for e in self.examples:
            by_task[e.task].append(e)
            by_split[e.split].append(e)
            by_split["single" if e.split.startswith("single") else "multi"].append(e)
            by_split["happy" if e.split.endswith("/happy") else "unhappy"].append(e)
        score = lambda xs: metrics.summary([x.gold for x in xs], [x.pred for x in xs])  # noqa: E731
        confusions = Counter((e.gold, e.pred) for e in self.examples if e.gold != e.pred)
        labels = sorted(metrics.per_label(gold, pred), key=lambda s: -s.support)
        return {
            "overall": metrics.summary(gold, pred),
            "per_task": {task: score(xs) for task, xs in sorted(by_task.items())},
            "splits": {name: score(xs) for name, xs in sorted(by_split.items())},
            "api": self.calls.report(),
            "api_schema_problems": dict(self.calls.problems.most_common(20)),
            "api_argument_differences": dict(self.calls.differences.most_common(30)),
            "api_different_values": [list(row) for row in self.calls.different_values[:100]],
            "api_missed": dict(self.calls.missed.most_common()),
            "turn_errors": self.errors,
            "understanding": {"model_calls_on_fast_turns": 0, **dict(sorted(self.understanding.items()))},
            "model_turns": model_turn_share(self.understanding["turns"], self.understanding["model_turns"]),
            "dialogues": self.dialogues,
            "labels": {
                s.label: {
                    "f1": round(100 * s.f1, 2),
                    "precision": round(100 * s.precision, 2),
                    "recall": round(100 * s.recall, 2),
                    "support": s.support,
                }
                for s in labels
                if s.support
            },
            "top_confusions": [{"gold": g, "pred": p, "count": n} for (g, p), n in confusions.most_common(40)],
            "settings": self.settings,
        }


_WORKER: dict[str, Any] = {}


def _init_worker(
    star_dir: str, tasks: list[str] | None, overlays: bool, kind: str, model: str | None, seed: int
) -> None:
    _WORKER["bundles"] = build_bundles(star_dir, tasks, overlays=overlays)
    _WORKER["apis"] = StarApis(star_dir, seed=seed)
    _WORKER["kind"] = kind
    _WORKER["inner"] = make_inner_understander(kind if kind == "gguf" else "rules", model)


def _run_one(path: str) -> DialogueResult:
    dialogue = read_dialogue(path)
    return evaluate_dialogue(dialogue, _WORKER["bundles"], _WORKER["apis"], _WORKER["kind"], _WORKER["inner"])


def evaluate(
    star_dir: str | Path,
    paths: list[Path],
    *,
    kind: str = "rules",
    model: str | None = None,
    overlays: bool = True,
    tasks: list[str] | None = None,
    workers: int = 1,
    seed: int = 0,
    progress: bool = False,
) -> Report:
    """Run the protocol over ``paths`` (dialogue files) and collect every prediction."""
    from tqdm import tqdm

    if kind not in UNDERSTANDERS:
        raise ValueError(f"unknown understander {kind!r} (choose from {', '.join(UNDERSTANDERS)})")
    if overlays:
        overlay_files()  # a broken install fails here, once, not in the initializer of every pool worker
    args = (str(star_dir), tasks, overlays, kind, model, seed)
    names = [str(p) for p in paths]
    bar = tqdm(total=len(names), desc=f"STAR {kind}", unit="dlg", disable=not progress, leave=False)
    results: list[DialogueResult] = []
    if workers > 1 and kind != "gguf":
        import multiprocessing

        with multiprocessing.get_context("fork").Pool(workers, initializer=_init_worker, initargs=args) as pool:
            for result in pool.imap(_run_one, names, chunksize=16):
                results.append(result)
                bar.update()
    else:
        _init_worker(*args)
        for name in names:
            results.append(_run_one(name))
            bar.update()
    bar.close()
    examples = [e for r in results for e in r.examples]
    calls = metrics.CallTally()
    for r in results:
        calls.add(r.calls)
    settings = {
        "understander": kind,
        "meaning": meaning_for(kind, os.environ.get("FSMDIAL_MEANING") or None),
        "overlays": overlays,
        "seed": seed,
        "tasks": tasks or "all",
    }
    understanding = sum((r.understanding for r in results), Counter())
    return Report(
        examples, calls, sum(r.errors for r in results), sum(1 for r in results if r.examples), settings, understanding
    )
