"""Customers' own words: whole conversations scored by the committing tool calls they end in.

A suite is a JSON-lines file. Each line is one conversation::

    {"id": "rb-01", "flow": "flows/restaurant_booking.json", "now": "2026-11-23T18:00",
     "tags": ["greeting", "number_words"],
     "turns": [{"user": "hi there"}, {"user": "a table for six tomorrow at 8"}, ...],
     "tool_calls": [{"tool": "book_table", "arguments": {"name": "Dana Lee", "party_size": 6, ...}}]}

* ``flow``: relative to the working directory, else to the suite file's directory or one of its parents;
* ``now``: the frozen clock of the whole conversation (relative dates have one right answer);
* ``turns``: :class:`fsmdial.testing.ExpectedTurn` mappings, the user's texts in order (the bot's opening is
  played first); expectations a turn carries (``acts``, ``slots``, ...) are checked and listed in the
  conversation's details, but do not decide success;
* ``tool_calls``: :class:`fsmdial.testing.ExpectedCall` mappings: the calls of the flow's committing
  actions (``"commits": true``) the conversation must make, in order, with exactly these arguments
  (``[]``: nothing may be committed). Calls of other actions (look-ups) are not scored.

A line ``{"meta": {...}}`` describes the suite; its ``slot_kinds`` maps ``flow.slot`` to a finer kind than
the declared type (``"vet_appointment.phone": "phone"``) for the slot-error table.

Scores (:func:`run_conversations`):

* **task success**: the committing calls made are exactly the expected ones, with exactly the expected
  arguments, and nothing else was committed;
* **wrong commits**: conversations in which a committing tool was called with any argument other than
  expected, or called when no (further) commit was expected: the engine acted on a misunderstanding;
* **no commit**: a commit was expected and none was made (the customer was let down, nothing wrong done);
* **slot errors by kind**: each expected argument against the committed one (or, with no commit, the
  slot's value when the conversation ended): right, wrong or missing.

Tools are the flow's stand-ins (:func:`fsmdial.tools.stand_in`): every action succeeds.

    fsmdial eval conversations tests/data/customer_conversations/suite.jsonl [--understander gguf --model M]
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import re
import sys
import time
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import FsmdialError, InputFileError
from ..flow import ExternalActionNode, Flow, SlotArg
from ..trace import ToolCall
from ..understand.factory import add_model_arguments, meaning_of, understander_from_arguments
from ..userfiles import parse_json, read_text
from .expectations import ABSENT, ANY, ExpectedCall, ExpectedTurn, check_turn, expected_from_data

DEFAULT_SUITE = Path(__file__).resolve().parents[2] / "tests" / "data" / "customer_conversations" / "suite.jsonl"


class SuiteError(FsmdialError, ValueError):
    """A conversation suite file (``fsmdial eval conversations``) that cannot be read: names the file, the line
    and what is wrong."""


@dataclass(frozen=True)
class CustomerConversation:
    """One conversation of a suite: the user's turns and the committing calls they must end in."""

    id: str
    flow: Path
    now: dt.datetime
    turns: tuple[ExpectedTurn, ...]
    tool_calls: tuple[ExpectedCall, ...]
    tags: tuple[str, ...] = ()
    note: str = ""


@dataclass
class Suite:
    conversations: list[CustomerConversation]
    slot_kinds: dict[str, str] = field(default_factory=dict)
    meta: dict[str, Any] = field(default_factory=dict)


# ------------------------------------------------------------------ reading


def load_suite(path: str | Path) -> Suite:
    """Read a suite file (see the module's docstring); a bad line raises :class:`SuiteError`.

    The file is read by :mod:`fsmdial.userfiles` (at most 16 MiB, UTF-8, each line JSON nested at most 64 levels),
    and every value a line gives is checked for its type: a hostile suite is a :class:`SuiteError` naming the file
    and the line, never another exception.
    """
    path = Path(path)
    try:
        lines = read_text(path, what="the suite").split("\n")  # only newlines end a line: JSON text may hold U+2028
    except InputFileError as exc:
        raise SuiteError(str(exc)) from None
    suite = Suite([])
    seen: set[str] = set()
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        where = f"{path}:{number}"
        try:
            raw = parse_json(line, origin=where)
        except InputFileError as exc:
            raise SuiteError(str(exc)) from None
        if not isinstance(raw, dict):
            raise SuiteError(f"{where}: a line is a JSON object, not {type(raw).__name__}")
        if "meta" in raw:
            suite.meta, suite.slot_kinds = _meta(raw["meta"], where)
            continue
        conversation = _conversation(raw, path, where)
        if conversation.id in seen:
            raise SuiteError(f"{where}: conversation id {conversation.id!r} is used twice")
        seen.add(conversation.id)
        suite.conversations.append(conversation)
    if not suite.conversations:
        raise SuiteError(f"{path}: no conversation in the suite")
    return suite


