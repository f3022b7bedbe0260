"""``python -m server``: the referee server."""

import sys

from .cli import main

sys.exit(main())
