"""a web page to play the bot, watch it, and step through games

Serve the web page of veletas: play the bot by clicks, watch it play itself,
step through games, load positions and records. It listens on 127.0.0.1
(this machine only) unless --host says otherwise. Needs the serve extra
(from a clone of veletas, pip install '.[serve]'; with a wheel, pip install
'veletas-VERSION.whl[serve]'). The API and the limits are in docs/serve.md.
"""

from __future__ import annotations

import argparse
import errno
import ipaddress
import socket
import sys
import threading
import webbrowser
from typing import Any

from veletas._checks import ascii_float, ascii_int
from veletas.cli import options
from veletas.serve.limits import EVAL_SECONDS, MAX_UPLOAD, ConnectionLimits

SERVE_EXTRA = (
    "from a clone of veletas, pip install '.[serve]'; with a wheel, "
    "pip install 'veletas-VERSION.whl[serve]'"
)
"""How to install the extra: the package is installed from a clone or a wheel."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", default="127.0.0.1", help="the address (default 127.0.0.1)")
    parser.add_argument(
        "--port", type=_port, default=8000, help="the port (default 8000; 0 picks a free one)"
    )
    parser.add_argument("--open", action="store_true", help="open the page in a web browser")
    limits = parser.add_argument_group("limits")
    limits.add_argument(
        "--max-games", type=options.positive, default=100, help="games held at once (default 100)"
    )
    limits.add_argument(
        "--idle-minutes",
        type=_positive_float,
        default=30.0,
        help="drop a game nobody has looked at for this long (default 30)",
    )
    limits.add_argument(
        "--bot-workers",
        type=options.positive,
        help="bot searches that run at once, one core each (default: one fewer than the cores)",
    )
    limits.add_argument(
        "--max-seconds",
        type=options.seconds,
        default=60.0,
        help="the longest thinking time per move a game may ask for (default 60)",
    )
    limits.add_argument(
        "--max-iterations",
        type=options.iterations,
        default=5_000_000,
        help="the most iterations per move a game may ask for (default 5000000)",
    )
    limits.add_argument(
        "--max-connections",
        type=options.positive,
        default=ConnectionLimits.max_connections,
        help="connections open at once, pages and their WebSockets; past it a new one is "
        f"answered 503 (default {ConnectionLimits.max_connections})",
    )
    limits.add_argument(
        "--max-client-connections",
        type=options.positive,
        default=ConnectionLimits.max_client_connections,
        help="connections open at once from one address; past it a new one from that "
        f"address is answered 503 (default {ConnectionLimits.max_client_connections})",
    )
    limits.add_argument(
        "--request-seconds",
        type=_positive_float,
        default=ConnectionLimits.request_seconds,
        help="the time a client has to send a request's headers, then its body; a slower "
        f"one is closed (default {ConnectionLimits.request_seconds:g})",
    )
    limits.add_argument(
        "--max-upload",
        type=options.positive,
        default=MAX_UPLOAD,
        metavar="BYTES",
        help="the largest file the page may send to start a game from (a file of game "
        f"records or a Parquet dataset; default {MAX_UPLOAD})",
    )
    limits.add_argument(
        "--eval-seconds",
        type=options.seconds,
        default=EVAL_SECONDS,
        help="the search time of the page's evaluation of one position, for its "
        f"evaluation bar and win-chance curve (default {EVAL_SECONDS:g})",
    )
    limits.add_argument(
        "--allow-host",
        action="append",
        default=[],
        metavar="NAME",
        help="also accept requests for this host name (besides localhost and IP addresses)",
    )


def _port(text: str) -> int:
    value = ascii_int(text)
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"must be 0 to 65535, not {value}")
    return value


def _positive_float(text: str) -> float:
    value = ascii_float(text)
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be above 0, not {text}")
    return value


def _listen(host: str, port: int) -> socket.socket:
    """A socket bound to ``host:port``, before the server starts, so that a
    busy port is a clear message and not a traceback."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    # IPPROTO_TCP named, not 0: asyncio turns Nagle's algorithm off only on
    # sockets that say they are TCP, and with it on, each answer written in
    # two parts waits 40 ms for the client's delayed acknowledgement.
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError:
        sock.close()
        raise
    sock.listen(128)
    sock.set_inheritable(True)
    return sock


def _url(host: str, port: int) -> str:
    shown = "127.0.0.1" if host in ("0.0.0.0", "") else "[::1]" if host == "::" else host
    if ":" in shown and not shown.startswith("["):
        shown = f"[{shown}]"
    return f"http://{shown}:{port}/"


def _everywhere(host: str) -> bool:
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host not in ("localhost",)
    return not address.is_loopback


def run(args: argparse.Namespace) -> int:
    try:
        import uvicorn

        from veletas.serve import Settings, create_app
        from veletas.serve.limits import server_config
    except ImportError as error:
        print(
            f"veletas: error: veletas serve needs the serve extra ({error.name} is missing): "
            f"{SERVE_EXTRA}",
            file=sys.stderr,
        )
        return 2
    try:
        sock = _listen(args.host, args.port)
    except OSError as error:
        if error.errno == errno.EADDRINUSE:
            print(
                f"veletas: error: port {args.port} on {args.host} is already in use "
                "(another veletas serve?); choose another with --port",
                file=sys.stderr,
            )
        else:
            print(
                f"veletas: error: cannot listen on {args.host}:{args.port}: {error.strerror}",
                file=sys.stderr,
            )
        return 2
    settings_kwargs: dict[str, Any] = {
        "max_games": args.max_games,
        "idle_seconds": args.idle_minutes * 60,
        "max_seconds": args.max_seconds,
        "max_iterations": args.max_iterations,
        "eval_seconds": args.eval_seconds,
        "max_upload": args.max_upload,
        "allowed_hosts": tuple(args.allow_host),
    }
    if args.bot_workers is not None:
        settings_kwargs["bot_workers"] = args.bot_workers
    settings = Settings(**settings_kwargs)
    limits = ConnectionLimits(
        max_connections=args.max_connections,
        max_client_connections=args.max_client_connections,
        request_seconds=args.request_seconds,
        max_message=settings.max_body,
    )
    app = create_app(settings, limits)
    port = sock.getsockname()[1]
    url = _url(args.host, port)
    if _everywhere(args.host):
        print(
            f"warning: --host {args.host} serves the page beyond this machine: anyone who "
            "can reach it can start games and use its cores (there are no accounts)",
            file=sys.stderr,
        )
    print(f"veletas serve: {url}  (Ctrl-C to stop)", flush=True)
    server = uvicorn.Server(server_config(app, limits, log_level="warning"))
    if args.open:
        threading.Timer(0.5, webbrowser.open, args=(url,)).start()
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:
        # uvicorn shuts down on Ctrl-C, then raises it again: the usual end.
        pass
    finally:
        sock.close()
    print("veletas serve: stopped", flush=True)
    return 0
