"""Model turns of real conversations, each beside the raw llama-cpp-python floor for its token counts.

Plays conversations of the customers'-words suite with the GGUF understander (default threads, fast path
on, as a user would run it) and records, for every model turn: wall time, prompt tokens, tokens evaluated
(after the KV cache), output tokens, decode steps (forward passes after the prompt) and whether it was the
session's first model turn. Then it replays the very same evaluations on a plain ``llama_cpp.Llama`` of the
same file and threads (the evaluated tokens in one batch on top of the same cached prefix, then the output
batches one pass each): that replay is the floor, measured in the same run, and each turn's ratio to it is
what fsmdial adds (prompt building, grammar, parsing, Python).

    python -m benches.model_turns --model models/SmolLM2-135M-Instruct.Q4_1.gguf [--conversations 20]
    python -m benches.model_turns --model M --first-turn --kv-cache DIR   # one fresh process's first model turn
    python -m benches.model_turns --model M --proxy          # exact tokens per later turn over the whole suite
    python -m benches.model_turns --model M --thread-floor   # raw per-token costs, 1 and 2 threads

``bench_model_turns.py`` runs both under pytest (quick mode: one conversation of SmolLM2, no fresh processes).
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
SUITE = REPO / "tests" / "data" / "customer_conversations" / "suite.jsonl"


@dataclass
class MeasuredTurn:
    """One model turn as this bench measured it: its time, its prompt and how much of it was evaluated, its output."""

    seconds: float
    prompt: list[int]
    prefix: int
    """Tokens of the flow's static prefix (the start of ``prompt``)."""
    prefix_evaluated: int
    """Of those, evaluated in this turn (0: in the KV cache already, or restored)."""
    conversation_evaluated: int
    """Tokens after the cached part evaluated for the rest of the prompt."""
    output_batches: list[list[int]]
    first_of_session: bool
    prefix_source: str = ""
    """Where the prefix came from: held (in the KV cache), memory, disk (restored) or evaluated."""
    floor: float = 0.0

    @property
    def evaluated(self) -> int:
        return self.prefix_evaluated + self.conversation_evaluated

    @property
    def steps(self) -> int:
        """Decode steps: forward passes after the prompt (forced tokens ride along with the token before them)."""
        return len(self.output_batches)

    @property
    def output_tokens(self) -> int:
        return sum(len(b) for b in self.output_batches)


@dataclass
class Run:
    model: str
    threads: int
    turns: list[MeasuredTurn] = field(default_factory=list)
    process_first: float = 0.0
    """Load + first model turn of this process (seconds)."""
    peak_rss_mb: float = 0.0


def record(understander: Any, turns: list[MeasuredTurn]) -> None:
    """Wrap ``understander`` (its model call, prefix, decoder and model steps) to record each model call."""
    decoder, model = understander.decoder, understander.model
    model_parse, generate, step = understander.model_parse, decoder.generate, model.step
    hold_prefix = getattr(model, "hold_prefix", None)  # None: fsmdial before issue 26 (for the "before" figures)
    seen: dict[str, Any] = {"session": False, "prefix": (0, 0, "")}

    def recording_hold_prefix(tokens: list[int], disk: Any = None) -> int:
        assert hold_prefix is not None
        before = dict(model.prefix_counts)
        evaluated = hold_prefix(tokens, disk)
        source = [k for k, v in model.prefix_counts.items() if v != before.get(k)]
        seen["prefix"] = (len(tokens), evaluated, source[0] if source else "")
        return evaluated

    def recording_generate(prompt: list[int], grammar: Any, **options: Any) -> Any:
        seen["batches"] = []
        generation = generate(prompt, grammar, **options)
        seen["prompt"], seen["evaluated"] = list(prompt), generation.prompt_tokens
        return generation

    def recording_step(tokens: list[int]) -> None:
        seen.setdefault("batches", []).append(list(tokens))
        step(tokens)

    def recording_model_parse(*args: Any, **kwargs: Any) -> Any:
        started = time.perf_counter()
        parse = model_parse(*args, **kwargs)
        seconds = time.perf_counter() - started
        prefix, prefix_evaluated, source = seen["prefix"]
        first = not seen["session"]
        seen["session"] = True
        turns.append(
            MeasuredTurn(
                seconds, seen["prompt"], prefix, prefix_evaluated, seen["evaluated"], seen["batches"], first, source
            )
        )
        return parse

    understander.model_parse = recording_model_parse
    if hold_prefix is not None:
        model.hold_prefix = recording_hold_prefix
    decoder.generate = recording_generate
    model.step = recording_step

    def new_session() -> None:
        seen["session"] = False

    understander._bench_new_session = new_session


