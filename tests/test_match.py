"""Matches between bots (``veletas.match``, ``veletas.round_robin``,
``veletas match``): player specs, reproducibility across threads and Ray, the
statistics against a hand computation, seats under the pie rule of both
games, records, the command line and Ctrl-C."""

from __future__ import annotations

import json
import math
import random
import re
import shlex
import signal
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pexpect
import pytest
import veletas
from veletas import games, meridians, records
from veletas.cli import main
from veletas.errors import InvalidPlayerError
from veletas.match import (
    BotSpec,
    GameResult,
    MatchResult,
    Player,
    elo,
    fit_ratings,
    game_seeds,
)

SMALL = {"variant": "small"}
TIMING = {"seconds", "where"}  # what may differ between two runs of the same games


def moves_of(result: MatchResult) -> list[tuple[str, ...]]:
    return [g.moves for g in result.games]


def same_games(a: MatchResult, b: MatchResult) -> bool:
    """The same games, won by the same seats, whatever the clock said."""
    fields = ["index", "a_first", "winner", "swapped", "moves", "turns", "iterations"]
    return [[getattr(g, f) for f in fields] for g in a.games] == [
        [getattr(g, f) for f in fields] for g in b.games
    ]


# ----------------------------------------------------------------------
# Player specs


@pytest.mark.parametrize(
    ("spec", "canonical", "reproducible"),
    [
        ("random", "random", True),
        ("greedy", "greedy", True),
        ("mcts", "mcts", False),
        ("mcts:iterations=2000", "mcts:iterations=2000", True),
        ("mcts:seconds=0.5", "mcts:seconds=0.5", False),
        ("mcts:iterations=500,exploration=1.0", "mcts:iterations=500,exploration=1.0", True),
        ("mcts:exploration=1, iterations=500", "mcts:iterations=500,exploration=1.0", True),
        ("mcts:seconds=2,iterations=100", "mcts:iterations=100,seconds=2.0", False),
        (" greedy ", "greedy", True),
    ],
)
def test_specs_are_read(spec: str, canonical: str, reproducible: bool) -> None:
    player = BotSpec.parse(spec)
    assert str(player) == player.name == canonical
    assert player.reproducible is reproducible
    assert BotSpec.parse(canonical) == player
    assert eval(repr(player), {"BotSpec": BotSpec}) == player


def test_a_spec_makes_the_bot_it_names() -> None:
    assert isinstance(BotSpec.parse("random").make(3), veletas.RandomBot)
    assert isinstance(BotSpec.parse("greedy").make(3), veletas.GreedyBot)
    bot = BotSpec.parse("mcts:iterations=500,exploration=1.5").make(7)
    assert isinstance(bot, veletas.MctsBot)
    assert (bot.iterations, bot.seconds, bot.seed, bot.exploration) == (500, None, 7, 1.5)
    assert BotSpec.parse("mcts").make(0).seconds == veletas.bots.DEFAULT_SECONDS
    assert BotSpec.parse("mcts:cutoff=0").make(0).cutoff == 0
    assert BotSpec.parse("mcts").make(0).cutoff is None


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("", "unknown player ''"),
        ("alphazero", "unknown player 'alphazero': expected random, greedy, mcts"),
        ("MCTS", "unknown player 'MCTS'"),
        ("random:seed=3", "player 'random:seed=3': random takes no options"),
        ("mcts:", "player 'mcts:': '' is not OPTION=VALUE"),
        ("mcts:iterations", "player 'mcts:iterations': 'iterations' is not OPTION=VALUE"),
        ("mcts:iterations=", "is not OPTION=VALUE"),
        ("mcts:depth=3", "unknown option 'depth'; expected one of iterations, seconds"),
        (
            "mcts:iterations=0",
            "iterations must be a whole number of 1 to 1,000,000,000,000, not '0'",
        ),
        ("mcts:iterations=-5", "not '-5'"),
        ("mcts:iterations=1.5", "not '1.5'"),
        ("mcts:iterations=lots", "not 'lots'"),
        ("mcts:seconds=0", "seconds must be a number of 1e-06 to 1e+06, not '0'"),
        ("mcts:seconds=nan", "not 'nan'"),
        ("mcts:seconds=inf", "not 'inf'"),
        ("mcts:exploration=-1", "exploration must be a number of 0 or more, not '-1'"),
        ("mcts:iterations=5,iterations=6", "iterations is given twice"),
        ("mcts:iterations=5,", "'' is not OPTION=VALUE"),
        ("mcts:cutoff=-1", "cutoff must be a whole number of 0 to 1,000,000, not '-1'"),
        ("mcts:cutoff=2.5", "not '2.5'"),
        ("mcts:cutoff=1000001", "not '1000001'"),
        ("uct:cutoff=8", "player 'uct:cutoff=8': uct, the fixed baseline, takes no cutoff"),
    ],
)
def test_bad_specs_are_refused_with_a_clear_error(spec: str, message: str) -> None:
    with pytest.raises(InvalidPlayerError) as error:
        BotSpec.parse(spec)
    assert message in str(error.value)
    assert isinstance(error.value, ValueError)


