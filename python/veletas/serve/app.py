"""The web application of ``veletas serve``: the page, its static files and
the JSON API (``docs/serve.md``).

>>> from veletas.serve import Settings, create_app
>>> from starlette.testclient import TestClient
>>> with TestClient(create_app(Settings(max_games=5)), base_url="http://127.0.0.1") as client:
...     game = client.post("/api/games", json={"variant": "small", "seconds": 0.05}).json()
...     after = client.post(f"/api/games/{game['id']}/moves", json={"move": "*d4"}).json()
>>> after["moves"]
['*d4']
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import json
import logging
import re
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import anyio.to_thread
from starlette.applications import Starlette
from starlette.datastructures import Headers
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import ClientDisconnect, Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketDisconnect

from veletas import games as registry
from veletas.errors import VeletasError
from veletas.serve.limits import ConnectionLimits, quiet_accept_errors
from veletas.serve.sessions import WATCH, ApiError, Session, Sessions, Settings, error_message
from veletas.serve.uploads import file_name, game_number, record_from_file

__all__ = ["create_app"]

log = logging.getLogger("veletas.serve")

STATIC = Path(__file__).parent / "static"
"""The page's files, shipped in the package."""

_SECURITY_HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Content-Security-Policy": (
        "default-src 'self'; img-src 'self' data:; style-src 'self'; "
        "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
    ),
}


_AUTHORITY = re.compile(r"(\[[0-9A-Fa-f:.]{2,45}\]|[A-Za-z0-9._-]{1,253})(?::([0-9]{1,5}))?")
"""A ``Host`` as browsers send it: a name, an IPv4 address or a bracketed IPv6
address, and perhaps a port. Nothing else (``a@b``, ``a#b``, two hosts)."""
_ORIGIN = re.compile(r"(https?)://(.+)")


def _host_name(authority: str) -> str | None:
    """The host name of a ``Host`` value (an IPv6 address without its
    brackets), or None for a value that no browser sends."""
    match = _AUTHORITY.fullmatch(authority)
    if match is None:
        return None
    name, port = match[1], match[2]
    if port is not None and int(port) > 65535:
        return None
    if name.startswith("["):
        try:
            return str(ipaddress.IPv6Address(name[1:-1]))
        except ValueError:
            return None
    return name.lower()


def _host_allowed(host: str | None, allowed: tuple[str, ...]) -> bool:
    """Whether a ``Host`` header names this server: ``localhost``, an IP
    address, or a name given with ``--allow-host``. A page that another
    name resolves to this machine (DNS rebinding) sends that name, and is
    refused."""
    name = _host_name(host) if host else None
    if name is None:
        return False
    if name == "localhost" or name.endswith(".localhost") or name in allowed:
        return True
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


def _guard_problem(scope: Scope, allowed: tuple[str, ...]) -> str | None:
    headers = Headers(scope=scope)
    host = headers.get("host")
    if not _host_allowed(host, allowed):
        return (
            f"the Host {host!r} is not this server's: use its address "
            "(or veletas serve --allow-host NAME)"
        )
    origin = headers.get("origin")
    if origin is not None:
        match = _ORIGIN.fullmatch(origin.lower())
        if match is None or _host_name(match[2]) is None or match[2] != str(host).lower():
            return f"requests from the page of {origin!r} are refused"
    return None


class Guard:
    """Refuses requests and WebSockets whose ``Host`` is not this server's or
    whose ``Origin`` is another page's, so that other web pages cannot
    drive the server; adds the security headers."""

    def __init__(self, app: ASGIApp, allowed_hosts: tuple[str, ...] = ()) -> None:
        self.app = app
        self.allowed_hosts = allowed_hosts

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        problem = _guard_problem(scope, self.allowed_hosts)
        if problem is not None:
            if scope["type"] == "websocket":
                await send({"type": "websocket.close", "code": 1008, "reason": problem[:120]})
                return
            response = JSONResponse({"error": problem}, status_code=403)
            await response(scope, receive, send)
            return
        if scope["type"] == "websocket":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Any) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                present = {name.lower() for name, _ in headers}
                for name, value in _SECURITY_HEADERS.items():
                    if name.lower().encode() not in present:
                        headers.append((name.lower().encode(), value.encode()))
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)


