"""The limits of ``veletas serve`` on its connections: how many at once, how
long a client may take to send a request, how large a WebSocket message may
be, and a quiet log when the process runs out of file descriptors
(``docs/serve.md``, "Limits").

Uvicorn reads requests with h11; :func:`server_config` gives it a protocol
that closes a connection whose request has not fully arrived within
``request_seconds`` (one byte sent, then nothing, holds no socket for long)
and answers 503 at once to a connection past ``max_connections``, or past
``max_client_connections`` from one address (so that one client's idle
sockets cannot lock the others out).
"""

from __future__ import annotations

import asyncio
import dataclasses
import errno
import logging
import time
from typing import Any

__all__ = ["EVAL_SECONDS", "MAX_UPLOAD", "ConnectionLimits", "quiet_accept_errors", "server_config"]

log = logging.getLogger("veletas.serve")


@dataclasses.dataclass(frozen=True)
class ConnectionLimits:
    """What one server allows its clients; ``veletas serve --help`` lists them."""

    max_connections: int = 200
    """Connections open at once (requests and WebSockets); past it a new one
    is answered 503 and closed."""
    max_client_connections: int = 32
    """Connections open at once from one address; past it a new one from that
    address is answered 503 and closed. A page needs a few, and one
    WebSocket a game it shows."""
    request_seconds: float = 10.0
    """The time a client has to send a request's headers, and then its body."""
    keep_alive_seconds: float = 5.0
    """How long a connection may sit idle between two requests."""
    max_message: int = 64 * 1024
    """The largest WebSocket message, in bytes (the body limit)."""

    def __post_init__(self) -> None:
        for name in ("max_connections", "max_client_connections"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                raise ValueError(f"{name} must be 1 or more, not {value!r}")
        for name in ("request_seconds", "keep_alive_seconds"):
            if not getattr(self, name) > 0:
                raise ValueError(f"{name} must be above 0, not {getattr(self, name)!r}")


MAX_UPLOAD = 16 * 1024 * 1024
"""The largest file the page may send to start a game from, by default."""

EVAL_SECONDS = 0.25
"""The search time of the page's evaluation of one position, by default."""

_BUSY = (
    b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\n"
    b"connection: close\r\ncontent-length: %d\r\n\r\n%s"
)


def _protocol_class(limits: ConnectionLimits) -> type[asyncio.Protocol]:
    """Uvicorn's h11 protocol, with the request deadline and the connection cap."""
    from uvicorn.protocols.http.h11_impl import H11Protocol

    message = (
        b'{"error": "the server holds %d connections, its limit '
        b'(veletas serve --max-connections): try again later"}' % limits.max_connections
    )
    busy = _BUSY % (len(message), message)
    message = (
        b'{"error": "this address holds %d connections, the limit of one client '
        b'(veletas serve --max-client-connections): try again later"}'
        % limits.max_client_connections
    )
    busy_client = _BUSY % (len(message), message)

    class LimitedH11Protocol(H11Protocol):
        _deadline: asyncio.TimerHandle | None = None

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            refusal = None
            if len(self.connections) > limits.max_connections:
                refusal = busy
            elif self._held_by_this_address() > limits.max_client_connections:
                refusal = busy_client
            if refusal is not None:
                transport.write(refusal)
                transport.close()
                return
            self._watch()

        def _held_by_this_address(self) -> int:
            """The open connections (this one too) from this client's address."""
            host = self.client[0] if self.client else None
            if host is None:
                return 0
            return sum(
                1
                for connection in self.connections
                if (getattr(connection, "client", None) or (None,))[0] == host
            )

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            self._watch()

        def connection_lost(self, exc: Exception | None) -> None:
            self._cancel()
            super().connection_lost(exc)

        def on_response_complete(self) -> None:
            super().on_response_complete()
            self._cancel()  # the keep-alive timeout takes over

        def _in_request(self) -> bool:
            cycle = self.cycle
            return cycle is not None and not cycle.response_complete

        def _watch(self) -> None:
            """Starts the deadline until a request's headers have arrived; the
            app's body reader has its own deadline for the body."""
            if self._in_request() or self.transport.is_closing():
                self._cancel()
            elif self._deadline is None:
                self._deadline = self.loop.call_later(limits.request_seconds, self._expire)

        def _cancel(self) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
                self._deadline = None

        def _expire(self) -> None:
            self._deadline = None
            if self.transport.get_protocol() is not self or self._in_request():
                return  # upgraded to a WebSocket, or the request arrived meanwhile
            if not self.transport.is_closing():
                self.transport.close()

    return LimitedH11Protocol


def server_config(app: Any, limits: ConnectionLimits, **options: Any) -> Any:
    """The ``uvicorn.Config`` of ``app`` under ``limits``."""
    import uvicorn

    return uvicorn.Config(
        app,
        http=_protocol_class(limits),
        ws="websockets-sansio",
        ws_max_size=limits.max_message,
        timeout_keep_alive=max(1, round(limits.keep_alive_seconds)),
        lifespan="on",
        **options,
    )


_FILE_LIMIT = (errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM)
_QUIET_SECONDS = 10.0


def quiet_accept_errors(loop: asyncio.AbstractEventLoop) -> None:
    """Makes ``loop`` log running out of file descriptors as one line every
    10 seconds, not a traceback at every failed ``accept()`` (asyncio retries
    on its own once a descriptor is free)."""
    last = [0.0]
    default = loop.get_exception_handler()

    def handle(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        error = context.get("exception")
        if isinstance(error, OSError) and error.errno in _FILE_LIMIT:
            now = time.monotonic()
            if now - last[0] >= _QUIET_SECONDS:
                last[0] = now
                log.warning(
                    "out of file descriptors (%s): new connections wait; lower "
                    "--max-connections or raise the limit (ulimit -n)",
                    error.strerror,
                )
            return
        if default is not None:
            default(loop, context)
        else:
            loop.default_exception_handler(context)

    loop.set_exception_handler(handle)
