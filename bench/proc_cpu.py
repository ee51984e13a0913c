"""CPU time of server processes from /proc, whole process trees included.

`/proc/<pid>/stat` fields 14-15 (utime, stime) are the sums over every thread of the process,
live or exited (grpc's poller and executor threads, redis-server's bio threads); fields 16-17
(cutime, cstime) add its children once reaped (Redis's AOF-rewrite fork). Live descendants
(`flotilla gateway`'s N gateway processes, a `taskset` wrapper's child) are found through
`/proc/<pid>/task/<tid>/children` and counted the same way, so nothing is missed and nothing
counted twice.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

TICK = os.sysconf("SC_CLK_TCK")


def _stat(pid: int) -> tuple[int, int]:
    """(own + reaped children's CPU ticks, parent pid) of one process; (0, 0) when it is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return 0, 0
    # fields[0] is field 3 (state): utime 14, stime 15, cutime 16, cstime 17 are fields[11:15]
    return sum(int(f) for f in fields[11:15]), int(fields[1])


def descendants(pid: int) -> list[int]:
    """`pid` and every live process below it."""
    found, todo = [], [pid]
    while todo:
        current = todo.pop()
        found.append(current)
        try:
            tasks = list(Path(f"/proc/{current}/task").iterdir())
        except OSError:
            continue
        for task in tasks:
            with contextlib.suppress(OSError):
                todo += [int(c) for c in (task / "children").read_text().split()]
    return found


def tree_cpu_seconds(pids: list[int]) -> float:
    """CPU seconds of these processes, all their threads and all their descendants so far."""
    seen: set[int] = set()
    ticks = 0
    for pid in pids:
        for member in descendants(pid):
            if member not in seen:
                seen.add(member)
                ticks += _stat(member)[0]
    return ticks / TICK


def command_name(pid: int) -> str:
    """The process's name (`/proc/<pid>/comm`), e.g. to check a pid is redis-server itself."""
    try:
        return Path(f"/proc/{pid}/comm").read_text().strip()
    except OSError:
        return ""


def parse_groups(spec: str) -> dict[str, list[int]]:
    """`gateway=1,2;worker=3;redis=4` → {"gateway": [1, 2], ...}."""
    groups: dict[str, list[int]] = {}
    for part in filter(None, spec.split(";")):
        name, _, pids = part.partition("=")
        groups[name] = [int(p) for p in pids.split(",") if p]
    return groups


def format_groups(groups: dict[str, list[int]]) -> str:
    return ";".join(f"{name}={','.join(map(str, pids))}" for name, pids in groups.items())


def sample(groups: dict[str, list[int]]) -> dict[str, float]:
    """CPU seconds so far of each group."""
    return {name: tree_cpu_seconds(pids) for name, pids in groups.items()}
