"""Hostile input to a real ``veletas serve`` on the loopback: the requests
that once froze it, crashed it or were let through, and generated ones
(Hypothesis over bodies, headers, query strings and WebSocket frames).

Every answer is a 2xx, 3xx or 4xx, never a 5xx; no log line is a
traceback; while it runs, a probe asks ``/api/info`` every 10 ms, and its
slowest answer is the event loop's longest stall (checked against
``VELETAS_STALL_LIMIT_MS`` where it is set, say to 100 ms); at the end the
server's memory is within 20% of where it started.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import json
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("uvicorn", reason="the serve extra is not installed")

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from serve.hostile_server import (
    Probe,
    Server,
    read_all,
    read_until_closed,
    serving,
    stall_limit,
    status_of,
    wait_until,
)

REQUEST_SECONDS = "1"
MAX_CONNECTIONS = 48
RECORD_HEAD = '[Variant "small"]\n[Result "*"]\n\n'
GENERATED = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


class Hostile:
    """The server under test, its probe and its memory at the start."""

    def __init__(self, server: Server, probe: Probe) -> None:
        self.server = server
        self.probe = probe
        self.start_memory = 0
        self.game = ""

    def check_log(self) -> None:
        log = self.server.log()
        assert "Traceback" not in log, log[-3000:]
        assert " 500 " not in log, log[-3000:]
        assert "Exception in ASGI" not in log, log[-3000:]


@pytest.fixture(scope="module")
def hostile(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Hostile]:
    log = tmp_path_factory.mktemp("hostile") / "serve.log"
    with serving(
        log,
        "--max-connections",
        str(MAX_CONNECTIONS),
        "--request-seconds",
        REQUEST_SECONDS,
        "--bot-workers",
        "1",
        "--max-games",
        "40",
    ) as server:
        hostile = Hostile(server, Probe(server))
        hostile.game = server.new_game()
        # Warm up every path once, so that the start's memory is the steady one.
        server.request("GET", f"/api/games/{hostile.game}?ply=0")
        server.post("/api/games", {"record": RECORD_HEAD + "{" * 100})
        hostile.start_memory = server.memory()
        with hostile.probe:
            yield hostile
        hostile.check_log()
        # Memory back near the start once the hostile connections are gone:
        # within 20% of it or 24 MiB, whichever is more. The allocator keeps
        # some of the memory that concurrent requests touched (12% more than
        # the start on a quiet machine, 26% with a build running beside);
        # a leak of the thousands of hostile requests grows past that.
        bound = hostile.start_memory + max(0.2 * hostile.start_memory, 24 * 2**20)
        wait_until(
            lambda: server.memory() <= bound,
            f"the memory to come back from {server.memory():,} to within "
            f"{bound - hostile.start_memory:,.0f} bytes of {hostile.start_memory:,}",
            timeout=20,
        )
        limit = stall_limit()
        longest, answers = hostile.probe.longest, hostile.probe.answers
        print(
            f"\nlongest stall {longest * 1000:.1f} ms in {answers} probes; memory "
            f"{hostile.start_memory / 2**20:.1f} MiB at the start, "
            f"{server.memory() / 2**20:.1f} MiB at the end"
        )
        assert hostile.probe.answers > 0
        assert not hostile.probe.failures, hostile.probe.failures[:5]
        if limit is not None:
            assert hostile.probe.longest < limit, (
                f"the event loop stalled {hostile.probe.longest:.3f} s"
            )


@pytest.fixture(autouse=True)
def stall_of_each_test(hostile: Hostile, request: pytest.FixtureRequest) -> Iterator[None]:
    """Says each test's longest stall where it is over 50 ms (the figure is
    checked once, at the end)."""
    before = hostile.probe.longest
    hostile.probe.reset()
    yield
    if hostile.probe.longest > 0.05:
        print(f"\n{request.node.name}: stall {hostile.probe.longest * 1000:.0f} ms")
    hostile.probe.longest = max(before, hostile.probe.longest)


def assert_no_5xx(status: int, body: bytes = b"") -> None:
    assert status != 0, "the server closed the connection without an answer"
    assert status < 500, (status, body[:300])


# -- item 1: a record that froze the event loop -----------------------


def test_records_of_braces_are_refused_at_once_and_four_do_not_freeze_it(hostile: Hostile) -> None:
    body = json.dumps({"record": RECORD_HEAD + "{" * 60_000 + "\n"}).encode()
    hostile.probe.reset()
    with concurrent.futures.ThreadPoolExecutor(4) as pool:
        answers = list(
            pool.map(lambda _: hostile.server.request("POST", "/api/games", body), range(4))
        )
    for status, answer in answers:
        assert status == 400, answer[:300]
        assert b"not a move" in answer or b"line" in answer
    hostile.check_log()


def test_a_record_full_of_comments_is_read(hostile: Hostile) -> None:
    moves = "{a} " * 15_000 + "*"
    status, game = hostile.server.post("/api/games", {"record": RECORD_HEAD + moves})
    assert status == 201, game
    assert game["moves"] == []


# -- item 2: WebSocket messages bounded by the body limit -------------


def test_a_websocket_message_over_the_body_limit_closes_the_socket(hostile: Hostile) -> None:
    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect

    url = f"ws://127.0.0.1:{hostile.server.port}/api/games/{hostile.game}/ws"
    with connect(url, origin=f"http://127.0.0.1:{hostile.server.port}") as websocket:
        json.loads(websocket.recv(timeout=10))
        websocket.send("x" * 100_000)
        with pytest.raises(ConnectionClosed) as closed:
            drain(websocket)
    assert closed.value.rcvd is not None
    assert closed.value.rcvd.code == 1009  # message too big


def drain(websocket: Any) -> None:
    """Receives until the socket closes (raising ``ConnectionClosed``)."""
    while True:
        websocket.recv(timeout=10)


def test_connections_past_the_cap_are_answered_503_and_idle_ones_closed(hostile: Hostile) -> None:
    # From four addresses, each under the cap of one client's connections.
    sources = [f"127.0.0.{1 + i % 4}" for i in range(MAX_CONNECTIONS + 8)]
    sockets = [hostile.server.connect(timeout=10, source=source) for source in sources]
    try:
        status, answer = hostile.server.request("GET", "/api/info", source="127.0.0.5")
        assert status == 503, answer
        assert b"--max-connections" in answer
        # The idle ones are closed by the server within its request deadline,
        # the ones past the cap at once, with a 503.
        answers = [status_of(read_all(sock)) for sock in sockets]
        assert set(answers) <= {0, 503}, answers
        assert 503 in answers
    finally:
        for sock in sockets:
            sock.close()
    wait_until(lambda: hostile.server.request("GET", "/api/info")[0] == 200, "room again")


# -- item 3: incomplete requests time out ------------------------------


@pytest.mark.parametrize(
    "sent",
    [b"G", b"GET /api/info HTTP/1.1\r\nHost: 127.0.0.1", b""],
    ids=["one byte", "headers half sent", "nothing"],
)
def test_an_incomplete_request_is_closed(hostile: Hostile, sent: bytes) -> None:
    with hostile.server.connect(timeout=20) as sock:
        sock.sendall(sent)
        answer = read_until_closed(sock)
    assert status_of(answer) in (0, 408), answer


def test_a_body_that_never_arrives_is_answered_408(hostile: Hostile) -> None:
    head = (
        f"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1:{hostile.server.port}\r\n"
        "Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"
    ).encode()
    with hostile.server.connect(timeout=20) as sock:
        sock.sendall(head)
        answer = read_all(sock)
    assert status_of(answer) == 408, answer


def test_running_out_of_files_logs_a_line_not_tracebacks(tmp_path: Path) -> None:
    log = tmp_path / "serve.log"
    with serving(log, "--request-seconds", "1", "--max-connections", "1000", files=64) as server:
        sockets = []
        with contextlib.suppress(OSError):
            for _ in range(200):
                sockets.append(server.connect(timeout=5))
        time.sleep(1.5)  # the server meets the limit at accept(), for a while
        for sock in sockets:
            sock.close()
        wait_until(lambda: server.request("GET", "/api/info")[0] == 200, "the server to answer")
        text = server.log()
    assert "Traceback" not in text, text[:3000]
    assert len(text.splitlines()) <= 5, text[:3000]
    assert "file descriptors" in text


# -- clients that leave in the middle of a request --------------------


def leave_mid_request(server: Server, head: bytes, body: bytes, half_close: bool) -> None:
    """Sends ``head`` and part of a ``body``, then leaves (or half-closes)."""
    with server.connect(timeout=10) as sock:
        sock.sendall(head + body)
        if half_close:
            sock.shutdown(socket.SHUT_WR)
            read_all(sock)


@pytest.mark.parametrize("half_close", [False, True], ids=["closed", "half-closed"])
def test_a_client_that_leaves_mid_body_is_counted_not_a_traceback(
    tmp_path: Path, half_close: bool
) -> None:
    with serving(tmp_path / "serve.log", "--request-seconds", "5") as server:
        port = server.port
        short = (
            f"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
            "Content-Type: application/json\r\nContent-Length: 100\r\n\r\n"
        ).encode()
        chunked = (
            f"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
            "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
        ).encode()
        for _ in range(20):
            leave_mid_request(server, short, b"{", half_close)
            leave_mid_request(server, chunked, b"5\r\n{\r\n", half_close)
            leave_mid_request(server, chunked, b"zz\r\nnot a chunk\r\n", half_close)
        _, body = wait_until(
            lambda: (answer := server.request("GET", "/api/info"))[0] == 200 and answer,
            "the server to answer",
        )
        text = server.log()
    assert "Traceback" not in text, text[:3000]
    assert "ClientDisconnect" not in text, text[:3000]
    if half_close:  # a closed socket ends the request before it is read
        assert json.loads(body)["events"]["disconnects"] >= 20


# -- item 4: no 500s ---------------------------------------------------


@pytest.mark.parametrize(
    "body",
    [
        b"[" * 30_000,
        b'{"seed": [' + b"[" * 30_000 + b"]}",
        b'{"variant": "small", "iterations": ' + b"7" * 5000 + b"}",
        b'{"variant": "small", "seed": ' + b"7" * 5000 + b"}",
        b'{"variant": "small", "seed": "' + b"7" * 5000 + b'"}',
        b'{"variant": "small", "iterations": "' + b"7" * 5000 + b'"}',
        b"\xff\xfe{}",
    ],
    ids=[
        "nested",
        "nested value",
        "long iterations",
        "long seed",
        "long seed text",
        "long text",
        "not utf-8",
    ],
)
def test_bad_bodies_are_answered_400(hostile: Hostile, body: bytes) -> None:
    status, answer = hostile.server.request("POST", "/api/games", body)
    assert status == 400, answer[:300]


@pytest.mark.parametrize("ply", ["7" * 5000, "--1", "1e3", " 1 2", "-" * 3000])
def test_bad_plies_are_answered_400(hostile: Hostile, ply: str) -> None:
    status, answer = hostile.server.request("GET", f"/api/games/{hostile.game}?ply={ply}")
    assert status == 400, answer[:300]
    raw = (
        b'{"move": "*c3", "ply": '
        + (ply.encode() if ply.isdigit() else json.dumps(ply).encode())
        + b"}"
    )
    status, answer = hostile.server.request("POST", f"/api/games/{hostile.game}/moves", raw)
    assert status == 400, answer[:300]


BAD_HOSTS = [
    "[",
    "[::1",
    "[evil.com]",
    "evil.com@127.0.0.1",
    "127.0.0.1#evil.com",
    "127.0.0.1:8000, evil.com",
    "127.0.0.1:99999",
    "evil.com",
]


@pytest.mark.parametrize("host", BAD_HOSTS)
def test_hosts_no_browser_sends_are_refused(hostile: Hostile, host: str) -> None:
    status, answer = hostile.server.request("GET", "/api/info", headers={"Host": host})
    assert status in (400, 403), answer[:300]


@pytest.mark.parametrize(
    "origin", ["http://[", "http://[::1", "http://evil.com", "null", "http://127.0.0.1@evil.com"]
)
def test_bad_origins_are_refused(hostile: Hostile, origin: str) -> None:
    status, answer = hostile.server.request("GET", "/api/info", headers={"Origin": origin})
    assert status == 403, answer[:300]


@pytest.mark.parametrize(
    "header", [("Host", host) for host in BAD_HOSTS] + [("Origin", "http://[")]
)
def test_websockets_with_bad_hosts_or_origins_are_refused(
    hostile: Hostile, header: tuple[str, str]
) -> None:
    name, value = header
    head = {
        "Host": f"127.0.0.1:{hostile.server.port}",
        "Upgrade": "websocket",
        "Connection": "Upgrade",
        "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==",
        "Sec-WebSocket-Version": "13",
        name: value,
    }
    lines = [f"GET /api/games/{hostile.game}/ws HTTP/1.1", *(f"{k}: {v}" for k, v in head.items())]
    answer = hostile.server.raw(("\r\n".join(lines) + "\r\n\r\n").encode(), timeout=10)
    assert status_of(answer) in (400, 403), answer[:300]


def test_a_websocket_to_an_unknown_game_is_closed_with_4404(hostile: Hostile) -> None:
    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect

    url = f"ws://127.0.0.1:{hostile.server.port}/api/games/nope/ws"
    with connect(url, open_timeout=10) as socket, pytest.raises(ConnectionClosed) as closed:
        socket.recv(timeout=10)
    assert closed.value.rcvd is not None
    assert (closed.value.rcvd.code, closed.value.rcvd.reason) == (4404, "no such game")


def test_the_good_host_forms_are_served(hostile: Hostile) -> None:
    for host in (f"127.0.0.1:{hostile.server.port}", "localhost", "[::1]:8000", "127.0.0.1"):
        status, answer = hostile.server.request("GET", "/api/info", headers={"Host": host})
        assert status == 200, (host, answer[:300])


# -- generated --------------------------------------------------------

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4)
    ),
    max_leaves=20,
)
FIELDS = st.sampled_from(
    [
        "variant",
        "seat",
        "seconds",
        "iterations",
        "seed",
        "position",
        "record",
        "ply",
        "move",
        "top",
        "clicks",
        "game",
        "size",
    ]
)
PATHS = st.sampled_from(
    [
        "/api/games",
        "/api/games/{id}/moves",
        "/api/games/{id}/hint",
        "/api/games/{id}/explain",
        "/api/games/{id}/truncate",
        "/api/games/{id}/undo",
    ]
)


@given(path=PATHS, body=st.dictionaries(FIELDS, JSON, max_size=5) | JSON)
@GENERATED
def test_generated_bodies(hostile: Hostile, path: str, body: Any) -> None:
    raw = json.dumps(body).encode()
    status, answer = hostile.server.request("POST", path.format(id=hostile.game), raw)
    assert_no_5xx(status, answer)


@given(path=PATHS, body=st.binary(max_size=300))
@GENERATED
def test_generated_bytes(hostile: Hostile, path: str, body: bytes) -> None:
    status, answer = hostile.server.request("POST", path.format(id=hostile.game), body)
    assert_no_5xx(status, answer)


HEADER_TEXT = st.text(st.characters(min_codepoint=0x20, max_codepoint=0x7E), max_size=40)


@given(
    headers=st.dictionaries(
        st.sampled_from(
            [
                "Host",
                "Origin",
                "Content-Length",
                "Content-Type",
                "Cookie",
                "X-Forwarded-For",
                "Upgrade",
                "Transfer-Encoding",
            ]
        ),
        HEADER_TEXT,
        max_size=4,
    )
)
@GENERATED
def test_generated_headers(hostile: Hostile, headers: dict[str, str]) -> None:
    headers.setdefault("Host", f"127.0.0.1:{hostile.server.port}")
    status, answer = hostile.server.request("GET", "/api/info", headers=headers)
    assert_no_5xx(status, answer)


@given(query=st.text(st.characters(min_codepoint=0x21, max_codepoint=0x7E), max_size=60))
@GENERATED
def test_generated_query_strings(hostile: Hostile, query: str) -> None:
    from urllib.parse import quote

    for template in (
        "/api/games/{id}?ply={q}",
        "/api/games/{id}?flipped={q}&ply=0",
        "/api/games/{id}/record?{q}",
    ):
        path = template.format(id=hostile.game, q=quote(query, safe="=&"))
        status, answer = hostile.server.request("GET", path)
        assert_no_5xx(status, answer)


@given(frames=st.lists(st.binary(max_size=2000) | st.text(max_size=2000), min_size=1, max_size=5))
@GENERATED
def test_generated_websocket_frames(hostile: Hostile, frames: list[Any]) -> None:
    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect

    url = f"ws://127.0.0.1:{hostile.server.port}/api/games/{hostile.game}/ws"
    with connect(url, origin=f"http://127.0.0.1:{hostile.server.port}") as websocket:
        json.loads(websocket.recv(timeout=10))
        with contextlib.suppress(ConnectionClosed):
            for frame in frames:
                websocket.send(frame)
                json.loads(websocket.recv(timeout=10))


def test_raw_garbage_gets_no_5xx(hostile: Hostile) -> None:
    for data in (
        b"\x00" * 1000,
        b"GET / HTTP/9.9\r\n\r\n",
        b"\x16\x03\x01\x02\x00",
        b"GET /" + b"a" * 70_000 + b" HTTP/1.1\r\n\r\n",
    ):
        answer = hostile.server.raw(data, timeout=10)
        assert status_of(answer) < 500, answer[:200]
    with socket.create_connection(hostile.server.address, timeout=10) as sock:
        sock.sendall(
            b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            b"Transfer-Encoding: chunked\r\n\r\nffffffff\r\n"
        )
        assert status_of(read_all(sock)) < 500


# -- one client cannot hold everyone's searches or sockets ---------------

FLOOD = "127.0.0.1"
OTHER = "127.0.0.2"
"""Two clients on two loopback addresses (all of 127/8 is this machine)."""


def test_a_flood_of_evaluations_from_one_client_does_not_hold_another(tmp_path: Path) -> None:
    log = tmp_path / "serve.log"
    limits = ("--bot-workers", "1", "--eval-seconds", "0.25", "--max-games", "60")
    with serving(log, *limits, "--max-client-connections", "64") as server:
        games = []
        for _ in range(40):
            status, game = server.post("/api/games", {"variant": "small", "seconds": 0.1})
            assert status == 201, game
            games.append(game["id"])
        with concurrent.futures.ThreadPoolExecutor(40) as pool:
            # 40 evaluations of 0.25 s: 10 s of searching queued on one worker.
            flood = [
                pool.submit(server.request, "POST", f"/api/games/{game}/evaluation", b"{}")
                for game in games
            ]
            time.sleep(0.5)  # the flood is queued
            status, game = server.post(
                "/api/games", {"variant": "small", "seconds": 0.1}, source=OTHER
            )
            assert status == 201, game
            clock = time.monotonic()
            status, hint = server.request(
                "POST", f"/api/games/{game['id']}/hint", b"{}", source=OTHER
            )
            waited = time.monotonic() - clock
            answers = [future.result() for future in flood]
        text = server.log()
    assert status == 200, hint
    assert [answer[0] for answer in answers] == [200] * 40, answers[:2]
    # Its turn comes after one search of the flood, not after all forty.
    print(f"\nthe other client's 0.1 s hint took {waited:.2f} s")
    assert waited < 4.0, f"the other client's 0.1 s hint took {waited:.1f} s"
    assert "Traceback" not in text, text[:3000]


def test_idle_sockets_of_one_address_do_not_lock_the_others_out(tmp_path: Path) -> None:
    log = tmp_path / "serve.log"
    limits = ("--max-connections", "48", "--max-client-connections", "8")
    with serving(log, *limits, "--request-seconds", "10") as server:
        idle = []
        try:
            for _ in range(60):
                idle.append(server.connect(timeout=10, source=FLOOD))
            time.sleep(0.5)  # every one of them accepted (or refused)
            status, body = server.request("GET", "/api/info", source=OTHER)
            refused = server.request("GET", "/api/info", source=FLOOD)
        finally:
            for sock in idle:
                sock.close()
        text = server.log()
    assert status == 200, body
    assert json.loads(body)["limits"]["max_client_connections"] == 8
    assert refused[0] == 503, refused
    assert b"--max-client-connections" in refused[1]
    assert "Traceback" not in text, text[:3000]
