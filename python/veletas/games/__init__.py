"""The games veletas plays, by name, and the one contract of what a game's
room gives the generic machinery (pictures, the command line, playouts,
records, reports, matches, the terminal, the page, the learning adapters,
the bots).

>>> from veletas import games
>>> sorted(games.GAMES)
['meridians', 'veletas']
>>> import veletas
>>> games.game_of(veletas.Board()).name
'veletas'
>>> games.get("meridians").playouts.POLICIES
('uniform',)

Each game has its own package here (``veletas.games.<name>``), its *room*:
its plain types, its pure-Python ``reference`` engine, and one module per
concern below. Generic code reaches a room only through this module: by
name (:func:`get`), by board (:func:`game_of`) or by a record's ``[Game]``
tag (:func:`by_title`), and then reads the members the protocols below
list, and nothing else. A third game adds a package providing every
protocol and an entry in :data:`GAMES`; the conformance tests then check it.
"""

from __future__ import annotations

import dataclasses
import importlib
from collections.abc import Callable, Iterator, Mapping, Sequence
from types import ModuleType
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Protocol, TypeVar, cast, overload

from veletas.rules_options import RuleOption

if TYPE_CHECKING:
    import numpy as np

__all__ = [
    "DEFAULT",
    "GAMES",
    "BotsRoom",
    "DrawingRoom",
    "EncodingRoom",
    "Game",
    "Games",
    "Job",
    "MatchRoom",
    "NativeSolve",
    "NewSearchPlayer",
    "NewState",
    "OptionsRoom",
    "OwnCounts",
    "PlayoutsRoom",
    "RecordOfGame",
    "RecordsRoom",
    "ReportRoom",
    "Run",
    "SearchPlayer",
    "TerminalRoom",
    "by_title",
    "every",
    "game_of",
    "get",
    "names",
]

DEFAULT = "veletas"
"""The game of every call and command that names none."""


# ----------------------------------------------------------------------
# The contract: one protocol per concern, each a module of the room.


class OptionsRoom(Protocol):
    """``veletas.games.<name>.options``: the game's rules options, in one table."""

    RULES: Sequence[RuleOption]
    """The options of its rules, as the command line adds, reads and
    describes them and as a record's tags carry them (a
    :class:`veletas.rules_options.RuleOption` each)."""
    QUICK: Mapping[str, Any]
    """The options of a quick game (the smallest board), for examples and checks."""
    FEN_TELLS: frozenset[str]
    """The options a position string carries itself: left out of a board's
    keyword arguments when a position is given and the option is not."""

    def board_kwargs(self, values: Mapping[str, Any]) -> dict[str, Any]:
        """The keyword arguments of the game's ``Board`` for the options'
        values by name (each given or its default)."""
        ...

    def has_pie_rule(self, rules: Any) -> bool:
        """Whether games of ``rules`` (a board's ``rules``) offer the pie
        swap: summaries show a swap rate only then."""
        ...

    def engine_options(self, board: Any) -> tuple[Any, ...]:
        """The rule options of ``board`` the native bots take after its
        position string."""
        ...

    def fen_kwargs(self, rules: Any) -> dict[str, Any]:
        """The keyword arguments that, with a position string, make a
        ``Board`` of ``rules`` on either engine (those the position string
        does not carry)."""
        ...


class Run(Protocol):
    """What a playout run and its games share: the game, where they start,
    the rules, the policy, the seed and the engine."""

    @property
    def game(self) -> str:
        """The game's name."""
        ...

    @property
    def start(self) -> str:
        """The position string of the start."""
        ...

    @property
    def rules(self) -> Any:
        """The game's ``Rules``."""
        ...

    @property
    def policy(self) -> str:
        """The playout policy."""
        ...

    @property
    def seed(self) -> int:
        """The seed of the run."""
        ...

    @property
    def backend(self) -> str:
        """The engine: ``"rust"`` or ``"python"``."""
        ...


