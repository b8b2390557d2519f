"""The harness's modules keep the engine's rules (tests/test_module_hygiene.py): none over 800 lines, no import of
another module's private name (the engine's included), no import cycle. Read from the source with ``ast``: every
import statement counts, those inside functions too, except those under ``if TYPE_CHECKING:``."""

from __future__ import annotations

import ast
import graphlib
from pathlib import Path

import fsmdial_eval

PACKAGE = Path(fsmdial_eval.__file__).parent
MAX_MODULE_LINES = 800


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def imports(name: str) -> list[tuple[str, list[str], int]]:
    """(imported module, names taken from it, line) for every import that runs, in ``name``'s source."""
    path = MODULES[name]
    found: list[tuple[str, list[str], int]] = []

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and getattr(node.test, "id", getattr(node.test, "attr", "")) == "TYPE_CHECKING":
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import):
            found.extend((alias.name, [], node.lineno) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
            base = base[: len(base) - (node.level - 1)] if node.level else []
            target = ".".join([*base, node.module] if node.module else base) if node.level else node.module or ""
            found.append((target, [alias.name for alias in node.names], node.lineno))
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(ast.parse(path.read_text(encoding="utf-8")))
    return found


def test_the_walk_sees_the_harness():
    assert {"fsmdial_eval.star", "fsmdial_eval.sgd.tracking", "fsmdial_eval.importers.star"} <= set(MODULES)
    assert ("fsmdial_eval.importers.star_format", ["Overlay", "StarFormatError", "StarTask", "parse_condition"]) in [
        (target, names) for target, names, _ in imports("fsmdial_eval.importers.star_graph")
    ]


def test_no_module_holds_more_than_one_screenful_of_jobs():
    long = {
        name: n
        for name, path in MODULES.items()
        if (n := len(path.read_text(encoding="utf-8").splitlines())) > MAX_MODULE_LINES
    }
    assert long == {}


def test_no_module_imports_a_private_name_of_another():
    offences = [
        f"{MODULES[name].relative_to(PACKAGE.parent)}:{line}: from {target} import {private}"
        for name in MODULES
        for target, names, line in imports(name)
        if target.split(".")[0] in ("fsmdial", "fsmdial_eval") and target != name
        for private in names
        if private.startswith("_") and not (private.startswith("__") and private.endswith("__"))
    ]
    assert offences == []


def test_no_import_cycle():
    graph = {
        name: {
            candidate
            for target, names, _ in imports(name)
            for candidate in [target, *(f"{target}.{n}" for n in names)]
            if candidate in MODULES and candidate != name
        }
        for name in MODULES
    }
    graphlib.TopologicalSorter(graph).prepare()  # CycleError names the modules of a cycle
