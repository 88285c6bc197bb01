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
        self._native_names = {name: native_prefix + name for name in reference}
        """Each class's name in the native module (``MeridiansBoard``)."""

    def of(self, backend: str) -> Any:
        """The engine ``backend`` names: ``"rust"`` the native core, else
        the reference.

        :raises ImportError: for ``"rust"`` where the extension is not built.
        """
        if backend != "rust":
            return self.reference
        core = require_native("the rust backend")
        return SimpleNamespace(
            **{public: getattr(core, name) for public, name in self._native_names.items()}
        )

    def selected(self) -> Any:
        """The engine in use (``VELETAS_IMPLEMENTATION``)."""
        return self.of(IMPLEMENTATION)

    def board_types(self) -> tuple[type, ...]:
        """The board classes of both engines (the reference's alone where
        the extension is not built)."""
        if native is None:
            return (self.reference.Board,)
        return (getattr(native, self._native_names["Board"]), self.reference.Board)

    def of_board(self, board: object) -> Any:
        """The engine whose ``Board`` ``board`` is (the reference for any other)."""
        if native is not None and isinstance(board, getattr(native, self._native_names["Board"])):
            return self.of("rust")
        return self.reference
