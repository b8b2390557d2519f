"""``fsmdial loadtest``: simulated users against several ``fsmdial serve`` processes, on loopback, with faults.

    fsmdial loadtest --users 40 --workers 2 --kill-worker
    fsmdial loadtest --users 20 --workers 2 --llama-server llama-server --model models/x.gguf --model-outage 3

What runs (every process is this machine's, bound to 127.0.0.1, and stopped at the end):

* ``--workers`` M ``fsmdial serve`` processes, each on a port of its own, on one
  flow (restaurant booking, the copy in the package's ``loadtest_data``), one
  store (``--store``, an SQLite file by default)
  and one understander: the rules, a model server named by ``--model-server``
  (loopback), or a ``llama-server`` this command starts (``--llama-server BIN
  --model GGUF``), which it can then stop and restart;
* ``--users`` N simulated users, N threads, for ``--sessions`` sessions in
  all: a user opens a session on a worker and says the user turns of one of
  the customer suite's restaurant bookings (the package's
  ``loadtest_data/bookings.json``, taken from ``tests/data/customer_conversations/suite.jsonl``), then
  opens the next session; each request goes to the next worker (round robin);
* faults (optional): ``--kill-worker`` sends SIGKILL to a worker while a turn
  is in flight on it and starts it again a second later; ``--model-outage S``
  kills the model server for S seconds and starts it again.

The client is what a careful front end would be: a turn answered 503 (the
model server or the store is unavailable: the turn was rolled back) is sent again after a pause;
a turn whose answer never came (its worker died, or the request timed out) is
looked up on another worker first (the session's event count says whether it
was committed; after a timeout, for as long again) and sent again only if it
was not. That is as far as a client can go: a turn still queued on a live
worker after all that is applied twice (``fsmdial serve`` takes no turn id to
answer a repeated request from), and the check below counts it. Nothing else
is retried; a 422 is a turn the engine refused (counted, not retried).

Checked at the end, on the store, through a worker (the one restarted, if one was):

* **lost turns**: turns a user was told were done that the session does not hold;
* **repeated turns**: user turns the session holds more often than they were sent;
* **repeated side effects**: bookings the tool made (its ledger file) beyond
  those the committed turns record (a tool that ran in a turn killed before
  its commit, then ran again when the turn was sent again);
* **unresumable sessions**: sessions a worker cannot load and show.

The flow and the users' words are package data, so the command runs from any
directory; the children import the same fsmdial as the command itself.

Figures: turns/s over the run, p50/p95/p99 of the turn latency as the user saw
it (retries included), errors by kind. Bounded: ``--duration`` caps the run
(users stop starting turns), every request has a timeout.
"""

from __future__ import annotations

import contextlib
import http.client
import itertools
import math
import os
import random
import signal
import site
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

import orjson

from ..errors import FsmdialError
from ..stores.secrets import shown_url
from ..tools import ToolRegistry


class LoadTestError(FsmdialError):
    """``fsmdial loadtest`` cannot run as asked: an address that is not loopback, a store URL of no known kind, a
    process (a worker, the model server) that did not start; the message says which."""


LOOPBACK = "127.0.0.1"
DATA = "loadtest_data"
"""The package folder (of :mod:`fsmdial.serve`) holding the flow and the users' words."""
CONFLICTS = 1
"""A user gives a session up after this many 409 answers (its claim is held; see ``blocked_sessions``)."""
LEDGER_ENV = "FSMDIAL_LOADTEST_LEDGER"
"""The file the load test's ``book_table`` appends one line to per call (its side effect)."""


# ---------------------------------------------------------------- the tool


