"""The README's cluster recipe, run as a new user would: the head started by
the README's command with Ray's token authentication on, from a Python that
has Ray but not veletas (the driver ships its own), and the README's
``veletas playout --ray`` against it; and a driver without the token, told
at once what to do."""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
import sysconfig
from collections.abc import Iterator
from pathlib import Path

import pytest
import veletas
from ray_cluster import RayCluster
from veletas.datasets import DatasetWriter
from veletas.playouts import PlayoutJob

README = Path(__file__).resolve().parent.parent / "README.md"


def readme_cluster_commands() -> tuple[list[str], list[str]]:
    """The README's ``ray start --head`` and ``veletas playout --ray`` lines."""
    section = README.read_text().split("## Running on a cluster", 1)[1]
    block = section.split("```sh", 1)[1].split("```", 1)[0]
    lines = [line.split("#", 1)[0].strip() for line in block.splitlines()]
    head = next(line for line in lines if line.startswith("ray start --head"))
    playout = next(line for line in lines if line.startswith("veletas playout --ray"))
    return shlex.split(head), shlex.split(playout)


def python_without_veletas(folder: Path) -> str:
    """An interpreter with this one's packages (Ray, numpy, ...) but not
    veletas, and a ``ray`` command of its own: a machine of the cluster
    where only Ray was installed."""
    subprocess.run(
        [sys.executable, "-m", "venv", "--without-pip", str(folder / "venv")], check=True
    )
    python = folder / "venv" / "bin" / "python"
    site = Path(sysconfig.get_paths()["purelib"])
    shadow = folder / "site-packages"
    shadow.mkdir()
    for entry in site.iterdir():
        if not entry.name.lower().startswith(("veletas", "_veletas", "__editable__")):
            (shadow / entry.name).symlink_to(entry)
    lib = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    Path(lib, "packages.pth").write_text(f"import site; site.addsitedir({str(shadow)!r})\n")
    ray = folder / "venv" / "bin" / "ray"
    ray.write_text(f"#!{python}\nfrom ray.scripts.scripts import main\nmain()\n")
    ray.chmod(0o755)
    return str(python)


@pytest.fixture(scope="module")
def readme_cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[RayCluster, Path]]:
    folder = tmp_path_factory.mktemp("readme-cluster")
    python = python_without_veletas(folder)
    check = subprocess.run(
        [python, "-c", "import ray, numpy; import veletas"], capture_output=True, text=True
    )
    assert "No module named 'veletas'" in check.stderr, check.stderr
    home = folder / "home"
    home.mkdir()
    # A user who has run Ray before has a token; 'ray start' then turns
    # token authentication on.
    subprocess.run(
        [str(Path(python).with_name("ray")), "get-auth-token", "--generate"],
        check=True,
        capture_output=True,
        env={**_clean_environment(), "HOME": str(home)},
    )
    head, _ = readme_cluster_commands()
    assert head[0] == "ray"
    cluster = RayCluster(num_cpus=2, start=head[1:], python=python, home=str(home))
    try:
        yield cluster, home
    finally:
        cluster.stop()


def _clean_environment() -> dict[str, str]:
    environment = {
        name: value
        for name, value in os.environ.items()
        if not name.startswith("RAY_") and name != "PYTHONPATH"
    }
    environment["NO_COLOR"] = "1"
    return environment


def run_readme_playout(
    cluster: RayCluster, home: Path, cwd: Path, *extra: str
) -> subprocess.CompletedProcess[str]:
    _, playout = readme_cluster_commands()
    command = [arg.replace("HEAD:6379", cluster.address) for arg in playout]
    command = [str(Path(sys.executable).with_name("veletas")), *command[1:]]
    games = command.index("--games")
    command[games + 1] = "30000"  # the README's run, shorter
    return subprocess.run(
        [*command, *extra],
        capture_output=True,
        text=True,
        cwd=cwd,
        env={**_clean_environment(), "HOME": str(home)},
        timeout=300,
    )


def test_the_head_runs_with_token_authentication(readme_cluster: tuple[RayCluster, Path]) -> None:
    cluster, _ = readme_cluster
    assert "Token authentication is enabled" in cluster.log.read_text()


def test_the_readme_command_plays_on_it(
    readme_cluster: tuple[RayCluster, Path], tmp_path: Path
) -> None:
    cluster, home = readme_cluster
    result = run_readme_playout(cluster, home, tmp_path, "--json", "--seed", "4")
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["where"].startswith(f"the Ray cluster at {cluster.address}")
    expected = veletas.playouts(30_000, seed=4).summary()
    for key in ("black_wins", "first_player_wins", "swaps", "plies", "claims"):
        assert report[key] == expected[key], key
    # No request went without the token, so none was refused (and logged).
    assert "InvalidAuthToken" not in result.stderr, result.stderr
    assert "Failed to get cluster ID" not in result.stderr, result.stderr


