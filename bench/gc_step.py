"""What one step of the gateway's GC policy (flotilla/gc_policy.py) costs on a heap of idle streams.

Freezes a million small containers (about 10k idle streams' worth of frozen objects), then times 20
steps, each after 10k young survivors and 2k garbage cycles (a second of a busy gateway). Prints
the median and the longest step of the tree named on the command line (its `server/` folder).

    python bench/gc_step.py server            # this tree
    python bench/gc_step.py /tmp/base/server  # another (a `git archive` of main)
    python bench/gc_step.py server 5000000    # 5M containers: about 50k streams
"""

from __future__ import annotations

import asyncio
import gc
import statistics
import sys
import time


class Node:
    def __init__(self) -> None:
        self.me = self
        self.d = {"a": [1, 2]}


async def main() -> None:
    from flotilla.gc_policy import GcPolicy  # noqa: PLC0415  # from the tree on the command line

    policy = GcPolicy(budget_s=0.05, interval_s=3600, max_age_s=0)
    policy.start()
    old = [[{"x": i}] for i in range(int(sys.argv[2]) if len(sys.argv) > 2 else 1_000_000)]
    policy.step()
    times = []
    for _ in range(20):
        young = [[{"y": i}] for i in range(10_000)]
        garbage = [Node() for _ in range(2000)]
        del garbage
        started = time.perf_counter()
        policy.step()
        times.append(time.perf_counter() - started)
        del young
    print(
        f"{sys.argv[1]}: step median {statistics.median(times) * 1e3:.2f} ms, max {max(times) * 1e3:.2f} ms, "
        f"frozen {gc.get_freeze_count()}"
    )
    del old
    await policy.stop()


if __name__ == "__main__":
    sys.path.insert(0, sys.argv[1])
    asyncio.run(main())
