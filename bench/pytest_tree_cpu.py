"""A pytest plugin that records the CPU seconds each test file cost the whole process tree: the
pytest (or xdist worker) process, every process it started (gateways, workers, redis-server,
node, Chromium) and theirs, whether they still run or have exited; and the file's wall seconds,
from its first test's setup to its last test's teardown. Setup and teardown count with the file,
so a module-scoped stack's start and stop are in its file's total.

    TREECPU_OUT=cpu.tsv PYTHONPATH=bench python -m pytest -p pytest_tree_cpu ...
    FLOTILLA_TEST_REPORTS=reports ./scripts/test      # the whole suite, per lane (scripts/test)
    sort -rn cpu.tsv | head -40                        # lines: CPU-s<TAB>wall-s<TAB>file<TAB>start<TAB>worker

At each test's end it reads /proc: its own and its live descendants' utime + stime + cutime +
cstime (cutime/cstime hold their exited, reaped children). The difference since the last test is
the file's. A file's line is appended to $TREECPU_OUT as soon as its last test is done (a run cut
short keeps the files it finished). A descendant that exits unreaped by anything that stays alive
is missed (none here), and when xdist runs two files at once each worker counts only its own tree.
"""

from __future__ import annotations

import os
import time
from collections import defaultdict
from collections.abc import Generator
from pathlib import Path

import pytest

_TICK = os.sysconf("SC_CLK_TCK")
_CPU: defaultdict[str, float] = defaultdict(float)
_last: list[float] = []
_began: dict[str, float] = {}  # file: when its first test began (monotonic)
_began_at: dict[str, float] = {}  # file: when its first test began (epoch seconds)


def _stat(pid: int) -> list[str] | None:
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return text[text.rindex(")") + 2 :].split()  # fields from the 3rd on (the name may hold spaces)


def tree_cpu(root: int) -> float:
    """CPU seconds of `root` and its live descendants, each with its reaped children's."""
    parents: dict[int, int] = {}
    times: dict[int, float] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit() and (f := _stat(int(entry))) is not None:
            parents[int(entry)] = int(f[1])
            times[int(entry)] = sum(int(x) for x in f[11:15]) / _TICK
    total, todo = 0.0, [root]
    children: defaultdict[int, list[int]] = defaultdict(list)
    for pid, ppid in parents.items():
        children[ppid].append(pid)
    while todo:
        pid = todo.pop()
        total += times.get(pid, 0.0)
        todo.extend(children[pid])
    return total


def _file(item: pytest.Item) -> str:
    return item.nodeid.split("::")[0]


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Generator[None, None, None]:
    """Add the tree's CPU over the test's setup, call and teardown to its file's total; after a
    file's last test, append its line."""
    if not _last:
        _last.append(tree_cpu(os.getpid()))
    _began.setdefault(_file(item), time.monotonic())
    _began_at.setdefault(_file(item), time.time())
    yield
    now = tree_cpu(os.getpid())
    _CPU[_file(item)] += now - _last[0]
    _last[0] = now
    if nextitem is None or _file(nextitem) != _file(item):
        _write(_file(item))


def _write(path: str) -> None:
    """Append `CPU-s<TAB>wall-s<TAB>file<TAB>start<TAB>worker` to $TREECPU_OUT (each xdist worker its
    own files; start: epoch seconds of the file's first test, for a timeline of the workers)."""
    out = os.environ.get("TREECPU_OUT")
    if out and path in _CPU:
        worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
        with Path(out).open("a") as f:
            wall = time.monotonic() - _began.pop(path)
            f.write(f"{_CPU.pop(path):.1f}\t{wall:.1f}\t{path}\t{_began_at.pop(path):.1f}\t{worker}\n")
