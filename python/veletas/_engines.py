"""A game's two engines as its room reaches them: the native core and the
pure-Python reference, by backend name (``"rust"``, ``"python"``), the one in
use (``VELETAS_IMPLEMENTATION``) and the one a board belongs to. Each room
makes its :class:`Engines` from its reference's classes and the prefix of
its native ones' names, so that it builds boards without going through its
face.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import SimpleNamespace
from typing import Any

from veletas._implementation import IMPLEMENTATION, native, require_native

__all__ = ["Engines"]


class Engines:
    """The engines of one game: each an object whose attributes are the
    engine's classes under their public names (``Board``, ``Move``, ...).

    >>> from veletas.games.meridians.engine import ENGINES
    >>> ENGINES.of("python").Board.__module__
    'veletas.games.meridians.reference.board'
    """

    def __init__(self, reference: Mapping[str, Any], native_prefix: str = "") -> None:
        self.reference = SimpleNamespace(**reference)
        """The reference engine."""
        self._native = (
            None
            if native is None
            else SimpleNamespace(
                **{name: getattr(native, native_prefix + name) for name in reference}
            )
        )
        """The native engine, its classes under their public names
        (``MeridiansBoard`` as ``Board``); None where it is not built."""

    def of(self, backend: str) -> Any:
        """The engine ``backend`` names: ``"rust"`` the native core, else
        the reference.

        :raises ImportError: for ``"rust"`` where the extension is not built.
        """
        if backend != "rust":
            return self.reference
        if self._native is None:
            require_native("the rust backend")  # raises, naming what is missing
        return self._native

    def selected(self) -> Any:
        """The engine in use (``VELETAS_IMPLEMENTATION``)."""
        return self.of(IMPLEMENTATION)

    def board_types(self) -> tuple[type, ...]:
        """The board classes of both engines (the reference's alone where
        the extension is not built)."""
        if self._native is None:
            return (self.reference.Board,)
        return (self._native.Board, self.reference.Board)

    def of_board(self, board: object) -> Any:
        """The engine whose ``Board`` ``board`` is (the reference for any other)."""
        if self._native is not None and isinstance(board, self._native.Board):
            return self._native
        return self.reference
