"""``veletas playout``: the summary table, JSON, options, errors and Ctrl-C."""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pexpect
import pytest
import veletas
from veletas.cli import main
from veletas.cli import playout as playout_cli
from veletas.playouts import PlayoutJob


def run_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict:
    assert main(["playout", "--json", *args]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.native
def test_the_default_job_prints_the_summary(capsys: pytest.CaptureFixture[str]) -> None:
    # The default run with fewer games; its other defaults are the real ones.
    assert main(["playout", "--games", "3000"]) == 0
    out = capsys.readouterr().out
    games = veletas.playouts(3000)
    assert re.search(
        r"games\s+3,000 in [\d.]+ s on \d+ threads?, rust backend: [\d,]+ games/s", out
    )
    assert "standard (10x10, 7 shooters, perimeter), micro policy, seed 0" in out
    for label, estimate in [
        ("black wins", games.win_rate(veletas.BLACK)),
        ("white wins", games.win_rate(veletas.WHITE)),
        ("first player", games.first_player_win_rate()),
        ("swaps", games.swap_rate()),
    ]:
        interval = f"(95% CI {estimate.low:.2%} .. {estimate.high:.2%})"
        assert re.search(rf"{label}\s+{estimate.rate:.2%}\s+{re.escape(interval)}", out), label
    assert f"mean {games.mean_plies():.1f}" in out
    for (black, white), count in games.claim_counts().items():
        assert re.search(rf"\s{black}-{white}\s+{count:,}\s", out)


def test_the_default_run_is_100000_standard_games() -> None:
    args = veletas.cli.build_parser().parse_args(["playout"])
    # No policy given: the game's first (micro for Veletas).
    assert (args.games, args.variant, args.policy, args.seed, args.threads) == (
        100_000,
        "standard",
        None,
        0,
        None,
    )
    assert veletas.games.get(args.game).playouts.POLICIES[0] == "micro"


def test_json_matches_the_library(capsys: pytest.CaptureFixture[str]) -> None:
    report = run_json(capsys, "--games", "2000", "--variant", "small", "--seed", "9")
    games = veletas.playouts(2000, variant="small", seed=9)
    assert report["games"] == report["requested"] == 2000
    assert report["interrupted"] is False
    assert report["games_per_second"] > 0
    expected = games.summary()
    for key in ["black_wins", "white_wins", "first_player_wins", "swaps", "plies", "claims"]:
        assert report[key] == json.loads(json.dumps(expected[key])), key


@pytest.mark.native
def test_threads_do_not_change_the_games(capsys: pytest.CaptureFixture[str]) -> None:
    one = run_json(capsys, "--games", "1500", "--threads", "1", "--seed", "3")
    two = run_json(capsys, "--games", "1500", "--threads", "2", "--seed", "3")
    assert one["where"] == "1 thread"
    assert two["where"] == "2 threads"
    assert {k: v for k, v in one.items() if k not in {"seconds", "games_per_second", "where"}} == {
        k: v for k, v in two.items() if k not in {"seconds", "games_per_second", "where"}
    }


def test_rules_policy_and_start_options(capsys: pytest.CaptureFixture[str]) -> None:
    report = run_json(
        capsys,
        "--games",
        "300",
        "--size",
        "8",
        "--shooters",
        "5",
        "--setup-rule",
        "spacing",
        "--shooters-block",
        "--policy",
        "uniform",
    )
    assert report["rules"] == {
        "variant": "custom",
        "size": 8,
        "shooters": 5,
        "setup_rule": "spacing",
        "shooters_block": True,
        "claimed_shooters_block": False,
    }
    assert report["policy"] == "uniform"
    fen = "7/2x4/7/1s5/7/o1s2s1/7 b play 3"
    report = run_json(capsys, "--games", "300", "--from", fen)
    assert report["start"] == fen
    assert report["swaps"]["rate"] == 0.0


def test_chunks_cover_the_run_and_adapt() -> None:
    ranges = list(playout_cli.chunks(5000))
    assert ranges[0] == (0, 1024)
    covered = [i for first, count in ranges for i in range(first, first + count)]
    assert covered == list(range(5000))


def test_another_runner_plugs_in(capsys: pytest.CaptureFixture[str]) -> None:
    calls = []

    class Recording(playout_cli.LocalRunner):
        def describe(self, job: PlayoutJob) -> str:
            return "a recording runner"

        def play(
            self, job: PlayoutJob, n_games: int, progress: Callable[[int], object]
        ) -> Iterator[veletas.Playouts]:
            for part in super().play(job, n_games, progress):
                calls.append((part.first_game, len(part)))
                yield part

    args = veletas.cli.build_parser().parse_args(
        ["playout", "--games", "2000", "--variant", "small"]
    )
    assert playout_cli.run(args, runner=Recording()) == 0
    assert "on a recording runner" in capsys.readouterr().out
    assert sum(n for _, n in calls) == 2000
    assert calls[0][0] == 0


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--from", "7/7 b setup 3"], "'7/7 b setup 3'"),
        (["--size", "11"], "11"),
        (["--from", "7/7/7/7/7/7/7 b setup 3", "--size", "9"], "size 9"),
    ],
)
def test_bad_input_is_an_error_that_names_it(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    assert main(["playout", "--games", "10", *args]) == 2
    assert message in capsys.readouterr().err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--games", "-1"], "must be 1 or more, not -1"),
        (["--games", "0"], "must be 1 or more, not 0"),
        (["--games", "0e3"], "must be 1 or more, not 0e3"),
        (["--games", "1.5"], "not a whole number: '1.5'"),
        (["--games", "1e-3"], "not a whole number: '1e-3'"),
        (["--games", "inf"], "not a whole number: 'inf'"),
        (["--games", "many"], "not a number: 'many'"),
        (["--games", "1e20"], "must be below 2**64, not 1e20"),
        (["--games", "1e999999999"], "must be below 2**64"),
        (["--threads", "0"], "must be 1 or more"),
        (["--seed", str(2**64)], "must be in 0 .. 2**64 - 1"),
        (["--policy", "greedy"], "invalid choice"),
    ],
)
def test_bad_options_are_refused(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["playout", *args])
    assert exit_info.value.code == 2
    assert message in capsys.readouterr().err


