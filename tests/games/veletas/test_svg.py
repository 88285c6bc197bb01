"""SVG pictures: well-formed XML, one element per piece, last-move marks, coordinates."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from types import ModuleType

import pytest
import veletas
from veletas import Piece, parse_square

NS = "{http://www.w3.org/2000/svg}"

CLASSES = {
    "stone black": Piece.BLACK_STONE,
    "stone white": Piece.WHITE_STONE,
    "shooter": Piece.SHOOTER,
    "claimed black": Piece.BLACK_CLAIMED,
    "claimed white": Piece.WHITE_CLAIMED,
}


def parse(picture: str) -> ET.Element:
    root = ET.fromstring(picture)
    assert root.tag == f"{NS}svg"
    return root


def with_class(root: ET.Element, name: str) -> list[ET.Element]:
    return [element for element in root.iter() if element.get("class") == name]


def random_boards(backend: ModuleType) -> list[object]:
    """Positions of random games of every variant, with claims on them."""
    boards = []
    for seed, variant in enumerate(["small", "medium", "standard"]):
        board = backend.Board(variant=variant)
        bot = veletas.RandomBot(seed)
        while not board.is_game_over():
            board.push(bot.choose(board))
            if len(board.move_stack) % 9 == 0 or board.is_game_over():
                boards.append(board.copy())
    return boards


def centre_of(element: ET.Element) -> tuple[float, float]:
    if element.tag == f"{NS}g":
        element = next(child for child in element if child.tag == f"{NS}circle")
    return float(element.get("cx")), float(element.get("cy"))


@pytest.mark.native
def test_every_piece_is_drawn_once_with_its_class(backend: ModuleType) -> None:
    boards = random_boards(backend)
    assert any(board.claims.black + board.claims.white > 0 for board in boards)
    for board in boards:
        root = parse(veletas.svg.board(board))
        for name, piece in CLASSES.items():
            assert len(with_class(root, name)) == len(board.pieces(piece)), (name, board.fen())


def test_pieces_stand_on_their_squares() -> None:
    board = veletas.Board("1o5/Xx5/xx5/7/3s3/7/1o3oO w play 3")
    root = parse(veletas.svg.board(board, size=350))
    # Squares left to right and bottom to top: x grows with the file, y
    # shrinks with the rank.
    placed = {}
    for name, piece in CLASSES.items():
        elements = with_class(root, name)
        for square, element in zip(board.pieces(piece), elements, strict=True):
            placed[square] = centre_of(element)
    a6, b6, d3, g1 = (parse_square(s) for s in ("a6", "b6", "d3", "g1"))
    assert placed[a6][0] < placed[b6][0]
    assert placed[a6][1] == pytest.approx(placed[b6][1])
    assert placed[d3][1] < placed[g1][1]
    assert placed[g1][0] > placed[d3][0]


def test_claimed_shooters_carry_their_claimants_stone() -> None:
    root = parse(veletas.svg.board(veletas.Board("1o5/Xx5/xx5/7/3s3/7/1o3oO w play 3")))
    [black] = with_class(root, "claimed black")
    [white] = with_class(root, "claimed white")
    [shooter] = with_class(root, "shooter")
    assert black.find(f"{NS}polygon") is not None
    assert black.find(f"{NS}circle") is not None
    assert black.find(f"{NS}circle").get("fill") != white.find(f"{NS}circle").get("fill")
    # An unclaimed shooter has the shape without a stone-sized marker.
    assert shooter.find(f"{NS}polygon").get("fill") != black.find(f"{NS}polygon").get("fill")


def line_ends(element: ET.Element) -> tuple[tuple[float, float], tuple[float, float]]:
    x1, y1, x2, y2 = (float(element.get(k)) for k in ("x1", "y1", "x2", "y2"))
    return (x1, y1), (x2, y2)


def square_centres(root: ET.Element, board: object) -> dict[int, tuple[float, float]]:
    """Every occupied square's centre, from the pieces."""
    centres = {}
    for name, piece in CLASSES.items():
        for square, element in zip(board.pieces(piece), with_class(root, name), strict=True):
            centres[square] = centre_of(element)
    return centres


