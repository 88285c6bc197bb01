"""Batch playouts: reproducibility, the two engines playing the same games,
exact uniformity, starts from any position, records, and bad arguments."""

from __future__ import annotations

import math
import pickle
from collections.abc import Callable

import numpy as np
import pytest
import veletas
import veletas.reference
from veletas import Color, InvalidFenError, InvalidRulesError, Phase
from veletas.playouts import PlayoutJob, Playouts, wilson

ARRAYS = ("winner", "swapped", "plies", "claims")

# (variant, size, shooters, setup_rule, shooters_block): every variant, both
# setup rules, both line rules, and two custom boards.
RULES = [
    pytest.param("small", None, None, "perimeter", False, id="small"),
    pytest.param("small", None, None, "spacing", True, id="small-spacing-block"),
    pytest.param("medium", None, None, "spacing", False, id="medium-spacing"),
    pytest.param("medium", None, None, "perimeter", True, id="medium-block"),
    pytest.param("standard", None, None, "perimeter", False, id="standard"),
    pytest.param("standard", None, None, "spacing", True, id="standard-spacing-block"),
    pytest.param("standard", 8, 5, "perimeter", False, id="8x8-5"),
    pytest.param("standard", 5, 3, "spacing", True, id="5x5-3-spacing-block"),
]

# A 7x7 play position with 15 legal moves: 5 shots without a move and 10
# with one, from three unclaimed shooters.
FEW_MOVES = "1o1ooo1/1xso1xs/1ox2xo/xo1xox1/1oo2o1/xxsxx2/xxo1x2 w play 3"

BACKENDS = {"rust": veletas.playouts, "reference": veletas.games.veletas.reference.playouts}
Runner = Callable[..., Playouts]


@pytest.fixture(params=list(BACKENDS))
def run(request: pytest.FixtureRequest) -> Runner:
    """``playouts`` of the native runner or of the reference."""
    return BACKENDS[request.param]


def assert_same_games(a: Playouts, b: Playouts) -> None:
    for name in ARRAYS:
        got, expected = getattr(a, name), getattr(b, name)
        assert got.dtype == expected.dtype, name
        np.testing.assert_array_equal(got, expected, err_msg=name)
    assert (a.moves is None) == (b.moves is None)
    if a.moves is not None:
        np.testing.assert_array_equal(a.moves, b.moves)
        np.testing.assert_array_equal(a.offsets, b.offsets)


# ----------------------------------------------------------------------
# Reproducibility


@pytest.mark.parametrize("policy", ["micro", "uniform"])
def test_same_seed_same_arrays_on_any_thread_count(policy: str) -> None:
    one = veletas.playouts(3000, seed=42, threads=1, policy=policy, record=True)
    two = veletas.playouts(3000, seed=42, threads=2, policy=policy, record=True)
    every = veletas.playouts(3000, seed=42, policy=policy, record=True)
    assert_same_games(one, two)
    assert_same_games(one, every)
    other = veletas.playouts(3000, seed=43, threads=2, policy=policy)
    assert not np.array_equal(one.plies, other.plies)


def test_arrays_have_the_documented_types() -> None:
    games = veletas.playouts(10, variant="small", record=True)
    assert (games.winner.dtype, games.swapped.dtype, games.plies.dtype) == (
        np.int8,
        np.bool_,
        np.int32,
    )
    assert games.claims.dtype == np.int8
    assert games.claims.shape == (10, 2)
    assert games.moves is not None
    assert games.offsets is not None
    assert games.moves.dtype.names == ("kind", "origin", "destination", "target")
    assert games.offsets.dtype == np.int64
    assert len(games.offsets) == 11
    assert games.offsets[-1] == len(games.moves) == games.plies.sum()
    plain = veletas.playouts(10, variant="small")
    assert plain.moves is None
    assert plain.offsets is None


def test_ranges_of_a_run_concatenate_to_the_run() -> None:
    job = PlayoutJob.make(variant="medium", seed=9, record=True)
    whole = job.run(0, 500)
    parts = [job.run(0, 120), job.run(120, 0), job.run(120, 300), job.run(420, 80)]
    assert_same_games(Playouts.concatenate(parts), whole)
    assert_same_games(job.run(250, 100), Playouts.concatenate([job.run(250, 50), job.run(300, 50)]))
    # Game indices are global: a range far along the run is its own games.
    far = job.run(2**64 - 5, 5)
    assert len(far) == 5
    assert far.first_game == 2**64 - 5


