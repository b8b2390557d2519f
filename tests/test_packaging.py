"""What an install gives: the public API from ``fsmdial``, the rules path with no model library, and a
clear error naming the extra to install when an optional part is used without its dependencies.

A missing dependency is simulated in a fresh interpreter with ``sys.modules[name] = None`` (then
``import name`` raises ImportError, as when the package is not installed).
"""

from __future__ import annotations

import ast
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import fsmdial
from fsmdial.errors import FsmdialError, MissingExtraError, ModelError
from tests.conftest import FLOWS, REPO

HEAVY = ("llama_cpp", "llguidance", "outlines", "outlines_core", "numba", "numpy", "jinja2", "gguf", "tqdm")
"""Libraries of the extras: the engine with the rules understander must not load any of them."""


def python(code: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=120,
    )


# ----------------------------------------------------------------- public API

MAX_EXPORTS = 30
"""The most names ``fsmdial`` exports (issue 32): the engine's API and its errors' main branches."""


def test_every_public_name_is_importable_from_fsmdial():
    for name in [*fsmdial.__all__, *fsmdial.OPTIONAL]:
        assert getattr(fsmdial, name) is not None, name
    assert {
        "Dialogue",
        "Assistant",
        "SQLiteStore",
        "open_store",
        "load_flow",
        "compile_flow",
        "Flow",
        "ToolRegistry",
        "TurnResult",
        "RulesUnderstander",
        "FsmdialError",
        "MissingExtraError",
    } <= set(fsmdial.__all__)
    assert fsmdial.OPTIONAL == {"GGUFUnderstander"}
    assert {*fsmdial.__all__, *fsmdial.OPTIONAL} <= set(dir(fsmdial))
    assert len(set(fsmdial.__all__)) == len(fsmdial.__all__)
    # Every lazy name is public: in __all__, or optional (needs an extra, so kept out of `import *`).
    assert {*fsmdial.__all__, *fsmdial.OPTIONAL} == {*fsmdial._EXPORTS, "__version__"}
    assert not fsmdial.OPTIONAL & set(fsmdial.__all__)


def test_the_public_surface_is_small():
    assert len(fsmdial._EXPORTS) <= MAX_EXPORTS
    # The tools around the engine are not in it: they have their own homes.
    tooling = (
        "fsmdial.serve",
        "fsmdial.testing",
        "fsmdial.eval",
        "fsmdial.importers",
        "fsmdial.cli",
        "fsmdial.scaffold",
    )
    assert [name for name, module in fsmdial._EXPORTS.items() if module.startswith(tooling)] == []
    assert not {"SessionStore", "LoadTestError", "SuiteError", "StarFormatError", "ServeError"} & set(dir(fsmdial))


def test_the_public_names_are_written_once():
    # The `if TYPE_CHECKING:` imports are the one list: type checkers read them as Python parses them, and
    # fsmdial reads them as text (fsmdial._exports) for __all__, __dir__ and the lazy imports. Both readings agree.
    tree = ast.parse(Path(fsmdial.__file__).read_text(encoding="utf-8"))
    block = next(
        node for node in tree.body if isinstance(node, ast.If) and getattr(node.test, "id", "") == "TYPE_CHECKING"
    )
    assert all(isinstance(node, ast.ImportFrom) and node.level == 1 for node in block.body)
    imported = {alias.asname or alias.name: f"fsmdial.{node.module}" for node in block.body for alias in node.names}
    assert all(alias.asname == alias.name for node in block.body for alias in node.names)  # each one an export
    assert imported == fsmdial._EXPORTS
    assert {*fsmdial.__all__} == {*fsmdial._EXPORTS, "__version__"} - fsmdial.OPTIONAL
    assert "_EXPORTS = {" not in Path(fsmdial.__file__).read_text(encoding="utf-8")  # no second, hand-kept list


def test_public_names_are_the_objects_of_their_modules():
    from fsmdial.runtime import Dialogue
    from fsmdial.stores import SQLiteStore, open_store
    from fsmdial.understand.rules import RulesUnderstander

    assert fsmdial.Dialogue is Dialogue and fsmdial.SQLiteStore is SQLiteStore and fsmdial.open_store is open_store
    assert fsmdial.RulesUnderstander is RulesUnderstander


def test_every_exported_error_is_an_fsmdial_error():
    errors = [getattr(fsmdial, n) for n in fsmdial.__all__ if n.endswith(("Error", "Timeout")) or n == "UnknownSession"]
    assert len(errors) >= 12 and all(issubclass(e, FsmdialError) for e in errors)


def test_an_unknown_name_is_an_attribute_error():
    with pytest.raises(AttributeError, match="no attribute 'Dialog'"):
        fsmdial.Dialog  # noqa: B018


