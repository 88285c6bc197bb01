"""One test per rule of RULES.md, plus the edge cases that the rules settle.

Every position is written by hand as a position string; the comments draw it
and derive the expected result from the rules, so the expectations never come
from running an engine.
"""

from __future__ import annotations

from types import ModuleType

import pytest
from veletas import Claims, Color, Outcome, Phase, Piece, parse_square, square_name


def sq(name: str) -> int:
    return parse_square(name)


def squares(names: str) -> list[int]:
    """Ascending square numbers of space-separated square names."""
    return sorted(sq(name) for name in names.split())


def kind(move: object) -> str:
    """'swap', 'shooter' or 'stone', from the notation of the move."""
    text = str(move)
    return "swap" if text == "swap" else "shooter" if text.startswith("*") else "stone"


# ----------------------------------------------------------------------
# Section 1: material and variants


@pytest.mark.parametrize(
    ("variant", "size", "shooters", "first", "white", "wins"),
    [("standard", 10, 7, 3, 4, 4), ("medium", 9, 5, 2, 3, 3), ("small", 7, 3, 1, 2, 2)],
)
def test_variant_table(
    backend: ModuleType, variant: str, size: int, shooters: int, first: int, white: int, wins: int
) -> None:
    rules = backend.Board(variant=variant).rules
    assert (rules.size, rules.shooters, rules.variant) == (size, shooters, variant)
    assert (rules.first_shooters, rules.second_shooters, rules.claims_to_win) == (
        first,
        white,
        wins,
    )


def test_custom_game_general_form(backend: ModuleType) -> None:
    # N = 8, K = 9: the first player places 4, White 5, and 5 claims win.
    board = backend.Board(size=8, shooters=9)
    assert board.fen() == "8/8/8/8/8/8/8/8 b setup 9"
    rules = board.rules
    assert (rules.variant, rules.first_shooters, rules.second_shooters) == ("custom", 4, 5)
    assert rules.claims_to_win == 5


# ----------------------------------------------------------------------
# Section 3: setup with the pie rule


@pytest.mark.parametrize(
    ("variant", "first", "white"), [("small", 1, 2), ("medium", 2, 3), ("standard", 3, 4)]
)
def test_setup_placement_order_and_counts(
    backend: ModuleType, variant: str, first: int, white: int
) -> None:
    # Black places K // 2 shooters then its stone; White (not swapping) places
    # the other shooters then its stone; play starts with Black.
    board = backend.Board(variant=variant)
    seen = []
    while board.phase is not Phase.PLAY:
        moves = list(board.legal_moves)
        kinds = {kind(move) for move in moves}
        placement = moves[-1]  # the last move is never the swap
        seen.append((board.turn, board.phase, kinds, kind(placement)))
        board.push(placement)
    expected = (
        [(Color.BLACK, Phase.SETUP, {"shooter"}, "shooter")] * first
        + [(Color.BLACK, Phase.SETUP, {"stone"}, "stone")]
        + [(Color.WHITE, Phase.PIE, {"swap", "shooter"}, "shooter")]
        + [(Color.WHITE, Phase.SETUP, {"shooter"}, "shooter")] * (white - 1)
        + [(Color.WHITE, Phase.SETUP, {"stone"}, "stone")]
    )
    assert seen == expected
    assert board.turn is Color.BLACK
    assert len(board.pieces(Piece.SHOOTER)) == first + white
    assert len(board.pieces(Piece.BLACK_STONE)) == len(board.pieces(Piece.WHITE_STONE)) == 1


