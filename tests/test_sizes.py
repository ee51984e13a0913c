"""Small units (issue 25, item 6): no module in server/ over `MODULE_LINES` lines, no function over
`FUNCTION_LINES`, except the data tables declared here (each with its reason) and generated code.

`OVERSIZED` is a shrinking allow-list of today's offenders, each with its size then: one may not
grow, and one that got small enough must leave the list (so the check tightens as they are split).
"""

from __future__ import annotations

import ast
from pathlib import Path

SERVER = Path(__file__).parents[1] / "server"
MODULE_LINES = 500
FUNCTION_LINES = 60

DATA_TABLES = {
    "flotilla/games/pirates_of_nassau/tables.py": "the printed game's cards, ports and ships, one row each",
}
"""Modules that are tables of data, not logic: no size limit, with the reason."""

OVERSIZED = {  # owned by other parts of issue 25 (store split, thin edges, games' units): to shrink
    "flotilla/gateway/game_servicer.py": 572,
    "flotilla/gateway/game_servicer.py:_play": 73,
    "flotilla/app/games.py:create": 61,
}
"""Today's offenders, `module` or `module:function`, with their size in lines when listed."""


def generated(path: Path) -> bool:
    """protoc's output (never edited by hand)."""
    return path.name.endswith(("_pb2.py", "_pb2_grpc.py"))


def sizes() -> dict[str, int]:
    """Every module over `MODULE_LINES` and function over `FUNCTION_LINES` in server/, by name."""
    found: dict[str, int] = {}
    for path in sorted(SERVER.rglob("*.py")):
        name = path.relative_to(SERVER).as_posix()
        if generated(path) or name in DATA_TABLES:
            continue
        text = path.read_text()
        if (lines := len(text.splitlines())) > MODULE_LINES:
            found[name] = lines
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                length = (node.end_lineno or node.lineno) - node.lineno + 1
                if length > FUNCTION_LINES:
                    found[f"{name}:{node.name}"] = max(length, found.get(f"{name}:{node.name}", 0))
    return found


def test_no_module_or_function_is_too_long_unless_listed() -> None:
    found = sizes()
    new = {name: size for name, size in found.items() if name not in OVERSIZED}
    assert new == {}, f"over {MODULE_LINES} lines a module, {FUNCTION_LINES} a function: split them by subject"


def test_listed_offenders_do_not_grow() -> None:
    grown = {name: (OVERSIZED[name], size) for name, size in sizes().items() if size > OVERSIZED.get(name, size)}
    assert grown == {}, "(listed, now): an allowed offender grew"


def test_the_allow_list_shrinks() -> None:
    """An offender split below the limits (or gone) leaves `OVERSIZED`, so it cannot grow back."""
    assert set(OVERSIZED) - set(sizes()) == set()


def test_declared_data_tables_exist() -> None:
    assert [name for name in DATA_TABLES if not (SERVER / name).is_file()] == []