def book_table(**arguments: Any) -> dict[str, Any]:
    """A booking whose side effect is a line in the ledger file (``$FSMDIAL_LOADTEST_LEDGER``)."""
    line = orjson.dumps(arguments, default=str) + b"\n"
    fd = os.open(os.environ[LEDGER_ENV], os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        os.write(fd, line)  # one write of a short line to an O_APPEND file: never interleaved with another's
    finally:
        os.close(fd)
    return {"booked": True, "reference": f"R{abs(hash(line)) % 100000:05d}"}


TOOLS = ToolRegistry()
TOOLS.register("book_table", book_table)


# ---------------------------------------------------------------- processes


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((LOOPBACK, 0))
        port: int = probe.getsockname()[1]
        return port


def wait_http(port: int, path: str, process: subprocess.Popen[bytes], timeout: float) -> None:
    """Until ``GET path`` answers 200 on ``port``; :class:`LoadTestError` if the process ends or time runs out."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise LoadTestError(f"{shown_command(process.args)} exited with {process.returncode}")
        with contextlib.suppress(OSError, http.client.HTTPException):
            connection = http.client.HTTPConnection(LOOPBACK, port, timeout=2)
            connection.request("GET", path)
            if connection.getresponse().status == 200:
                connection.close()
                return
            connection.close()
        time.sleep(0.1)
    raise LoadTestError(f"nothing answered GET {path} on port {port} within {timeout:g} s")


def shown_command(args: Any) -> str:
    """A child's command line as messages show it: a store URL in it masked (:func:`~fsmdial.stores.shown_url`)."""
    return " ".join(shown_url(arg) if "://" in arg or "=" in arg else arg for arg in map(str, args))


@dataclass
class Process:
    """A child process started from ``command``, restartable, answering ``GET ready`` on ``port`` when up."""

    command: list[str]
    port: int
    ready: str
    env: dict[str, str] | None = None
    log: Path | None = None
    startup: float = 120.0
    process: subprocess.Popen[bytes] | None = None
    restarts: int = 0

    def start(self) -> None:
        if self.process is not None:
            self.restarts += 1
        if self.log is None:
            self.process = subprocess.Popen(
                self.command, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT, env=self.env
            )
        else:
            with self.log.open("ab") as out:  # the child keeps its own copy of the descriptor
                self.process = subprocess.Popen(self.command, stdout=out, stderr=subprocess.STDOUT, env=self.env)
        wait_http(self.port, self.ready, self.process, self.startup)

    def kill(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait()

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()


def llama_server_command(binary: str, model: str, port: int, *, slots: int = 2, n_ctx: int = 4096) -> list[str]:
    """``llama-server`` on loopback for ``model``: ``slots`` parallel sequences of ``n_ctx`` tokens each.

    ``--no-repack`` keeps the weights in plain CPU buffers, as the in-process
    model loads them (:func:`fsmdial.understand.decoding.llama_model.plain_cpu_buffers`),
    and ``--flash-attn off`` computes attention as llama-cpp-python does by
    default (llama-server's ``auto`` turns flash attention on for the CPU):
    the same kernels, the same logits. One thread per slot at most.
    """
    return [
        binary,
        "--model",
        model,
        "--host",
        LOOPBACK,
        "--port",
        str(port),
        "--parallel",
        str(slots),
        "--ctx-size",
        str(n_ctx * slots),
        "--threads",
        "1",
        "--threads-batch",
        "1",
        "--no-repack",
        "--flash-attn",
        "off",
        "--no-webui",
        "--seed",
        "0",
    ]


def import_path() -> dict[str, str]:
    """``PYTHONPATH`` for the children, so they import this very fsmdial: the folder it is imported from, unless that
    is a site-packages folder the interpreter searches anyway (put first, it would shadow the standard library)."""
    here = str(Path(__file__).resolve().parents[2])
    if here in {str(Path(p).resolve()) for p in [*site.getsitepackages(), site.getusersitepackages()]}:
        return {}
    return {"PYTHONPATH": os.pathsep.join(filter(None, [here, os.environ.get("PYTHONPATH")]))}


def store_options(store: str) -> list[str]:
    """``fsmdial serve``'s options for the store URL ``store`` (``sqlite:///PATH``, or a PostgreSQL URL)."""
    if store.startswith("sqlite:///"):
        return ["--db", store[len("sqlite:///") :]]
    if store.startswith(("postgresql://", "postgres://")):
        return ["--store", store]
    raise LoadTestError(f"store URL {shown_url(store)!r}: expected sqlite:///PATH or postgresql://...")


def loopback_url(url: str) -> str:
    host = urllib.parse.urlsplit(url).hostname
    if host not in ("127.0.0.1", "localhost", "::1"):
        raise LoadTestError(f"{url}: the load test runs on loopback only (127.0.0.1, localhost, ::1)")
    return url


# ---------------------------------------------------------------- users


def data_file(name: str) -> Path:
    """A file of the package's load-test data, on disk (the ``fsmdial serve`` children read the flow by its path)."""
    path = Path(str(resources.files(__package__).joinpath(DATA, name)))
    if not path.is_file():
        raise LoadTestError(f"the load test's data file {path} is missing: reinstall fsmdial")
    return path


def flow_path() -> Path:
    """The flow the workers serve: the restaurant booking (the repository's ``flows/restaurant_booking.json``)."""
    return data_file("restaurant_booking.json")


def conversations() -> list[list[str]]:
    """The user turns of each of the customer suite's restaurant bookings, one list per conversation."""
    data = orjson.loads(data_file("bookings.json").read_bytes())
    return [list(turns) for turns in data["conversations"]]


class Client:
    """JSON over HTTP to the workers, round robin."""

    def __init__(self, ports: Sequence[int], timeout: float):
        self.ports = list(ports)
        self.timeout = timeout
        self._next = itertools.count()
        self.in_flight: Counter[int] = Counter()
        self.down: dict[int, float] = {}
        """Workers that failed to answer, until when they are skipped."""
        self._lock = threading.Lock()

    def port(self) -> int:
        """The next worker, round robin, skipping for a second one that just failed to answer."""
        now = time.monotonic()
        for _ in range(len(self.ports)):
            port = self.ports[next(self._next) % len(self.ports)]
            if self.down.get(port, 0.0) <= now:
                return port
        return port

    def call(self, port: int, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        """(status, decoded body); OSError/HTTPException when the worker does not answer.

        A connection per request: a kept-alive one that the worker closed while idle would fail the next request
        as if the worker had died.
        """
        connection = http.client.HTTPConnection(LOOPBACK, port, timeout=self.timeout)
        data = None if body is None else orjson.dumps(body)
        headers = {"content-type": "application/json"} if data is not None else {}
        with self._lock:
            self.in_flight[port] += 1
        try:
            connection.request(method, path, body=data, headers=headers)
            response = connection.getresponse()
            payload = response.read()
        except (OSError, http.client.HTTPException):
            self.down[port] = time.monotonic() + 1.0
            raise
        finally:
            connection.close()
            with self._lock:
                self.in_flight[port] -= 1
        return response.status, orjson.loads(payload) if payload else None


@dataclass
class UserLog:
    session: str | None = None
    acknowledged: list[str] = field(default_factory=list)
    latencies: list[float] = field(default_factory=list)
    rejected: int = 0
    blocked: bool = False
    """Left after :data:`CONFLICTS` answers 409: the session's claim is held by a turn that never ends."""
    errors: Counter[str] = field(default_factory=Counter)


def run_user(client: Client, turns: Sequence[str], deadline: float, log: UserLog) -> None:
    """One simulated user: open a session, say ``turns`` one by one (see the module docstring for retries)."""
    while log.session is None:
        if time.monotonic() > deadline:
            return
        try:
            status, view = client.call(client.port(), "POST", "/sessions", {})
        except (OSError, http.client.HTTPException) as exc:
            log.errors[f"create: {type(exc).__name__}"] += 1
            time.sleep(0.2)
            continue
        if status != 201:
            log.errors[f"create: HTTP {status}"] += 1
            time.sleep(0.2)
            continue
        log.session, events = view["id"], view["events"]
    for text in turns:
        if time.monotonic() > deadline:
            return
        started = time.monotonic()
        done = False
        while not done and time.monotonic() < deadline + 60:
            port = client.port()
            try:
                status, view = client.call(port, "POST", f"/sessions/{log.session}/turns", {"text": text})
            except (OSError, http.client.HTTPException) as exc:
                log.errors[f"turn: {type(exc).__name__}"] += 1
                # Did the worker commit it? A worker that timed out may still be running it: wait for it as long.
                found = committed_events(client, log.session, log.errors)
                patience = time.monotonic() + (client.timeout if isinstance(exc, TimeoutError) else 0.0)
                while found is not None and found <= events and time.monotonic() < patience:
                    time.sleep(0.5)
                    found = committed_events(client, log.session, log.errors)
                if found is None:
                    break
                if found > events:
                    log.acknowledged.append(text)
                    log.latencies.append(time.monotonic() - started)
                    events, done = found, True
                continue
            if status == 200:
                log.acknowledged.append(text)
                log.latencies.append(time.monotonic() - started)
                events, done = view["events"], True
            elif status == 422:
                log.rejected += 1
                done = True
            elif status == 409 and log.errors["turn: HTTP 409"] >= CONFLICTS:
                log.errors["turn: HTTP 409"] += 1
                log.blocked = True  # a claim still held (a killed worker's, until its lease lapses): give up
                return
            else:  # 503: the model server or the store is unavailable, nothing was changed; 409: claimed; try again
                log.errors[f"turn: HTTP {status}"] += 1
                time.sleep(0.5)
        if not done:
            return


def committed_events(client: Client, session: str, errors: Counter[str]) -> int | None:
    """The session's event count, asked of any worker that answers (None if none does for 30 s)."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            status, view = client.call(client.port(), "GET", f"/sessions/{session}")
        except (OSError, http.client.HTTPException):
            time.sleep(0.2)
            continue
        if status == 200:
            return int(view["events"])
        errors[f"view: HTTP {status}"] += 1
        time.sleep(0.2)
    return None


# ---------------------------------------------------------------- the run


@dataclass
class Options:
    users: int = 20
    sessions: int = 40
    """Sessions in all: each user opens one after the other until they are all done (or time is up)."""
    workers: int = 2
    store: str | None = None
    """Store URL (default: an SQLite file in the run's directory)."""
    model_server: str | None = None
    llama_server: str | None = None
    model: str | None = None
    slots: int = 2
    duration: float = 120.0
    kill_worker: bool = False
    model_outage: float = 0.0
    timeout: float = 120.0
    seed: int = 0
    directory: Path | None = None

    def problems(self) -> list[str]:
        """What makes these options unable to run (``fsmdial loadtest`` refuses the same as usage errors)."""
        found = [f"{name} must be at least 1, not {value}" for name, value in self.counts().items() if value < 1]
        for name, value in {"duration": self.duration, "timeout": self.timeout}.items():
            if not (math.isfinite(value) and value > 0):
                found.append(f"{name} must be a number of seconds above 0, not {value}")
        if not (math.isfinite(self.model_outage) and self.model_outage >= 0):
            found.append(f"model_outage must be a number of seconds, 0 or more, not {self.model_outage}")
        return found

    def counts(self) -> dict[str, int]:
        return {"users": self.users, "sessions": self.sessions, "workers": self.workers, "slots": self.slots}


def percentile(values: Sequence[float], share: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


@contextlib.contextmanager
def started(processes: Sequence[Process]) -> Iterator[None]:
    try:
        for process in processes:
            process.start()
        yield
    finally:
        for process in processes:
            process.stop()


def run(options: Options) -> dict[str, Any]:
    """Run the load test; returns its figures and checks (see the module docstring). Raises :class:`LoadTestError`
    for options that cannot run (no worker, no user...)."""
    problems = options.problems()
    if problems:
        raise LoadTestError("; ".join(problems))
    with contextlib.ExitStack() as stack:
        directory = options.directory or Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="fsmdial-load-")))
        return _run(options, directory)
    raise AssertionError("unreachable")  # pragma: no cover


def _run(options: Options, directory: Path) -> dict[str, Any]:
    rng = random.Random(options.seed)
    store = options.store or f"sqlite:///{directory / 'sessions.db'}"
    ledger = directory / "ledger.jsonl"
    ledger.touch()
    env = {**os.environ, LEDGER_ENV: str(ledger), **import_path()}
    model_process: Process | None = None
    model_url = options.model_server
    if options.llama_server:
        if not options.model:
            raise LoadTestError("--llama-server needs --model GGUF")
        port = free_port()
        command = llama_server_command(options.llama_server, options.model, port, slots=options.slots)
        model_process = Process(command, port, "/health", log=directory / "llama-server.log")
        model_url = f"http://{LOOPBACK}:{port}"
    if model_url:
        loopback_url(model_url)
    if options.model_outage and model_process is None:
        raise LoadTestError("--model-outage needs a model server this command starts (--llama-server)")
    flow = str(flow_path())
    workers = []
    for index in range(options.workers):
        port = free_port()
        command = [sys.executable, "-m", "fsmdial", "serve", flow, *store_options(store), "--port", str(port)]
        command += ["--tools", "fsmdial.serve.loadtest:TOOLS"]
        if model_url:
            command += ["--model-server", model_url]
        workers.append(Process(command, port, "/flows", env=env, log=directory / f"worker-{index}.log"))
    scripts = conversations()
    faults: list[str] = []
    with started([*([model_process] if model_process else []), *workers]):
        client = Client([worker.port for worker in workers], options.timeout)
        logs = [UserLog() for _ in range(options.sessions)]
        deadline = time.monotonic() + options.duration
        tickets = iter(range(options.sessions))
        taking = threading.Lock()

        def user() -> None:
            while time.monotonic() < deadline:
                with taking:
                    index = next(tickets, None)
                if index is None:
                    return
                run_user(client, scripts[index % len(scripts)], deadline, logs[index])

        threads = [threading.Thread(target=user, daemon=True) for _ in range(options.users)]
        began = time.monotonic()
        for thread in threads:
            thread.start()
        injector = threading.Thread(
            target=inject_faults, args=(options, client, workers, model_process, threads, faults, rng), daemon=True
        )
        injector.start()
        for thread in threads:
            thread.join(options.duration + 120)
        elapsed = time.monotonic() - began
        injector.join(60)
        restarted = next((worker.port for worker in workers if worker.restarts), None)
        checks = check(client, logs, ledger, restarted)
    latencies = [latency for log in logs for latency in log.latencies]
    errors: Counter[str] = Counter()
    for log in logs:
        errors.update(log.errors)
    turns = len(latencies)
    return {
        "users": options.users,
        "sessions_planned": options.sessions,
        "workers": options.workers,
        "store": store.split("://")[0],
        "understander": "model server" if model_url else "rules",
        "sessions": sum(1 for log in logs if log.session),
        "turns": turns,
        "seconds": round(elapsed, 2),
        "turns_per_second": round(turns / elapsed, 2) if elapsed else 0.0,
        "latency_ms": {
            "p50": round(1000 * percentile(latencies, 0.50), 1),
            "p95": round(1000 * percentile(latencies, 0.95), 1),
            "p99": round(1000 * percentile(latencies, 0.99), 1),
            "mean": round(1000 * statistics.fmean(latencies), 1) if latencies else 0.0,
        },
        "rejected_turns": sum(log.rejected for log in logs),
        "blocked_sessions": sum(log.blocked for log in logs),
        "errors": dict(errors),
        "faults": faults,
        **checks,
    }


def inject_faults(
    options: Options,
    client: Client,
    workers: Sequence[Process],
    model_process: Process | None,
    users: Sequence[threading.Thread],
    faults: list[str],
    rng: random.Random,
) -> None:
    """Kill a worker mid-turn and restart it; take the model server away for a while (as the options ask)."""

    def running() -> bool:
        return any(thread.is_alive() for thread in users)

    def busy(ports: Sequence[int]) -> bool:
        """Wait (10 s at most) until a turn is in flight on one of ``ports``; whether one is."""
        waited = time.monotonic() + 10
        while not any(client.in_flight[port] for port in ports) and time.monotonic() < waited and running():
            time.sleep(0.001)
        return any(client.in_flight[port] for port in ports)

    # Faults strike while turns run, however quickly the users get through their conversations.
    if options.kill_worker and running():
        victim = rng.randrange(len(workers))
        worker = workers[victim]
        mid = busy([worker.port])
        worker.kill()
        faults.append(f"SIGKILL worker {victim} ({'a turn in flight' if mid else 'idle'})")
        time.sleep(1.0)
        worker.start()
        faults.append(f"worker {victim} restarted")
    if options.model_outage and model_process is not None and running():
        busy([worker.port for worker in workers])
        model_process.kill()
        faults.append(f"SIGKILL model server, down for {options.model_outage:g} s")
        time.sleep(options.model_outage)
        model_process.start()
        faults.append("model server restarted")


def check(client: Client, logs: Sequence[UserLog], ledger: Path, restarted: int | None) -> dict[str, Any]:
    """Lost and repeated turns, repeated side effects, unresumable sessions (see the module docstring)."""
    lost = repeated = unresumable = booked = 0
    port = client.ports[-1] if restarted is None else restarted
    for log in logs:
        if log.session is None:
            continue
        try:
            status, view = client.call(port, "GET", f"/sessions/{log.session}")
        except (OSError, http.client.HTTPException):
            status, view = 0, None
        if status != 200:
            unresumable += 1
            lost += len(log.acknowledged)
            continue
        said = [turn["user"] for turn in view["turns"] if turn["user"] is not None]
        stored, sent = Counter(said), Counter(log.acknowledged)
        lost += sum((sent - stored).values())
        repeated += sum((stored - sent).values())
        booked += sum(
            1
            for turn in view["turns"]
            for call in turn["tool_calls"]
            if call.get("tool") == "book_table" and call.get("status") == "success"
        )
    calls = sum(1 for line in ledger.read_bytes().splitlines() if line.strip())
    return {
        "lost_turns": lost,
        "repeated_turns": repeated,
        "bookings_committed": booked,
        "bookings_made": calls,
        "repeated_side_effects": max(0, calls - booked),
        "unresumable_sessions": unresumable,
    }


def report(figures: dict[str, Any]) -> str:
    """The figures as a few lines of text."""
    latency = figures["latency_ms"]
    lines = [
        f"{figures['users']} users, {figures['sessions_planned']} sessions planned, {figures['workers']} workers, "
        f"{figures['store']} store, {figures['understander']}",
        f"{figures['sessions']} sessions, {figures['turns']} turns in {figures['seconds']} s: "
        f"{figures['turns_per_second']} turns/s",
        f"turn latency ms: p50 {latency['p50']}  p95 {latency['p95']}  p99 {latency['p99']}  mean {latency['mean']}",
        f"rejected turns (422): {figures['rejected_turns']}; sessions given up on 409: {figures['blocked_sessions']}",
        f"errors (each retried): {figures['errors'] or 'none'}",
        f"faults: {'; '.join(figures['faults']) or 'none'}",
        f"lost turns {figures['lost_turns']}, repeated turns {figures['repeated_turns']}, "
        f"repeated side effects {figures['repeated_side_effects']} "
        f"(bookings made {figures['bookings_made']}, committed {figures['bookings_committed']}), "
        f"unresumable sessions {figures['unresumable_sessions']}",
    ]
    return "\n".join(lines)