def test_shooters_come_before_the_stone(backend: ModuleType) -> None:
    # Medium: Black places 2 shooters before its stone, White 3 before its own.
    board = backend.Board(variant="medium")
    board.push_str("*c3")
    assert not board.is_legal(backend.Move.parse("e5"))  # a shooter is still due
    board.push_str("*g7")
    assert not board.is_legal(backend.Move.shooter(sq("e5")))  # now the stone is due
    assert board.is_legal(backend.Move.parse("e5"))
    board.push_str("e5")
    board.push_str("*c7")
    assert not board.is_legal(backend.Move.parse("a1"))
    board.push_str("*g3")
    board.push_str("*e3")
    assert not board.is_legal(backend.Move.shooter(sq("e7")))
    board.push_str("a1")
    assert board.fen() == "9/9/2s3s2/9/4x4/9/2s1s1s2/9/o8 b play 5"


def test_perimeter_rule(backend: ModuleType) -> None:
    # 7x7 under 'perimeter': shooters only on the 5x5 interior b2..f6.
    board = backend.Board(variant="small")
    interior = [f + r for r in "23456" for f in "bcdef"]
    assert [str(move) for move in board.legal_moves] == [
        "*" + name for name in sorted(interior, key=sq)
    ]
    assert not board.is_legal(backend.Move.shooter(sq("a1")))
    assert not board.is_legal(backend.Move.shooter(sq("g4")))
    # White's shooters obey it too, while stones are free: Black's stone may
    # go on the ring, right next to a shooter.
    board.push_str("*b2")
    assert board.is_legal(backend.Move.parse("a1"))
    board.push_str("a1")
    assert not board.is_legal(backend.Move.shooter(sq("a7")))
    assert board.is_legal(backend.Move.shooter(sq("c3")))


def test_spacing_rule(backend: ModuleType) -> None:
    # 7x7, a shooter on d4 and Black's stone on a1; White places under
    # 'spacing': every empty square but the 8 around d4, edges included,
    # and the stone does not restrict (b1, a2 next to it are open):
    #   49 squares - d4 - a1 - 8 neighbours = 39.
    fen = "7/7/7/3s3/7/7/x6 w setup 3"
    board = backend.Board(fen, setup_rule="spacing")
    around_d4 = squares("c3 d3 e3 c4 e4 c5 d5 e5")
    expected = [s for s in range(100) if s % 10 < 7 and s < 70]
    expected = [s for s in expected if s not in around_d4 and s not in (sq("d4"), sq("a1"))]
    assert [move.target for move in board.legal_moves] == expected
    assert len(expected) == 39
    assert all(board.is_legal(backend.Move.shooter(sq(name))) for name in ("a7", "g1", "b1"))
    # The same position under 'perimeter': the interior minus d4, neighbours allowed.
    board = backend.Board(fen)
    assert len(board.legal_moves) == 24
    assert board.is_legal(backend.Move.shooter(sq("c3")))


def test_both_setup_rules(backend: ModuleType) -> None:
    # Edge case: the two setup rules differ exactly on ring squares and on
    # squares next to a shooter. 9x9, Black has one shooter on b2 (allowed by
    # both: b2 is not on the ring, and no shooter is around it yet).
    for rule in ("perimeter", "spacing"):
        board = backend.Board(variant="medium", setup_rule=rule)
        board.push_str("*b2")
        next_to_b2 = backend.Move.shooter(sq("c3"))
        on_ring = backend.Move.shooter(sq("e9"))
        assert board.is_legal(next_to_b2) is (rule == "perimeter")
        assert board.is_legal(on_ring) is (rule == "spacing")
        # perimeter: the 7x7 interior minus b2 = 48; spacing: 81 - b2 and its
        # 8 neighbours (a1 a2 a3 b1 b3 c1 c2 c3) = 72.
        assert len(board.legal_moves) == (48 if rule == "perimeter" else 72)


def test_pie_offers_swap_then_shooter_placements(backend: ModuleType) -> None:
    # Black's setup is done (b4, stone c6): White may swap, listed first, or
    # place its first shooter on the interior (25 squares minus b4 and c6).
    board = backend.Board("7/2x4/7/1s5/7/7/7 w pie 3")
    moves = list(board.legal_moves)
    assert str(moves[0]) == "swap"
    assert all(move.is_shooter for move in moves[1:])
    assert len(moves) == 1 + 23


