"""`python -m flotilla.cli`: the `flotilla` command (what the process supervisors and tests run)."""

import sys

from flotilla.cli import main

sys.exit(main())
