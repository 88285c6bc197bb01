"""A load test of ``veletas serve``: 20 clients play random 7x7 games
against a 0.05 s bot for 60 s, each on its own game, over HTTP and the
WebSocket, against the real server (the command, in its own process).

It checks that no request fails, reports the latency of the requests that
do not wait on the bot (new game, state, move, delete: the bot thinks in
the background), and that the server's memory is flat once the games have
ended. It takes over a minute, so it is marked slow::

    make bench-serve    # pytest benches/test_serve_load.py -m slow -s

``VELETAS_LOAD_CLIENTS`` and ``VELETAS_LOAD_SECONDS`` change the load.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest

CLIENTS = int(os.environ.get("VELETAS_LOAD_CLIENTS", "20"))
SECONDS = float(os.environ.get("VELETAS_LOAD_SECONDS", "60"))
BOT_SECONDS = 0.05


def rss_mib(pid: int) -> float:
    """The resident memory of process ``pid``, in MiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")  # pragma: no cover - Linux has it


def leaves(node: dict[str, Any]) -> list[str]:
    """The moves of a click tree."""
    moves: list[str] = []
    for value in node["next"].values():
        if isinstance(value, str):
            moves.append(value)
        else:
            moves.extend(leaves(value))
    return moves


class Load:
    """The clients' shared tallies."""

    def __init__(self) -> None:
        self.latency: dict[str, list[float]] = defaultdict(list)
        self.errors: list[str] = []
        self.games = 0
        self.finished = 0
        self.moves = 0

    async def request(self, client: Any, kind: str, method: str, url: str, **kw: Any) -> Any:
        start = time.perf_counter()
        try:
            response = await client.request(method, url, **kw)
        except Exception as error:  # a refused or dropped connection counts
            self.errors.append(f"{kind}: {type(error).__name__}: {error}")
            return None
        self.latency[kind].append(time.perf_counter() - start)
        if response.status_code >= 400:
            self.errors.append(f"{kind}: {response.status_code} {response.text[:200]}")
            return None
        return response.json() if response.status_code != 204 else {}


async def play(load: Load, client: Any, base: str, end: float, seed: int) -> None:
    """One client: random games, one after the other, until ``end``."""
    from websockets.asyncio.client import connect

    rng = random.Random(seed)
    while time.monotonic() < end:
        seat = rng.choice(["black", "white"])
        body = {"variant": "small", "seconds": BOT_SECONDS, "seat": seat}
        state = await load.request(client, "new game", "POST", "/api/games", json=body)
        if state is None:
            await asyncio.sleep(0.5)
            continue
        load.games += 1
        game = state["id"]
        ws_url = base.replace("http", "ws") + f"/api/games/{game}/ws"
        async with connect(ws_url) as socket:
            await socket.recv()
            while time.monotonic() < end:
                state = await load.request(client, "state", "GET", f"/api/games/{game}")
                if state is None or state["over"]:
                    load.finished += state is not None
                    break
                view = state["view"]
                if view["to_act"] == "human" and not state["thinking"]:
                    move = rng.choice(leaves(view["clicks"]))
                    path = f"/api/games/{game}/moves"
                    if await load.request(client, "move", "POST", path, json={"move": move}):
                        load.moves += 1
                    continue
                # The bot's turn: wait for a change (not timed: it waits on the bot).
                version = state["version"]
                while json.loads(await socket.recv())["version"] == version:
                    pass
        await load.request(client, "delete", "DELETE", f"/api/games/{game}")


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


@pytest.mark.slow
def test_twenty_clients_against_a_fast_bot() -> None:
    pytest.importorskip("uvicorn", reason="the serve extra is not installed")
    server = subprocess.Popen(
        [sys.executable, "-m", "veletas.cli", "serve", "--port", "0", "--max-games", "100"],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert server.stdout is not None
        base = server.stdout.readline().split()[2].rstrip("/")
        load = Load()

        async def warm_up() -> None:
            # One game first: the server's first requests start its worker
            # threads and import what a game needs; the run measures the rest.
            import httpx2

            async with httpx2.AsyncClient(base_url=base) as client:
                state = (await client.post("/api/games", json={"variant": "small"})).json()
                await client.delete(f"/api/games/{state['id']}")

        asyncio.run(warm_up())
        before = rss_mib(server.pid)
        samples: list[tuple[float, float]] = []

        async def run() -> None:
            import httpx2

            # One connection pool for all the clients, made before the clock
            # starts (making an HTTP client takes tens of milliseconds of
            # this process's time, which would count against the server).
            limits = httpx2.Limits(max_connections=2 * CLIENTS)
            async with httpx2.AsyncClient(base_url=base, timeout=60, limits=limits) as client:
                start = time.monotonic()
                end = start + SECONDS

                async def sample() -> None:
                    while time.monotonic() < end:
                        samples.append((time.monotonic() - start, rss_mib(server.pid)))
                        await asyncio.sleep(1)

                await asyncio.gather(
                    sample(), *(play(load, client, base, end, seed) for seed in range(CLIENTS))
                )

        asyncio.run(run())
        time.sleep(2)  # the last searches end
        after = rss_mib(server.pid)

        import urllib.request

        with urllib.request.urlopen(f"{base}/api/info") as response:
            live = json.load(response)["limits"]["games"]

        everything = [t for values in load.latency.values() for t in values]
        half = [rss for at, rss in samples if at >= SECONDS / 2]
        print(
            f"\n{CLIENTS} clients, {SECONDS:g} s, bot {BOT_SECONDS} s per move: "
            f"{load.games} games ({load.finished} finished), {load.moves} moves played, "
            f"{sum(len(v) for v in load.latency.values())} timed requests, "
            f"{len(load.errors)} errors"
        )
        print(f"{'request':<10} {'count':>6} {'median ms':>10} {'p95 ms':>8} {'max ms':>8}")
        for kind, values in [*sorted(load.latency.items()), ("all", everything)]:
            print(
                f"{kind:<10} {len(values):>6} {1000 * statistics.median(values):>10.1f} "
                f"{1000 * percentile(values, 0.95):>8.1f} {1000 * max(values):>8.1f}"
            )
        print(
            f"server memory (RSS): {before:.0f} MiB before, {half[0]:.0f} MiB at "
            f"{SECONDS / 2:.0f} s, {max(r for _, r in samples):.0f} MiB at most, "
            f"{after:.0f} MiB after the games ended; {live} game(s) left"
        )
        assert load.errors == [], load.errors[:10]
        assert load.finished > CLIENTS
        assert live == 0
        # Flat: the second half of the run and the end hold no more than the
        # first half's level, give or take allocator noise.
        assert after <= half[0] * 1.1 + 10, (half[0], after)
        assert max(half) <= half[0] * 1.15 + 10, samples
    finally:
        server.terminate()
        server.wait(timeout=30)
        if server.stdout is not None:
            server.stdout.close()