def _meta(meta: Any, where: str) -> tuple[dict[str, Any], dict[str, str]]:
    """A ``{"meta": {...}}`` line: the suite's description, and its ``slot_kinds`` (``flow.slot`` -> kind)."""
    if not isinstance(meta, dict):
        raise SuiteError(f"{where}: 'meta' is an object, not {type(meta).__name__}")
    kinds = meta.get("slot_kinds") or {}
    if not isinstance(kinds, dict) or not all(isinstance(kind, str) for kind in kinds.values()):
        raise SuiteError(f"{where}: 'meta.slot_kinds' is an object of flow.slot -> kind")
    return dict(meta), {str(k): v for k, v in kinds.items()}


_KEYS = {"id", "flow", "now", "turns", "tool_calls", "tags", "note"}


def _conversation(raw: dict[str, Any], path: Path, where: str) -> CustomerConversation:
    unknown = sorted(set(raw) - _KEYS)
    if unknown:
        raise SuiteError(f"{where}: unknown key(s) {', '.join(map(repr, unknown))} (known: {', '.join(sorted(_KEYS))})")
    missing = [key for key in ("id", "flow", "now", "turns", "tool_calls") if key not in raw]
    if missing:
        raise SuiteError(f"{where}: missing key(s) {', '.join(map(repr, missing))}")
    where = f"{where} ({raw['id']})"
    for key, kind in (("turns", list), ("tool_calls", list), ("tags", (list, type(None))), ("flow", str)):
        if not isinstance(raw.get(key), kind):
            raise SuiteError(f"{where}: {key!r} is {_KEY_KINDS[key]}, not {type(raw.get(key)).__name__}")
    if not all(isinstance(tag, str) for tag in raw.get("tags") or ()):
        raise SuiteError(f"{where}: 'tags' is {_KEY_KINDS['tags']}")
    try:
        now = dt.datetime.fromisoformat(raw["now"])
        turns = tuple(ExpectedTurn.of(spec) for spec in raw["turns"])
        calls = tuple(_expected_call(spec) for spec in raw["tool_calls"])
    except (TypeError, ValueError, re.error) as exc:
        raise SuiteError(f"{where}: {exc}") from None
    if not turns or any(not isinstance(turn.user, str) for turn in turns):
        raise SuiteError(f"{where}: 'turns' are the user's texts (at least one; the bot's opening is played anyway)")
    return CustomerConversation(
        str(raw["id"]),
        _flow_path(str(raw["flow"]), path, where),
        now,
        turns,
        calls,
        tuple(raw.get("tags") or ()),
        str(raw.get("note") or ""),
    )


_KEY_KINDS = {"turns": "a list", "tool_calls": "a list", "tags": "a list of texts", "flow": "a file name"}


def _expected_call(spec: Any) -> ExpectedCall:
    if not isinstance(spec, Mapping):
        raise TypeError(f"an expected tool call is an object, not {type(spec).__name__}")
    arguments = spec.get("arguments")
    if arguments is not None and not isinstance(arguments, Mapping):
        raise TypeError(f"the arguments of an expected call are an object, not {type(arguments).__name__}")
    return ExpectedCall(**{**spec, "arguments": _expected_values(arguments)})


