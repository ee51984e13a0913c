"""The registry serves every rules version a game package declares: the current one (new games)
and its `LEGACY_RULES` (games in flight); hosts, work streams and catalogues follow it."""

from __future__ import annotations

import pytest

from flotilla.app import catalogue
from flotilla.app.errors import CatalogNotFound, RulesVersionUnavailable
from flotilla.app.host import host_for
from flotilla.games import REGISTRY, navegador, rules_at, served
from flotilla.store import keys
from flotilla.worker.loop import work_streams


def test_every_kind_serves_its_current_version_first() -> None:
    for kind, rules in REGISTRY.items():
        assert served(kind)[0] is rules
        assert rules_at(kind, rules.version) is rules
    assert served("navegador") == (navegador.RULES, navegador.RULES_V1)
    assert served("chess") == ()


def test_hosts_run_the_version_a_game_was_created_with() -> None:
    assert host_for("navegador").rules is navegador.RULES
    assert host_for("navegador", "2") is host_for("navegador")
    assert host_for("navegador", "1").rules is navegador.RULES_V1
    assert host_for("navegador", "1").codec is not host_for("navegador", "2").codec
    with pytest.raises(RulesVersionUnavailable) as caught:
        host_for("navegador", "3")
    assert caught.value.metadata == {"kind": "navegador", "rules_version": "3"}
    with pytest.raises(RulesVersionUnavailable):
        host_for("port_royal", "2")


def test_workers_read_the_streams_of_every_served_version() -> None:
    streams = work_streams(2)
    expected = {keys.work(kind, r.version, shard) for kind in REGISTRY for r in served(kind) for shard in range(2)}
    assert set(streams) == expected
    assert len(streams) == len(expected)
    assert keys.work("navegador", "1", 1) in streams


def test_the_catalogue_answers_for_every_served_version() -> None:
    assert catalogue.requested("navegador", "") == ("navegador", "2")
    assert catalogue.requested("navegador", "1") == ("navegador", "1")
    with pytest.raises(CatalogNotFound):
        catalogue.requested("navegador", "3")
    assert [k.rules_version for k in catalogue.kinds() if k.kind == "navegador"] == ["2"]