def test_concatenate_refuses_what_is_not_one_run() -> None:
    job = PlayoutJob.make(variant="small", seed=1)
    with pytest.raises(ValueError, match="consecutive"):
        Playouts.concatenate([job.run(0, 10), job.run(20, 10)])
    other = PlayoutJob.make(variant="small", seed=2)
    with pytest.raises(ValueError, match="different runs"):
        Playouts.concatenate([job.run(0, 10), other.run(10, 10)])
    recorded = PlayoutJob.make(variant="small", seed=1, record=True)
    with pytest.raises(ValueError, match="recorded"):
        Playouts.concatenate([job.run(0, 10), recorded.run(10, 10)])
    with pytest.raises(ValueError, match="at least one"):
        Playouts.concatenate([])


def test_playouts_and_jobs_pickle() -> None:
    job = PlayoutJob.make(variant="small", seed=5, record=True)
    games = job.run(0, 30)
    assert pickle.loads(pickle.dumps(job)) == job
    again = pickle.loads(pickle.dumps(games))
    assert_same_games(again, games)
    assert again.board(3) == games.board(3)


# ----------------------------------------------------------------------
# The two engines play the same games


@pytest.mark.parametrize(("variant", "size", "shooters", "setup_rule", "shooters_block"), RULES)
def test_rust_and_reference_play_the_same_micro_games(
    variant: str, size: int | None, shooters: int | None, setup_rule: str, shooters_block: bool
) -> None:
    options = {
        "variant": variant,
        "size": size,
        "shooters": shooters,
        "setup_rule": setup_rule,
        "shooters_block": shooters_block,
        "seed": 2024,
        "record": True,
    }
    rust = veletas.playouts(200, **options)
    reference = veletas.games.veletas.reference.playouts(200, **options)
    assert_same_games(rust, reference)
    assert (rust.winner >= 0).all(), "games from the start always end with a winner"


@pytest.mark.parametrize(("variant", "size", "shooters", "setup_rule", "shooters_block"), RULES)
def test_rust_and_reference_play_the_same_uniform_games(
    variant: str, size: int | None, shooters: int | None, setup_rule: str, shooters_block: bool
) -> None:
    options = {
        "variant": variant,
        "size": size,
        "shooters": shooters,
        "setup_rule": setup_rule,
        "shooters_block": shooters_block,
        "seed": 77,
        "policy": "uniform",
        "record": True,
    }
    assert_same_games(
        veletas.playouts(40, **options), veletas.games.veletas.reference.playouts(40, **options)
    )


