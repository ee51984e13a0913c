"""The gateway's collector policy: full collections only within the pause budget; pauses are measured."""

from __future__ import annotations

import asyncio
import gc
import weakref

import pytest
from prometheus_client import REGISTRY

from flotilla import metrics
from flotilla.gc_policy import NO_AUTOMATIC_FULL, RECOUNT_STEPS, GcPolicy


class Node:
    def __init__(self) -> None:
        self.me = self  # a cycle: only a collection frees it


def aged_cycle() -> weakref.ref[Node]:
    """A cycle that became garbage after it was frozen (as a long-lived stream's objects would)."""
    node = Node()
    gc.freeze()
    return weakref.ref(node)


async def test_full_collections_run_only_within_the_budget() -> None:
    policy = GcPolicy(budget_s=0.0, interval_s=3600, max_age_s=0, min_gap_s=0)
    policy.start()
    try:
        assert gc.get_threshold()[2] == NO_AUTOMATIC_FULL
        assert policy.full_collections == 1  # startup's objects collected, the rest frozen
        cycle = aged_cycle()
        gc.collect()  # what the automatic collections do: the frozen generation is not traversed
        assert policy.step() is False
        assert cycle() is not None
        policy.budget_s = 3600.0
        assert policy.step() is True
        assert cycle() is None
        assert policy.full_collections == 2
        assert policy.cost_s > 0
    finally:
        await policy.stop()
    assert gc.get_threshold()[2] != NO_AUTOMATIC_FULL
    assert gc.get_freeze_count() == 0


async def test_an_overdue_full_collection_runs_over_budget() -> None:
    policy = GcPolicy(budget_s=0.0, interval_s=3600, max_age_s=1e-9)
    policy.start()
    try:
        cycle = aged_cycle()
        await asyncio.sleep(0.01)
        assert policy.step() is True
        assert cycle() is None
    finally:
        await policy.stop()


async def test_a_full_collection_within_budget_waits_for_its_gap_or_growth() -> None:
    """A small heap fits any budget: it is still not collected in full every interval."""
    policy = GcPolicy(budget_s=3600.0, interval_s=3600, max_age_s=0, min_gap_s=3600)
    policy.start()
    try:
        cycle = aged_cycle()
        assert policy.step() is False  # within budget, but neither the gap nor growth says so
        assert cycle() is not None
        grown = [[i] for i in range(policy.after_full)]  # the frozen count (estimated: blocks) grows by half
        assert policy.step() is True
        assert cycle() is None
        assert policy.step() is False  # and then waits again
        del grown
    finally:
        await policy.stop()


def test_collector_pauses_are_exported() -> None:
    pauses = metrics.watch_gc()
    assert metrics.watch_gc() is pauses  # once per process
    before = REGISTRY.get_sample_value("flotilla_gc_pause_seconds_count", {"generation": "2"}) or 0.0
    gc.collect()
    assert REGISTRY.get_sample_value("flotilla_gc_pause_seconds_count", {"generation": "2"}) == before + 1
    assert (REGISTRY.get_sample_value("flotilla_gc_pause_max_seconds") or 0.0) > 0


async def test_the_heap_is_trimmed_once_half_the_frozen_objects_died() -> None:
    policy = GcPolicy(budget_s=0.0, interval_s=3600, max_age_s=0)
    policy.start()
    trims: list[int] = []
    policy.trim = lambda: trims.append(gc.get_freeze_count())
    try:
        many = [[i] for i in range(2 * gc.get_freeze_count() + 100_000)]  # more than everything else frozen
        assert policy.step() is False
        assert trims == []
        del many  # freed by reference counting, frozen or not
        assert policy.step() is False
        assert len(trims) == 1
        assert policy.step() is False
        assert len(trims) == 1  # not again until the next fall by half
    finally:
        await policy.stop()


def counting(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The counts of the frozen objects (each a walk of all of them) from here on."""
    counts: list[int] = []
    real = gc.get_freeze_count

    def counted() -> int:
        counts.append(real())
        return counts[-1]

    monkeypatch.setattr(gc, "get_freeze_count", counted)
    return counts


async def test_the_frozen_objects_are_counted_once_every_few_steps(monkeypatch: pytest.MonkeyPatch) -> None:
    """Counting them walks every one (10-30 ms per 100k): in between, a step estimates them from the
    memory blocks allocated (more objects, more blocks), and counts every `RECOUNT_STEPS` steps."""
    policy = GcPolicy(budget_s=3600.0, interval_s=3600, max_age_s=0, min_gap_s=3600)
    policy.start()
    counts = counting(monkeypatch)
    try:
        before = policy.frozen
        young = [[i] for i in range(policy.frozen // 10)]
        assert policy.step() is False
        assert counts == []
        assert policy.frozen > before
        for _ in range(RECOUNT_STEPS - 2):
            policy.step()
        assert counts == []
        policy.step()
        assert len(counts) == 1
        assert policy.frozen == counts[0]
        del young
    finally:
        await policy.stop()


async def test_a_heap_too_big_for_a_full_collection_is_never_walked_to_count_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """20k idle streams are ~2M frozen objects: a count every 10 s stalled the loop 0.3-0.6 s. When
    no full collection could fit the budget, the count decides nothing: the estimate serves."""
    policy = GcPolicy(budget_s=0.0, interval_s=3600, max_age_s=0)
    policy.start()
    counts = counting(monkeypatch)
    try:
        for _ in range(3 * RECOUNT_STEPS):
            assert policy.step() is False
        assert counts == []
    finally:
        await policy.stop()


async def test_young_cyclic_garbage_is_collected_not_frozen() -> None:
    """A cycle that died before the step (a refused call's exception and frames) is freed by the
    step's young collection; frozen, only a full collection (hours away under load) would free it."""
    policy = GcPolicy(budget_s=0.0, interval_s=3600, max_age_s=0)
    policy.start()
    try:
        gc.disable()  # no automatic young collection between here and the step
        cycle = weakref.ref(Node())
        assert cycle() is not None
        assert policy.step() is False
        assert cycle() is None
    finally:
        gc.enable()
        await policy.stop()


async def test_a_full_collection_an_estimate_allows_waits_for_the_count() -> None:
    """The estimate (from memory blocks) may be low: the count decides before the pause."""
    policy = GcPolicy(budget_s=0.0, interval_s=3600, max_age_s=0, min_gap_s=0)
    policy.start()
    try:
        policy.budget_s = policy.cost_s * 10  # ten objects' worth: far fewer than are frozen
        policy.counted = (1, 10**12)  # an estimate of about none
        assert policy.step() is False
        assert policy.frozen * policy.cost_s > policy.budget_s  # counted
        assert policy.full_collections == 1
    finally:
        await policy.stop()
