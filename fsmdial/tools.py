"""Tools: Python callables the flow's external actions call, with validated arguments and results.

Register a function and its argument model is built from its signature::

    tools = ToolRegistry()

    @tools.tool()
    def change_ride(ride_id: int, change_description: str) -> dict:
        ...

A tool is only ever called with every required argument present and valid
(pydantic checks them first); what it returns must be a mapping (or a
pydantic model) that fits the result the flow declares for the action.

A business failure is a result (judged by the node's ``success_when``) or a
declared exception: :class:`~fsmdial.errors.ToolFailure`, or a type given as
``failures=`` when registering. Those, and timeouts, are the action's
``failure`` status (the flow's failure edge). Any other exception is a bug in
the tool: it is logged and the turn fails with
:class:`~fsmdial.errors.ToolCrashed`, leaving the session as it was::

    @tools.tool(failures=(SoldOut,))
    def place_order(...): ...
"""

from __future__ import annotations

import copy
import inspect
import logging
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import orjson
from pydantic import BaseModel, ConfigDict, ValidationError, create_model

from .errors import ToolArgumentError, ToolCrashed, ToolError, ToolFailure, ToolResultError, ToolTimeout
from .flow import ExternalActionNode, FieldType, Flow, ResultCondition, ResultField, StatusCondition, iter_conditions

log = logging.getLogger("fsmdial.tools")


@dataclass(frozen=True)
class Tool:
    name: str
    function: Callable[..., Any]
    arguments: type[BaseModel] | None = None
    timeout: float | None = None
    stand_in: bool = False
    failures: tuple[type[BaseException], ...] = ()
    """Exception types the tool raises for a business failure (besides :class:`ToolFailure`)."""


def arguments_model(name: str, function: Callable[..., Any]) -> type[BaseModel] | None:
    """A pydantic model of ``function``'s keyword parameters (None if it takes ``**kwargs`` only)."""
    fields: dict[str, Any] = {}
    try:  # resolve string annotations (modules using `from __future__ import annotations`)
        signature = inspect.signature(function, eval_str=True)
    except (NameError, TypeError, SyntaxError):  # a name only known to type checkers: keep the strings
        signature = inspect.signature(function)
    for param in signature.parameters.values():
        if param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD):
            continue
        annotation = Any if param.annotation is inspect.Parameter.empty else param.annotation
        default = ... if param.default is inspect.Parameter.empty else param.default
        fields[param.name] = (annotation, default)
    if not fields:
        return None
    return create_model(f"{name}_arguments", __config__=ConfigDict(extra="ignore"), **fields)


class ToolRegistry:
    """Named tools. ``fsmdial chat --tools module:registry`` loads one of these."""

    def __init__(self) -> None:
        self._tools: dict[str, Tool] = {}

    def register(
        self,
        name: str,
        function: Callable[..., Any],
        *,
        arguments: type[BaseModel] | None = None,
        timeout: float | None = None,
        failures: tuple[type[BaseException], ...] = (),
    ) -> Tool:
        """``failures``: the exception types ``function`` raises for a business failure (see the module docstring)."""
        tool = Tool(name, function, arguments or arguments_model(name, function), timeout, failures=tuple(failures))
        self._tools[name] = tool
        return tool

    def tool(
        self, name: str | None = None, *, timeout: float | None = None, failures: tuple[type[BaseException], ...] = ()
    ) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
        """Decorator: register the function under ``name`` (default: its own name)."""

        def decorate(function: Callable[..., Any]) -> Callable[..., Any]:
            self.register(name or function.__name__, function, timeout=timeout, failures=failures)
            return function

        return decorate

    def add(self, tool: Tool) -> None:
        self._tools[tool.name] = tool

    def __contains__(self, name: object) -> bool:
        return name in self._tools

    def __getitem__(self, name: str) -> Tool:
        try:
            return self._tools[name]
        except KeyError:
            raise ToolError(name, "no tool is registered under this name") from None

    def names(self) -> list[str]:
        return sorted(self._tools)

    def missing(self, flow: Flow) -> list[str]:
        """Tools ``flow`` calls that are not registered here."""
        return sorted({n.tool for n in flow.nodes if isinstance(n, ExternalActionNode) and n.tool not in self._tools})

    @classmethod
    def of(cls, tools: ToolRegistry | Mapping[str, Callable[..., Any]] | None) -> ToolRegistry:
        if isinstance(tools, ToolRegistry):
            return tools
        registry = cls()
        for name, function in (tools or {}).items():
            if isinstance(function, Tool):
                registry.add(function)
            else:
                registry.register(name, function)
        return registry


