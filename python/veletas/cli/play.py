"""play a game in the terminal against a bot (or watch two bots)

Play Veletas (or Meridians, with --game meridians) in the terminal: type
moves in the notation of the rules, 'help' for the commands. With --bot2,
two bots play each other.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from veletas import games as registry
from veletas import records
from veletas.cli import draw, options, saving
from veletas.errors import IllegalMoveError, InvalidMoveError
from veletas.limits import DEFAULT_SECONDS

BOTS = ("mcts", "greedy", "random")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    # The default game's quick rules (its smallest board) by default.
    options.add_rules(parser, **registry.get(registry.DEFAULT).options.QUICK)
    parser.add_argument("--bot", choices=BOTS, default="mcts", help="the opponent (default mcts)")
    parser.add_argument(
        "--seconds",
        type=options.seconds,
        default=DEFAULT_SECONDS,
        help=f"the mcts bot's thinking time per move (default {DEFAULT_SECONDS})",
    )
    parser.add_argument(
        "--threads", type=options.positive, default=1, help="the mcts bot's threads (default 1)"
    )
    parser.add_argument(
        "--as",
        dest="seat",
        choices=("first", "second"),
        default="first",
        help="play first (Black, or Light in Meridians, unless the other player swaps) "
        "or second (default first)",
    )
    parser.add_argument(
        "--bot2", choices=BOTS, help="a bot takes your seat: watch a bot against a bot"
    )
    parser.add_argument(
        "--seconds2", type=options.seconds, help="the thinking time of --bot2 (default --seconds)"
    )
    parser.add_argument("--seed", type=options.non_negative, default=0, help="the bots' seed")
    parser.add_argument("--name", default="human", help="your name in the saved record")
    saving.add_save(parser, "the game")
    parser.add_argument("--no-color", action="store_true", help="draw the board without colours")


def make_bot(kind: str, seconds: float, threads: int, seed: int) -> Any:
    from veletas import bots  # the bots need the extension; the rest of the command does not

    if kind == "mcts":
        return bots.MctsBot(seconds=seconds, threads=threads, seed=seed)
    if kind == "greedy":
        return bots.GreedyBot(seed)
    return bots.RandomBot(seed)


def bot_name(kind: str, seconds: float) -> str:
    return f"mcts ({seconds:g} s)" if kind == "mcts" else kind


class Game:
    """A game between two seats (0 = the first player), each a bot or None
    for the human at the keyboard."""

    def __init__(self, board: Any, players: list[Any], names: list[str], color: bool) -> None:
        self.board = board
        self.terminal = draw.terminal(board)
        self.rules = registry.game_of(board).room("match")
        self.players = players
        self.names = names
        self.color = color
        self.result: str | None = None
        self.termination: str | None = None

    @property
    def swapped(self) -> bool:
        return any(move.is_swap for move in self.board.move_stack)

    def seat_to_act(self) -> int:
        """The seat of the player to act, as the game's rules give it (the
        first player holds the first colour until a swap)."""
        seat: int = self.rules.seat_to_act(self.board, self.swapped)
        return seat

    def colour_names(self) -> dict[int, str]:
        """The player's name of each colour (as an int)."""
        return {int(colour): self.names[int(colour) ^ self.swapped] for colour in (0, 1)}

    def show(self) -> None:
        last = self.board.peek() if self.board.move_stack else None
        print()
        draw.print_board(self.board, color=self.color, lastmove=last)
        if self.color:
            print(draw.legend(self.board))
        if last is not None:
            print(f"last move: {draw.describe(self.board, last)}")
        print(f"position: {self.board.fen()}")
        print(draw.status_text(self.board, self.colour_names()))

    def play(self) -> None:
        self.show()
        while self.result is None and not self.board.is_game_over():
            seat = self.seat_to_act()
            player = self.players[seat]
            if player is None:
                if not self.human_turn():
                    break
            else:
                self.bot_turn(player, seat)
            if self.result is None:
                self.show()
        if self.result is None and self.board.is_game_over():
            self.result = records.result_of(self.board.winner)
        self.announce()

    def bot_turn(self, bot: Any, seat: int) -> None:
        move = bot.choose(self.board)
        info = getattr(bot, "last_search", None)
        self.board.push(move)
        name = self.names[seat]
        if info is not None:
            print(
                f"{name} plays {draw.describe(self.board, move)} after {info.seconds:.2f} s "
                f"({info.iterations} playouts, {info.value:.0%} to win)"
            )
        else:
            print(f"{name} plays {draw.describe(self.board, move)}")

    def human_turn(self) -> bool:
        """Reads commands until a move is played; False to stop the game."""
        board = self.board
        pie = str(board.phase) == "pie"
        terminal = self.terminal
        if pie:
            print(terminal.PIE_PROMPT)
        while True:
            colour = str(board.turn)
            prompt = "swap? " if pie else ""
            try:
                text = input(f"{prompt}{self.names[self.seat_to_act()]} ({colour})> ").strip()
            except EOFError:
                print()
                return False
            if not text:
                continue
            command, *rest = text.split()
            if pie and command in ("yes", "y"):
                text = command = "swap"
            if pie and command in ("no", "n", "keep"):
                print(terminal.KEEP_TEXT)
                pie = False
                if terminal.KEEP is None:
                    continue
                text = command = terminal.KEEP
            if command in ("help", "?"):
                print(terminal.HELP)
            elif command == "board":
                self.show()
            elif command == "moves":
                print(terminal.moves_text(board, rest[0] if rest else None))
            elif command == "undo":
                if self.undo():
                    self.show()
                    pie = str(board.phase) == "pie"
            elif command == "resign":
                self.result = "0-1" if int(board.turn) == 0 else "1-0"
                self.termination = "resignation"
                return False
            elif command in ("quit", "exit"):
                return False
            else:
                try:
                    board.push_str(text)
                except InvalidMoveError:
                    print(
                        f"{text!r} is not a move or a command: {terminal.NOT_A_MOVE}; "
                        "type 'help' for the commands."
                    )
                except IllegalMoveError as error:
                    print(f"{error}; type 'moves' to see the legal moves.")
                else:
                    return True

    def undo(self) -> bool:
        """Takes back moves up to and including the human's last turn (the
        bot's reply with it), so that the human is to act again."""
        board = self.board
        popped = []
        while board.move_stack:
            popped.append(board.pop())
            # The popped move was made by whoever acts now that it is gone.
            if self.players[self.seat_to_act()] is None:
                print(f"took back: {' '.join(str(move) for move in reversed(popped))}")
                return True
        for move in reversed(popped):
            board.push(move)
        print("there is no move of yours to take back")
        return False

    def announce(self) -> None:
        board = self.board
        if self.result in ("1-0", "0-1"):
            winner = self.terminal.COLORS[0 if self.result == "1-0" else 1]
            name = self.colour_names()[int(winner)]
            how = " (the other side resigned)" if self.termination == "resignation" else ""
            score = self.terminal.score_text(board)
            print(f"{name} ({winner}) wins{how}, {score}. Result {self.result}")
        else:
            print("game stopped without a result")

    def record(self) -> records.GameRecord:
        names = self.colour_names()
        record = records.GameRecord.from_board(
            self.board,
            black=names[0],
            white=names[1],
            result=self.result or "*",
        )
        if self.termination:
            record.tags["Termination"] = self.termination
        return record


def run(args: argparse.Namespace) -> int:
    problem = saving.save_problem(args)
    if problem is not None:  # before the game, not after it
        print(f"veletas: error: {problem}", file=sys.stderr)
        return 2
    board = options.board_from(args, None)
    color = draw.use_color(sys.stdout, args.no_color)
    bot = make_bot(args.bot, args.seconds, args.threads, args.seed)
    human_seat = 0 if args.seat == "first" else 1
    players: list[Any] = [None, None]
    names = ["", ""]
    players[1 - human_seat] = bot
    names[1 - human_seat] = bot_name(args.bot, args.seconds)
    if args.bot2 is not None:
        seconds2 = args.seconds2 or args.seconds
        players[human_seat] = make_bot(args.bot2, seconds2, args.threads, args.seed + 1)
        names[human_seat] = bot_name(args.bot2, seconds2)
        if names[0] == names[1]:
            names = [f"{names[0]} #1", f"{names[1]} #2"]
    else:
        names[human_seat] = args.name
        print(f"You play {args.seat} against {names[1 - human_seat]}. Type 'help' for help.")
    game = Game(board, players, names, color)
    game.play()
    if args.save:
        saving.save_records(args, [game.record()])
        print(f"saved the record to {args.save}")
    return 0
