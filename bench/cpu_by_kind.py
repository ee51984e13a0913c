"""CPU seconds of a command's process tree by kind of process: Chromium's renderer, GPU process,
browser and utility processes, Playwright's node, the forked gateways/workers, redis-server, pytest.

    python bench/cpu_by_kind.py --out X.tsv -- python -m pytest -q "tests/web/...::test_x[navegador]" -s

It runs the command and samples /proc twice a second: each descendant's own utime + stime (threads
included), the last value seen per pid. A process that lives under half a second is missed, and
CPU a process spends after its last sample; neither matters for a browser game of a minute. Used
for the per-move Chromium figures of bench/RESULTS.md ("Suite time, stop 23").
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path

TICK = os.sysconf("SC_CLK_TCK")
CHROMIUM_TYPES = ("renderer", "gpu-process", "utility", "zygote", "crashpad-handler")


def kind_of(pid: int) -> str:
    """A short name for what the process is, from its command line ('other' if none fits)."""
    try:
        argv = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
    except OSError:
        return "other"
    line = b" ".join(argv).decode(errors="replace")
    if "chrom" in line:
        return next((f"chromium-{t}" for t in CHROMIUM_TYPES if f"--type={t}" in line), "chromium-browser")
    kinds = {"redis-server": "redis", "forkserver": "forked (gateways, workers, matchmaker)", "pytest": "pytest"}
    if os.path.basename(argv[0].decode(errors="replace")) == "node":
        return "node (Playwright's driver)"
    return next((k for marker, k in kinds.items() if marker in line), "other")


def tree(root: int) -> dict[int, float]:
    """CPU seconds (own, threads included) of `root` and every live descendant."""
    cpu: dict[int, float] = {}
    children: defaultdict[int, list[int]] = defaultdict(list)
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            text = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        fields = text[text.rindex(")") + 2 :].split()
        cpu[int(entry)] = (int(fields[11]) + int(fields[12])) / TICK
        children[int(fields[1])].append(int(entry))
    found: dict[int, float] = {}
    todo = [root]
    while todo:
        pid = todo.pop()
        if pid in cpu:
            found[pid] = cpu[pid]
        todo.extend(children[pid])
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, required=True, help="TSV of 'seconds<TAB>kind', most first")
    parser.add_argument("command", nargs=argparse.REMAINDER, help="-- then the command to run")
    args = parser.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    proc = subprocess.Popen(command)
    seen: dict[int, tuple[str, float]] = {}
    while proc.poll() is None:
        for pid, cpu in tree(proc.pid).items():
            seen[pid] = (seen[pid][0] if pid in seen else kind_of(pid), cpu)
        time.sleep(0.5)
    totals: defaultdict[str, float] = defaultdict(float)
    for kind, cpu in seen.values():
        totals[kind] += cpu
    args.out.write_text("".join(f"{cpu:.1f}\t{kind}\n" for kind, cpu in sorted(totals.items(), key=lambda kv: -kv[1])))
    return proc.returncode


if __name__ == "__main__":
    sys.exit(main())