class CountingPlayer(Player):
    """A random player that counts the bots it made for games."""

    def __init__(self) -> None:
        self.made = 0

    @property
    def name(self) -> str:
        return "counting"

    def make(self, seed: int) -> veletas.bots.Bot:
        self.made += 1
        return veletas.RandomBot(seed)

    def check(self, board: Any) -> None:
        pass


@pytest.mark.parametrize("bad", ["mcts:iterations=0", "nobody", "mcts:speed=9"])
def test_every_spec_is_checked_before_any_game(bad: str) -> None:
    counting = CountingPlayer()
    with pytest.raises(InvalidPlayerError, match=re.escape(repr(bad))):
        veletas.match(counting, bad, 10, **SMALL)
    with pytest.raises(InvalidPlayerError, match=re.escape(repr(bad))):
        veletas.round_robin([counting, "greedy", "random", bad], 10, **SMALL)
    assert counting.made == 0


def test_the_command_refuses_a_bad_spec_before_any_game(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["match", "--round-robin", "random", "greedy", "mcts:iterations=x"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "veletas: error: player 'mcts:iterations=x': iterations must be" in captured.err


def test_round_robins_refuse_a_player_twice_and_need_two() -> None:
    with pytest.raises(InvalidPlayerError, match="'greedy' is given twice"):
        veletas.round_robin(["greedy", "random", " greedy"], 2)
    with pytest.raises(InvalidPlayerError, match="two players or more, not 1"):
        veletas.round_robin(["greedy"], 2)


def test_other_arguments_are_checked_too() -> None:
    with pytest.raises(ValueError, match="n_games must be 0 or more"):
        veletas.match("random", "greedy", -1)
    with pytest.raises(ValueError, match=r"seed must be in 0 \.\. 2"):
        veletas.match("random", "greedy", 1, seed=2**64)
    with pytest.raises(ValueError, match="threads must be 1 or more"):
        veletas.match("random", "greedy", 1, threads=0)
    with pytest.raises(ValueError, match="unknown game 'go'"):
        veletas.match("random", "greedy", 1, game="go")
    with pytest.raises(veletas.InvalidRulesError, match="unknown variant 'huge'"):
        veletas.match("random", "greedy", 1, variant="huge")
    with pytest.raises(veletas.InvalidRulesError, match="bad rules for veletas"):
        veletas.match("random", "greedy", 1, pie=True)


# ----------------------------------------------------------------------
# Reproducibility


def test_threads_do_not_change_the_games() -> None:
    players = ("mcts:iterations=150", "greedy")
    one = veletas.match(*players, 9, seed=11, threads=1, **SMALL)
    assert one.reproducible
    for threads in (2, 3):
        assert same_games(veletas.match(*players, 9, seed=11, threads=threads, **SMALL), one)
    # Game i depends on (seed, i) alone: a shorter match is a prefix.
    assert same_games(veletas.match(*players, 4, seed=11, threads=2, **SMALL), _prefix(one, 4))
    assert moves_of(veletas.match(*players, 9, seed=12, threads=1, **SMALL)) != moves_of(one)


def _prefix(result: MatchResult, n: int) -> MatchResult:
    import dataclasses

    return dataclasses.replace(result, games=result.games[:n])


def test_each_game_is_seeded_from_the_seed_and_its_index() -> None:
    result = veletas.match("mcts:iterations=100", "random", 3, seed=5, threads=2, **SMALL)
    for game in result.games:
        seed_a, seed_b = game_seeds(5, game.index)
        bots = [veletas.MctsBot(iterations=100, seed=seed_a), veletas.RandomBot(seed_b)]
        if not game.a_first:
            bots.reverse()
        board = veletas.Board(**SMALL)
        swapped = False
        while not board.is_game_over():
            move = bots[int(board.turn) ^ swapped].choose(board)
            board.push(move)
            swapped = swapped or move.is_swap
        assert [str(m) for m in board.move_stack] == list(game.moves)
    assert [g.a_first for g in result.games] == [True, False, True]


def test_round_robins_are_reproducible_and_their_pairs_replay_as_matches() -> None:
    players = ["random", "greedy", "mcts:iterations=60"]
    one = veletas.round_robin(players, 4, seed=3, threads=1, **SMALL)
    two = veletas.round_robin(players, 4, seed=3, threads=2, **SMALL)
    for a, b in zip(one.pairs, two.pairs, strict=True):
        assert same_games(a, b)
    seeds = {p.seed for p in one.pairs}
    assert len(seeds) == 3  # each pair its own streams
    pair = one.pair(1, 2)
    assert pair.players == ("greedy", "mcts:iterations=60")
    assert same_games(veletas.match(*pair.players, 4, seed=pair.seed, **SMALL), pair)


def test_ray_plays_the_games_of_one_machine() -> None:
    players = ("mcts:iterations=80", "greedy")
    local = veletas.match(*players, 10, seed=7, threads=2, **SMALL)
    on_ray = veletas.match(*players, 10, seed=7, ray=True, chunk_size=3, **SMALL)
    assert same_games(on_ray, local)
    assert "Ray" in on_ray.where


def test_time_budgets_say_they_are_not_reproducible(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert (
        main(["match", "mcts:seconds=0.002", "random", "--games", "2", "--variant", "small"]) == 0
    )
    assert "time budgets: the games are not reproducible" in capsys.readouterr().out


# ----------------------------------------------------------------------
# Statistics against a hand computation


def game(index: int, a_first: bool, winner: int | None, swapped: bool = False) -> GameResult:
    return GameResult(
        index, a_first, winner, swapped, ("x",) * (20 + index), (1.0, 2.0), (5, 5), (100, 0)
    )


def result_of(games: list[GameResult]) -> MatchResult:
    return MatchResult(
        players=("A", "B"),
        game="veletas",
        rules={},
        description="-",
        seed=0,
        requested=len(games),
        games=tuple(games),
        interrupted=False,
        seconds=1.0,
        where="here",
        reproducible=True,
    )


def test_the_statistics_of_a_match_by_hand() -> None:
    # Ten games; A first in the even ones. A wins 4 of 5 as first player and 3
    # of 5 as second: 7 of 10. The first player (seat 0) won games 0, 2, 4,
    # 6 (A first) and 3, 5 (B first... A lost those): 4 + (5 - 3) = 6.
    a_wins = {0, 2, 4, 6, 1, 7, 9}
    games = [
        game(i, i % 2 == 0, 0 if (i in a_wins) == (i % 2 == 0) else 1, swapped=i in {2, 5})
        for i in range(10)
    ]
    result = result_of(games)
    assert result.points == (7.0, 3.0)
    # Wilson: p = 0.7, n = 10, z = 1.959964, z^2 = 3.841459:
    # centre (0.7 + z^2/20) / (1 + z^2/10) = 0.892073 / 1.384146 = 0.644493,
    # half z sqrt(0.021 + z^2/400) / (1 + z^2/10) = 0.342874 / 1.384146 = 0.247715.
    rate = result.win_rate
    assert rate.rate == 0.7
    assert rate.low == pytest.approx(0.396778, abs=2e-6)
    assert rate.high == pytest.approx(0.892208, abs=2e-6)
    # Elo: 400 log10(0.7 / 0.3) = 147.19; the interval maps the Wilson ends:
    # 400 log10(0.396778 / 0.603222) = -72.77, 400 log10(0.892208 / 0.107792) = 367.15.
    assert result.elo.difference == pytest.approx(147.19, abs=0.01)
    assert result.elo.low == pytest.approx(-72.77, abs=0.01)
    assert result.elo.high == pytest.approx(367.15, abs=0.01)
    assert result.rate_as(first=True).rate == 0.8
    assert result.rate_as(first=False).rate == 0.6
    assert result.first_player_win_rate.rate == 0.6
    assert result.swap_rate.rate == 0.2
    assert result.plies.tolist() == list(range(20, 30))
    assert result.thinking(0) == {"seconds_per_move": 0.2, "iterations_per_move": 20.0}
    assert result.thinking(1) == {"seconds_per_move": 0.4, "iterations_per_move": None}
    summary = result.summary()
    assert summary["score"] == {"a": 7.0, "b": 3.0}
    assert summary["first_player_wins"]["rate"] == 0.6
    assert summary["plies"]["quantiles"]["0.5"] == 24.5


def test_games_without_a_winner_count_half() -> None:
    result = result_of([game(0, True, None), game(1, False, None), game(2, True, 0)])
    assert result.points == (2.0, 1.0)
    assert result.first_player_win_rate.rate == pytest.approx(2 / 3)


def test_a_clean_sweep_has_an_infinite_elo_and_json_says_null() -> None:
    result = result_of([game(i, i % 2 == 0, 0 if i % 2 == 0 else 1) for i in range(8)])
    assert result.points == (8.0, 0.0)
    assert result.elo.difference == math.inf
    assert result.elo.low == pytest.approx(elo(result.win_rate.low))
    assert math.isfinite(result.elo.low)
    summary = json.loads(json.dumps(result.summary(), allow_nan=False))
    assert summary["elo"]["difference"] is None
    assert "+inf" in str(result)


def test_elo() -> None:
    assert elo(0.5) == 0
    assert elo(10 / 11) == pytest.approx(400)
    assert elo(0.0) == -math.inf
    assert math.isnan(elo(math.nan))


def test_ratings_of_two_players_by_hand() -> None:
    # 3 wins of 4, no prior: r = 400 log10(3); the standard error is
    # 400 / ln(10) / sqrt(n p (1 - p)) = 173.72 / sqrt(0.75).
    ratings, errors = fit_ratings([[0, 1], [3, 0]], [[0, 4], [4, 0]], prior=0)
    assert ratings[0] == 0
    assert errors[0] == 0
    assert ratings[1] == pytest.approx(400 * math.log10(3))
    assert errors[1] == pytest.approx(400 / math.log(10) / math.sqrt(0.75))
    # With one drawn game added: 3.5 of 5.
    ratings, errors = fit_ratings([[0, 1], [3, 0]], [[0, 4], [4, 0]], prior=1)
    assert ratings[1] == pytest.approx(400 * math.log10(3.5 / 1.5))
    assert errors[1] == pytest.approx(400 / math.log(10) / math.sqrt(5 * 0.7 * 0.3))


def test_ratings_recover_the_strengths_that_made_the_results() -> None:
    true = np.array([0.0, 150.0, 400.0, -100.0])
    chance = 1 / (1 + 10 ** ((true[None, :] - true[:, None]) / 400))
    games = np.full((4, 4), 1000.0) - 1000 * np.eye(4)
    ratings, errors = fit_ratings(chance * games, games, anchor=0, prior=0)
    np.testing.assert_allclose(ratings, true, atol=1e-6)
    assert errors[0] == 0
    assert (errors[1:] > 0).all()
    # Anchored elsewhere, the same differences.
    shifted, _ = fit_ratings(chance * games, games, anchor=2, prior=0)
    np.testing.assert_allclose(shifted, true - 400, atol=1e-6)


def test_ratings_need_a_prior_after_a_sweep() -> None:
    with pytest.raises(ValueError, match="give prior > 0"):
        fit_ratings([[0, 0], [5, 0]], [[0, 5], [5, 0]], prior=0)
    ratings, _ = fit_ratings([[0, 0], [5, 0]], [[0, 5], [5, 0]], prior=1)
    assert ratings[1] == pytest.approx(400 * math.log10(5.5 / 0.5))


def test_a_round_robin_rates_its_players_from_the_pairs() -> None:
    robin = veletas.round_robin(["greedy", "random", "mcts:iterations=100"], 6, **SMALL)
    assert robin.anchor == "random"
    assert [p.players for p in robin.pairs] == [
        ("greedy", "random"),
        ("greedy", "mcts:iterations=100"),
        ("random", "mcts:iterations=100"),
    ]
    points, games = robin.matrices()
    assert games.sum() == 2 * 18
    assert points[0, 1] + points[1, 0] == 6
    ratings, errors = fit_ratings(points, games, anchor=1, prior=1)
    by_name = {r.player: r for r in robin.ratings}
    assert by_name["random"].elo == 0
    assert by_name["random"].low == by_name["random"].high == 0
    for k, name in enumerate(robin.players):
        assert by_name[name].elo == pytest.approx(ratings[k])
        assert by_name[name].high - by_name[name].elo == pytest.approx(1.959964 * errors[k])
        assert by_name[name].games == 12
    assert by_name["mcts:iterations=100"].elo > by_name["random"].elo
    summary = json.loads(json.dumps(robin.summary(), allow_nan=False))
    assert [r["player"] for r in summary["ratings"]] == list(robin.players)
    assert summary["games"] == 18
    assert summary["anchor"] == "random"


def test_without_random_the_first_player_is_the_anchor() -> None:
    robin = veletas.round_robin(["greedy", "mcts:iterations=30"], 2, **SMALL)
    assert robin.anchor == "greedy"
    assert robin.ratings[0].elo == 0


# ----------------------------------------------------------------------
# Seats in both games


def test_veletas_seats_follow_the_pie_rule() -> None:
    room = veletas.games.get("veletas").room("match")
    rng = random.Random(4)
    swaps = 0
    for _ in range(40):
        board = veletas.Board(variant="small")
        swapped = False
        while not board.is_game_over():
            assert room.seat_to_act(board, swapped) == veletas.DecisionState(board).seat_to_act
            move = rng.choice(list(board.legal_moves))
            board.push(move)
            swapped = swapped or move.is_swap
        swaps += swapped
    assert swaps > 0


class UniformBot:
    """Any legal move at random, on any game's board; keeps who it played."""

    def __init__(self, seed: int, log: list[tuple[int, Any, Any]]) -> None:
        self.rng = random.Random(seed)
        self.log = log

    def choose(self, board: Any) -> Any:
        self.log.append((len(board.move_stack), board.phase, board.turn))
        return self.rng.choice(list(board.legal_moves))


class UniformPlayer(Player):
    """Plays :class:`UniformBot`; its bots' logs, by seed."""

    def __init__(self, name: str) -> None:
        self._name = name
        self.logs: dict[int, list[tuple[int, Any, Any]]] = {}

    @property
    def name(self) -> str:
        return self._name

    def make(self, seed: int) -> UniformBot:  # type: ignore[override]
        return UniformBot(seed, self.logs.setdefault(seed, []))


def test_a_meridians_match_seats_the_pie_rule_right() -> None:
    a, b = UniformPlayer("a"), UniformPlayer("b")
    result = veletas.match(a, b, 30, game="meridians", size="5-6", pie=True, threads=2)
    assert result.game == "meridians"
    assert result.rules == {"size": "5-6", "pie": True}
    assert result.description == "meridians 5-6, pie rule"
    assert 0 < result.swap_rate.rate < 1
    for g in result.games:
        seed_a, seed_b = game_seeds(result.seed, g.index)
        first, second = (a.logs[seed_a], b.logs[seed_b])
        if not g.a_first:
            first, second = second, first
        # The first player's Light stone and Dark stone, the second's decision.
        assert [ply for ply, *_ in first[:2]] == [0, 1]
        assert second[0][:2] == (2, meridians.Phase.PIE)
        # Then each side plays one colour: Light is the second player's after a swap.
        light, dark = meridians.Color.LIGHT, meridians.Color.DARK
        for log, colour in [
            (first, dark if g.swapped else light),
            (second, light if g.swapped else dark),
        ]:
            assert all(turn == colour for ply, _, turn in log if ply > 2)
        # The winning seat holds the winning colour at the end.
        board = meridians.Board(size="5-6", pie=True)
        for text in g.moves:
            board.push_str(text)
        assert g.winner == int(board.winner) ^ g.swapped
        assert g.turns[0] + g.turns[1] == g.plies


def test_meridians_matches_wait_for_its_bots(capsys: pytest.CaptureFixture[str]) -> None:
    try:
        veletas.RandomBot(0).choose(meridians.Board())
    except TypeError:
        has_bots = False
    else:
        has_bots = True
    status = main(["match", "random", "mcts:iterations=50", "--game", "meridians", "--games", "4"])
    captured = capsys.readouterr()
    if has_bots:
        assert status == 0, captured.err
        assert "meridians 6-7" in captured.out
    else:
        assert status == 2
        assert "veletas: error: meridians has no bots yet: player 'random' cannot play" in (
            captured.err
        )
        assert captured.out == ""


# ----------------------------------------------------------------------
# The command line


def run_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, Any]:
    assert main(["match", "--json", *args]) == 0
    return json.loads(capsys.readouterr().out)


def without_timing(summary: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in summary.items() if k not in TIMING | {"thinking"}}


def test_json_is_the_summary_of_the_call(capsys: pytest.CaptureFixture[str]) -> None:
    report = run_json(
        capsys, "mcts:iterations=100", "greedy", "--games", "6", "--variant", "small", "--seed", "8"
    )
    result = veletas.match("mcts:iterations=100", "greedy", 6, variant="small", seed=8)
    assert without_timing(report) == without_timing(json.loads(json.dumps(result.summary())))
    assert report["players"] == {"a": "mcts:iterations=100", "b": "greedy"}
    assert report["games"] == report["requested"] == 6
    assert report["interrupted"] is False


def test_the_table_shows_the_statistics(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["match", "greedy", "random", "--games", "40", "--variant", "small", "--threads", "2"]
    assert main(args) == 0
    out = capsys.readouterr().out
    result = veletas.match("greedy", "random", 40, variant="small")
    a, b = result.points
    assert "A = greedy, B = random: 40 of 40 games" in out
    assert "on 2 threads" in out
    assert "small (7x7, 3 shooters, perimeter)" in out
    assert re.search(rf"score\s+A {a:g}, B {b:g}", out)
    for label, estimate in [
        ("A's score", result.win_rate),
        ("first player", result.first_player_win_rate),
        ("swaps", result.swap_rate),
    ]:
        interval = f"(95% CI {estimate.low:.2%} .. {estimate.high:.2%})"
        assert re.search(rf"{label}\s+{estimate.rate:.2%}\s+{re.escape(interval)}", out), label
    assert re.search(r"Elo A - B\s+[+-]\d+", out)
    assert f"mean {result.plies.mean():.1f}" in out


def test_the_round_robin_table(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["match", "--round-robin", "greedy", "random", "mcts:iterations=40"]
    assert main([*args, "--games", "4", "--variant", "small"]) == 0
    out = capsys.readouterr().out
    assert "round robin   3 players, 3 pairs: 12 of 12 games" in out
    assert "Elo, random = 0, 95% intervals" in out
    ranks = re.findall(r"^\s+(\d)\s+(\S+)\s+([+-]\d+)", out, flags=re.MULTILINE)
    assert sorted(name for _, name, _ in ranks) == ["greedy", "mcts:iterations=40", "random"]
    assert [int(rank) for rank, _, _ in ranks] == [1, 2, 3]
    assert [int(e) for _, _, e in ranks] == sorted((int(e) for _, _, e in ranks), reverse=True)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["random"], "a match needs two players, A and B, not 1"),
        (["random", "greedy", "mcts"], "not 3 (use --round-robin for more)"),
        (["--round-robin", "random"], "--round-robin needs two players or more"),
        (["random", "greedy", "--chunk-size", "4"], "--chunk-size needs --ray"),
        (["random", "greedy", "--save", "/no/such/dir/games.txt"], "no folder /no/such/dir"),
        (["random", "greedy", "--save", "games.parquet"], "a Parquet dataset holds the playouts"),
        (["random", "greedy", "--append"], "--force needs --save FILE"),
    ],
)
def test_command_errors(capsys: pytest.CaptureFixture[str], args: list[str], message: str) -> None:
    try:
        code = main(["match", *args])
    except SystemExit as refused:  # argparse's own check of the file
        code = refused.code
    assert code == 2
    captured = capsys.readouterr()
    assert message in captured.err
    assert captured.out == ""


def test_save_keeps_an_existing_file_unless_told(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "games.txt"
    args = ["random", "greedy", "--games", "4", "--variant", "small", "--save", str(path)]
    assert main(["match", *args]) == 0
    first = path.read_text()
    assert len(records.read(first)) == 4
    capsys.readouterr()
    assert main(["match", *args[:3], "2", *args[4:]]) == 2
    assert f"{path} exists: add --force to replace it" in capsys.readouterr().err
    assert path.read_text() == first
    assert main(["match", *args, "--append"]) == 0
    assert len(records.read(path)) == 8
    assert main(["match", *args[:3], "2", *args[4:], "--force"]) == 0
    assert len(records.read(path)) == 2
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


def test_save_writes_the_games_as_records(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "games.txt"
    args = ["mcts:iterations=50", "greedy", "--games", "6", "--variant", "small", "--seed", "2"]
    assert main(["match", *args, "--save", str(path)]) == 0
    assert "wrote 6 games" in capsys.readouterr().err
    saved = veletas.records.read(path)
    result = veletas.match("mcts:iterations=50", "greedy", 6, variant="small", seed=2)
    assert len(saved) == 6
    for record, g in zip(saved, result.games, strict=True):
        assert [str(m) for m in record.moves] == list(g.moves)
        assert record.tags["Round"] == str(g.index + 1)
        first, second = ("mcts:iterations=50", "greedy")[:: 1 if g.a_first else -1]
        black, white = (second, first) if g.swapped else (first, second)
        assert (record.tags["Black"], record.tags["White"]) == (black, white)
        assert record.board().is_game_over()
        assert int(record.winner) ^ g.swapped == g.winner


def test_help_explains_the_players(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["match", "--help"])
    out = capsys.readouterr().out
    for text in ["mcts:iterations=2000", "seconds=S", "exploration=C", "--round-robin", "Ctrl-C"]:
        assert text in out
    # Each game's defaults come from its room's search player.
    flat = " ".join(out.split())
    for game in games.every():
        player = game.bots.mcts_player
        assert f"{player.DEFAULT_EXPLORATION} for {game.title}" in flat
        assert f"{player.UCT_EXPLORATION} for {game.title}" in flat
        assert f"{player.DEFAULT_CUTOFF} for {game.title}" in flat


def test_ctrl_c_summarises_the_games_played() -> None:
    # A terminal, so that the progress bar shows; SIGINT once it has moved.
    child = pexpect.spawn(
        sys.executable,
        [
            *("-m", "veletas.cli", "match", "mcts:iterations=300", "greedy"),
            *("--games", "100000", "--variant", "small", "--threads", "2", "--json"),
        ],
        encoding="utf-8",
        timeout=120,
        dimensions=(24, 200),
    )
    child.expect(r"\b[1-9]\d*/100000")  # some games are done
    child.kill(signal.SIGINT)
    child.expect(pexpect.EOF)
    child.close()
    output = child.before
    assert child.exitstatus == 130, output
    finished = re.search(r"interrupted: ([\d,]+) of 100,000 games finished", output)
    assert finished, output
    assert "Traceback" not in output
    summary = json.loads(output[output.index("{") : output.rindex("}") + 1])
    assert summary["interrupted"] is True
    assert summary["games"] == int(finished[1].replace(",", "")) > 0
    assert summary["score"]["a"] + summary["score"]["b"] == summary["games"]


def test_the_documented_commands_are_valid() -> None:
    text = (Path(__file__).resolve().parent.parent / "docs" / "bots.md").read_text()
    text = text.replace("\\\n", " ")
    commands = [
        command
        for command in re.findall(r"veletas (match [^`\n]+)", text)
        if not re.search(r"\b[A-Z][A-Z0-9]*\b", command)  # not a template (A B --games N)
    ]
    assert len(commands) >= 10
    for command in commands:
        args = veletas.cli.build_parser().parse_args(shlex.split(command))
        for player in args.players:
            BotSpec.parse(player)


def test_meridians_games_are_saved_as_records(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "meridians.txt"
    args = ["match", "greedy", "random", "--game", "meridians", "--size", "5-6", "--pie"]
    assert main([*args, "--games", "4", "--threads", "1", "--save", str(path)]) == 0
    capsys.readouterr()
    saved = veletas.records.read(path)
    assert len(saved) == 4
    for record in saved:
        assert record.game == "Meridians"
        assert record.tags["Pie"] == "true"
        assert record.board().is_game_over()
        assert {record.tags["Light"], record.tags["Dark"]} == {"greedy", "random"}


# -- openings ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("game", "rules"),
    [("veletas", {"variant": "small"}), ("meridians", {"size": "5-6", "pie": True})],
)
def test_openings_are_seeded_undecided_setups(game: str, rules: dict[str, Any]) -> None:
    from veletas.openings import openings

    found = openings(game, 4, seed=3, rules=rules)
    assert found == openings(game, 4, seed=3, rules=rules)
    assert found != openings(game, 4, seed=4, rules=rules)
    for moves in found:
        board = veletas.games.get(game).api().Board(**rules)
        for text in moves:
            board.push_str(text)
        assert board.phase.name == "PLAY"
        assert veletas.solve(board, max_nodes=20_000).value == "unknown"


def test_a_match_from_openings_plays_each_twice_the_seats_swapped() -> None:
    from veletas.openings import openings

    result = veletas.match("greedy", "random", 6, variant="small", seed=5, openings=3)
    assert result.openings == 3
    starts = openings("veletas", 3, seed=5, rules={"variant": "small"})
    for game in result.games:
        opening = starts[game.index // 2]
        assert game.moves[: len(opening)] == opening
        assert game.a_first == (game.index % 2 == 0)
    assert result.summary()["openings"] == 3
    assert "openings      3, each played twice, the seats swapped" in str(result)


def test_an_opening_with_a_swap_is_played_to_its_end() -> None:
    # The second opening of seed 9 swaps at its third move: every move
    # after the swap is played too, and the games replay from the start.
    from veletas.openings import openings

    opening = openings("veletas", 2, seed=9, rules={"variant": "small"})[1]
    assert "swap" in opening[:-1]
    end = veletas.Board(variant="small")
    for text in opening:
        end.push_str(text)
    result = veletas.match("random", "random", 4, variant="small", seed=9, openings=2)
    for game in result.games[2:]:
        board = veletas.Board(variant="small")
        for text in game.moves[: len(opening)]:
            board.push_str(text)
        assert board.fen() == end.fen()
        for text in game.moves[len(opening) :]:
            board.push_str(text)
        assert board.is_game_over()
    assert len(list(result.records())) == 4


def test_openings_that_are_all_decided_are_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    from veletas import openings, solving

    def decided(*args: Any, **kwargs: Any) -> Any:
        return solving.SolveResult("win", None, 1, 0.0, None)

    monkeypatch.setattr(solving, "solve", decided)
    with pytest.raises(ValueError, match="too small for openings"):
        openings.openings("veletas", 2, rules={"variant": "small"})
    with pytest.raises(ValueError, match="1 or more"):
        openings.openings("veletas", 0)


def test_the_command_plays_twice_the_openings(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["match", "greedy", "random", "--openings", "2", "--variant", "small"]) == 0
    out = capsys.readouterr().out
    assert "4 of 4 games" in out
    assert "openings      2" in out
    assert main(["match", "greedy", "random", "random", "--round-robin", "--openings", "2"]) == 2
    assert "--openings plays a match" in capsys.readouterr().err
