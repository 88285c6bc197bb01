"""The native core's own behaviour: the shared error classes and messages,
no panic on any input, independent copies, the GIL released by perft, and
the backend switch of ``veletas``."""

from __future__ import annotations

import copy
import gc
import os
import pickle
import subprocess
import sys
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

import pytest
import veletas
import veletas.errors
import veletas.reference
from hypothesis import given
from hypothesis import strategies as st

native = pytest.importorskip("veletas._veletas", reason="the extension is not built")

PLAY_FEN = "7/2x4/7/1s5/7/o1s2s1/7 b play 3"
STANDARD_PLAY_FEN = "8x1/10/1o5xx1/o3x1o3/2ssx2s2/os1o4x1/1sx6s/2o7/6ox2/s9 w play 7"
FINISHED_FEN = "x1xxxoo/2xs1ox/2ooxxX/1xxooox/xxoXxo1/oooxoxo/xxox1oo w play 3"


def outcome_of(call: Callable[[], object]) -> tuple[str, str]:
    """What ``call`` did: its result's repr, or its exception's class and message."""
    try:
        result = call()
    except Exception as error:
        return type(error).__qualname__, str(error)
    return "ok", repr(result)


# ----------------------------------------------------------------------
# Errors: the very classes of veletas.errors, with the reference's messages