def _expected_values(arguments: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """Argument values as :class:`ExpectedCall` takes them (``{"$pattern": regex}``, ``{"$any": true}``: see
    :func:`~fsmdial.testing.expected_from_data`)."""
    if arguments is None:
        return None
    return {name: expected_from_data(value) for name, value in arguments.items()}


def _flow_path(name: str, suite: Path, where: str) -> Path:
    candidates = [Path(name), *(parent / name for parent in suite.resolve().parents)]
    for candidate in candidates:
        try:
            if candidate.is_file():
                return candidate
        except (OSError, ValueError):  # a name too long for the file system, a NUL character
            break
    raise SuiteError(
        f"{where}: flow file {name!r} not found (relative to the working directory or the suite's folders)"
    )


# ------------------------------------------------------------------ playing


@dataclass
class Outcome:
    """How one conversation went."""

    conversation: CustomerConversation
    flow_name: str
    commits: list[ToolCall]
    success: bool
    wrong_commits: int
    slots: list[dict[str, Any]]
    errors: list[str]
    turn_problems: list[str]
    transcript: list[tuple[str, str]]
    final_node: str
    ended: bool
    turns: int = 0
    """User turns played (a turn that raised counts too)."""
    model_turns: int = 0
    """User turns whose understanding made a model call (the trace's ``model_calls``)."""

    @property
    def outcome(self) -> str:
        if self.success:
            return "success"
        if self.wrong_commits:
            return "wrong_commit"
        return "no_commit" if not self.commits else "incomplete"

    def to_dict(self) -> dict[str, Any]:
        conv = self.conversation
        return {
            "id": conv.id,
            "flow": self.flow_name,
            "tags": list(conv.tags),
            "outcome": self.outcome,
            "success": self.success,
            "wrong_commits": self.wrong_commits,
            "expected": [
                {"tool": c.tool, "arguments": {k: _shown(v) for k, v in (c.arguments or {}).items()}}
                for c in conv.tool_calls
            ],
            "committed": [{"tool": c.tool, "arguments": c.arguments, "status": c.status} for c in self.commits],
            "slot_errors": [{**s, "expected": _shown(s["expected"])} for s in self.slots if s["status"] != "right"],
            "errors": self.errors,
            "turn_problems": self.turn_problems,
            "final_node": self.final_node,
            "ended": self.ended,
            "model_turns": model_turn_share(self.turns, self.model_turns),
            "transcript": [f"{who}: {text}" for who, text in self.transcript],
        }


def _shown(value: Any) -> Any:
    """An expected value as JSON: a pattern as ``{"$pattern": ...}``, ANY as ``{"$any": true}``, ABSENT as
    ``{"$absent": true}``."""
    if isinstance(value, re.Pattern):
        return {"$pattern": value.pattern}
    if value is ABSENT:
        return {"$absent": True}
    return {"$any": True} if value is ANY else value


def play(
    conversation: CustomerConversation, understander: Any = None, slot_kinds: Mapping[str, str] | None = None
) -> Outcome:
    """Play ``conversation`` on a fresh dialogue (stand-in tools, its frozen clock) and score it."""
    from ..runtime import Dialogue

    now = conversation.now
    dialogue = Dialogue(str(conversation.flow), understander=understander, stand_in_tools=True, clock=lambda: now)
    flow = dialogue.flow
    committing = {n.id for n in flow.nodes if isinstance(n, ExternalActionNode) and n.commits}
    transcript: list[tuple[str, str]] = []
    errors: list[str] = []
    problems: list[str] = []
    commits: list[ToolCall] = []
    with_model = 0
    opening = dialogue.start()
    transcript.append(("bot", opening.text))
    for number, turn in enumerate(conversation.turns, start=1):
        transcript.append(("user", turn.user or ""))
        try:
            result = dialogue.turn(turn.user or "")
        except Exception as exc:  # noqa: BLE001 - a failed turn is scored, the suite goes on
            errors.append(f"turn {number}: {type(exc).__name__}: {exc}")
            transcript.append(("bot", f"[{type(exc).__name__}]"))
            continue
        transcript.append(("bot", result.text))
        with_model += result.trace.model_calls > 0
        commits.extend(c for c in result.tool_calls if c.node in committing)
        found = check_turn(dialogue, turn, result)
        if found:
            problems.append(f"turn {number} ({turn.user!r}): " + "; ".join(p.strip() for p in found))
    expected = list(conversation.tool_calls)
    matches = [i < len(commits) and not call.problems(commits[i]) for i, call in enumerate(expected)]
    wrong = sum(1 for i in range(len(commits)) if i >= len(expected) or not matches[i])
    success = wrong == 0 and len(commits) == len(expected) and all(matches)
    slots = _slot_checks(flow, expected, commits, dialogue.slots, slot_kinds or {})
    return Outcome(
        conversation,
        flow.name,
        commits,
        success,
        wrong,
        slots,
        errors,
        problems,
        transcript,
        dialogue.node,
        dialogue.ended,
        len(conversation.turns),
        with_model,
    )


def _slot_checks(
    flow: Flow,
    expected: list[ExpectedCall],
    commits: list[ToolCall],
    held: Mapping[str, Any],
    slot_kinds: Mapping[str, str],
) -> list[dict[str, Any]]:
    """Each expected argument against the committed one, else against the slot's final value."""
    nodes = {n.tool: n for n in flow.nodes if isinstance(n, ExternalActionNode)}
    slots = flow.slots()
    checks = []
    for i, call in enumerate(expected):
        node = nodes.get(call.tool)
        mapping = flow.action_arguments(node) if node is not None else {}
        made = commits[i].arguments if i < len(commits) and commits[i].tool == call.tool else None
        for argument, want in (call.arguments or {}).items():
            source = mapping.get(argument)
            slot_name = source if isinstance(source, str) else source.slot if isinstance(source, SlotArg) else None
            slot = slots.get(slot_name) if slot_name else None
            kind = slot_kinds.get(f"{flow.name}.{slot_name}") or (slot.type.value if slot is not None else "other")
            if made is not None:
                got, present = made.get(argument), argument in made
            else:
                got, present = held.get(slot_name) if slot_name else None, bool(slot_name) and slot_name in held
            status = "missing" if not present else "right" if _matches(want, got) else "wrong"
            checks.append(
                {
                    "slot": f"{flow.name}.{slot_name or argument}",
                    "kind": kind,
                    "expected": want,
                    "got": got if present else None,
                    "committed": made is not None,
                    "status": status,
                }
            )
    return checks


def _matches(want: Any, got: Any) -> bool:
    if isinstance(want, re.Pattern):
        return isinstance(got, str) and want.search(got) is not None
    return bool(want == got)


# ------------------------------------------------------------------ scoring


def model_turn_share(turns: int, with_model: int) -> dict[str, Any]:
    """The share of user turns that made a model call: what the model path costs (issue 36: at most one call a
    turn, none when nothing is open). Every evaluation report carries it, under ``model_turns``."""
    share = round(100 * with_model / turns, 1) if turns else None
    return {"turns": turns, "with_model_call": with_model, "share": share}


def model_turns_line(summary: Mapping[str, Any]) -> str:
    """:func:`model_turn_share` in words, the line every evaluation's text report ends with."""
    share = "-" if summary["share"] is None else f"{summary['share']:.1f}%"
    return f"user turns with a model call: {summary['with_model_call']} of {summary['turns']} ({share})"


def score(outcomes: Iterable[Outcome]) -> dict[str, Any]:
    """The report of a run: totals, by flow, by tag, slot errors by kind, and every conversation."""
    outcomes = list(outcomes)
    n = len(outcomes)

    def totals(group: list[Outcome]) -> dict[str, Any]:
        count = len(group)
        ok = sum(o.success for o in group)
        return {
            "conversations": count,
            "task_success": ok,
            "task_success_rate": round(100 * ok / count, 1) if count else None,
            "wrong_commits": sum(1 for o in group if o.wrong_commits),
            "wrong_commit_calls": sum(o.wrong_commits for o in group),
            "no_commit": sum(1 for o in group if o.outcome == "no_commit"),
            "turn_errors": sum(len(o.errors) for o in group),
        }

    by_flow: dict[str, list[Outcome]] = {}
    by_tag: dict[str, list[Outcome]] = {}
    for o in outcomes:
        by_flow.setdefault(o.flow_name, []).append(o)
        for tag in o.conversation.tags:
            by_tag.setdefault(tag, []).append(o)
    kinds: dict[str, Counter[str]] = {}
    for o in outcomes:
        for check in o.slots:
            kinds.setdefault(check["kind"], Counter())[check["status"]] += 1
    slot_errors = {
        kind: {
            "checked": sum(c.values()),
            "right": c["right"],
            "wrong": c["wrong"],
            "missing": c["missing"],
            "errors": c["wrong"] + c["missing"],
        }
        for kind, c in sorted(kinds.items())
    }
    return {
        "overall": totals(outcomes),
        "by_flow": {name: totals(group) for name, group in sorted(by_flow.items())},
        "by_tag": {name: totals(group) for name, group in sorted(by_tag.items())},
        "slot_errors": slot_errors,
        "model_turns": model_turn_share(sum(o.turns for o in outcomes), sum(o.model_turns for o in outcomes)),
        "conversations": [o.to_dict() for o in outcomes],
        "n": n,
    }


def run_conversations(
    path: str | Path, understander: Any = None, *, ids: Iterable[str] | None = None, progress: bool = False
) -> dict[str, Any]:
    """Play every conversation of the suite at ``path`` with ``understander`` (None: the rules) and score them."""
    suite = load_suite(path)
    conversations = suite.conversations
    if ids is not None:
        wanted = set(ids)
        conversations = [c for c in conversations if c.id in wanted]
    started = time.perf_counter()
    outcomes = []
    for i, conversation in enumerate(conversations, start=1):
        outcomes.append(play(conversation, understander, suite.slot_kinds))
        if progress:
            print(f"\r{i}/{len(conversations)} conversations", end="", file=sys.stderr, flush=True)
    if progress:
        print(file=sys.stderr)
    report = score(outcomes)
    report["settings"] = {
        "suite": str(path),
        "understander": type(understander).__name__ if understander else "RulesUnderstander",
        "meaning": meaning_of(understander),
        "seconds": round(time.perf_counter() - started, 1),
    }
    return report


def format_table(report: dict[str, Any]) -> str:
    """The report as plain-text tables: totals, by flow, by tag, slot errors by kind."""
    settings = report.get("settings", {})
    head = (
        f"{'':26s} {'n':>4s} {'success':>8s} {'%':>6s} {'wrong commits':>14s} {'no commit':>10s} {'turn errors':>12s}"
    )

    def row(name: str, t: dict[str, Any]) -> str:
        rate = "-" if t["task_success_rate"] is None else f"{t['task_success_rate']:.1f}"
        return (
            f"{name:26s} {t['conversations']:4d} {t['task_success']:8d} {rate:>6s} {t['wrong_commits']:14d} "
            f"{t['no_commit']:10d} {t['turn_errors']:12d}"
        )

    lines = [
        f"Customers' words suite ({settings.get('understander', '?')}, {settings.get('model') or 'no model'}, "
        f"meaning {settings.get('meaning') or 'off'}, {settings.get('seconds', '?')} s)",
        "",
        head,
        row("overall", report["overall"]),
        "",
    ]
    lines += [row(name, t) for name, t in report["by_flow"].items()]
    lines += ["", head.replace(" " * 26, f"{'tag':26s}", 1)]
    lines += [row(name, t) for name, t in report["by_tag"].items()]
    lines += ["", f"{'slot kind':26s} {'checked':>8s} {'right':>6s} {'wrong':>6s} {'missing':>8s}"]
    lines += [
        f"{kind:26s} {s['checked']:8d} {s['right']:6d} {s['wrong']:6d} {s['missing']:8d}"
        for kind, s in report["slot_errors"].items()
    ]
    lines += ["", model_turns_line(report["model_turns"])]
    return "\n".join(lines)


# ------------------------------------------------------------------ command line


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``fsmdial eval conversations``."""
    parser.add_argument(
        "suite",
        nargs="?",
        default=str(DEFAULT_SUITE),
        metavar="FILE.jsonl",
        help="the conversations (default: tests/data/customer_conversations/suite.jsonl)",
    )
    add_model_arguments(parser)
    parser.add_argument("--ids", nargs="+", metavar="ID", help="only these conversations")
    parser.add_argument("--show", action="store_true", help="print every conversation that did not succeed")
    parser.add_argument("--out", metavar="FILE.json", help="write the full report (every conversation) as JSON")
    parser.add_argument("--no-progress", action="store_true", help="no progress count")


def run(args: argparse.Namespace) -> int:
    """Run ``fsmdial eval conversations``: the table on stdout, the report in ``--out``; 2 on bad input."""
    try:
        understander = understander_from_arguments(args)
        report = run_conversations(args.suite, understander, ids=args.ids, progress=not args.no_progress)
    except (ValueError, FsmdialError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    report["settings"].update(understander=args.understander, model=args.model, fast_path=not args.no_fast_path)
    if args.show:
        for conv in report["conversations"]:
            if not conv["success"]:
                print(f"--- {conv['id']} [{conv['outcome']}] {conv['flow']} {' '.join(conv['tags'])}")
                print("    " + "\n    ".join(conv["transcript"]))
                for check in conv["slot_errors"]:
                    print(
                        f"    ! {check['slot']} ({check['kind']}): expected {check['expected']!r}, got {check['got']!r}"
                    )
                for error in conv["errors"]:
                    print(f"    ! {error}")
        print()
    print(format_table(report))
    if args.out:
        Path(args.out).write_text(json.dumps(report, indent=2, default=str) + "\n", encoding="utf-8")
        print(f"wrote {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":  # python -m fsmdial.testing.suites FILE [...] (before `fsmdial eval conversations` exists)
    _parser = argparse.ArgumentParser(prog="python -m fsmdial.testing.suites", description=__doc__.split("\n")[0])
    add_arguments(_parser)
    sys.exit(run(_parser.parse_args()))
