"""Run clem:todd's tasks: fsmdial (an ``Assistant`` over the MultiWOZ flows) against the simulated user.

Each task: a fresh ``Assistant`` over the three flows with the task's tools
(one bookings session on the run's in-memory database), the simulated user
talking first, at most ``cap`` (15) user turns. Any exception raised by a turn
aborts the task (clem:todd's *abort*). The bookings made are then scored
(:mod:`.scorer`).
"""

from __future__ import annotations

import datetime as dt
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fsmdial.testing.suites import model_turn_share, model_turns_line
from fsmdial.userfiles import MAX_CORPUS_BYTES, parse_json, read_json, read_text

from .scorer import averages, generated_slots, score_episode
from .tools import MultiwozDB, Tools
from .user import SimulatedUser

CAP = 15
CLOCK = dt.datetime(2026, 11, 23, 12, 0)
FLOW_NAMES = ("restaurant", "hotel", "train")
PUBLISHED = [
    {"system": "monolithic LLM system, Qwen2.5-7B (clem:todd paper)", "booking_success": 0.09},
    {"system": "modular LLM system, GPT-4o (clem:todd paper)", "booking_success": 0.84},
]


FLOWS_DIR = Path(__file__).with_name("flows")
"""The three flows, package data (``flows/{restaurant,hotel,train}.json`` beside this module)."""


def flows_dir() -> Path:
    return FLOWS_DIR


def bundled_flows() -> list[Any]:
    """The restaurant, hotel and train flows, validated. One missing is a broken install: a FlowError
    naming the file, never an evaluation without it."""
    from fsmdial.loader import load_flow

    return [load_flow(FLOWS_DIR / f"{name}.json") for name in FLOW_NAMES]


def load_tasks(data_dir: str | Path, split: str) -> list[dict[str, Any]]:
    path = Path(data_dir) / "tasks" / f"taskdata_{split}.json"
    tasks = read_json(path, limit=MAX_CORPUS_BYTES)
    if not isinstance(tasks, list):
        raise ValueError(f"{path}: expected a list of tasks")
    return tasks


@dataclass
class Episode:
    task: str
    domains: list[str]
    turns: int
    aborted: bool
    ended: bool
    inform: int
    booking: int
    reasons: list[str]
    error: str | None = None
    bookings: list[dict[str, Any]] = field(default_factory=list)
    dialogue: list[dict[str, Any]] = field(default_factory=list)
    model_calls: int = 0
    model_turns: int = 0
    """User turns whose understanding made a model call."""

    def to_dict(self, *, dialogue: bool = True) -> dict[str, Any]:
        out = dict(self.__dict__)
        if not dialogue:
            out.pop("dialogue")
        return out


def run_episode(
    task: Mapping[str, Any],
    db: MultiwozDB,
    flows: list[Any],
    *,
    understander: Any = None,
    seed: int = 0,
    cap: int = CAP,
    corpus_rate: float = 0.5,
) -> Episode:
    from fsmdial.assistant import Assistant

    session = str(task.get("filename", "task"))
    tools = Tools(db, session).registry()
    assistant = Assistant(flows, tools=tools, understander=understander, clock=lambda: CLOCK)
    user = SimulatedUser(task, seed=seed, corpus_rate=corpus_rate)
    result = assistant.start()
    log: list[dict[str, Any]] = [{"bot": result.text}]
    turns, aborted, error, calls, model_turns = 0, False, None, 0, 0
    while turns < cap and not assistant.ended:
        text = user.respond(result.acts)
        turns += 1
        try:
            result = assistant.turn(text)
        except Exception as exc:  # any failed turn aborts the task, as in clem:todd
            aborted, error = True, f"{type(exc).__name__}: {exc}"
            log.append({"user": text, "error": error})
            break
        calls += result.trace.model_calls
        model_turns += result.trace.model_calls > 0
        log.append({"user": text, "bot": result.text, "acts": result.act_names})
        if user.done and not assistant.ended:
            break  # the user gave up; the bot did not take it as a goodbye
    bookings = db.bookings(session)
    generated = generated_slots(bookings, db.row)
    score = score_episode(task["domains"], generated, aborted=aborted, turns=turns, cap=cap)
    return Episode(
        session,
        list(task["domains"]),
        turns,
        aborted,
        assistant.ended,
        score.inform,
        score.booking,
        score.reasons,
        error,
        bookings,
        log,
        calls,
        model_turns,
    )


