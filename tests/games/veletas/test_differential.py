"""Differential tests: random games played move by move on the pure-Python
reference (the oracle) and on the native core, compared at every ply.

At every ply both backends must agree on the legal moves (as strings, in
canonical order), their count, the position string, the claims, the turn,
the phase and whether the game is over; at the end, on the outcome. Along
the way, sampled legal moves must push and pop cleanly, sampled illegal
moves of every kind must raise :class:`IllegalMoveError` with the same
message and leave both boards exactly as they were, and ``pop`` must
restore the exact prior position string and hash.

Games cover the named variants and custom sizes and shooter counts up to
the limits of RULES.md section 1, under both setup rules with and without
``shooters_block`` and ``claimed_shooters_block``; more games start from
hand-made positions that no game need reach (trapped unclaimed shooters,
games already won or stuck). Each failure message gives the position
string and the move at which the backends part, and Hypothesis prints the
game so far.

The default profile plays 25 games per test case: 350 games from the start
(14 cases) and 175 from hand-made positions. ``VELETAS_HYPOTHESIS_PROFILE=slow``
plays 500 per case (7,000 and 3,500), plus 1,050 at the largest shooter count
of every size (``-m slow``).
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from types import ModuleType

import pytest
import veletas.reference as reference
from hypothesis import given, note
from hypothesis import strategies as st
from veletas import IllegalMoveError, Piece
from veletas.games.veletas.types import VARIANTS, shooter_count_problem

native = pytest.importorskip("veletas._veletas", reason="the extension is not built")

RULE_OPTIONS = [
    pytest.param("perimeter", False, False, id="perimeter+pass"),
    pytest.param("spacing", False, False, id="spacing+pass"),
    pytest.param("perimeter", True, False, id="perimeter+block"),
    pytest.param("spacing", True, False, id="spacing+block"),
    pytest.param("perimeter", False, True, id="perimeter+claimed"),
    pytest.param("spacing", False, True, id="spacing+claimed"),
    pytest.param("perimeter", True, True, id="perimeter+block+claimed"),
]
"""(setup_rule, shooters_block, claimed_shooters_block)"""
RULE_NAMES = ("setup_rule", "shooters_block", "claimed")
RULE_KEYS = ("setup_rule", "shooters_block", "claimed_shooters_block")


def largest_shooter_count(size: int, setup_rule: str) -> int:
    """The largest K that RULES.md section 1 allows on an N x N board."""
    return max(k for k in range(3, 100, 2) if shooter_count_problem(size, k, setup_rule) is None)


def custom_shapes(setup_rule: str) -> list[tuple[int, int]]:
    """Custom (N, K) pairs valid under ``setup_rule``: every size with 3
    shooters, with a middling count, and with the largest count allowed."""
    shapes = {(size, 3) for size in range(5, 11)}
    shapes |= {(6, 5), (7, 5), (8, 7), (10, 9)}
    shapes |= {(size, largest_shooter_count(size, setup_rule)) for size in range(5, 11)}
    named = set(VARIANTS.values())
    return sorted(
        shape
        for shape in shapes
        if shape not in named and shooter_count_problem(*shape, setup_rule) is None
    )


def test_custom_shapes_are_valid_and_reach_the_limits() -> None:
    for setup_rule in ("perimeter", "spacing"):
        shapes = custom_shapes(setup_rule)
        assert {size for size, _ in shapes} == set(range(5, 11))
        for size in range(5, 11):
            assert (size, largest_shooter_count(size, setup_rule)) in shapes
        for size, shooters in shapes:
            assert shooter_count_problem(size, shooters, setup_rule) is None
    # Spacing allows fewer shooters: 6x6 takes 5 only under 'perimeter'.
    assert (6, 5) in custom_shapes("perimeter")
    assert (6, 5) not in custom_shapes("spacing")
    assert largest_shooter_count(10, "perimeter") == 63
    assert largest_shooter_count(10, "spacing") == 11


# ----------------------------------------------------------------------
# Illegal moves of every kind, as (kind, squares) that each backend builds


@dataclass(frozen=True)
class Candidate:
    """A move to try, built for either backend: ``stone`` (target, then
    optionally origin and destination), ``shooter`` (target) or ``swap``."""

    kind: str
    squares: tuple[int, ...] = ()

    def build(self, backend: ModuleType) -> object:
        if self.kind == "swap":
            return backend.Move.swap()
        if self.kind == "shooter":
            return backend.Move.shooter(*self.squares)
        return backend.Move(*self.squares)


def candidates(board: object, rng: random.Random) -> dict[str, list[Candidate]]:
    """Moves worth trying in the position of ``board`` (a reference board),
    by the way they are likely to be illegal. Whether each is legal is left
    to the oracle: the point is to probe every kind of refusal."""
    size = board.size  # type: ignore[attr-defined]
    on_board = [rank * 10 + file for rank in range(size) for file in range(size)]
    off_board = [sq for sq in range(100) if sq not in set(on_board)] or [99]
    pieces = {piece: board.pieces(piece) for piece in Piece}  # type: ignore[attr-defined]
    occupied = sorted(sq for squares in pieces.values() for sq in squares)
    claimed = pieces[Piece.BLACK_CLAIMED] + pieces[Piece.WHITE_CLAIMED]
    shooters = pieces[Piece.SHOOTER]
    empty = sorted(set(on_board) - set(occupied))
    anywhere = [*on_board, 99]  # j10: off every board but the largest

    def pick(squares: list[int]) -> int:
        return rng.choice(squares or anywhere)

    def stone(*squares: int) -> Candidate:
        return Candidate("stone", squares)

    def shot(origin: int, destination: int, target: int) -> Candidate:
        return Candidate("stone", (target, origin, destination))

    def shots_from(origin: int) -> list[Candidate]:
        """A shot after moving from ``origin``: to a reached square, then
        onto a square that may or may not be in the new reach."""
        reach = board.reach(origin)  # type: ignore[attr-defined]
        destination = pick(reach)
        return [shot(origin, destination, pick(empty)), shot(origin, destination, pick(occupied))]

    found = {
        "off board": [
            stone(pick(off_board)),
            Candidate("shooter", (pick(off_board),)),
            shot(pick(off_board), pick(on_board), pick(on_board)),
            shot(pick(shooters), pick(off_board), pick(on_board)),
            shot(pick(shooters), pick(on_board), pick(off_board)),
            stone(99),
            Candidate("shooter", (99,)),
        ],
        "wrong kind": [
            Candidate("swap"),
            Candidate("shooter", (pick(empty),)),
            stone(pick(empty)),
            shot(pick(shooters), pick(empty), pick(empty)),
        ],
        "occupied": [stone(pick(occupied)), Candidate("shooter", (pick(occupied),))],
        "unreached": [stone(pick(empty)) for _ in range(3)],
        "shooter moves": [
            *(
                c
                for origin in rng.sample(shooters, min(2, len(shooters)))
                for c in shots_from(origin)
            ),
            shot(pick(empty), pick(empty), pick(empty)),
            shot(pick(shooters), pick(occupied), pick(empty)),
            shot(pick(shooters), pick(shooters), pick(empty)),
        ],
        "claimed shooters": [
            c for origin in rng.sample(claimed, min(2, len(claimed))) for c in shots_from(origin)
        ],
    }
    found["claimed shooters"] += [stone(sq) for origin in claimed for sq in board.reach(origin)][:3]  # type: ignore[attr-defined]
    return found


# ----------------------------------------------------------------------
# One game on both backends


def state(board: object) -> tuple[object, ...]:
    """What must not change when a push is refused or a push is popped: the
    position string, the hash, and the move stack (its length and top, since
    pushes and pops only ever change its end)."""
    stack = board.move_stack  # type: ignore[attr-defined]
    return (board.fen(), hash(board), len(stack), str(stack[-1]) if stack else None)  # type: ignore[attr-defined]


class Duel:
    """The same game on the reference and on the native core."""

    def __init__(self, options: dict[str, object], seed: int, fen: str | None = None) -> None:
        self.oracle = reference.Board(fen, **options)
        self.board = native.Board(fen, **options)
        self.options = options
        self.rng = random.Random(seed)
        self.record: list[str] = []

    def where(self) -> str:
        return f"at {self.oracle.fen()!r} after {' '.join(self.record) or 'no move'}"

    def compare_position(self, move: str | None = None) -> list[str]:
        """Everything both backends say about the current position; returns
        the legal moves as strings."""
        oracle, board = self.oracle, self.board
        context = (
            f"after {move!r} {self.where()}" if move is not None else f"at the start {self.where()}"
        )
        assert board.fen() == oracle.fen(), f"position strings differ {context}"
        expected = [str(m) for m in oracle.legal_moves]
        found = [str(m) for m in board.legal_moves]
        if found != expected:
            missing = sorted(set(expected) - set(found))[:10]
            extra = sorted(set(found) - set(expected))[:10]
            pytest.fail(
                f"legal moves differ {context}: "
                f"missing {missing}, extra {extra}, same set: {set(found) == set(expected)}"
            )
        assert len(board.legal_moves) == len(oracle.legal_moves) == len(expected), context
        assert bool(board.legal_moves) == bool(expected), context
        assert board.claims == oracle.claims, f"claims differ {context}"
        assert (board.turn, board.phase) == (oracle.turn, oracle.phase), context
        assert board.winner == oracle.winner, f"winners differ {context}"
        assert board.is_game_over() == oracle.is_game_over(), f"game over differs {context}"
        assert board.outcome() == oracle.outcome(), f"outcomes differ {context}"
        # The incremental state (and hash) matches a fresh reading of the fen.
        options = {k: v for k, v in self.options.items() if k in RULE_KEYS}
        fresh = native.Board(board.fen(), **options)
        assert fresh == board, f"a board read from its fen differs {context}"
        assert hash(fresh) == hash(board), f"a board read from its fen hashes apart {context}"
        return expected

    def try_legal(self, text: str) -> None:
        """Push and pop a legal move on both boards: the same position after
        it, and the exact position and hash back after the pop."""
        before = [state(self.oracle), state(self.board)]
        context = f"pushing legal {text!r} {self.where()}"
        for b in (self.oracle, self.board):
            b.push_str(text)
        assert self.board.fen() == self.oracle.fen(), f"position strings differ {context}"
        assert self.board.claims == self.oracle.claims, f"claims differ {context}"
        for b in (self.oracle, self.board):
            assert str(b.pop()) == text, context
        assert [state(self.oracle), state(self.board)] == before, f"pop did not restore {context}"

    def try_candidate(self, kind: str, candidate: Candidate, legal: set[str]) -> None:
        """A probe move: legal ones push and pop; illegal ones are refused by
        both backends with the same message, and change nothing."""
        oracle_move, move = candidate.build(reference), candidate.build(native)
        text = str(oracle_move)
        assert str(move) == text
        is_legal = text in legal
        context = f"{kind} probe {text!r} {self.where()}"
        assert self.oracle.is_legal(oracle_move) == is_legal, context
        assert self.board.is_legal(move) == is_legal, f"is_legal differs for {context}"
        assert (move in self.board.legal_moves) == is_legal, f"'in' differs for {context}"
        if is_legal:
            self.try_legal(text)
            return
        messages = []
        for b, m in ((self.oracle, oracle_move), (self.board, move)):
            before = state(b)
            with pytest.raises(IllegalMoveError) as info:
                b.push(m)
            assert state(b) == before, f"a refused push changed the board: {context}"
            messages.append(str(info.value))
        assert messages[1] == messages[0], f"messages differ for {context}"
        assert repr(text) in messages[0]

    def play(self, probes: int, *, reachable: bool = True) -> None:
        """Play the game to its end, comparing at every ply; then take every
        move back, checking each position and hash on the way. A game from
        a ``reachable`` position ends with a winner."""
        history = []
        expected = self.compare_position()
        while expected:
            legal = set(expected)
            for text in self.rng.sample(expected, min(probes, len(expected))):
                self.try_legal(text)
            for kind, found in candidates(self.oracle, self.rng).items():
                for candidate in self.rng.sample(found, min(probes, len(found))):
                    self.try_candidate(kind, candidate, legal)
            text = self.rng.choice(expected)
            history.append((text, state(self.oracle), state(self.board)))
            self.oracle.push_str(text)
            self.board.push_str(text)
            self.record.append(text)
            expected = self.compare_position(text)
        assert self.oracle.outcome() is not None, self.where()
        if reachable:
            assert self.oracle.winner is not None, f"a game ended without a winner {self.where()}"
        while history:
            text, oracle_state, board_state = history.pop()
            assert str(self.oracle.pop()) == str(self.board.pop()) == text
            context = f"popping {text!r} back to {oracle_state[0]!r}"
            assert state(self.oracle) == oracle_state, context
            assert state(self.board) == board_state, context


def play_duel(
    options: dict[str, object], seed: int, probes: int = 2, fen: str | None = None
) -> None:
    """Play one game under Hypothesis, which prints the game if it fails."""
    duel = Duel(options, seed, fen)
    try:
        duel.play(probes, reachable=fen is None)
    finally:
        note(f"options {options}, from {fen!r}, moves: {' '.join(duel.record)}")


# ----------------------------------------------------------------------
# The games


@pytest.mark.parametrize(RULE_NAMES, RULE_OPTIONS)
@given(variant=st.sampled_from(list(VARIANTS)), seed=st.integers(0, 2**64 - 1))
def test_variants_agree(
    setup_rule: str, shooters_block: bool, claimed: bool, variant: str, seed: int
) -> None:
    options = {
        "variant": variant,
        "setup_rule": setup_rule,
        "shooters_block": shooters_block,
        "claimed_shooters_block": claimed,
    }
    play_duel(options, seed)


@pytest.mark.parametrize(RULE_NAMES, RULE_OPTIONS)
@given(data=st.data(), seed=st.integers(0, 2**64 - 1))
def test_custom_sizes_agree(
    setup_rule: str, shooters_block: bool, claimed: bool, data: st.DataObject, seed: int
) -> None:
    size, shooters = data.draw(st.sampled_from(custom_shapes(setup_rule)), label="(N, K)")
    options = {
        "size": size,
        "shooters": shooters,
        "setup_rule": setup_rule,
        "shooters_block": shooters_block,
        "claimed_shooters_block": claimed,
    }
    play_duel(options, seed)


def random_position(rng: random.Random, size: int, shooters: int) -> str:
    """A position string that the rules accept but a game need not reach:
    K shooters anywhere, some claimed, stones scattered at a random density,
    and either colour to move, in play; or a setup or pie position."""
    squares = [rank * 10 + file for rank in range(size) for file in range(size)]
    cells = {sq: "." for sq in squares}
    placed = rng.sample(squares, shooters + 2)
    phase = rng.choice(["play", "play", "play", "setup", "pie"])
    if phase == "play":
        for sq in placed[:shooters]:
            cells[sq] = rng.choice("sssXO")
        cells[placed[shooters]], cells[placed[shooters + 1]] = "x", "o"
        density = rng.random()
        for sq in squares:
            if cells[sq] == "." and rng.random() < density:
                cells[sq] = rng.choice("xo")
        turn = rng.choice("bw")
    elif phase == "pie":
        for sq in placed[: shooters // 2]:
            cells[sq] = "s"
        cells[placed[-1]] = "x"
        turn = "w"
    else:
        turn = rng.choice("bw")
        count = (
            rng.randint(0, shooters // 2) if turn == "b" else rng.randint(shooters // 2, shooters)
        )
        for sq in placed[:count]:
            cells[sq] = "s"
        if turn == "w":
            cells[placed[-1]] = "x"
    ranks = []
    for rank in reversed(range(size)):
        row = "".join(cells[rank * 10 + file] for file in range(size))
        ranks.append(re.sub(r"\.+", lambda run: str(len(run.group())), row))
    return f"{'/'.join(ranks)} {turn} {phase} {shooters}"


@pytest.mark.parametrize(RULE_NAMES, RULE_OPTIONS)
@given(data=st.data(), seed=st.integers(0, 2**64 - 1))
def test_unreachable_positions_agree(
    setup_rule: str, shooters_block: bool, claimed: bool, data: st.DataObject, seed: int
) -> None:
    # Hand-made positions: trapped unclaimed shooters, games already won or
    # stuck, claims no game would give, shooters the setup rule would refuse.
    shapes = [*custom_shapes(setup_rule), *VARIANTS.values()]
    size, shooters = data.draw(st.sampled_from(shapes), label="(N, K)")
    fen = random_position(random.Random(seed), size, shooters)
    options = {
        "setup_rule": setup_rule,
        "shooters_block": shooters_block,
        "claimed_shooters_block": claimed,
    }
    assert reference.Board(fen, **options).fen() == fen
    play_duel(options, seed, fen=fen)


@pytest.mark.slow
@pytest.mark.parametrize("size", range(5, 11))
@pytest.mark.parametrize(RULE_NAMES, RULE_OPTIONS)
def test_largest_shooter_counts_agree(
    size: int, setup_rule: str, shooters_block: bool, claimed: bool
) -> None:
    # The densest games the rules allow (up to 63 shooters on 10x10), many
    # games each.
    options = {
        "size": size,
        "shooters": largest_shooter_count(size, setup_rule),
        "setup_rule": setup_rule,
        "shooters_block": shooters_block,
        "claimed_shooters_block": claimed,
    }
    for seed in range(25):
        Duel(options, seed).play(probes=2)


# ----------------------------------------------------------------------
# The harness itself must catch a disagreement, and say where it is


def test_a_disagreement_names_the_position_and_the_move() -> None:
    # Two boards of one position string under different line rules: the same
    # fen, but not the same moves. The report must give the fen and the move.
    fen = "7/2x4/7/1s5/7/o1s2s1/7 b play 3"
    duel = Duel({"variant": "small"}, seed=0)
    duel.oracle = reference.Board(fen)
    duel.board = native.Board(fen, shooters_block=True)
    duel.record.append("f2")
    with pytest.raises(pytest.fail.Exception) as info:
        duel.compare_position("f2")
    message = str(info.value)
    assert "legal moves differ after 'f2'" in message
    assert repr(fen) in message
    # A board one ply ahead: the position strings differ.
    duel.board = native.Board(fen)
    duel.board.push(next(iter(duel.board.legal_moves)))
    with pytest.raises(AssertionError, match="position strings differ after 'f2'") as info:
        duel.compare_position("f2")
    assert repr(fen) in str(info.value)
