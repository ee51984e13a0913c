"""Fixtures of the simulated-hosts tests (`hosts.netns`)."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator

import pytest

from hosts.netns import HostsUnavailable, Net, sweep_stale


def _unavailable(why: str) -> None:
    """On CI (CI set) a machine that cannot make hosts fails; elsewhere the tests skip."""
    if os.environ.get("CI"):
        pytest.fail(f"simulated hosts need root, iproute2 and nftables (scripts/bootstrap-hosts): {why}")
    pytest.skip(f"simulated hosts unavailable: {why}")


@pytest.fixture(scope="module")
def net() -> Iterator[Net]:
    """A fresh set of simulated hosts for the module (stale ones of crashed runs swept first);
    every process, link and namespace it made is gone after the module, also when it failed."""
    if os.geteuid() != 0:
        _unavailable("not root")
    if shutil.which("nft") is None or shutil.which("ip") is None:
        _unavailable("no `nft` or `ip`")
    try:
        sweep_stale()
        made = Net()
    except HostsUnavailable as error:
        _unavailable(str(error))
        raise
    try:
        yield made
    finally:
        made.close()