def test_swap(backend: ModuleType) -> None:
    # Edge case: after `swap` the second player holds Black (its setup is
    # already on the board) and the first player now places as White. Colours
    # on the board do not change, so White still acts, and the phase becomes
    # setup with K // 2 shooters placed.
    board = backend.Board("7/2x4/7/1s5/7/7/7 w pie 3")
    board.push_str("swap")
    assert board.fen() == "7/2x4/7/1s5/7/7/7 w setup 3"
    assert (board.turn, board.phase) == (Color.WHITE, Phase.SETUP)
    moves = list(board.legal_moves)
    assert len(moves) == 23
    assert all(move.is_shooter for move in moves)
    # White (the first player) places its 2 shooters and its stone, then
    # Black (the second player, who swapped) starts play.
    for text in ("*d4", "*f6", "g1"):
        board.push_str(text)
    assert board.fen() == "7/2x2s1/7/1s1s3/7/7/6o b play 3"
    assert board.pop() == backend.Move.parse("g1")
    board.pop()
    board.pop()
    assert board.pop() == backend.Move.swap()
    assert board.fen() == "7/2x4/7/1s5/7/7/7 w pie 3"


def test_no_swap_places_whites_first_shooter_from_the_pie(backend: ModuleType) -> None:
    # Not swapping is simply White's first placement, straight from 'pie'.
    board = backend.Board("7/2x4/7/1s5/7/7/7 w pie 3")
    board.push_str("*d4")
    assert board.fen() == "7/2x4/7/1s1s3/7/7/7 w setup 3"
    assert all(move.is_shooter for move in board.legal_moves)  # one more shooter
    board.push_str("*f2")
    assert all(not move.is_shooter and move.origin is None for move in board.legal_moves)
    assert len(board.legal_moves) == 49 - 3 - 1


def test_swap_only_in_the_pie(backend: ModuleType) -> None:
    swap = backend.Move.swap()
    for fen in (
        "7/7/7/7/7/7/7 b setup 3",
        "7/2x4/7/1s5/7/7/7 w setup 3",
        "7/2x4/7/1s5/7/o1s2s1/7 b play 3",
    ):
        assert not backend.Board(fen).is_legal(swap)


# ----------------------------------------------------------------------
# Section 4: play


def test_play_turn_structure(backend: ModuleType) -> None:
    # 7x7: shooters b4, c2, f2; stones c6 (x), a2 (o); Black to play.
    #   7 . . . . . . .
    #   6 . . x . . . .
    #   5 . . . . . . .
    #   4 . s . . . . .
    #   3 . . . . . . .
    #   2 o . s . . s .
    #   1 . . . . . . .
    board = backend.Board("7/2x4/7/1s5/7/o1s2s1/7 b play 3")
    # Black shoots b6 without moving (b4 reaches b5, b6, b7): a black stone.
    board.push_str("b6")
    assert board.fen() == "7/1xx4/7/1s5/7/o1s2s1/7 w play 3"
    # White moves c2 down to c1, then shoots from c1 up onto c2: a white stone.
    board.push_str("c2-c1/c2")
    assert board.fen() == "7/1xx4/7/1s5/7/o1o2s1/2s4 b play 3"
    assert board.claims == (0, 0)


LINES_FEN = "7/7/3X3/1O1ssx1/2xo3/7/s6 b play 5"
# 7x7, K = 5, shooter d4 with, around it:
#   7 . . . . . . .
#   6 . . . . . . .
#   5 . . . X . . .      d5: a shooter claimed by Black
#   4 . O . s s x .      b4: claimed by White; e4: unclaimed; f4: black stone
#   3 . . x o . . .      c3: black stone, d3: white stone
#   2 . . . . . . .
#   1 s . . . . . .
#     a b c d e f g