async def _body(request: Request, limit: int, seconds: float) -> dict[str, Any]:
    """The JSON object of a request's body (``{}`` for an empty one).

    :raises ApiError: for a body over ``limit`` bytes, one not sent within
        ``seconds``, or one that is not a JSON object.
    """
    raw = await _timely_body(request, limit, seconds)
    if not raw.strip():
        return {}
    try:
        body = json.loads(raw)
    except RecursionError:
        raise ApiError(400, "the request body is not JSON: it is nested too deep") from None
    except ValueError as error:  # bad JSON, bad UTF-8, an int of over 4300 digits
        raise ApiError(400, f"the request body is not JSON: {str(error)[:200]}") from None
    if not isinstance(body, dict):
        raise ApiError(400, f"the request body must be a JSON object, not {type(body).__name__}")
    return body


async def _timely_body(request: Request, limit: int, seconds: float) -> bytes:
    """The bytes of a request's body.

    :raises ApiError: for a body over ``limit`` bytes, or one not sent
        within ``seconds``.
    """
    try:
        return await asyncio.wait_for(_raw_body(request, limit), seconds)
    except asyncio.TimeoutError:  # TimeoutError itself only from Python 3.11
        raise ApiError(408, f"the request body did not arrive within {seconds:g} s") from None


async def _raw_body(request: Request, limit: int) -> bytes:
    length = request.headers.get("content-length")
    if length is not None and length.isascii() and length.isdigit() and int(length) > limit:
        raise ApiError(413, f"the request body is over this server's limit of {limit} bytes")
    chunks = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise ApiError(413, f"the request body is over this server's limit of {limit} bytes")
        chunks.append(chunk)
    return b"".join(chunks)


def _flag(value: object) -> bool:
    return str(value).lower() in ("1", "true", "on", "yes")


_PLY = re.compile(r"\s*(-?[0-9]{1,18})\s*")
"""A ply as text: more digits than any game has plies are refused unread."""


def _ply(value: object) -> int | None:
    """A ``ply`` parameter: absent or a whole number (checked by the session)."""
    if value is None or value == "":
        return None
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) < 10**18:
        return value
    if isinstance(value, str) and (match := _PLY.fullmatch(value)) is not None:
        return int(match[1])
    if isinstance(value, int) and not isinstance(value, bool):
        raise ApiError(400, "ply must be a whole number of at most 18 digits")
    shown = repr(value) if len(repr(value)) <= 40 else f"{repr(value)[:40]}..."
    raise ApiError(400, f"ply must be a whole number, not {shown}")


Handler = Callable[[Request], Awaitable[Response]]