def mid_game_starts() -> list[veletas.Board]:
    """Boards in setup, in the pie, after a swap, and in play, taken from
    recorded games of each variant and rule option."""
    boards = []
    for variant, setup_rule, shooters_block, seed in [
        ("small", "perimeter", False, 1),
        ("medium", "spacing", True, 2),
        ("standard", "perimeter", True, 3),
        ("standard", "spacing", False, 4),
    ]:
        games = veletas.playouts(
            4,
            variant=variant,
            setup_rule=setup_rule,
            shooters_block=shooters_block,
            seed=seed,
            record=True,
        )
        for i in range(len(games)):
            board = veletas.Board(games.start, setup_rule=setup_rule, shooters_block=shooters_block)
            moves = games.moves_of(i)
            # Two placements in, the pie and the move after it, and two points of play.
            stops = {2, len(moves) // 2, len(moves) - 3}
            for k, move in enumerate(moves):
                if k in stops or board.phase is Phase.PIE or (k and moves[k - 1].is_swap):
                    boards.append(board.copy())
                board.push(move)
    swapped = veletas.Board(variant="medium", shooters_block=True)
    for text in ["*c3", "*e5", "g7", "swap", "*d4"]:
        swapped.push_str(text)
    boards.append(swapped)
    return boards


def test_rust_and_reference_agree_from_mid_game_starts() -> None:
    starts = mid_game_starts()
    phases = {board.phase for board in starts}
    assert phases == {Phase.SETUP, Phase.PIE, Phase.PLAY}
    assert any(any(m.is_swap for m in board.move_stack) for board in starts)
    for k, board in enumerate(starts):
        for policy in ("micro", "uniform"):
            rust = veletas.playouts(5, start=board, seed=k, policy=policy, record=True)
            reference = veletas.games.veletas.reference.playouts(
                5, start=board, seed=k, policy=policy, record=True
            )
            assert_same_games(rust, reference)
            swapped = any(move.is_swap for move in board.move_stack)
            if swapped:
                assert rust.swapped.all()


# ----------------------------------------------------------------------
# Exact uniformity


def chi_square_survival(statistic: float, dof: int) -> float:
    """P(X >= statistic) for X chi-square with ``dof`` degrees of freedom: the
    regularized upper incomplete gamma function Q(dof / 2, statistic / 2),
    by its series below a + 1 and its continued fraction above."""
    a, x = dof / 2, statistic / 2
    if x <= 0:
        return 1.0
    log_prefix = a * math.log(x) - x - math.lgamma(a)
    if x < a + 1:
        term = total = 1 / a
        n = a
        while abs(term) > abs(total) * 1e-15:
            n += 1
            term *= x / n
            total += term
        return 1 - total * math.exp(log_prefix)
    # Lentz's method for the continued fraction of Q.
    tiny = 1e-300
    b = x + 1 - a
    c = 1 / tiny
    d = 1 / b
    h = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-15:
            break
    return math.exp(log_prefix) * h


@pytest.mark.parametrize("dof", [2, 4, 14, 30])
def test_chi_square_survival_matches_the_closed_form(dof: int) -> None:
    # For even dof, Q(k, x) = exp(-x) * sum(x**j / j!, j < k).
    for statistic in [0.5, 3.0, dof, 2 * dof, 60.0]:
        x = statistic / 2
        closed = math.exp(-x) * sum(x**j / math.factorial(j) for j in range(dof // 2))
        assert chi_square_survival(statistic, dof) == pytest.approx(closed, rel=1e-9)


def first_moves(games: Playouts) -> list[str]:
    """The first move of each game, in notation."""
    assert games.moves is not None
    assert games.offsets is not None
    firsts = games.moves[games.offsets[:-1]]
    return [
        str(veletas.Move(int(t)) if o < 0 else veletas.Move(int(t), int(o), int(d)))
        for o, d, t in zip(firsts["origin"], firsts["destination"], firsts["target"], strict=True)
    ]


def test_uniform_is_exactly_uniform_over_the_legal_moves() -> None:
    board = veletas.Board(FEW_MOVES)
    legal = [str(move) for move in board.legal_moves]
    assert len(legal) == 15
    assert sum(move.origin is not None for move in board.legal_moves) == 10
    per_move = 2000
    # The first move of each game is a uniform draw from this position.
    recorded = veletas.playouts(
        per_move * len(legal), start=board, policy="uniform", seed=5, record=True
    )
    counts = {move: 0 for move in legal}
    for move in first_moves(recorded):
        counts[move] += 1
    observed = np.array(list(counts.values()))
    statistic = float(((observed - per_move) ** 2 / per_move).sum())
    p_value = chi_square_survival(statistic, len(legal) - 1)
    assert p_value > 0.001, (statistic, counts)
    # The micro policy is not uniform over moves here: a shot without a move
    # has a 1/4 * 1/5 chance, a shot after a move far less.
    micro = veletas.playouts(3000, start=board, policy="micro", seed=5, record=True)
    micro_counts = {move: 0 for move in legal}
    for move in first_moves(micro):
        micro_counts[move] += 1
    expected = len(micro) / len(legal)
    statistic = sum((c - expected) ** 2 / expected for c in micro_counts.values())
    assert chi_square_survival(statistic, len(legal) - 1) < 1e-6


# ----------------------------------------------------------------------
# Starts from any position


def test_a_finished_position_returns_at_once(run: Runner) -> None:
    won = "x1xxxoo/2xs1ox/2ooxxX/1xxooox/xxoXxo1/oooxoxo/xxox1oo w play 3"
    for policy in ("micro", "uniform"):
        games = run(5, start=won, policy=policy, record=True)
        assert games.winner.tolist() == [0] * 5
        assert games.plies.tolist() == [0] * 5
        assert games.claims.tolist() == [[2, 0]] * 5
        assert games.board(4).fen() == won


def test_a_stuck_position_has_no_winner(run: Runner) -> None:
    # White to shoot, but the only unclaimed shooter is trapped (a hand-made position).
    stuck = "xxxxxxx/xoxoxox/xxxxxxx/oxoxoxo/xxsxxxx/oxoxoxo/xxxXxxO w play 3"
    board = veletas.reference.Board(stuck)
    assert not board.legal_moves
    assert board.winner is None
    for policy in ("micro", "uniform"):
        games = run(3, start=stuck, policy=policy)
        assert games.winner.tolist() == [-1] * 3
        assert games.plies.tolist() == [0] * 3
        assert games.stuck() == 3


def test_setup_and_pie_starts(run: Runner) -> None:
    setup = "7/7/7/3s3/7/7/7 b setup 3"
    games = run(30, start=setup, seed=3, record=True)
    assert (games.winner >= 0).all()
    for i in range(len(games)):
        first = games.moves_of(i)[0]  # Black's stone: its shooter is placed
        assert not first.is_shooter
        assert not first.is_swap
        assert first.origin is None
        assert games.board(i).is_game_over()
    pie = veletas.Board("7/7/7/7/2s4/7/x6 w pie 3")
    games = run(300, start=pie, seed=3, record=True)
    firsts = [games.moves_of(i)[0] for i in range(len(games))]
    assert any(move.is_swap for move in firsts)
    assert all(move.is_swap or move.is_shooter for move in firsts)
    np.testing.assert_array_equal(games.swapped, [move.is_swap for move in firsts])


def test_a_start_board_keeps_its_swap_and_its_rules(run: Runner) -> None:
    board = veletas.Board(variant="small", setup_rule="spacing", shooters_block=True)
    for text in ["*c3", "g7", "swap", "*e5"]:
        board.push_str(text)
    games = run(20, start=board, seed=1, record=True)
    assert games.swapped.all()
    assert games.rules == board.rules
    assert games.start == board.fen()
    replayed = games.board(0)
    assert replayed.rules == board.rules
    assert replayed.is_game_over()
    # The same position as a string has no history: no swap unless one is played.
    assert not run(20, start=board.fen(), setup_rule="spacing", shooters_block=True).swapped.any()


def test_plies_count_moves_not_the_start_history() -> None:
    board = veletas.Board(variant="small")
    for text in ["*c3", "g7", "*e5", "*d4", "a1"]:
        board.push_str(text)
    games = veletas.playouts(50, start=board, record=True)
    for i in range(len(games)):
        assert games.plies[i] == len(games.moves_of(i)) == len(games.board(i).move_stack)


# ----------------------------------------------------------------------
# Records


@pytest.mark.parametrize("policy", ["micro", "uniform"])
def test_records_replay_to_each_game_end(policy: str) -> None:
    rust = veletas.playouts(60, variant="medium", seed=8, policy=policy, record=True)
    reference = veletas.games.veletas.reference.playouts(
        60, variant="medium", seed=8, policy=policy, record=True
    )
    for i in range(len(rust)):
        board = rust.board(i)
        other = reference.board(i)
        assert isinstance(board, veletas._veletas.Board)
        assert isinstance(other, veletas.reference.Board)
        assert board.fen() == other.fen()
        assert board.is_game_over()
        assert int(board.winner) == rust.winner[i]
        assert tuple(board.claims) == tuple(rust.claims[i])
        assert len(board.move_stack) == rust.plies[i]
        assert any(move.is_swap for move in board.move_stack) == rust.swapped[i]
    assert rust.board(-1).fen() == rust.board(len(rust) - 1).fen()


def test_record_errors() -> None:
    games = veletas.playouts(3, variant="small")
    with pytest.raises(ValueError, match="record=True"):
        games.board(0)
    recorded = veletas.playouts(3, variant="small", record=True)
    with pytest.raises(IndexError, match="game 3"):
        recorded.board(3)
    with pytest.raises(TypeError):
        recorded.board("0")  # type: ignore[arg-type]


# ----------------------------------------------------------------------
# Summaries


def test_wilson_intervals() -> None:
    e = wilson(50, 100)
    assert e.rate == 0.5
    assert e.low == pytest.approx(0.4038, abs=1e-4)
    assert e.high == pytest.approx(0.5962, abs=1e-4)
    assert wilson(0, 10).low == 0.0
    assert wilson(10, 10).high == 1.0
    assert 0 < wilson(0, 10).high < 0.5
    assert math.isnan(wilson(0, 0).rate)


def test_summary_helpers_agree_with_the_arrays() -> None:
    games = veletas.playouts(2000, variant="small", seed=4)
    black, white = games.win_rate(Color.BLACK), games.win_rate(Color.WHITE)
    assert black.rate + white.rate == pytest.approx(1.0)
    assert black.low < black.rate < black.high
    first = games.first_player_win_rate()
    first_wins = ((games.winner == 0) & ~games.swapped) | ((games.winner == 1) & games.swapped)
    assert first.rate == first_wins.mean()
    assert games.swap_rate().rate == games.swapped.mean()
    assert games.mean_plies() == games.plies.mean()
    quantiles = games.plies_quantiles([0.0, 0.5, 1.0])
    assert quantiles[0.0] == games.plies.min()
    assert quantiles[1.0] == games.plies.max()
    counts = games.claim_counts()
    assert sum(counts.values()) == len(games)
    assert all(max(score) >= 2 for score in counts)
    summary = games.summary()
    assert summary["games"] == 2000
    assert summary["rules"]["variant"] == "small"
    assert sum(row["games"] for row in summary["claims"]) == 2000
    empty = veletas.playouts(0)
    assert len(empty) == 0
    assert math.isnan(empty.mean_plies())


# ----------------------------------------------------------------------
# Bad arguments


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"n_games": -1}, ValueError, "n_games must be 0 or more, not -1"),
        ({"n_games": 2.5}, TypeError, "n_games must be an int"),
        ({"n_games": True}, TypeError, "n_games must be an int"),
        ({"policy": "random"}, ValueError, "unknown policy 'random'"),
        ({"variant": "huge"}, InvalidRulesError, "unknown variant 'huge'"),
        ({"size": 11}, InvalidRulesError, "11"),
        ({"setup_rule": "corners"}, InvalidRulesError, "'corners'"),
        ({"threads": 0}, ValueError, "threads must be at least 1"),
        ({"threads": -2}, ValueError, "not -2"),
        ({"threads": "2"}, TypeError, "threads must be an int"),
        ({"seed": -1}, ValueError, "seed must be in"),
        ({"seed": 2**64}, ValueError, "seed must be in"),
        ({"start": "7/7 b setup 3"}, InvalidFenError, "'7/7 b setup 3'"),
        ({"start": 42}, TypeError, "start must be a Board"),
        ({"record": 1}, TypeError, "record must be a bool"),
        (
            {"start": "7/7/7/7/7/7/7 b setup 3", "variant": "medium"},
            InvalidRulesError,
            "variant 'medium' disagrees",
        ),
    ],
)
def test_bad_arguments_raise_before_any_game(
    run: Runner, kwargs: dict, error: type[Exception], match: str
) -> None:
    # A billion games would take long: raising at once shows no game was played.
    arguments = {"n_games": 10**9, **kwargs}
    n_games = arguments.pop("n_games")
    with pytest.raises(error, match=match):
        run(n_games, **arguments)