def play(
    model_path: str, ids: list[str] | None, threads: int | None, limit: int, kv_cache: str | bool | None = None
) -> Run:
    from fsmdial.testing.suites import load_suite
    from fsmdial.testing.suites import play as play_one
    from fsmdial.understand.model.gguf import GGUFUnderstander

    suite = load_suite(SUITE)
    conversations = [c for c in suite.conversations if ids is None or c.id in ids][:limit]
    options: dict[str, Any] = {} if kv_cache is None else {"kv_cache": kv_cache}
    if threads is not None:
        options["n_threads"] = threads
    started = time.perf_counter()
    understander = GGUFUnderstander(model_path, **options)
    run = Run(Path(model_path).name, getattr(understander.model, "n_threads", threads or 2))
    record(understander, run.turns)
    for conversation in conversations:
        understander._bench_new_session()
        before = len(run.turns)
        play_one(conversation, understander, suite.slot_kinds)
        if not run.process_first and len(run.turns) > before:
            run.process_first = time.perf_counter() - started
    run.peak_rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return run


def floor(run: Run, model_path: str) -> None:
    """Replay each turn's evaluations on a plain Llama (same file, threads): its time is the turn's floor."""
    import llama_cpp

    from fsmdial.understand.decoding.llama_model import plain_cpu_buffers, restore_sequence_state, sequence_state

    with plain_cpu_buffers():
        llm = llama_cpp.Llama(
            model_path=model_path,
            n_ctx=4096,
            n_threads=run.threads,
            n_threads_batch=run.threads,
            logits_all=False,
            verbose=False,
        )
    for turn in run.turns:
        prompt, cached = turn.prompt, len(turn.prompt) - turn.conversation_evaluated
        llm.reset()
        if turn.prefix_evaluated:  # the turn evaluated (part of) the prefix, then the rest after it
            parts = [prompt[turn.prefix - turn.prefix_evaluated : turn.prefix], prompt[cached:]]
            untimed = prompt[: turn.prefix - turn.prefix_evaluated]
        else:
            parts, untimed = [prompt[cached:]], prompt[:cached]
        restore = None
        if turn.prefix_source in ("memory", "disk"):  # the turn put a saved prefix state back: so does the floor
            llm.eval(prompt[: turn.prefix])
            restore = sequence_state(llm)
        elif untimed:
            llm.eval(untimed)  # what the KV cache held before the turn
        started = time.perf_counter()
        if restore is not None:
            restore_sequence_state(llm, prompt[: turn.prefix], restore)
        for part in parts:
            llm.eval(part)
        llm._ctx.get_logits()  # noqa: SLF001 - the logits are read once per step, as any decoder does
        for batch in turn.output_batches:
            llm.eval(batch)
        turn.floor = time.perf_counter() - started


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))] if ordered else float("nan")


def summary(run: Run) -> dict[str, Any]:
    later = [t for t in run.turns if not t.first_of_session]
    first = [t for t in run.turns if t.first_of_session]

    def ms(values: list[float], q: float) -> float:
        return round(1000 * pct(values, q), 1)

    return {
        "model": run.model,
        "threads": run.threads,
        "model_turns": len(run.turns),
        "process_first_turn_s (load + first turn)": round(run.process_first, 2),
        "session_first_turn_ms p50": ms([t.seconds for t in first], 0.5),
        "session_first_evaluated p50": pct([t.evaluated for t in first], 0.5),
        "later_turn_ms p50 / p95": (ms([t.seconds for t in later], 0.5), ms([t.seconds for t in later], 0.95)),
        "later_evaluated p50 / p95": (pct([t.evaluated for t in later], 0.5), pct([t.evaluated for t in later], 0.95)),
        "later_prompt_tokens p50": pct([len(t.prompt) for t in later], 0.5),
        "decode_steps p50 / p95": (pct([t.steps for t in run.turns], 0.5), pct([t.steps for t in run.turns], 0.95)),
        "output_tokens p50": pct([t.output_tokens for t in run.turns], 0.5),
        "ratio to floor p50 / p95 / max": (
            round(pct([t.seconds / t.floor for t in run.turns], 0.5), 2),
            round(pct([t.seconds / t.floor for t in run.turns], 0.95), 2),
            round(max(t.seconds / t.floor for t in run.turns), 2) if run.turns else None,
        ),
        "later_floor_ms p50": ms([t.floor for t in later], 0.5),
        "peak_rss_mb": round(run.peak_rss_mb),
    }


def first_turn(model_path: str, kv_cache: str | None, threads: int | None = None) -> dict[str, Any]:
    """This process's first model turn: the model loaded, then the first model call of a conversation."""
    started = time.perf_counter()
    from fsmdial.testing.suites import load_suite
    from fsmdial.testing.suites import play as play_one
    from fsmdial.understand.model.gguf import GGUFUnderstander

    options: dict[str, Any] = {"kv_cache": kv_cache or False}
    if threads:
        options["n_threads"] = threads
    understander = GGUFUnderstander(model_path, **options)
    loaded = time.perf_counter()
    turns: list[MeasuredTurn] = []
    record(understander, turns)
    suite = load_suite(SUITE)
    for conversation in suite.conversations:
        understander._bench_new_session()
        play_one(conversation, understander, suite.slot_kinds)
        if turns:
            break
    return {
        "import_and_load_s": round(loaded - started, 3),
        "first_turn_s": round(turns[0].seconds, 3),
        "evaluated": turns[0].evaluated,
        "prefix": turns[0].prefix_source,
    }