def points_towards(start, end, origin, target) -> bool:
    """The segment starts on ``origin`` and heads straight for ``target``."""
    (x1, y1), (x2, y2) = start, end
    (ox, oy), (tx, ty) = origin, target
    cross = (x2 - x1) * (ty - oy) - (y2 - y1) * (tx - ox)
    dot = (x2 - x1) * (tx - ox) + (y2 - y1) * (ty - oy)
    return (
        (x1, y1) == pytest.approx((ox, oy), abs=0.02)
        and abs(cross) < 1e-3 * (1 + abs(dot))
        and dot > 0
    )


@pytest.mark.parametrize("flipped", [False, True])
def test_the_last_move_shows_the_path_and_the_shot(backend: ModuleType, flipped: bool) -> None:
    board = backend.Board("7/2x4/7/1s5/7/o1s2s1/7 b play 3")
    move = backend.Move.parse("c2-c3/d4")
    board.push(move)
    root = parse(veletas.svg.board(board, lastmove=move, flipped=flipped))
    [path] = with_class(root, "lastmove path")
    [shot] = with_class(root, "lastmove shot")
    [target] = with_class(root, "lastmove target")
    [origin] = with_class(root, "lastmove origin")
    centres = square_centres(root, board)
    c3, d4 = parse_square("c3"), parse_square("d4")
    # c3 holds the shooter that moved, d4 the new stone; c2 is empty: its
    # centre is one square below (above, flipped) c3's.
    step = abs(centres[d4][0] - centres[c3][0])
    c2 = (centres[c3][0], centres[c3][1] + (-step if flipped else step))
    assert points_towards(*line_ends(path), c2, centres[c3])
    assert points_towards(*line_ends(shot), centres[c3], centres[d4])
    assert float(origin.get("x")) + step / 2 == pytest.approx(c2[0], abs=0.02)
    assert float(target.get("x")) + step / 2 == pytest.approx(centres[d4][0], abs=0.02)


def test_a_shot_back_along_the_path_is_drawn_beside_it(backend: ModuleType) -> None:
    board = backend.Board("7/2x4/7/1s5/7/o1s2s1/7 b play 3")
    move = backend.Move.parse("c2-c3/c2")
    board.push(move)
    root = parse(veletas.svg.board(board, lastmove=move))
    [path] = with_class(root, "lastmove path")
    [shot] = with_class(root, "lastmove shot")
    (px1, py1), (px2, py2) = line_ends(path)
    (sx1, sy1), (sx2, sy2) = line_ends(shot)
    # Both vertical, side by side, in opposite directions.
    assert px1 == pytest.approx(px2)
    assert sx1 == pytest.approx(sx2)
    assert px1 != pytest.approx(sx1)
    assert (py2 - py1) * (sy2 - sy1) < 0


def test_a_shot_without_a_move_is_drawn_from_a_shooter(backend: ModuleType) -> None:
    board = backend.Board("1o5/sx5/xx5/7/3s3/7/1o3oX b play 3")
    move = backend.Move.parse("a7")
    board.push(move)
    root = parse(veletas.svg.board(board, lastmove=move))
    assert with_class(root, "lastmove path") == []
    [shot] = with_class(root, "lastmove shot")
    centres = square_centres(root, board)
    # The shooter on a6 (now claimed) made the shot onto a7.
    assert points_towards(
        *line_ends(shot), centres[parse_square("a6")], centres[parse_square("a7")]
    )


def test_setup_moves_mark_the_square_and_swaps_nothing(backend: ModuleType) -> None:
    board = backend.Board(variant="small")
    board.push_str("*c3")
    root = parse(veletas.svg.board(board, lastmove=board.peek()))
    assert len(with_class(root, "lastmove target")) == 1
    assert with_class(root, "lastmove shot") == with_class(root, "lastmove path") == []
    board.push_str("a1")
    board.push_str("swap")
    root = parse(veletas.svg.board(board, lastmove=board.peek()))
    assert not any((element.get("class") or "").startswith("lastmove") for element in root.iter())
    # White's setup stone ends setup: it is placed, not shot by a shooter.
    for text in ("*e5", "*c5", "g7"):
        board.push_str(text)
    assert board.phase == "play"
    root = parse(veletas.svg.board(board, lastmove=board.peek()))
    assert len(with_class(root, "lastmove target")) == 1
    assert with_class(root, "lastmove shot") == []


