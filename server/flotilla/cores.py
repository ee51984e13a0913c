"""How many cores this process may use, and the process counts `flotilla up`, compose and the chart
derive from them (docs/deploy.md, "Processes per host").

The count is the smaller of the CPUs this process may run on (`os.sched_getaffinity`: taskset,
cpusets) and its cgroup's CPU quota (`cpu.max` in cgroup v2, `cpu.cfs_quota_us` /
`cpu.cfs_period_us` in v1: a container's `limits.cpu`), rounded up: 1.5 cores of quota run two
processes.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass
from pathlib import Path

CGROUP = Path("/sys/fs/cgroup")


def cgroup_quota(root: Path = CGROUP) -> float | None:
    """The cgroup's CPU quota in cores (v2 `cpu.max`, else v1 CFS files), or None when unlimited."""
    try:
        quota, _, period = (root / "cpu.max").read_text().strip().partition(" ")
        if quota == "max":
            return None
        return int(quota) / int(period or "100000")
    except (OSError, ValueError):
        pass
    try:
        quota_us = int((root / "cpu" / "cpu.cfs_quota_us").read_text())
        period_us = int((root / "cpu" / "cpu.cfs_period_us").read_text())
    except (OSError, ValueError):
        return None
    return quota_us / period_us if quota_us > 0 and period_us > 0 else None


def available_cpus(root: Path = CGROUP) -> int:
    """Cores this process may use: its CPU affinity, capped by the cgroup quota (rounded up), at least 1."""
    try:
        cpus = len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        cpus = os.cpu_count() or 1
    quota = cgroup_quota(root)
    if quota is not None:
        cpus = min(cpus, math.ceil(quota))
    return max(1, cpus)


@dataclass(frozen=True, slots=True)
class Sizing:
    """Gateway processes and workers for a host of `cpus` cores."""

    cpus: int
    gateway_processes: int
    workers: int


def size_for(cpus: int) -> Sizing:
    """Half the cores run gateway processes, half run workers (the issue-12 profile: gateway ≈ 45 %,
    worker ≈ 40 %, Redis ≈ 15 % of a move's CPU); at least one gateway process and two workers
    (a worker's death then never stops the games: its work is reclaimed by the other)."""
    half = max(1, cpus // 2)
    return Sizing(cpus, gateway_processes=half, workers=max(2, half))


def resolve(count: int, which: str) -> int:
    """A configured process count: `count` when positive, 0 = sized from the cores (`which`:
    "gateway_processes" or "workers")."""
    if count > 0:
        return count
    if count < 0:
        msg = f"a process count must be 0 (sized from the cores) or positive, not {count}"
        raise ValueError(msg)
    value: int = getattr(size_for(available_cpus()), which)
    return value