def test_reach_passes_over_shooters_and_stops_at_stones_and_edges(backend: ModuleType) -> None:
    board = backend.Board(LINES_FEN)
    # up: over X on d5 to d6, d7, then the edge; right: over s on e4, then the
    # stone f4 ends it (g4 stays out); left: c4, over O on b4, a4; down: d3
    # is a stone; diagonals: e5 f6 g7, c5 b6 a7, e3 f2 g1; c3 is a stone.
    assert board.reach(sq("d4")) == squares("d6 d7 c4 a4 e5 f6 g7 c5 b6 a7 e3 f2 g1")


def test_lines_pass_over_claimed_and_unclaimed_shooters(backend: ModuleType) -> None:
    # Edge case: d6/d7 lie beyond a claimed shooter, a4 beyond one claimed by
    # White, and the shot d7 is legal from d4 without a move.
    board = backend.Board(LINES_FEN)
    reach = board.reach(sq("d4"))
    assert {sq("d6"), sq("d7"), sq("a4")} <= set(reach)
    assert board.is_legal(backend.Move.parse("d7"))
    # a1: the a-file and the first rank are empty to the edges; its diagonal
    # reaches b2 and ends at the stone c3.
    assert board.reach(sq("a1")) == squares("a2 a3 a4 a5 a6 a7 b1 c1 d1 e1 f1 g1 b2")


def test_shooters_block_ends_lines_at_every_shooter(backend: ModuleType) -> None:
    # The same position with `shooters_block`: X on d5, s on e4 and O on b4
    # now end their lines; the diagonals are unchanged.
    board = backend.Board(LINES_FEN, shooters_block=True)
    assert board.reach(sq("d4")) == squares("c4 e5 f6 g7 c5 b6 a7 e3 f2 g1")
    assert not board.is_legal(backend.Move.parse("d7"))


MOVE_BACK_FEN = "1x1o1/s4/2s2/4s/5 b play 3"
# 5x5, shooters a4, c3, e2; stones b5 (x), d5 (o):
#   5 . x . o .
#   4 s . . . .
#   3 . . s . .
#   2 . . . . s
#   1 . . . . .


def test_moved_shooter_shoots_back_across_its_old_square(backend: ModuleType) -> None:
    # Edge case: c3 moves up to c5 and shoots down the c-file; its old square
    # is empty during the shot, so it can even take it.
    board = backend.Board(MOVE_BACK_FEN)
    board.push_str("c3-c5/c3")
    assert board.fen() == "1xso1/s4/2x2/4s/5 w play 3"
    # With `shooters_block` a shooter ends lines, but the moved shooter has
    # left c3, so from c5 the line runs c4, c3, c2, c1.
    board = backend.Board(MOVE_BACK_FEN, shooters_block=True)
    board.push_str("c3-c5/c1")
    assert board.fen() == "1xso1/s4/5/4s/2x2 w play 3"


def test_shot_is_computed_after_the_move(backend: ModuleType) -> None:
    board = backend.Board(MOVE_BACK_FEN)
    # b3 is in c3's reach before the move, but not in c5's (b5 is a stone, and
    # the diagonal from c5 runs b4, a3): with the move it is illegal.
    assert board.is_legal(backend.Move.parse("b3"))
    assert not board.is_legal(backend.Move.parse("c3-c5/b3"))
    # c3 itself only becomes a target once its shooter has moved away.
    assert not board.is_legal(backend.Move.parse("c3"))
    assert board.is_legal(backend.Move.parse("c3-c5/c3"))
    # The moved shooter's reach alone counts: c5's lines end at b5 and d5.
    assert not board.is_legal(backend.Move.parse("c3-c5/a5"))


CHECKER_FEN = "xoxox/oxoso/xo1ox/osoxo/xoxoX b play 3"
# 5x5, every square filled but c3; stones alternate, so each group has one stone:
#   5 x o x o x
#   4 o x o s o      d4: unclaimed shooter
#   3 x o . o x      c3: the only empty square
#   2 o s o x o      b2: unclaimed shooter
#   1 x o x o X      e1: a shooter claimed by Black
# Both shooters reach c3 (diagonally, the other shooter passed over), and
# nothing else.