_TYPES: dict[FieldType, Any] = {
    FieldType.string: str,
    FieldType.integer: int,
    FieldType.number: float,
    FieldType.boolean: bool,
    FieldType.list: list,
    FieldType.object: dict,
    FieldType.any: Any,
}


@lru_cache(maxsize=512)
def _result_model(node_id: str, fields: tuple[tuple[str, FieldType, bool], ...]) -> type[BaseModel]:
    spec = {
        name: (_TYPES[kind] if required else _TYPES[kind] | None, ... if required else None)
        for name, kind, required in fields
    }
    name = "result_of_" + "".join(ch if ch.isalnum() else "_" for ch in node_id)  # ids are free text (NUL too)
    model: type[BaseModel] = create_model(name, __config__=ConfigDict(extra="allow"), **spec)  # type: ignore[call-overload]
    return model


def non_finite(value: Any, path: str = "") -> str | None:
    """The path of the first NaN or infinite float in a JSON-like ``value`` (``None`` if there is none)."""
    if isinstance(value, float):
        return (path or "value") if value - value != 0 else None  # nan - nan and inf - inf are nan
    if isinstance(value, Mapping):
        for key, item in value.items():
            found = non_finite(item, f"{path}.{key}" if path else str(key))
            if found is not None:
                return found
    elif isinstance(value, (list, tuple)):
        for index, item in enumerate(value):
            found = non_finite(item, f"{path}[{index}]")
            if found is not None:
                return found
    return None


def check_result(node: ExternalActionNode, value: Any) -> dict[str, Any]:
    """``value`` as a dict, checked against the result shape the node declares."""
    if isinstance(value, BaseModel):
        value = value.model_dump(mode="json")
    if value is None and not node.result:
        return {}
    if not isinstance(value, Mapping):
        raise ToolResultError(node.tool, f"returned {type(value).__name__}, expected a mapping of result fields")
    try:
        orjson.dumps(dict(value))  # results live in session snapshots: they must be JSON
    except TypeError as exc:
        raise ToolResultError(node.tool, f"result is not JSON-serialisable ({exc})") from None
    where = non_finite(value)
    if where is not None:  # JSON has no NaN or infinity (orjson writes null): live and resumed would differ
        raise ToolResultError(node.tool, f"result {where} is not a finite number (JSON has no NaN or infinity)")
    # the session keeps its own copy: a tool mutating what it returned changes nothing
    result: dict[str, Any] = copy.deepcopy(dict(value))
    if not node.result:
        return result
    fields = tuple((name, f.type, f.required) for name, f in node.result.items())
    try:
        _result_model(node.id, fields).model_validate(result)
    except ValidationError as exc:
        problems = "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors(include_url=False))
        raise ToolResultError(
            node.tool, f"result does not match the shape node {node.id!r} declares ({problems})"
        ) from None
    return result


MAX_RUNNING_AFTER_TIMEOUT = 16
"""Calls of one tool that may still be running after they timed out. Beyond that the tool is
reported as timed out at once instead of starting yet another thread that would hang too."""

_late_calls: dict[str, int] = {}
_late_lock = threading.Lock()


