"""The conformance harness on the benchmark `counter` game (also a smoke test of the harness)."""

from flotilla.games import REGISTRY
from flotilla.rules.testing import check_rules


def test_counter_meets_the_rules_contract() -> None:
    rules = REGISTRY["counter"]
    report = check_rules(rules, rules.config_type(), seeds=range(20))
    assert report.games == 20
    assert report.steps == 20 * 200
    assert report.leak_checks > 0
    assert all(r.scores[0] == r.scores[1] for r in report.results)