@pytest.mark.parametrize(
    ("text", "games"),
    [("1000000", 10**6), ("1_000_000", 10**6), ("1e6", 10**6), ("2.5E5", 250_000), ("1", 1)],
)
def test_a_game_count_is_any_whole_number(text: str, games: int) -> None:
    args = veletas.cli.build_parser().parse_args(["playout", "--games", text])
    assert args.games == games
    assert type(args.games) is int


class StoppedAtOnce(playout_cli.LocalRunner):
    """Ctrl-C before the first range of games finishes."""

    def play(
        self, job: PlayoutJob, n_games: int, progress: Callable[[int], object]
    ) -> Iterator[veletas.Playouts]:
        raise KeyboardInterrupt
        yield  # a generator, like the other runners


def test_no_finished_game_is_summarised_without_nan(capsys: pytest.CaptureFixture[str]) -> None:
    parser = veletas.cli.build_parser()
    args = parser.parse_args(["playout", "--games", "500", "--variant", "small"])
    assert playout_cli.run(args, runner=StoppedAtOnce()) == 130
    captured = capsys.readouterr()
    assert "interrupted: 0 of 500 games finished" in captured.err
    assert "no game finished" in captured.out
    assert "nan" not in captured.out.lower()

    def refuse(constant: str) -> None:
        raise AssertionError(f"{constant} is not JSON")

    args = parser.parse_args(["playout", "--games", "500", "--variant", "small", "--json"])
    assert playout_cli.run(args, runner=StoppedAtOnce()) == 130
    report = json.loads(capsys.readouterr().out, parse_constant=refuse)
    assert report["games"] == 0
    assert report["black_wins"]["rate"] is None


def test_help_explains_the_command(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["playout", "--help"])
    out = capsys.readouterr().out
    for option in ["--games", "--json", "--seed", "--threads", "--policy", "--from", "--variant"]:
        assert option in out
    assert "Ctrl-C" in out


def test_ctrl_c_stops_and_reports_the_finished_games() -> None:
    # A real terminal, so that the progress bar shows; Ctrl-C once it moves.
    child = pexpect.spawn(
        sys.executable,
        ["-m", "veletas.cli", "playout", "--games", "100000000", "--threads", "1"],
        encoding="utf-8",
        timeout=60,
        dimensions=(24, 200),
    )
    child.expect(r"[1-9][0-9.]*k/100M")  # some games are done
    child.sendintr()
    child.expect(pexpect.EOF)
    child.close()
    output = child.before
    assert child.exitstatus == 130, output
    finished = re.search(r"interrupted: ([\d,]+) of 100,000,000 games finished", output)
    assert finished, output
    games = int(finished[1].replace(",", ""))
    assert 0 < games < 100_000_000
    assert re.search(rf"games\s+{finished[1]} in", output)
    assert "black wins" in output
    assert "Traceback" not in output


def test_save_writes_the_games_as_records(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "games.txt"
    args = ["playout", "--games", "30", "--variant", "small", "--seed", "4", "--save", str(path)]
    assert main(args) == 0
    out = capsys.readouterr().out
    # The summary gives the time of the games and of the writing.
    assert re.search(r"games\s+30 in \d+\.\d\d s on ", out)
    assert re.search(rf"saved\s+30 games to {re.escape(str(path))} in \d+\.\d\d s", out)
    saved = veletas.records.read(path)
    games = veletas.playouts(30, variant="small", seed=4, record=True)
    assert [record.board().fen() for record in saved] == [games.board(i).fen() for i in range(30)]
    assert main([*args, "--json", "--force"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["seconds"] > 0
    assert report["saved"]["path"] == str(path)
    assert report["saved"]["seconds"] > 0
    assert len(veletas.records.read(path)) == 30


def test_a_policy_the_game_lacks_is_refused_even_when_it_is_the_default_of_another(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["playout", "--game", "meridians", "--policy", "micro", "--games", "10"]) == 2
    err = capsys.readouterr().err
    assert "--policy micro: Meridians games have the policies uniform" in err, err
    assert main(["playout", "--game", "meridians", "--games", "10", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["policy"] == "uniform"
