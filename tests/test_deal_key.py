"""The site deals under settings.DEAL_KEY: the engine reads no environment, so a call that left
the key out would deal the public development deals on a deployment, which anyone can compute."""

import ast
from pathlib import Path

GAME = Path(__file__).resolve().parents[1] / "game"
DEALING = {"new_game", "replay", "solve", "deal_for_code"}


def dealing_calls_without_a_key(source: str) -> list[int]:
    """Lines of engine.<dealing>(...) calls, or calls of dealing names imported from the engine,
    that pass no key."""
    tree = ast.parse(source)
    imported = {
        alias.asname or alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("game.engine")
        for alias in node.names
        if alias.name in DEALING
    }
    return [
        node.lineno
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and _deals(node.func, imported)
        and not any(keyword.arg == "key" for keyword in node.keywords)
    ]


def _deals(func: ast.expr, imported: set[str]) -> bool:
    if isinstance(func, ast.Attribute):
        return (
            isinstance(func.value, ast.Name)
            and func.value.id == "engine"
            and (func.attr in DEALING)
        )
    return isinstance(func, ast.Name) and func.id in imported


def test_every_deal_the_site_makes_passes_the_deal_key():
    modules = [path for path in GAME.rglob("*.py") if "engine" not in path.relative_to(GAME).parts]
    missing = {
        str(path.relative_to(GAME)): lines
        for path in modules
        if (lines := dealing_calls_without_a_key(path.read_text()))
    }
    assert missing == {}


def test_the_check_finds_a_call_that_forgets_the_key():
    source = "from game import engine\nengine.replay(code, actions)\nengine.solve(c, key=k)\n"
    assert dealing_calls_without_a_key(source) == [2]
    assert dealing_calls_without_a_key("from game.engine import new_game\nnew_game(c)\n") == [2]