@pytest.mark.parametrize("variant", ["small", "standard"])
def test_coordinates_match_the_notation(variant: str) -> None:
    board = veletas.Board(variant=variant)
    n = board.size
    for flipped in (False, True):
        root = parse(veletas.svg.board(board, flipped=flipped))
        files = with_class(root, "coord file")
        ranks = with_class(root, "coord rank")
        assert [f.text for f in files] == list("abcdefghij"[:n])
        assert [r.text for r in ranks] == [str(k + 1) for k in range(n)]
        xs = [float(f.get("x")) for f in files]
        ys = [float(r.get("y")) for r in ranks]
        # a1 is bottom-left: files run left to right and ranks bottom to top;
        # flipped, the other way round.
        assert xs == (sorted(xs, reverse=True) if flipped else sorted(xs))
        assert ys == (sorted(ys) if flipped else sorted(ys, reverse=True))
    assert with_class(parse(veletas.svg.board(board, coordinates=False)), "coord file") == []


def test_flipping_turns_the_pieces_around() -> None:
    board = veletas.Board("7/7/7/2s1s2/3s3/7/x5o b play 3")
    upright = with_class(parse(veletas.svg.board(board)), "stone black")[0]
    flipped = with_class(parse(veletas.svg.board(board, flipped=True)), "stone black")[0]
    [white] = with_class(parse(veletas.svg.board(board, flipped=True)), "stone white")
    # a1 bottom-left upright; top-right flipped, where g1's stone is upright.
    assert float(flipped.get("cx")) > float(white.get("cx"))
    assert float(flipped.get("cy")) < float(upright.get("cy"))


def test_size_sets_the_width_and_bad_sizes_are_refused() -> None:
    board = veletas.Board(variant="small")
    assert parse(veletas.svg.board(board, size=250)).get("width") == "250"
    for bad in (0, 10, -5, 2.5, True):
        with pytest.raises(ValueError, match="size must be an int of 40 or more"):
            veletas.svg.board(board, size=bad)


def test_boards_draw_themselves_in_notebooks(backend: ModuleType) -> None:
    board = backend.Board("7/2x4/7/1s5/7/o1s2s1/7 b play 3")
    assert with_class(parse(board._repr_svg_()), "lastmove shot") == []
    board.push_str("c2-c3/c2")
    root = parse(board._repr_svg_())
    assert len(with_class(root, "lastmove path")) == 1
    assert len(with_class(root, "shooter")) == 3
    assert root.find(f"{NS}title").text == board.fen()


@pytest.mark.native
def test_every_square_is_an_element_named_by_data_square(backend: ModuleType) -> None:
    for board in random_boards(backend)[::5]:
        for flipped in (False, True):
            root = parse(veletas.svg.board(board, flipped=flipped))
            squares = with_class(root, "square")
            names = [element.get("data-square") for element in squares]
            n = board.size
            assert sorted(names) == sorted(
                veletas.square_name(veletas.square(f, r)) for f in range(n) for r in range(n)
            )
            # On top of everything, so that clicks reach them, and where the
            # pieces of those squares are drawn.
            assert list(root)[-2].get("class") == "squares"
            for element in squares:
                sq = parse_square(element.get("data-square"))
                piece = board.piece_at(sq)
                if piece is None:
                    continue
                x, y = float(element.get("x")), float(element.get("y"))
                size = float(element.get("width"))
                drawn = [e for e in root.iter() if e.get("class") in CLASSES]
                assert any(
                    x < centre_of(e)[0] < x + size and y < centre_of(e)[1] < y + size for e in drawn
                )
