"""A pytest plugin that prints the CPU seconds (`time.process_time`) each test file's tests took.

Wall-clock `--durations` are inflated by whatever else runs on a shared machine; CPU time is
much less so. Before/after comparisons (bench/results/speed.md) run two trees side by side:

    PYTHONPATH=<tree>/server:<repo>/bench python -m pytest -q -p no:randomly -p pytest_cpu tests/games -k conformance
"""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Generator

import pytest

_CPU: defaultdict[str, float] = defaultdict(float)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Generator[None, None, None]:
    """Add the CPU time of the test's call phase to its file's total."""
    start = time.process_time()
    yield
    _CPU[item.nodeid.split("::")[0]] += time.process_time() - start


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """One line per test file, then the total."""
    for path, seconds in sorted(_CPU.items()):
        terminalreporter.write_line(f"CPU {seconds:8.1f}s {path}")
    terminalreporter.write_line(f"CPU {sum(_CPU.values()):8.1f}s TOTAL")
