"""The STAR importer: all 24 tasks import and validate; an unseen STAR-format task does too."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from fsmdial.compiler import compile_flow
from fsmdial.flow import neighbours, reachable
from fsmdial.loader import flow_from_document, load_flow
from fsmdial.runtime import Dialogue
from fsmdial_eval.importers.star import (
    apply_overlay,
    import_star_task,
    import_task,
    match_inputs,
    read_task,
    task_names,
)
from fsmdial_eval.importers.star_format import ApiField, ApiSpec, StarFormatError
from fsmdial_eval.importers.star_names import Ask

REPO = Path(__file__).resolve().parents[2]
STAR = Path(os.environ.get("FSMDIAL_STAR", REPO.parent / "shared" / "data" / "star"))
needs_star = pytest.mark.skipif(not (STAR / "tasks").is_dir(), reason="STAR data not found (set FSMDIAL_STAR)")


# ----------------------------------------------------------------- an unseen task


GROOMING_REPLIES = {
    "hello": "Hello, how can I help?",
    "ask_name": "What is your name?",
    "groom_ask_pet_name": "What is your pet called?",
    "groom_ask_day": "Which day would you like?",
    "groom_ask_size": "How big is your pet?",
    "groom_inform_slot_available": "{day:s} is free for {pet_name:s}. Shall I book it?",
    "groom_inform_unavailable": "Sorry, {day:s} is fully booked.",
    "groom_inform_booked": "Done! Your booking number is {booking_id:d}.",
    "groom_inform_need_pet": "Sorry, I need your pet's name to book.",
    "groom_inform_nothing_found": "Sorry, we have no groomers for that.",
    "groom_bye": "Goodbye!",
    "anything_else": "Is there anything else that I can do for you?",
    "out_of_scope": "Sorry, I can only book grooming.",
    "available": "Available",
    "unavailable": "Unavailable",
    "yes": "Yes",
    "no": "No",
    "info_missing": "Info missing. Can't remember the pet name",
    "query_check": "Query Check",
    "query_book": "Query Book",
}
GROOMING_GRAPH = {
    "hello": "ask_name",
    "ask_name": "groom_ask_pet_name",
    "groom_ask_pet_name": "groom_ask_day",
    "info_missing": "groom_inform_need_pet",
    "groom_ask_day": "groom_ask_size",
    "groom_ask_size": "query_check",
    "available": "groom_inform_slot_available",
    "unavailable": "groom_inform_unavailable",
    "yes": "query_book",
    "no": "groom_ask_day",
    "query_book": "groom_inform_booked",
    "groom_inform_booked": "anything_else",
}
GROOMING_API = {
    "input": [
        {"Name": "CustomerName", "Type": "ShortString", "ReadableName": "Customer Name"},
        {"Name": "PetName", "Type": "ShortString", "ReadableName": "Pet Name"},
        {"Name": "Day", "Type": "Categorical", "Categories": ["Monday", "Tuesday", "Wednesday"]},
        {"Name": "Size", "Type": "Categorical", "Categories": ["Small", "Medium", "Large"]},
        {"Name": "Groomer", "Type": "Categorical", "Categories": ["Anna", "Ben"]},
        {"Name": "RequestType", "Type": "RequestType", "Categories": ["Check", "Book"]},
    ],
    "output": [
        {"Name": "Message", "Type": "ShortString"},
        {"Name": "BookingId", "Type": "Integer", "Min": 1, "Max": 99},
    ],
    "required": ["CustomerName", "PetName", "Day", "Size", "RequestType"],
    "db": None,
    "function": "pet_grooming",
    "returns_count": False,
}


def write_grooming_task(root: Path) -> Path:
    """A STAR copy holding one task the importer has never seen."""
    folder = root / "tasks" / "pet_grooming"
    folder.mkdir(parents=True)
    (folder / "pet_grooming.json").write_text(
        json.dumps({"task": "book_grooming", "replies": GROOMING_REPLIES, "graph": GROOMING_GRAPH})
    )
    wizard = {k: v for k, v in GROOMING_REPLIES.items() if k.startswith(("ask", "groom", "hello", "anything", "out"))}
    (folder / "responses.json").write_text(json.dumps(wizard))
    (folder / "wizard_nlu_training_data.md").write_text(
        "## intent:hello\n- hi\n- I need my dog groomed\n\n## intent:ask_name\n- name?\n"
    )
    (root / "apis").mkdir()
    (root / "apis" / "pet_grooming.json").write_text(json.dumps(GROOMING_API))
    return root


def _edges(flow: dict) -> dict[tuple[str, str], object]:
    return {(e["source"], e["target"]): e.get("when") for e in flow["edges"]}


def test_an_unseen_task_imports_into_a_valid_flow(tmp_path):
    root = write_grooming_task(tmp_path)
    imported = import_star_task(root, "pet_grooming", overlays=False)
    flow = flow_from_document(imported.flow)
    nodes = {n.id: n for n in flow.nodes}

    # consecutive asks become request nodes; a re-asked label ("no" -> day) starts its own node
    assert [(s.name, s.act, s.type.value) for s in nodes["form_name"].slots] == [
        ("name", "ask_name", "string"),
        ("pet_name", "groom_ask_pet_name", "string"),
    ]
    day, size, _groomer = nodes["form_day"].slots
    assert (day.act, day.type.value, day.values) == ("groom_ask_day", "categorical", ["Monday", "Tuesday", "Wednesday"])
    assert (size.act, size.ask) == ("groom_ask_size", "How big is your pet?")
    # an input no graph ask covers becomes an optional slot before the first query
    assert any(s.name == "groomer" and not s.required for s in nodes["form_day"].slots)
    assert imported.inputs == {
        "name": "CustomerName",
        "pet_name": "PetName",
        "day": "Day",
        "size": "Size",
        "groomer": "Groomer",
    }

    check, book = nodes["query_check"], nodes["query_book"]
    assert check.tool == book.tool == "pet_grooming"
    assert check.arguments["RequestType"].value == "Check" and book.arguments["RequestType"].value == "Book"
    assert check.arguments["PetName"].slot == "pet_name"
    assert imported.queries == {"query_check": "Check", "query_book": "Book"}

    edges = _edges(imported.flow)
    assert edges[("query_check", "groom_inform_slot_available")] == {"status": "success"}
    assert edges[("query_check", "groom_inform_unavailable")] == {"status": "failure"}
    assert edges[("groom_inform_slot_available", "query_book")] == {"answer": "yes"}
    assert edges[("groom_inform_slot_available", "form_day")] == {"answer": "no"}
    # "Can't remember the pet name" names the slot the user cannot give
    assert edges[("form_name", "groom_inform_need_pet")] == {"slot": "pet_name", "op": "declined"}
    # closing: anything_else asks, "no" says the schema's goodbye; dead ends go on to anything_else
    assert edges[("anything_else", "groom_bye")] == {"answer": "no"}
    assert ("groom_inform_unavailable", "anything_else") in edges
    assert nodes["groom_inform_slot_available"].type == "inform_and_confirm"
    assert nodes["groom_bye"].type == "end" and imported.labels == {"goodbye": "groom_bye"}

    # placeholders after a query read its result (a declared output keeps its own name, others are declared);
    # STAR's type hints (:d, :s) are dropped, so no value can fail to fit its format spec
    assert nodes["groom_inform_booked"].message == "Done! Your booking number is {result.BookingId}."
    assert (
        nodes["groom_inform_slot_available"].question == "{result.day} is free for {result.pet_name}. Shall I book it?"
    )
    # the only leniency left: with two queries, {result.x} reads the check's result when the booking's was reset
    assert imported.flow["options"] == {"result_fallback": True}
    assert (
        flow.options.result_fallback
        and not flow.options.lenient_format_specs
        and not flow.options.case_insensitive_values
    )
    assert {"found", "ok", "count", "Message", "BookingId", "day", "pet_name"} <= set(check.result)
    assert not check.result["day"].required
    assert "hi" in flow.global_actions[0].examples
    compile_flow(flow)


def test_the_unseen_task_runs_with_a_tool(tmp_path):
    flow = load_flow(import_star_task(write_grooming_task(tmp_path), "pet_grooming", overlays=False).flow)
    calls = []

    def pet_grooming(**arguments):
        calls.append(arguments)
        # the fields the flow's templates read: declared outputs, and what the replies name
        return {
            "Message": "Available",
            "ok": True,
            "found": True,
            "BookingId": 7,
            "day": arguments["Day"],
            "pet_name": arguments["PetName"],
        }

    dialogue = Dialogue(flow, tools={"pet_grooming": pet_grooming})
    assert dialogue.turn("hi").act_names[0] == "hello"
    assert dialogue.turn("Ann").act_names == ["groom_ask_pet_name"]
    assert dialogue.turn("Rex").act_names == ["groom_ask_day"]
    assert dialogue.turn("Tuesday").act_names == ["groom_ask_size"]
    assert dialogue.turn("small").act_names == ["groom_inform_slot_available"]
    assert calls[-1] == {
        "RequestType": "Check",
        "CustomerName": "Ann",
        "PetName": "Rex",
        "Day": "Tuesday",
        "Size": "Small",
    }
    assert dialogue.turn("yes").act_names == ["groom_inform_booked", "anything_else"]
    assert calls[-1]["RequestType"] == "Book"
    assert dialogue.turn("no thanks").act_names == ["groom_bye"]


def test_input_matching_reads_names_not_positions():
    asks = [
        Ask("ask_name", "name", ""),
        Ask("meeting_ask_guest_name", "guest_name", ""),
        Ask("spaceship_ask_colour_top_cable", "colour_top_cable", ""),
        Ask("bank_ask_mothers_maiden_name", "mothers_maiden_name", ""),
    ]
    inputs = [
        ApiField.model_validate(spec)
        for spec in (
            {"Name": "Name", "ReadableName": "Guest Name", "Type": "Categorical", "Categories": ["John"]},
            {"Name": "UserName", "Type": "ShortString"},
            {"Name": "ColorOfTopCable", "Type": "ShortString"},
            {"Name": "BankName", "Type": "Categorical", "Categories": ["PNC"]},
        )
    ]
    assert match_inputs(asks, inputs, {"meeting"}) == {
        "ask_name": "UserName",  # the user's own name, not the entity's
        "meeting_ask_guest_name": "Name",
        "spaceship_ask_colour_top_cable": "ColorOfTopCable",  # colour ~ color
    }  # "maiden name" is not "BankName"


def test_overlays_must_say_why_and_use_known_keys(tmp_path):
    task = read_task(write_grooming_task(tmp_path), "pet_grooming")
    with pytest.raises(ValueError, match="why"):
        apply_overlay(task, {"labels": {"goodbye": "x"}})
    with pytest.raises(ValueError, match="unknown keys"):
        apply_overlay(task, {"why": "test", "nodes": {}})
    patched = import_task(
        task,
        {
            "why": "the dialogues say goodbye_9",
            "labels": {"goodbye": "goodbye_9"},
            "rename": {"groom_ask_size": "ask_size"},
        },
    )
    flow = load_flow(patched.flow)
    assert patched.labels == {"goodbye": "goodbye_9"} and patched.overlay == "the dialogues say goodbye_9"
    assert next(n for n in flow.nodes if n.id == "groom_bye").act == "goodbye_9"
    assert "ask_size" in {s.act for s in flow.slots().values()}


# ----------------------------------------------------------------- the 24 STAR tasks


@needs_star
@pytest.mark.parametrize("overlays", [True, False], ids=["overlays", "no-overlays"])
def test_all_24_tasks_import_and_validate(overlays):
    names = task_names(STAR)
    assert len(names) == 24
    for name in names:
        imported = import_star_task(STAR, name, overlays=overlays)
        flow = flow_from_document(imported.flow, origin=name)
        compile_flow(flow)
        assert imported.api == name and imported.queries, name
        # every API input (but the request type) is a slot some query passes on
        api = json.loads((STAR / "apis" / f"{name}.json").read_text())
        inputs = {i["Name"] for i in api["input"] if i["Type"] != "RequestType"}
        assert set(imported.inputs.values()) == inputs, name


@needs_star
def test_committed_flows_are_the_importers_output():
    """flows/star/*.json are generated: re-running ``fsmdial import star`` must not change them."""
    for name in task_names(STAR):
        committed = json.loads((REPO / "flows" / "star" / f"{name}.json").read_text())
        assert committed == import_star_task(STAR, name).flow, (
            f"flows/star/{name}.json is stale: re-run fsmdial import star"
        )


@needs_star
def test_star_specific_structure():
    bank = import_star_task(STAR, "bank_balance")
    edges = _edges(bank.flow)
    assert edges[("form_name", "form_dob")] == {
        "any": [{"slot": "account_number", "op": "declined"}, {"slot": "pin", "op": "declined"}]
    }
    trivia = load_flow(import_star_task(STAR, "trivia").flow)
    assert next(n for n in trivia.nodes if n.id == "form_question").slots[0].ask == "{result.question}"
    weather = import_star_task(STAR, "weather")
    assert weather.inputs["day"] == "Day" and weather.inputs["location"] == "City"  # "location" ~ City
    assert weather.labels == {"goodbye": "goodbye_1"}  # the overlay: the dialogues' label, not weather_bye
    assert import_star_task(STAR, "weather", overlays=False).labels == {"goodbye": "weather_bye"}


@needs_star
def test_cli_import_writes_valid_flows(tmp_path):
    from fsmdial.cli import main

    assert main(["import", "star", str(STAR), "--out", str(tmp_path), "--tasks", "weather", "ride_change"]) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ride_change.json", "weather.json"]
    assert main(["validate", str(tmp_path / "weather.json")]) == 0


# ----------------------------------------------------------------- pinned behaviour on hand-made tasks


def _import(tmp_path: Path, overlay: dict | None = None, **changes: dict):
    """The grooming task with ``replies``/``graph``/``api`` entries changed (None deletes), imported."""
    task = read_task(write_grooming_task(tmp_path), "pet_grooming")
    update = {}
    for key, entries in changes.items():
        current = dict(getattr(task, key) if key != "api" else task.api.model_dump(by_alias=True))
        current.update(entries)
        update[key] = {k: v for k, v in current.items() if v is not None}
    if "api" in update:
        update["api"] = ApiSpec.model_validate(update["api"])
    return import_task(task.model_copy(update=update), overlay)


def test_a_loop_back_to_a_request_node_asks_again(tmp_path):
    imported = _import(tmp_path)
    loops = {(e["source"], e["target"]) for e in imported.flow["edges"] if e.get("reset_slots")}
    # "no" to "shall I book it?" goes back to the day: the only edge that closes a cycle into a request node
    assert loops == {("groom_inform_slot_available", "form_day")}

    def pet_grooming(**arguments):
        return {
            "Message": "Available",
            "ok": True,
            "found": True,
            "BookingId": 7,
            "day": arguments["Day"],
            "pet_name": arguments["PetName"],
        }

    dialogue = Dialogue(load_flow(imported.flow), tools={"pet_grooming": pet_grooming})
    for text in ("hi", "Ann", "Rex", "Tuesday"):
        dialogue.turn(text)
    assert dialogue.turn("small").act_names == ["groom_inform_slot_available"]
    # the day is asked again rather than the old answers running straight back into the question
    assert dialogue.turn("no").act_names == ["groom_ask_day"]
    assert dialogue.turn("Wednesday").act_names == ["groom_ask_size"]


def test_status_tokens_follow_open_queries_in_order(tmp_path):
    # two status pairs, two queries without a plain way on: the first pair follows the check, the second the booking
    imported = _import(
        tmp_path,
        replies={"query_success": "Succeeded", "query_failure": "Failed", "groom_inform_failed": "Booking failed."},
        graph={"query_book": None, "query_success": "groom_inform_booked", "query_failure": "groom_inform_failed"},
    )
    edges = _edges(imported.flow)
    assert edges[("query_check", "groom_inform_slot_available")] == {"status": "success"}
    assert edges[("query_book", "groom_inform_booked")] == {"status": "success"}
    assert edges[("query_book", "groom_inform_failed")] == {"status": "failure"}
    nodes = {n["id"]: n for n in imported.flow["nodes"]}
    # a query that branches on its status succeeds on an ok result
    assert nodes["query_book"]["success_when"] == {"result": "ok", "op": "eq", "value": True}


def test_unknown_tokens_become_named_predicates(tmp_path):
    imported = _import(
        tmp_path,
        replies={"too big": "Too big", "groom_inform_too_big": "We cannot groom pets that big."},
        graph={"too big": "groom_inform_too_big"},
    )
    # the token follows the label the graph named just before it (the last entry's target: anything_else)
    assert _edges(imported.flow)[("anything_else", "groom_inform_too_big")] == {"call": "too_big"}
    assert imported.tokens == {"too_big": ["anything_else"]}  # under the name the flow calls


def test_overlay_conditions_are_read_structurally(tmp_path):
    overlay = {
        "why": "test",
        "edges": [
            # an answer nested in "any" makes the source a yes/no question
            {"source": "groom_inform_unavailable", "when": {"any": [{"answer": "yes"}]}, "target": "groom_ask_day"},
            # a predicate merely *named* "answer" does not (a regex over the condition's text thought so)
            {
                "source": "groom_inform_need_pet",
                "when": {"all": [{"call": "answer"}, {"call": "vip"}]},
                "target": "groom_ask_day",
            },
        ],
    }
    imported = _import(tmp_path, overlay)
    nodes = {n["id"]: n for n in imported.flow["nodes"]}
    assert nodes["groom_inform_unavailable"]["type"] == "inform_and_confirm"
    assert nodes["groom_inform_need_pet"]["type"] == "inform"
    # named predicates at any depth are reported with their source nodes, in order
    assert imported.tokens == {"answer": ["groom_inform_need_pet"], "vip": ["groom_inform_need_pet"]}
    # conditions are written as the overlay gives them
    assert _edges(imported.flow)[("groom_inform_unavailable", "form_day")] == {"any": [{"answer": "yes"}]}
    flow_from_document(imported.flow)


def test_options_name_only_the_leniencies_still_needed(tmp_path):
    # one query: nothing to fall back to, and STAR's type hints are dropped: no option at all
    single = _import(tmp_path / "single", graph={"yes": None, "query_book": None, "available": "groom_inform_booked"})
    assert "options" not in single.flow
    assert "{result.BookingId}" in str(single.flow["nodes"])
    # a real format spec is kept, and so is the leniency it needs; a text comparison needs case folding
    overlay = {
        "why": "test",
        "edges": [
            {
                "source": "groom_inform_unavailable",
                "when": {"slot": "size", "op": "eq", "value": "large"},
                "target": "groom_ask_day",
            }
        ],
    }
    both = _import(tmp_path / "both", overlay, replies={"groom_inform_booked": "Done, {price:.2f} dollars."})
    assert both.flow["options"] == {
        "case_insensitive_values": True,
        "lenient_format_specs": True,
        "result_fallback": True,
    }
    assert (
        next(n for n in both.flow["nodes"] if n["id"] == "groom_inform_booked")["message"]
        == "Done, {result.price:.2f} dollars."
    )
    flow = flow_from_document(both.flow)
    assert flow.options.case_insensitive_values and flow.options.lenient_format_specs


def test_bad_star_files_name_the_file_and_the_field(tmp_path):
    root = write_grooming_task(tmp_path)
    (root / "apis" / "pet_grooming.json").write_text(json.dumps({"input": [{"Type": "ShortString"}]}))
    with pytest.raises(StarFormatError, match=r"pet_grooming.*input\.0\.Name: Field required"):
        read_task(root, "pet_grooming")
    (root / "apis" / "pet_grooming.json").write_text("{not json")
    with pytest.raises(StarFormatError, match=r"apis/pet_grooming.json: not valid JSON"):
        read_task(root, "pet_grooming")
    task = read_task(write_grooming_task(tmp_path / "other"), "pet_grooming")
    with pytest.raises(StarFormatError, match=r"overlay for pet_grooming: edges\.0\.when"):
        import_task(
            task, {"why": "test", "edges": [{"source": "a", "target": "b", "when": {"slot": "x", "op": "around"}}]}
        )
    with pytest.raises(StarFormatError, match="no 'hello' entry"):
        import_task(task.model_copy(update={"graph": {"ask_name": "groom_ask_day"}}))


def test_public_graph_walks():
    succ = neighbours(["a", "b", "c", "d"], [("a", "b"), ("b", "c"), ("c", "b")])
    assert succ == {"a": ["b"], "b": ["c"], "c": ["b"], "d": []}
    assert reachable(succ, ["a"]) == ["a", "b", "c"]
    assert reachable(succ, ["d", "unknown"]) == ["d"]
    pred = neighbours(succ, [(t, s) for s, targets in succ.items() for t in targets])
    assert reachable(pred, pred["b"]) == ["a", "c", "b"]  # ancestors of b: b itself lies on a cycle