def evaluate(
    tasks: Iterable[Mapping[str, Any]],
    data_dir: str | Path,
    *,
    understander: Any = None,
    seed: int = 0,
    cap: int = CAP,
    progress: bool = False,
    on_episode: Callable[[Episode], None] | None = None,
    corpus_rate: float = 0.5,
) -> dict[str, Any]:
    """Run every task; the report as a JSON-ready dict."""
    from tqdm import tqdm

    tasks = list(tasks)
    flows = bundled_flows()
    db = MultiwozDB(data_dir)
    started = time.perf_counter()
    episodes: list[Episode] = []
    bar = tqdm(tasks, desc="clem:todd", unit="task", disable=not progress)
    try:
        for task in bar:
            episode = run_episode(
                task, db, flows, understander=understander, seed=seed, cap=cap, corpus_rate=corpus_rate
            )
            episodes.append(episode)
            if on_episode is not None:
                on_episode(episode)
            bar.set_postfix(
                success=f"{sum(e.booking for e in episodes) / len(episodes):.2f}",
                aborts=sum(e.aborted for e in episodes),
            )
    finally:
        bar.close()
        db.close()
    return report(episodes, seconds=time.perf_counter() - started, seed=seed, cap=cap)


def report(episodes: list[Episode], *, seconds: float, seed: int, cap: int) -> dict[str, Any]:
    group = lambda e: "_".join(e.domains)  # noqa: E731 - clem:todd's grouping: the task's domains
    booking = averages([(group(e), float(e.booking)) for e in episodes])
    inform = averages([(group(e), float(e.inform)) for e in episodes])
    per_group: dict[str, dict[str, Any]] = {}
    for e in episodes:
        g = per_group.setdefault(group(e), {"tasks": 0, "booked": 0, "informed": 0, "aborts": 0})
        g["tasks"] += 1
        g["booked"] += e.booking
        g["informed"] += e.inform
        g["aborts"] += e.aborted
    n = len(episodes) or 1
    return {
        "settings": {"cap": cap, "seed": seed, "seconds": round(seconds, 1)},
        "tasks": len(episodes),
        "booking_success": booking,
        "inform_rate": inform,
        "aborts": sum(e.aborted for e in episodes),
        "turn_cap_reached": sum(e.turns >= cap for e in episodes),
        "turns_per_task": round(sum(e.turns for e in episodes) / n, 2),
        "model_calls": sum(e.model_calls for e in episodes),
        "model_turns": model_turn_share(sum(e.turns for e in episodes), sum(e.model_turns for e in episodes)),
        "per_domains": per_group,
        "published": PUBLISHED,
        "episodes": [e.to_dict() for e in episodes],
    }


def report_from_logs(paths: Iterable[str | Path]) -> dict[str, Any]:
    """The report of the episodes that ``--log`` files hold (a run still going, or cut short)."""
    episodes = []
    for path in paths:
        for number, line in enumerate(read_text(path, limit=MAX_CORPUS_BYTES).split("\n"), start=1):
            if line.strip():
                episodes.append(Episode(**parse_json(line, origin=f"{path}:{number}")))
    return report(episodes, seconds=0.0, seed=-1, cap=CAP)


def format_table(data: Mapping[str, Any]) -> str:
    fmt = lambda v: "-" if v is None else f"{v:.2f}"  # noqa: E731
    s = data["settings"]
    lines = [
        f"clem:todd MultiWOZ booking tasks: {data['tasks']} tasks, {s.get('understander', '?')} understander, "
        f"{s['seconds']} s",
        "",
        f"{'':32s} {'booking success':>15s} {'inform rate':>11s}",
        f"{'clem:todd average (per domains)':32s} {fmt(data['booking_success']['clemtodd']):>15s} "
        f"{fmt(data['inform_rate']['clemtodd']):>11s}",
        f"{'average over tasks':32s} {fmt(data['booking_success']['tasks']):>15s} "
        f"{fmt(data['inform_rate']['tasks']):>11s}",
    ]
    for name, g in data["per_domains"].items():
        lines.append(
            f"  {name:30s} {g['booked'] / g['tasks']:15.2f} {g['informed'] / g['tasks']:11.2f}   ({g['tasks']} tasks)"
        )
    lines += [
        "",
        f"aborts {data['aborts']}, turn cap reached {data['turn_cap_reached']}, "
        f"turns per task {data['turns_per_task']}",
    ]
    lines.append(model_turns_line(data["model_turns"]))
    lines += [f"published: {p['system']}: {p['booking_success']:.2f}" for p in data["published"]]
    return "\n".join(lines)