def call_tool(tool: Tool, arguments: dict[str, Any], timeout: float | None = None) -> Any:
    """Validate ``arguments`` and call the tool. Raises :class:`ToolError` for a declared business failure,
    :class:`ToolTimeout`, or :class:`ToolCrashed` (logged) for any other exception.

    The tool gets its own deep copy of the arguments: whatever it does to a list or dict it was
    given never reaches the session (nor a constant of the flow). A call with a timeout runs on a
    thread of its own (a daemon: a hung tool never keeps the process from exiting, and never
    holds up another session's calls).
    """
    arguments = copy.deepcopy(arguments)
    if tool.arguments is not None:
        try:
            arguments = copy.deepcopy(tool.arguments.model_validate(arguments).model_dump())
        except ValidationError as exc:
            problems = "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors(include_url=False))
            raise ToolArgumentError(tool.name, f"invalid arguments, not called ({problems})") from None
    limit = timeout or tool.timeout
    try:
        if limit is None:
            return tool.function(**arguments)
        return _call_with_timeout(tool, arguments, limit)
    except ToolError:
        raise
    except Exception as exc:
        if isinstance(exc, (ToolFailure, *tool.failures)):  # a business failure: the caller decides (failure edge)
            raise ToolError(tool.name, f"raised {type(exc).__name__}: {exc}") from exc
        log.error(
            "tool %r raised %s, which it does not declare: the turn fails", tool.name, type(exc).__name__, exc_info=exc
        )
        raise ToolCrashed(tool.name, f"raised {type(exc).__name__}: {exc}") from exc


def _call_with_timeout(tool: Tool, arguments: dict[str, Any], limit: float) -> Any:
    with _late_lock:
        if _late_calls.get(tool.name, 0) >= MAX_RUNNING_AFTER_TIMEOUT:
            raise ToolTimeout(
                tool.name, f"{MAX_RUNNING_AFTER_TIMEOUT} earlier calls are still running past their timeout"
            )
    outcome: dict[str, Any] = {}
    finished = threading.Event()
    timed_out = threading.Event()

    def run() -> None:
        try:
            outcome["value"] = tool.function(**arguments)
        except BaseException as exc:  # noqa: B036 - handed to the caller's thread
            outcome["error"] = exc
        finally:
            with _late_lock:
                finished.set()
                if timed_out.is_set():
                    _late_calls[tool.name] -= 1

    thread = threading.Thread(target=run, name=f"fsmdial-tool-{tool.name}", daemon=True)
    thread.start()
    if not finished.wait(limit):
        with _late_lock:
            if not finished.is_set():
                timed_out.set()
                _late_calls[tool.name] = _late_calls.get(tool.name, 0) + 1
        if timed_out.is_set():
            raise ToolTimeout(tool.name, f"no result within {limit:g} s")
    error = outcome.get("error")
    if error is not None:
        raise error  # as if called here: an Exception becomes a ToolError, a KeyboardInterrupt stays one
    return outcome["value"]


def stand_in(flow: Flow, node: ExternalActionNode) -> Tool:
    """A tool for ``fsmdial chat`` when none is registered: returns the first outcome the edges expect."""
    result: dict[str, Any] = {name: _placeholder(spec) for name, spec in node.result.items()}
    fail = False
    for edge in flow.outgoing(node.id):
        if edge.when is None:
            break
        for cond in iter_conditions(edge.when):
            if isinstance(cond, ResultCondition) and (cond.node or node.id) == node.id and cond.op in ("eq", "in"):
                result[cond.result] = cond.value if cond.op == "eq" else cond.value[0]
            elif isinstance(cond, StatusCondition):
                fail = cond.status == "failure"
        break

    def function(**_: Any) -> dict[str, Any]:
        if fail:
            raise ToolFailure("stand-in tool: the flow's first edge expects a failure")
        return dict(result)

    return Tool(node.tool, function, None, None, stand_in=True)


def _placeholder(spec: ResultField) -> Any:
    return {
        FieldType.string: "example",
        FieldType.integer: 1,
        FieldType.number: 1.0,
        FieldType.boolean: True,
        FieldType.list: [],
        FieldType.object: {},
        FieldType.any: "example",
    }[spec.type]