def test_shot_without_move_is_one_move(backend: ModuleType) -> None:
    # Both b2 and d4 reach c3: the shot `c3` is listed once. A shooter may also
    # step onto c3 and shoot back onto its old square (the other line from c3
    # runs over the other shooter to e5/a1, stones).
    board = backend.Board(CHECKER_FEN)
    assert [str(move) for move in board.legal_moves] == ["c3", "b2-c3/b2", "d4-c3/d4"]
    assert len(board.legal_moves) == 3


def test_claims_are_resolved_all_at_once_after_the_shot(backend: ModuleType) -> None:
    # Black shoots c3: both shooters are now trapped and claimed together.
    # Their orthogonal neighbours are all single white stones (groups of 1)
    # and no black group touches them: White claims both.
    board = backend.Board(CHECKER_FEN)
    board.push_str("c3")
    assert board.fen() == "xoxox/oxoOo/xoxox/oOoxo/xoxoX w play 3"
    assert board.claims == Claims(1, 2)


def test_claims_after_a_moved_shooter_shot(backend: ModuleType) -> None:
    # b2 steps onto c3 and shoots b2: then c3 (neighbours c4 c2 b3 d3, all
    # single white stones) and d4 (d5 d3 c4 e4, white) are trapped: White
    # claims both, as the position is judged after the shot.
    board = backend.Board(CHECKER_FEN)
    board.push_str("b2-c3/b2")
    assert board.fen() == "xoxox/oxoOo/xoOox/oxoxo/xoxoX w play 3"


def test_a_shot_that_makes_the_opponent_win(backend: ModuleType) -> None:
    # Edge case: Black's only shots all trap both shooters for White, who then
    # holds 2 = K // 2 + 1 claims and wins at once on Black's turn.
    board = backend.Board(CHECKER_FEN)
    board.push_str("c3")
    assert board.winner is Color.WHITE
    assert board.is_game_over()
    assert board.outcome() == Outcome(Color.WHITE, Claims(1, 2))


def test_win_at_once_whoever_shot(backend: ModuleType) -> None:
    # White shooting c3 instead: its stone joins c4 c2 b3 d3 into a group of
    # 5 next to both shooters, so White claims both with its own shot.
    board = backend.Board(CHECKER_FEN.replace(" b ", " w "))
    board.push_str("c3")
    assert board.fen() == "xoxox/oxoOo/xooox/oOoxo/xoxoX b play 3"
    assert board.outcome() == Outcome(Color.WHITE, Claims(1, 2))
    assert board.perft(1) == 0


MIXED_FEN = "xxooo/ooxso/xo1xo/xsoox/xxxxX b play 3"
#   5 x x o o o
#   4 o o x s o      d4: shooter
#   3 x o . x o      c3: the only empty square
#   2 x s o o x      b2: shooter
#   1 x x x x X      e1: claimed by Black


def test_one_shot_claims_several_shooters_for_different_owners(backend: ModuleType) -> None:
    # Edge case: Black shoots c3 (it joins c4 and d3). Then:
    # - b2 touches the black group a1 a2 a3 b1 c1 d1 (6; X on e1 does not
    #   join it) and the white groups b3 b4 a4 (3) and c2 d2 (2): Black claims.
    # - d4 touches the black group c3 c4 d3 (3) and the white group
    #   c5 d5 e5 e4 e3 (5): White claims.
    # Black now holds 2 claims (e1, b2) and wins.
    board = backend.Board(MIXED_FEN)
    board.push_str("c3")
    assert board.fen() == "xxooo/ooxOo/xoxxo/xXoox/xxxxX w play 3"
    assert board.claims == Claims(2, 1)
    assert board.winner is Color.BLACK
    assert list(board.legal_moves) == []


