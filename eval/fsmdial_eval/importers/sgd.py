"""Import Schema-Guided Dialogue (SGD) service schemas: one flow per service.

An SGD ``schema.json`` is a list of services, each with slots (a description, and
for a categorical slot its possible values) and intents (required slots, optional
slots with their defaults, transactional or not). The mapping, the same for every
service (nothing here is keyed on a service's name):

* the flow starts at a question whose reply is classified into the service's
  intents (``inform_and_confirm`` with ``choices``: name, description, and the
  intent's name in words as an example); each intent is also a global action
  whose target is the start of its task, so the user may switch task any time;
* an intent is a task: a ``request`` node for its slots (required ones required,
  optional ones not) that no earlier task of the service asks already (a slot is
  asked by one node; the tasks after it read the value collected there), then,
  for a transactional intent, a confirmation and a committing ``external_action``
  (``"commits": true``); a non-transactional intent is a plain look-up action;
  then the outcome and "anything else?" (yes: the start question again; no: the end);
* slot types come from the schema: a categorical slot whose values are all whole
  numbers is an ``integer`` slot bounded by them, one of ``True`` and ``False`` a
  ``boolean`` slot, other categorical slots keep their values; a free slot named as
  a date (``..._date``, ``date``) is a ``date`` slot, named as a time (``..._time``) a ``time`` slot, named or
  described as a count (``number_of_...``, "Length of stay in days") an ``integer`` slot, anything else a ``string``.

:func:`slot_kind` names the same types for reports (categorical, number, date,
time, free text).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from typing import Any

from fsmdial.errors import FlowError, FlowIssue, InputFileError
from fsmdial.userfiles import read_json

END = "goodbye"
KINDS = ("categorical", "number", "date", "time", "free text")
"""The slot types reports group by."""


def name_words(name: str) -> list[str]:
    """``new_alarm_time`` -> ``["new", "alarm", "time"]``; ``ReserveRestaurant`` -> ``["reserve", "restaurant"]``."""
    spaced = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", name)
    return [t for t in re.split(r"[\s_]+", spaced.lower()) if t]


def _whole_numbers(values: list[str]) -> bool:
    return bool(values) and all(re.fullmatch(r"[0-9]{1,15}", v) for v in values)  # int() of each is exact and quick


_COUNTED = re.compile(r"^(?:number|count) of (?!the\b)|\bin (?:days|nights|hours|minutes|weeks|years)\b", re.I)
"""A description of a count ("Number of days in the reservation", "Length of stay in days"), not of a number that
names ("Number of the airport flying to")."""


def slot_kind(slot: dict[str, Any]) -> str:
    """The report type of an SGD slot: categorical, number, date, time or free text."""
    values = slot.get("possible_values") or []
    tokens = name_words(slot["name"])
    if slot.get("is_categorical"):
        return "number" if _whole_numbers(values) else "categorical"
    if "date" in tokens:
        return "date"
    if "time" in tokens:
        return "time"
    if tokens[:2] == ["number", "of"] or tokens[-1:] == ["count"] or _COUNTED.search(slot.get("description") or ""):
        return "number"
    return "free text"


def _flow_slot(slot: dict[str, Any], required: bool) -> dict[str, Any]:
    kind = slot_kind(slot)
    out: dict[str, Any] = {
        "name": slot["name"],
        "description": slot.get("description") or "",
        "required": required,
        "label": " ".join(name_words(slot["name"])),
    }
    values = [str(v) for v in slot.get("possible_values") or []]
    if kind == "number":
        out["type"] = "integer"
        if values:
            out["minimum"], out["maximum"] = min(map(int, values)), max(map(int, values))
    elif kind == "categorical" and set(values) == {"True", "False"}:
        out["type"] = "boolean"  # "Is a shared ride ok?" "Yes, that's fine": a yes or no, reported True or False
    elif kind == "categorical":
        out["type"] = "categorical" if values else "string"
        if values:
            out["values"] = values
    elif kind in ("date", "time"):
        out["type"] = kind
    else:
        out["type"] = "string"
    return out


def intent_examples(intent: dict[str, Any]) -> list[str]:
    """An intent's examples: its name in words, its description (lower case)."""
    examples = [" ".join(name_words(intent["name"]))]
    description = (intent.get("description") or "").strip().rstrip(".")
    if description:
        examples.append(description.lower())
    return examples


