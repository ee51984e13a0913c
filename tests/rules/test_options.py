"""The wire forms of options (docs/games.md, "Options"): one spelling per setting."""

from __future__ import annotations

import pytest

from flotilla.games.navegador.config import Config as Navegador
from flotilla.games.port_royal.config import Config as PortRoyal
from flotilla.rules.errors import InvalidConfig
from flotilla.rules.options import canonical_options, config_from_options, explicit_options, spelled_option


def test_explicit_options_keep_named_defaults_in_one_spelling() -> None:
    config = config_from_options(PortRoyal, 2, {"mode": "Base", "difficulty": "0"})
    assert explicit_options(config, ["mode", "difficulty"]) == {"difficulty": "0", "mode": "base"}
    assert canonical_options(config) == {}  # tickets' queues leave defaults out


@pytest.mark.parametrize("raw", ["yes", "TRUE", "1", "On"])
def test_every_flag_word_is_spelled_true(raw: str) -> None:
    assert spelled_option(Navegador, "random_colours", raw) == "true"


@pytest.mark.parametrize(
    ("name", "raw"), [("random_colours", "maybe"), ("difficulty", "+1"), ("difficulty", "\u0661"), ("nope", "1")]
)
def test_a_value_the_game_does_not_take_is_refused(name: str, raw: str) -> None:
    config_type = Navegador if name == "random_colours" else PortRoyal
    with pytest.raises(InvalidConfig):
        spelled_option(config_type, name, raw)
