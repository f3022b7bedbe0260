"""``python -m server``: the referee server."""

import sys

from server.cli import main

sys.exit(main())