def service_to_flow_dict(service: Any, where: str = "service") -> dict[str, Any]:
    """One SGD service as an fsmdial flow document (a dict, validated by the loader).

    Raises :class:`~fsmdial.errors.FlowError` naming what is missing or malformed.
    """
    _check_service(service, where)
    slots = {slot["name"]: slot for slot in service["slots"]}
    name = service["service_name"]
    start = "choose_task"
    nodes: list[dict[str, Any]] = []
    edges: list[dict[str, Any]] = []
    global_actions: list[dict[str, Any]] = []
    choices: list[dict[str, Any]] = []
    asked: set[str] = set()
    for intent in service["intents"]:
        task = intent["name"]
        label = " ".join(name_words(task))
        required = list(intent.get("required_slots") or [])
        optional = list(intent.get("optional_slots") or {})
        new = [s for s in required + optional if s not in asked and s in slots]
        asked.update(new)
        chain: list[dict[str, Any]] = []
        if new:
            chain.append(
                {
                    "id": f"{task}__slots",
                    "type": "request",
                    "description": intent.get("description") or "",
                    "slots": [_flow_slot(slots[s], s in required) for s in new],
                }
            )
        if intent.get("is_transactional"):
            chain.append({"id": f"{task}__confirm", "type": "inform_and_confirm", "question": f"Shall I {label}?"})
        arguments = {s: {"slot": s} for s in required + optional if s in slots}
        chain.append(
            {
                "id": task,
                "type": "external_action",
                "tool": task,
                "arguments": arguments,
                "commits": bool(intent.get("is_transactional")),
                "description": intent.get("description") or "",
            }
        )
        done = f"{task}__done"
        chain.append(
            {
                "id": done,
                "type": "inform_and_confirm",
                "message": f"Done: {label}.",
                "question": "Can I help you with anything else?",
            }
        )
        for before, after in zip(chain, chain[1:], strict=False):
            edge: dict[str, Any] = {"source": before["id"], "target": after["id"]}
            if before["type"] == "inform_and_confirm":
                edge["when"] = {"answer": "yes"}
            edges.append(edge)
        edges += [
            {"source": done, "target": start, "when": {"answer": "yes"}},
            {"source": done, "target": start, "when": {"answer": "other"}},
            {"source": done, "target": END, "when": {"answer": "no"}},
        ]
        nodes.extend(chain)
        edges.append({"source": start, "target": chain[0]["id"], "when": {"choice": task}})
        examples = intent_examples(intent)
        choices.append({"name": task, "description": intent.get("description") or "", "examples": examples})
        global_actions.append({"intent": task, "examples": examples, "target": chain[0]["id"]})
    question = {"id": start, "type": "inform_and_confirm", "question": "How can I help you?", "choices": choices}
    return {
        "name": name,
        "description": service.get("description") or "",
        "start": start,
        "nodes": [question, *nodes, {"id": END, "type": "end", "message": "Goodbye!"}],
        "edges": edges,
        "global_actions": global_actions,
        "fallbacks": {"goodbye": "Goodbye!", "out_of_scope": "Sorry, I can't help with that here."},
    }


def _check_service(service: Any, where: str) -> None:
    """Every field the mapping reads has the type SGD gives it, so a hostile schema is a :class:`FlowError` naming
    the field, never a ``TypeError`` inside the mapping."""
    if not isinstance(service, dict):
        raise FlowError(FlowIssue(where, "an SGD service must be a JSON object"))
    issues: list[FlowIssue] = []
    if not isinstance(service.get("service_name"), str) or not service.get("service_name"):
        issues.append(FlowIssue(where, "missing 'service_name'"))
    _check_fields(service, where, {"description": str}, issues)
    for key in ("slots", "intents"):
        items = service.get(key)
        if not isinstance(items, list) or not items:
            issues.append(FlowIssue(f"{where}.{key}", "must be a non-empty list"))
            continue
        for index, item in enumerate(items):
            at = f"{where}.{key}[{index}]"
            if not isinstance(item, dict) or not isinstance(item.get("name"), str) or not item["name"]:
                issues.append(FlowIssue(at, "must be an object with a 'name'"))
            else:
                _check_fields(item, at, _SLOT_FIELDS if key == "slots" else _INTENT_FIELDS, issues)
    if not issues:
        names = {slot["name"] for slot in service["slots"]}
        for intent in service["intents"]:
            for slot in [*(intent.get("required_slots") or []), *(intent.get("optional_slots") or {})]:
                if slot not in names:
                    issues.append(FlowIssue(f"{where}.intents.{intent['name']}", f"unknown slot {slot!r}"))
    if issues:
        raise FlowError(issues)


