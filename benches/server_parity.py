"""Parity: the same model parses in-process and through a model server, on a STAR sample and the example flows.

Starts a ``llama-server`` on loopback (the binary of ``$FSMDIAL_LLAMA_SERVER``, with
:func:`fsmdial.serve.loadtest.llama_server_command`: one slot, one thread, ``--no-repack --flash-attn off``),
then plays the same dialogues with each understander and records every model call's (message, JSON
output): in-process with the default backend and with llama.cpp's own grammar sampler, through the
server's native API and through its OpenAI-compatible ``/v1/completions``. Prints, per understander,
how many model calls it made and how many outputs differ from the in-process default's.

    export FSMDIAL_LLAMA_SERVER=$(sh benches/build_llama_server.sh)
    python -m benches.server_parity --model models/SmolLM2-135M-Instruct.Q4_1.gguf --sample 20 --seed 1

``tests/understand/test_server.py`` asserts the same on the example flows (tiny model and SmolLM2).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent


def recorder(understander: Any, calls: list[tuple[str, str]]) -> Any:
    """Wrap ``understander``'s model call to append (message, raw JSON output) to ``calls``."""
    model_parse = understander.model_parse

    def recording(state: Any, schema: Any, text: str, history: Any) -> Any:
        parse = model_parse(state, schema, text, history)
        calls.append((text, parse.info["output"]))
        return parse

    understander.model_parse = recording
    return understander


def star_calls(understander: Any, sample: int, seed: int) -> list[tuple[str, str]]:
    """Every model call made while the STAR dev sample is played with ``understander``."""
    from fsmdial_eval import star
    from fsmdial_eval.corpus import default_star_dir, sample_paths, split_paths

    calls: list[tuple[str, str]] = []
    data = Path(default_star_dir())
    paths = sample_paths(split_paths(data, "dev"), sample, seed)
    original = star.make_inner_understander
    star.make_inner_understander = lambda kind, model=None: recorder(understander, calls)
    try:
        star.evaluate(data, paths, kind="gguf", model="parity", seed=seed)
    finally:
        star.make_inner_understander = original
    return calls


def flow_calls(understander: Any) -> list[tuple[str, str]]:
    """Every model call made while the example flows hear the determinism sample of the server tests."""
    from tests.understand.test_server import sample_parses

    calls: list[tuple[str, str]] = []
    recorder(understander, calls)
    sample_parses(understander)
    return calls


def main(argv: list[str] | None = None) -> int:
    from fsmdial.serve.loadtest import Process, free_port, llama_server_command
    from fsmdial.understand.model.gguf import GGUFUnderstander
    from fsmdial.understand.model.openai_server import OpenAIServerUnderstander
    from fsmdial.understand.model.server import ServerUnderstander

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", required=True)
    parser.add_argument("--sample", type=int, default=20, help="STAR dev dialogues (0: none)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    binary = os.environ.get("FSMDIAL_LLAMA_SERVER")
    if not binary:
        print("set $FSMDIAL_LLAMA_SERVER to a llama-server (sh benches/build_llama_server.sh builds one)")
        return 2
    port = free_port()
    log = Path(tempfile.mkdtemp()) / "llama-server.log"
    server = Process(llama_server_command(binary, args.model, port, slots=1), port, "/health", log=log)
    server.start()
    url = f"http://127.0.0.1:{port}"
    try:
        makers: dict[str, Any] = {
            "in-process (default backend)": lambda **o: GGUFUnderstander(args.model, n_threads=1, **o),
            "in-process (llamacpp backend)": lambda **o: GGUFUnderstander(
                args.model, n_threads=1, backend="llamacpp", **o
            ),
            "server, native API": lambda **o: ServerUnderstander(url, **o),
            "server, OpenAI-compatible": lambda **o: OpenAIServerUnderstander(url, flavor="llama.cpp", **o),
        }
        runs: dict[str, list[tuple[str, str]]] = {}
        for name, make in makers.items():
            star_part = star_calls(make(), args.sample, args.seed) if args.sample else []
            # the example flows with the model on every turn, as tests/understand/test_server.py plays them
            runs[name] = star_part + flow_calls(make(fast_path=False, rules_first=False))
        print(f"model {Path(args.model).name}, STAR dev sample {args.sample} (seed {args.seed}) + example flows")
        for reference_name in ("server, native API", "in-process (default backend)"):
            reference = runs[reference_name]
            print(f"against {reference_name}:")
            for name, calls in runs.items():
                pairs = list(zip(calls, reference, strict=False))
                first = next((i for i, (a, b) in enumerate(pairs) if a != b), None)
                if first is None and len(calls) == len(reference):
                    print(f"  {name:32s} model calls {len(calls):4d}   identical")
                    continue
                first = len(pairs) if first is None else first
                a, b = pairs[first] if first < len(pairs) else (("", "(no call)"), ("", "(no call)"))
                print(f"  {name:32s} model calls {len(calls):4d}   first differs at call {first + 1}: {a[0][:40]!r}")
                print(f"      {a[1]}  vs  {b[1]}")
    finally:
        server.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