def test_a_cluster_save_is_the_file_of_one_machine_and_resumes(
    readme_cluster: tuple[RayCluster, Path], tmp_path: Path
) -> None:
    cluster, home = readme_cluster
    path = tmp_path / "games.parquet"
    # A run stopped after its first 10,000 games, as a kill leaves it.
    job = PlayoutJob.make(seed=4, record=True)
    writer = DatasetWriter(path, job, 30_000)
    writer.add(job.run(0, 10_000))
    writer.close()
    options = ["--seed", "4", "--save", str(path), "--resume", "--chunk-size", "3000"]
    result = run_readme_playout(cluster, home, tmp_path, *options)
    assert result.returncode == 0, result.stderr
    assert "10,000 games already saved" in result.stderr
    veletas.playouts(30_000, seed=4, record=True).to_parquet(tmp_path / "local.parquet")
    assert path.read_bytes() == (tmp_path / "local.parquet").read_bytes()


def test_a_driver_without_the_token_is_told_at_once(
    readme_cluster: tuple[RayCluster, Path], tmp_path: Path
) -> None:
    cluster, _ = readme_cluster
    stranger = tmp_path / "home"
    stranger.mkdir()
    result = run_readme_playout(cluster, stranger, tmp_path)
    assert result.returncode == 2
    assert "uses token authentication and this machine has no token" in result.stderr
    assert "~/.ray/auth_token" in result.stderr
    # Ray's own path retries for 20 s, with a warning each time: not taken.
    assert len(re.findall("InvalidAuthToken", result.stderr)) <= 1
    assert "Failed to connect" not in result.stderr
    assert "Traceback" not in result.stderr


def test_a_wrong_token_is_named(readme_cluster: tuple[RayCluster, Path], tmp_path: Path) -> None:
    cluster, _ = readme_cluster
    home = tmp_path / "home"
    (home / ".ray").mkdir(parents=True)
    (home / ".ray" / "auth_token").write_text("0" * 64)
    result = run_readme_playout(cluster, home, tmp_path)
    assert result.returncode == 2
    assert "refused this machine's authentication token" in result.stderr
    assert "Traceback" not in result.stderr


def test_the_workers_have_no_veletas_of_their_own(
    readme_cluster: tuple[RayCluster, Path], tmp_path: Path
) -> None:
    cluster, home = readme_cluster
    assert cluster.process.poll() is None, cluster.log.read_text()
    code = (
        "import veletas.distributed as d\n"
        f"d.playouts(100, address={cluster.address!r}, ship=False)\n"
    )
    # The head's own token, named outright: what this test is about is the
    # workers' missing package, not how a driver finds its token (the tests
    # above). Left to be found, it depended on one probe of the head, which a
    # busy machine could leave unanswered: the driver then joined without
    # token mode and got a bare "Unauthenticated".
    token = {"RAY_AUTH_MODE": "token", "RAY_AUTH_TOKEN_PATH": str(home / ".ray" / "auth_token")}
    result = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={**_clean_environment(), "HOME": str(home), **token},
        timeout=300,
    )
    assert result.returncode != 0
    assert "No module named 'veletas'" in result.stderr, result.stderr


class _Refused(Exception):
    pass


class _Gcs:
    """A stand-in for Ray's ``GcsClient``: raises each of ``answers`` in turn
    (None: connects)."""

    def __init__(self, *answers: Exception | None) -> None:
        self.answers = list(answers)
        self.calls = 0

    def __call__(self, *, address: str) -> object:
        answer = self.answers[min(self.calls, len(self.answers) - 1)]
        self.calls += 1
        if answer is not None:
            raise answer
        return self


@pytest.mark.parametrize(
    ("answers", "expected", "calls"),
    [
        ((None,), "taken", 1),
        ((_Refused("no"),), "refused", 1),
        ((RuntimeError("RPC error: Unauthenticated: Invalid or missing token"),), "refused", 1),
        ((TimeoutError("deadline"), None), "taken", 2),
        ((TimeoutError("deadline"), RuntimeError("busy"), _Refused("no")), "refused", 3),
        ((TimeoutError("deadline"),), "unknown", 3),
    ],
)
def test_the_token_probe_asks_again_when_the_head_does_not_answer(
    answers: tuple[Exception | None, ...],
    expected: str,
    calls: int,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from veletas import distributed

    monkeypatch.setattr(distributed.time, "sleep", lambda _: None)
    gcs = _Gcs(*answers)
    assert distributed._gcs_answer(gcs, _Refused, "127.0.0.1:1") == expected
    assert gcs.calls == calls