_TEXTS = "a list of texts"
_SLOT_FIELDS: dict[str, Any] = {"description": str, "is_categorical": bool, "possible_values": _TEXTS}
_INTENT_FIELDS: dict[str, Any] = {
    "description": str,
    "is_transactional": bool,
    "required_slots": _TEXTS,
    "optional_slots": "an object of slot -> default value, or a list of slot names",
}


def _check_fields(item: dict[str, Any], where: str, fields: dict[str, Any], issues: list[FlowIssue]) -> None:
    for key, kind in fields.items():
        value = item.get(key)
        if value is None:
            continue
        if kind is str or kind is bool:
            fits = isinstance(value, kind)
            wanted = "text" if kind is str else "true or false"
        elif kind == _TEXTS:
            fits, wanted = isinstance(value, list) and all(isinstance(v, str) for v in value), kind
        else:  # optional slots: SGD gives slot -> default; a list of names is read too
            fits = isinstance(value, (dict, list)) and all(isinstance(v, str) for v in value)
            wanted = kind
        if not fits:
            issues.append(FlowIssue(f"{where}.{key}", f"must be {wanted}, not {type(value).__name__}"))


def read_schema(path: str | Path) -> list[dict[str, Any]]:
    """The services of an SGD ``schema.json``, read by :mod:`fsmdial.userfiles` (bounded, UTF-8, JSON, nesting):
    any problem is a :class:`FlowError` whose ``source`` is the file."""
    try:
        data = read_json(path, what="the SGD schema")
    except InputFileError as exc:
        raise FlowError(FlowIssue("", exc.problem), source=str(path)) from None
    if not isinstance(data, list):
        raise FlowError(FlowIssue("", "an SGD schema must be a JSON list of services"), source=str(path))
    return data


def import_schema(path: str | Path) -> dict[str, dict[str, Any]]:
    """Service name -> its flow document, for every service of the schema at ``path``."""
    flows: dict[str, dict[str, Any]] = {}
    for index, service in enumerate(read_schema(path)):
        document = service_to_flow_dict(service, f"{path}[{index}]")
        flows[document["name"]] = document
    return flows


# ------------------------------------------------------------------ ``fsmdial import sgd``


HELP = "Schema-Guided Dialogue schema.json (one flow per service)"
"""What ``fsmdial import --help`` says of the command."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("schema", metavar="SCHEMA.json", help="an SGD schema.json (a list of services)")
    parser.add_argument("--out", metavar="DIR", required=True, help="where to write <service>.json flows")
    parser.add_argument("--services", nargs="+", metavar="NAME", help="only these services (default: all)")
    parser.add_argument("--force", action="store_true", help="replace flow files already in --out (default: keep)")


def run(args: argparse.Namespace) -> int:
    """Write one flow per service into ``--out``, each named from its ``service_name`` (checked, never cleaned:
    :mod:`fsmdial.importers.output`); a service that fails is reported and the others are still written."""
    from fsmdial.importers.output import NamedFiles, OutputError
    from fsmdial.loader import flow_from_document

    files = NamedFiles(args.out, source=str(args.schema), what="service_name", force=args.force)
    failed = 0
    for index, service in enumerate(read_schema(args.schema)):
        name = service.get("service_name") if isinstance(service, dict) else None
        if args.services and name not in args.services:
            continue
        label = name if isinstance(name, str) and name else f"service {index}"
        try:
            if isinstance(name, str):
                files.path_for(name)  # a bad name first: nothing is built for it
            document = service_to_flow_dict(service, f"[{index}]")
            flow = flow_from_document(document, origin=f"SGD service {name}")
            path = files.write(name, json.dumps(document, indent=2, ensure_ascii=False) + "\n")
        except FlowError as exc:
            failed += 1
            for issue in exc.issues:
                print(f"{args.schema}: {label}: error: {issue}", file=sys.stderr)
            continue
        except OutputError as exc:
            failed += 1
            print(f"error: {exc}", file=sys.stderr)
            continue
        print(f"{path}: ok ({len(flow.nodes)} nodes, {len(flow.slots())} slots)")
    return 1 if failed else 0
