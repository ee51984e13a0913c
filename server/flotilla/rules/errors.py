"""Rules errors: nothing was applied when one is raised.

* RulesError
  * InvalidAction          malformed, or not an action of this game     -> INVALID_ARGUMENT
  * InvalidConfig          options a game cannot be created with         -> INVALID_ARGUMENT
  * IllegalAction          well-formed, not allowed now                  -> FAILED_PRECONDITION
    * NotYourTurn
    * GameFinished
    * CannotAfford
"""

from __future__ import annotations


class RulesError(Exception):
    """Base of every rules error; `reason` becomes google.rpc.ErrorInfo.reason."""

    reason = "RULES_ERROR"

    def __init__(self, message: str, /, **metadata: str) -> None:
        super().__init__(message)
        self.message = message
        self.metadata = {k: str(v) for k, v in metadata.items()}


class InvalidAction(RulesError):
    """The action is malformed or names things that do not exist in this game."""

    reason = "INVALID_ACTION"


class InvalidConfig(RulesError):
    """The game cannot be created with these options (seat count, variant, ...)."""

    reason = "INVALID_CONFIG"


class IllegalAction(RulesError):
    """The action is well-formed but not allowed in the current state."""

    reason = "ILLEGAL_ACTION"


class NotYourTurn(IllegalAction):
    """The seat may not act now."""

    reason = "NOT_YOUR_TURN"


class GameFinished(IllegalAction):
    """The game is over; no action applies."""

    reason = "GAME_FINISHED"


class CannotAfford(IllegalAction):
    """The seat lacks the coins or goods the action costs."""

    reason = "CANNOT_AFFORD"