REFUSALS: list[tuple[str, Callable[[object], object]]] = [
    ("bad fen", lambda m: m.Board("7/7/7/7/7/7/8 b setup 3")),
    ("bad fen letter", lambda m: m.Board("7/7/7/3k3/7/7/7 b setup 3")),
    ("fen zero run", lambda m: m.Board("7/7/7/07/7/7/7 b setup 3")),
    ("fen quote", lambda m: m.Board("7/7/7/3'3/7/7/7 b setup 3")),
    ("fen turn", lambda m: m.Board("7/7/7/7/7/7/7 x setup 3")),
    ("fen pie turn", lambda m: m.Board("7/2x4/7/1s5/7/7/7 b pie 3")),
    ("fen phase", lambda m: m.Board("7/7/7/7/7/7/7 b end 3")),
    ("fen K text", lambda m: m.Board("7/7/7/7/7/7/7 b setup three")),
    ("fen K even", lambda m: m.Board("7/7/7/7/7/7/7 b setup 4")),
    ("fen K huge", lambda m: m.Board("7/7/7/7/7/7/7 b setup 99999999999999999999")),
    ("fen K spacing", lambda m: m.Board("5/5/5/5/5 b setup 5", setup_rule="spacing")),
    ("fen counts", lambda m: m.Board("7/2x4/7/1s5/7/2s2s1/7 b play 3")),
    ("fen fields", lambda m: m.Board("7/7/7/7/7/7/7 b setup")),
    ("fen type", lambda m: m.Board(7)),
    ("fen vs size", lambda m: m.Board(PLAY_FEN, size=9)),
    ("fen vs shooters", lambda m: m.Board(PLAY_FEN, shooters=5)),
    ("fen vs variant", lambda m: m.Board(PLAY_FEN, variant="medium")),
    ("variant", lambda m: m.Board(variant="huge")),
    ("variant None", lambda m: m.Board(variant=None)),
    ("setup rule", lambda m: m.Board(setup_rule="ring")),
    ("setup rule None beside a fen", lambda m: m.Board(PLAY_FEN, setup_rule=None)),
    ("shooters_block type", lambda m: m.Board(shooters_block=1)),
    ("size type", lambda m: m.Board(PLAY_FEN, size="7")),
    ("size", lambda m: m.Board(size=4)),
    ("shooters", lambda m: m.Board(size=5, shooters=9)),
    ("move text", lambda m: m.Move.parse("D4-d7/f9")),
    ("move text type", lambda m: m.Move.parse(44)),
    ("move square", lambda m: m.Move(100)),
    ("move square huge", lambda m: m.Move(10**30)),
    ("move square type", lambda m: m.Move(4.0)),
    ("move half", lambda m: m.Move(1, 2)),
    ("shooter square", lambda m: m.Move.shooter(-1)),
    ("illegal setup", lambda m: m.Board(variant="small").push_str("*a1")),
    ("illegal off board", lambda m: m.Board(variant="small").push_str("*j10")),
    ("illegal shot", lambda m: m.Board(PLAY_FEN).push_str("c6")),
    ("illegal move", lambda m: m.Board(PLAY_FEN).push_str("b4-d7/a1")),
    ("illegal after move", lambda m: m.Board(PLAY_FEN).push_str("b4-b5/a1")),
    ("illegal no shooter", lambda m: m.Board(PLAY_FEN).push_str("a1-a2/a3")),
    ("illegal swap", lambda m: m.Board(PLAY_FEN).push_str("swap")),
    ("game over", lambda m: m.Board(FINISHED_FEN).push_str("e1")),
    ("push type", lambda m: m.Board().push("e5")),
    ("is_legal type", lambda m: m.Board().is_legal(None)),
    ("pop", lambda m: m.Board().pop()),
    ("peek", lambda m: m.Board().peek()),
    # K at and beyond the integer widths a parser might use
    ("fen K empty", lambda m: m.Board("7/7/7/7/7/7/7 b setup ")),
    ("fen K 2**32 - 1", lambda m: m.Board(f"7/7/7/7/7/7/7 b setup {2**32 - 1}")),
    ("fen K 2**32", lambda m: m.Board(f"7/7/7/7/7/7/7 b setup {2**32}")),
    ("fen K 2**32 + 1", lambda m: m.Board(f"7/7/7/7/7/7/7 b setup {2**32 + 1}")),
    ("fen K 2**64 - 1", lambda m: m.Board(f"7/7/7/7/7/7/7 b setup {2**64 - 1}")),
    ("fen K 2**64", lambda m: m.Board(f"7/7/7/7/7/7/7 b setup {2**64}")),
    ("fen K 5000 digits", lambda m: m.Board("7/7/7/7/7/7/7 b setup " + "9" * 5000)),
    ("fen K 5000 digits even", lambda m: m.Board("5/5/5/5/5 b setup " + "9" * 4999 + "8")),
    # runs of empty squares too long for any integer type
    ("fen run 2**64 - 1", lambda m: m.Board(f"7/7/7/7/7/7/{2**64 - 1} b setup 3")),
    ("fen run 2**64", lambda m: m.Board(f"7/7/7/7/7/7/{2**64} b setup 3")),
    ("fen runs summing to 2**64", lambda m: m.Board(f"7/7/7/7/7/7/{2**63}s{2**63 - 1} b setup 3")),
    ("fen run 5000 digits", lambda m: m.Board("7/7/7/7/7/7/" + "9" * 5000 + " b setup 3")),
    (
        "fen run 5000 digits, bad letter",
        lambda m: m.Board("7/" + "9" * 5000 + "q/7/7/7/7/7 b setup 3"),
    ),
    # characters that are no part of a position string
    ("fen newline in a rank", lambda m: m.Board("7/7/7/3\n4/7/7/7 b setup 3")),
    ("fen newline ending a rank", lambda m: m.Board("7/7/7/7\n/7/7/7 b setup 3")),
    ("fen NUL letter", lambda m: m.Board("7/7/7/7/7/7/6\x00 b setup 3")),
    ("fen NUL turn", lambda m: m.Board("7/7/7/7/7/7/7 \x00 setup 3")),
    ("fen non-ASCII letter", lambda m: m.Board("7/7/7/3é3/7/7/7 b setup 3")),
    ("fen non-ASCII digit", lambda m: m.Board("7/7/7/7/7/7/\uff17 b setup 3")),
    ("fen emoji", lambda m: m.Board("7/7/7/7/7/7/6\U0001f600 b setup 3")),
    ("fen unassigned letter", lambda m: m.Board("7/7/7/7/7/7/6\u0378 b setup 3")),
    ("fen space separator", lambda m: m.Board("7/7/7/7/7/7/7 \u1680 setup 3")),
    ("fen format character", lambda m: m.Board("7/7/7/7/7/7/7 b \u0600setup 3")),
    ("fen private use", lambda m: m.Board("7/7/7/7/7/7/7 b setup \U000f0000")),
    ("fen tag character", lambda m: m.Board("7/7/7/7/7/7/6\U000e0001 b setup 3")),
    ("fen surrogate letter", lambda m: m.Board("7/7/7/7/7/7/6\ud800 b setup 3")),
    ("fen surrogate after runs", lambda m: m.Board("7/7/7/7/7/7/1\udfff5 b setup 3")),
    ("fen surrogate turn", lambda m: m.Board("7/7/7/7/7/7/7 \udc80 setup 3")),
    ("fen surrogate K", lambda m: m.Board("7/7/7/7/7/7/7 b setup 3\ud83d")),
    (
        "fen surrogates and a replacement character",
        lambda m: m.Board("7/7/7/7/7/7/7 \ufffd\ud800 setup 3"),
    ),
    (
        "fen surrogate beside U+FFFD letter",
        lambda m: m.Board("7/7/7/7/7/7/5\ufffd\ud800 b setup 3"),
    ),
    ("piece_at off board", lambda m: m.Board(variant="small").piece_at(99)),
    ("piece_at off grid", lambda m: m.Board().piece_at(100)),
    ("piece_at huge", lambda m: m.Board().piece_at(-(10**30))),
    ("reach off board", lambda m: m.Board(variant="small").reach(7)),
    ("pieces", lambda m: m.Board().pieces("q")),
    ("perft", lambda m: m.Board().perft(-1)),
    ("perft float", lambda m: m.Board().perft(1.0)),
    ("perft text", lambda m: m.Board().perft("1")),
    ("perft None", lambda m: m.Board().perft(None)),
    ("perft_divide float", lambda m: m.Board().perft_divide(1.5)),
    ("perft_divide", lambda m: m.Board().perft_divide(0)),
]


