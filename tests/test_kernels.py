"""The kernels of the native core (``veletas.kernels``,
``VELETAS_KERNEL``): every one this CPU can run plays the same games for the
same seed, in every game and policy; a bad choice is refused, named."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator

import numpy as np
import pytest
from veletas import games, kernels
from veletas.errors import KernelError, VeletasError
from veletas.playouts import Playouts

pytestmark = pytest.mark.skipif(kernels.current() is None, reason="no compiled extension")


@pytest.fixture
def restore() -> Iterator[None]:
    """Puts the kernel in use back after the test."""
    before = kernels.current()
    yield
    kernels.use(before)


def runs(game: games.Game) -> list[dict[str, object]]:
    """The playouts of the test for ``game``: each of its policies, where it
    has several, and the default rules."""
    if len(game.playouts.POLICIES) == 1:
        return [{}]
    return [{"policy": policy} for policy in game.playouts.POLICIES]


def same_games(a: Playouts, b: Playouts) -> bool:
    arrays = [(a.winner, b.winner), (a.swapped, b.swapped), (a.plies, b.plies)]
    arrays += [(a.columns[name], b.columns[name]) for name in a.columns]
    arrays += [(a.moves, b.moves), (a.offsets, b.offsets)]
    return set(a.columns) == set(b.columns) and all(
        np.array_equal(x, y) for x, y in arrays if x is not None or y is not None
    )


@pytest.mark.parametrize("game", list(games.every()), ids=lambda game: game.name)
def test_every_backend_plays_the_same_games(game: games.Game, restore: None) -> None:
    backends = kernels.supported()
    assert backends[0] == "portable"
    for keywords in runs(game):
        played = {}
        for name in backends:
            kernels.use(name)
            assert kernels.current() == name
            played[name] = game.playouts.playouts(200, seed=7, record=True, **keywords)
        first = played[backends[0]]
        for name in backends[1:]:
            assert same_games(played[name], first), f"{name} against portable, {keywords}"


def test_a_bad_choice_is_refused_and_changes_nothing(restore: None) -> None:
    before = kernels.current()
    with pytest.raises(KernelError, match=r"'avx9'.*portable"):
        kernels.use("avx9")
    assert kernels.current() == before
    assert issubclass(KernelError, VeletasError)
    if "x86-64-v3" not in kernels.supported():
        with pytest.raises(KernelError, match="not supported by this CPU"):
            kernels.use("x86-64-v3")
    kernels.use(None)
    assert kernels.current() in kernels.supported()


def python(code: str, kernel: str) -> subprocess.CompletedProcess[str]:
    environment = {**os.environ, "VELETAS_KERNEL": kernel}
    return subprocess.run(
        [sys.executable, "-c", code], env=environment, capture_output=True, text=True, check=False
    )


@pytest.mark.parametrize("name", ["portable", "x86-64-v3"])
def test_the_variable_chooses_the_backend(name: str) -> None:
    result = python("from veletas import kernels; print(kernels.current())", name)
    if name in kernels.supported():
        assert result.stdout.strip() == name, result.stderr
    else:
        assert "KernelError" in result.stderr
        assert "not supported" in result.stderr


def test_a_bad_variable_is_refused_at_import() -> None:
    result = python("import veletas", "fast")
    assert result.returncode != 0
    assert "KernelError: unknown kernel 'fast'" in result.stderr, result.stderr
    command = python("import sys; sys.argv = ['veletas']; import veletas", "fast")
    assert command.returncode == 2
    assert command.stderr.startswith("veletas: error: unknown kernel 'fast'")