def test_import_fsmdial_loads_nothing_but_the_package():
    done = python(
        """
        import sys
        import fsmdial
        loaded = sorted(m for m in sys.modules if m.startswith("fsmdial."))
        print(loaded, fsmdial.__version__)
        """
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"[] {fsmdial.__version__}"


def test_star_import_gives_the_public_api_without_any_extra():
    done = python(
        f"""
        import sys
        for name in {HEAVY!r}:
            sys.modules[name] = None
        from fsmdial import *
        print(Dialogue.__name__, RulesUnderstander.__name__, MissingExtraError.__name__)
        """
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["Dialogue", "RulesUnderstander", "MissingExtraError"]


# ------------------------------------------------- the rules path, no extras


def test_the_engine_and_the_rules_understander_load_no_extra():
    done = python(
        f"""
        import sys
        from fsmdial import Assistant, Dialogue, RulesUnderstander, SQLiteStore, load_flow
        import fsmdial.cli, fsmdial.testing.pytest_plugin, fsmdial.understand.decoding.backends

        dialogue = Dialogue(load_flow({str(FLOWS / "ride_change.json")!r}), understander=RulesUnderstander(),
                            stand_in_tools=True)
        dialogue.start()
        for text in ("hi, I'm Jane", "102", "pick me up at 7pm instead", "no thanks, bye"):
            dialogue.turn(text)
        print(dialogue.ended, sorted(m for m in {HEAVY!r} if m in sys.modules))
        """
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "True []"


def test_the_rules_path_runs_with_the_extras_hidden():
    # As after `pip install fsmdial`: every library of the extras missing.
    done = python(
        f"""
        import sys
        for name in {HEAVY!r}:
            sys.modules[name] = None
        from fsmdial.cli import main
        sys.exit(
            main(["validate", {str(FLOWS / "ride_change.json")!r}])
            or main(["chat", {str(FLOWS / "ride_change.json")!r}])
        )
        """,
        stdin="Jane\n102\nchange the pickup time\nbye\n",
    )
    assert done.returncode == 0, done.stderr
    assert ": ok (" in done.stdout
    assert done.stdout.rstrip().endswith("bot: Goodbye. Enjoy your ride!")


# ------------------------------------------------------------ missing extras


def test_missing_extra_error_names_the_extra_and_the_module():
    cause = ModuleNotFoundError("No module named 'llama_cpp'", name="llama_cpp")
    error = MissingExtraError("gguf", "the gguf understander", cause)
    assert str(error) == "the gguf understander needs `pip install 'fsmdial[gguf]'` (No module named 'llama_cpp')"
    assert (error.extra, error.module) == ("gguf", "llama_cpp")
    assert isinstance(error, ImportError) and isinstance(error, ModelError)


HIDDEN_CASES = {
    "llama_cpp": ("llama_cpp", "import fsmdial; fsmdial.GGUFUnderstander", "gguf", "the gguf understander"),
    "numpy": ("numpy", "from fsmdial.understand.model.gguf import GGUFUnderstander", "gguf", "the gguf understander"),
    "llguidance": (
        "llguidance",
        "from fsmdial.understand.decoding.backends import backend; backend('llguidance').decoder_class()",
        "gguf",
        "the llguidance backend",
    ),
    "numba": (
        "numba",
        "from fsmdial.understand.decoding.backends import backend; backend('outlines').decoder_class()(object())",
        "outlines",
        "the outlines backend needs outlines, outlines-core and numba",
    ),
    "outlines": (
        "outlines",
        "from fsmdial.understand.decoding.outlines_backend import OutlinesDecoder; OutlinesDecoder(object())",
        "outlines",
        "the outlines backend needs outlines, outlines-core and numba",
    ),
}


@pytest.mark.parametrize("case", sorted(HIDDEN_CASES))
def test_a_missing_extra_is_a_typed_error_naming_it(case):
    hidden, statement, extra, needed_by = HIDDEN_CASES[case]
    done = python(
        f"""
        import sys
        sys.modules[{hidden!r}] = None
        from fsmdial.errors import MissingExtraError
        try:
            {statement}
        except MissingExtraError as exc:
            print(exc.extra)
            print(exc)
        else:
            print("no error")
        """
    )
    assert done.returncode == 0, done.stderr
    got_extra, message = done.stdout.strip().split("\n", 1)
    assert got_extra == extra
    assert message.startswith(needed_by) and f"`pip install 'fsmdial[{extra}]'`" in message, message


def test_the_cli_names_the_missing_extra():
    done = python(
        f"""
        import sys
        sys.modules["llama_cpp"] = None
        from fsmdial.cli import main
        sys.exit(main(["chat", {str(FLOWS / "ride_change.json")!r}, "--model", "model.gguf"]))
        """
    )
    assert done.returncode == 1
    assert "the gguf understander needs `pip install 'fsmdial[gguf]'`" in done.stderr


def test_require_names_the_extra_of_a_module_that_is_not_installed():
    from fsmdial.errors import MissingExtraError, require

    assert require("json", "eval", "a test").dumps([1]) == "[1]"
    with pytest.raises(MissingExtraError, match=r"fsmdial eval needs `pip install 'fsmdial\[eval\]'`") as caught:
        require("fsmdial_no_such_module", "eval", "fsmdial eval")
    assert caught.value.extra == "eval" and caught.value.module == "fsmdial_no_such_module"


# ------------------------------------------------------------------
# issue 22 #19, issue 32: the engine's errors live in fsmdial.errors, a tool's errors beside the tool

TOOLS = ("fsmdial.serve", "fsmdial.testing", "fsmdial.eval", "fsmdial.importers", "fsmdial.cli", "fsmdial.scaffold")
"""The packages around the engine: their errors live beside them, not in fsmdial.errors."""


def test_the_engine_s_errors_live_in_fsmdial_errors_and_a_tool_s_errors_beside_it():
    import importlib
    import inspect
    import pkgutil

    from fsmdial import errors

    homes = {}
    for module in pkgutil.walk_packages(fsmdial.__path__, "fsmdial."):
        if module.name.endswith("__main__"):
            continue
        try:
            loaded = importlib.import_module(module.name)
        except ImportError:
            continue  # an optional extra that is not installed
        for name, cls in vars(loaded).items():
            if inspect.isclass(cls) and issubclass(cls, FsmdialError) and not name.startswith("_"):
                homes[cls.__qualname__] = cls.__module__
    assert {name: home for name, home in homes.items() if home != "fsmdial.errors" and not home.startswith(TOOLS)} == {}
    assert {homes[name] for name in ("ServeError", "BadRequest", "UndoRefused", "LoadTestError", "SuiteError")} == {
        "fsmdial.serve.errors",
        "fsmdial.serve.loadtest",
        "fsmdial.testing.suites",
    }
    public = {
        name
        for name, cls in vars(errors).items()
        if inspect.isclass(cls) and issubclass(cls, Exception) and cls.__module__ == "fsmdial.errors"
    }
    assert public == set(errors.__all__) - {"FlowIssue"} and "FlowIssue" in errors.__all__
    exported = {name for name, module in fsmdial._EXPORTS.items() if module == "fsmdial.errors"}
    assert exported <= set(errors.__all__)
    for name in exported:
        assert getattr(fsmdial, name) is getattr(errors, name)
    from fsmdial.errors import SetupError, UnknownSession  # the names issue 22 found missing

    assert fsmdial.SetupError is SetupError and fsmdial.UnknownSession is UnknownSession


def test_the_tools_errors_keep_their_place_in_the_hierarchy():
    from fsmdial.serve.errors import (
        BadRequest,
        NotFound,
        NothingToUndo,
        RequestTooLarge,
        ServeError,
        SessionFull,
        UndoRefused,
        UnknownFlow,
        UnsupportedMediaType,
    )
    from fsmdial.serve.loadtest import LoadTestError
    from fsmdial.testing.suites import SuiteError

    assert ServeError.__bases__ == (FsmdialError,) and LoadTestError.__bases__ == (FsmdialError,)
    assert SuiteError.__bases__ == (FsmdialError, ValueError)
    assert all(error.__bases__ == (ServeError,) for error in (UnknownFlow, NothingToUndo, SessionFull, BadRequest))
    assert NotFound.__bases__ == (ServeError,) and UndoRefused.__bases__ == (NothingToUndo,)
    assert RequestTooLarge.__bases__ == (BadRequest,) and UnsupportedMediaType.__bases__ == (BadRequest,)


def test_the_serve_errors_import_without_the_serve_extra():
    done = python(
        """
        import sys
        for name in ("starlette", "uvicorn"):
            sys.modules[name] = None
        from fsmdial.serve.errors import BadRequest
        from fsmdial.serve.loadtest import LoadTestError
        print(BadRequest.__name__, LoadTestError.__name__)
        """
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["BadRequest", "LoadTestError"]


# ------------------------------------------------- the evaluation harness apart (issue 32)


def test_no_module_of_the_engine_imports_the_evaluation_harness():
    # The harness (fsmdial-eval, eval/) adds its commands through entry points (cli/common.py: installed_commands):
    # the engine names no module of it, lazily or not, so `pip install fsmdial` alone imports everything it has.
    package = Path(fsmdial.__file__).parent
    modules = sorted(package.rglob("*.py"))
    offences = []
    for path in modules:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""] if node.level == 0 else []
            elif isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(node.func, "id", None)) in (
                "import_module",
                "__import__",
            ):
                names = [arg.value for arg in node.args if isinstance(arg, ast.Constant) and isinstance(arg.value, str)]
            else:
                continue
            offences += [
                f"{path.relative_to(package)}:{node.lineno}: {n}" for n in names if n.startswith("fsmdial_eval")
            ]
    assert len(modules) > 50 and offences == []


def test_without_the_harness_eval_star_says_how_to_install_it():
    # As after `pip install fsmdial` alone: no distribution adds commands through the entry points.
    done = python(
        """
        import importlib.metadata, sys
        importlib.metadata.entry_points = lambda **_: importlib.metadata.EntryPoints(())
        from fsmdial.cli import main
        sys.exit(main(["eval", "star", "--limit", "2"]))
        """
    )
    assert done.returncode == 2, done.stderr
    assert "invalid choice: 'star'" in done.stderr and "evaluation harness, which is not installed" in done.stderr
    assert "pip install fsmdial-eval" in done.stderr and "Traceback" not in done.stderr
