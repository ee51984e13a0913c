"""Bot policies: what plays a seat when no human does (rooms' bot seats, matchmaking fill-in,
seat takeover, `flotilla bot`, the arena). See `policy.py` for the interface."""

from flotilla.bots.policy import POLICIES, Decision, Policy, PolicyFactory, decision_from_state, make, register

__all__ = ["POLICIES", "Decision", "Policy", "PolicyFactory", "decision_from_state", "make", "register"]

from flotilla.bots import heuristic as heuristic  # registers "heuristic"
from flotilla.bots import ismcts as ismcts  # registers "ismcts"
