"""The engine (Redis) as the server and the workers reach it: the URL checked, patient clients, key names.

``check_url`` turns a bad ``--queue`` into one line. ``connect`` makes a client whose every command
waits for the engine while it is down (redis-py's ``Retry`` with no limit) and says so in the log
at most every ``WARN_EVERY_S`` seconds, never with a traceback; ``wait_for_engine`` does the same
at start, naming what is wrong (refused, unknown host, wrong password). ``Keys`` names everything
this project keeps in the engine beside saq's own keys.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from dataclasses import dataclass
from urllib.parse import urlsplit, urlunsplit

from redis.asyncio import Redis
from redis.asyncio.retry import Retry
from redis.backoff import AbstractBackoff, NoBackoff
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import RedisError
from redis.exceptions import TimeoutError as RedisTimeoutError

from server.queue.jobs import PROTOCOL

__all__ = ["EngineUrlError", "Keys", "check_url", "shown_url", "connect", "probe", "wait_for_engine",
           "PatientBackoff", "WARN_EVERY_S"]

#: Seconds between two warnings that the engine does not answer.
WARN_EVERY_S = 10.0
_SCHEMES = ("redis", "rediss", "unix")
_last_warning: dict[str, float] = {}


class EngineUrlError(ValueError):
    """A ``--queue`` URL that names no Redis engine; the message says what is wrong and what is expected."""


def check_url(url: str) -> str:
    """``url`` when it names a Redis engine (``redis://HOST:PORT/N``, ``rediss://``, ``unix://``); else an error."""
    expected = "expected redis://HOST:PORT/N (for example redis://127.0.0.1:6379/0)"
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as exc:
        raise EngineUrlError(f"--queue {url!r} is not a URL ({exc}); {expected}") from None
    if parts.scheme not in _SCHEMES:
        raise EngineUrlError(f"--queue {url!r}: the scheme must be redis://, rediss:// or unix://; {expected}")
    if parts.scheme != "unix" and not parts.hostname:
        raise EngineUrlError(f"--queue {url!r} names no host; {expected}")
    if port is not None and not 0 < port < 65536:
        raise EngineUrlError(f"--queue {url!r}: port {port} is out of range; {expected}")
    db = parts.path.strip("/")
    if parts.scheme != "unix" and db and not db.isdigit():
        raise EngineUrlError(f"--queue {url!r}: the database after the port must be a number, got {db!r}; {expected}")
    return url


def shown_url(url: str) -> str:
    """``url`` without its password, for logs."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = f"{parts.username or ''}:***@{parts.hostname}" + (f":{parts.port}" if parts.port else "")
    return urlunsplit((parts.scheme, netloc, parts.path, parts.query, parts.fragment))


class PatientBackoff(AbstractBackoff):
    """Exponential backoff with jitter, up to ``cap_s``; warns (one line, rate-limited) that the engine is away."""

    def __init__(self, label: str, logger: str, *, base_s: float = 0.05, cap_s: float = 2.0) -> None:
        self.label = label
        self.logger = logger
        self.base_s = base_s
        self.cap_s = cap_s

    def compute(self, failures: int) -> float:
        """Seconds to wait before try ``failures + 1``; a warning now and then while the engine is away."""
        delay = min(self.cap_s, self.base_s * 2 ** min(failures, 20)) * random.uniform(0.5, 1.0)
        now = time.monotonic()
        if now - _last_warning.get(self.label, -WARN_EVERY_S) >= WARN_EVERY_S:
            _last_warning[self.label] = now
            logging.getLogger(self.logger).warning(
                "the engine at %s does not answer; waiting for it (trying again every %.0f s at most)",
                self.label, self.cap_s)
        return delay


def connect(url: str, logger: str) -> Redis:
    """A client of the engine at ``url`` whose commands wait (with backoff) while the engine is down."""
    retry = Retry(PatientBackoff(shown_url(url), logger), retries=-1,
                  supported_errors=(RedisConnectionError, RedisTimeoutError, ConnectionError, OSError))
    return Redis.from_url(check_url(url), retry=retry, socket_connect_timeout=5, socket_keepalive=True,
                          health_check_interval=15)


async def probe(url: str) -> str | None:
    """``None`` when the engine at ``url`` answers a ``PING``; else what is wrong, in one line."""
    client = Redis.from_url(check_url(url), socket_connect_timeout=5, socket_timeout=5,
                            retry=Retry(NoBackoff(), 0))
    try:
        await client.ping()
        return None
    except (RedisError, OSError) as exc:
        return " ".join(str(exc).split()).rstrip(".") or type(exc).__name__
    finally:
        await client.aclose()


async def wait_for_engine(url: str, log: logging.Logger, *, cap_s: float = 30.0) -> None:
    """Return once the engine at ``url`` answers; meanwhile one line per try says what is wrong and when the next is."""
    delay = 1.0
    while True:
        problem = await probe(url)
        if problem is None:
            return
        log.warning("cannot reach the engine at %s: %s; trying again in %.0f s", shown_url(url), problem, delay)
        await asyncio.sleep(delay)
        delay = min(cap_s, delay * 2)


@dataclass(frozen=True)
class Keys:
    """The names this project uses in the engine (saq keeps its own under ``saq:QUEUE:``)."""

    prefix: str = "quoridor"

    @property
    def queue(self) -> str:
        """The saq queue of this job protocol: a worker of another protocol never takes its jobs."""
        return f"{self.prefix}-p{PROTOCOL}"

    @property
    def analysis_queue(self) -> str:
        """The saq queue of analysis jobs (``server.queue.analysis``): served beside the pairings, never in their place."""
        return f"{self.prefix}-p{PROTOCOL}-analysis"

    @property
    def server(self) -> str:
        """Where the server says which job protocol it speaks."""
        return f"{self.prefix}:server"

    def bot(self, digest: str) -> str:
        """A handed-in bot's files (a zip archive, base64) by their content digest."""
        return f"{self.prefix}:bot:{digest}"

    def steps(self, job: str) -> str:
        """The stream of a job's step events."""
        return f"{self.prefix}:steps:{job}"

    def wake(self, host: str) -> str:
        """A server's own stream that wakes its step reader when it has a new job to follow."""
        return f"{self.prefix}:wake:{host}"