class Games(Run, Protocol):
    """A run's games as its room and a dataset read them: a
    :class:`veletas.playouts.Playouts`, named here by what it holds so that
    the contract imports nothing above it."""

    @property
    def first_game(self) -> int:
        """The index of the first game."""
        ...

    @property
    def winner(self) -> np.ndarray: ...
    @property
    def swapped(self) -> np.ndarray: ...
    @property
    def plies(self) -> np.ndarray: ...
    @property
    def columns(self) -> dict[str, np.ndarray]: ...
    @property
    def moves(self) -> np.ndarray | None: ...
    @property
    def offsets(self) -> np.ndarray | None: ...

    def __len__(self) -> int: ...

    def dataset_columns(self) -> dict[str, np.ndarray]:
        """The per-game arrays a dataset writes, by column name."""
        ...


class Job(Run, Protocol):
    """A checked playout run as its room plays it: a
    :class:`veletas.playouts.PlayoutJob`."""

    @property
    def swapped(self) -> bool:
        """Whether the pie swap led to the start."""
        ...

    @property
    def threads(self) -> int | None:
        """Threads to play on; None for every core."""
        ...

    @property
    def record(self) -> bool:
        """Whether every game's moves are kept."""
        ...


class PlayoutsRoom(Protocol):
    """``veletas.games.<name>.playouts``: batch random games of the game."""

    GAME: str
    """The game's name."""
    POLICIES: tuple[str, ...]
    """Its playout policies, the default first."""
    COLUMNS: Mapping[str, str]
    """Its own per-game columns beyond winner, swapped and plies (``claims``,
    ``stones``), with their meaning."""
    MOVE_DTYPE: Any
    """The numpy dtype of one recorded move."""
    MOVE_CODES: str
    """How a dataset writes a move, as its metadata says."""
    COLORS: tuple[str, str]
    """The colours by index, as summaries name them."""
    SUMMARY_METHODS: Mapping[str, Callable[[Games], Any]]
    """The game's own summaries of a :class:`~veletas.playouts.Playouts`
    (``claim_counts``), read as its methods."""
    playouts: Callable[..., Games]
    """The game's ``playouts(n_games, **rules)`` on the selected engine."""
    reference_playouts: Callable[..., Games]
    """The same on the reference engine (``veletas.<game>.reference.playouts``)."""
    make_job: Callable[..., Job]
    """The checked :class:`~veletas.playouts.PlayoutJob` of ``playouts``' arguments."""
    run: Callable[[Job, int, int], dict[str, np.ndarray]]
    """``run(job, first_game, n_games)``: the arrays of a range of games."""
    moves_of: Callable[[Games, np.ndarray], list[Any]]
    """``moves_of(games, rows)``: recorded rows as the engine's ``Move`` values."""
    start_board: Callable[[Games], Any]
    """``start_board(games)``: a board at the run's start."""
    start_of_game: Callable[..., str]
    """``start_of_game(rules, backend)``: the position string of the start."""
    describe: Callable[..., str]
    """``describe(rules)``: the rules in a few words."""
    rules_summary: Callable[..., dict[str, Any]]
    """``rules_summary(rules)``: the rules as plain data."""
    columns_summary: Callable[..., dict[str, Any]]
    """``columns_summary(tally)``: the game's columns summarised, as plain
    data, from the counts of a :class:`~veletas.playouts.Tally` (the summary of
    a run of any length, in bounded memory)."""
    rules_text: Callable[[Any], str]
    """``rules_text(rules)``: the rules in words, for the summary table."""
    summary_lines: Callable[..., list[str]]
    """``summary_lines(tally)``: the game's rows of the summary table, from
    the counts of a :class:`~veletas.playouts.Tally`."""
    record: Callable[[Games, int, list[Any]], Any]
    """``record(games, i, moves)``: game ``i`` as a game record."""
    encode_moves: Callable[[np.ndarray], np.ndarray]
    """Recorded moves to the integer codes a dataset writes."""
    decode_moves: Callable[[Any], np.ndarray]
    """Those codes back to recorded moves."""
    code_of: Callable[[Any], int]
    """The code of one ``Move``."""
    code_text: Callable[[int], str]
    """A code in the game's notation."""
    final_columns: Callable[..., dict[str, tuple[int, int]]]
    """``final_columns(board)``: the game's columns of a finished board."""
    Rules: type
    """The game's ``Rules``."""