CORNER_TIE_FEN = "4s/5/x4/xs3/soo2 b play 3"
#   5 . . . . s
#   4 . . . . .
#   3 x . . . .
#   2 x s . . .
#   1 s o o . .
# a1's only open line is its diagonal over b2 (c3, d4): a shot on c3 closes
# it, trapping a1; c3 touches no stone.
# Black group a2 a3 (2) against white group b1 c1 (2): a tie.


def test_tie_goes_to_the_opponent_of_the_shooter(backend: ModuleType) -> None:
    # Edge case: Black shot, so White claims a1; and the other way round.
    board = backend.Board(CORNER_TIE_FEN)
    board.push_str("c3")
    assert board.fen() == "4s/5/x1x2/xs3/Ooo2 w play 3"
    board = backend.Board(CORNER_TIE_FEN.replace(" b ", " w "))
    board.push_str("c3")
    assert board.fen() == "4s/5/x1o2/xs3/Xoo2 b play 3"


NO_GROUP_FEN = "5/5/x4/s4/sso2 b play 3"
#   3 x . . . .
#   2 s . . . .
#   1 s s o . .
# a1 passes over a2 to the stone a3, over b1 to the stone c1, and reaches b2
# diagonally. A shot on b2 traps it; its orthogonal neighbours a2 and b1 are
# shooters, so no group touches it.


def test_no_adjacent_group_goes_to_the_opponent_of_the_shooter(backend: ModuleType) -> None:
    # Edge case: a2 (b3 free) and b1 (c2 free) stay untrapped.
    board = backend.Board(NO_GROUP_FEN)
    board.push_str("b2")
    assert board.fen() == "5/5/x4/sx3/Oso2 w play 3"
    board = backend.Board(NO_GROUP_FEN.replace(" b ", " w "))
    board.push_str("b2")
    assert board.fen() == "5/5/x4/so3/Xso2 b play 3"


def test_bigger_group_owner_claims(backend: ModuleType) -> None:
    # As CORNER_TIE_FEN without c1: Black's group a2 a3 (2) beats White's b1
    # (1), so Black claims a1 whoever shot (the tie rule would say otherwise
    # for Black's own shot).
    fen = "4s/5/x4/xs3/so3 b play 3"
    board = backend.Board(fen)
    board.push_str("c3")
    assert board.fen() == "4s/5/x1x2/xs3/Xo3 w play 3"
    board = backend.Board(fen.replace(" b ", " w "))
    board.push_str("c3")
    assert board.fen() == "4s/5/x1o2/xs3/Xo3 b play 3"


def test_claim_markers_neither_block_lines_nor_join_groups(backend: ModuleType) -> None:
    # Edge case, groups:
    #   5 x . . . .
    #   4 x . . . .
    #   3 X . . . .      a3: claimed by Black, between the stones a2 and a4
    #   2 x s . . .
    #   1 s o o . .
    # White shoots c3, trapping a1 (over b2). a1 touches the black group {a2}
    # (1: the marker on a3 does not join it to a4 a5) and the white group
    # b1 c1 (2): White claims. Were the marker a stone, Black's group would be
    # 4 and Black would claim; a tie would give it to Black as well.
    board = backend.Board("x4/x4/X4/xs3/soo2 w play 3")
    board.push_str("c3")
    assert board.fen() == "x4/x4/X1o2/xs3/Ooo2 b play 3"
    assert board.claims == Claims(1, 1)
    # Lines: in LINES_FEN d4's line up runs over the marker on d5 to d6, d7,
    # and a shot there is legal.
    board = backend.Board(LINES_FEN)
    assert {sq("d6"), sq("d7")} <= set(board.reach(sq("d4")))
    assert board.is_legal(backend.Move.parse("d6"))


