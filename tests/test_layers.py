"""The layout shows the architecture: imports go only downward through the layers, lazy imports
inside functions included, and no two modules import each other (directly or round a cycle).
Module sizes are kept small enough to read (docs/architecture.md)."""

import ast
import functools
from pathlib import Path

import pytest

from conftest import ROOT

PACKAGE = ROOT / "satdoku"

#: The layers, lowest first; a module may import its own layer and those below it.
LAYERS = (
    ("errors", "deadline", "budget", "children", "closing", "progress", "records", "version"),
    ("model",),
    ("rules",),
    ("io",),
    ("native",),
    ("cnf",),
    ("sat",),
    ("tasks",),
    ("run",),
    ("output",),
    ("cli", "__init__"),
    ("__main__",),
)
LEVEL = {name: level for level, names in enumerate(LAYERS) for name in names}

MAX_MODULE_LINES = 500
MAX_FUNCTION_LINES = 80
#: Modules being reshaped on other branches (issue 20): they must pass by the time those land;
#: the size test wants exactly these over, so that one comes off this list as soon as it passes.
RESHAPING: set[str] = set()


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def layer(module: str) -> int:
    """The layer of ``satdoku.x.y``: its first part below the package (the package itself is
    the library's API, at the top beside the command line)."""
    parts = module.split(".")
    return LEVEL[parts[1] if len(parts) > 1 else "__init__"]


@functools.cache
def _tree(module: str) -> ast.Module:
    """The module's syntax tree: one parse, for every test that asks."""
    return ast.parse(MODULES[module].read_text())


def statements(node: ast.AST):
    """Every statement in ``node``, at any depth (imports and functions are statements, and
    statements sit only in other statements' bodies: the expressions are not walked)."""
    for _, value in ast.iter_fields(node):
        if isinstance(value, list):
            for item in value:
                if isinstance(item, (ast.stmt, ast.excepthandler, ast.match_case)):
                    if isinstance(item, ast.stmt):
                        yield item
                    yield from statements(item)


def _typing_only(tree: ast.Module) -> set[ast.AST]:
    """The import statements under ``if TYPE_CHECKING:`` (annotations only: no runtime edge)."""
    return {inner for node in statements(tree) if isinstance(node, ast.If)
            and getattr(node.test, "id", None) == "TYPE_CHECKING"
            for stmt in node.body for inner in [stmt, *statements(stmt)]}


def _targets(node: ast.AST, package: str) -> set[str]:
    """The satdoku modules an import statement in ``package`` names (none for other nodes)."""
    if isinstance(node, ast.ImportFrom):
        if node.level:
            base = package.split(".")[:len(package.split(".")) - node.level + 1]
            target = ".".join(base + ([node.module] if node.module else []))
        else:
            target = node.module or ""
        names = [f"{target}.{alias.name}" for alias in node.names]
        return {n for n in names if n in MODULES} or ({target} & MODULES.keys())
    if isinstance(node, ast.Import):
        return {alias.name for alias in node.names if alias.name in MODULES}
    return set()


@functools.cache
def _edges(module: str) -> tuple[frozenset[str], frozenset[str]]:
    """The satdoku modules ``module`` imports anywhere in its file, and those it imports at run
    time (leaving out those imported for annotations only): one parse of the file."""
    path = MODULES[module]
    package = module if path.name == "__init__.py" else module.rsplit(".", 1)[0]
    tree = _tree(module)
    skip = _typing_only(tree)
    found: set[str] = set()
    runtime: set[str] = set()
    for node in statements(tree):
        targets = _targets(node, package)
        found |= targets
        if node not in skip:
            runtime |= targets
    return frozenset(found - {module}), frozenset(runtime - {module})


def imports(module: str, runtime: bool = False) -> set[str]:
    """The satdoku modules ``module`` imports, anywhere in its file (``runtime``: leaving out
    those imported for annotations only)."""
    return set(_edges(module)[runtime])


@functools.cache
def graph(runtime: bool = False) -> dict[str, set[str]]:
    """Every module's imports (:func:`imports`), made when a test first asks, not at collection."""
    return {module: imports(module, runtime) for module in MODULES}


def test_every_module_has_a_layer():
    for module in MODULES:
        layer(module)  # KeyError names a module in no layer


def test_imports_go_only_downward():
    upward = {module: sorted(t for t in graph()[module] if layer(t) > layer(module))
              for module in sorted(MODULES)}
    above = {f"{m} (layer {layer(m)})": u for m, u in upward.items() if u}
    assert not above, f"modules that import from above: {above}"


def test_no_import_cycles():
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    cycles: list[list[str]] = []

    def visit(node: str) -> None:  # Tarjan's strongly connected components
        index[node] = low[node] = len(index)
        stack.append(node)
        for target in graph(runtime=True)[node]:
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    for module in sorted(MODULES):
        if module not in index:
            visit(module)
    assert not cycles, f"modules that import each other: {cycles}"


def _too_big(module: str) -> list[str]:
    """What makes ``module`` too big: its length, and each function too long."""
    lines = len(MODULES[module].read_text().splitlines())
    said = [f"{lines} lines"] if lines > MAX_MODULE_LINES else []
    return said + [f"{node.name} ({node.end_lineno - node.lineno + 1} lines)"
                   for node in statements(_tree(module))
                   if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
                   and node.end_lineno - node.lineno + 1 > MAX_FUNCTION_LINES]


def test_modules_and_functions_stay_small():
    big = {module: said for module in sorted(MODULES) if (said := _too_big(module))}
    assert set(big) == RESHAPING, (f"over {MAX_MODULE_LINES} lines a module or "
                                   f"{MAX_FUNCTION_LINES} a function", big)