class RecordsRoom(Protocol):
    """``veletas.games.<name>.records``: what a game record holds beyond the
    generic format."""

    GAME: str
    """The value of the ``[Game]`` tag."""
    PLAYERS: tuple[str, str]
    """The tags naming who held each colour, colour 0 first."""
    RULE_TAGS: tuple[str, ...]
    """The rule tags every written record has, in order."""
    rule_tags: Callable[..., dict[str, str]]
    """``rule_tags(rules)``: the tags of ``rules``."""
    rules_of: Callable[[dict[str, str]], Any]
    """``rules_of(tags)``: the rules of checked tags."""
    board_rules: Callable[[Any], Any]
    """``board_rules(board)``: the rules a record of ``board`` writes."""
    tag_rules: Callable[[dict[str, tuple[int, str]], Callable[[int, str], Exception]], Any]
    """``tag_rules(tags, fail)``: the rules of read tags, checked."""
    required_tags: Callable[..., list[str]]
    """``required_tags(tags)``: the rule tags a record must have."""
    new_board: Callable[[Any, str | None], Any]
    """``new_board(rules, start)``: a board of ``rules`` at ``start``."""
    color: Callable[[int], Any]
    """The game's ``Color`` of an index."""
    Rules: type
    """The game's ``Rules``."""


