"""docker-compose.yml and the Dockerfile (no Docker engine here): they parse, name only commands the
package installs, and say what the server's and the client's own option parsers accept."""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path
from urllib.parse import urlparse

import pytest
import yaml

from client.bots import BOTS
from client.cli import build_parser as client_parser
from server.cli import build_parser as server_parser
from server.cli import settings_from_args

ROOT = Path(__file__).resolve().parents[1]
SCRIPTS = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]


def interpolate(argv: list[str]) -> list[str]:
    """Compose's ``${VAR:-default}`` with the defaults (what ``docker compose up`` runs)."""
    return [re.sub(r"\$\{\w+:-([^}]*)\}", r"\1", str(arg)) for arg in argv]


@pytest.fixture(scope="module")
def compose() -> dict:
    return yaml.safe_load((ROOT / "docker-compose.yml").read_text())


@pytest.fixture(scope="module")
def server_settings(compose):
    argv = interpolate(compose["services"]["server"]["command"])
    assert argv[0] == "quoridor-server"
    return settings_from_args(server_parser().parse_args(argv[1:]))


def started(compose) -> dict[str, dict]:
    """The services `docker compose up` starts: those of a profile (``--profile queue``) only when asked for."""
    return {name: service for name, service in compose["services"].items() if "profiles" not in service}


def bots(compose) -> dict[str, list[str]]:
    return {name: interpolate(service["command"]) for name, service in started(compose).items() if name != "server"}


def test_the_queue_profile_adds_the_engine_and_workers_of_the_same_image(compose):
    queue = {n: s for n, s in compose["services"].items() if "queue" in s.get("profiles", ())}
    workers = {n: s for n, s in queue.items() if s["command"][0] == "quoridor-worker"}
    assert len(workers) >= 2 and set(queue) - set(workers) == {"engine"}
    for service in workers.values():
        assert service["image"] == "quoridor-arena" and service["build"] == "."
        assert service["command"][1:3] == ["--queue", "redis://engine:6379/0"]
        assert service["depends_on"]["engine"]["condition"] == "service_healthy"


def test_every_service_runs_a_command_the_package_installs(compose):
    for name, service in started(compose).items():
        assert service["command"][0] in SCRIPTS, name
        assert service["image"] == "quoridor-arena" and service["build"] == "."


def test_the_server_listens_for_both_transports_and_keeps_its_data_in_the_volume(compose, server_settings):
    server = compose["services"]["server"]
    assert server_settings.host == "0.0.0.0"
    published = {mapping.split(":")[-1] for mapping in server["ports"]}
    assert published == {str(server_settings.port), str(server_settings.legacy_port)}
    mounts = {mount.split(":")[1]: mount.split(":")[0] for mount in server["volumes"]}
    assert str(server_settings.data_dir) in mounts and mounts[str(server_settings.data_dir)] in compose["volumes"]
    probe = " ".join(server["healthcheck"]["test"])
    assert f"{server_settings.port})" in probe


def test_the_bots_are_enough_for_the_tournament_and_reach_the_server(compose, server_settings):
    commands = bots(compose)
    assert len(commands) == server_settings.players            # `docker compose up` starts at once
    keys = set()
    for name, argv in commands.items():
        assert argv[0] == "quoridor-client", name
        args = client_parser().parse_args(argv[1:])
        target = urlparse(args.server)
        assert (target.hostname, target.port) == ("server", server_settings.port)
        assert args.bot in BOTS
        keys.add(args.key)
        assert compose["services"][name]["depends_on"]["server"]["condition"] == "service_healthy"
    assert len(keys) == len(commands)


def test_the_dockerfile_installs_the_package_and_exposes_both_ports(server_settings):
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert re.search(r"^FROM python:3\.1[1-9]", dockerfile, re.M)
    assert re.search(r"^RUN pip install \.", dockerfile, re.M)
    packages = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"]["find"]
    for package in (name.rstrip("*") for name in packages["include"]):
        assert re.search(rf"^COPY {package} ", dockerfile, re.M), package
    exposed = set(re.search(r"^EXPOSE (.+)$", dockerfile, re.M).group(1).split())
    assert exposed == {str(server_settings.port), str(server_settings.legacy_port)}
    command = json.loads(re.search(r"^CMD (\[.+\])$", dockerfile, re.M).group(1))   # exec form: JSON
    assert command[0] in SCRIPTS
    server_parser().parse_args(command[1:])                 # exits the test with code 2 if it does not parse


def test_the_build_context_leaves_out_local_state():
    ignored = (ROOT / ".dockerignore").read_text().split()
    assert {".venv", ".git", "replays"} <= set(ignored)


def test_the_image_installs_the_sandbox_and_the_cpp_compiler_before_the_projects_files():
    dockerfile = (ROOT / "Dockerfile").read_text()
    install = re.search(r"^RUN apt-get update.*?apt-get install -y --no-install-recommends ([^\\\n&]+)", dockerfile,
                        re.M | re.S)
    assert install is not None, "no apt-get install -y --no-install-recommends layer"
    assert {"bubblewrap", "g++", "gcc", "nlohmann-json3-dev"} <= set(install.group(1).split())
    assert install.start() < dockerfile.index("\nCOPY ")       # a change of code does not fetch the compiler again
