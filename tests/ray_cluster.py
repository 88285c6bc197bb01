"""A real Ray cluster for the tests and benchmarks: ``ray start --head --block``
as a child process, with its own temporary directory and free ports, so that
runs beside it (other clusters on the machine) neither see nor disturb it.

Stopping it terminates that one process, which takes its Ray processes down
with it; ``ray stop`` is never used, since it stops every cluster of the
machine.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from contextlib import ExitStack, closing
from pathlib import Path

STARTED = "Ray runtime started."
"""What ``ray start`` prints once the head node is up."""

# The ports a head node opens; each gets a free one, so that clusters started
# side by side (parallel test runs) do not collide on Ray's fixed defaults.
PORT_OPTIONS = [
    "--port",
    "--node-manager-port",
    "--object-manager-port",
    "--ray-client-server-port",
    "--dashboard-port",
    "--dashboard-agent-listen-port",
    "--dashboard-agent-grpc-port",
    "--runtime-env-agent-port",
    "--metrics-export-port",
]


def free_ports(count: int) -> list[int]:
    """``count`` distinct ports free on this machine a moment ago."""
    with ExitStack() as stack:
        sockets = []
        for _ in range(count):
            sock = stack.enter_context(closing(socket.socket()))
            sock.bind(("127.0.0.1", 0))
            sockets.append(sock)
        return [sock.getsockname()[1] for sock in sockets]


class RayCluster:
    """A one-node Ray cluster in a child process; :attr:`address` joins it.

    ``start`` is the ``ray start`` command line to run (default ``ray start
    --head``), to which the options that keep this cluster apart from others
    are added; ``python`` runs Ray with another interpreter (its workers then
    run there too). ``home`` is the ``HOME`` the head runs with: None
    switches token authentication off (``RAY_AUTH_MODE=disabled``); a folder
    leaves Ray to decide, as for a user, by the token in ``home/.ray``.
    """

    def __init__(
        self,
        num_cpus: int = 2,
        timeout: float = 120.0,
        *,
        start: list[str] | None = None,
        python: str | None = None,
        home: str | None = None,
    ) -> None:
        # Ray's unix sockets live under the temporary directory, and their
        # paths are limited to about 100 bytes: keep it short.
        self.temp_dir = tempfile.mkdtemp(prefix="vr", dir="/tmp")
        ports = dict(zip(PORT_OPTIONS, free_ports(len(PORT_OPTIONS)), strict=True))
        self.address = f"127.0.0.1:{ports['--port']}"
        ray = Path(sys.executable).with_name("ray")
        if python is not None:
            program = [python, "-m", "ray.scripts.scripts"]
        else:
            program = [str(ray) if ray.exists() else "ray"]
        # A --port of the given command line gives way to a free one.
        given = [arg for arg in (start or ["start", "--head"]) if not arg.startswith("--port")]
        command = [
            *program,
            *given,
            "--block",
            f"--temp-dir={self.temp_dir}",
            "--node-ip-address=127.0.0.1",
            f"--num-cpus={num_cpus}",
            "--include-dashboard=false",
            "--disable-usage-stats",
            # Workers take ports the system gives them, not Ray's fixed range.
            "--min-worker-port=0",
            "--max-worker-port=0",
            *(f"{option}={port}" for option, port in ports.items()),
        ]
        environment = {**os.environ, "RAY_AUTH_MODE": "disabled", "NO_COLOR": "1"}
        if home is not None:
            environment["HOME"] = home
            environment.pop("RAY_AUTH_MODE")
            for name in ("RAY_AUTH_TOKEN", "RAY_AUTH_TOKEN_PATH"):
                environment.pop(name, None)
        environment.pop("RAY_ADDRESS", None)
        self.log = Path(self.temp_dir) / "start.log"
        self._log_file = self.log.open("w")
        self.process = subprocess.Popen(
            command,
            stdout=self._log_file,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            env=environment,
            start_new_session=True,  # Ctrl-C in a terminal test reaches it only through stop()
        )
        deadline = time.monotonic() + timeout
        while STARTED not in self.log.read_text():
            if self.process.poll() is not None or time.monotonic() > deadline:
                output = self.log.read_text()
                self.stop()
                raise RuntimeError(f"ray start failed:\n{output}")
            time.sleep(0.1)

    def processes(self) -> dict[int, str]:
        """The cluster's processes, by pid: their process titles (a Ray worker
        names itself after the task it runs: ``ray::NAME``)."""
        parents: dict[int, int] = {}
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit():
                try:
                    stat = (entry / "stat").read_text()
                except OSError:
                    continue  # gone meanwhile
                parents[int(entry.name)] = int(stat.rsplit(")", 1)[1].split()[1])
        titles = {}
        for pid in parents:
            ancestor = pid
            while ancestor > 1 and ancestor != self.process.pid:
                ancestor = parents.get(ancestor, 0)
            if ancestor == self.process.pid and pid != ancestor:
                try:
                    raw = Path(f"/proc/{pid}/cmdline").read_bytes()
                except OSError:
                    continue
                titles[pid] = raw.split(b"\0")[0].decode(errors="replace")
        return titles

    def stop(self) -> None:
        """Stop this cluster (only this one) and remove its directory."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()
        self._log_file.close()
        shutil.rmtree(self.temp_dir, ignore_errors=True)


class WorkerKiller(threading.Thread):
    """Watches ``cluster`` and SIGKILLs the first worker it finds playing a
    task whose name starts with ``prefix``; :attr:`killed` is its title."""

    def __init__(self, cluster: RayCluster, prefix: str) -> None:
        super().__init__(daemon=True)
        self.cluster = cluster
        self.prefix = f"ray::{prefix}"
        self.killed: str | None = None
        self.done = threading.Event()

    def run(self) -> None:
        while not self.done.is_set():
            for pid, title in self.cluster.processes().items():
                if title.startswith(self.prefix):
                    os.kill(pid, signal.SIGKILL)
                    self.killed = title
                    return
            time.sleep(0.01)
