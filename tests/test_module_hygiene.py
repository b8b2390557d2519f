"""fsmdial's modules import no private name of another module, and import each other without cycles.

Read from the source with ``ast`` (no module is imported): every import
statement counts, those inside functions too (a lazy import is still a
dependency), except those under ``if TYPE_CHECKING:`` (never run), which only
the layers of ``fsmdial/understand/`` count too.
"""

from __future__ import annotations

import ast
import tomllib
from fnmatch import fnmatchcase
from pathlib import Path

import pytest

import fsmdial
from fsmdial.flow.graph import components

PACKAGE = Path(fsmdial.__file__).parent


class SourceTree:
    """The modules of one package below ``root`` (a package folder), read as source: their imports, resolved."""

    def __init__(self, root: Path):
        self.root = root
        self.modules = {self.module_name(path): path for path in sorted(root.rglob("*.py"))}

    def module_name(self, path: Path) -> str:
        parts = path.relative_to(self.root.parent).with_suffix("").parts
        return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)

    def is_package(self, name: str) -> bool:
        return self.modules[name].name == "__init__.py"

    def resolve(self, importer: str, level: int, module: str | None) -> str:
        """The absolute name of ``from <level dots><module> import ...`` written in ``importer``."""
        if level == 0:
            return module or ""
        base = importer.split(".") if self.is_package(importer) else importer.split(".")[:-1]
        base = base[: len(base) - (level - 1)]
        return ".".join([*base, module] if module else base)

    def imports(self, name: str, *, type_checking: bool = False) -> list[tuple[str, list[str], int]]:
        """(imported module, names taken from it, line) for every import that runs, in ``name``'s source
        (``type_checking``: and those under ``if TYPE_CHECKING:``)."""
        tree = ast.parse(self.modules[name].read_text(encoding="utf-8"))
        found: list[tuple[str, list[str], int]] = []

        def visit(node: ast.AST) -> None:
            if not type_checking and isinstance(node, ast.If) and _is_type_checking(node.test):
                for child in node.orelse:
                    visit(child)
                return
            if isinstance(node, ast.Import):
                found.extend((alias.name, [], node.lineno) for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                found.append((self.resolve(name, node.level, node.module), [a.name for a in node.names], node.lineno))
            for child in ast.iter_child_nodes(node):
                visit(child)

        visit(tree)
        return found

    def dependencies(self, name: str, *, type_checking: bool = False) -> set[str]:
        """The modules of this tree ``name`` imports (a submodule named in ``from package import sub`` included)."""
        out: set[str] = set()
        for target, names, _ in self.imports(name, type_checking=type_checking):
            for candidate in [target, *(f"{target}.{n}" for n in names)]:
                if candidate in self.modules and candidate != name:
                    out.add(candidate)
        return out


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


ENGINE = SourceTree(PACKAGE)
MODULES = ENGINE.modules
is_package, resolve, imports, dependencies = ENGINE.is_package, ENGINE.resolve, ENGINE.imports, ENGINE.dependencies


def _trees() -> list[SourceTree]:
    """The engine, and the evaluation harness when it is installed (its modules keep the same rules)."""
    trees = [ENGINE]
    try:
        import fsmdial_eval
    except ImportError:
        return trees
    return [*trees, SourceTree(Path(fsmdial_eval.__file__).parent)]


TREES = _trees()
OUR_PACKAGES = ("fsmdial", "fsmdial_eval")


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (the flow checks' own walk)."""
    return sorted(sorted(c) for c in components({k: sorted(v) for k, v in graph.items()}, sorted(graph)) if len(c) > 1)


def test_the_walk_sees_the_package():
    # The checks below are only as good as the walk: it must find the modules and their imports.
    assert {"fsmdial", "fsmdial.runtime", "fsmdial.understand.rules", "fsmdial.language.dates"} <= set(MODULES)
    assert "fsmdial.flow" in dependencies("fsmdial.values")
    assert "fsmdial.language" in dependencies("fsmdial.understand.rules.understander")
    assert resolve("fsmdial.understand.rules.understander", 3, "flow") == "fsmdial.flow"
    assert resolve("fsmdial.understand.rules", 1, "understander") == "fsmdial.understand.rules.understander"
    assert "fsmdial.understand.rules" in dependencies("fsmdial.understand.constraint.schema", type_checking=True)
    assert "fsmdial.understand.rules" not in dependencies("fsmdial.understand.constraint.schema")
    assert resolve("fsmdial.flow.checks", 1, "nodes") == "fsmdial.flow.nodes"
    assert resolve("fsmdial.flow.nodes", 2, "patterns") == "fsmdial.patterns"
    assert {"fsmdial.flow.nodes", "fsmdial.flow.checks"} <= dependencies("fsmdial.flow.document")
    assert resolve("fsmdial.language", 1, "dates") == "fsmdial.language.dates"
    assert {"fsmdial.turn", "fsmdial.steps", "fsmdial.session"} <= dependencies("fsmdial.runtime")
    assert "fsmdial.runtime" in dependencies("fsmdial.assistant")


def test_cycles_are_found():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_the_walk_sees_the_harness():
    harness = next((tree for tree in TREES if tree.root.name == "fsmdial_eval"), None)
    if harness is None:
        pytest.skip("the evaluation harness (pip install -e ./eval) is not installed")
    assert {"fsmdial_eval.star", "fsmdial_eval.sgd.tracking", "fsmdial_eval.importers.star"} <= set(harness.modules)
    assert ("fsmdial_eval.importers.star_format", ["Overlay", "StarFormatError", "StarTask", "parse_condition"]) in [
        (target, names) for target, names, _ in harness.imports("fsmdial_eval.importers.star_graph")
    ]


@pytest.mark.parametrize("tree", TREES, ids=lambda tree: tree.root.name)
def test_no_module_imports_a_private_name_of_another(tree: SourceTree):
    # Of its own package or of the other one (the harness takes nothing private of the engine either).
    offences = [
        f"{tree.modules[name].relative_to(tree.root.parent)}:{line}: from {target} import {private}"
        for name in tree.modules
        for target, names, line in tree.imports(name)
        if target.split(".")[0] in OUR_PACKAGES and target != name
        for private in names
        if private.startswith("_") and not (private.startswith("__") and private.endswith("__"))
    ]
    assert offences == []


@pytest.mark.parametrize("tree", TREES, ids=lambda tree: tree.root.name)
def test_no_import_cycle(tree: SourceTree):
    graph = {name: tree.dependencies(name) for name in tree.modules}
    assert cycles(graph) == []


def test_the_language_package_depends_on_nothing_else_in_fsmdial():
    graph = {name: dependencies(name) for name in MODULES}
    language = {name for name in MODULES if name.startswith("fsmdial.language")}
    outside = {dep for name in language for dep in graph[name]} - language
    assert outside == set()


def test_the_flow_model_and_checks_depend_only_downward():
    # Lazy imports count here too (TYPE_CHECKING ones do not): the model imports neither the checks nor
    # the document, and the checks do not import the document that runs them.
    graph = {name: dependencies(name) for name in MODULES}
    assert graph["fsmdial.flow.nodes"] & {"fsmdial.flow", "fsmdial.flow.checks", "fsmdial.flow.document"} == set()
    assert graph["fsmdial.flow.checks"] & {"fsmdial.flow", "fsmdial.flow.document", "fsmdial.flow.lint"} == set()
    assert {dep for dep in graph["fsmdial.patterns"] if dep.startswith("fsmdial")} == set()
    # The flow format's modules in layers, each importing only modules listed before it.
    layers = [
        "fsmdial.patterns",
        "fsmdial.flow.graph",
        "fsmdial.flow.nodes",
        "fsmdial.flow.checks",
        "fsmdial.flow.document",
        "fsmdial.flow.lint",
    ]
    upward = {name: sorted(graph[name] & set(layers[index:])) for index, name in enumerate(layers)}
    assert upward == {name: [] for name in layers}


def test_every_data_file_in_the_package_is_shipped():
    # Files next to the modules that are not Python (the flow JSON Schema, understanding data, static pages)
    # reach a wheel only through pyproject's package-data or a MANIFEST.in recursive-include.
    root = PACKAGE.parent
    patterns = tomllib.loads((root / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]["fsmdial"]
    patterns += [
        f"{Path(words[1]).relative_to('fsmdial').as_posix()}/{pattern}"
        for words in (line.split() for line in (root / "MANIFEST.in").read_text().splitlines())
        if words[:1] == ["recursive-include"]
        for pattern in words[2:]
    ]
    data = [
        path.relative_to(PACKAGE).as_posix()
        for path in PACKAGE.rglob("*")
        if path.is_file() and path.suffix not in (".py", ".pyc") and "__pycache__" not in path.parts
    ]
    assert "flow.schema.json" in data
    assert [name for name in data if not any(fnmatchcase(name, pattern) for pattern in patterns)] == []


def test_the_command_line_sits_on_top():
    # fsmdial/cli/ imports the engine; nothing else imports it (lazy imports included), so a command's
    # helpers cannot become something the engine depends on. `python -m fsmdial` is its entry point.
    graph = {name: dependencies(name) for name in MODULES}
    command_line = {name for name in MODULES if name == "fsmdial.cli" or name.startswith("fsmdial.cli.")}
    assert {"fsmdial.cli.flows", "fsmdial.cli.chat", "fsmdial.cli.serve", "fsmdial.cli.eval"} <= graph["fsmdial.cli"]
    below = sorted(
        f"{name} -> {dep}"
        for name in MODULES
        if name not in command_line and name != "fsmdial.__main__"
        for dep in graph[name] & command_line
    )
    assert below == []
    assert [name for name in MODULES if name.endswith(".cli") and name not in command_line] == []


def test_the_command_line_lists_every_group_it_has():
    # The groups are imported by name in cli/__init__.py (no import loop): a group module left out of
    # that list would have its commands silently missing.
    listed = {
        f"{target}.{name}" for target, names, _ in imports("fsmdial.cli") if target == "fsmdial.cli" for name in names
    }
    groups = {name for name in MODULES if name.startswith("fsmdial.cli.")} - {
        "fsmdial.cli.__main__",
        "fsmdial.cli.common",
    }
    assert listed == groups


UNDERSTAND_LAYERS = ("base", "rules", "constraint", "meaning", "decoding", "model", "factory")
"""The wings of fsmdial/understand/ (a subpackage, or a module directly in it), lowest first: each imports only the
wings before it. The rules reading needs no model; what a model may say is built from what the rules read; meaning
without words (a small embedding model) adds to the rules' reading; the decoders compile and decode those grammars;
the model understanders put them together; the factory picks one."""
UNDERSTAND_APART: frozenset[str] = frozenset()
"""Modules directly in fsmdial/understand/ that sit in no layer: they import nothing of fsmdial.understand, and
nothing in a layer imports them (none since the test model's builder moved to fsmdial.testing)."""
MAX_UNDERSTAND_MODULES = 8
"""Modules directly in fsmdial/understand/ (subpackages not counted): the rest lives in the wings."""


def understand_wing(name: str) -> str | None:
    """The wing of a module of fsmdial.understand ("" for the package itself); None outside it."""
    if name == "fsmdial.understand":
        return ""
    if not name.startswith("fsmdial.understand."):
        return None
    return name.split(".")[2]


def test_the_understanding_wings_import_only_downward():
    # Imports under TYPE_CHECKING count here too: an annotation names nothing of a wing above either.
    assert dependencies("fsmdial.understand", type_checking=True) == set()  # the package only describes its wings
    rank = {wing: index for index, wing in enumerate(UNDERSTAND_LAYERS)}
    offences = []
    for name in MODULES:
        wing = understand_wing(name)
        if not wing:
            continue
        if wing not in rank and wing not in UNDERSTAND_APART:
            offences.append(f"{name}: in no layer of UNDERSTAND_LAYERS")
        for dep in sorted(dependencies(name, type_checking=True)):
            target = understand_wing(dep)
            if not target or target == wing:
                continue
            if wing in UNDERSTAND_APART or target in UNDERSTAND_APART:
                offences.append(f"{name} -> {dep} (a module apart from the layers)")
            elif rank[target] > rank.get(wing, -1):
                offences.append(f"{name} -> {dep} (up from {wing} to {target})")
    assert offences == []


def test_the_understanding_modules_import_in_no_circle_even_for_types():
    # Within a wing too (the layers only order the wings): the decoding base and the llama.cpp model loader
    # imported each other when one module held both the loader and a backend.
    graph = {name: dependencies(name, type_checking=True) for name in MODULES if understand_wing(name) is not None}
    assert cycles({name: deps & set(graph) for name, deps in graph.items()}) == []


def test_the_understanding_package_keeps_its_modules_in_wings():
    folder = PACKAGE / "understand"
    assert len(list(folder.glob("*.py"))) <= MAX_UNDERSTAND_MODULES, sorted(p.name for p in folder.glob("*.py"))
    # Its docstring names every wing and module in it, and the layer order; each wing's names its modules.
    doc = ast.get_docstring(ast.parse((folder / "__init__.py").read_text(encoding="utf-8"))) or ""
    assert " < ".join(UNDERSTAND_LAYERS) in doc
    parts = {understand_wing(name) for name in MODULES} - {None, ""}
    assert sorted(part for part in parts if f":mod:`.{part}`" not in doc) == []
    for wing in sorted(part for part in parts if is_package(f"fsmdial.understand.{part}")):
        wing_doc = ast.get_docstring(ast.parse(MODULES[f"fsmdial.understand.{wing}"].read_text(encoding="utf-8")))
        members = {name.rsplit(".", 1)[1] for name in MODULES if name.startswith(f"fsmdial.understand.{wing}.")}
        assert sorted(m for m in members if f":mod:`.{m}`" not in (wing_doc or "")) == [], wing


MAX_MODULE_LINES = 800
MAX_DIALOGUE_LINES = 180


@pytest.mark.parametrize("tree", TREES, ids=lambda tree: tree.root.name)
def test_no_module_holds_more_than_one_screenful_of_jobs(tree: SourceTree):
    """Modules stay small enough to have one job (issue 19): none over MAX_MODULE_LINES lines."""
    long = {
        name: n
        for name, path in tree.modules.items()
        if (n := len(path.read_text(encoding="utf-8").splitlines())) > MAX_MODULE_LINES
    }
    assert long == {}


def test_dialogue_keeps_only_the_conversation_api():
    """Teacher forcing and helpers live elsewhere (testing/forcing.py, module functions): the class stays small."""
    tree = ast.parse(MODULES["fsmdial.runtime"].read_text(encoding="utf-8"))
    (dialogue,) = [node for node in tree.body if isinstance(node, ast.ClassDef) and node.name == "Dialogue"]
    assert dialogue.end_lineno is not None
    assert dialogue.end_lineno - dialogue.lineno + 1 <= MAX_DIALOGUE_LINES
