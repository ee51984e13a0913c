"""Small units (issue 25, item 6): no module in server/ over `MODULE_LINES` lines, no function over
`FUNCTION_LINES`, except the data tables declared here (each with its reason) and generated code.

Issue 25 split the last offenders (the store by subject, the servicers into app/, the worker, the
CLI, the rooms and the engines' long functions into named steps): there is no allow-list.
"""

from __future__ import annotations

import ast
from pathlib import Path

SERVER = Path(__file__).parents[1] / "server"
MODULE_LINES = 500
FUNCTION_LINES = 60

DATA_TABLES: dict[str, str] = {}
"""Modules that are tables of data, not logic (no size limit), each with the reason; none today."""


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


def test_no_module_or_function_is_too_long() -> None:
    found = sizes()
    assert found == {}, f"over {MODULE_LINES} lines a module, {FUNCTION_LINES} a function: split them by subject"


def test_every_declared_data_table_needs_it() -> None:
    """A module listed in `DATA_TABLES` is over the limit (else it leaves the list, so it cannot grow back)."""
    small = [name for name in DATA_TABLES if len((SERVER / name).read_text().splitlines()) <= MODULE_LINES]
    assert small == []
