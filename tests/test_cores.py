"""Cores this process may use (affinity, cgroup v2 / v1 quota) and the process counts sized from them."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from flotilla.cores import Sizing, available_cpus, cgroup_quota, resolve, size_for
from flotilla.processes import metrics_port_of, split_bind


def test_cgroup_v2_quota(tmp_path: Path) -> None:
    (tmp_path / "cpu.max").write_text("max 100000\n")
    assert cgroup_quota(tmp_path) is None  # unlimited
    (tmp_path / "cpu.max").write_text("150000 100000\n")
    assert cgroup_quota(tmp_path) == 1.5


def test_cgroup_v1_quota(tmp_path: Path) -> None:
    (tmp_path / "cpu").mkdir()
    (tmp_path / "cpu" / "cpu.cfs_period_us").write_text("100000\n")
    (tmp_path / "cpu" / "cpu.cfs_quota_us").write_text("-1\n")
    assert cgroup_quota(tmp_path) is None
    (tmp_path / "cpu" / "cpu.cfs_quota_us").write_text("300000\n")
    assert cgroup_quota(tmp_path) == 3.0
    assert cgroup_quota(tmp_path / "nothing") is None  # no cgroup files: no quota


def test_available_cpus_is_the_affinity_capped_by_the_quota_rounded_up(tmp_path: Path) -> None:
    affinity = len(os.sched_getaffinity(0))
    assert available_cpus(tmp_path) == affinity  # no quota files
    (tmp_path / "cpu.max").write_text("50000 100000\n")
    assert available_cpus(tmp_path) == 1  # half a core still runs one process
    (tmp_path / "cpu.max").write_text(f"{(affinity + 8) * 100000} 100000\n")
    assert available_cpus(tmp_path) == affinity  # a quota above the CPUs it may run on


def test_sizing_splits_the_cores_with_at_least_one_gateway_and_two_workers() -> None:
    assert size_for(1) == Sizing(1, gateway_processes=1, workers=2)
    assert size_for(2) == Sizing(2, gateway_processes=1, workers=2)  # `flotilla up` on 2 cores, as before
    assert size_for(4) == Sizing(4, gateway_processes=2, workers=2)
    assert size_for(9) == Sizing(9, gateway_processes=4, workers=4)


def test_resolve_takes_a_given_count_and_sizes_zero() -> None:
    assert resolve(3, "workers") == 3
    assert resolve(0, "workers") == size_for(available_cpus()).workers
    with pytest.raises(ValueError, match=r"0 \(sized from the cores\) or positive"):
        resolve(-1, "gateway_processes")


def test_children_metrics_ports_follow_the_base() -> None:
    assert metrics_port_of("gateway", 0, None) == "9100"
    assert metrics_port_of("gateway", 2, 19000) == "19002"
    assert metrics_port_of("worker", 1, None) == "9102"
    assert metrics_port_of("worker", 3, 0) == "0"


def test_split_bind() -> None:
    assert split_bind("127.0.0.1:50051") == ("127.0.0.1", 50051)
    assert split_bind("[::]:50051") == ("::", 50051)
    with pytest.raises(ValueError, match="not host:port"):
        split_bind("50051")
