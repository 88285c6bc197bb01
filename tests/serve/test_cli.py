"""``veletas serve`` from the command line: the URL it prints, a busy port,
serving beyond this machine, and a missing extra."""

from __future__ import annotations

import json
import signal
import socket
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

COMMAND = [sys.executable, "-m", "veletas.cli", "serve"]


class Run:
    """A run of the command: the first line it printed, then (once it has
    stopped) its exit code and what it wrote to stderr."""

    line = ""
    returncode: int | None = None
    stderr = ""

    @property
    def url(self) -> str:
        return self.line.split()[2]


@contextmanager
def serving(*args: str) -> Iterator[Run]:
    """The command running until the block ends (with Ctrl-C)."""
    run = Run()
    with subprocess.Popen(
        [*COMMAND, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    ) as process:
        try:
            assert process.stdout is not None
            run.line = process.stdout.readline()
            yield run
        finally:
            process.send_signal(signal.SIGINT)
            try:
                _, run.stderr = process.communicate(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                _, run.stderr = process.communicate()
            run.returncode = process.returncode


def fetch(url: str) -> bytes:
    with urllib.request.urlopen(url) as response:
        body: bytes = response.read()
    return body


def test_it_serves_on_the_loopback_and_prints_the_url() -> None:
    with serving("--port", "0") as run:
        assert run.line.startswith("veletas serve: http://127.0.0.1:")
        info = json.loads(fetch(f"{run.url}api/info"))
        assert info["limits"]["max_games"] == 100
        assert b'id="board"' in fetch(run.url)
    assert run.returncode == 0
    assert "warning" not in run.stderr


def test_limits_are_options() -> None:
    args = ["--port", "0", "--max-games", "3", "--max-seconds", "2", "--bot-workers", "1"]
    with serving(*args) as run:
        limits = json.loads(fetch(f"{run.url}api/info"))["limits"]
    assert limits["max_games"] == 3
    assert limits["max_seconds"] == 2
    assert limits["bot_workers"] == 1


def test_a_busy_port_is_named_with_the_way_out() -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        result = subprocess.run(
            [*COMMAND, "--port", str(port)], capture_output=True, text=True, timeout=60
        )
    assert result.returncode == 2
    assert f"port {port} on 127.0.0.1 is already in use" in result.stderr
    assert "--port" in result.stderr
    assert "Traceback" not in result.stderr


def test_serving_beyond_this_machine_warns() -> None:
    with serving("--host", "0.0.0.0", "--port", "0") as run:
        assert run.line.startswith("veletas serve: http://127.0.0.1:")
        assert json.loads(fetch(f"{run.url}api/info"))["games"]
    assert "warning: --host 0.0.0.0 serves the page beyond this machine" in run.stderr


def test_without_the_extra_it_says_what_to_install() -> None:
    code = (
        "import sys; sys.modules['uvicorn'] = None; from veletas.cli import main; "
        "sys.exit(main(['serve', '--port', '0']))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 2
    assert "pip install '.[serve]'" in result.stderr


def test_help_names_the_options() -> None:
    result = subprocess.run([*COMMAND, "--help"], capture_output=True, text=True, check=True)
    for option in ("--host", "--port", "--open", "--max-games", "--idle-minutes", "--allow-host"):
        assert option in result.stdout


@pytest.mark.parametrize(
    ("host", "url"),
    [
        ("127.0.0.1", "http://127.0.0.1:8000/"),
        ("0.0.0.0", "http://127.0.0.1:8000/"),
        ("::1", "http://[::1]:8000/"),
        ("localhost", "http://localhost:8000/"),
    ],
)
def test_the_printed_url(host: str, url: str) -> None:
    from veletas.cli.serve import _url

    assert _url(host, 8000) == url
