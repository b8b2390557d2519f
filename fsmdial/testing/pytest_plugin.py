"""The fsmdial pytest plugin: test and benchmark an application's flows in a few lines.

Installed with fsmdial (entry point ``pytest11``), so an application's test suite gets:

* ``fsmdial_flow(path, format="auto")``: load and compile a flow (fsmdial's format or CHIEF);
  a relative path is looked up next to the test file first, then in the current directory;
* ``fsmdial_dialogue(flow, tools=..., understander=..., model=..., ...)``: a
  :class:`~fsmdial.runtime.Dialogue` with the frozen clock and the chosen understander: the rules
  understander unless a GGUF model is given (``model=``, ``--fsmdial-model PATH`` or
  ``FSMDIAL_MODEL``); ``understander="rules"`` pins the rules whatever is configured;
* ``fsmdial_clock``: a :class:`~fsmdial.testing.FrozenClock` (``.set(...)``, ``.advance(...)``);
* ``fsmdial_assistant(flows, ...)``: an :class:`~fsmdial.assistant.Assistant` on several flows, with the same
  tools, understander and clock as ``fsmdial_dialogue`` gives;
* ``fsmdial_conversation(dialogue)``: a :class:`~fsmdial.testing.ScriptedConversation` checking scripted turns
  (on a Dialogue or an Assistant);
* ``fsmdial_bench``: :func:`~fsmdial.testing.bench_turn` / :func:`~fsmdial.testing.bench_conversation`
  bound to pytest-benchmark's ``benchmark`` fixture (``fsmdial_bench.turn(...)``, ``.conversation(...)``);
* ``fsmdial_tools``: the tools ``fsmdial_dialogue`` uses when given none; override it in a conftest;
* ``fsmdial_config``: the model and backend chosen on the command line or in the environment.

Models are loaded once per test session and shared by the tests that use the same file and backend.

Files named ``test_*.conversations.json`` are collected too: each conversation in one is a test, played on the
file's flow (a Dialogue) or flows (an Assistant); see :mod:`fsmdial.testing.conversation_files`.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from ..understand.decoding.backends import BACKENDS  # the names only: importing it loads no backend
from .bench import Bench
from .clock import FrozenClock
from .conversation_files import CONVERSATION_FILE, ConversationFile, ConversationFileError, load_conversation_file
from .expectations import ExpectedTurn
from .script import ConversationMismatch, ScriptedConversation

if TYPE_CHECKING:
    from ..assistant import Assistant
    from ..conversation import Conversation
    from ..runtime import Dialogue
    from ..tables import FlowSource

MODEL_ENV = "FSMDIAL_MODEL"
BACKEND_ENV = "FSMDIAL_BACKEND"


@dataclass(frozen=True)
class FsmdialConfig:
    """The understanding the run asks for: a GGUF model (or None: rules) and a backend (None: default)."""

    model: Path | None
    backend: str | None
    model_source: str = ""

    @property
    def understander(self) -> str:
        if self.model is None:
            return "rules"
        return f"gguf model {self.model}" + (f" (backend {self.backend})" if self.backend else "")


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("fsmdial", "fsmdial flow tests")
    group.addoption(
        "--fsmdial-model",
        metavar="PATH",
        default=None,
        help=f"GGUF model the fsmdial_dialogue fixture understands users with (default: ${MODEL_ENV}, else rules)",
    )
    group.addoption(
        "--fsmdial-backend",
        choices=BACKENDS,
        default=None,
        help=f"constrained-decoding backend for --fsmdial-model (default: ${BACKEND_ENV}, else fsmdial's default)",
    )


def pytest_configure(config: pytest.Config) -> None:
    option = config.getoption("fsmdial_model", None)
    if option:
        path = Path(option).expanduser()
        if not path.is_absolute():
            path = Path(config.invocation_params.dir) / path
        if not path.is_file():
            raise pytest.UsageError(f"--fsmdial-model: no model file at {path}")
    env_backend = os.environ.get(BACKEND_ENV)
    if not config.getoption("fsmdial_backend", None) and env_backend and env_backend not in BACKENDS:
        raise pytest.UsageError(f"${BACKEND_ENV}={env_backend!r}: choose one of {', '.join(BACKENDS)}")


def _config(config: pytest.Config) -> FsmdialConfig:
    backend = config.getoption("fsmdial_backend", None) or os.environ.get(BACKEND_ENV) or None
    option = config.getoption("fsmdial_model", None)
    if option:
        path = Path(option).expanduser()
        return FsmdialConfig(
            path if path.is_absolute() else Path(config.invocation_params.dir) / path, backend, "--fsmdial-model"
        )
    env = os.environ.get(MODEL_ENV)
    if env:
        return FsmdialConfig(Path(env).expanduser(), backend, f"${MODEL_ENV}")
    return FsmdialConfig(None, backend)


def pytest_report_header(config: pytest.Config) -> str:
    return f"fsmdial: understander {_config(config).understander}"


# ------------------------------------------------------------------ fixtures


@pytest.fixture(scope="session")
def fsmdial_config(pytestconfig: pytest.Config) -> FsmdialConfig:
    """The model (or None for rules) and backend chosen by --fsmdial-model/--fsmdial-backend or the environment."""
    return _config(pytestconfig)


@pytest.fixture
def fsmdial_clock() -> FrozenClock:
    """A frozen clock (Friday 13 June 2025, noon, unless set): ``fsmdial_clock.set(...)``, ``.advance(days=1)``."""
    return FrozenClock()


@pytest.fixture
def fsmdial_tools() -> Any:
    """The tools ``fsmdial_dialogue`` uses when the test gives none. Override it in your conftest.py."""
    return None


@pytest.fixture(scope="session")
def _fsmdial_flows() -> dict[tuple[Any, ...], Any]:
    return {}


@pytest.fixture(scope="session")
def _fsmdial_models() -> Iterator[dict[tuple[str, str | None], Any]]:
    models: dict[tuple[str, str | None], Any] = {}
    yield models
    for understander in models.values():
        close = getattr(understander, "close", None)
        if callable(close):
            close()


@pytest.fixture
def fsmdial_flow(request: pytest.FixtureRequest, _fsmdial_flows: dict[tuple[Any, ...], Any]) -> Callable[..., Any]:
    """``fsmdial_flow(path, format="auto")``: the compiled flow class (compiled once per session).

    ``path`` relative to the test file's folder, else to the current directory; a dict or a
    :class:`~fsmdial.flow.Flow` works too. ``.FLOW`` on the result is the validated flow.
    """
    from ..runtime import flow_class

    base = Path(request.path).parent

    def load(source: Any, format: str = "auto") -> Any:
        from ..loader import load_flow

        if not isinstance(source, (str, os.PathLike)):
            return flow_class(load_flow(source, format=format))  # type: ignore[arg-type]
        path = Path(source).expanduser()
        if not path.is_absolute() and (base / path).exists():
            path = base / path
        path = path.resolve()
        try:
            key: tuple[Any, ...] = (str(path), format, path.stat().st_mtime_ns)
        except OSError:
            key = ()  # let load_flow report the missing file
        if key and key in _fsmdial_flows:
            return _fsmdial_flows[key]
        compiled = flow_class(load_flow(path, format=format))  # type: ignore[arg-type]
        if key:
            _fsmdial_flows[key] = compiled
        return compiled

    return load


@pytest.fixture
def fsmdial_understander(fsmdial_config: FsmdialConfig, _fsmdial_models: dict) -> Any:
    """The understander this run asks for: the configured GGUF model, or None (fsmdial's rules)."""
    if fsmdial_config.model is None:
        return None
    return _load_model(_fsmdial_models, fsmdial_config.model, fsmdial_config.backend, fsmdial_config.model_source)


def _load_model(cache: dict, path: Path, backend: str | None, source: str) -> Any:
    __tracebackhide__ = True
    key = (str(Path(path).expanduser().resolve()), backend)
    if key in cache:
        return cache[key]
    if not Path(key[0]).is_file():
        pytest.fail(f"fsmdial: no model file at {key[0]} (given by {source})", pytrace=False)
    try:
        from ..understand.model.gguf import GGUFUnderstander
    except ImportError as exc:
        pytest.fail(
            f"fsmdial: a model was requested ({source}) but the GGUF understander cannot be imported: {exc}",
            pytrace=False,
        )
    cache[key] = understander = GGUFUnderstander(key[0], backend=backend)
    return understander


def _choose_understander(
    understander: Any, model: str | os.PathLike[str] | None, backend: str | None, config: FsmdialConfig, models: dict
) -> Any:
    """The understander a test asks for (see ``fsmdial_dialogue``): an object as given, ``"rules"``, ``"model"``,
    a model file, or None (the configured model, else the rules)."""
    __tracebackhide__ = True
    if backend is not None and backend not in BACKENDS:
        raise ValueError(f"backend {backend!r}: choose one of {', '.join(BACKENDS)}")
    if model is not None:
        if understander is not None:
            raise ValueError("give either understander= or model=, not both")
        return _load_model(models, Path(model), backend or config.backend, "model=")
    if understander == "rules":
        return _rules()
    if understander == "model":
        if config.model is None:
            pytest.fail(f"fsmdial: understander='model' needs --fsmdial-model PATH or ${MODEL_ENV}", pytrace=False)
        return _load_model(models, config.model, backend or config.backend, config.model_source)
    if understander is None and config.model is not None:
        return _load_model(models, config.model, backend or config.backend, config.model_source)
    if isinstance(understander, str):
        raise ValueError(f"understander {understander!r}: give 'rules', 'model' or an Understander object")
    return understander


def _builder(
    make: Callable[..., Any],
    clock: FrozenClock,
    tools: Any,
    config: FsmdialConfig,
    models: dict,
) -> Callable[..., Any]:
    """``build(source, *, tools=None, understander=None, model=None, backend=None, clock=None, **kwargs)``:
    ``make(source, tools=..., understander=..., clock=..., **kwargs)`` with the fixtures' defaults filled in
    (what ``fsmdial_dialogue`` and ``fsmdial_assistant`` share)."""
    default_tools, default_clock = tools, clock

    def build(
        source: Any,
        *,
        tools: Any = None,
        understander: Any = None,
        model: str | os.PathLike[str] | None = None,
        backend: str | None = None,
        clock: Callable[[], Any] | None = None,
        **kwargs: Any,
    ) -> Any:
        __tracebackhide__ = True
        chosen = _choose_understander(understander, model, backend, config, models)
        tools = default_tools if tools is None else tools
        return make(source, tools=tools, understander=chosen, clock=clock or default_clock, **kwargs)

    return build


@pytest.fixture
def fsmdial_dialogue(
    fsmdial_flow: Callable[..., Any],
    fsmdial_clock: FrozenClock,
    fsmdial_tools: Any,
    fsmdial_config: FsmdialConfig,
    _fsmdial_models: dict,
) -> Callable[..., Any]:
    """``fsmdial_dialogue(flow, *, tools=None, understander=None, model=None, backend=None, clock=None, **kwargs)``.

    ``flow``: a path (as for ``fsmdial_flow``), a compiled class or a Flow. ``tools``: default
    the ``fsmdial_tools`` fixture. ``understander``: an Understander object, ``"rules"``, or
    ``"model"`` (the configured model, required); default: the configured model if any, else
    rules. ``model=PATH`` asks for that GGUF file (``backend`` picks its decoding backend).
    ``clock``: default the ``fsmdial_clock`` fixture. Other keywords go to ``Dialogue``.
    """
    from ..runtime import Dialogue

    def make(flow: FlowSource, **kwargs: Any) -> Dialogue:
        return Dialogue(fsmdial_flow(flow) if isinstance(flow, (str, os.PathLike)) else flow, **kwargs)

    return _builder(make, fsmdial_clock, fsmdial_tools, fsmdial_config, _fsmdial_models)


@pytest.fixture
def fsmdial_assistant(
    fsmdial_flow: Callable[..., Any],
    fsmdial_clock: FrozenClock,
    fsmdial_tools: Any,
    fsmdial_config: FsmdialConfig,
    _fsmdial_models: dict,
) -> Callable[..., Any]:
    """``fsmdial_assistant(flows, *, tools=None, understander=None, model=None, backend=None, clock=None,
    **kwargs)``: an :class:`~fsmdial.assistant.Assistant` on several flows, configured as ``fsmdial_dialogue``
    configures a Dialogue (the same tools, understander, model and clock for every flow).

    ``flows``: a list of paths (as for ``fsmdial_flow``), compiled classes or Flows. Other keywords
    (``greeting=``) go to ``Assistant``.
    """
    from ..assistant import Assistant

    def make(flows: Sequence[FlowSource], **kwargs: Any) -> Assistant:
        __tracebackhide__ = True
        if isinstance(flows, (str, os.PathLike)) or not isinstance(flows, Sequence):
            raise TypeError(f"fsmdial_assistant takes a list of flows, not {type(flows).__name__}")
        compiled = [fsmdial_flow(flow) if isinstance(flow, (str, os.PathLike)) else flow for flow in flows]
        return Assistant(compiled, **kwargs)

    return _builder(make, fsmdial_clock, fsmdial_tools, fsmdial_config, _fsmdial_models)


def _rules() -> Any:
    from ..understand.rules import RulesUnderstander

    return RulesUnderstander()


@pytest.fixture
def fsmdial_conversation() -> Callable[[Conversation], ScriptedConversation]:
    """``fsmdial_conversation(dialogue)``: a :class:`~fsmdial.testing.ScriptedConversation` (``.start``, ``.say``,
    ``.run``) on a Dialogue or an Assistant."""
    return ScriptedConversation


@pytest.fixture
def fsmdial_bench(benchmark: Any) -> Bench:
    """Benchmark helpers on this test's ``benchmark``: ``.turn(dialogue, text)``,
    ``.conversation(dialogue, script)``."""
    return Bench(benchmark)


# ------------------------------------------------------------------ conversation files


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    """``test_*.conversations.json`` files (:mod:`fsmdial.testing.conversation_files`): one test per conversation."""
    if CONVERSATION_FILE.match(file_path.name):
        collector: pytest.Collector = ConversationFileCollector.from_parent(parent, path=file_path)
        return collector
    return None


class ConversationFileCollector(pytest.File):
    """A conversation file: its conversations, each a test played on the file's flow or flows."""

    def collect(self) -> Iterator[pytest.Item]:
        try:
            read = load_conversation_file(self.path)
        except ConversationFileError as exc:
            raise self.CollectError(str(exc)) from None
        for name, turns in read.conversations.items():
            yield ConversationItem.from_parent(self, name=name, callobj=_conversation_test(read, turns))


class ConversationItem(pytest.Function):
    """One conversation of a file, a test function taking the plugin's fixtures (so a conftest's
    ``fsmdial_tools``, the run's model and the frozen clock apply as to a Python test)."""

    def reportinfo(self) -> tuple[Path, int | None, str]:
        return self.path, None, f"conversation {self.name!r}"

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException]) -> Any:  # type: ignore[override]
        if isinstance(excinfo.value, ConversationMismatch):  # it says everything: no traceback into the plugin
            return f"{self.path.name}, conversation {self.name!r}\n{excinfo.value}"
        return super().repr_failure(excinfo)


def _conversation_test(read: ConversationFile, turns: Sequence[ExpectedTurn]) -> Callable[..., None]:
    def play(fsmdial_dialogue: Callable[..., Any], fsmdial_assistant: Callable[..., Any], fsmdial_clock: FrozenClock):
        __tracebackhide__ = True
        if read.now is not None:
            fsmdial_clock.set(read.now)
        conversation: Conversation
        if read.assistant:
            extra = {} if read.greeting is None else {"greeting": read.greeting}
            conversation = fsmdial_assistant(list(read.flows), understander=read.understander, **extra)
        else:
            conversation = fsmdial_dialogue(read.flows[0], understander=read.understander)
        ScriptedConversation(conversation).run(turns)

    return play
