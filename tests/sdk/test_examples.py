"""Every example of the SDK's README (clients/python/examples/) runs to the end against real gateways."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from support import Stack

pytestmark = [pytest.mark.redis, pytest.mark.timeout(120)]
EXAMPLES = Path(__file__).resolve().parents[2] / "clients" / "python" / "examples"
EXPECTED = {  # a line each example prints once it did what it shows
    "quickstart.py": "seed verified",
    "sync_client.py": "finished: True",
    "bot.py": "game over at event",
    "my_bot.py": "my bot: ",
    "watch_resume.py": "saw events",
    "lobby.py": "leaderboard rows",
    "errors.py": "stale move refused:",
}


def test_every_example_is_run_here() -> None:
    assert sorted(p.name for p in EXAMPLES.glob("*.py")) == sorted(EXPECTED)


@pytest.mark.parametrize("example", sorted(EXPECTED))
def test_the_example_runs(stack: Stack, example: str) -> None:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    done = subprocess.run(
        [sys.executable, str(EXAMPLES / example), stack.gateways[0]],
        capture_output=True,
        text=True,
        timeout=90,
        check=False,
        env=env,
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-3000:]
    assert EXPECTED[example] in done.stdout, done.stdout[-2000:]


def test_the_readme_shows_only_code_the_examples_run() -> None:
    """Each code block of clients/python/README.md stands verbatim in the example file it names."""
    readme = (EXAMPLES.parent / "README.md").read_text()
    blocks = re.findall(r"\[`examples/([a-z_]+\.py)`\]\(examples/[a-z_]+\.py\):\n\n```python\n(.*?)```", readme, re.S)
    assert len(blocks) == len(re.findall(r"```python", readme)) == 7
    for example, block in blocks:
        source = (EXAMPLES / example).read_text()
        missing = [line for line in block.splitlines() if line not in source.splitlines()]
        assert not missing, f"README lines not in examples/{example}: {missing}"
