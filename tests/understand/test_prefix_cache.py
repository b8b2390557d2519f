"""Each prompt prefix evaluated once: KV states restored from memory and from disk, on the tiny model.

A restored state must give exactly what a fresh evaluation gives (the same logits, bit for bit, so the
same parse); a damaged, truncated or mismatched state file is detected, deleted and rebuilt, never used.
"""

from __future__ import annotations

import datetime as dt
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import orjson
import pytest

pytest.importorskip("llama_cpp", reason="needs the gguf extra (llama-cpp-python)")

from fsmdial.loader import load_flow
from fsmdial.runtime import Dialogue
from fsmdial.testing.tiny_model import ensure_tiny_model
from fsmdial.understand.decoding import kv_cache
from fsmdial.understand.decoding.kv_cache import MAGIC, DiskCache
from fsmdial.understand.model.gguf import GGUFUnderstander

pytestmark = pytest.mark.model

REPO = Path(__file__).resolve().parents[2]
NOW = dt.datetime(2026, 11, 22, 12, 0)
FLOWS = ("ride_change.json", "restaurant_booking.json", "card_activation.json")


@pytest.fixture(scope="module")
def tiny() -> Path:
    return ensure_tiny_model()


def understander(tiny: Path, folder: Path | None, **options: Any) -> GGUFUnderstander:
    # rules_first=False: beside the rules the tiny model is seldom asked anything; here every turn must reach it
    options = {"rules_first": False, **options}
    u = GGUFUnderstander(tiny, n_threads=1, fast_path=False, kv_cache=folder if folder else False, **options)
    u.model.forget()  # other tests share the loaded model: start with nothing in memory
    return u


def state_of(flow: str) -> Any:
    dialogue = Dialogue(load_flow(REPO / "flows" / flow), stand_in_tools=True, clock=lambda: NOW)
    dialogue.start()
    return dialogue.understanding_state(), list(dialogue.history)


