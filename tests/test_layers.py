"""The layers of game/ (docs/architecture.md, "The layers"): every import points down, none goes
round, and there is no exception.

From the top: web and sockets (transport: pages and websockets, neither imports the other);
runtime (what lives in one server process's memory: the open games and their audience,
presence's heartbeat, the par searcher and its child process, the metrics, the race clock);
services (the writes, one transaction each, publishing on commit); selectors (the reads: a
write may read, a read never writes, so services use selectors and never the reverse); storage
(database workers, batched appends, the channel layer's breaker, the session engine); models,
with the domain beside them (the rows; refusals, deal codes, display names); engine (pure
rules). The Django app's own modules (admin, apps, checks, models, management commands,
migrations) sit above them all, and no other module sits at the top of game/: each one's
layer is named by its path. The imports are read from the source, so a module's
function-level imports count too.
"""

import ast
import re
from pathlib import Path

GAME = Path(__file__).resolve().parent.parent / "game"

# (rank, layer) by module prefix; the longest prefix that matches a module wins.
LAYERS = {
    "game.engine": (0, "engine"),
    "game.models": (1, "models"),
    "game.domain": (1, "models"),  # beside the models, one layer: what writes and reads speak
    "game.storage": (2, "storage"),
    "game.selectors": (3, "selectors"),
    "game.services": (4, "services"),
    "game.runtime": (5, "runtime"),
    "game.sockets": (6, "sockets"),
    "game.web": (6, "web"),
    "game.templatetags": (6, "web"),
    "game.admin": (7, "app"),
    "game.apps": (7, "app"),
    "game.checks": (7, "app"),
    "game.management": (7, "app"),
    "game.migrations": (7, "app"),
    "game": (7, "app"),
}
APP_MODULES = {"game.admin", "game.apps", "game.checks", "game.models"}  # the top of game/


def module_name(path: Path) -> str:
    parts = path.relative_to(GAME.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def game_modules() -> dict[str, Path]:
    return {module_name(path): path for path in sorted(GAME.rglob("*.py"))}


def imported(path: Path, modules: set[str]) -> set[str]:
    """The modules that `path` imports: `from x import y` names x.y when that is a module."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = _absolute(node, package)
            for alias in node.names:
                found.add(f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base)
    return found


def _absolute(node: ast.ImportFrom, package: str) -> str:
    if not node.level:
        return node.module or ""
    parts = package.split(".")[: len(package.split(".")) - node.level + 1]
    return ".".join(parts + ([node.module] if node.module else []))


def layer_of(module: str) -> tuple[int, str]:
    prefixes = [p for p in LAYERS if module == p or module.startswith(p + ".")]
    return LAYERS[max(prefixes, key=len)]


def import_graph() -> dict[str, set[str]]:
    """Each module of game/ and the modules of game/ it imports."""
    modules = game_modules()
    return {
        name: {dep for dep in imported(path, set(modules)) if dep in modules and dep != name}
        for name, path in modules.items()
    }


def upward(graph: dict[str, set[str]]) -> list[str]:
    """Every import that does not point down, as 'importer (layer) -> imported (layer)'."""
    wrong = []
    for module, deps in graph.items():
        rank, layer = layer_of(module)
        for dep in deps:
            dep_rank, dep_layer = layer_of(dep)
            if dep_rank > rank or (dep_rank == rank and dep_layer != layer):
                wrong.append(f"{module} ({layer}) -> {dep} ({dep_layer})")
    return sorted(wrong)


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One import cycle through each module that is on one (a depth-first search)."""
    found, done, path = [], set(), []

    def visit(module: str) -> None:
        if module in path:
            found.append(path[path.index(module) :] + [module])
            return
        if module in done:
            return
        path.append(module)
        for dep in sorted(graph.get(module, ())):
            visit(dep)
        path.pop()
        done.add(module)

    for module in sorted(graph):
        visit(module)
    return found


def test_every_import_in_game_points_down_the_layers():
    assert upward(import_graph()) == []


def test_no_module_of_game_is_on_an_import_cycle():
    assert cycles(import_graph()) == []


def test_no_module_but_the_apps_own_sits_at_the_top_of_game():
    top = {name for name, path in game_modules().items() if path.parent == GAME}
    assert top - {"game"} == APP_MODULES


def test_nothing_in_the_app_imports_the_benchmarks_or_the_tests():
    app = [*GAME.rglob("*.py"), *(GAME.parent / "h2h_site").rglob("*.py")]
    leaks = {
        str(path.relative_to(GAME.parent)): sorted(
            dep for dep in imported(path, set()) if dep.split(".")[0] in {"bench", "tests"}
        )
        for path in app
    }
    assert {path: deps for path, deps in leaks.items() if deps} == {}


def test_no_test_imports_the_benchmarks():
    """bench/ may use tests/harness/, never the reverse: nor in the code a test has a
    `manage.py shell` run."""
    tests = Path(__file__).resolve().parent
    leaks = {
        str(path.relative_to(tests)): sorted(
            {dep for dep in imported(path, set()) if dep.split(".")[0] == "bench"}
            | set(re.findall(r"\b(?:from|import) bench\b", path.read_text()))
        )
        for path in tests.rglob("*.py")
    }
    assert {path: deps for path, deps in leaks.items() if deps} == {}


def test_every_folder_of_game_has_a_layer():
    folders = {module_name(path) for path in GAME.rglob("__init__.py")}
    assert {folder: layer_of(folder)[1] for folder in folders if layer_of(folder)[1] == "app"} == {
        "game": "app",
        "game.management": "app",
        "game.management.commands": "app",
        "game.migrations": "app",
    }


def test_an_upward_import_and_a_cycle_are_both_caught():
    graph = {
        "game.engine.moves": {"game.services.games"},
        "game.selectors.games": {"game.services.games"},
        "game.services.games": {"game.services.results"},
        "game.services.results": {"game.services.games"},
        "game.web.play": {"game.sockets.play"},
    }
    assert upward(graph) == [
        "game.engine.moves (engine) -> game.services.games (services)",
        "game.selectors.games (selectors) -> game.services.games (services)",
        "game.web.play (web) -> game.sockets.play (sockets)",
    ]
    cycle = ["game.services.games", "game.services.results", "game.services.games"]
    assert cycles(graph) == [cycle]
