"""Playouts on a Ray cluster (``veletas.distributed``, ``veletas playout --ray``):
the same games as on one machine, through a real cluster started for the
session, a worker killed mid-run, the command line, Ctrl-C, and the errors."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pexpect
import pytest
import ray
import veletas
import veletas.distributed
from ray_cluster import RayCluster, WorkerKiller, free_ports
from veletas.cli import main

ARRAYS = ["winner", "swapped", "plies", "claims", "moves", "offsets"]


@pytest.fixture(scope="session")
def cluster() -> Iterator[RayCluster]:
    """A two-CPU Ray cluster of its own, for the whole session."""
    started = RayCluster(num_cpus=2)
    try:
        yield started
    finally:
        started.stop()


def assert_same_games(got: veletas.Playouts, expected: veletas.Playouts) -> None:
    for name in ARRAYS:
        a, b = getattr(got, name), getattr(expected, name)
        if b is None:
            assert a is None, name
        else:
            assert a.dtype == b.dtype, name
            np.testing.assert_array_equal(a, b, err_msg=name)
    for name in ["start", "rules", "policy", "seed", "first_game", "backend"]:
        assert getattr(got, name) == getattr(expected, name), name


def test_a_cluster_plays_the_games_of_one_machine(cluster: RayCluster) -> None:
    games = veletas.distributed.playouts(200_000, address=cluster.address, seed=5)
    assert_same_games(games, veletas.playouts(200_000, seed=5))
    assert not ray.is_initialized()  # joined for the run only


def test_records_and_a_start_board_travel_too(cluster: RayCluster) -> None:
    board = veletas.Board("7/7/7/7/7/7/7 b setup 3")
    for move in list(board.legal_moves)[:1]:
        board.push(move)
    kwargs = {"start": board, "seed": 2**64 - 1, "record": True, "policy": "uniform"}
    games = veletas.distributed.playouts(3_001, address=cluster.address, chunk_size=333, **kwargs)
    expected = veletas.playouts(3_001, **kwargs)
    assert_same_games(games, expected)
    assert games.board(3_000).fen() == expected.board(3_000).fen()


def test_meridians_games_are_those_of_one_machine(cluster: RayCluster) -> None:
    kwargs = {"game": "meridians", "size": "5-6", "pie": True, "seed": 9, "record": True}
    games = veletas.distributed.playouts(5_001, address=cluster.address, chunk_size=700, **kwargs)
    expected = veletas.meridians.playouts(5_001, size="5-6", pie=True, seed=9, record=True)
    for name in ["winner", "swapped", "plies", "stones", "moves", "offsets"]:
        np.testing.assert_array_equal(getattr(games, name), getattr(expected, name), err_msg=name)
    assert games.game == "meridians"
    assert games.rules == expected.rules


def test_meridians_refuses_veletas_options() -> None:
    with pytest.raises(veletas.InvalidRulesError, match="variant: Veletas options"):
        veletas.distributed.playouts(10, game="meridians", variant="small")


def test_a_killed_worker_changes_nothing(cluster: RayCluster) -> None:
    # Chunks of about 0.1 s: a worker is found playing one within the run.
    killer = WorkerKiller(cluster, "veletas playouts")
    killer.start()
    try:
        games = veletas.distributed.playouts(
            1_000_000, address=cluster.address, chunk_size=20_000, seed=8
        )
    finally:
        killer.done.set()
        killer.join()
    assert killer.killed is not None, "no worker was seen playing a chunk"
    assert re.fullmatch(r"ray::veletas playouts \d+\.\.\d+", killer.killed)
    assert_same_games(games, veletas.playouts(1_000_000, seed=8))


def test_a_killed_worker_leaves_the_json_whole(cluster: RayCluster) -> None:
    # Ray forwards its lines about the lost worker to the driver: they stay in
    # Ray's logs, and stdout carries the package's JSON alone.
    killer = WorkerKiller(cluster, "veletas playouts")
    killer.start()
    try:
        command = [sys.executable, "-m", "veletas.cli", "playout", "--json", "--seed", "8"]
        options = ["--games", "1000000", "--ray", cluster.address, "--chunk-size", "20000"]
        result = subprocess.run(
            [*command, *options], capture_output=True, text=True, timeout=600, check=False
        )
    finally:
        killer.done.set()
        killer.join()
    assert killer.killed is not None, "no worker was seen playing a chunk"
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["games"] == 1_000_000
    assert report["where"] == f"the Ray cluster at {cluster.address} (1 node, 2 CPUs)"


def test_a_connection_made_before_is_used_and_kept(cluster: RayCluster) -> None:
    ray.init(address=cluster.address)
    try:
        games = veletas.distributed.playouts(5_000, variant="small", seed=1)
        assert ray.is_initialized()
        assert_same_games(games, veletas.playouts(5_000, variant="small", seed=1))
        with pytest.raises(ValueError, match=r"already connected .*'10\.9\.8\.7:6379'"):
            veletas.distributed.playouts(10, address="10.9.8.7:6379")
    finally:
        ray.shutdown()


def test_the_command_line_plays_on_the_cluster(
    cluster: RayCluster, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["playout", "--json", "--games", "30000", "--variant", "small", "--seed", "4"]
    assert main([*args, "--ray", cluster.address, "--chunk-size", "2999"]) == 0
    remote = json.loads(capsys.readouterr().out)
    assert main(args) == 0
    local = json.loads(capsys.readouterr().out)
    assert remote["where"] == f"the Ray cluster at {cluster.address} (1 node, 2 CPUs)"
    volatile = {"seconds", "games_per_second", "where"}
    assert {k: v for k, v in remote.items() if k not in volatile} == {
        k: v for k, v in local.items() if k not in volatile
    }


def test_the_command_line_plays_meridians_on_the_cluster(
    cluster: RayCluster, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["playout", "--json", "--games", "20000", "--game", "meridians", "--size", "5-6"]
    assert main([*args, "--ray", cluster.address, "--chunk-size", "2999"]) == 0
    remote = json.loads(capsys.readouterr().out)
    assert main(args) == 0
    local = json.loads(capsys.readouterr().out)
    volatile = {"seconds", "games_per_second", "where"}
    assert remote["game"] == "meridians"
    assert {k: v for k, v in remote.items() if k not in volatile} == {
        k: v for k, v in local.items() if k not in volatile
    }


def test_a_meridians_save_on_the_cluster_is_the_file_of_one_machine_and_resumes(
    cluster: RayCluster, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from veletas import meridians
    from veletas.datasets import DatasetWriter
    from veletas.playouts import PlayoutJob

    path = tmp_path / "games.parquet"
    # A run stopped after its first 6,000 games, as a kill leaves it.
    job = PlayoutJob.make(game="meridians", size="6-7", pie=True, seed=4, record=True)
    writer = DatasetWriter(path, job, 20_000)
    writer.add(job.run(0, 6_000))
    writer.close()
    args = ["playout", "--games", "20000", "--game", "meridians", "--pie", "--seed", "4"]
    options = ["--ray", cluster.address, "--chunk-size", "2999", "--save", str(path)]
    assert main([*args, *options, "--resume"]) == 0
    assert "6,000 games already saved" in capsys.readouterr().err
    local = tmp_path / "local.parquet"
    meridians.playouts(20_000, pie=True, seed=4, record=True).to_parquet(local)
    assert path.read_bytes() == local.read_bytes()
    assert main([*args, *options, "--force"]) == 0
    assert path.read_bytes() == local.read_bytes()


def test_ctrl_c_cancels_the_chunks_and_keeps_the_finished_ones(cluster: RayCluster) -> None:
    child = pexpect.spawn(
        sys.executable,
        ["-m", "veletas.cli", "playout", "--ray", cluster.address, "--games", "100000000"],
        encoding="utf-8",
        timeout=120,
        dimensions=(24, 200),
    )
    child.expect(r"[1-9][0-9.]*[kM]/100M")  # some chunks are done
    child.sendintr()
    child.expect(pexpect.EOF)
    child.close()
    output = child.before
    assert child.exitstatus == 130, output
    finished = re.search(r"interrupted: ([\d,]+) of 100,000,000 games finished", output)
    assert finished, output
    # The summary keeps the games before the first unfinished chunk: on a
    # busy machine chunk 0 may still be running when later ones are done.
    assert 0 <= int(finished[1].replace(",", "")) < 100_000_000
    assert re.search(rf"games\s+{finished[1]} in [\d.]+ s on the Ray cluster at", output)
    assert "Traceback" not in output
    # The cancelled chunks' workers were stopped, not left playing.
    deadline = time.monotonic() + 30
    while any("veletas playouts" in title for title in cluster.processes().values()):
        assert time.monotonic() < deadline, cluster.processes()
        time.sleep(0.1)


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"n_games": -1}, ValueError, "n_games must be 0 or more, not -1"),
        ({"chunk_size": 0}, ValueError, "chunk_size must be at least 1"),
        ({"chunk_size": 2.5}, TypeError, "chunk_size must be an int, not 2.5"),
        ({"max_retries": -2}, ValueError, "max_retries must be -1 (no limit) or more, not -2"),
        ({"address": 6379}, TypeError, "address must be a str or None, not 6379"),
        ({"address": " "}, ValueError, "address must name a cluster"),
        ({"progress": "yes"}, TypeError, "progress must be a bool or None"),
        ({"variant": "huge"}, veletas.InvalidRulesError, "'huge'"),
        ({"seed": 2**64}, ValueError, "seed must be in 0 .. 2**64 - 1"),
        ({"threads": 0}, ValueError, "threads must be at least 1"),
        ({"start": "7/7 b setup 3"}, veletas.InvalidFenError, "'7/7 b setup 3'"),
    ],
)
def test_bad_arguments_raise_before_ray_is_touched(
    monkeypatch: pytest.MonkeyPatch, kwargs: dict, error: type[Exception], message: str
) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # any use of Ray would fail otherwise
    arguments = {"n_games": 10, **kwargs}
    with pytest.raises(error, match=re.escape(message)):
        veletas.distributed.playouts(arguments.pop("n_games"), **arguments)


def test_threads_beyond_every_node_are_refused(cluster: RayCluster) -> None:
    with pytest.raises(ValueError, match="asks each task for 3 CPUs, but the largest node"):
        veletas.distributed.playouts(10, address=cluster.address, threads=3)
    assert not ray.is_initialized()


def test_without_ray_the_error_says_how_to_install_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)
    with pytest.raises(ModuleNotFoundError, match=re.escape('pip install ".[ray]" in a clone')):
        veletas.distributed.playouts(10)
    assert main(["playout", "--games", "10", "--ray"]) == 2
    assert 'pip install ".[ray]"' in capsys.readouterr().err


def test_chunk_size_needs_ray(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["playout", "--games", "10", "--chunk-size", "5"]) == 2
    assert "--chunk-size needs --ray" in capsys.readouterr().err


def test_the_ray_option_takes_an_optional_address() -> None:
    parse = veletas.cli.build_parser().parse_args
    assert parse(["playout"]).ray is None
    assert parse(["playout", "--ray", "--games", "5"]).ray == ""
    assert parse(["playout", "--ray", "head:6379"]).ray == "head:6379"


def test_importing_veletas_does_not_import_ray() -> None:
    code = (
        "import sys, veletas, veletas.distributed, veletas.cli.playout\n"
        "veletas.cli.build_parser()\n"
        "assert 'ray' not in sys.modules, 'ray was imported'\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def test_the_default_chunk_size_follows_the_run() -> None:
    size = veletas.distributed.chunk_size_for
    seconds = 1e-5  # a game
    longest = round(veletas.distributed.CHUNK_SECONDS / seconds)
    shortest = round(veletas.distributed.MIN_CHUNK_SECONDS / seconds)
    per_cpu = veletas.distributed.CHUNKS_PER_CPU
    # A long run: chunks of CHUNK_SECONDS, whatever the cluster.
    assert size(10**9, 2, seconds) == size(10**9, 200, seconds) == longest
    # Two threads a task: twice the games in the same time.
    assert size(10**9, 2, seconds, threads=2) == 2 * longest
    # A shorter one: CHUNKS_PER_CPU chunks a slot.
    n = 10 * shortest * per_cpu
    assert size(n, 10, seconds) * per_cpu * 10 == n
    # A short one: never under MIN_CHUNK_SECONDS (nor over the run).
    assert size(shortest * 3, 100, seconds) == shortest
    assert size(3, 100, seconds) == 3


def test_without_an_address_a_local_runtime_plays(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["playout", "--json", "--games", "5000", "--variant", "small", "--seed", "6"]
    assert main([*args, "--ray"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert re.fullmatch(r"a local Ray runtime \(1 node, \d+ CPUs?\)", report["where"])
    assert not ray.is_initialized()  # started for the run, stopped after it
    games = veletas.playouts(5000, variant="small", seed=6)
    assert report["claims"] == games.summary()["claims"]


def test_an_address_where_nothing_answers_is_an_error(capsys: pytest.CaptureFixture[str]) -> None:
    (port,) = free_ports(1)
    address = f"127.0.0.1:{port}"
    with pytest.raises(ConnectionError, match=f"no Ray cluster answers at '{address}'"):
        veletas.distributed.playouts(10, address=address)
    assert main(["playout", "--games", "10", "--ray", address]) == 2
    assert f"no Ray cluster answers at '{address}'" in capsys.readouterr().err
    assert not ray.is_initialized()


def test_a_driver_with_a_token_joins_a_cluster_without_authentication(
    cluster: RayCluster, tmp_path: Path
) -> None:
    # The token goes with the driver's first request (so that a cluster
    # wanting it refuses nothing, and Ray logs no refusal); one that does not
    # want it ignores it.
    home = tmp_path / "home"
    home.mkdir()
    environment = {name: value for name, value in os.environ.items() if not name.startswith("RAY_")}
    environment["HOME"] = str(home)
    beside = Path(sys.executable).with_name("ray")
    ray_command = str(beside) if beside.exists() else "ray"
    subprocess.run(
        [ray_command, "get-auth-token", "--generate"],
        check=True,
        capture_output=True,
        env=environment,
    )
    assert (home / ".ray" / "auth_token").is_file()
    command = ["playout", "--games", "3000", "--variant", "small", "--ray", cluster.address]
    result = subprocess.run(
        [sys.executable, "-m", "veletas.cli", *command],
        capture_output=True,
        text=True,
        env=environment,
        timeout=300,
        cwd=tmp_path,
    )
    assert result.returncode == 0, result.stderr
    assert "3,000 in" in result.stdout
    assert "InvalidAuthToken" not in result.stderr, result.stderr