def test_no_cascades(backend: ModuleType) -> None:
    # Claiming a1 changes no line: the other shooters see exactly what they see
    # in the hand-made position right after the shot, before any claim (a1
    # still unclaimed though trapped), and nothing else is claimed.
    board = backend.Board(CORNER_TIE_FEN)
    board.push_str("c3")
    before_claims = backend.Board("4s/5/x1x2/xs3/soo2 w play 3")
    assert board.claims == Claims(0, 1)
    assert board.pieces(Piece.SHOOTER) == squares("b2 e5")
    # b2: up b3 b4 b5; right c2 d2 e2; down-left over the new marker on a1
    # to the edge; the rest end at stones (b1, a2, a3, c3, c1).
    # e5: left d5..a5; down e4..e1; down-left d4, then the stone c3.
    expected = {"b2": "b3 b4 b5 c2 d2 e2", "e5": "a5 b5 c5 d5 e4 e3 e2 e1 d4"}
    for name, reach in expected.items():
        assert board.reach(sq(name)) == squares(reach)
        assert before_claims.reach(sq(name)) == squares(reach)


def test_finished_game_has_no_moves(backend: ModuleType) -> None:
    # Black holds 2 claims (K = 3): the game is over, nothing is legal.
    board = backend.Board("x1xxxoo/2xs1ox/2ooxxX/1xxooox/xxoXxo1/oooxoxo/xxox1oo w play 3")
    assert board.winner is Color.BLACK
    assert list(board.legal_moves) == []
    assert len(board.legal_moves) == 0
    assert not board.legal_moves
    assert not board.is_legal(backend.Move.parse("b7"))
    assert board.perft(1) == 0
    assert board.perft(0) == 1
    assert board.outcome() == Outcome(Color.BLACK, Claims(2, 0))


def test_stuck_position_has_no_winner(backend: ModuleType) -> None:
    # A hand-made position: both unclaimed shooters trapped before any shot,
    # so there is no legal move, and nobody holds 2 claims.
    board = backend.Board("xoxox/oxoso/xoxox/osoxo/xoxoX b play 3")
    assert not board.legal_moves
    assert board.is_game_over()
    assert board.outcome() == Outcome(None, Claims(1, 0))


def test_shooter_trapped_in_setup_is_claimed_after_the_first_shot(backend: ModuleType) -> None:
    # Edge case of `shooters_block`: 5x5 with K = 7 fills the 3x3 interior.
    # Black places c3 b2 c2 and its stone d2; White places d3 b3 b4 c4 and its
    # stone d4. c3 is then walled in by 6 shooters and 2 stones: trapped, but
    # nothing is claimed in setup.
    board = backend.Board(size=5, shooters=7, shooters_block=True)
    for text in ("*c3", "*b2", "*c2", "d2", "*d3", "*b3", "*b4", "*c4", "d4"):
        board.push_str(text)
    assert board.fen() == "5/1sso1/1sss1/1ssx1/5 b play 7"
    assert board.reach(sq("c3")) == []
    assert board.claims == Claims(0, 0)
    # Black's first shot (a1, from b2) claims it; its neighbours are all
    # shooters (no group), so the opponent of the shooter, White, claims it.
    board.push_str("a1")
    assert board.fen() == "5/1sso1/1sOs1/1ssx1/x4 w play 7"
    # Under the default lines c3 sees over its neighbours: nothing is claimed.
    board = backend.Board("5/1sso1/1sss1/1ssx1/5 b play 7")
    board.push_str("a1")
    assert board.fen() == "5/1sso1/1sss1/1ssx1/x4 w play 7"


def test_shooters_block_trapped_count(backend: ModuleType) -> None:
    # With `shooters_block`, the interior shooters of the position above that
    # still see the ring are untrapped; the walled-in c3 has no move or shot.
    board = backend.Board("5/1sso1/1sss1/1ssx1/5 b play 7", shooters_block=True)
    assert all(move.origin != sq("c3") for move in board.legal_moves)
    assert all(board.reach(s) for s in board.pieces(Piece.SHOOTER) if s != sq("c3"))


