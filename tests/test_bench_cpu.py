"""bench/proc_cpu.py, what the benchmark's server CPU per move rests on: a process's CPU from /proc
counts its threads and its descendant processes (the gateway group's children, say)."""

from __future__ import annotations

import importlib.util
import os
import signal
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

pytestmark = pytest.mark.timeout(60)

BURNER = """  # a thread burns 0.2 s and ends; a child process burns 0.2 s and stays
import subprocess, sys, threading, time
def burn(seconds):
    start = time.thread_time()
    while time.thread_time() - start < seconds:
        pass
thread = threading.Thread(target=burn, args=(0.2,))
thread.start()
thread.join()
child = subprocess.Popen([sys.executable, "-c", sys.argv[1]], stdout=subprocess.PIPE, text=True)
child.stdout.readline()
print(child.pid, flush=True)
time.sleep(30)
"""
LEAF = """
import time
start = time.process_time()
while time.process_time() - start < 0.2:
    pass
print("burnt", flush=True)
time.sleep(30)
"""


def proc_cpu() -> ModuleType:
    path = Path(__file__).resolve().parents[1] / "bench" / "proc_cpu.py"
    spec = importlib.util.spec_from_file_location("proc_cpu", path)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_tree_cpu_counts_threads_and_descendants() -> None:
    cpu = proc_cpu()
    parent = subprocess.Popen([sys.executable, "-c", BURNER, LEAF], stdout=subprocess.PIPE, text=True)
    grandchild = 0
    try:
        assert parent.stdout is not None
        grandchild = int(parent.stdout.readline())  # both have burnt their 0.2 s by now
        assert cpu.descendants(parent.pid) == [parent.pid, grandchild]
        own = cpu.tree_cpu_seconds([grandchild])  # a leaf: itself only
        assert own >= 0.19
        whole = cpu.tree_cpu_seconds([parent.pid])
        assert whole - own >= 0.19  # the parent's finished thread is in its own figure
        assert cpu.command_name(parent.pid).startswith("python")
        groups = cpu.parse_groups(cpu.format_groups({"gateway": [parent.pid], "redis": [grandchild]}))
        assert groups == {"gateway": [parent.pid], "redis": [grandchild]}
        assert cpu.sample(groups)["gateway"] == pytest.approx(whole, abs=0.05)
    finally:
        if grandchild:
            os.kill(grandchild, signal.SIGKILL)
        parent.kill()
        parent.wait()
        if parent.stdout is not None:
            parent.stdout.close()