@pytest.mark.parametrize(("name", "call"), REFUSALS, ids=[name for name, _ in REFUSALS])
def test_refusals_match_the_reference(name: str, call: Callable[[object], object]) -> None:
    expected = outcome_of(lambda: call(veletas.reference))
    assert expected[0] != "ok", f"{name}: the reference accepts it"
    assert outcome_of(lambda: call(native)) == expected


def test_errors_are_the_shared_classes() -> None:
    cases = [
        (veletas.errors.InvalidFenError, lambda: native.Board("x")),
        (veletas.errors.InvalidRulesError, lambda: native.Board(size=11)),
        (veletas.errors.InvalidMoveError, lambda: native.Move.parse("x")),
        (veletas.errors.IllegalMoveError, lambda: native.Board().push_str("a1")),
    ]
    for error_class, call in cases:
        with pytest.raises(veletas.errors.VeletasError) as info:
            call()
        assert type(info.value) is error_class


def test_refused_push_leaves_the_board_alone() -> None:
    board = native.Board(PLAY_FEN)
    board.push_str("b4-b7/b4")
    before = (board.fen(), board.move_stack, hash(board))
    for text in ("a1", "b7-b7/a1", "swap", "*c3"):
        with pytest.raises(veletas.IllegalMoveError):
            board.push_str(text)
        assert (board.fen(), board.move_stack, hash(board)) == before


# ----------------------------------------------------------------------
# No input makes the core panic (a panic would surface as a BaseException)

ANY_CHARACTER = st.characters(exclude_categories=())  # lone surrogates too
FEN_ALPHABET = "0123456789/ xosXObwsetuplaie\t\n-+é\x00'\"\\\ud800"


@given(st.text(alphabet=FEN_ALPHABET, max_size=60) | st.text(ANY_CHARACTER, max_size=30))
def test_any_fen_text_is_accepted_or_refused(text: str) -> None:
    for rule in ("perimeter", "spacing"):
        expected = outcome_of(lambda r=rule: veletas.reference.Board(text, setup_rule=r))
        found = outcome_of(lambda r=rule: native.Board(text, setup_rule=r))
        assert found == expected


@given(
    ranks=st.lists(
        st.text(alphabet="xosXO123456789", min_size=1, max_size=12), min_size=5, max_size=10
    ),
    turn=st.sampled_from("bw"),
    phase=st.sampled_from(["setup", "pie", "play"]),
    shooters=st.sampled_from(["3", "5", "7", "9", "99999999999999999999"]),
)
def test_near_valid_fens_agree_with_the_reference(
    ranks: list[str], turn: str, phase: str, shooters: str
) -> None:
    fen = f"{'/'.join(ranks)} {turn} {phase} {shooters}"
    expected = outcome_of(lambda: veletas.reference.Board(fen).fen())
    assert outcome_of(lambda: native.Board(fen).fen()) == expected


