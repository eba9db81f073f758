"""No function in scorekeeper/ui is over 80 lines: a screen is built from small named parts, each of which can be
read (and found by its name) on its own. Lines are counted from the `def` (decorators included) to the last line
of the body, docstring and comments included.
"""

from __future__ import annotations

import ast
from pathlib import Path

UI = Path(__file__).resolve().parents[1] / "scorekeeper" / "ui"
MAX_LINES = 80


def long_functions() -> list[str]:
    found = []
    for path in sorted(UI.rglob("*.py")):
        where = path.relative_to(UI).as_posix()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
                lines = (node.end_lineno or node.lineno) - first + 1
                if lines > MAX_LINES:
                    found.append(f"ui/{where}:{node.lineno} {node.name}: {lines} lines")
    return found


def test_no_ui_function_is_over_80_lines() -> None:
    found = long_functions()
    assert not found, f"functions over {MAX_LINES} lines:\n" + "\n".join(found)
