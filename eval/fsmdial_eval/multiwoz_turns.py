"""Turn-level slot precision and recall on real MultiWOZ users' words (clem:todd's ``corpususer``).

Each clem:todd task carries the original MultiWOZ dialogue as ``corpususer``: user and system turns
alternate, each with its gold dialogue acts. Every user turn with a ``Restaurant-``, ``Hotel-`` or
``Train-Inform`` act is read, once per domain it informs, by an understander at the first node of
that domain's clem:todd flow (``find``: nothing held, nothing asked, every slot of the flow open, so
booking details given early are read too). The gold informs are mapped onto the flow's slots and
values (``area=centre`` -> ``restaurant_area=centre``, ``parking=yes`` -> ``parking=free parking``,
``dontcare`` -> ``any ...``); a gold value the flow has no value for (a food the database has no
restaurant for) is left out of the count, and so is whatever the understander read for that slot.

    fsmdial eval multiwoz [--split dev] [--understander gguf --model PATH]

This measures what the rules (or a model) read from one real message, not a dialogue: precision
(what it read is what the user said), recall (what the user said is read), per slot.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import sys
import time
from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fsmdial.errors import SetupError
from fsmdial.flow import Slot
from fsmdial.runtime import Dialogue
from fsmdial.testing.forcing import seek
from fsmdial.testing.suites import model_turn_share, model_turns_line
from fsmdial.understand.base import Understander, UnderstandingState
from fsmdial.userfiles import MAX_CORPUS_BYTES, read_json
from fsmdial.values import InvalidValue, coerce

from .clemtodd.runner import FLOWS_DIR
from .clemtodd.tools import default_data_dir

NOW = dt.datetime(2026, 11, 23, 10, 0)
"""A fixed clock: MultiWOZ dates are weekdays, so the clock only matters to the flows' own checks."""

DOMAINS = ("restaurant", "hotel", "train")

_DONTCARE = {"area": "any area", "pricerange": "any price range", "type": "any type", "stars": "any star rating"}


@dataclass(frozen=True)
class TurnCase:
    task: str
    turn: int
    domain: str
    text: str
    gold: dict[str, Any]
    """Flow slot -> value the user gave, in the flow's own terms."""
    unmapped: frozenset[str]
    """Flow slots whose gold value the flow cannot hold: neither counted nor blamed."""


def _slot_name(domain: str, key: str) -> str | None:
    """The flow slot a MultiWOZ inform key fills, or None for keys the flows don't collect."""
    key = key.lower()
    shared = {"bookpeople": "people", "bookstay": "stay", "food": "food", "stars": "stars"}
    shared |= {"parking": "parking", "internet": "internet", "departure": "departure", "destination": "destination"}
    shared |= {"leaveat": "leave_at", "arriveby": "arrive_by"}
    if key in shared:
        return shared[key]
    per_domain = {"area": "area", "pricerange": "pricerange", "name": "name", "type": "type", "bookday": "day"}
    per_domain |= {"booktime": "time", "day": "day"}
    return f"{domain}_{per_domain[key]}" if key in per_domain else None


def _flow_value(key: str, value: str) -> str:
    """A MultiWOZ value as the clem:todd flows write it (see build_flows)."""
    key, value = key.lower(), value.strip().lower()
    if value in ("dontcare", "don't care", "do n't care"):
        return _DONTCARE.get(key, value)
    if key == "parking":
        return {"yes": "free parking", "free": "free parking", "no": "no parking"}.get(value, value)
    if key == "internet":
        return {"yes": "free wifi", "free": "free wifi", "no": "no wifi"}.get(value, value)
    if key == "type":
        return "guest house" if value.replace(" ", "") == "guesthouse" else value
    if key == "stars":
        return f"{value} star"
    if key == "departure":
        return f"from {value}"
    if key == "destination":
        return f"to {value}"
    return value


def _gold(domain: str, pairs: list[list[str]], flow_slots: Mapping[str, Slot]) -> tuple[dict[str, Any], set[str]]:
    gold: dict[str, Any] = {}
    unmapped: set[str] = set()
    for key, raw in pairs:
        name = _slot_name(domain, key)
        if name is None or name not in flow_slots or raw in ("?", "none", ""):
            continue
        try:
            gold[name] = coerce(flow_slots[name], _flow_value(key, raw), NOW, bounds=False)
        except InvalidValue:
            unmapped.add(name)
    return gold, unmapped


