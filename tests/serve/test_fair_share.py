"""The server's searches shared fairly (``veletas.serve.fair``): a client
waits for at most one search of each other waiting client, however many
that client asks for; a search cancelled while it waits leaves no trace."""

from __future__ import annotations

import asyncio
import concurrent.futures
from collections.abc import Coroutine
from typing import Any, TypeVar

import pytest
from veletas.serve.fair import FairShare

T = TypeVar("T")


def run(coroutine: Coroutine[Any, Any, T]) -> T:
    """``coroutine`` on a loop of its own, in a thread: the browser tests
    leave one running in this one."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


async def run_in_turn(share: FairShare, asks: list[str]) -> list[str]:
    """Each of ``asks`` (a client's name) holds a slot for a moment; the
    order in which they got one."""
    order: list[str] = []
    gate = asyncio.Event()

    async def search(client: str) -> None:
        async with share.slot(client):
            order.append(client)
            await gate.wait()
            await asyncio.sleep(0)

    tasks = [asyncio.create_task(search(client)) for client in asks]
    await asyncio.sleep(0)
    gate.set()
    await asyncio.gather(*tasks)
    return order


def test_a_flood_from_one_client_does_not_hold_the_others() -> None:
    share = FairShare(1)
    asks = ["flood"] * 6 + ["b", "c"] + ["flood"] * 3 + ["b"]
    order = run(run_in_turn(share, asks))
    # After the search under way, the clients take turns: b and c wait for
    # one of the flood's searches each, not for all nine.
    assert order == ["flood", "flood", "b", "c", "flood", "b"] + ["flood"] * 6
    assert (share.busy, share.waiting()) == (0, 0)


def test_with_room_every_search_runs_at_once() -> None:
    share = FairShare(3)

    async def three() -> int:
        async with share.slot("a"), share.slot("b"), share.slot("a"):
            return share.busy

    assert run(three()) == 3
    assert share.busy == 0


def test_a_search_cancelled_while_it_waits_gives_its_turn_away() -> None:
    async def scenario() -> list[str]:
        share = FairShare(1)
        order: list[str] = []
        release = asyncio.Event()

        async def hold() -> None:
            async with share.slot("a"):
                order.append("a")
                await release.wait()

        async def wait(client: str) -> None:
            async with share.slot(client):
                order.append(client)

        first = asyncio.create_task(hold())
        await asyncio.sleep(0)
        gone = asyncio.create_task(wait("b"))
        later = asyncio.create_task(wait("c"))
        await asyncio.sleep(0)
        assert share.waiting() == 2
        gone.cancel()
        await asyncio.sleep(0)
        assert share.waiting("b") == 0
        release.set()
        await asyncio.gather(first, later)
        assert (share.busy, share.waiting()) == (0, 0)
        return order

    assert run(scenario()) == ["a", "c"]


def test_a_capacity_below_one_is_refused() -> None:
    with pytest.raises(ValueError, match="capacity must be 1 or more, not 0"):
        FairShare(0)