def test_game_ends_within_n_squared_plies(backend: ModuleType) -> None:
    # Each setup placement and each shot adds a piece; only the swap does not.
    board = backend.Board(variant="small")
    plies = 0
    while not board.is_game_over():
        moves = list(board.legal_moves)
        board.push(moves[len(moves) // 2])
        plies += 1
    assert plies <= 7 * 7 + 1
    assert board.winner is not None


# ----------------------------------------------------------------------
# Section 5: notation


def test_square_names() -> None:
    assert (sq("a1"), sq("j1"), sq("a2"), sq("e5"), sq("j10")) == (0, 9, 10, 44, 99)
    assert [square_name(s) for s in (0, 9, 10, 44, 99)] == ["a1", "j1", "a2", "e5", "j10"]


@pytest.mark.parametrize(
    ("text", "target", "origin", "destination", "is_shooter", "is_swap"),
    [
        ("*e5", "e5", None, None, True, False),
        ("e5", "e5", None, None, False, False),
        ("swap", None, None, None, False, True),
        ("f9", "f9", None, None, False, False),
        ("d4-d7/f9", "f9", "d4", "d7", False, False),
        ("j10-a1/a10", "a10", "j10", "a1", False, False),
    ],
)
def test_move_notation(
    backend: ModuleType,
    text: str,
    target: str | None,
    origin: str | None,
    destination: str | None,
    is_shooter: bool,
    is_swap: bool,
) -> None:
    move = backend.Move.parse(text)
    as_square = {None: None} | {name: sq(name) for name in (target, origin, destination) if name}
    assert (move.target, move.origin, move.destination) == (
        as_square[target],
        as_square[origin],
        as_square[destination],
    )
    assert (move.is_shooter, move.is_swap) == (is_shooter, is_swap)
    assert str(move) == text


def test_fen_fields(backend: ModuleType) -> None:
    assert backend.Board().fen() == "10/10/10/10/10/10/10/10/10/10 b setup 7"
    assert backend.Board(variant="medium").fen() == "9/9/9/9/9/9/9/9/9 b setup 5"
    board = backend.Board()
    board.push_str("*e5")  # rank 5 is the sixth rank written, from the top
    assert board.fen() == "10/10/10/10/10/4s5/10/10/10/10 b setup 7"
    board = backend.Board("x1xxxoo/2xs1ox/2ooxxX/1xxooox/xxoXxo1/oooxoxo/xxox1oo w play 3")
    assert board.piece_at(sq("a7")) is Piece.BLACK_STONE
    assert board.piece_at(sq("b7")) is None
    assert board.piece_at(sq("f7")) is Piece.WHITE_STONE
    assert board.piece_at(sq("d6")) is Piece.SHOOTER
    assert board.piece_at(sq("g5")) is Piece.BLACK_CLAIMED
    assert board.piece_at(sq("d3")) is Piece.BLACK_CLAIMED
    assert (board.turn, board.phase, board.rules.shooters) == (Color.WHITE, Phase.PLAY, 3)
    white_claim = backend.Board("7/7/3O3/1O1ssx1/2xo3/7/s6 b play 5")
    assert white_claim.piece_at(sq("d5")) is Piece.WHITE_CLAIMED
    assert white_claim.claims == Claims(0, 2)


# ----------------------------------------------------------------------
# Section 6: perft


def test_perft_definition(backend: ModuleType) -> None:
    board = backend.Board("7/2x4/7/1s5/7/o1s2s1/7 b play 3")
    assert board.perft(0) == 1
    assert board.perft(1) == len(board.legal_moves) == len(list(board.legal_moves))
    by_move = {}
    for move in list(board.legal_moves)[:40]:
        board.push(move)
        by_move[move] = len(board.legal_moves)
        board.pop()
    divide = board.perft_divide(2)
    assert list(divide) == list(board.legal_moves)
    assert all(divide[move] == count for move, count in by_move.items())
    assert sum(divide.values()) == board.perft(2)
    # From the start of the small game: 25 shooter squares, then 48 for the stone.
    assert backend.Board(variant="small").perft(2) == 25 * 48
