"""Where each xdist worker spent a suite run, from `bench/pytest_tree_cpu.py`'s lines (with their
start and worker columns): per worker its files in order, when it finished, and the files that
ran last (the suite's tail).

    python bench/suite_timeline.py reports/cpu-main.tsv [reports/cpu-side.tsv ...]
"""

from __future__ import annotations

import sys
from collections import defaultdict
from pathlib import Path


def main(paths: list[str]) -> None:
    rows: list[tuple[float, float, float, str, str]] = []  # start, wall, cpu, worker, file
    for path in paths:
        lane = Path(path).stem.removeprefix("cpu-")
        for line in Path(path).read_text().splitlines():
            cells = line.split("\t")
            if len(cells) < 5:
                continue  # a line from before the start and worker columns
            cpu, wall, name, start, worker = cells[:5]
            rows.append((float(start), float(wall), float(cpu), f"{lane}/{worker}", name))
    if not rows:
        sys.exit("no line has start and worker columns")
    t0 = min(r[0] for r in rows)
    by_worker: defaultdict[str, list[tuple[float, float, float, str, str]]] = defaultdict(list)
    for row in rows:
        by_worker[row[3]].append(row)
    for worker, items in sorted(by_worker.items()):
        items.sort()
        end = max(s + w for s, w, *_ in items) - t0
        busy = sum(w for _, w, *_ in items)
        cpu = sum(c for _, _, c, *_ in items)
        print(f"{worker}: {len(items)} files, ends at {end:.0f} s, {busy:.0f} s in files, {cpu:.0f} CPU-s")
        for start, wall, c, _, name in items[-4:]:
            print(f"    last: {start - t0:6.0f} s +{wall:5.0f} s ({c:5.1f} CPU-s) {name}")


if __name__ == "__main__":
    main(sys.argv[1:])