def create_app(
    settings: Settings | None = None, limits: ConnectionLimits | None = None
) -> Starlette:
    """The application, with a fresh set of games under ``settings`` (and,
    run by :func:`veletas.serve.limits.server_config`, ``limits``)."""
    settings = settings or Settings()
    limits = limits or ConnectionLimits(max_message=settings.max_body)
    sessions = Sessions(settings)

    def api(
        handler: Callable[[Request, dict[str, Any]], Awaitable[Any]], *, upload: bool = False
    ) -> Handler:
        """An endpoint: reads the body of a POST (a JSON object, or with
        ``upload`` a file's bytes as ``{"data": bytes}``), answers JSON, and
        turns refusals into 4xx answers with a message."""

        async def endpoint(request: Request) -> Response:
            try:
                if request.method != "POST":
                    body: dict[str, Any] = {}
                elif upload:
                    data = await _timely_body(request, settings.max_upload, limits.request_seconds)
                    body = {"data": data}
                else:
                    body = await _body(request, settings.max_body, limits.request_seconds)
                result = await handler(request, body)
            except ApiError as error:
                # A body that did not arrive whole leaves nothing to read next.
                close = {"Connection": "close"} if error.status in (408, 413) else None
                return JSONResponse(
                    {"error": error.message}, status_code=error.status, headers=close
                )
            except VeletasError as error:
                return JSONResponse({"error": error_message(error)}, status_code=400)
            except ClientDisconnect:
                # The client left before its body arrived: nobody reads an
                # answer, and it is an everyday event, counted, not logged.
                sessions.disconnects += 1
                return Response(status_code=400, headers={"Connection": "close"})
            if isinstance(result, Response):
                return result
            return JSONResponse(result)

        return endpoint

    def session_of(request: Request) -> Session:
        return sessions.get(request.path_params["game_id"])

    def flipped(request: Request, body: dict[str, Any]) -> bool:
        return _flag(body.get("flipped", request.query_params.get("flipped", "")))

    async def index(request: Request) -> Response:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    async def info(request: Request, body: dict[str, Any]) -> Any:
        offered = []
        for entry in registry.every():
            game = entry.web_game()
            if game is None:
                continue
            offered.append(
                {
                    "name": game.name,
                    "title": game.title,
                    "colours": list(game.colours),
                    "seats": [*game.colours, WATCH],
                    "fields": game.fields(),
                    "move_example": game.move_example,
                    "position_example": game.position_example,
                }
            )
        return {
            "games": offered,
            "limits": {
                "max_games": settings.max_games,
                "games": len(sessions.games),
                "idle_seconds": settings.idle_seconds,
                "bot_workers": settings.bot_workers,
                "max_seconds": settings.max_seconds,
                "max_iterations": settings.max_iterations,
                "default_seconds": settings.default_seconds,
                "eval_seconds": settings.eval_seconds,
                "max_body": settings.max_body,
                "max_upload": settings.max_upload,
                "max_connections": limits.max_connections,
                "max_client_connections": limits.max_client_connections,
                "request_seconds": limits.request_seconds,
            },
            "events": {"disconnects": sessions.disconnects},
        }

    async def create(request: Request, body: dict[str, Any]) -> Any:
        client = request.client.host if request.client is not None else ""
        session = await sessions.create(body, client)
        return JSONResponse(session.state(flipped=flipped(request, body)), status_code=201)

    async def record_file(request: Request, body: dict[str, Any]) -> Any:
        number = game_number(request.query_params.get("number"))
        name = file_name(request.query_params.get("name"))
        return await anyio.to_thread.run_sync(record_from_file, body["data"], number, name)

    async def show(request: Request, body: dict[str, Any]) -> Any:
        ply = _ply(request.query_params.get("ply"))
        return session_of(request).state(ply, flipped=flipped(request, body))

    async def delete(request: Request, body: dict[str, Any]) -> Any:
        session = session_of(request)
        sessions.drop(session.id)
        return Response(status_code=204)

    async def moves(request: Request, body: dict[str, Any]) -> Any:
        session = session_of(request)
        text = body.get("move")
        if not isinstance(text, str):
            raise ApiError(400, 'give the move as text: {"move": "d4-d7/f9"}')
        session.play(text, _ply(body.get("ply")))
        return session.state(flipped=flipped(request, body))

    async def undo(request: Request, body: dict[str, Any]) -> Any:
        session = session_of(request)
        session.undo()
        return session.state(flipped=flipped(request, body))

    async def truncate(request: Request, body: dict[str, Any]) -> Any:
        session = session_of(request)
        ply = _ply(body.get("ply"))
        if ply is None:
            raise ApiError(400, 'give the ply to go on from: {"ply": 12}')
        session.truncate(ply)
        return session.state(flipped=flipped(request, body))

    async def resign(request: Request, body: dict[str, Any]) -> Any:
        session = session_of(request)
        session.resign()
        return session.state(flipped=flipped(request, body))

    async def stop(request: Request, body: dict[str, Any]) -> Any:
        return {"stopped": session_of(request).stop()}

    async def hint(request: Request, body: dict[str, Any]) -> Any:
        session = session_of(request)
        top = body.get("top", 3)
        if isinstance(top, bool) or not isinstance(top, int) or not 1 <= top <= 10:
            raise ApiError(400, f"top must be a whole number from 1 to 10, not {top!r}")
        return await session.hint(_ply(body.get("ply")), top)

    async def evaluation(request: Request, body: dict[str, Any]) -> Any:
        version = _ply(body.get("version"))  # a whole number as a ply is
        return await session_of(request).evaluation(_ply(body.get("ply")), version)

    async def explain(request: Request, body: dict[str, Any]) -> Any:
        session = session_of(request)
        clicks = body.get("clicks")
        if (
            not isinstance(clicks, list)
            or not 1 <= len(clicks) <= 8
            or not all(isinstance(c, str) and 0 < len(c) <= 16 for c in clicks)
        ):
            raise ApiError(400, 'give the clicks as a list of square names: {"clicks": ["d4"]}')
        board = session.board_at(_ply(body.get("ply")))
        return {"message": session.game.explain(board, clicks)}

    async def record(request: Request, body: dict[str, Any]) -> Any:
        session = session_of(request)
        name = f"{session.game.name}-{session.id}.txt"
        return PlainTextResponse(
            session.record(),
            headers={"Content-Disposition": f'attachment; filename="{name}"'},
        )

    async def updates(websocket: WebSocket) -> None:
        """Sends the game's summary now and at every change, until the page leaves."""
        session = sessions.games.get(websocket.path_params["game_id"])
        await websocket.accept()
        if session is None:
            # Closed after the handshake: a close before it is an HTTP 403,
            # the answer to a foreign page, not to a game that is gone.
            await websocket.close(code=4404, reason="no such game")
            return
        session.watchers += 1
        receiving = asyncio.ensure_future(websocket.receive())
        try:
            while True:
                session.touch()
                await websocket.send_json(session.summary())
                changing = asyncio.ensure_future(session.wait_change(session.version))
                done, _ = await asyncio.wait(
                    {receiving, changing}, return_when=asyncio.FIRST_COMPLETED
                )
                if receiving in done:
                    changing.cancel()
                    message = receiving.result()
                    if message["type"] == "websocket.disconnect":
                        return
                    receiving = asyncio.ensure_future(websocket.receive())
                if session.id not in sessions.games:
                    await websocket.close(code=4404, reason="the game has ended")
                    return
        except WebSocketDisconnect:
            return
        finally:
            receiving.cancel()
            session.watchers -= 1
            session.touch()

    async def not_found(request: Request, exc: Exception) -> Response:
        status = exc.status_code if isinstance(exc, HTTPException) else 500
        detail = exc.detail if isinstance(exc, HTTPException) else "internal error"
        if request.url.path.startswith("/api/") or status != 404:
            return JSONResponse({"error": detail}, status_code=status)
        return PlainTextResponse(f"{detail}: {request.url.path}", status_code=status)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        period = min(60.0, max(settings.idle_seconds / 4, 0.05))

        async def expire() -> None:
            while True:
                await asyncio.sleep(period)
                dropped = sessions.expire()
                if dropped:
                    log.info("dropped %d idle game(s)", dropped)

        quiet_accept_errors(asyncio.get_running_loop())
        expiring = asyncio.ensure_future(expire())
        try:
            yield
        finally:
            expiring.cancel()
            sessions.close()

    game_routes = [
        Route("/api/info", api(info), methods=["GET"]),
        Route("/api/games", api(create), methods=["POST"]),
        Route("/api/records", api(record_file, upload=True), methods=["POST"]),
        Route("/api/games/{game_id}", api(show), methods=["GET"]),
        Route("/api/games/{game_id}", api(delete), methods=["DELETE"]),
        Route("/api/games/{game_id}/moves", api(moves), methods=["POST"]),
        Route("/api/games/{game_id}/undo", api(undo), methods=["POST"]),
        Route("/api/games/{game_id}/truncate", api(truncate), methods=["POST"]),
        Route("/api/games/{game_id}/resign", api(resign), methods=["POST"]),
        Route("/api/games/{game_id}/stop", api(stop), methods=["POST"]),
        Route("/api/games/{game_id}/hint", api(hint), methods=["POST"]),
        Route("/api/games/{game_id}/explain", api(explain), methods=["POST"]),
        Route("/api/games/{game_id}/evaluation", api(evaluation), methods=["POST"]),
        Route("/api/games/{game_id}/record", api(record), methods=["GET"]),
        WebSocketRoute("/api/games/{game_id}/ws", updates),
    ]
    app = Starlette(
        routes=[
            Route("/", index, methods=["GET"]),
            Mount("/static", StaticFiles(directory=STATIC), name="static"),
            *game_routes,
        ],
        middleware=[Middleware(Guard, allowed_hosts=settings.allowed_hosts)],
        exception_handlers={HTTPException: not_found},
        lifespan=lifespan,
    )
    app.state.sessions = sessions
    app.state.settings = settings
    app.state.limits = limits
    return app
