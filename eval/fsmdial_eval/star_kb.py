"""The STAR harness's knowledge base: the answers a STAR API gives, shaped as the flow's actions declare them,
and the pydantic model of each API's arguments (what a called tool is checked against)."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, create_model

from fsmdial.tools import ToolRegistry

from .corpus import GoldCall, StarDialogue, gold_label, is_user_turn
from .importers.star import words
from .simulator import StarApis, refused

if TYPE_CHECKING:  # star.py imports this module; the bundle is only named in an annotation
    from .star import Bundle


def _key(text: str) -> str:
    return "".join(words(text))


def shape_result(
    item: dict[str, Any] | None, total: int | None, fields: list[str], *, ok: bool | None = None
) -> dict[str, Any]:
    """A result for the flow: declared fields filled from the item by name (``hotel_name`` <- ``HotelName``)."""
    item = item or {}
    by_key = {_key(k): v for k, v in item.items()}
    out: dict[str, Any] = {k: v for k, v in item.items() if re.match(r"^[A-Za-z_]\w*$", k)}
    for name in fields:
        if name in out:
            continue
        key = _key(name)
        value = by_key.get(key)
        if value is None:
            value = next((v for k, v in by_key.items() if k.endswith(key) or key.endswith(k) and len(k) > 3), None)
        out[name] = value
    found = bool(item) and total != 0
    out["found"] = found
    out["ok"] = found and not refused(item) if ok is None else ok
    out["count"] = (total if total and total > 0 else int(found)) if total is not None else int(found)
    return out


@dataclass
class EngineCall:
    segment: int
    api: str
    request_type: str | None
    arguments: dict[str, Any]
    gold: bool


class KnowledgeBase:
    """The dialogue's gold query answers, served to the engine's tool calls; the simulator for the rest."""

    def __init__(self, dialogue: StarDialogue, apis: StarApis):
        self.dialogue = dialogue
        self.apis = apis
        self.position = 0
        self.segment_of: list[int] = []
        segment = 0
        for event in dialogue.events:
            if is_user_turn(event):
                segment += 1
            self.segment_of.append(segment)
        self.groups: list[list[GoldCall]] = []
        current: list[GoldCall] = []
        for index, event in enumerate(dialogue.events):
            if index in dialogue.calls:
                current.append(dialogue.calls[index])
            elif (
                is_user_turn(event)
                or gold_label(event) is not None
                or (event.get("Agent") == "Wizard" and event.get("Action") in ("utter", "pick_suggestion"))
            ):
                if current:
                    self.groups.append(current)
                current = []
        if current:
            self.groups.append(current)
        self.calls: list[EngineCall] = []

    @staticmethod
    def keys(group: list[GoldCall]) -> dict[tuple[str, str | None], GoldCall]:
        """The last call per (API, request type) of a group of consecutive queries."""
        out: dict[tuple[str, str | None], GoldCall] = {}
        for call in group:
            out[(call.api, call.request_type)] = call
        return out

    def gold_for(self, api: str, request_type: str | None) -> GoldCall | None:
        segment = self.segment_of[self.position] if self.segment_of else 0
        for group in self.groups:
            group_segment = self.segment_of[group[0].position]
            if group_segment < segment or group[0].position < self._segment_start(segment):
                continue
            if group_segment > segment + 1:
                break
            for (g_api, g_type), call in self.keys(group).items():
                if g_api != api or (g_type != request_type and g_type is not None and request_type is not None):
                    continue
                return call  # repeated calls in the same stretch (after a correction) get the same answer
        return None

    def _segment_start(self, segment: int) -> int:
        for index, value in enumerate(self.segment_of):
            if value == segment:
                return index
        return 0

    def answer(self, api: str, arguments: dict[str, Any], fields: list[str]) -> dict[str, Any]:
        arguments = {k: v for k, v in arguments.items() if v is not None}  # inputs not given
        request_type = arguments.get("RequestType")
        gold = self.gold_for(api, request_type)
        segment = self.segment_of[self.position] if self.segment_of else 0
        self.calls.append(EngineCall(segment, api, request_type, dict(arguments), gold is not None))
        if gold is not None:
            return shape_result(gold.item, gold.total, fields)
        simulated = self.apis.call(api, arguments)
        return shape_result(simulated["item"], simulated["count"], fields, ok=simulated["ok"])

    def tools(self, bundle: Bundle) -> ToolRegistry:
        registry = ToolRegistry()
        api = bundle.imported.api
        if api is not None and api in self.apis.apis:
            registry.register(
                api,
                lambda **arguments: self.answer(api, arguments, bundle.result_fields),
                arguments=api_arguments_model(api, self.apis.apis[api]),
            )
        return registry


_TYPES = {"Integer": int, "Boolean": bool, "ShortString": str, "LongString": str}


@lru_cache(maxsize=64)
def _arguments_model(api: str, spec_json: str) -> type[BaseModel]:
    spec = json.loads(spec_json)
    required = set(spec.get("required") or [])
    fields: dict[str, Any] = {}
    for item in spec.get("input") or []:
        kind = _TYPES.get(item.get("Type"), Any)
        fields[item["Name"]] = (
            (kind, ...) if item["Name"] in required else (kind | None if kind is not Any else Any, None)
        )
    return create_model(f"{api}_arguments", __config__=ConfigDict(extra="forbid"), **fields)


def api_arguments_model(api: str, spec: dict[str, Any]) -> type[BaseModel]:
    """The API's inputs as a pydantic model: a call without a required input is refused before it is made."""
    return _arguments_model(api, json.dumps(spec, sort_keys=True))
