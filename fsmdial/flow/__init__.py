"""The flow format: a typed dialogue graph, validated by pydantic.

* :mod:`.nodes`: the model (slots, nodes, edges, conditions, action arguments and results, options);
* :mod:`.document`: :class:`Flow`, the document, and the checks of the raw data (:func:`check_document`);
* :mod:`.checks`: the graph and template checks (:class:`FlowChecker`, :func:`check_flow`), which
  :class:`Flow` runs on validation, so a ``Flow`` object is always consistent;
* :mod:`.commits`: which confirmation stands behind a committing action (:func:`commit_ways`), read by the
  commit guard and the lint alike;
* :mod:`.lint`: :func:`flow_warnings` (valid, but probably not meant) and :func:`implies`;
* :mod:`.graph`: walks over node ids (:func:`neighbours`, :func:`reachable`).

Slot patterns are checked by :mod:`fsmdial.patterns`; what each slot type takes and how its values compare is
:mod:`fsmdial.slots`' (``SlotType`` and ``value_key`` are re-exported here). Everything public is re-exported here:
import from ``fsmdial.flow``.
"""

from ..language.text import fold
from ..patterns import pattern_problem, regex_parse, search_regex
from ..slots import SlotType, value_collisions, value_key
from .checks import MAX_FORMAT_WIDTH, MAX_TEMPLATE_CHARS, FlowChecker, check_flow, format_spec_problem
from .commits import CommitWays, commit_ways, is_confirmation, is_question, shown_slots
from .document import MAX_NESTING, Flow, GraphIssues, check_document
from .graph import neighbours, reachable
from .lint import flow_warnings, implies
from .nodes import (
    DEFAULT_MAX_LENGTH,
    IDENT,
    LIST_OPS,
    NO_VALUE_OPS,
    NODE_TYPES,
    NOT_RESERVED,
    RESERVED_NAMES,
    AllCondition,
    AnswerCondition,
    AnyCondition,
    AnyNode,
    ArgSource,
    CallCondition,
    Choice,
    ChoiceCondition,
    CompareOp,
    Comparison,
    Condition,
    ConfirmNode,
    Edge,
    EndNode,
    ExternalActionNode,
    Fallbacks,
    FieldType,
    FlowModel,
    FlowOptions,
    GlobalAction,
    InformNode,
    Node,
    NotCondition,
    RequestNode,
    ResultArg,
    ResultCondition,
    ResultField,
    Slot,
    SlotArg,
    SlotCondition,
    SlotRule,
    StatusCondition,
    ValueArg,
    VisitsCondition,
    bound_names,
    edge_name,
    iter_conditions,
)
from .reading import format_location, read_flow

__all__ = [
    "bound_names",
    "DEFAULT_MAX_LENGTH",
    "IDENT",
    "LIST_OPS",
    "MAX_FORMAT_WIDTH",
    "MAX_NESTING",
    "MAX_TEMPLATE_CHARS",
    "NODE_TYPES",
    "NOT_RESERVED",
    "NO_VALUE_OPS",
    "RESERVED_NAMES",
    "AllCondition",
    "AnswerCondition",
    "AnyCondition",
    "AnyNode",
    "ArgSource",
    "CallCondition",
    "Choice",
    "ChoiceCondition",
    "CommitWays",
    "CompareOp",
    "Comparison",
    "Condition",
    "ConfirmNode",
    "Edge",
    "EndNode",
    "ExternalActionNode",
    "Fallbacks",
    "FieldType",
    "Flow",
    "FlowChecker",
    "FlowModel",
    "FlowOptions",
    "GlobalAction",
    "GraphIssues",
    "InformNode",
    "Node",
    "NotCondition",
    "RequestNode",
    "ResultArg",
    "ResultCondition",
    "ResultField",
    "Slot",
    "SlotArg",
    "SlotCondition",
    "SlotRule",
    "SlotType",
    "StatusCondition",
    "ValueArg",
    "VisitsCondition",
    "check_document",
    "check_flow",
    "commit_ways",
    "edge_name",
    "flow_warnings",
    "format_location",
    "format_spec_problem",
    "implies",
    "is_confirmation",
    "is_question",
    "iter_conditions",
    "neighbours",
    "pattern_problem",
    "reachable",
    "read_flow",
    "regex_parse",
    "search_regex",
    "shown_slots",
    "fold",
    "value_collisions",
    "value_key",
]
