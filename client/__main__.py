"""``python -m client``: connect a bot to a server."""

import sys

from .cli import main

sys.exit(main())