def _flow_slots(domain: str) -> dict[str, Slot]:
    dialogue = Dialogue(str(FLOWS_DIR / f"{domain}.json"), stand_in_tools=True, clock=lambda: NOW)
    return dialogue.flow.slots()


def load_cases(data_dir: Path, split: str = "dev") -> list[TurnCase]:
    path = data_dir / "tasks" / f"taskdata_{split}.json"
    if not path.exists():
        raise SetupError(f"clem:todd tasks not found at {path} (pass --data DIR or set $FSMDIAL_CLEMTODD)")
    slots = {domain: _flow_slots(domain) for domain in DOMAINS}
    cases = []
    for task in read_json(path, limit=MAX_CORPUS_BYTES):
        for index, turn in enumerate(task.get("corpususer", [])):
            if index % 2:
                continue  # a wizard's turn
            for act, pairs in (turn.get("dialog_act") or {}).items():
                domain, _, kind = act.lower().partition("-")
                if domain not in DOMAINS or kind != "inform":
                    continue
                gold, unmapped = _gold(domain, pairs, slots[domain])
                if gold or unmapped:
                    text = str(turn["utterance"])
                    cases.append(TurnCase(task["filename"], index, domain, text, gold, frozenset(unmapped)))
    return cases


def first_turns(data_dir: Path, split: str = "dev") -> list[tuple[str, str, str]]:
    """(task, domain, text) of every task whose real first user turn informs exactly one domain."""
    path = data_dir / "tasks" / f"taskdata_{split}.json"
    found = []
    for task in read_json(path, limit=MAX_CORPUS_BYTES):
        corpus = task.get("corpususer") or []
        if not corpus:
            continue
        domains = {act.lower().partition("-")[0] for act in corpus[0].get("dialog_act") or {}} & set(DOMAINS)
        if len(domains) == 1:
            found.append((str(task["filename"]), domains.pop(), str(corpus[0]["utterance"])))
    return found


def routing(understander: Understander | None, turns: list[tuple[str, str, str]]) -> dict[str, Any]:
    """How many real first turns an Assistant over the three flows routes into their domain's flow."""
    from fsmdial.assistant import Assistant

    from .clemtodd.runner import bundled_flows

    flows = bundled_flows()
    routed = with_model = 0
    misrouted = []
    for task, domain, text in turns:
        assistant = Assistant(flows, understander=understander, clock=lambda: NOW, stand_in_tools=True)
        assistant.start()
        with_model += assistant.turn(text).trace.model_calls > 0
        if assistant.active == domain:
            routed += 1
        else:
            misrouted.append({"task": task, "domain": domain, "text": text, "active": assistant.active})
    return {
        "first_turns": len(turns),
        "routed": routed,
        "misrouted": misrouted,
        "model_turns": model_turn_share(len(turns), with_model),
    }


def _start_state(domain: str) -> UnderstandingState:
    dialogue = Dialogue(str(FLOWS_DIR / f"{domain}.json"), stand_in_tools=True, clock=lambda: NOW)
    seek(dialogue, "find")
    return dialogue.understanding_state()


def _same(slot: Slot | None, got: Any, want: Any) -> bool:
    if slot is None:
        return False
    try:
        return bool(coerce(slot, got, NOW, bounds=False) == want)
    except InvalidValue:
        return False


