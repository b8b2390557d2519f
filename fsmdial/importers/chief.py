"""Import CoDial's CHIEF flow graphs (integer ids, free-text edge conditions).

CHIEF is looser than fsmdial's own format; this maps it onto the same model:

* integer node ids become strings (``1`` -> ``"1"``);
* ``request`` slots given as a mapping become ordered slots; a ``categorical``
  slot without a list of values becomes a ``string`` slot (CHIEF uses
  ``categorical`` for names); CHIEF's free-text ``rule`` cannot be evaluated
  without a model, so it is kept in the node description and the node
  requires all its slots;
* ``external_action`` nodes call the tool named by ``query`` (or ``action``)
  with every slot collected before them;
* edge conditions ``Success``/``Failure`` match the action's status and
  ``Yes``/``No``/``Other`` the answer to a confirmation. Any other free-text
  condition is reported as an error naming the edge: fsmdial has no
  expression language to guess its meaning.
* global and fallback actions, absent from a CHIEF graph, get CoDial's
  defaults (a ``hello`` greeting and the three fallbacks) unless given.
"""

from __future__ import annotations

from typing import Any

from ..errors import FlowError, FlowIssue
from ..flow import check_document

DEFAULT_FALLBACKS = {
    "goodbye": "Goodbye!",
    "out_of_scope": "I am sorry, I can't help with that here.",
    "anything_else": "Is there anything else that I can do for you?",
}
DEFAULT_GLOBALS = [
    {"intent": "hello", "examples": ["hello", "hi", "hey"], "response": "Hello, how can I help?"},
]

_STATUS = {"success": "success", "succeeded": "success", "failure": "failure", "failed": "failure"}
_ANSWER = {"yes": "yes", "no": "no", "other": "other"}


def looks_like_chief(doc: Any) -> bool:
    """True for documents in CHIEF's shape (integer ids, slot mappings, ``condition`` edges)."""
    if not isinstance(doc, dict) or not isinstance(doc.get("nodes"), list):
        return False
    for node in doc["nodes"]:
        if isinstance(node, dict) and (isinstance(node.get("id"), int) or isinstance(node.get("slots"), dict)):
            return True
    edges = doc.get("edges")
    return isinstance(edges, list) and any(isinstance(e, dict) and "condition" in e for e in edges)


def chief_to_flow_dict(doc: Any, name: str = "chief_flow") -> dict[str, Any]:
    """Translate a CHIEF document into fsmdial's flow format (a dict, not yet validated).

    Raises :class:`fsmdial.errors.FlowError` for CHIEF constructs that have no
    meaning without a model (free-text conditions).
    """
    if not isinstance(doc, dict):
        raise FlowError(FlowIssue("", "a CHIEF flow must be a JSON object"))
    issues = check_document(doc)  # before walking it: nesting, non-finite numbers, unpaired surrogates
    if issues:
        raise FlowError(issues)
    for key in ("nodes", "edges"):
        if not isinstance(doc.get(key) or [], list):
            issues.append(FlowIssue(key, f"must be a list, not {type(doc[key]).__name__}"))
    if issues:
        raise FlowError(issues)
    nodes = [_node(node, index, issues) for index, node in enumerate(doc.get("nodes") or [])]
    edges = [_edge(edge, index, issues) for index, edge in enumerate(doc.get("edges") or [])]
    if issues:
        raise FlowError(issues)
    given = doc.get("fallbacks") or doc.get("fallback_actions") or {}
    fallbacks = {**DEFAULT_FALLBACKS, **given} if isinstance(given, dict) else given  # not a dict: validation says so
    return {
        "name": doc.get("name") or name,
        "description": doc.get("description", ""),
        "context": doc.get("context", ""),
        "nodes": nodes,
        "edges": edges,
        "global_actions": doc.get("global_actions") or DEFAULT_GLOBALS,
        "fallbacks": fallbacks,
    }


def _node(node: Any, index: int, issues: list[FlowIssue]) -> Any:
    if not isinstance(node, dict):
        issues.append(FlowIssue(f"nodes[{index}]", "a node must be an object"))
        return node
    out: dict[str, Any] = {"id": _id(node.get("id")), "type": node.get("type")}
    kind = node.get("type")
    if kind == "request":
        slots = node.get("slots") or {}
        if isinstance(slots, dict):
            out["slots"] = [_slot(slot_name, spec) for slot_name, spec in slots.items()]
        elif isinstance(slots, list):
            out["slots"] = [_slot(s.get("name"), s) if isinstance(s, dict) else s for s in slots]
        else:
            out["slots"] = slots  # validation reports it at nodes[i].slots
        if node.get("rule"):
            out["description"] = f"rule (free text, not evaluated): {node['rule']}"
    elif kind == "external_action":
        out["tool"] = node.get("query") or node.get("tool") or node.get("action")
        out["label"] = node.get("action")
        if "commits" in node:  # fsmdial's own addition: the action has effects (see ExternalActionNode.commits)
            out["commits"] = node["commits"]
    elif kind == "inform":
        out["message"] = node.get("message", "")
    elif kind == "inform_and_confirm":
        out["message"] = node.get("message", "")
        out["question"] = node.get("question") or node.get("confirm") or node.get("message") or ""
        if out["question"] == out["message"]:
            out["message"] = ""
    elif kind == "end":
        out["message"] = node.get("message")
    else:
        out.update({k: v for k, v in node.items() if k not in out})
    return out


def _slot(name: Any, spec: Any) -> dict[str, Any]:
    spec = dict(spec) if isinstance(spec, dict) else {}
    kind = spec.get("type", "string")
    slot: dict[str, Any] = {"name": name, "description": spec.get("description", "")}
    if kind == "categorical" and not spec.get("values"):
        kind = "string"
    slot["type"] = kind
    if kind == "categorical":
        slot["values"] = spec["values"]
    examples = spec.get("examples", [])
    slot["examples"] = [str(e) for e in examples] if isinstance(examples, list) else examples
    return slot


def _edge(edge: Any, index: int, issues: list[FlowIssue]) -> Any:
    if not isinstance(edge, dict):
        issues.append(FlowIssue(f"edges[{index}]", "an edge must be an object"))
        return edge
    out: dict[str, Any] = {"source": _id(edge.get("source")), "target": _id(edge.get("target"))}
    condition = edge.get("condition")
    if condition in (None, ""):
        return out
    key = str(condition).strip().lower()
    if key in _STATUS:
        out["when"] = {"status": _STATUS[key]}
    elif key in _ANSWER:
        out["when"] = {"answer": _ANSWER[key]}
    else:
        issues.append(
            FlowIssue(
                f"edge {out['source']}->{out['target']}",
                f"free-text condition {condition!r} has no structured meaning "
                "(CHIEF conditions understood: Success, Failure, Yes, No, Other)",
            )
        )
    return out


def _id(value: Any) -> Any:
    return str(value) if isinstance(value, int) and not isinstance(value, bool) else value
