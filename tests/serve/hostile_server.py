"""A real ``veletas serve`` process on a free loopback port, for the hostile
input tests: raw requests over sockets (so that any Host, any header, any
half of a request can be sent), its log, its memory, and a probe that asks
for ``/api/info`` every 10 ms to measure how long the event loop stalls."""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

COMMAND = [sys.executable, "-m", "veletas.cli", "serve", "--port", "0"]
TRACEBACK = re.compile(r"Traceback|^\s+File \"|Error:|ERROR", re.MULTILINE)
"""What a log line of a traceback looks like (a warning is one line)."""


class Server:
    """A ``veletas serve`` process; :meth:`stop` ends it."""

    def __init__(self, log: Path, *args: str, files: int | None = None) -> None:
        self.log_path = log
        self._log = open(log, "w")  # noqa: SIM115 - open while the process runs
        preexec = None
        if files is not None:
            import resource

            def preexec() -> None:
                resource.setrlimit(resource.RLIMIT_NOFILE, (files, files))

        self.process = subprocess.Popen(
            [*COMMAND, *args],
            stdout=subprocess.PIPE,
            stderr=self._log,
            text=True,
            preexec_fn=preexec,
        )
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        match = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        assert match is not None, f"the server did not start: {line!r}, {self.log()}"
        self.port = int(match[1])
        self.address = ("127.0.0.1", self.port)

    def log(self) -> str:
        self._log.flush()
        return self.log_path.read_text()

    def memory(self) -> int:
        """The server's resident memory, in bytes."""
        status = Path(f"/proc/{self.process.pid}/status").read_text()
        kilobytes = re.search(r"VmRSS:\s+(\d+) kB", status)
        assert kilobytes is not None
        return int(kilobytes[1]) * 1024

    def stop(self) -> None:
        self.process.send_signal(signal.SIGINT)
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        assert self.process.stdout is not None
        self.process.stdout.close()
        self._log.close()

    # -- requests ------------------------------------------------------

    def connect(self, timeout: float = 30.0, source: str | None = None) -> socket.socket:
        """A connection from ``source``, a loopback address (default 127.0.0.1):
        another address is another client to the server."""
        origin = None if source is None else (source, 0)
        return socket.create_connection(self.address, timeout=timeout, source_address=origin)

    def raw(self, data: bytes, timeout: float = 30.0, source: str | None = None) -> bytes:
        """Sends ``data`` on a new connection; what comes back until the
        server closes it (or ``timeout`` passes). The connection is not
        half-closed: the server would take that for the client leaving."""
        with self.connect(timeout, source) as sock:
            sock.sendall(data)
            return read_all(sock)

    def request(
        self,
        method: str,
        path: str,
        body: bytes | None = None,
        headers: dict[str, str] | None = None,
        source: str | None = None,
    ) -> tuple[int, bytes]:
        """A request with ``Host: 127.0.0.1:PORT`` (unless ``headers`` say
        otherwise); the status and the body."""
        head = {"Host": f"127.0.0.1:{self.port}", "Connection": "close"}
        if body is not None:
            head["Content-Type"] = "application/json"
            head["Content-Length"] = str(len(body))
        head.update(headers or {})
        lines = [f"{method} {path} HTTP/1.1", *(f"{k}: {v}" for k, v in head.items())]
        head_bytes = ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")
        answer = self.raw(head_bytes + (body or b""), source=source)
        return status_of(answer), answer.partition(b"\r\n\r\n")[2]

    def post(self, path: str, value: Any, source: str | None = None) -> tuple[int, Any]:
        status, body = self.request("POST", path, json.dumps(value).encode(), source=source)
        return status, json.loads(body) if body else None

    def new_game(self) -> str:
        status, game = self.post("/api/games", {"variant": "small", "seconds": 0.05})
        assert status == 201, game
        return str(game["id"])


def read_all(sock: socket.socket) -> bytes:
    chunks = []
    with contextlib.suppress(TimeoutError, ConnectionResetError):
        while chunk := sock.recv(65536):
            chunks.append(chunk)
    return b"".join(chunks)


def read_until_closed(sock: socket.socket) -> bytes:
    """What comes back until the server closes the connection; fails if it
    is still open when the socket's timeout passes."""
    chunks = []
    try:
        while chunk := sock.recv(65536):
            chunks.append(chunk)
    except TimeoutError:
        raise AssertionError(f"the server kept the connection open: {b''.join(chunks)!r}") from None
    except ConnectionResetError:
        pass
    return b"".join(chunks)


def status_of(answer: bytes) -> int:
    """The status of a raw HTTP answer (0 for none: the server closed)."""
    match = re.match(rb"HTTP/1\.[01] (\d{3})", answer)
    return int(match[1]) if match else 0


class Probe:
    """Asks ``/api/info`` every 10 ms on one kept-alive connection, in a
    thread; :attr:`longest` is the slowest answer, in seconds."""

    def __init__(self, server: Server) -> None:
        self.server = server
        self.longest = 0.0
        self.answers = 0
        self.failures: list[str] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> Probe:
        self._thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self._stop.set()
        self._thread.join(timeout=30)

    def reset(self) -> None:
        self.longest = 0.0

    def _run(self) -> None:
        host = f"127.0.0.1:{self.server.port}"
        connection: http.client.HTTPConnection | None = None
        while not self._stop.wait(0.01):
            try:
                if connection is None:
                    connection = http.client.HTTPConnection(*self.server.address, timeout=30)
                clock = time.perf_counter()
                connection.request("GET", "/api/info", headers={"Host": host})
                response = connection.getresponse()
                response.read()
                elapsed = time.perf_counter() - clock
            except (OSError, http.client.HTTPException):
                # A kept-alive connection the server closed: open another.
                if connection is not None:
                    connection.close()
                connection = None
                continue
            if response.status == 503:  # past the connection cap, as a test asks
                continue
            if response.status != 200:
                self.failures.append(f"/api/info answered {response.status}")
            self.longest = max(self.longest, elapsed)
            self.answers += 1
        if connection is not None:
            connection.close()


@contextlib.contextmanager
def serving(log: Path, *args: str, files: int | None = None) -> Iterator[Server]:
    server = Server(log, *args, files=files)
    try:
        yield server
    finally:
        server.stop()


def wait_until(condition: Any, what: str, timeout: float = 30.0) -> Any:
    """Polls ``condition`` until true; fails after ``timeout`` (a hang)."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)


def stall_limit() -> float | None:
    """The longest stall the probe may see, in seconds, where CI asks for
    the check (``VELETAS_STALL_LIMIT_MS``; wall-clock figures are not
    asserted on a machine of unknown load otherwise)."""
    limit = os.environ.get("VELETAS_STALL_LIMIT_MS")
    return None if not limit else float(limit) / 1000
