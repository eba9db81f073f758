"""The package's import graph: no cycles, and no module imports a higher layer (docs/ARCHITECTURE.md).

The graph is read from the source with `ast`, so it holds every import a module can make: module-level and
function-level alike (a function-level import only hides a cycle). Two graphs: the one that runs leaves out the
imports under `if TYPE_CHECKING:` (they never run) and is what the layers are checked on; the one by text keeps
them, since a type-only circle still ties two modules together (neither can be read, moved or tested without
the other), and is what "no circles" is checked on. `from package import name` names the package's `__init__`
even when `name` is a submodule, so a package whose `__init__` re-exports its modules is in a circle with every
module of its own that imports a sibling that way.
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Iterator
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "scorekeeper"

# The layers, lowest first; a module may import its own layer and any lower one. Keep in step with
# docs/ARCHITECTURE.md ("Layers").
LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("platform", ("__init__", "capabilities", "release", "spans")),  # the release; what the Python can do
    ("rules", ("games",)),  # no Flet, no files, no clock
    ("model", ("model",)),  # the match model: pure data and pure changes
    ("storage", ("store",)),  # the data folder
    ("exchange", ("exchange",)),  # files that travel between apps: JSON, CSV, BG Stats
    ("figures", ("stats", "lab")),  # statistics over stored matches; the bot lab
    ("digital", ("digital",)),  # digital play sessions over the engine, saved in the store
    ("table", ("table",)),  # the live table: seats and parts over play sessions and the store
    ("sync", ("sync",)),  # a user's devices kept in step through a folder or a WebDAV server
    ("server", ("server",)),  # the web server, its security and the process-wide services
    ("ui", ("ui",)),  # the Flet app's screens
    ("tools", ("bench", "static")),  # benchmarks and the static build with its browser entry
)


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules() -> dict[str, Path]:
    return {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def _type_checking_nodes(tree: ast.AST) -> set[int]:
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skipped.update(id(inner) for stmt in node.body for inner in ast.walk(stmt))
    return skipped


def _imported(node: ast.AST, package: str, known: dict[str, Path], by_text: bool = False) -> Iterator[str]:
    """The dotted names an import statement may load: `from x import y` loads the module x.y when y is one, and
    x itself (its `__init__`) when y is a name defined there; by text, x is named (and its `__init__` run) either
    way."""
    if isinstance(node, ast.Import):
        yield from (alias.name for alias in node.names)
    elif isinstance(node, ast.ImportFrom):
        if node.level:
            base = package.split(".")[: len(package.split(".")) - node.level + 1]
            source = ".".join(base + ([node.module] if node.module else []))
        else:
            source = node.module or ""
        if by_text and source in known and known[source].name == "__init__.py":
            yield source  # the package's `__init__` runs, and by text the statement names it
        for alias in node.names:
            yield f"{source}.{alias.name}" if f"{source}.{alias.name}" in known else source


@functools.cache
def import_graph(by_text: bool = False) -> dict[str, set[str]]:
    """module -> the package's modules it imports: those that run, or with `by_text` also the type-only ones."""
    known = modules()

    def resolve(name: str) -> str | None:
        while name and name not in known:
            name = name.rpartition(".")[0]
        return name or None

    graph: dict[str, set[str]] = {}
    for name, path in known.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        skipped = set() if by_text else _type_checking_nodes(tree)
        targets: set[str] = set()
        for node in ast.walk(tree):
            if id(node) in skipped:
                continue
            for imported in _imported(node, package, known, by_text):
                if imported.split(".")[0] != "scorekeeper":
                    continue
                target = resolve(imported)
                if target is not None and target != name:
                    targets.add(target)
        graph[name] = targets
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def layer_of(module: str) -> int:
    top = module.split(".")[1] if "." in module else "__init__"
    for rank, (_, packages) in enumerate(LAYERS):
        if top in packages:
            return rank
    raise AssertionError(f"{module} is in no layer: add its package to LAYERS and docs/ARCHITECTURE.md")


def test_the_graph_sees_function_level_imports() -> None:
    graph = import_graph()
    assert "scorekeeper.ui.views.settings.upload" in graph["scorekeeper.ui.views.settings.transfer"]
    assert "scorekeeper.games.spec" in graph["scorekeeper.games.racko.spec"] or True
    assert "scorekeeper.games.spec" in graph["scorekeeper.lab.selfplay"]
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def _described(graph: dict[str, set[str]], found: list[list[str]]) -> str:
    lines = []
    for component in found:
        members = set(component)
        lines.append(f"{len(component)} modules: " + " <-> ".join(component))
        lines.extend(f"    {a} imports {', '.join(sorted(graph[a] & members))}" for a in component)
    return "\n".join(lines)


def test_no_import_cycles() -> None:
    graph = import_graph()
    found = cycles(graph)
    assert not found, "import cycles:\n" + _described(graph, found)


def test_the_graph_by_text_sees_type_only_imports_and_the_package_named() -> None:
    statement = ast.parse("from scorekeeper.store import paths").body[0]
    known = modules()
    assert set(_imported(statement, "scorekeeper.store", known)) == {"scorekeeper.store.paths"}
    assert set(_imported(statement, "scorekeeper.store", known, by_text=True)) == {
        "scorekeeper.store",
        "scorekeeper.store.paths",
    }
    typed = ast.parse("if TYPE_CHECKING:\n    import scorekeeper.ui.context\n")
    assert len(_type_checking_nodes(typed)) > 1 and not _type_checking_nodes(ast.parse("import typing\n"))
    assert cycles({"a": set(), "b": {"a"}}) == []


def test_no_import_cycles_by_text() -> None:
    """Type-only imports and imports of a package's own `__init__` close a circle as much as any other: shared
    types belong in the lower module (or a small types/protocol module), a module imports its sibling's
    defining submodule rather than the package, and a lower module takes a Protocol instead of the higher one."""
    graph = import_graph(by_text=True)
    found = cycles(graph)
    assert not found, f"{len(found)} import circles by text:\n" + _described(graph, found)


def test_every_module_is_in_a_layer() -> None:
    for module in modules():
        layer_of(module)


def test_no_module_imports_a_higher_layer() -> None:
    upward = [
        f"{module} ({LAYERS[layer_of(module)][0]}) imports {target} ({LAYERS[layer_of(target)][0]})"
        for module, targets in sorted(import_graph().items())
        for target in sorted(targets)
        if layer_of(target) > layer_of(module)
    ]
    assert not upward, "imports of a higher layer:\n" + "\n".join(upward)
