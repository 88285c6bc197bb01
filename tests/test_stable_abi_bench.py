"""``benches/stable_abi.py`` (``make bench-stable-abi``) keeps working as the
API moves: its worker runs every workload once in this interpreter and
answers with a time per call, and its driver refuses what it cannot compare.
The times are not checked: they are measured, never asserted."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent.parent / "benches" / "stable_abi.py"


def test_the_worker_runs_every_workload() -> None:
    with subprocess.Popen(
        [sys.executable, str(BENCH), "--worker"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    ) as worker:
        assert worker.stdin is not None
        assert worker.stdout is not None
        hello = json.loads(worker.stdout.readline() or "null")
        assert hello is not None, worker.communicate()[1]
        names = hello["workloads"]
        # The adapters' rows need the test extra's packages, installed here.
        for expected in ("push + pop", "legal_moves", "OpenSpiel", "PettingZoo", "Gymnasium"):
            assert any(expected in name for name in names), expected
        assert hello["extension"].startswith("_veletas.")
        for name in names:
            print(json.dumps(name), file=worker.stdin, flush=True)
            per_call = json.loads(worker.stdout.readline())
            assert per_call > 0, name
        worker.stdin.close()
        assert worker.wait(timeout=60) == 0


def test_the_driver_refuses_two_builds_of_one_kind() -> None:
    python = f"a={sys.executable}"
    result = subprocess.run(
        [sys.executable, str(BENCH), "--build", python, "--build", python.replace("a=", "b=")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 2
    assert "both builds load the same kind of extension" in result.stderr


def test_the_driver_wants_two_builds() -> None:
    result = subprocess.run(
        [sys.executable, str(BENCH), "--build", f"a={sys.executable}"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 2
    assert "give two --build LABEL=PYTHON" in result.stderr


def test_the_counting_worker_plans_every_workload() -> None:
    # What `--callgrind` runs under valgrind, here without it: the extension's
    # name, then each workload with its number of calls between two dumps.
    result = subprocess.run(
        [sys.executable, str(BENCH), "--count"], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr
    extension, plan = result.stdout.splitlines()[-2:]
    assert extension.startswith("_veletas.")
    rows = json.loads(plan)
    assert any("push + pop" in row["name"] for row in rows)
    assert all(row["calls"] >= 5 for row in rows)