def logits_after(u: GGUFUnderstander, flow: str, text: str) -> tuple[np.ndarray, int]:
    """The logits the model decodes from for ``text`` at ``flow``'s first state, and the tokens evaluated."""
    state, history = state_of(flow)
    prompt = u.prompts.build(state, history, text, budget=u.model.n_ctx // 2)
    evaluated = u.model.hold_prefix(prompt.tokens[: prompt.static_tokens], u.kv_cache)
    evaluated += u.model.feed(prompt.tokens)
    return u.model.logits().copy(), evaluated


def parses(u: GGUFUnderstander, flow: str) -> list[dict[str, Any]]:
    state, history = state_of(flow)
    found = []
    for text in ("Jane Doe", "my booking is 102 and I want a later pickup", "yes please"):
        parse = u.understand(state, text, history=history, now=NOW)
        found.append({"parse": parse.to_dict(), "evaluated": parse.info.get("evaluated_tokens")})
        history = [*history, ("user", text), ("bot", "Sure, what else?")]
    return found


def test_a_state_restored_from_disk_gives_the_logits_and_parses_of_a_fresh_evaluation(tiny, tmp_path):
    cold = understander(tiny, tmp_path)
    fresh = {flow: logits_after(cold, flow, "Jane Doe, booking 102") for flow in FLOWS}
    assert cold.model.prefix_counts["evaluated"] == len(FLOWS)
    assert len(cold.kv_cache.entries()) == len(FLOWS)
    warm = understander(tiny, tmp_path)  # memory emptied: every prefix comes from disk
    for flow in FLOWS:
        logits, evaluated = logits_after(warm, flow, "Jane Doe, booking 102")
        assert np.array_equal(logits, fresh[flow][0]), flow
        assert evaluated < fresh[flow][1] // 4  # only the conversation: the prefix was restored
    assert warm.model.prefix_counts["disk"] == len(FLOWS) and not warm.kv_cache.rejected

    cold = understander(tiny, tmp_path / "other")
    want = {flow: parses(cold, flow) for flow in FLOWS}
    warm = understander(tiny, tmp_path / "other")
    got = {flow: parses(warm, flow) for flow in FLOWS}
    model_turns = 0
    for flow in FLOWS:
        assert [g["parse"] for g in got[flow]] == [w["parse"] for w in want[flow]]
        costs = [(g["evaluated"], w["evaluated"]) for g, w in zip(got[flow], want[flow], strict=True) if w["evaluated"]]
        if costs:
            assert costs[0][0] < costs[0][1]  # the first model turn restored the prefix
            assert all(g == w for g, w in costs[1:])
        model_turns += len(costs)
    assert model_turns >= 4


def test_without_a_disk_cache_memory_still_holds_each_prefix_once(tiny):
    u = understander(tiny, None)
    assert u.kv_cache is None
    first = {flow: logits_after(u, flow, "hello there") for flow in FLOWS}
    for _ in range(2):  # an Assistant switching among its flows: no prefix is evaluated again
        for flow in FLOWS:
            logits, evaluated = logits_after(u, flow, "hello there")
            assert np.array_equal(logits, first[flow][0])
            assert evaluated < first[flow][1] // 4
    assert u.model.prefix_counts["evaluated"] == len(FLOWS)
    assert u.model.prefix_counts["memory"] == 2 * len(FLOWS)


def test_a_new_session_of_a_flow_evaluates_only_its_own_lines(tiny):
    u = understander(tiny, None)
    state, history = state_of("ride_change.json")
    static = len(u.prompts.prefix(state))
    first = u.understand(state, "Jane Doe", history=history, now=NOW)
    assert first.info["evaluated_tokens"] == first.info["prompt_tokens"]  # nothing cached yet
    u.understand(state_of("restaurant_booking.json")[0], "Jane Doe", history=history, now=NOW)  # another flow
    again = u.understand(state, "Bob Smith", history=history, now=NOW)  # a new session of the first flow
    assert again.info["evaluated_tokens"] <= again.info["prompt_tokens"] - static


def damage_truncate(path: Path) -> None:
    data = path.read_bytes()
    path.write_bytes(data[: len(data) - 100])


def damage_flip(path: Path) -> None:
    data = bytearray(path.read_bytes())
    data[-50] ^= 0xFF
    path.write_bytes(bytes(data))


def damage_header(path: Path) -> None:
    path.write_bytes(b"not a state file at all")


def rewrite_header(path: Path, **changes: Any) -> None:
    data = path.read_bytes()
    start = len(MAGIC) + 4
    length = int.from_bytes(data[len(MAGIC) : start], "little")
    header = orjson.loads(data[start : start + length])
    header.update(changes)
    encoded = orjson.dumps(header)
    path.write_bytes(MAGIC + len(encoded).to_bytes(4, "little") + encoded + data[start + length :])


def another_model(path: Path) -> None:
    rewrite_header(path, model_sha256="0" * 64)


def another_prefix(path: Path) -> None:
    rewrite_header(path, n_tokens=3, tokens_sha256="1" * 64)


def refused_by_llama(path: Path) -> None:
    """Header and checksum right, but a state llama.cpp cannot load (another build's format, say)."""
    import hashlib

    data = path.read_bytes()
    start = len(MAGIC) + 4
    length = int.from_bytes(data[len(MAGIC) : start], "little")
    payload = bytes(len(data) - start - length)
    rewrite_header(path, payload_sha256=hashlib.sha256(payload).hexdigest())
    data = path.read_bytes()
    length = int.from_bytes(data[len(MAGIC) : start], "little")
    path.write_bytes(data[: start + length] + payload)


@pytest.mark.parametrize(
    "damage", [damage_truncate, damage_flip, damage_header, another_model, another_prefix, refused_by_llama]
)
def test_a_damaged_truncated_or_mismatched_state_file_is_rebuilt_never_used(tiny, tmp_path, damage):
    cold = understander(tiny, tmp_path)
    fresh, evaluated_cold = logits_after(cold, "ride_change.json", "Jane Doe")
    (entry,) = cold.kv_cache.entries()
    damage(entry.path)
    again = understander(tiny, tmp_path)
    logits, evaluated = logits_after(again, "ride_change.json", "Jane Doe")
    assert np.array_equal(logits, fresh)
    assert evaluated == evaluated_cold  # evaluated again, not restored
    assert again.model.prefix_counts == {"held": 0, "memory": 0, "disk": 0, "evaluated": 1}
    assert again.kv_cache.rejected  # and said why
    (rebuilt,) = again.kv_cache.entries()  # rebuilt in place, whole
    assert rebuilt.header is not None and rebuilt.size > rebuilt.header["payload_bytes"]
    third = understander(tiny, tmp_path)
    assert np.array_equal(logits_after(third, "ride_change.json", "Jane Doe")[0], fresh)
    assert third.model.prefix_counts["disk"] == 1 and not third.kv_cache.rejected


def test_the_folder_is_kept_under_its_size_least_recently_used_first(tiny, tmp_path):
    u = understander(tiny, tmp_path)
    for flow in FLOWS:
        logits_after(u, flow, "hi")
    sizes = [e.size for e in u.kv_cache.entries()]
    u.kv_cache.max_bytes = sum(sizes) - 1
    u.model.forget()
    logits_after(u, FLOWS[0], "hi")  # restored from disk: now the most recently used
    u.kv_cache.prune()
    left = u.kv_cache.entries()
    assert len(left) == len(FLOWS) - 1 and sum(e.size for e in left) <= u.kv_cache.max_bytes
    u.model.forget()
    logits_after(u, FLOWS[0], "hi")
    assert u.model.prefix_counts["disk"] == 1  # the one used last was kept


def test_the_model_digest_is_computed_once_per_file_version(tiny, tmp_path):
    cache = DiskCache(tmp_path)
    digest = cache.model_sha256(tiny)
    assert len(digest) == 64 and (tmp_path / "models.json").is_file()
    memo = orjson.loads((tmp_path / "models.json").read_bytes())
    assert list(memo.values()) == [digest]
    (tmp_path / "models.json").write_bytes(orjson.dumps({k: "f" * 64 for k in memo}))
    assert cache.model_sha256(tiny) == "f" * 64  # read back, not hashed again


def test_the_environment_names_the_folder_or_turns_it_off(monkeypatch, tmp_path):
    monkeypatch.setenv("FSMDIAL_KV_CACHE", str(tmp_path / "kv"))
    assert kv_cache.default_folder() == tmp_path / "kv"
    monkeypatch.setenv("FSMDIAL_KV_CACHE", "off")
    assert kv_cache.default_folder() is None
    monkeypatch.delenv("FSMDIAL_KV_CACHE")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert kv_cache.default_folder() == tmp_path / "fsmdial" / "kv"


def test_models_cache_lists_and_clears(tiny, tmp_path):
    u = understander(tiny, tmp_path)
    logits_after(u, "ride_change.json", "hi")
    env = {"FSMDIAL_KV_CACHE": str(tmp_path), "PATH": "/usr/bin:/bin"}
    command = [sys.executable, "-m", "fsmdial.cli", "models", "cache"]
    listed = subprocess.run(command, capture_output=True, text=True, check=True, cwd=REPO, env=env, timeout=120)
    assert str(tmp_path) in listed.stdout and "fsmdial-tiny.gguf" in listed.stdout and "1 file" in listed.stdout
    cleared = subprocess.run(
        [*command, "--clear"], capture_output=True, text=True, check=True, cwd=REPO, env=env, timeout=120
    )
    assert "deleted 1 file" in cleared.stdout
    assert not list(tmp_path.glob("*.kv"))


def test_a_folder_that_cannot_be_written_only_costs_the_evaluation(tiny, tmp_path):
    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder")
    u = understander(tiny, blocked)
    logits, evaluated = logits_after(u, "ride_change.json", "Jane Doe")
    assert u.model.prefix_counts["evaluated"] == 1 and evaluated > 100
    again = understander(tiny, blocked)
    assert np.array_equal(logits_after(again, "ride_change.json", "Jane Doe")[0], logits)
    assert blocked.read_text() == "not a folder"
