"""Fixtures of the server's tests: the application under Starlette's test
client, the real server (uvicorn) on a free loopback port, and Debian's
chromium driven by Playwright.

The browser tests skip where chromium or Playwright is missing, unless
``VELETAS_REQUIRE_BROWSER=1`` (set by ``.ci/run``, which installs them)
turns the skip into a failure. ``VELETAS_SCREENSHOTS=DIR`` keeps the
screenshots of the key states in DIR (else in pytest's temporary folder).
"""

from __future__ import annotations

import os
import re
import shutil
import socket
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

if os.environ.get("VELETAS_REQUIRE_BROWSER") != "1":
    # Where CI requires these tests, a missing extra is an import error.
    pytest.importorskip("starlette", reason="the serve extra is not installed")

from starlette.testclient import TestClient

pytest.importorskip("veletas._veletas", reason="the extension is not built")

from veletas.serve import Settings, create_app

ORIGIN = "http://127.0.0.1:8000"
"""The address the test client's requests name (a real server's would)."""


@pytest.fixture
def make_client() -> Iterator[Callable[..., TestClient]]:
    """``make_client(**settings)``: a test client of a fresh application."""
    clients: list[TestClient] = []

    def make(**settings: Any) -> TestClient:
        client = TestClient(create_app(Settings(**settings)), base_url=ORIGIN)
        client.__enter__()
        clients.append(client)
        return client

    yield make
    for client in clients:
        client.__exit__(None, None, None)


@pytest.fixture
def client(make_client: Callable[..., TestClient]) -> TestClient:
    return make_client(max_games=20, bot_workers=2)


def wait_until(condition: Callable[[], Any], what: str, timeout: float = 60.0) -> Any:
    """Polls ``condition`` until it gives a true value; fails after
    ``timeout`` seconds (a hang, not a slow machine: searches take 0.05 s)."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            pytest.fail(f"timed out waiting for {what}")
        time.sleep(0.02)


def missing(reason: str) -> None:
    """Skips a browser test, or fails it where CI requires the browser."""
    if os.environ.get("VELETAS_REQUIRE_BROWSER") == "1":
        pytest.fail(f"{reason}; VELETAS_REQUIRE_BROWSER=1 requires the browser tests to run")
    pytest.skip(reason)


@pytest.fixture(scope="session")
def live_server() -> Iterator[str]:
    """The real server (uvicorn, the WebSocket implementation the command
    uses) on a free loopback port; its URL."""
    import uvicorn

    # IPPROTO_TCP, as the command does: asyncio then turns Nagle's algorithm off.
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.bind(("127.0.0.1", 0))
    sock.listen(64)
    port = sock.getsockname()[1]
    app = create_app(Settings(max_games=50, bot_workers=2, idle_seconds=900))
    config = uvicorn.Config(app, log_level="warning", ws="websockets-sansio", lifespan="on")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    wait_until(lambda: server.started, "the server to start", timeout=30)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(timeout=30)
    sock.close()


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """Debian's chromium, headless, under Playwright."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        missing("Playwright is not installed (pip install '.[test]')")
    path = os.environ.get("VELETAS_CHROMIUM") or shutil.which("chromium")
    if path is None:
        missing("Debian's chromium is not installed (apt-get install chromium chromium-driver)")
    with sync_playwright() as playwright:
        # --no-sandbox: CI runs as root, where chromium's sandbox refuses to
        # start; /dev/shm may be small in a container.
        browser = playwright.chromium.launch(
            executable_path=path, args=["--no-sandbox", "--disable-dev-shm-usage"]
        )
        yield browser
        browser.close()


@pytest.fixture(scope="session")
def screenshots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    wanted = os.environ.get("VELETAS_SCREENSHOTS")
    folder = Path(wanted) if wanted else tmp_path_factory.mktemp("screenshots")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


class Ui:
    """A page of the server in the browser, with the messages it logged.

    Any JavaScript error, and any console error, fails the test; the test
    names the error answers of the server that it provokes (the browser
    logs each as a console error) with :meth:`expect_refusals`.
    """

    def __init__(self, page: Any, server: str, screenshots: Path, name: str) -> None:
        self.page = page
        self.server = server
        self.screenshots = screenshots
        self.name = name
        self.errors: list[str] = []
        self.refusals: list[str] = []
        self.expected = 0
        page.on("pageerror", lambda error: self.errors.append(f"JavaScript error: {error}"))
        page.on("console", self._console)
        page.on("dialog", lambda dialog: dialog.accept())

    def _console(self, message: Any) -> None:
        if message.type not in ("error", "warning"):
            return
        text = message.text
        url = message.location.get("url", "")
        refusal = re.match(
            r"Failed to load resource: the server responded with a status of 4", text
        )
        if message.type == "error" and refusal and ("/api/games" in url or "/api/records" in url):
            self.refusals.append(f"{text} ({url})")
        else:
            self.errors.append(f"console {message.type}: {text} ({url})")

    def expect_refusals(self, count: int) -> None:
        """The test provokes ``count`` more 4xx answers (an illegal move ...)."""
        self.expected += count

    def open(self, query: str = "") -> None:
        self.page.goto(f"{self.server}/{query}")
        self.page.wait_for_selector("#board svg [data-square]")

    def shot(self, label: str) -> Path:
        path = self.screenshots / f"{self.name}-{label}.png"
        self.page.screenshot(path=str(path))
        return path

    def check(self) -> None:
        assert not self.errors, "\n".join(self.errors)
        assert len(self.refusals) == self.expected, "\n".join(self.refusals) or "no refusal"


@pytest.fixture
def ui(
    browser: Any, live_server: str, screenshots: Path, request: pytest.FixtureRequest
) -> Iterator[Ui]:
    context = browser.new_context(viewport={"width": 1200, "height": 820}, accept_downloads=True)
    page = context.new_page()
    page.set_default_timeout(30_000)
    helper = Ui(page, live_server, screenshots, request.node.name)
    yield helper
    try:
        helper.check()
    finally:
        context.close()