class OwnCounts(Protocol):
    """A report's counts of a game's own columns (its room's ``GameCounts``)."""

    def add(self, games: Games) -> None:
        """Count the games of one range."""
        ...

    def numbers(
        self, winner: np.ndarray, first_won: np.ndarray, advantage: tuple[float, float, float]
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """The game's own numbers and metrics, given every game's winner,
        whether the first player won, and the first player's advantage (an
        estimate with its interval)."""
        ...


class ReportRoom(Protocol):
    """``veletas.games.<name>.report``: the game's part of ``veletas report``."""

    COLORS: tuple[str, str]
    """The colours by index."""
    FIGURES: tuple[str, ...]
    """The names of the game's figures."""
    CSS: str
    """Style rules for its figures."""
    GameCounts: Callable[[Games, int], OwnCounts]
    """``GameCounts(head, sample_every)``: the counts of the game's own
    columns over a file's games, gathered one range at a time (replaying
    every ``sample_every``-th game where the game needs to)."""
    figures: Callable[..., dict[str, Any]]
    """``figures(data, mpl)``: the game's figures by name."""
    sections: Callable[..., list[str]]
    """``sections(data, figure)``: the game's HTML sections."""
    metric_rows: Callable[..., list[tuple[str, str, str, Any]]]
    """``metric_rows(metrics)``: the game's rows of the metrics table."""
    rules_text: Callable[[Any], str]
    """The rules in words."""
    pie_note: Callable[[Any], str]
    """What the pie rule means here."""
    chance: Callable[..., str]
    """A proportion in words."""


class RecordOfGame(Protocol):
    """A match room's ``record``: a finished game as a
    :class:`veletas.records.GameRecord`, ``players`` the names of the first
    and second player."""

    def __call__(self, board: Any, players: tuple[str, str], swapped: bool, **tags: str) -> Any: ...


class MatchRoom(Protocol):
    """``veletas.games.<name>.match``: the seats of a match."""

    seat_to_act: Callable[[Any, bool], int]
    """``seat_to_act(board, swapped)``: the seat (0 first player) to act."""
    rules: Callable[[Any], dict[str, object]]
    """``rules(board)``: the rules of a board, for summaries."""
    describe: Callable[[Any], str]
    """``describe(board)``: the rules of a board in words."""
    record: RecordOfGame
    """``record(board, players, swapped, **tags)``: the record of a game."""


class TerminalRoom(Protocol):
    """``veletas.games.<name>.terminal``: ``veletas play`` and ``show``."""

    COLORS: tuple[Any, Any]
    """The colours, colour 0 first."""
    HELP: str
    """The help of the move prompt."""
    PIE_PROMPT: str
    """What the pie decision asks."""
    KEEP: Any
    """The move that keeps the colours after the pie offer (None: none)."""
    KEEP_TEXT: str
    """What keeping says."""
    NOT_A_MOVE: str
    """What moves look like, for a bad one."""
    LEGEND: str
    """The legend of the board's glyphs."""
    board_text: Callable[..., str]
    """``board_text(board, color=, lastmove=)``: the board as text."""
    status_text: Callable[..., str]
    """``status_text(board, names)``: who is to act, or the result."""
    score_text: Callable[[Any], str]
    """The score of a board."""
    moves_text: Callable[..., str]
    """The legal moves, in the notation."""
    describe: Callable[[Any], str]
    """A move in words."""


class DrawingRoom(Protocol):
    """``veletas.games.<name>.svg``: the picture of a position."""

    board: Callable[..., str]
    """``board(board, **options)``: the SVG of a position."""


class NewState(Protocol):
    """An encoding room's ``new_state``: the first decision of a game of the
    rules its options table names (``**rules``, checked by the room)."""

    def __call__(self, **rules: Any) -> Any: ...


class EncodingRoom(Protocol):
    """``veletas.games.<name>.encoding``: the game for learning."""

    DecisionState: Any
    """The class of its decision states (the engine selected)."""
    OBSERVATION_PLANES: tuple[str, ...]
    """The planes of an observation, by name."""
    OPENSPIEL_PARAMETERS: Mapping[str, Any]
    """The OpenSpiel game's parameters and defaults."""
    observation_for: Callable[[Any, int], np.ndarray]
    """``observation_for(state, seat)``: the planes of a decision state."""
    describe: Callable[[Any], str]
    """A decision state in words."""
    action_to_string: Callable[..., str]
    """An action id in words."""
    new_state: NewState
    """``new_state(**rules)``: a decision state at the start of the rules."""
    rules_of: Callable[[Any], Any]
    """The rules of a decision state."""
    openspiel_start: Callable[[dict[str, Any]], Any]
    """The start state of OpenSpiel parameters."""
    max_game_length: Callable[[Any], int]
    """The most decisions a game can take."""
    swap_action: Callable[..., int]
    """The action id of the swap."""
    vector_env_type: Callable[[], Any]
    """The native ``VectorEnv`` class."""


class SearchPlayer(Protocol):
    """A game's native search player (``MctsPlayer``, ``MeridiansMctsPlayer``):
    a position string, the game's rules options in order and the pie swap,
    then the budget."""

    def choose(
        self,
        fen: str,
        *options_and_swapped: Any,
        iterations: int | None = None,
        seconds: float | None = None,
        stop: Any = None,
    ) -> tuple[str, int, float, bool, int] | None:
        """The move to play (notation), iterations, value, tree reused, nodes."""
        ...

    def analyse(
        self,
        fen: str,
        *options_and_swapped: Any,
        iterations: int | None = None,
        seconds: float | None = None,
        stop: Any = None,
        top: int = 5,
    ) -> tuple[list[tuple[str, int, float, bool | None]], int, int, list[str]] | None:
        """The best moves with visits, values and proofs; iterations, nodes,
        and the line."""
        ...

    def clear(self) -> None:
        """Forget the tree kept between moves."""
        ...


class NewSearchPlayer(Protocol):
    """A bots room's ``mcts_player``: the class of its native search player."""

    DEFAULT_EXPLORATION: float
    """The game's UCT constant for the default search (``mcts`` with its
    cutoff), used when none is given."""
    UCT_EXPLORATION: float
    """The game's UCT constant for playouts to the end (``uct``, or ``mcts``
    with a cutoff of 0), used when none is given."""
    DEFAULT_CUTOFF: int
    """The game's random decisions of a cut playout, used when no
    ``cutoff`` is given."""

    def __call__(
        self,
        *,
        algorithm: str = ...,
        threads: int = ...,
        seed: int = ...,
        exploration: float | None = ...,
        max_nodes: int = ...,
        solve_share: float = ...,
        cutoff: int = ...,
    ) -> SearchPlayer: ...


class NativeSolve(Protocol):
    """A bots room's ``solve``: a position string, the game's rules options
    in order and the pie swap, then the budget; it returns the value, the
    winning move, nodes, seconds, the proof's size and its entries."""

    def __call__(
        self,
        fen: str,
        *options_and_swapped: Any,
        memory: int,
        max_proof: int,
        seconds: float | None = None,
        max_nodes: int | None = None,
        proof: bool = False,
        stop: Any = None,
        progress: Callable[[int, float, int], object] | None = None,
        threads: int = 1,
        symmetries: bool = True,
        table: Any = None,
    ) -> tuple[str, str | None, int, float, int | None, Any]: ...


class BotsRoom(Protocol):
    """``veletas.games.<name>.bots``: the native engines of the bots."""

    random_move: Callable[..., str | None]
    """``random_move(fen, *options, seed, moves)``: a uniformly random move."""
    greedy_move: Callable[..., str | None]
    """``greedy_move(fen, *options, seed, moves)``: the one-ply bot's move."""
    mcts_player: NewSearchPlayer
    """The native search player's class."""
    solve: NativeSolve
    """``solve(fen, *options, swapped, *, memory, max_proof, ...)``: the
    native exact solver (:func:`veletas.solving.solve`)."""
    move_type: Callable[[], Any]
    """The native ``Move`` class."""


# ----------------------------------------------------------------------
# The registry.


Room = TypeVar("Room")


class _Part(Generic[Room]):
    """A module of a game's room, read as the protocol it provides: the
    attribute's name is the module's (``Game.playouts`` is
    ``veletas.games.<name>.playouts``)."""

    def __init__(self) -> None:
        self.module = ""

    def __set_name__(self, owner: type, name: str) -> None:
        self.module = name

    @overload
    def __get__(self, game: None, owner: type) -> _Part[Room]: ...
    @overload
    def __get__(self, game: Game, owner: type) -> Room: ...
    def __get__(self, game: Game | None, owner: type) -> Room | _Part[Room]:
        if game is None:
            return self
        return cast(Room, game.room(self.module))


@dataclasses.dataclass(frozen=True)
class Game:
    """A game of the family, as the generic machinery sees it: its name,
    its public package and its room, whose modules provide the protocols
    above."""

    name: str
    """The name ``--game`` and ``game=`` take."""
    package: str
    """The public package of its API (``Board``, ``Move``, ``reference``)."""
    drawing: str
    """The module whose ``board(board, **options)`` draws a position as SVG
    (:class:`DrawingRoom`)."""
    web: str | None = None
    """The module whose ``GAME`` is the game for ``veletas serve``
    (:class:`veletas.serve.protocol.WebGame`); None for a game the page
    does not offer yet."""
    title: str = ""
    """The game's name as records write it (the ``[Game]`` tag); the name
    capitalised unless given."""

    def __post_init__(self) -> None:
        if not self.title:
            object.__setattr__(self, "title", self.name.capitalize())

    def api(self) -> Any:
        """The public package: ``Board``, ``Move``, ``reference`` and the rest."""
        return importlib.import_module(self.package)

    def reference(self) -> Any:
        """The public package of its reference engine."""
        return importlib.import_module(f"{self.package}.reference")

    def board_types(self) -> tuple[type, ...]:
        """The board classes of both engines (one where the extension is not built)."""
        return tuple({self.api().Board, self.reference().Board})

    def room(self, module: str) -> ModuleType:
        """A module of the game's own room, ``veletas.games.<name>.<module>``."""
        return importlib.import_module(f"{__name__}.{self.name}.{module}")

    options: ClassVar[_Part[OptionsRoom]] = _Part()
    """Its rules options (:class:`OptionsRoom`)."""
    playouts: ClassVar[_Part[PlayoutsRoom]] = _Part()
    """Its playouts (:class:`PlayoutsRoom`)."""
    records: ClassVar[_Part[RecordsRoom]] = _Part()
    """Its part of game records (:class:`RecordsRoom`)."""
    report: ClassVar[_Part[ReportRoom]] = _Part()
    """Its part of reports (:class:`ReportRoom`)."""
    match: ClassVar[_Part[MatchRoom]] = _Part()
    """Its seats in a match (:class:`MatchRoom`)."""
    terminal: ClassVar[_Part[TerminalRoom]] = _Part()
    """Its terminal (:class:`TerminalRoom`)."""
    bots: ClassVar[_Part[BotsRoom]] = _Part()
    """Its bots' engines (:class:`BotsRoom`)."""

    def encoding(self) -> EncodingRoom:
        """Its action encoding for the learning adapters (:class:`EncodingRoom`)."""
        return cast(EncodingRoom, self.room("encoding"))

    def web_game(self) -> Any:
        """The game for ``veletas serve``, or None where it has none."""
        if self.web is None:
            return None
        return importlib.import_module(self.web).GAME

    @property
    def draw(self) -> Callable[..., str]:
        """``draw(board, **options)``: the SVG picture of a position."""
        drawing = cast(DrawingRoom, importlib.import_module(self.drawing))
        return drawing.board


PROTOCOLS: dict[str, type] = {
    "options": OptionsRoom,
    "playouts": PlayoutsRoom,
    "records": RecordsRoom,
    "report": ReportRoom,
    "match": MatchRoom,
    "terminal": TerminalRoom,
    "svg": DrawingRoom,
    "encoding": EncodingRoom,
    "bots": BotsRoom,
}
"""Each module of a room and the protocol it provides."""


def members(protocol: type) -> list[str]:
    """The names a protocol asks of a module."""
    names = set(getattr(protocol, "__annotations__", {}))
    names |= {
        name
        for name, value in vars(protocol).items()
        if callable(value) and not name.startswith("_")
    }
    return sorted(names)


def missing(game: Game) -> list[str]:
    """What the room of ``game`` lacks of the contract, as ``module.member``
    or ``module``, or ``module (why)`` for one that cannot be imported here
    (its bots without the compiled extension); empty for a room that
    provides it all."""
    lacking: list[str] = []
    for module, protocol in PROTOCOLS.items():
        try:
            room = game.room(module)
        except ModuleNotFoundError:
            lacking.append(module)
            continue
        except ImportError as error:  # the module is there, but what it needs is not
            lacking.append(f"{module} ({error})")
            continue
        lacking.extend(f"{module}.{name}" for name in members(protocol) if not hasattr(room, name))
    return lacking


GAMES: dict[str, Game] = {
    "veletas": Game(
        "veletas", "veletas", "veletas.games.veletas.svg", web="veletas.games.veletas.web"
    ),
    "meridians": Game(
        "meridians",
        "veletas.meridians",
        "veletas.games.meridians.svg",
        web="veletas.games.meridians.web",
    ),
}
"""Every game, by name. Veletas is the default everywhere (:data:`DEFAULT`)."""


def get(name: str) -> Game:
    """The game called ``name``.

    :raises ValueError: for an unknown name, listing the known ones.
    """
    try:
        return GAMES[name]
    except (KeyError, TypeError):
        known = ", ".join(repr(game) for game in GAMES)
        raise ValueError(f"unknown game {name!r}; expected one of {known}") from None


def by_title(title: str) -> Game:
    """The game whose records write ``[Game "<title>"]``.

    :raises ValueError: for a title of no game, listing the known ones.
    """
    found = next((game for game in GAMES.values() if game.title == title), None)
    if found is None:
        known = " or ".join(repr(game.title) for game in every())
        raise ValueError(f"unknown game {title!r}; expected {known}")
    return found


def game_of(board: object) -> Game:
    """The game a board (of either engine) plays.

    :raises TypeError: if ``board`` is no game's board.
    """
    for game in GAMES.values():
        if isinstance(board, game.board_types()):
            return game
    raise TypeError(f"expected a board of a game of veletas, not {type(board).__name__}")


def every() -> Iterator[Game]:
    """Every game, the default first."""
    yield GAMES[DEFAULT]
    yield from (game for name, game in GAMES.items() if name != DEFAULT)


def names() -> list[str]:
    """The name of every game, the default first (what ``--game`` takes)."""
    return [game.name for game in every()]
