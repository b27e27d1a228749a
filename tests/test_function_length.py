"""Functions in game/ stay short enough to read at once: none over 40 lines."""

import ast
from pathlib import Path

GAME = Path(__file__).resolve().parent.parent / "game"
LIMIT = 40


def long_functions(source: str) -> list[tuple[str, int]]:
    """(name, lines) of every function or method in `source` longer than LIMIT lines."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            length = node.end_lineno - node.lineno + 1
            if length > LIMIT:
                found.append((node.name, length))
    return found


def test_no_function_in_game_is_longer_than_40_lines():
    offenders = {
        str(path.relative_to(GAME)): found
        for path in GAME.rglob("*.py")
        if "migrations" not in path.parts and (found := long_functions(path.read_text()))
    }
    assert offenders == {}


def test_a_function_of_41_lines_is_caught():
    body = "".join(f"    x{i} = {i}\n" for i in range(40))
    assert long_functions("def long():\n" + body) == [("long", 41)]
    assert long_functions("def short():\n" + body[: -len("    x39 = 39\n")]) == []