def fresh_process_first_turn(model_path: str, kv_cache: str | None, threads: int | None = None) -> dict[str, Any]:
    """:func:`first_turn` in a new interpreter (what a restarted service pays)."""
    import orjson

    command = [sys.executable, "-m", "benches.model_turns", "--model", model_path, "--first-turn"]
    command += ["--kv-cache", kv_cache] if kv_cache else []
    command += ["--threads", str(threads)] if threads else []
    env = dict(os.environ, PYTHONPATH=str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    done = subprocess.run(command, capture_output=True, check=True, cwd=REPO, env=env, timeout=600)
    found: dict[str, Any] = orjson.loads(done.stdout.splitlines()[-1])
    return found


def proxy(model_path: str) -> dict[str, Any]:
    """Tokens each later turn evaluates, exactly, over the whole suite without decoding: the conversations are
    played with the rules, and at every turn the fast path does not settle the GGUF prompt is built and compared
    with the previous one of the conversation (what the KV cache would keep)."""
    from fsmdial.testing.suites import load_suite
    from fsmdial.testing.suites import play as play_one
    from fsmdial.understand.model.gguf import GGUFUnderstander
    from fsmdial.understand.model.prompt import state_note
    from fsmdial.understand.rules import RulesUnderstander

    gguf = GGUFUnderstander(model_path, n_threads=1)  # nothing is evaluated: only its prompts
    rules = RulesUnderstander()
    counts: list[int] = []
    notes: list[int] = []

    class Recording:
        previous: list[int] | None = None

        def understand(self, state: Any, text: str, *, history: Any = (), now: Any = None) -> Any:
            if text.strip() and rules.settle(state, text, now=now) is None:
                tokens = gguf.prompts.build(state, history, text, budget=gguf.model.n_ctx // 2).tokens
                if self.previous is not None:
                    kept = next(
                        (i for i, (a, b) in enumerate(zip(self.previous, tokens, strict=False)) if a != b), len(tokens)
                    )
                    counts.append(len(tokens) - min(kept, len(tokens) - 1))
                    notes.append(len(gguf.prompts.tokens(state_note(state))))
                self.previous = tokens
            return rules.understand(state, text, history=history, now=now)

    suite = load_suite(SUITE)
    for conversation in suite.conversations:
        play_one(conversation, Recording(), suite.slot_kinds)
    return {
        "later turns": len(counts),
        "evaluated p50 / mean / p95": (pct(counts, 0.5), round(sum(counts) / len(counts), 1), pct(counts, 0.95)),
        "state note p50": pct(notes, 0.5),
    }


def thread_floor(model_path: str, rounds: int = 3) -> dict[str, Any]:
    """Raw llama-cpp-python per prompt token and per decode step on 1 and 2 threads, interleaved, best of rounds."""
    import llama_cpp

    from fsmdial.understand.decoding.llama_model import plain_cpu_buffers

    llms = {}
    for threads in (1, 2):
        with plain_cpu_buffers():
            llms[threads] = llama_cpp.Llama(
                model_path=model_path, n_ctx=1024, n_threads=threads, n_threads_batch=threads, verbose=False
            )
    tokens = llms[1].tokenize(b"The quick brown fox jumps over the lazy dog. " * 12, add_bos=False)[:100]
    best: dict[int, list[float]] = {1: [1e9, 1e9], 2: [1e9, 1e9]}
    for _ in range(rounds):
        for threads, llm in llms.items():
            llm.reset()
            started = time.perf_counter()
            llm.eval(tokens)
            prompt = (time.perf_counter() - started) / len(tokens)
            started = time.perf_counter()
            for token in tokens[:10]:
                llm.eval([token])
            step = (time.perf_counter() - started) / 10
            best[threads] = [min(best[threads][0], prompt), min(best[threads][1], step)]
    return {
        f"{t} thread{'s' if t > 1 else ''}: ms per prompt token / per step": (round(1000 * p, 2), round(1000 * d, 1))
        for t, (p, d) in best.items()
    } | {"load average": os.getloadavg()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", required=True)
    parser.add_argument("--threads", type=int, default=None, help="default: the understander's default")
    parser.add_argument("--conversations", type=int, default=20)
    parser.add_argument("--ids", nargs="*", default=None)
    parser.add_argument("--first-turn", action="store_true", help="only this process's first model turn (JSON)")
    parser.add_argument("--kv-cache", default=None, help="folder of the prefix states on disk (default: none)")
    parser.add_argument("--proxy", action="store_true", help="only the exact tokens per later turn (no decoding)")
    parser.add_argument("--thread-floor", action="store_true", help="only raw per-token costs on 1 and 2 threads")
    args = parser.parse_args(argv)
    if args.proxy or args.thread_floor:
        found = proxy(args.model) if args.proxy else thread_floor(args.model)
        for key, value in found.items():
            print(f"{key:40s} {value}")
        return 0
    if args.first_turn:
        import orjson

        print(orjson.dumps(first_turn(args.model, args.kv_cache, args.threads)).decode())
        return 0
    run = play(args.model, args.ids, args.threads, args.conversations, args.kv_cache)
    floor(run, args.model)
    for key, value in summary(run).items():
        print(f"{key:40s} {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
