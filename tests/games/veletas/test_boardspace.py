"""Boardspace's games (tests/games/veletas/vectors/boardspace_veletas_rev104.txt.gz):
303 random games played by Boardspace's own engine, rules revision 104,
replayed on both backends.

With ``claimed_shooters_block`` every game replays: at every decision the
same position string and as many legal moves as Boardspace allowed, and at
the end the same board, claims and winner. With the default rules, the
games in which a line meets a claimed shooter part from Boardspace's; all
the others replay as well.
"""

from __future__ import annotations

from types import ModuleType

from .vector_files import BoardspaceGame, boardspace_games

GAMES = boardspace_games()

OPTION_GAMES = (191, 300, 301)
"""The records (by place in the file) in which a line of moves or shots
meets a claimed shooter, so that the default rules part from Boardspace's.
(The file's README says the last three records; the last one, record 302,
never meets one, and record 191 does.)"""


def replay(backend: ModuleType, game: BoardspaceGame, claimed_shooters_block: bool) -> str | None:
    """Where the replay of ``game`` parts from Boardspace's, or None when it
    does not."""
    board = backend.Board(game.decisions[0].fen, claimed_shooters_block=claimed_shooters_block)
    for ply, decision in enumerate(game.decisions):
        where = f"record {game.record} ({game.name}), decision {ply}"
        if board.fen() != decision.fen:
            return f"{where}: position {board.fen()!r}, Boardspace {decision.fen!r}"
        legal = len(board.legal_moves)
        if legal != decision.legal:
            return f"{where}: {legal} legal moves in {decision.fen!r}, Boardspace {decision.legal}"
        move = backend.Move.parse(decision.move)
        if move not in board.legal_moves:
            return f"{where}: {decision.move} is not legal in {decision.fen!r}"
        board.push(move)
    where = f"record {game.record} ({game.name}), end"
    placement, turn, phase, shooters = game.final.split(" ")
    ours = board.fen().split(" ")
    if (ours[0], ours[1], ours[3]) != (placement, turn, shooters) or phase != "over":
        return f"{where}: position {board.fen()!r}, Boardspace {game.final!r}"
    if not board.is_game_over() or board.legal_moves:
        return f"{where}: the game is not over in {board.fen()!r}"
    if tuple(board.claims) != game.claims:
        return f"{where}: claims {tuple(board.claims)}, Boardspace {game.claims}"
    if board.winner is None or str(board.winner)[0] != game.winner:
        return f"{where}: winner {board.winner}, Boardspace {game.winner!r}"
    return None


def test_every_game_is_read() -> None:
    assert len(GAMES) == 303
    assert {game.name.split(" ")[1] for game in GAMES} == {"veletas-7", "veletas-9", "veletas-10"}
    assert all(game.decisions and game.winner in "bw" for game in GAMES)


def test_every_game_replays_with_the_option(backend: ModuleType) -> None:
    parted = [problem for game in GAMES if (problem := replay(backend, game, True))]
    assert parted == []


def test_only_the_option_games_part_without_it(backend: ModuleType) -> None:
    parted = {game.record: replay(backend, game, False) for game in GAMES}
    assert [record for record, problem in parted.items() if problem] == list(OPTION_GAMES)
    # Each parts at a count of legal moves: the option opens or closes lines.
    assert all("legal moves" in str(parted[record]) for record in OPTION_GAMES)
