"""``Limits``: what one connection or one address may do (its rate, its frames, its share of the server).

The connections (``server.net.connection.Peer``) and their registry (``server.net.connections``)
enforce them; ``server.settings.ServerSettings`` holds them (``limits``) among the server's settings.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

__all__ = ["Limits"]


class Limits(BaseModel):
    """Abuse limits: what one connection or one address may do."""

    model_config = ConfigDict(frozen=True)

    max_frame_bytes: int = Field(4096, ge=256, description="largest frame accepted")
    max_puzzle_frame_bytes: int = Field(128 * 1024, ge=256,
                                        description="largest frame accepted in a puzzle room (XSB levels of 64 KiB)")
    messages_per_second: float = Field(50, gt=0, description="sustained messages per second per connection "
                                       "(the step a game awaits is exempt)")
    burst: int = Field(100, ge=1, description="messages a connection may send at once before the rate applies")
    max_connections: int = Field(2048, ge=1, description="connections open at once, handshakes included (the server "
                                 "also keeps to half its open-file limit)")
    max_pending_per_address: int = Field(32, ge=1, description="connections from one address that have not said "
                                         "hello yet (handshakes included); at the quota a new one takes the place "
                                         "of the oldest")
    max_anonymous_per_address: int = Field(256, ge=1, description="connections from one address that hold no key "
                                           "the server checked (spectators; puzzle rooms without a roster); "
                                           "players are never counted here")
    strikes_to_close: int = Field(10, ge=1, description="bad frames in a row after which a connection is closed")
    handshake_timeout_s: float = Field(5, gt=0, description="seconds a new connection has to finish the websocket "
                                       "handshake")
    hello_timeout_s: float = Field(10, gt=0, description="seconds a new connection has to say hello")
    send_timeout_s: float = Field(10, gt=0, description="seconds a client may stay behind in reading before it is "
                                  "closed")
    max_unsent_bytes: int = Field(256 * 1024, ge=4096, description="unsent bytes after which a connection that "
                                  "does not read is closed")
    send_high_water: int = Field(64 * 1024, ge=1024, description="unsent bytes above which a connection gets only "
                                 "the latest game updates and standings")
    socket_send_buffer: int = Field(64 * 1024, ge=4096, description="each socket's kernel send buffer (SO_SNDBUF): "
                                    "bounds what the kernel queues for a client that does not read")
    watched_games: int = Field(64, ge=1, description="distinct games one spectator may watch")
