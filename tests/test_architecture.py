"""The module rules of ARCHITECTURE.md: no import cycle among the engine's modules, no private names imported."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "fsmdial"
ENGINE = ("runtime", "turn", "steps", "actions", "tables", "session", "restoring", "machine", "responses", "trace", "assistant",
          "conversation", "store", "language.sentences", "eval.star", "eval.forcing", "eval.oracle", "eval.simulator",
          "eval.predicates",
          "flow.nodes", "flow.graph", "flow.checks", "flow.document", "flow.lint", "patterns")  # fmt: skip
FLOW_LAYERS = ("patterns", "flow.graph", "flow.nodes", "flow.checks", "flow.document", "flow.lint")
"""The flow format's modules, each importing (at run time) only modules listed before it."""


def module_imports(name: str) -> list[tuple[str, list[str]]]:
    """(imported fsmdial module, names) for every import at module level (lazy imports in functions excluded)."""
    path = PACKAGE / (name.replace(".", "/") + ".py")
    tree = ast.parse(path.read_text())
    package = name.rpartition(".")[0].split(".") if "." in name else []
    out = []
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.level:
            base = package[: len(package) - (node.level - 1)] if node.level > 1 else package
            target = ".".join(base + ([node.module] if node.module else []))
            out.append((target, [alias.name for alias in node.names]))
    return out


@pytest.mark.parametrize("name", ENGINE)
def test_no_private_name_is_imported_from_another_module(name: str) -> None:
    private = [(target, n) for target, names in module_imports(name) for n in names if n.startswith("_")]
    assert private == []


def test_the_engine_modules_import_each_other_without_a_cycle() -> None:
    graph = {name: {target for target, _ in module_imports(name) if target in ENGINE} for name in ENGINE}
    assert {"turn", "steps", "session"} <= graph["runtime"] and "runtime" in graph["eval.star"]
    assert "eval.forcing" in graph["eval.star"] and graph["conversation"] == {"trace"}
    done: set[str] = set()

    def visit(name: str, path: tuple[str, ...]) -> None:
        assert name not in path, f"import cycle: {' -> '.join(path + (name,))}"
        if name in done:
            return
        for target in graph[name]:
            visit(target, path + (name,))
        done.add(name)

    for name in ENGINE:
        visit(name, ())


def test_the_flow_modules_import_only_downward() -> None:
    # The model never imports its checks; the checks name Flow only for the type checker, so the
    # document (which runs them on validation) is the one module that imports both.
    upward = {
        name: sorted({target for target, _ in module_imports(name)} & set(FLOW_LAYERS[index:]))
        for index, name in enumerate(FLOW_LAYERS)
    }
    assert upward == {name: [] for name in FLOW_LAYERS}
    assert "flow.checks" in {target for target, _ in module_imports("flow.document")}
    assert {target for target, _ in module_imports("patterns")} == set()


def test_the_command_line_lists_every_group_it_has() -> None:
    # The groups are imported by name in cli/__init__.py (no import loop): a group module left out of
    # that list would have its commands silently missing.
    listed = {name for target, names in module_imports("cli.__init__") if target == "cli" for name in names}
    modules = {path.stem for path in (PACKAGE / "cli").glob("*.py")} - {"__init__", "__main__", "common"}
    assert listed == modules