def test_options_beside_a_start_board_must_agree(run: Runner) -> None:
    board = veletas.Board(variant="small", setup_rule="spacing")
    with pytest.raises(InvalidRulesError, match="size 9"):
        run(1, start=board, size=9)
    with pytest.raises(InvalidRulesError, match="shooters_block=True"):
        run(1, start=board, shooters_block=True)
    with pytest.raises(InvalidRulesError, match="unknown variant"):
        run(1, start=board, variant="tiny")
    # Defaults, or the board's own values, are fine.
    assert len(run(2, start=board, variant="small", size=7, shooters=3, setup_rule="spacing")) == 2


def test_the_low_level_runner_checks_its_range() -> None:
    job = PlayoutJob.make(variant="small")
    with pytest.raises(ValueError, match="n_games must be 0 or more"):
        job.run(0, -1)
    with pytest.raises(ValueError, match="2\\*\\*64"):
        job.run(2**64 - 1, 2)
    with pytest.raises(ValueError, match="2\\*\\*64"):
        job.run(-1, 1)
    with pytest.raises(ValueError, match="backend"):
        PlayoutJob.make(backend="gpu")


@pytest.mark.slow
@pytest.mark.parametrize(("variant", "size", "shooters", "setup_rule", "shooters_block"), RULES)
def test_many_more_games_agree(
    variant: str, size: int | None, shooters: int | None, setup_rule: str, shooters_block: bool
) -> None:
    options = {
        "variant": variant,
        "size": size,
        "shooters": shooters,
        "setup_rule": setup_rule,
        "shooters_block": shooters_block,
        "record": True,
    }
    for policy, games in [("micro", 2000), ("uniform", 300)]:
        rust = veletas.playouts(games, seed=11, policy=policy, **options)
        reference = veletas.games.veletas.reference.playouts(
            games, seed=11, policy=policy, **options
        )
        assert_same_games(rust, reference)
