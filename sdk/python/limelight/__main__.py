"""``python -m limelight``: the limelight command (limelight/cli/main.py)."""

import sys

from .cli import main

sys.exit(main())
