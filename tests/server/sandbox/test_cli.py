"""``--unsafe-no-sandbox``: a setting, and a loud warning at every start; the package's exports resolve."""

from __future__ import annotations

import io

import server.sandbox
from server.app import ArenaServer
from server.cli import build_parser, settings_from_args
from server.views.dashboard import PlainReporter
from server.sandbox import UNSAFE_WARNING, SandboxLimits, sandbox_notice
from server.settings import ServerSettings


def test_the_flag_makes_the_sandbox_unsafe_and_the_default_is_safe():
    assert settings_from_args(build_parser().parse_args(["--unsafe-no-sandbox"])).sandbox.unsafe
    assert settings_from_args(build_parser().parse_args([])).sandbox == SandboxLimits()


async def test_an_unsafe_server_warns_at_every_start(tmp_path):
    for _ in range(2):
        out = io.StringIO()
        server = ArenaServer(ServerSettings(port=0, data_dir=tmp_path, players=2, sandbox=SandboxLimits(unsafe=True)),
                             PlainReporter(out))
        await server.start()
        await server.close()
        assert UNSAFE_WARNING in out.getvalue() and "WITHOUT the sandbox" in UNSAFE_WARNING


def test_the_notice_says_how_to_install_bubblewrap_when_it_does_not_work(monkeypatch):
    monkeypatch.setattr("server.sandbox.status.sandbox_status", lambda: "bwrap (bubblewrap) is not installed: "
                        "install bubblewrap (Debian/Ubuntu: apt-get install bubblewrap)")
    notice = sandbox_notice(False)
    assert notice is not None and notice.startswith("handed-in bots are refused") and "apt-get install bubblewrap" in notice
    assert sandbox_notice(True) == UNSAFE_WARNING


def test_exports_resolve():
    assert all(hasattr(server.sandbox, name) for name in server.sandbox.__all__)