def score(understander: Understander, cases: list[TurnCase]) -> dict[str, Any]:
    """Precision, recall and F1 (percent) overall and per slot, and every case's reading."""
    states = {domain: _start_state(domain) for domain in DOMAINS}
    right: Counter[str] = Counter()
    read: Counter[str] = Counter()
    given: Counter[str] = Counter()
    details = []
    with_model = 0
    for case in cases:
        state = states[case.domain]
        parse = understander.understand(state, case.text, history=[], now=NOW)
        with_model += parse.model_calls > 0
        got = {name: value for name, value in parse.slots.items() if name not in case.unmapped}
        correct = {
            name for name, value in got.items() if name in case.gold and _same(state.slot(name), value, case.gold[name])
        }
        right.update(correct)
        read.update(list(got))
        given.update(list(case.gold))
        details.append(
            {
                "task": case.task,
                "turn": case.turn,
                "domain": case.domain,
                "text": case.text,
                "gold": case.gold,
                "read": got,
                "wrong": sorted(set(got) - correct),
                "missed": sorted(set(case.gold) - correct),
            }
        )
    per_slot = {
        name: _prf(right[name], read[name], given[name]) | {"given": given[name], "read": read[name]}
        for name in sorted(given | read)
    }
    overall = _prf(sum(right.values()), sum(read.values()), sum(given.values()))
    return {
        "cases": len(cases),
        **overall,
        "per_slot": per_slot,
        "model_turns": model_turn_share(len(cases), with_model),
        "details": details,
    }


def _prf(right: int, read: int, given: int) -> dict[str, float | None]:
    precision = round(100 * right / read, 1) if read else None
    recall = round(100 * right / given, 1) if given else None
    f1 = round(2 * precision * recall / (precision + recall), 1) if precision and recall else 0.0
    return {"precision": precision, "recall": recall, "f1": f1}


def format_table(report: Mapping[str, Any]) -> str:
    lines = [
        f"{report['cases']} user turns: slot precision {report['precision']}, recall {report['recall']}, "
        f"F1 {report['f1']}",
        "",
        f"{'slot':24s} {'given':>6s} {'read':>6s} {'precision':>10s} {'recall':>8s}",
    ]
    for name, row in report["per_slot"].items():
        lines.append(
            f"{name:24s} {row['given']:6d} {row['read']:6d} {_pct(row['precision']):>10s} {_pct(row['recall']):>8s}"
        )
    lines += ["", model_turns_line(report["model_turns"])]
    return "\n".join(lines)


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f}"


def iter_mistakes(report: Mapping[str, Any]) -> Iterator[str]:
    for case in report["details"]:
        if case["wrong"] or case["missed"]:
            where = f"{case['task']}#{case['turn']} {case['domain']}"
            yield f"{where}: {case['text']!r}\n  gold {case['gold']}\n  read {case['read']}"


HELP = "turn-level slot precision/recall on real MultiWOZ users' words (clem:todd corpususer)"
"""What ``fsmdial eval --help`` says of the command."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from fsmdial.understand.factory import add_model_arguments

    parser.add_argument(
        "--data", metavar="DIR", help="the clem:todd copy (default: $FSMDIAL_CLEMTODD or ../shared/data/clemtodd)"
    )
    parser.add_argument("--split", choices=("test", "dev"), default="dev")
    add_model_arguments(parser)
    parser.add_argument("--show", action="store_true", help="print every turn read wrongly or incompletely")
    parser.add_argument("--out", metavar="FILE.json", help="write the full report as JSON")


def run(args: argparse.Namespace) -> int:
    from fsmdial.understand.factory import meaning_of, understander_from_arguments
    from fsmdial.understand.rules import RulesUnderstander

    data_dir = Path(args.data) if args.data else default_data_dir()
    if data_dir is None:
        print("error: no clem:todd data: pass --data DIR or set $FSMDIAL_CLEMTODD", file=sys.stderr)
        return 2
    try:
        model = understander_from_arguments(args)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    cases = load_cases(data_dir, args.split)
    started = time.perf_counter()
    report = score(model or RulesUnderstander(), cases)
    report["routing"] = routing(model, first_turns(data_dir, args.split))
    report["seconds"] = round(time.perf_counter() - started, 1)
    report["settings"] = {
        "split": args.split,
        "understander": args.understander,
        "model": args.model,
        "meaning": meaning_of(model),
    }
    if args.show:
        for line in iter_mistakes(report):
            print(line)
        for miss in report["routing"]["misrouted"]:
            print(f"not routed to {miss['domain']} (active: {miss['active']}): {miss['text']!r}")
    print(format_table(report))
    routed = report["routing"]
    print(f"\nreal first turns routed to their domain's flow: {routed['routed']}/{routed['first_turns']}")
    print(f"routing: {model_turns_line(routed['model_turns'])}")
    if args.out:
        Path(args.out).write_text(json.dumps(report, indent=1, default=str) + "\n", encoding="utf-8")
    return 0