@given(
    fen=st.sampled_from(
        [PLAY_FEN, STANDARD_PLAY_FEN, "5/5/2s2/5/x4 w pie 3", "7/7/7/7/7/7/7 b setup 3"]
    ),
    data=st.data(),
    character=ANY_CHARACTER,
)
def test_any_character_anywhere_in_a_fen(fen: str, data: st.DataObject, character: str) -> None:
    # Whatever field an odd character lands in, both backends refuse it the
    # same way, quoting it as Python's repr does.
    index = data.draw(st.integers(0, len(fen)), label="index")
    replace = data.draw(st.booleans(), label="replace")
    text = fen[:index] + character + fen[index + replace :]
    expected = outcome_of(lambda: veletas.reference.Board(text).fen())
    assert outcome_of(lambda: native.Board(text).fen()) == expected


@pytest.mark.slow
@pytest.mark.parametrize("template", ["7/7/7/7/7/7/6{} b setup 3", "7/7/7/7/7/7/7 b {} 3"])
def test_every_code_point_is_quoted_as_python_does(template: str) -> None:
    for code in range(sys.maxunicode + 1):
        fen = template.format(chr(code))
        expected = outcome_of(lambda fen=fen: veletas.reference.Board(fen).fen())
        assert outcome_of(lambda fen=fen: native.Board(fen).fen()) == expected, hex(code)


@given(
    st.text(alphabet="abcdefghijk0123456789*-/swap ", max_size=12)
    | st.text(ANY_CHARACTER, max_size=12)
)
def test_any_move_text_is_parsed_or_refused(text: str) -> None:
    expected = outcome_of(lambda: str(veletas.reference.Move.parse(text)))
    assert outcome_of(lambda: str(native.Move.parse(text))) == expected
    for fen in (None, PLAY_FEN, FINISHED_FEN):
        reference_board = veletas.reference.Board(fen, variant="small")
        board = native.Board(fen, variant="small")
        expected = outcome_of(lambda b=reference_board: (b.push_str(text), b.fen()))
        found = outcome_of(lambda b=board: (b.push_str(text), b.fen()))
        assert found[0] == expected[0]
        if found[0] != "ok":
            assert found == expected


@given(st.integers(-(2**70), 2**70) | st.integers(-3, 103))
def test_any_square_number_is_accepted_or_refused(number: int) -> None:
    for make in (
        lambda m: m.Move(number),
        lambda m: m.Move.shooter(number),
        lambda m: m.Move(1, number, 2),
        lambda m: m.Board(PLAY_FEN).piece_at(number),
        lambda m: m.Board(PLAY_FEN).reach(number),
    ):
        assert outcome_of(lambda make=make: make(native)) == outcome_of(
            lambda make=make: make(veletas.reference)
        )


def test_perft_of_a_huge_depth() -> None:
    board = native.Board(FINISHED_FEN)
    assert board.perft(10**30) == 0
    assert board.perft_divide(10**30) == {}
    assert native.Board().perft(0) == 1


# ----------------------------------------------------------------------
# Copies, equality and hashing


def test_copies_are_independent() -> None:
    board = native.Board(PLAY_FEN)
    board.push_str("b4-b7/b4")
    for twin in (board.copy(), copy.copy(board), copy.deepcopy(board)):
        assert twin == board
        assert hash(twin) == hash(board)
        assert twin.move_stack == board.move_stack
        twin.push(next(iter(twin.legal_moves)))
        assert twin != board
        assert board.fen() != twin.fen()
        assert len(board.move_stack) == 1
        twin.pop()
        twin.pop()
        assert board.move_stack == [native.Move.parse("b4-b7/b4")]
    bare = board.copy(stack=False)
    assert bare == board
    assert bare.move_stack == []
    with pytest.raises(IndexError):
        bare.pop()


def test_pop_restores_the_exact_position_and_hash() -> None:
    board = native.Board(STANDARD_PLAY_FEN)
    history = []
    while not board.is_game_over():
        history.append((board.fen(), hash(board), board.claims))
        moves = list(board.legal_moves)
        board.push(moves[len(history) * 7919 % len(moves)])
    assert board.outcome() is not None
    for fen, digest, claims in reversed(history):
        board.pop()
        assert (board.fen(), hash(board), board.claims) == (fen, digest, claims)
    assert board == native.Board(STANDARD_PLAY_FEN)


def test_equal_boards_hash_alike_whatever_their_stacks() -> None:
    played = native.Board(variant="small")
    for text in ("*c3", "g7", "swap", "*e5", "*d4", "a1"):
        played.push_str(text)
    direct = native.Board(played.fen())
    assert played == direct
    assert hash(played) == hash(direct)
    assert native.Board(played.fen(), shooters_block=True) != direct
    assert native.Board(played.fen(), setup_rule="spacing") != direct
    assert len({played, direct, native.Board(played.fen(), shooters_block=True)}) == 2
    assert (direct == "x") is False
    assert direct != veletas.reference.Board(played.fen())


