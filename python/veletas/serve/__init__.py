"""``veletas serve``: a web page to play the bot, watch it play itself and
step through games, and the JSON API behind it (``docs/serve.md``).

It needs the ``serve`` extra (:func:`veletas.extras.install_hint`): Starlette
for the application, uvicorn to serve it, and websockets, without which
uvicorn answers the page's WebSocket with 404.

- :mod:`veletas.serve.app`: the application (:func:`create_app`).
- :mod:`veletas.serve.sessions`: the games, their bots and the limits
  (:class:`Settings`).
- :mod:`veletas.serve.protocol`: what a game provides to be played here.
- ``static/``: the page (HTML, CSS and JavaScript, no build step).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from veletas.serve.app import create_app
    from veletas.serve.sessions import Settings

__all__ = ["Settings", "create_app"]


def __getattr__(name: str) -> Any:
    # Imported on use: a game's room imports the protocol without the extra.
    if name == "create_app":
        from veletas.serve.app import create_app

        return create_app
    if name == "Settings":
        from veletas.serve.sessions import Settings

        return Settings
    raise AttributeError(f"module 'veletas.serve' has no attribute {name!r}")
