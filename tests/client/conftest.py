"""Client tests reuse the server fixtures (a real server on 127.0.0.1 port 0)."""

from tests.server.conftest import make_server  # noqa: F401 - a fixture
