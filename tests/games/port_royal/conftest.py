"""Make the Port Royal test helpers (pr_builders) importable under importlib mode."""

from __future__ import annotations

import os
import sys

_HERE = os.path.dirname(__file__)
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)
