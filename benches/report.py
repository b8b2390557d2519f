"""Turn a pytest-benchmark JSON file into the tables of BENCHMARKS.md.

pytest benches --benchmark-only --benchmark-json=b.json
python benches/report.py b.json > /tmp/tables.md
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import orjson


def load(path: str) -> tuple[dict, dict[str, dict]]:
    data = orjson.loads(Path(path).read_bytes())
    return data, {bench["name"]: bench for bench in data["benchmarks"]}


def median(bench: dict) -> float:
    return bench["stats"]["median"]


def per_unit(bench: dict) -> float:
    """Median divided by the work unit the benchmark declares (turns, tokens)."""
    info = bench.get("extra_info", {})
    for key in ("tokens", "turns"):
        if info.get(key):
            return median(bench) / info[key]
    return median(bench)


def find(benches: dict[str, dict], pattern: str) -> list[dict]:
    return [b for name, b in sorted(benches.items()) if re.fullmatch(pattern, name)]


def fmt_time(seconds: float) -> str:
    for unit, scale in (("s", 1), ("ms", 1e-3), ("µs", 1e-6)):
        if seconds >= scale:
            return f"{seconds / scale:.3g} {unit}"
    return f"{seconds / 1e-9:.3g} ns"


# (label, numerator pattern, denominator pattern or None, target, how the target reads)
RATIOS = [
    (
        "engine turn / raw transitions trigger (worst example flow)",
        r"test_engine_turn\[.*\]",
        r"test_raw_transitions_trigger",
        5.0,
        "<= 5x",
    ),
    (
        "engine turn / raw transitions trigger (mean turn of the scripted conversations, worst)",
        r"test_engine_conversation\[.*\]",
        r"test_raw_transitions_trigger",
        5.0,
        "<= 5x",
    ),
    (
        "constrained / unconstrained decoding per output token (default backend)",
        r"test_decode_constrained\[default\]",
        r"test_decode_unconstrained",
        1.3,
        "<= 1.3x",
    ),
]


def ratio_rows(benches: dict[str, dict]) -> list[str]:
    rows = []
    for label, num_pattern, den_pattern, target, reads in RATIOS:
        nums, dens = find(benches, num_pattern), find(benches, den_pattern)
        if not nums or not dens:
            rows.append(f"| {label} | not measured in this run | {reads} | |")
            continue
        value = max(per_unit(b) for b in nums) / per_unit(dens[0])
        rows.append(f"| {label} | {value:.2f}x | {reads} | {'holds' if value <= target else 'MISSED'} |")
    same_moment = (
        (
            "engine turn, best round / raw trigger timed at the same moment (worst example flow)",
            r"test_engine_turn\[.*\]",
        ),
        (
            "mean conversation turn, best round / raw trigger timed at the same moment (worst)",
            r"test_engine_conversation\[.*\]",
        ),
    )
    for label, pattern in same_moment:
        ratios = [
            (b["extra_info"]["ratio_min_to_floor"], b["name"])
            for b in find(benches, pattern)
            if "ratio_min_to_floor" in b.get("extra_info", {})
        ]
        if ratios:
            value, name = max(ratios)
            rows.append(f"| {label} | {value:.2f}x (`{name}`) | <= 5x | {'holds' if value <= 5 else 'MISSED'} |")
    for bench in find(benches, r"test_import_fsmdial\[.*\]"):
        value = bench["extra_info"].get("import_seconds_median")
        if value is not None:
            module = bench["name"].split("[", 1)[1].rstrip("]")
            rows.append(
                f"| `import {module}` in a fresh interpreter | {fmt_time(value)} | < 300 ms | "
                f"{'holds' if value < 0.3 else 'MISSED'} |"
            )
    star = find(benches, r"test_compile_all_star_flows")
    if star:
        value = median(star[0])
        rows.append(
            f"| load + compile all 24 STAR flows | {fmt_time(value)} | < 1 s | {'holds' if value < 1 else 'MISSED'} |"
        )
    return rows


def main(argv: list[str]) -> int:
    data, benches = load(argv[1])
    machine = data.get("machine_info", {})
    print(
        f"Machine: {machine.get('cpu', {}).get('brand_raw', '?')}, {machine.get('cpu', {}).get('count', '?')} cores, "
        f"Python {machine.get('python_version', '?')}; run {data.get('datetime', '?')}"
    )
    print()
    print("| ratio | measured | target | |")
    print("|---|---|---|---|")
    for row in ratio_rows(benches):
        print(row)
    print()
    print("| group | benchmark | median | per unit | extra |")
    print("|---|---|---|---|---|")
    for name, bench in sorted(benches.items(), key=lambda item: (item[1].get("group") or "", item[0])):
        info = bench.get("extra_info", {})
        extra = ", ".join(f"{k}={v}" for k, v in sorted(info.items()))
        unit = fmt_time(per_unit(bench)) if per_unit(bench) != median(bench) else ""
        print(f"| {bench.get('group') or ''} | `{name}` | {fmt_time(median(bench))} | {unit} | {extra} |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