def test_moves_are_values() -> None:
    move = native.Move.parse("d4-d7/f9")
    assert copy.copy(move) is move
    assert copy.deepcopy(move) is move
    assert pickle.loads(pickle.dumps(move)) == move
    assert {move: 1}[native.Move(move.target, move.origin, move.destination)] == 1
    assert (move == "d4-d7/f9") is False
    with pytest.raises(TypeError):
        _ = move < "d4-d7/f9"  # type: ignore[operator]
    with pytest.raises(AttributeError):
        move.target = 3  # type: ignore[misc]


def test_move_lists_stay_out_of_the_cycle_collector() -> None:
    # Moves made in bulk are untracked (they hold no references): tracked,
    # 976 new moves would run the youngest generation's collection.
    board = native.Board(PLAY_FEN)
    moves = list(board.legal_moves)
    assert not any(gc.is_tracked(move) for move in moves)
    board.push(moves[-1])
    assert not gc.is_tracked(board.move_stack[0])
    assert not any(gc.is_tracked(move) for move in native.Board(PLAY_FEN).perft_divide(1))
    # Untracked moves are still ordinary values, freed by reference counting.
    gc.collect()
    assert moves[-1] == board.pop()
    assert moves == sorted(native.Board(PLAY_FEN).legal_moves)


def test_legal_moves_view_keeps_its_board() -> None:
    moves = native.Board(PLAY_FEN).legal_moves
    assert len(moves) == moves.count() == len(list(moves)) == 976
    assert bool(moves)
    assert native.Move.parse("b4-b7/b4") in moves
    assert "b4" not in moves
    assert repr(native.Board(FINISHED_FEN).legal_moves) == repr(
        veletas.reference.Board(FINISHED_FEN).legal_moves
    )


# ----------------------------------------------------------------------
# perft releases the GIL


def test_perft_releases_the_gil() -> None:
    board = native.Board("x1x2oo/2x2s1/2o4/1xx4/2s1x2/o5s/2o4 w play 3")
    worker = threading.Thread(target=board.perft, args=(3,))
    worker.start()
    # Pure-Python work for a small part of the perft's time: it can only finish
    # while the perft runs if the perft does not hold the GIL.
    total = sum(i * i for i in range(200_000))
    finished_during_perft = worker.is_alive()
    worker.join()
    assert total > 0
    assert finished_during_perft


def test_perft_in_threads_agrees_with_one_thread() -> None:
    fens = [PLAY_FEN, STANDARD_PLAY_FEN, "x1x1soo/2x2os/2oox2/1xx3s/4x2/o4x1/1xox1oo w play 3"]
    boards = [native.Board(fen, shooters_block=block) for fen in fens for block in (False, True)]
    expected = [board.perft(2) for board in boards]
    with ThreadPoolExecutor(max_workers=4) as pool:
        counts = list(pool.map(lambda board: board.perft(2), boards * 3))
        divides = list(pool.map(lambda board: board.perft_divide(2), boards))
    assert counts == expected * 3
    assert [sum(divide.values()) for divide in divides] == expected
    assert [list(d) for d in divides] == [list(board.legal_moves) for board in boards]


# ----------------------------------------------------------------------
# The backend switch


@pytest.mark.parametrize(
    ("value", "module"),
    [
        (None, "veletas._veletas"),
        ("rust", "veletas._veletas"),
        ("python", "veletas.games.veletas.reference"),
    ],
)
def test_backend_switch(value: str | None, module: str) -> None:
    env = {k: v for k, v in os.environ.items() if k != "VELETAS_IMPLEMENTATION"}
    if value is not None:
        env["VELETAS_IMPLEMENTATION"] = value
    code = "import veletas; print(veletas.Board.__module__, veletas.Move.__module__)"
    result = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    board_module, move_module = result.stdout.split()
    assert board_module.startswith(module)
    assert move_module.startswith(module)


def test_unknown_backend_is_an_import_error() -> None:
    env = dict(os.environ, VELETAS_IMPLEMENTATION="java")
    result = subprocess.run(
        [sys.executable, "-c", "import veletas"], env=env, capture_output=True, text=True
    )
    assert result.returncode != 0
    assert "ImportError" in result.stderr
    assert "'java'" in result.stderr
